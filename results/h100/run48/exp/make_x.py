#!/usr/bin/env python3
"""Writes run 48's experiment manifests x_onchip2l.json from kernels/gn_onchip2.json: the
one-workgroup-per-(n, g) builds with PART_LAST (grad_weight / grad_bias summed by the last
workgroup of each g, gn_part.glsl) instead of the dwdb stage, renamed x_<name>l, admitted
where N > 1 and the last workgroup's loads are few (N * ceil_div(CPG, wg) <= 64).
Run from the repository root: python3 results/h100/run48/exp/make_x.py"""
import copy, json, os
here = os.path.dirname(os.path.abspath(__file__))
src = json.load(open("kernels/gn_onchip2.json"))
fam = copy.deepcopy(src["variants"][0])  # the one-workgroup-per-(n, g) family, not the split
assert fam["family"] == "gn_onchip2"
fam["family"] = "x_onchip2l"
v = fam["variant"]
v["name"] = "x_" + v["name"][3:] + "l"
v["description"] = "experiment (run 48): " + "${description}" + " with PART_LAST (one dispatch)"
v["when"] = "${when} && N > 1 && N * ceil_div(CPG, ${wg}) <= 64"
v["traffic_bytes"] = "12 * E + 16 * N * C + 8 * C"
v["params"] = ["1", "1"]
b = v["buffers"]
del b["part2"]
b["counter"] = {"scratch_bytes": "4 * G", "zero": True}
st = v["stages"][0]
st["defines"]["PART_LAST"] = 1
st["bindings"] = st["bindings"] + ["counter"]
v["stages"] = [st]
# the let's rows_per_chunk / chunks are no longer used: drop them (a placeholder no build uses is an error)
for k in ("rows_per_chunk", "chunks"):
    fam["let"].pop(k, None)
json.dump({"variants": [fam]}, open(os.path.join(here, "x_onchip2l.json"), "w"), indent=1)
