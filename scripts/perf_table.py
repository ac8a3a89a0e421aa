#!/usr/bin/env python3
"""Markdown table for docs/performance.md from one GPU-host call: a gnbench results file and
the PyTorch anchor file measured beside it. Per shape: the best verified variant (hot and cold),
its time, PyTorch's saved-stats backward ("bwd", CUDA-graph replay) and stats+bwd, speedups,
and % of gnbench's measured copy bandwidth over two byte counts: the variant's declared traffic
(`actual_bytes`: 5T for a variant that reads x and grad_out twice) and the problem's required
traffic (`required_bytes`: x, grad_out and weight read once, the outputs written once; the same
for every variant, so it ranks them as their times do).

Usage: scripts/perf_table.py GNBENCH.json[.gz] TORCH.json[.gz] [--exclude GLOB,...] [--targets]
                             [--copy-basis actual|required]
A hot-only file gives no cold columns. --exclude leaves out variants (to compare a build set
with and without some builds from one call). --targets then checks the performance targets
(every shape at or under PyTorch's bwd hot, geometric means, % of copy on the large shapes),
lists what misses them, and exits 1 if anything does; --copy-basis picks the byte count of the
copy target (default actual, the basis docs/performance.md has used since run 20).
"""
import argparse
import fnmatch
import math
import sys

from gnresults import read, verified_entries


def pct_of_copy(nbytes, us, copy_gbps):
    """nbytes moved in us microseconds as a % of the copy bandwidth (0 where either is unknown)."""
    return 100 * nbytes / (us * 1e3) / copy_gbps if nbytes and copy_gbps else 0


def best_entries(results, exclude):
    """(problem, mode) -> the fastest verified entry: us, variant, % copy, tensor MB."""
    copy_gbps = results["context"]["gnbench"]["copy_bandwidth"].get("gbps", 0)
    best = {}
    for g in verified_entries(results):
        if any(fnmatch.fnmatch(g["variant"], e) for e in exclude):
            continue
        for mode in ("hot", "cold"):
            if mode not in g:
                continue
            us = g[mode]["ns"]["median"] / 1e3
            key = (g["problem"]["name"], mode)
            if key not in best or us < best[key]["us"]:
                required = g["required_bytes"]
                best[key] = {"us": us, "variant": g["variant"],
                             "pct": pct_of_copy(g.get("actual_bytes", 0), us, copy_gbps),
                             "pct_required": pct_of_copy(required, us, copy_gbps), "mb": required / 3 / 1e6}
    return best, copy_gbps


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def check_targets(rows, args):
    """Prints each target's verdict and what misses it; True when every target is met."""
    not_run = [r["name"] for r in rows if not r["ran"]]
    missing = [r["name"] for r in rows if r["ran"] and r["hot"] is None]
    slower = [f"{r['name']} {r['x_hot']:.3f}x" for r in rows if r["hot"] and r["x_hot"] < 1.0]
    big = [r for r in rows if r["hot"] and r["hot"]["mb"] >= args.big_mb]
    key = "pct" if args.copy_basis == "actual" else "pct_required"
    low = [f"{r['name']} {r['hot'][key]:.0f}%" for r in big if r["hot"][key] < args.min_copy]
    hot = geomean([r["x_hot"] for r in rows if r["hot"]])
    colds = [r["x_cold"] for r in rows if r["cold"]]
    cold = geomean(colds)
    checks = [
        ("every shape was run", not not_run, ", ".join(not_run)),
        ("every shape that ran has a passing variant", not missing, ", ".join(missing)),
        ("every shape at or under PyTorch bwd (hot)", not slower, ", ".join(slower)),
        (f"geometric mean hot >= {args.min_hot}x ({hot:.2f}x)", hot >= args.min_hot, ""),
        (f"geometric mean cold >= {args.min_cold}x ({cold:.2f}x)" if colds else "geometric mean cold (no cold entries)",
         bool(colds) and cold >= args.min_cold, ""),
        (f">= {args.min_copy:g} % of copy ({args.copy_basis} traffic) on the {len(big)} shapes of {args.big_mb:g} MB and more",
         not low, ", ".join(low)),
    ]
    print("\nTargets:")
    for what, ok, detail in checks:
        print(f"- {'met' if ok else 'NOT met'}: {what}" + (f": {detail}" if detail else ""))
    return all(ok for _, ok, _ in checks)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="gnbench --json file (.json or .json.gz)")
    ap.add_argument("torch", help="torch_groupnorm_anchor.py output of the same call")
    ap.add_argument("--exclude", default="", help="comma-separated variant globs to leave out")
    ap.add_argument("--targets", action="store_true", help="check the targets below; exit 1 if one is missed")
    ap.add_argument("--min-hot", type=float, default=1.5, help="geometric-mean speedup hot (default 1.5)")
    ap.add_argument("--min-cold", type=float, default=1.25, help="geometric-mean speedup cold (default 1.25)")
    ap.add_argument("--min-copy", type=float, default=85, help="%% of copy bandwidth on large shapes (default 85)")
    ap.add_argument("--big-mb", type=float, default=40, help="what counts as large: tensor MB (default 40)")
    ap.add_argument("--copy-basis", choices=("actual", "required"), default="actual",
                    help="bytes of the copy target: the variant's declared traffic or the problem's required one")
    args = ap.parse_args(argv)
    results = read(args.results)
    exclude = [e for e in args.exclude.split(",") if e]
    anchor = read(args.torch)  # the anchor's file, gzip or not
    torch = {r["name"]: r for r in anchor["rows"]}
    best, copy_gbps = best_entries(results, exclude)
    print(f"gnbench copy bandwidth: {copy_gbps:.0f} GB/s; PyTorch copy: {anchor['copy_GBps']:.0f} GB/s")
    mode = results.get("context", {}).get("gnbench", {}).get("timing_mode", "")
    print(f"gnbench timing mode: {mode}" + (" (hot samples of several runs back to back, "
          "docs/timing.md)" if "hot-batch" in mode else "") + "\n")
    print("| shape | tensor MB | best variant (hot) | hot us | cold us (variant) | PyTorch bwd us | PyTorch stats+bwd us "
          "| speedup vs bwd (hot) | speedup vs bwd (cold) | % copy bw, actual traffic (hot) "
          "| % copy bw, required traffic (hot) |")
    print("|---|---:|---|---:|---|---:|---:|---:|---:|---:|---:|")
    # A shape with no entry at all was not run (a stopped run, another config): not "no passing variant".
    ran = {b["gnbench"]["problem"]["name"] for b in results["benchmarks"] if "gnbench" in b}
    rows = []
    for name, t in torch.items():
        hot, cold = best.get((name, "hot")), best.get((name, "cold"))
        bwd, full = t["graph_bwd_ms"] * 1e3, t["graph_stats_plus_bwd_ms"] * 1e3
        row = {"name": name, "ran": name in ran, "hot": hot, "cold": cold,
               "x_hot": bwd / hot["us"] if hot else None, "x_cold": bwd / cold["us"] if cold else None}
        rows.append(row)
        if not hot:
            print(f"| {name} | | {'no passing variant' if row['ran'] else 'not run'} | | | | | | | | |")
            continue
        cold_us, cold_x = "-", "-"
        if cold:
            cold_us, cold_x = f"{cold['us']:.1f} ({cold['variant']})", f"{row['x_cold']:.2f}x"
        print(f"| {name} | {hot['mb']:.1f} | {hot['variant']} | {hot['us']:.1f} | {cold_us} "
              f"| {bwd:.1f} | {full:.1f} | {row['x_hot']:.2f}x | {cold_x} | {hot['pct']:.0f}% "
              f"| {hot['pct_required']:.0f}% |")
    for mode in ("hot", "cold"):
        xs = [r[f"x_{mode}"] for r in rows if r[f"x_{mode}"]]
        if xs:
            print(f"\nGeometric-mean speedup over PyTorch bwd ({mode}): {geomean(xs):.2f}x", end="")
    print()
    if args.targets and not check_targets(rows, args):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
