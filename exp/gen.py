import json
def group_stage(shader, wg, defines):
    return {"name": "group", "shader": shader, "defines": defines, "workgroup_size": wg,
            "dispatch": ["N * G", 1, 1], "foldable": True,
            "bindings": ["grad_out", "x", "weight", "grad_input", "part", "params"]}
def dwdb_stage(batch=None):
    if batch is None:
        return {"name": "dwdb", "shader": "../kernels/glsl/gn_apply.comp", "defines": {"ENTRY_DWDB": 1},
                "workgroup_size": 256, "dispatch": ["ceil_div(C, 256)", 1, 1],
                "bindings": ["part", "grad_weight", "grad_bias", "params"]}
    return {"name": "dwdb", "shader": "glsl/dwdb.comp", "defines": {"BATCH": batch},
            "workgroup_size": 256, "dispatch": ["ceil_div(C, 256)", 1, 1],
            "bindings": ["part", "grad_weight", "grad_bias", "params"]}
BUF = {"grad_out": {"tensor": "grad_out"}, "x": {"tensor": "x"}, "weight": {"tensor": "weight"},
       "grad_input": {"tensor": "grad_input"}, "grad_weight": {"tensor": "grad_weight"},
       "grad_bias": {"tensor": "grad_bias"}, "part": {"scratch_bytes": "8 * N * C"}}
def variant(name, stages, when):
    return {"name": name, "description": "experiment", "deterministic": True,
            "requires": ["subgroup_arithmetic"], "when": when,
            "traffic_bytes": "12 * E + 16 * N * C + 16 * C", "buffers": BUF, "stages": stages}
def cwhen(wg, slots):
    q = "ceil_div(CPG * HW / 4, SUBGROUP)"
    kq = f"ceil_div({q}, {wg} / SUBGROUP)"
    return f"HW % 4 == 0 && {kq} <= {slots} && {kq} * SUBGROUP <= HW / 4 && CPG <= 1024"
V = []
def xc(name, wg, dy, lane, merge, dw="std", slots=7):
    d = {"VEC": 4, "SLOTS": slots, "DY_SHARED": dy, "LANE_STATS": lane, "MERGE_REF": merge}
    st = [group_stage("glsl/gn_c.comp", wg, d)]
    if dw == "std": st.append(dwdb_stage())
    elif dw != "none": st.append(dwdb_stage(dw))
    V.append(variant(name, st, cwhen(wg, slots)))
xc("xc_896_dy1_m_b32", 896, 1, 0, 1, dw=32)
xc("xc_896_dy2_m_b32", 896, 2, 0, 1, dw=32)
xc("xc_896_m_b32", 896, 0, 0, 1, dw=32)
xc("xc_896_dy1_m", 896, 1, 0, 1)
xc("xc_896_dy1_m_nodw", 896, 1, 0, 1, dw="none")
xc("xc_1024", 1024, 1, 0, 0)
xc("xc_896", 896, 0, 0, 0)
xc("xc_896_dy1", 896, 1, 0, 0)
xc("xc_896_m", 896, 0, 0, 1)
xc("xc_896_lm", 896, 0, 1, 1)
xc("xc_1024_lm", 1024, 1, 1, 1)
xc("xc_896_lm_b32", 896, 0, 1, 1, dw=32)
xc("xc_896_lm_nodw", 896, 0, 1, 1, dw="none")
base = {"VEC": 4, "SLOTS": 7, "DY_SHARED": 1}
bw = "HW % 4 == 0 && CPG * ceil_div((HW / 4), SUBGROUP) <= 1024 / SUBGROUP * 7 && CPG <= 1024"
V.append(variant("xb_nodw", [group_stage("../kernels/glsl/gn_onchip2_sg.comp", 1024, base)], bw))
V.append(variant("xb_b32", [group_stage("../kernels/glsl/gn_onchip2_sg.comp", 1024, base), dwdb_stage(32)], bw))
for nm, wg, dd in [("v4_1024", 1024, {"VEC": 4, "SLOTS": 7, "DY_SHARED": 1}), ("v4_512", 512, {"VEC": 4, "SLOTS": 6}), ("512", 512, {"VEC": 1, "SLOTS": 24})]:
    import json as _j
    src = {v["name"]: v for v in _j.load(open("/work/main/kernels/gn_onchip2.json"))["variants"]}["gn_onchip2_" + nm]
    V.append(variant("xr_" + nm, [group_stage("glsl/gn_sg_ref.comp", wg, dd), dwdb_stage()], src["when"]))
src896 = {v["name"]: v for v in _j.load(open("/work/main/kernels/gn_onchip2.json"))["variants"]}["gn_onchip2_v4_896"]
for nm, extra in [("xs_dot", {"SE2_DOT": 1}), ("xs_nomask", {"NO_MASK": 1}), ("xs_both", {"SE2_DOT": 1, "NO_MASK": 1})]:
    dd = {"VEC": 4, "SLOTS": 7, "DY_SHARED": 1}; dd.update(extra)
    V.append(variant(nm, [group_stage("glsl/gn_span_x.comp", 896, dd), dwdb_stage()], src896["when"]))
json.dump({"variants": V}, open("/work/main/exp/gn_c.json", "w"), indent=1)
print(len(V))
