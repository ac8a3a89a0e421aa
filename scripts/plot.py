#!/usr/bin/python3
"""Plot gnbench results files (.json or .json.gz, one or several, e.g. shards or devices).

    /usr/bin/python3 scripts/plot.py RESULTS... -o OUT.png [--kind KIND] [--mode cold|hot]
        [--over VARIANT | --anchor torch.json [--anchor-column COLUMN]] [--title TEXT]

Kinds:
  pct-copy   heatmap variant x problem: required bytes / median as % of the copy bandwidth
             measured on the entry's device.
  speedup    heatmap variant x problem: time of the reference / time of the variant (>1 =
             faster), the reference being --over VARIANT or the PyTorch anchor file (--anchor).
  bandwidth  achieved GB/s against required bytes (log x), one marker per variant and problem
             with IQR bars (from the quartiles of the samples), each problem labelled, and the
             copy bandwidth of every device as a line.
  (default: pct-copy)

SKIP, FAIL, XFAIL and ERROR entries, and entries without a timing, are never drawn as a value:
heatmap cells show them hatched with the verdict, the bandwidth chart leaves them out and says
how many. Heatmaps end with a "best of the above" row (each problem's best value). Variants get a (colour, marker) pair of their own (70 distinct pairs). With entries
from several devices every variant is shown per device ("variant @ device").
The anchor file is {"copy_GBps": x, "rows": [{"name": problem, "torch_bwd_ms": t,
"graph_bwd_ms": t, ...}]}; rows are matched to problems by name. Its default column follows
--mode: graph_bwd_ms (CUDA-graph replay, back to back) for hot, torch_bwd_ms for cold.
Needs python3 and matplotlib (Debian's python3-matplotlib).
"""

import argparse
import fnmatch
import json
import math
import sys
from collections import OrderedDict

import gnresults
import matplotlib

matplotlib.use("Agg")  # no display: render straight to the file
import matplotlib.colors as mcolors  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402

COLOURS = plt.get_cmap("tab10").colors
MARKERS = ["o", "s", "^", "D", "v", "P", "X"]
NOT_VALUES = {"SKIP": "skip", "FAIL": "FAIL", "XFAIL": "xfail", "ERROR": "ERR"}


def style(index):
    """A (colour, marker) pair, distinct for the first len(COLOURS) * len(MARKERS) indices."""
    return COLOURS[index % len(COLOURS)], MARKERS[(index // len(COLOURS)) % len(MARKERS)]


def fail(message):
    sys.exit(f"plot.py: {message}")


def load(path):
    """Entries of one results file as flat dicts; the device and copy bandwidth per entry."""
    try:
        doc = gnresults.read(path)
        ctx = doc["context"]["gnbench"]
        benchmarks = doc["benchmarks"]
    except (OSError, ValueError, KeyError, TypeError, EOFError) as e:
        fail(f"{path}: not a readable gnbench results file ({e})")
    device = ctx.get("device") if isinstance(ctx.get("device"), dict) else {}
    copy = ctx.get("copy_bandwidth") if isinstance(ctx.get("copy_bandwidth"), dict) else {}
    entries = []
    for b in benchmarks:
        e = b.get("gnbench")
        if not e:
            continue
        p = e["problem"]
        timings = {}
        for mode in ("cold", "hot"):
            ns = (e.get(mode) or {}).get("ns") or {}
            if ns.get("median", 0) > 0:
                timings[mode] = (ns["median"], ns.get("q1", ns["median"]), ns.get("q3", ns["median"]))
        entries.append({
            "problem": p["name"],
            "shape": (p["batch"], p["channels"], p["spatial"], p["groups"]),
            "variant": e["variant"],
            "verdict": e["verdict"],
            "device": e.get("device") or device.get("name", "?"),
            "copy_gbps": e.get("device_copy_gbps") or copy.get("gbps", 0),
            "bytes": e["required_bytes"],
            "timings": timings,
        })
    return entries


def pick_mode(entries, mode):
    if mode != "auto":
        return mode
    return "cold" if any("cold" in e["timings"] for e in entries) else "hot"


def value_of(e, mode):
    """Median ns of a passing entry in `mode`; None for anything that must not be drawn."""
    if e["verdict"] not in ("PASS", "XPASS") or mode not in e["timings"]:
        return None
    return e["timings"][mode][0]


def grid(entries):
    """Rows (variant, or variant @ device) and problem columns in first-seen order."""
    several = len({e["device"] for e in entries}) > 1
    rows, cols, cells = OrderedDict(), OrderedDict(), {}
    for e in entries:
        row = f"{e['variant']} @ {e['device']}" if several else e["variant"]
        rows.setdefault(row, e)
        cols.setdefault(e["problem"], e)
        cells[(row, e["problem"])] = e
    return list(rows), list(cols), cells


def matrix(rows, cols, cells, value):
    """value(entry) for each cell; NaN where there is no value (verdict or missing)."""
    out = []
    for r in rows:
        line = []
        for c in cols:
            e = cells.get((r, c))
            v = value(e) if e else None
            line.append(math.nan if v is None else v)
        out.append(line)
    return out


def with_best_row(rows, values):
    """A last row with each column's highest value: the best variant per problem."""
    best = []
    for j in range(len(values[0]) if values else 0):
        column = [line[j] for line in values if not math.isnan(line[j])]
        best.append(max(column) if column else math.nan)
    return rows + ["best of the above"], values + [best]


def heatmap(ax, rows, cols, cells, values, norm, cmap, fmt, label):
    fig = ax.figure
    rows, values = with_best_row(rows, values)
    ax.axhline(len(rows) - 1.5, color="black", lw=1.5)
    masked = [[v if not math.isnan(v) else math.nan for v in line] for line in values]
    im = ax.imshow(masked, aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
    size = max(4.5, min(8.0, 260 / max(len(rows), len(cols), 1)))
    for i, r in enumerate(rows):
        for j, c in enumerate(cols):
            v = values[i][j]
            if not math.isnan(v):
                rgba = cmap(norm(v))
                dark = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2] < 0.5
                ax.text(j, i, fmt(v), ha="center", va="center", fontsize=size,
                        color="white" if dark else "black")
                continue
            # No value: grey hatch and the reason, so that it cannot read as zero.
            ax.add_patch(plt.Rectangle((j - 0.5, i - 0.5), 1, 1, facecolor="0.92",
                                       hatch="///", edgecolor="0.7", lw=0))
            e = cells.get((r, c))
            why = NOT_VALUES.get(e["verdict"], "untimed") if e else "n/a"
            ax.text(j, i, why, ha="center", va="center", fontsize=size * 0.85, color="0.35")
    ax.set_xticks(range(len(cols)))
    ax.set_xticklabels(cols, rotation=35, ha="right", fontsize="small")
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(rows, fontsize="small")
    fig.colorbar(im, ax=ax, label=label, fraction=0.04, pad=0.02)


def plot_pct_copy(ax, entries, mode, args):
    rows, cols, cells = grid(entries)

    def pct(e):
        t = value_of(e, mode)
        return None if t is None or not e["copy_gbps"] else 100 * e["bytes"] / t / e["copy_gbps"]

    values = matrix(rows, cols, cells, pct)
    heatmap(ax, rows, cols, cells, values, mcolors.Normalize(0, 100), plt.get_cmap("viridis"),
            lambda v: f"{v:.0f}", f"% of copy bandwidth ({mode})")
    ax.set_title(f"Required bytes / median as % of the device's copy bandwidth ({mode})")


def load_anchor(path):
    try:
        with open(path) as f:
            anchor = json.load(f)
        if not isinstance(anchor.get("rows"), list):
            raise ValueError("no 'rows' list")
    except (OSError, ValueError, AttributeError) as e:
        fail(f"{path}: not an anchor file ({e})")
    return anchor


def plot_speedup(ax, entries, mode, args):
    rows, cols, cells = grid(entries)
    if args.anchor:
        column = args.anchor_column or ("graph_bwd_ms" if mode == "hot" else "torch_bwd_ms")
        rows_by_name = {r.get("name"): r for r in load_anchor(args.anchor)["rows"]}
        ref = {name: r[column] * 1e6 for name, r in rows_by_name.items() if r.get(column)}
        if not ref:
            fail(f"{args.anchor}: no row has '{column}'")
        what = f"PyTorch ({column})"
    else:
        ref = {}
        for e in entries:
            t = value_of(e, mode)
            if e["variant"] == args.over and t is not None:
                ref[(e["device"], e["problem"])] = t
        if not any(e["variant"] == args.over for e in entries):
            fail(f"--over {args.over}: no such variant in the results")
        what = args.over

    def speedup(e):
        t = value_of(e, mode)
        key = e["problem"] if args.anchor else (e["device"], e["problem"])
        return None if t is None or key not in ref else ref[key] / t

    values = matrix(rows, cols, cells, speedup)
    finite = [v for line in values for v in line if not math.isnan(v)]
    if not finite:
        fail(f"no problem has both a passing timed entry and a time of {what}")
    # Colours saturate beyond 4x either way; the numbers in the cells carry the rest.
    span = min(4.0, max(2.0, max(finite), 1 / min(finite)))
    norm = mcolors.LogNorm(1 / span, span)
    heatmap(ax, rows, cols, cells, values, norm, plt.get_cmap("RdBu"),
            lambda v: f"{v:.2f}", f"speedup over {what} (>1 faster)")
    ticks = [t for t in (0.25, 0.5, 1, 2, 4) if 1 / span <= t <= span]
    colorbar = ax.images[0].colorbar
    colorbar.set_ticks(ticks)
    colorbar.set_ticklabels([f"{t:g}x" for t in ticks])
    colorbar.minorticks_off()
    ax.set_title(f"Speedup over {what}, {mode} medians")


def plot_bandwidth(ax, entries, mode, args):
    variants = sorted({e["variant"] for e in entries})
    devices = sorted({e["device"] for e in entries})
    several = len(devices) > 1
    problems = {}
    dropped = 0
    # Spread the variants of one problem a little along x (+-6 %), so that their IQR bars stay
    # apart; no lines: points of different shapes are not a series.
    for i, v in enumerate(variants):
        colour, marker = style(i)
        for d_index, d in enumerate(devices):
            xs, ys, lo, hi = [], [], [], []
            for e in entries:
                if e["variant"] != v or e["device"] != d:
                    continue
                t = value_of(e, mode)
                if t is None:
                    dropped += 1
                    continue
                median, q1, q3 = e["timings"][mode]
                x = e["bytes"] * (1 + 0.12 * (i / max(len(variants) - 1, 1) - 0.5))
                y = e["bytes"] / median
                xs.append(x)
                ys.append(y)
                lo.append(y - e["bytes"] / q3)
                hi.append(e["bytes"] / q1 - y)
                problems[e["problem"]] = e["bytes"]
            if xs:
                label = f"{v} @ {d}" if several else v
                ax.errorbar(xs, ys, yerr=[lo, hi], fmt=marker, color=colour, ms=5, lw=1,
                            capsize=2, label=label, mfc="none" if d_index else colour)
    line_styles = ["--", ":", "-.", (0, (5, 1))]
    for k, d in enumerate(devices):
        copies = sorted({e["copy_gbps"] for e in entries if e["device"] == d and e["copy_gbps"]})
        if copies:
            ax.axhline(copies[-1], ls=line_styles[k % len(line_styles)], color="0.3",
                       label=f"copy bandwidth, {d} ({copies[-1]:.0f} GB/s)")
    # Problem labels on a top axis (equal sizes share one tick), grey guides down the chart.
    by_bytes = {}  # sizes within 0.5 % share a tick (equal N*C*HW, different C)
    for name, b in sorted(problems.items(), key=lambda kv: kv[1]):
        near = [k for k in by_bytes if abs(k / b - 1) < 0.005]
        by_bytes.setdefault(near[0] if near else b, []).append(name)
    for b in by_bytes:
        ax.axvline(b, color="0.85", lw=0.8, zorder=0)
    top = ax.twiny()
    top.set_xscale("log")
    top.set_xticks(sorted(by_bytes), minor=False)
    top.set_xticklabels([" / ".join(sorted(by_bytes[b])) for b in sorted(by_bytes)], rotation=90,
                        fontsize="x-small")
    top.minorticks_off()
    ax.set_xscale("log")
    ax.set_xlabel("required bytes (read x, grad_out, weight; write the gradients)")
    ax.set_ylabel(f"GB/s = required bytes / median ({mode}); bars: IQR")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize="x-small", ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.12))
    top.set_xlim(ax.get_xlim())
    if dropped:
        print(f"plot.py: note: {dropped} entries without a passing {mode} time are not drawn",
              file=sys.stderr)


KINDS = {"pct-copy": plot_pct_copy, "speedup": plot_speedup, "bandwidth": plot_bandwidth}


def figure_size(kind, entries):
    rows, cols, _ = grid(entries)
    if kind == "bandwidth":
        return 11, 8 + 0.12 * len(rows)
    return max(8, 2.5 + 0.75 * len(cols)), max(4, 1.6 + 0.3 * len(rows))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("results", nargs="+", help="gnbench results files (run --json, merge -o)")
    ap.add_argument("-o", "--output", default="plot.png", help="image to write (default plot.png)")
    ap.add_argument("--kind", choices=sorted(KINDS), default="pct-copy")
    ap.add_argument("--mode", choices=["auto", "cold", "hot"], default="auto",
                    help="timing mode (auto: cold when the files have it)")
    ap.add_argument("--over", help="speedup: the variant to compare with")
    ap.add_argument("--anchor", help="speedup: PyTorch timings to compare with (see above)")
    ap.add_argument("--anchor-column", help="speedup: the anchor's column (default by --mode)")
    ap.add_argument("--variant", help="only these variants (names or globs, comma separated)")
    ap.add_argument("--title", help="figure title")
    args = ap.parse_args(argv)
    if args.kind == "speedup" and bool(args.over) == bool(args.anchor):
        ap.error("--kind speedup needs exactly one of --over VARIANT and --anchor FILE")

    entries = [e for path in args.results for e in load(path)]
    if args.variant:
        patterns = args.variant.split(",")
        entries = [e for e in entries if any(fnmatch.fnmatchcase(e["variant"], p) for p in patterns)]
    if not entries:
        fail("no entries in " + ", ".join(args.results) + (f" match --variant {args.variant}" if args.variant else ""))
    mode = pick_mode(entries, args.mode)
    fig, ax = plt.subplots(figsize=figure_size(args.kind, entries))
    KINDS[args.kind](ax, entries, mode, args)
    if args.title:
        ax.set_title(args.title)
    fig.tight_layout()
    fig.savefig(args.output, dpi=110)
    plt.close(fig)
    print(f"plot.py: wrote {args.output}")


if __name__ == "__main__":
    main()
