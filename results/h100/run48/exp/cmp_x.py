#!/usr/bin/env python3
"""Per shape of a results file: the fastest gn_* and the fastest x_* (hot medians, PASS only),
their ratio, and PyTorch's bwd where a torch file is given; the geometric mean of gn/x over
the shapes both ran. Usage: cmp_x.py RESULTS.json.gz [TORCH.json.gz]"""
import gzip, json, math, sys

def load(path):
    return json.load(gzip.open(path) if path.endswith(".gz") else open(path))

def best(path):
    t = {}
    for b in load(path)["benchmarks"]:
        g = b.get("gnbench")
        if not g or b.get("aggregate_name") != "median" or g["verdict"] != "PASS":
            continue
        p, v = g["problem"]["name"], g["variant"]
        fam = "x" if v.startswith("x_") else "gn"
        cur = t.setdefault(p, {})
        if fam not in cur or b["real_time"] < cur[fam][0]:
            cur[fam] = (b["real_time"], v)
    return t

t = best(sys.argv[1])
torch = {}
if len(sys.argv) > 2:
    for r in load(sys.argv[2])["rows"]:
        torch[r["name"]] = r["graph_bwd_ms"] * 1000.0  # as scripts/perf_table.py: CUDA-graph replay
logs = []
for p in sorted(t):
    e = t[p]
    if "gn" not in e:
        continue
    gn, gv = e["gn"]
    line = f"{p:34s} {gv:26s} {gn:8.2f}"
    if "x" in e:
        x, xv = e["x"]
        logs.append(math.log(gn / x))
        line += f"  {xv:26s} {x:8.2f}  gn/x {gn / x:5.3f}"
    else:
        line += " " * 50
    if p in torch:
        line += f"  torch {torch[p]:8.2f}  best {torch[p] / min(gn, e.get('x', (gn,))[0]):5.3f}x (gn alone {torch[p] / gn:5.3f}x)"
    print(line)
if logs:
    print(f"geomean gn/x over {len(logs)} shapes: {math.exp(sum(logs) / len(logs)):.3f}")
