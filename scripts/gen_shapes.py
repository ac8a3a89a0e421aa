#!/usr/bin/env python3
"""Random large GroupNorm shapes for held-out performance checks (not hand-picked).

    scripts/gen_shapes.py SEED COUNT > config.json

N, C and HW log-uniform (N 1-512, C 16-2560, HW 1-8192; --batch, --channels, --spatial LO HI
narrow them), G a random divisor of C with C/G <= 1024 (--max-cpg and --min-cpg set other bounds; G = C
with --instance: instance-norm-like), tensors of 2M-24M elements
(8-96 MB in float32; --elements LO HI sets another range, e.g. small tensors where launch and
dispatch costs, not DRAM, set the time; --groups LO HI keeps N*G, the number of groups the
kernels reduce, in a range: a few large groups); eps 1e-5, normal inputs.
The same seed gives the same shapes. docs/performance.md's random-shape tables come from
seeds 27, 28 (seen while the run-27 builds were chosen) and 29 (held out).
"""
import argparse
import json
import math
import random


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("--instance", action="store_true", help="G = C (one channel per group)")
    ap.add_argument("--batch", type=int, nargs=2, default=[1, 512], metavar=("LO", "HI"),
                    help="N log-uniform in [LO, HI] (default 1 512)")
    ap.add_argument("--channels", type=int, nargs=2, default=[16, 2560], metavar=("LO", "HI"),
                    help="C log-uniform in [LO, HI] (default 16 2560)")
    ap.add_argument("--spatial", type=int, nargs=2, default=[1, 8192], metavar=("LO", "HI"),
                    help="HW log-uniform in [LO, HI] (default 1 8192; 1 1: flattened N x C features)")
    ap.add_argument("--max-cpg", type=int, default=1024, help="largest C/G (default 1024)")
    ap.add_argument("--min-cpg", type=int, default=1, help="smallest C/G (default 1)")
    ap.add_argument("--elements", type=int, nargs=2, default=[2_000_000, 24_000_000],
                    metavar=("LO", "HI"), help="N*C*HW in [LO, HI] (default 2000000 24000000)")
    ap.add_argument("--groups", type=int, nargs=2, default=None, metavar=("LO", "HI"),
                    help="N*G in [LO, HI] (default: any)")
    args = ap.parse_args()
    lo, hi = args.elements
    if not 1 <= args.min_cpg <= args.max_cpg:
        ap.error(f"--min-cpg {args.min_cpg} --max-cpg {args.max_cpg}: need 1 <= MIN <= MAX")
    for name in ("batch", "channels", "spatial"):
        if not 1 <= getattr(args, name)[0] <= getattr(args, name)[1]:
            ap.error(f"--{name} {getattr(args, name)}: need 1 <= LO <= HI")
    if not 1 <= lo <= hi or lo > args.batch[1] * args.channels[1] * args.spatial[1] or \
            hi < args.batch[0] * args.channels[0] * args.spatial[0]:
        ap.error(f"--elements {lo} {hi}: no shape with N in {args.batch} fits (1 <= LO <= HI)")
    rng = random.Random(args.seed)

    def logu(a, b):
        return int(round(math.exp(rng.uniform(math.log(a), math.log(b)))))

    glo, ghi = args.groups or (1, 2**63)
    problems = []
    misses = 0
    while len(problems) < args.count:
        misses += 1
        if misses > 1_000_000:  # the ranges together admit no shape (or almost none)
            ap.error(f"no shape found in 1000000 draws with N*G in [{glo}, {ghi}], "
                     f"N*C*HW in [{lo}, {hi}], N in {args.batch}")
        n, c, hw = logu(*args.batch), logu(*args.channels), logu(*args.spatial)
        if not lo <= n * c * hw <= hi:
            continue
        fits = [d for d in ([c] if args.instance else range(1, c + 1))
                if c % d == 0 and args.min_cpg <= c // d <= args.max_cpg and glo <= n * d <= ghi]
        if not fits:
            continue
        misses = 0
        g = rng.choice(fits)
        problems.append({"name": f"r{len(problems):02d}_n{n}_c{c}_hw{hw}_g{g}", "batch": n,
                         "channels": c, "spatial": hw, "groups": g})
    flag = (" --instance" if args.instance else "") + (
        f" --batch {args.batch[0]} {args.batch[1]}" if args.batch != [1, 512] else "") + (
        f" --elements {lo} {hi}" if args.elements != [2_000_000, 24_000_000] else "") + (
        f" --groups {glo} {ghi}" if args.groups else "") + (
        f" --channels {args.channels[0]} {args.channels[1]}" if args.channels != [16, 2560] else "") + (
        f" --spatial {args.spatial[0]} {args.spatial[1]}" if args.spatial != [1, 8192] else "") + (
        f" --max-cpg {args.max_cpg}" if args.max_cpg != 1024 else "") + (
        f" --min-cpg {args.min_cpg}" if args.min_cpg != 1 else "")
    print(json.dumps({"description": f"gen_shapes.py {args.seed} {args.count}{flag}",
                      "defaults": {"eps": 1e-5, "seed": 1, "distribution": "normal"},
                      "problems": problems}, indent=1))


if __name__ == "__main__":
    main()
