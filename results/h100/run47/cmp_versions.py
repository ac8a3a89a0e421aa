"""Run 47: hot medians of one call's three runs (new, old, new again on one machine), per build and
for the fastest build per shape: old / new as a geometric mean (new = the geometric mean of its two
runs), and new2 / new, the drift. Usage: cmp_versions.py DIR PREFIX (e.g. 47d 47d_fewg)."""
import collections, gzip, json, math, sys


def load(f):
    t = {}
    for b in json.load(gzip.open(f))["benchmarks"]:
        g = b.get("gnbench")
        if g and b.get("aggregate_name") == "median" and g["verdict"] == "PASS":
            t[(g["problem"]["name"], g["variant"])] = b["real_time"]
    return t


d, pre = sys.argv[1], sys.argv[2]
n, o, n2 = (load(f"{d}/{pre}_{v}.json.gz") for v in ("new", "old", "new2"))
keys = sorted(set(n) & set(o) & set(n2))
new = {k: math.sqrt(n[k] * n2[k]) for k in keys}
gm = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print(f"{pre}: {len(keys)} entries, old/new {gm([o[k] / new[k] for k in keys]):.4f}, "
      f"new2/new {gm([n2[k] / n[k] for k in keys]):.4f}")
byv = collections.defaultdict(list)
for k in keys:
    byv[k[1]].append(o[k] / new[k])
for v, xs in sorted(byv.items()):
    print(f"  {v:24s} n={len(xs):3d} old/new {gm(xs):.3f} (min {min(xs):.3f}, max {max(xs):.3f})")
probs = sorted({k[0] for k in keys})
best = [(min(o[k] for k in keys if k[0] == p), min(new[k] for k in keys if k[0] == p), p) for p in probs]
print(f"  fastest build per shape, old/new {gm([a / b for a, b, _ in best]):.4f}")
for a, b, p in sorted(best, key=lambda x: x[0] / x[1]):
    if abs(a / b - 1) > 0.02:
        print(f"    {p}: old {a:.1f} us, new {b:.1f} us ({a / b:.3f})")
