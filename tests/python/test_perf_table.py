"""scripts/perf_table.py --targets on generated results and anchor files: every target's verdict
and the shapes it lists match what the files say, the exit status is 1 exactly when a target is
missed, and the best entry per shape ignores failed and excluded variants."""

import contextlib
import gzip
import io
import json
import math
import os
import random
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import perf_table  # noqa: E402

COPY_GBPS = 4000.0


def entry(name, variant, verdict, mb, hot_us, cold_us, actual_bytes):
    g = {"problem": {"name": name}, "variant": variant, "verdict": verdict,
         "required_bytes": 3 * mb * 1e6, "actual_bytes": actual_bytes,
         "hot": {"ns": {"median": hot_us * 1e3}}}
    if cold_us is not None:
        g["cold"] = {"ns": {"median": cold_us * 1e3}}
    return {"name": f"{name}/{variant}", "gnbench": g}


def generate(rng, n_shapes, cold=True):
    """A results file, an anchor file and what the targets should find in them."""
    benchmarks, rows = [], []
    truth = {"slower": set(), "low": set(), "low_required": set(), "hot": [], "cold": []}
    for i in range(n_shapes):
        name = f"s{i}"
        mb = math.exp(rng.uniform(math.log(1), math.log(200)))
        bwd = rng.uniform(5, 500)
        best_hot = best_cold = None
        for v in range(rng.randint(1, 4)):
            hot = bwd * rng.uniform(0.3, 1.3)
            cold_us = hot * rng.uniform(1.0, 1.5) if cold else None
            actual = rng.uniform(2, 5) * mb * 1e6
            failed = rng.random() < 0.2
            # a failed entry faster than everything: must never count
            benchmarks.append(entry(name, f"gn_{v}", "FAIL" if failed else "PASS", mb,
                                    hot * (0.5 if failed else 1), cold_us, actual))
            if failed:
                continue
            if best_hot is None or hot < best_hot[0]:
                best_hot = (hot, actual)
            if cold and (best_cold is None or cold_us < best_cold):
                best_cold = cold_us
        # an excluded variant, fastest of all
        benchmarks.append(entry(name, "xx_excluded", "PASS", mb, bwd * 0.01, bwd * 0.01 if cold else None, 1e6))
        rows.append({"name": name, "graph_bwd_ms": bwd / 1e3, "graph_stats_plus_bwd_ms": 2 * bwd / 1e3})
        if rng.random() < 0.1:  # in the anchor only: a stopped run never reached it
            del benchmarks[-(v + 2):]
            truth.setdefault("not_run", set()).add(name)
            continue
        if best_hot is None:
            truth.setdefault("missing", set()).add(name)
            continue
        truth["hot"].append(bwd / best_hot[0])
        if cold:
            truth["cold"].append(bwd / best_cold)
        if best_hot[0] > bwd:
            truth["slower"].add(name)
        pct = 100 * best_hot[1] / (best_hot[0] * 1e3) / COPY_GBPS
        pct_required = 100 * 3 * mb * 1e6 / (best_hot[0] * 1e3) / COPY_GBPS
        if mb >= 40 and pct < 85:
            truth["low"].add(name)
        if mb >= 40 and pct_required < 85:
            truth["low_required"].add(name)
    results = {"benchmarks": benchmarks, "context": {"gnbench": {"copy_bandwidth": {"gbps": COPY_GBPS}}}}
    anchor = {"copy_GBps": COPY_GBPS, "rows": rows}
    return results, anchor, truth


def run(tmp, results, anchor, *args):
    rpath, tpath = os.path.join(tmp, "r.json.gz"), os.path.join(tmp, "t.json")
    with gzip.open(rpath, "wt") as f:
        json.dump(results, f)
    with open(tpath, "w") as f:
        json.dump(anchor, f)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = perf_table.main([rpath, tpath, "--exclude", "xx_*", *args])
    return code, out.getvalue()


def listed(out, prefix):
    """The shape names a target line lists (the names before each ratio or percentage)."""
    for line in out.splitlines():
        if prefix in line and ": " in line.split(prefix, 1)[1]:
            detail = line.split(prefix, 1)[1].split(": ", 1)[1]
            return {item.split()[0] for item in detail.split(", ")}
    return set()


class Targets(unittest.TestCase):
    def test_generated_files(self):
        rng = random.Random()
        seed = rng.randrange(1 << 30)
        rng.seed(seed)
        for trial in range(30):
            cold = trial % 5 != 0
            results, anchor, truth = generate(rng, rng.randint(1, 25), cold)
            min_hot = rng.choice([0.5, 1.0, 1.5])
            basis = rng.choice(["actual", "required", None])  # None: the default, actual
            low = truth["low_required" if basis == "required" else "low"]
            with tempfile.TemporaryDirectory() as tmp:
                code, out = run(tmp, results, anchor, "--targets", "--min-hot", str(min_hot),
                                "--min-cold", "0.9", *(["--copy-basis", basis] if basis else []))
            msg = f"seed {seed} trial {trial} basis {basis}\n{out}"
            self.assertEqual(listed(out, "at or under PyTorch bwd (hot)"), truth["slower"], msg)
            self.assertEqual(listed(out, "MB and more"), low, msg)
            self.assertEqual(listed(out, "has a passing variant"), truth.get("missing", set()), msg)
            self.assertEqual(listed(out, "every shape was run"), truth.get("not_run", set()), msg)
            hot = math.exp(sum(map(math.log, truth["hot"])) / len(truth["hot"])) if truth["hot"] else float("nan")
            cold_ok = bool(truth["cold"]) and math.exp(sum(map(math.log, truth["cold"])) / len(truth["cold"])) >= 0.9
            met = (not truth["slower"] and not low and not truth.get("missing") and not truth.get("not_run")
                   and hot >= min_hot and cold_ok)
            self.assertEqual(code, 0 if met else 1, msg)
            (self.assertNotIn if met else self.assertIn)("- NOT met", out, msg)

    def test_all_met_exits_0_and_table_alone_never_fails(self):
        rng = random.Random(7)
        results, anchor, _ = generate(rng, 12)
        for b in results["benchmarks"]:  # every entry passes, twice as fast as PyTorch, at copy speed
            g = b["gnbench"]
            g["verdict"] = "PASS"
            bwd = next(r["graph_bwd_ms"] * 1e6 for r in anchor["rows"] if r["name"] == g["problem"]["name"])
            g["hot"]["ns"]["median"] = g["cold"]["ns"]["median"] = bwd / 2
            g["actual_bytes"] = COPY_GBPS * bwd / 2
        with tempfile.TemporaryDirectory() as tmp:
            code, out = run(tmp, results, anchor, "--targets")
            self.assertEqual(code, 0, out)
            self.assertNotIn("NOT met", out)
            for b in results["benchmarks"]:
                b["gnbench"]["hot"]["ns"]["median"] *= 3  # slower than PyTorch everywhere
            self.assertEqual(run(tmp, results, anchor, "--targets")[0], 1)
            self.assertEqual(run(tmp, results, anchor)[0], 0)  # without --targets: just the table


if __name__ == "__main__":
    unittest.main()
