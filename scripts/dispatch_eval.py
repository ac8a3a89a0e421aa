#!/usr/bin/env python3
"""How well a dispatch table's lookup rule chooses on shapes the table was not tuned on, offline,
from stored results files that timed every variant (no device needed).

    scripts/dispatch_eval.py @results/h200/dispatch_sources.txt [--train FILE ...] [--subgroup 32]
        [--fill @results/h100/dispatch_sources.txt] [--unseen]

Each results file is a set of shapes. By default every set is left out in turn: the table is
built from the other sets (as `gnbench tune --from` builds it: a shape in several files takes
the last file's times, variants this gnbench no longer builds dropped) and each shape of the
left-out set gets the rule's choice among the variants whose `when` admits it at --subgroup.
With --train, the table is those files only and every other set is scored (a sparse table).
With --fill, another device's files add the shapes a fold's table lacks (`tune --fill-from`),
and a fourth column, `unfilled`, scores the rule on the table without them on the same shapes;
with --unseen, the left-out set's shapes are also left out of the table, so a shape timed in
two sets (models.json in two calls) or on the other device is scored as unseen.
The regret of a choice is its hot median over the fastest verified variant's on that shape, in
the left-out file. Three rules, on the shapes where every choice was timed:

  rule  the rule `run --variant best` uses (cli/dispatch/dispatch_rule.cpp, mirrored here): the
        exact shape's fastest admitted variant, else each admitted variant's mean
        log(time / entry's fastest), weighted by exp(-distance / 2), over the 8 entries nearest
        in regime distance that timed it, among the 24 nearest (all entries when those timed
        none); lowest mean wins.
  k3    the same unweighted over 3 entries among the 12 nearest (the rule until session 39).
  v1    the rule of version-1 tables: the nearest entry whose fastest variant is admitted, by
        |dlog2 M| + |dlog2 NG| + 4 * (HW % 4 == 0 differs).
"""
import argparse
import math
import os
import sys

from gnresults import read, verified_entries
import variant_coverage as vc

RULE = {"neighbours": 8, "window": 24, "scale": 2.0}
K3 = {"neighbours": 3, "window": 12, "scale": None}


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


def choose_near(entries, key, ok, params):
    """entries: [(shape, times)] in table order; ok(variant) -> admitted."""
    for shape, t in entries:
        if shape == key:
            adm = [v for v in t if ok(v)]
            if adm:
                return min(adm, key=t.get)
    near = sorted(((dist_v2(key, e[0]), e) for e in entries), key=lambda x: x[0])  # stable

    def rank(window):
        scores = {}  # variant -> [weighted log sum, weight, count, first position]
        for i, (d, (shape, t)) in enumerate(near[:window]):
            best = min(t.values())
            w = 1.0 if params["scale"] is None else math.exp(-d / params["scale"])
            for v, us in t.items():
                if not ok(v):
                    continue
                s = scores.setdefault(v, [0.0, 0.0, 0, i])
                if s[2] < params["neighbours"]:
                    s[0] += w * math.log(us / best)
                    s[1] += w
                    s[2] += 1
        return scores

    scores = rank(params["window"]) or rank(len(near))
    if not scores:
        return None
    return min(scores, key=lambda v: (scores[v][0] / scores[v][1], -scores[v][2], scores[v][3]))


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


def fold_table(sets, names, fill=(), unseen=()):
    """[(shape, times)] as `gnbench tune --from NAMES... --fill-from FILL...` builds it: a shape
    in several of `names` takes the last one's times, in the position it first had; `fill`'s
    shapes that `names` lack follow (the last fill file's times). Shapes in `unseen` are left
    out of both."""
    def merged(files):
        out = {}
        for f in files:
            out.update({k: v["t"] for k, v in sets[f].items() if k not in unseen})
        return out

    table = merged(names)
    for k, t in merged(fill).items():
        table.setdefault(k, t)
    return list(table.items())


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], fromfile_prefix_chars="@")
    ap.add_argument("files", nargs="+")
    ap.add_argument("--train", nargs="+", default=[])
    ap.add_argument("--fill", nargs="+", default=[],
                    help="results files whose shapes fill in where a fold's table has none, as "
                         "`gnbench tune --fill-from` does (another device's; @LIST reads a list)")
    ap.add_argument("--unseen", action="store_true",
                    help="leave the left-out set's shapes out of the table too (a shape timed in "
                         "two sets, or in a --fill file, is otherwise an exact match)")
    ap.add_argument("--subgroup", type=int, default=32)
    args = ap.parse_args()
    listed = lambda names: [f for f in names if f.strip() and not f.startswith("#")]
    files, args.fill = listed(args.files), listed(args.fill)
    variants = vc.load_variants([])
    known = {v["name"]: v for v in variants}
    extra = [t for t in args.train + args.fill if t not in files]
    sets = {f: load_set(f, known) for f in files + list(dict.fromkeys(extra))}
    admitted = {}

    def admits(key, v):
        if (key, v) not in admitted:
            admitted[(key, v)] = vc.admits(known[v], *key, args.subgroup)
        return admitted[(key, v)]

    folds = ([(args.train, [f for f in files if f not in args.train])] if args.train
             else [([g for g in files if g != f], [f]) for f in files])
    rules = {"rule": lambda e, k, ok: choose_near(e, k, ok, RULE),
             "k3": lambda e, k, ok: choose_near(e, k, ok, K3), "v1": choose_v1}
    if args.fill:  # the rule on the table without the filled entries, on the same shapes
        rules["unfilled"] = lambda e, k, ok: choose_near(own, k, ok, RULE)
    totals = {r: [] for r in rules}
    cols = lambda rows: "  ".join(f"{geomean(rows[r]):10.3f} {max(rows[r], default=0):6.2f} "
                                  f"{sum(x > 1.1 for x in rows[r]):5d}" for r in rules)
    print(f"{'left-out set':44s} {'shapes':>6s}" + "".join(
        f"  {r + ' geomean':>10s} {'worst':>6s} {'>1.1x':>5s}" for r in rules))
    for train, test in folds:
        for f in test:
            unseen = sets[f] if args.unseen else ()
            entries = fold_table(sets, train, args.fill, unseen)
            own = fold_table(sets, train, (), unseen) if args.fill else entries
            got = {r: [] for r in rules}
            for key, s in sets[f].items():
                ok = lambda v, key=key: admits(key, v)
                chosen = {r: rule(entries, key, ok) for r, rule in rules.items()}
                if any(c not in s["t"] for c in chosen.values()):
                    continue  # a choice the file did not time: no regret to compute
                best = min(s["t"].values())
                for r, c in chosen.items():
                    got[r].append(s["t"][c] / best)
            for r in got:
                totals[r] += got[r]
            print(f"{os.path.relpath(f):44s} {len(got['rule']):6d}  {cols(got)}")
    print(f"{'all':44s} {len(totals['rule']):6d}  {cols(totals)}")

if __name__ == "__main__":
    sys.exit(main())
