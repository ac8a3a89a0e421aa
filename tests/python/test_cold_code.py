"""scripts/cold_code.py recovers a known cold-penalty-per-KB slope from generated results files
(random problems, variants and code sizes, a per-problem data term that must cancel), per
variant and per stage (--stages), finds none where the penalty does not follow the code, and
takes binary sizes only from the same device."""

import gzip
import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "cold_code.py")


def results(device, problems, variants, penalty, rng, stats=True):
    """A results file: every variant on every problem, hot random, cold = hot + penalty(...)."""
    bench = []
    for p in problems:
        for v, kb in variants.items():
            hot = rng.uniform(5, 50)
            cold = hot + penalty(kb, p)
            bench.append({"name": f"{p['name']}/{v}", "gnbench": {
                "variant": v, "verdict": "PASS", "problem": p, "required_bytes": required(p),
                "hot": {"ns": {"median": hot * 1e3}}, "cold": {"ns": {"median": cold * 1e3}}}})
    ps = {v: {"group": {"Binary Size": int(kb * 1024 * 0.75)}, "dwdb": {"Binary Size": int(kb * 1024 * 0.25)}}
          for v, kb in variants.items()} if stats else {}
    return {"context": {"gnbench": {"device": {"name": device}, "pipeline_statistics": ps}},
            "benchmarks": bench}


def required(p):
    return p["batch"] * p["channels"] * p["spatial"] * 12 + p["channels"] * 12


def random_problems(rng, count, elements):
    out = []
    for i in range(count):
        n, c = rng.randint(1, 32), rng.randint(1, 64)
        hw = max(1, elements // (n * c) + rng.randint(0, 3))
        out.append({"name": f"p{i}", "batch": n, "channels": c, "spatial": hw, "groups": 1,
                    "data_us": rng.uniform(0, 20)})
    return out


def staged_results(device, problems, variants, slope, rng):
    """Two stages per variant, each of its own random size; a stage's cold time is its hot time
    plus slope * its KB; the entry's totals are the stages' sums."""
    bench, ps = [], {}
    for v in variants:
        ps[v] = {st: {"Binary Size": int(rng.uniform(4, 80) * 1024)} for st in ("group", "dwdb")}
    for p in problems:
        for v in variants:
            hot = {st: rng.uniform(2, 20) for st in ps[v]}
            cold = {st: hot[st] + slope * ps[v][st]["Binary Size"] / 1024 + p["data_us"] / 2
                    for st in ps[v]}
            timing = lambda t: {"ns": {"median": sum(t.values()) * 1e3},
                                "stages": [{"name": st, "ns": {"median": us * 1e3}} for st, us in t.items()]}
            bench.append({"name": f"{p['name']}/{v}", "gnbench": {
                "variant": v, "verdict": "PASS", "problem": p, "required_bytes": required(p), "hot": timing(hot), "cold": timing(cold)}})
    return {"context": {"gnbench": {"device": {"name": device}, "pipeline_statistics": ps}},
            "benchmarks": bench}


class ColdCode(unittest.TestCase):
    def run_script(self, d, files, *extra):
        paths = []
        for i, r in enumerate(files):
            path = os.path.join(d, f"r{i}.json.gz")
            with gzip.open(path, "wt") as f:
                json.dump(r, f)
            paths.append(path)
        return subprocess.run([sys.executable, SCRIPT, *paths, *extra], capture_output=True, text=True)

    def band_rows(self, out):
        rows = {}
        for line in out.splitlines()[1:]:
            if not line.strip():
                break
            parts = line.split()
            rows[parts[0]] = parts[1:]
        return rows

    def test_recovers_slope_and_cancels_data_term(self):
        rng = random.Random(52)
        slope = rng.uniform(0.05, 0.3)
        variants = {f"gn_v{i}": rng.uniform(10, 90) for i in range(8)}
        small = random_problems(rng, 12, 20000)  # 0.24 MB of traffic: the first band
        pen = lambda kb, p: slope * kb + p["data_us"] + rng.gauss(0, 0.05)
        with tempfile.TemporaryDirectory() as d:
            got = self.run_script(d, [results("cardA", small, variants, pen, rng)])
        self.assertEqual(got.returncode, 0, got.stderr)
        first = self.band_rows(got.stdout)["0-3"]
        self.assertEqual(int(first[1]), len(small))
        self.assertAlmostEqual(float(first[2]), slope, delta=0.01 + 0.05 * slope)
        self.assertGreater(float(first[3]), 0.95)

    def test_stages_recover_the_per_stage_slope(self):
        rng = random.Random(55)
        slope = rng.uniform(0.05, 0.3)
        variants = [f"gn_v{i}" for i in range(6)]
        small = random_problems(rng, 10, 20000)
        with tempfile.TemporaryDirectory() as d:
            got = self.run_script(d, [staged_results("cardA", small, variants, slope, rng)], "--stages")
            whole = self.run_script(d, [staged_results("cardA", small, variants, slope, rng)])
        self.assertEqual(got.returncode, 0, got.stderr)
        first = self.band_rows(got.stdout)["0-3"]
        self.assertEqual(int(first[0]), len(small) * len(variants) * 2)  # a point per stage
        self.assertAlmostEqual(float(first[2]), slope, delta=1e-3)
        self.assertIn("gn_v0/dwdb", got.stdout)
        self.assertEqual(whole.returncode, 0, whole.stderr)
        self.assertEqual(int(self.band_rows(whole.stdout)["0-3"][0]), len(small) * len(variants))

    def test_no_slope_when_penalty_ignores_code(self):
        rng = random.Random(53)
        variants = {f"gn_v{i}": rng.uniform(10, 90) for i in range(8)}
        small = random_problems(rng, 12, 20000)
        pen = lambda kb, p: p["data_us"] + rng.uniform(0, 4)
        with tempfile.TemporaryDirectory() as d:
            got = self.run_script(d, [results("cardA", small, variants, pen, rng)])
        self.assertEqual(got.returncode, 0, got.stderr)
        first = self.band_rows(got.stdout)["0-3"]
        self.assertLess(abs(float(first[3])), 0.4)

    def test_sizes_only_from_the_same_device(self):
        rng = random.Random(54)
        variants = {f"gn_v{i}": rng.uniform(10, 90) for i in range(4)}
        probs = random_problems(rng, 4, 20000)
        pen = lambda kb, p: kb * 0.1
        with tempfile.TemporaryDirectory() as d:
            # cardB's file has timings but no statistics; cardA's statistics must not be used.
            with gzip.open(os.path.join(d, "stats.json.gz"), "wt") as f:
                json.dump(results("cardA", probs, variants, pen, rng), f)
            got = self.run_script(d, [results("cardB", probs, variants, pen, rng, stats=False)],
                                  "--stats", os.path.join(d, "stats.json.gz"))
        self.assertEqual(got.returncode, 2)
        self.assertIn("no verified entry", got.stderr)


if __name__ == "__main__":
    unittest.main()
