#!/usr/bin/python3
"""Plot gnbench results: achieved bandwidth against tensor size, and optionally time per shape
next to a PyTorch anchor.

    /usr/bin/python3 scripts/plot.py RESULTS.json [MORE.json ...] [-o plot.png]
        [--anchor torch.json] [--title TEXT]

Panel 1: required bytes / median GPU time (GB/s) per variant against N*C*HW (log x), with the
copy bandwidth gnbench measured on the same device as a horizontal line.
Panel 2 (with --anchor): per shape, the best passing gnbench variant's median time next to
PyTorch's backward and statistics+backward times. The anchor file is
{"copy_GBps": x, "rows": [{"name": problem name, "torch_bwd_ms": t, "graph_bwd_ms": t,
"torch_stats_plus_bwd_ms": t}]}; rows are matched to gnbench problems by name.
Needs only python3 and matplotlib (Debian's python3-matplotlib).
"""

import argparse
import gzip
import json
import math
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")  # no display: render straight to the PNG
import matplotlib.pyplot as plt  # noqa: E402

FAILED = {"FAIL", "ERROR"}


def load(path):
    try:
        opener = gzip.open if path.endswith(".gz") else open  # stored results are gzipped
        with opener(path, "rt") as f:
            doc = json.load(f)
        ctx = doc["context"]["gnbench"]
        benchmarks = doc["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        sys.exit(f"plot.py: {path}: not a readable gnbench results file ({e})")
    device = ctx.get("device") or {}
    copy = ctx.get("copy_bandwidth") or {}
    run = {
        "path": path,
        "device": device.get("name", "?") if isinstance(device, dict) else "?",
        "fingerprint": ctx.get("device_fingerprint", ""),
        "copy_gbps": copy.get("gbps", 0) if isinstance(copy, dict) else 0,
        "entries": [],
    }
    for b in benchmarks:
        e = b.get("gnbench")
        if not e:
            continue
        timing = e.get("cold") or e.get("hot")
        median_ns = timing["ns"]["median"] if timing else 0
        p = e["problem"]
        run["entries"].append({
            "problem": p["name"],
            "elements": p["batch"] * p["channels"] * p["spatial"],
            "variant": e["variant"],
            "verdict": e["verdict"],
            "median_ns": median_ns,
            "required_bytes": e["required_bytes"],
        })
    return run


def bandwidth_panel(ax, runs, anchor):
    several_devices = len({r["fingerprint"] for r in runs}) > 1
    series = defaultdict(list)
    dropped = 0
    for r in runs:
        for e in r["entries"]:
            if e["median_ns"] <= 0 or e["verdict"] in FAILED:
                dropped += 1  # untimed, or a wrong answer's time
                continue
            key = f"{e['variant']} on {r['device']}" if several_devices else e["variant"]
            series[key].append((e["elements"], e["required_bytes"] / e["median_ns"]))
    for key in sorted(series):
        pts = sorted(series[key])
        ax.plot([x for x, _ in pts], [y for _, y in pts], marker="o", ms=4, label=key)
    seen = set()
    for r in runs:
        if r["copy_gbps"] > 0 and r["fingerprint"] not in seen:
            seen.add(r["fingerprint"])
            ax.axhline(r["copy_gbps"], ls="--", color="gray",
                       label=f"copy bandwidth, {r['device']} ({r['copy_gbps']:.1f} GB/s)")
    if anchor and anchor.get("copy_GBps"):
        ax.axhline(anchor["copy_GBps"], ls=":", color="black",
                   label=f"copy bandwidth, PyTorch anchor ({anchor['copy_GBps']:.1f} GB/s)")
    ax.set_xscale("log")
    ax.set_xlabel("tensor size N*C*HW (elements)")
    ax.set_ylabel("achieved GB/s (required bytes / median)")
    ax.set_title("GroupNorm backward: achieved bandwidth")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", ncol=3, loc="upper center", bbox_to_anchor=(0.5, -0.15))
    if dropped:
        print(f"plot.py: note: {dropped} untimed (skipped) or failing entries not plotted", file=sys.stderr)


def anchor_panel(ax, runs, anchor):
    best = {}  # problem -> fastest passing median in ms
    for r in runs:
        for e in r["entries"]:
            if e["median_ns"] > 0 and e["verdict"] not in FAILED:
                ms = e["median_ns"] / 1e6
                best[e["problem"]] = min(best.get(e["problem"], math.inf), ms)
    rows = anchor.get("rows", [])
    names = [row["name"] for row in rows]
    missing = [n for n in names if n not in best]
    if missing:
        print(f"plot.py: note: no passing gnbench time for {', '.join(missing)}", file=sys.stderr)
    bars = [("gnbench best variant", [best.get(n, math.nan) for n in names])]
    for key, label in (("torch_bwd_ms", "PyTorch bwd"), ("graph_bwd_ms", "PyTorch bwd (graph)"),
                       ("torch_stats_plus_bwd_ms", "PyTorch stats + bwd")):
        values = [row.get(key) for row in rows]
        if any(v is not None for v in values):
            bars.append((label, [math.nan if v is None else v for v in values]))
    width = 0.8 / len(bars)
    for i, (label, values) in enumerate(bars):
        ax.bar([k + (i - (len(bars) - 1) / 2) * width for k in range(len(names))], values, width,
               label=label)
    ax.set_xticks(range(len(names)))
    ax.set_xticklabels(names, rotation=30, ha="right", fontsize="small")
    ax.set_yscale("log")
    ax.set_ylabel("time per backward (ms)")
    ax.set_title("Time per shape: gnbench vs PyTorch")
    ax.grid(True, axis="y", which="both", alpha=0.3)
    ax.legend(fontsize="small")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="gnbench results files (run --json, merge -o)")
    ap.add_argument("-o", "--output", default="plot.png", help="PNG to write (default plot.png)")
    ap.add_argument("--anchor", help="PyTorch timings to compare with (see the module doc)")
    ap.add_argument("--title", help="figure title")
    args = ap.parse_args()

    runs = [load(p) for p in args.results]
    anchor = None
    if args.anchor:
        try:
            with open(args.anchor) as f:
                anchor = json.load(f)
            if not isinstance(anchor.get("rows"), list):
                raise ValueError("no 'rows' list")
        except (OSError, ValueError, AttributeError) as e:
            sys.exit(f"plot.py: {args.anchor}: not an anchor file ({e})")

    panels = 2 if anchor else 1
    fig, axes = plt.subplots(1, panels, figsize=(7 * panels, 7.5), squeeze=False)
    bandwidth_panel(axes[0][0], runs, anchor)
    if anchor:
        anchor_panel(axes[0][1], runs, anchor)
    if args.title:
        fig.suptitle(args.title)
    fig.tight_layout()
    fig.savefig(args.output, dpi=120)
    print(f"plot.py: wrote {args.output}")


if __name__ == "__main__":
    main()
