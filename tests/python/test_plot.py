"""scripts/plot.py: every kind renders from a stored GPU-host results file, values match what
gnbench itself wrote, entries without a value stay NaN (never 0), and styles stay distinct."""

import copy
import gzip
import json
import math
import os
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import plot  # noqa: E402

RUN = os.path.join(ROOT, "results", "h200", "run20_h200.json.gz")
ANCHOR = os.path.join(ROOT, "results", "h200", "run20_torch_anchor.json")


def render(tmp, *args):
    """plot.main in this process (one matplotlib import for every test): the image's path."""
    out = os.path.join(tmp, "out.png")
    plot.main([*args, "-o", out])
    return out


def error_of(*args):
    """The message plot.py exits with."""
    with tempfile.TemporaryDirectory() as tmp:
        try:
            render(tmp, *args)
        except SystemExit as e:
            return str(e.code)
    return ""


class Render(unittest.TestCase):
    def check_png(self, *args):
        with tempfile.TemporaryDirectory() as tmp:
            with open(render(tmp, *args), "rb") as f:
                data = f.read()
            self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
            self.assertGreater(len(data), 30000)  # a drawn figure, not an empty canvas

    def test_pct_copy(self):
        self.check_png(RUN, "--kind", "pct-copy", "--mode", "hot")

    def test_speedup_over_anchor(self):
        self.check_png(RUN, "--kind", "speedup", "--anchor", ANCHOR, "--mode", "hot")

    def test_speedup_over_variant(self):
        self.check_png(RUN, "--kind", "speedup", "--over", "seed")

    def test_bandwidth(self):
        self.check_png(RUN, "--kind", "bandwidth", "--mode", "hot")

    def test_bad_input_is_one_line_error(self):
        with tempfile.TemporaryDirectory() as tmp:
            bad = os.path.join(tmp, "bad.json")
            with open(bad, "w") as f:
                f.write("{}")
            self.assertIn("bad.json: not a readable gnbench results file", error_of(bad))
        self.assertIn("--over no_such_variant: no such variant",
                      error_of(RUN, "--kind", "speedup", "--over", "no_such_variant"))


class Values(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.entries = plot.load(RUN)
        with gzip.open(RUN, "rt") as f:
            cls.doc = json.load(f)

    def test_pct_matches_what_gnbench_wrote(self):
        rows, cols, cells = plot.grid(self.entries)
        written = {}
        for b in self.doc["benchmarks"]:
            e = b.get("gnbench")
            if e and "pct_copy_required" in e:
                written[(e["variant"], e["problem"]["name"])] = e["pct_copy_required"]
        self.assertGreater(len(written), 50)
        for (variant, problem), pct in written.items():
            e = cells[(variant, problem)]
            # gnbench's headline is cold when measured
            mine = 100 * e["bytes"] / plot.value_of(e, "cold") / e["copy_gbps"]
            self.assertAlmostEqual(mine, pct, places=6)

    def test_entries_without_a_value_are_nan_not_zero(self):
        rows, cols, cells = plot.grid(self.entries)
        values = plot.matrix(rows, cols, cells, lambda e: plot.value_of(e, "hot"))
        for i, r in enumerate(rows):
            for j, c in enumerate(cols):
                e = cells[(r, c)]
                if e["verdict"] == "PASS":
                    self.assertGreater(values[i][j], 0)
                else:
                    self.assertTrue(math.isnan(values[i][j]), (r, c, e["verdict"]))
        self.assertTrue(any(e["verdict"] == "SKIP" for e in self.entries))
        failed = dict(self.entries[0], verdict="FAIL")
        self.assertIsNone(plot.value_of(failed, "cold"))

    def test_styles_distinct_for_many_variants(self):
        styles = [plot.style(i) for i in range(70)]
        self.assertEqual(len(set(styles)), 70)

    def test_devices_kept_apart(self):
        doc = copy.deepcopy(self.doc)
        for k, b in enumerate(b for b in doc["benchmarks"] if "gnbench" in b):
            b["gnbench"]["device"] = f"{k % 2}: gpu{k % 2}"
            b["gnbench"]["device_copy_gbps"] = 1000.0 * (1 + k % 2)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "two.json")
            with open(path, "w") as f:
                json.dump(doc, f)
            entries = plot.load(path)
            rows, _, _ = plot.grid(entries)
            self.assertTrue(all(" @ " in r for r in rows))
            self.assertEqual({e["copy_gbps"] for e in entries}, {1000.0, 2000.0})
            self.assertTrue(os.path.getsize(render(tmp, path, "--kind", "bandwidth")) > 30000)


if __name__ == "__main__":
    unittest.main()
