#!/usr/bin/env python3
"""How well a dispatch table's lookup rule chooses on shapes the table was not tuned on, offline,
from stored results files that timed every variant (no device needed).

    scripts/dispatch_eval.py @results/h200/dispatch_sources.txt [--train FILE ...] [--subgroup 32]

Each results file is a set of shapes. By default every set is left out in turn: the table is
built from the other sets (as `gnbench tune --from` builds it: a shape in several files takes
the last file's times, variants this gnbench no longer builds dropped) and each shape of the
left-out set gets the rule's choice among the variants whose `when` admits it at --subgroup.
With --train, the table is those files only and every other set is scored (a sparse table).
The regret of a choice is its hot median over the fastest verified variant's on that shape, in
the left-out file. Two rules, on the shapes where both choices were timed:

  v2  the rule of gnbench tune's version-2 tables (cli/dispatch/dispatch_rule.cpp, mirrored
      here): the exact shape's fastest admitted variant, else each admitted variant's mean
      log(time / entry's fastest) over the 3 entries nearest in regime distance that timed it,
      among the 12 nearest (all entries when those timed none); lowest mean wins.
  v1  the rule of version-1 tables: the nearest entry whose fastest variant is admitted, by
      |dlog2 M| + |dlog2 NG| + 4 * (HW % 4 == 0 differs).
"""
import argparse
import math
import os
import sys

from gnresults import read, verified_entries
import variant_coverage as vc

NEIGHBOURS, WINDOW = 3, 12


def shape_key(p):
    return (p["batch"], p["channels"], p["spatial"], p["groups"])


def load_set(path, known):
    """shape -> {"name", "t": variant -> hot median us} of the file's verified hot entries."""
    out = {}
    for g in verified_entries(read(path)):
        if "hot" not in g or g["variant"] not in known:
            continue
        e = out.setdefault(shape_key(g["problem"]), {"name": g["problem"]["name"], "t": {}})
        us = g["hot"]["ns"]["median"] / 1e3
        e["t"][g["variant"]] = min(us, e["t"].get(g["variant"], us))
    return out


def lg(v):
    return math.log2(v)


def dist_v2(a, b):
    (na, ca, ha, ga), (nb, cb, hb, gb) = a, b
    return (abs(lg(ca // ga * ha) - lg(cb // gb * hb)) + abs(lg(na * ga) - lg(nb * gb))
            + 0.5 * (abs(lg(ha) - lg(hb)) + abs(lg(ca // ga) - lg(cb // gb)))
            + 4 * ((ha % 4 == 0) != (hb % 4 == 0)))


def dist_v1(a, b):
    (na, ca, ha, ga), (nb, cb, hb, gb) = a, b
    return (abs(lg(ca // ga * ha) - lg(cb // gb * hb)) + abs(lg(na * ga) - lg(nb * gb))
            + 4 * ((ha % 4 == 0) != (hb % 4 == 0)))


def choose_v2(entries, key, ok):
    """entries: [(shape, times)] in table order; ok(variant) -> admitted."""
    for shape, t in entries:
        if shape == key:
            adm = [v for v in t if ok(v)]
            if adm:
                return min(adm, key=t.get)
    near = sorted(entries, key=lambda e: dist_v2(key, e[0]))  # stable: ties keep table order

    def rank(window):
        scores = {}
        for i, (shape, t) in enumerate(near[:window]):
            best = min(t.values())
            for v, us in t.items():
                if not ok(v):
                    continue
                s = scores.setdefault(v, [0.0, 0, i])
                if s[1] < NEIGHBOURS:
                    s[0] += math.log(us / best)
                    s[1] += 1
        return scores

    scores = rank(WINDOW) or rank(len(near))
    if not scores:
        return None
    return min(scores, key=lambda v: (scores[v][0] / scores[v][1], -scores[v][1], scores[v][2]))


def choose_v1(entries, key, ok):
    best = None
    for shape, t in entries:
        win = min(t, key=t.get)
        if not ok(win):
            continue
        if shape == key:
            return win
        d = dist_v1(key, shape)
        if best is None or d < best[0]:
            best = (d, win)
    return best[1] if best else None


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], fromfile_prefix_chars="@")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--train", nargs="+", default=[])
    ap.add_argument("--subgroup", type=int, default=32)
    args = ap.parse_args()
    files = [f for f in args.files if f.strip() and not f.startswith("#")]
    variants = vc.load_variants([])
    known = {v["name"]: v for v in variants}
    sets = {f: load_set(f, known) for f in files + [t for t in args.train if t not in files]}
    admitted = {}

    def admits(key, v):
        if (key, v) not in admitted:
            admitted[(key, v)] = vc.admits(known[v], *key, args.subgroup)
        return admitted[(key, v)]

    def table_from(names):
        merged = {}
        for f in names:
            merged.update({k: v["t"] for k, v in sets[f].items()})
        return list(merged.items())

    folds = ([(args.train, [f for f in files if f not in args.train])] if args.train
             else [([g for g in files if g != f], [f]) for f in files])
    totals = {"v1": [], "v2": []}
    print(f"{'left-out set':44s} {'shapes':>6s}  {'v1 geomean':>10s} {'worst':>6s} {'>1.1x':>5s}"
          f"  {'v2 geomean':>10s} {'worst':>6s} {'>1.1x':>5s}")
    for train, test in folds:
        entries = table_from(train)
        for f in test:
            got = {"v1": [], "v2": []}
            for key, s in sets[f].items():
                ok = lambda v, key=key: admits(key, v)
                c1, c2 = choose_v1(entries, key, ok), choose_v2(entries, key, ok)
                if c1 not in s["t"] or c2 not in s["t"]:
                    continue  # a choice the file did not time: no regret to compute
                best = min(s["t"].values())
                got["v1"].append(s["t"][c1] / best)
                got["v2"].append(s["t"][c2] / best)
            for r in got:
                totals[r] += got[r]
            row = "  ".join(f"{geomean(got[r]):10.3f} {max(got[r], default=0):6.2f} "
                            f"{sum(x > 1.1 for x in got[r]):5d}" for r in ("v1", "v2"))
            print(f"{os.path.relpath(f):44s} {len(got['v1']):6d}  {row}")
    row = "  ".join(f"{geomean(totals[r]):10.3f} {max(totals[r], default=0):6.2f} "
                    f"{sum(x > 1.1 for x in totals[r]):5d}" for r in ("v1", "v2"))
    print(f"{'all':44s} {len(totals['v1']):6d}  {row}")


if __name__ == "__main__":
    sys.exit(main())
