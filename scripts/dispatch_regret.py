#!/usr/bin/env python3
"""How much a dispatch table's choices lose on shapes it was not tuned on.

    scripts/dispatch_regret.py CHOICES TIMED

CHOICES: a gnbench results file of `run CONFIG --variant best --table TABLE` (its
context.gnbench.dispatch_choices; `--no-timing` is enough). TIMED: a results file of every
variant timed on the same problems on the same device (`run CONFIG --variant 'gn_*' --mode
hot` or both). Per problem: the table's choice and how it chose, the choice's hot median in
TIMED, the fastest passing variant there, and the regret (choice / fastest). Then the
geometric mean, the worst, and how many lose more than 10 %. A choice TIMED has no passing hot
time for is listed as unmeasured and left out of the summary.
"""
import argparse
import math

from gnresults import read, verified_entries


def hot_medians(results):
    """problem -> variant -> hot median (us) of the verified entries."""
    out = {}
    for g in verified_entries(results):
        if "hot" in g:
            out.setdefault(g["problem"]["name"], {})[g["variant"]] = g["hot"]["ns"]["median"] / 1e3
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("choices")
    ap.add_argument("timed")
    args = ap.parse_args()
    choices = read(args.choices)["context"]["gnbench"].get("dispatch_choices", {})
    if not choices:
        raise SystemExit(f"{args.choices}: no dispatch_choices (not a --variant best run)")
    times = hot_medians(read(args.timed))
    regrets = []
    print(f"{'problem':36} {'choice':24} {'us':>8} {'fastest':24} {'us':>8} {'regret':>7}  how")
    for problem, c in choices.items():
        t = times.get(problem, {})
        if not t:
            print(f"{problem:36} (no hot times in {args.timed})")
            continue
        fastest = min(t, key=t.get)
        chosen = c.get("variant", "")
        if chosen not in t:
            print(f"{problem:36} {chosen or '-':24} {'unmeasured':>8} {fastest:24} {t[fastest]:8.1f}"
                  f" {'':>7}  {c.get('how', '')}")
            continue
        r = t[chosen] / t[fastest]
        regrets.append(r)
        print(f"{problem:36} {chosen:24} {t[chosen]:8.1f} {fastest:24} {t[fastest]:8.1f} {r:6.2f}x"
              f"  {c.get('how', '')}")
    if regrets:
        g = math.exp(sum(map(math.log, regrets)) / len(regrets))
        print(f"\n{len(regrets)} problems: geometric-mean regret {g:.3f}x, worst {max(regrets):.2f}x, "
              f"{sum(r > 1.1 for r in regrets)} over 1.10x, {sum(r == 1 for r in regrets)} exact best")


if __name__ == "__main__":
    main()
