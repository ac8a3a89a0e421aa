#!/usr/bin/env python3
"""Markdown table for docs/performance.md from one GPU-host call: a gnbench results file and
the PyTorch anchor file measured beside it. Per shape: the best passing variant (hot and cold),
its time, PyTorch's saved-stats backward ("bwd", CUDA-graph replay) and stats+bwd, speedups,
and % of gnbench's measured copy bandwidth over the variant's declared traffic.

Usage: scripts/perf_table.py GNBENCH.json[.gz] TORCH.json [--exclude GLOB,...]
A hot-only file gives no cold columns. --exclude leaves out variants (to compare a build set
with and without some builds from one call).
"""
import argparse
import fnmatch
import gzip
import json
import math


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", help="gnbench --json file (.json or .json.gz)")
    ap.add_argument("torch", help="torch_groupnorm_anchor.py output of the same call")
    ap.add_argument("--exclude", default="", help="comma-separated variant globs to leave out")
    args = ap.parse_args()
    opener = gzip.open if args.results.endswith(".gz") else open
    with opener(args.results, "rt") as f:
        results = json.load(f)
    exclude = [e for e in args.exclude.split(",") if e]
    torch = {r["name"]: r for r in json.load(open(args.torch))["rows"]}
    copy_gbps = results["context"]["gnbench"]["copy_bandwidth"].get("gbps", 0)
    best = {}
    for b in results["benchmarks"]:
        g = b.get("gnbench")
        if not g or g["verdict"] != "PASS" or any(fnmatch.fnmatch(g["variant"], e) for e in exclude):
            continue
        for mode in ("hot", "cold"):
            if mode not in g:
                continue
            us = g[mode]["ns"]["median"] / 1e3
            key = (g["problem"]["name"], mode)
            if key not in best or us < best[key]["us"]:
                actual = g.get("actual_bytes", 0)
                best[key] = {"us": us, "variant": g["variant"], "noise": g[mode]["ns"]["rel_noise"],
                             "pct": 100 * actual / (us * 1e3) / copy_gbps if actual and copy_gbps else 0,
                             "mb": g["required_bytes"] / 3 / 1e6}
    print(f"gnbench copy bandwidth: {copy_gbps:.0f} GB/s; PyTorch copy: {json.load(open(args.torch))['copy_GBps']:.0f} GB/s\n")
    print("| shape | tensor MB | best variant (hot) | hot us | cold us (variant) | PyTorch bwd us | PyTorch stats+bwd us "
          "| speedup vs bwd (hot) | speedup vs bwd (cold) | % copy bw, actual traffic (hot) |")
    print("|---|---:|---|---:|---|---:|---:|---:|---:|---:|")
    logs = {"hot": [], "cold": []}
    for name, t in torch.items():
        hot, cold = best.get((name, "hot")), best.get((name, "cold"))
        if not hot:
            print(f"| {name} | | no passing variant | | | | | | | |")
            continue
        bwd, full = t["graph_bwd_ms"] * 1e3, t["graph_stats_plus_bwd_ms"] * 1e3
        logs["hot"].append(math.log(bwd / hot["us"]))
        cold_us, cold_x = "-", "-"
        if cold:
            logs["cold"].append(math.log(bwd / cold["us"]))
            cold_us, cold_x = f"{cold['us']:.1f} ({cold['variant']})", f"{bwd / cold['us']:.2f}x"
        print(f"| {name} | {hot['mb']:.1f} | {hot['variant']} | {hot['us']:.1f} | {cold_us} "
              f"| {bwd:.1f} | {full:.1f} | {bwd / hot['us']:.2f}x | {cold_x} | {hot['pct']:.0f}% |")
    for mode in ("hot", "cold"):
        if logs[mode]:
            print(f"\nGeometric-mean speedup over PyTorch bwd ({mode}): "
                  f"{math.exp(sum(logs[mode]) / len(logs[mode])):.2f}x", end="")
    print()


if __name__ == "__main__":
    main()
