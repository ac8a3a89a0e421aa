#!/usr/bin/env python3
"""How much of a variant's cold-minus-hot time goes with the size of its compiled code, offline,
from stored results files timed cold and hot (no device needed).

    scripts/cold_code.py RESULTS... [--stats FILE ...] [--bands 3 20]

A cold sample follows a flush that evicts the last-level cache (docs/timing.md), which holds the
kernel's machine code as well as its data. The code's size per stage comes from the driver's
pipeline statistics ("Binary Size", `run --pipeline-stats`), read from the RESULTS files themselves
and from --stats files, for the device each file names (sizes differ by device and subgroup
size). Each verified entry timed both ways gives penalty = cold median - hot median (us) and
size = the sum of its stages' binary sizes (KB). Variants are compared within one problem (each
problem's mean penalty and size subtracted), so the data a problem moves cancels out; the slope
(us per KB of code) and correlation are printed per band of the problem's required traffic in MB
(`required_bytes`: x, grad_out and weight read once, the outputs written once)
(--bands: the band edges), then each variant's mean penalty beside its size. With --stages
(a run timed with --stage-times) each stage of an entry is a point of its own: the stage's
cold - hot beside the stage's binary size.
"""
import argparse
import collections
import math
import sys

from gnresults import read, verified_entries


def device_of(results):
    """The device a gnbench results file was timed on; None for any other JSON (a PyTorch
    anchor file, a table)."""
    try:
        return results["context"]["gnbench"]["device"]["name"]
    except (KeyError, TypeError):
        return None


def code_sizes(results):
    """variant -> {stage: KB of code}, from the file's pipeline statistics (may be empty)."""
    stats = results["context"]["gnbench"].get("pipeline_statistics") or {}
    out = {}
    for variant, stages in stats.items():
        sizes = {name: s.get("Binary Size") for name, s in stages.items()}
        if sizes and all(isinstance(b, (int, float)) for b in sizes.values()):
            out[variant] = {name: b / 1024.0 for name, b in sizes.items()}
    return out


def points(g, stage_sizes, by_stage):
    """(label, KB, cold - hot us) of an entry: the whole variant, or each timed stage."""
    if not by_stage:
        pen = (g["cold"]["ns"]["median"] - g["hot"]["ns"]["median"]) / 1e3
        return [(g["variant"], sum(stage_sizes.values()), pen)]
    hot = {s["name"]: s["ns"]["median"] for s in g["hot"].get("stages", [])}
    out = []
    for s in g["cold"].get("stages", []):
        if s["name"] in hot and s["name"] in stage_sizes:
            out.append((f"{g['variant']}/{s['name']}", stage_sizes[s["name"]],
                        (s["ns"]["median"] - hot[s["name"]]) / 1e3))
    return out


def within_problem(by_problem):
    """by_problem: problem -> [(size KB, penalty us)]; the pairs with each problem's means
    removed, from problems with at least two sizes."""
    out = []
    for pts in by_problem.values():
        if len({s for s, _ in pts}) < 2:
            continue
        ms = sum(s for s, _ in pts) / len(pts)
        mp = sum(p for _, p in pts) / len(pts)
        out += [(s - ms, p - mp) for s, p in pts]
    return out


def fit(pairs):
    """(slope, r) of penalty on size through the origin of centred pairs; None when flat."""
    sxx = sum(a * a for a, _ in pairs)
    syy = sum(b * b for _, b in pairs)
    sxy = sum(a * b for a, b in pairs)
    if sxx == 0 or syy == 0:
        return None
    return sxy / sxx, sxy / math.sqrt(sxx * syy)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+")
    ap.add_argument("--stats", nargs="+", default=[], help="more files to read binary sizes from")
    ap.add_argument("--bands", nargs="*", type=float, default=[3.0, 20.0],
                    help="edges of the required-traffic bands, MB (default 3 20)")
    ap.add_argument("--stages", action="store_true", help="one point per stage (--stage-times runs)")
    args = ap.parse_args()

    files = {f: read(f) for f in args.results}
    for f, r in files.items():
        if device_of(r) is None:
            print(f"cold_code: {f}: not a gnbench results file", file=sys.stderr)
            return 2
    sizes = collections.defaultdict(dict)  # device -> variant -> stage -> KB
    for f in args.stats + args.results:
        r = files[f] if f in files else read(f)
        if device_of(r) is not None:  # --stats may name every file of a run's folder
            sizes[device_of(r)].update(code_sizes(r))

    edges = [0.0] + sorted(args.bands) + [math.inf]
    bands = [collections.defaultdict(list) for _ in edges[:-1]]
    per_variant = collections.defaultdict(list)
    missing = set()
    for f, r in files.items():
        known = sizes[device_of(r)]
        for g in verified_entries(r):
            if "cold" not in g or "hot" not in g:
                continue
            v = g["variant"]
            if v not in known:
                missing.add(v)
                continue
            mb = g["required_bytes"] / 1e6  # the problem's own traffic, the same for every variant
            band = next(i for i in range(len(bands)) if mb < edges[i + 1])
            for label, kb, pen in points(g, known[v], args.stages):
                bands[band][(f, g["problem"]["name"])].append((kb, pen))
                per_variant[label].append((kb, pen))
    if not per_variant:
        print("cold_code: no verified entry timed cold and hot has a binary size "
              "(run with --pipeline-stats, or give --stats"
              + ("; --stages needs --stage-times runs" if args.stages else "") + ")", file=sys.stderr)
        return 2

    print(f"{'traffic (MB)':18s} {'entries':>7s} {'problems':>8s} {'us per KB':>9s} {'r':>5s}")
    for i, pts in enumerate(bands):
        pairs = within_problem(pts)
        got = fit(pairs)
        label = f"{edges[i]:g}-{edges[i + 1]:g}"
        if got is None:
            print(f"{label:18s} {len(pairs):7d} {len(pts):8d} {'-':>9s} {'-':>5s}")
        else:
            print(f"{label:18s} {len(pairs):7d} {len(pts):8d} {got[0]:9.3f} {got[1]:5.2f}")
    print()
    print(f"{'variant/stage' if args.stages else 'variant':32s} {'code KB':>7s} {'entries':>7s} "
          f"{'mean cold - hot us':>18s}")
    mean = lambda xs: sum(xs) / len(xs)
    rows = [(mean([s for s, _ in pts]), v, len(pts), mean([p for _, p in pts]))
            for v, pts in per_variant.items()]  # a size per device, so the mean over files
    for kb, v, n, pen in sorted(rows):
        print(f"{v:32s} {kb:7.1f} {n:7d} {pen:18.2f}")
    if missing:
        print(f"\nno binary size for {len(missing)} variant(s): {', '.join(sorted(missing))}",
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
