#!/usr/bin/env python3
"""Writes run 48's second experiment, x_flatp.json: gn_flat builds with PARTS (a workgroup of
PARTS parts, each part one sample of the group, at once), from kernels/gn_flat.json's
template. Run from the repository root: python3 results/h100/run48/exp2/make_x.py"""
import copy, json, os
here = os.path.dirname(os.path.abspath(__file__))
src = json.load(open("kernels/gn_flat.json"))["variants"][0]
fam = {"family": "x_flatp", "let": copy.deepcopy(src["let"]), "variant": copy.deepcopy(src["variant"])}
let = fam["let"]
let["rows"] = "ceil_div(N, ${p})"
fam["let"] = let = {k: let[k] for k in ("rows", "rows_per_chunk", "chunks", "traffic", "part_bytes")}
sc = {"vec": 1, "v": "", "align": ""}
v4 = {"vec": 4, "v": "_v4", "align": "M % 4 == 0 && "}
B = []
# (wg, parts, slots, lo, hi, W_LATE)
for wg, p, sl, lo, hi, wl in [(1024, 2, 8, 2048, 4096, None), (1024, 2, 16, 4096, 8192, 1),
                              (512, 2, 16, 2048, 4096, None), (1024, 4, 8, 1024, 2048, None),
                              (1024, 4, 16, 2048, 4096, 1), (512, 4, 8, 512, 1024, None),
                              (1024, 8, 8, 512, 1024, None), (256, 4, 4, 64, 256, None),
                              (512, 4, 4, 256, 512, None)]:
    B.append(dict(sc, wg=wg, p=p, slots=sl, lo=lo, hi=hi, wl=wl))
for wg, p, sl, lo, hi, wl in [(1024, 2, 2, 2048, 4096, None), (1024, 2, 4, 4096, 8192, 1),
                              (1024, 4, 2, 1024, 2048, None), (1024, 4, 4, 2048, 4096, 1)]:
    B.append(dict(v4, wg=wg, p=p, slots=sl, lo=lo, hi=hi, wl=wl))
fam["axes"] = [B]
v = fam["variant"]
v["name"] = "x_flatp${v}_${wg}x${slots}p${p}"
v["description"] = "experiment (run 48): gn_flat with PARTS=${p} (${p} samples of a group at once, one per part of the workgroup)"
v["when"] = "HW == 1 && ${align}M > ${lo} && M <= ${hi} && N > 1 && (${wg} / ${p}) % SUBGROUP == 0"
st = v["stages"]
st[0]["defines"] = {"SLOTS": "${slots}", "VEC": "${vec}", "PARTS": "${p}", "W_LATE": "${wl}"}
st[1]["when"] = "N > ${p}"
st[1]["defines"] = {"ROW_LANES": 8, "BATCH": 16, "SAMPLES_PER_ROW": "${p}"}
st[1]["bindings"] = ["part", "part2", "counter", "grad_weight", "grad_bias", "params"]
json.dump({"variants": [fam]}, open(os.path.join(here, "x_flatp.json"), "w"), indent=1)
