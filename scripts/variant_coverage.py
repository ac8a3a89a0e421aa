#!/usr/bin/env python3
"""Which variants' `when` admit each problem of a config, at a given subgroup size.

    scripts/variant_coverage.py configs/models.json [--subgroup 32] [--kernels DIR]

Prints one line per problem: M (group size), N*G, the admitted gn_* variants and the
expected fastest family by the order in docs/performance.md (3T before 5T; among 3T
the single-pass group kernels by regime). Evaluates the manifests' expressions with the
same variables and operators as gnbench (N C HW G CPG M E SUBGROUP; ceil_div, min, max).
The variants come from `gnbench kernels --json` ($GNBENCH, else build/gnbench), so families
are expanded by the loader itself.
"""
import argparse, json, os, re, shutil, subprocess, sys

# Most to least preferred when several admit a shape (docs/performance.md: the
# single-dispatch group-major builds, whose `when` keeps them to small problems, then 3T
# on-chip builds, regx, then the 5T fused builds, batch 1 and aligned long rows first, the
# two-dispatch row-piece builds (a few groups in small tensors; rp2s and rp2 within a few
# percent of each other where both apply, run 35h) before the three-dispatch ones; the seed
# last). A prefix before the prefixes it extends.
PREFERENCE = ["gn_gmajor", "gn_flat", "gn_sgroup", "gn_onchip2_v4_896", "gn_onchip2_v4", "gn_onchip_v4",
              "gn_onchip2", "gn_onchip", "gn_regx_v4", "gn_regx", "gn_fused1_v4", "gn_fused_v4",
              "gn_fused2_v4", "gn_fused1", "gn_fused_rp2s", "gn_fused_rp2", "gn_fused_rp", "gn_fused",
              "gn_fused2", "seed"]


def evaluate(expr, v):
    py = expr.replace("&&", " and ").replace("||", " or ")
    py = re.sub(r"(?<![/])/(?![/])", "//", py)
    env = dict(v, ceil_div=lambda a, b: -(-a // b), min=min, max=max)
    return int(eval(py, {"__builtins__": {}}, env))


def admits(variant, n, c, hw, g, subgroup):
    """Whether `variant` (an entry of load_variants) has a `when` that admits the shape."""
    v = dict(N=n, C=c, HW=hw, G=g, CPG=c // g, M=c // g * hw, E=n * c * hw, SUBGROUP=subgroup)
    return not variant["when"] or bool(evaluate(variant["when"], v))


def load_variants(extra_dirs):
    # gnbench lists the variants (families expanded) as it loads them: $GNBENCH, else
    # build/gnbench of this checkout, else gnbench on PATH.
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    exe = os.environ.get("GNBENCH") or os.path.join(root, "build", "gnbench")
    if not os.access(exe, os.X_OK):
        exe = shutil.which("gnbench") or sys.exit("variant_coverage.py: build gnbench or set $GNBENCH")
    cmd = [exe, "kernels", "--json"] + [a for d in extra_dirs for a in ("--kernels", d)]
    return json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def rank(name):
    for i, prefix in enumerate(PREFERENCE):
        if name.startswith(prefix):
            return i
    return len(PREFERENCE)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("configs", nargs="+")
    ap.add_argument("--subgroup", type=int, default=32)
    ap.add_argument("--kernels", action="append", default=[])
    args = ap.parse_args()
    variants = load_variants(args.kernels)
    for path in args.configs:
        for p in json.load(open(path))["problems"]:
            N, C, HW, G = p["batch"], p["channels"], p["spatial"], p["groups"]
            ok = [x["name"] for x in variants if admits(x, N, C, HW, G, args.subgroup)]
            ok.sort(key=rank)
            fast = [n for n in ok if n != "seed"]
            first = fast[0] if fast else "seed only"
            print(f"{p['name']:40s} M={C // G * HW:<8d} NG={N * G:<7d} HW%4={HW % 4} "
                  f"first: {first:22s} admitted: {', '.join(n for n in ok if n != 'seed')}")


if __name__ == "__main__":
    sys.exit(main())
