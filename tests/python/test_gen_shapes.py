"""scripts/gen_shapes.py: on random seeds and ranges, every shape lies inside the requested
batch, element, channel, spatial and channels-per-group ranges with a valid group count, the
same seed gives the same file, and a range no shape can meet is a usage error (exit 2), not an
endless draw."""

import json
import os
import random
import subprocess
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "gen_shapes.py")


def gen(*args):
    out = subprocess.run([sys.executable, SCRIPT, *map(str, args)], capture_output=True, text=True)
    return out.returncode, out.stdout, out.stderr


class GenShapes(unittest.TestCase):
    def test_ranges_hold(self):
        rng = random.Random(20261204)
        for _ in range(6):
            seed, count = rng.randrange(10**6), rng.randrange(1, 12)
            lo = rng.choice([1_000, 50_000, 2_000_000])
            hi = lo * rng.choice([2, 10, 40])
            blo = rng.choice([1, 2, 8])
            bhi = blo * rng.choice([1, 4, 64])
            instance = rng.random() < 0.3
            # N*G from N (G = 1 always fits) up to a few groups per sample or any number
            glo, ghi = (1, 10**9) if instance else (blo, bhi * rng.choice([1, 8, 10**4]))
            args = [seed, count, "--elements", lo, hi, "--batch", blo, bhi, "--groups", glo, ghi] + (
                ["--instance"] if instance else [])
            rc, out, err = gen(*args)
            self.assertEqual(rc, 0, err)
            problems = json.loads(out)["problems"]
            self.assertEqual(len(problems), count)
            for p in problems:
                n, c, hw, g = p["batch"], p["channels"], p["spatial"], p["groups"]
                self.assertTrue(lo <= n * c * hw <= hi, p)
                self.assertTrue(blo <= n <= bhi, p)
                self.assertEqual(c % g, 0, p)
                self.assertLessEqual(c // g, 1024, p)
                self.assertTrue(glo <= n * g <= ghi, p)
                if instance:
                    self.assertEqual(g, c, p)
            self.assertEqual(gen(*args)[1], out)  # the same seed, the same shapes

    def test_channel_spatial_and_cpg_ranges_hold(self):
        rng = random.Random(20261205)
        for _ in range(6):
            seed, count = rng.randrange(10**6), rng.randrange(1, 10)
            hwlo = rng.choice([1, 1, 2, 16])
            hwhi = hwlo * rng.choice([1, 4, 64])
            clo = rng.choice([16, 256, 1024])
            chi = clo * rng.choice([2, 16])
            cpglo = rng.choice([1, 1, 64, 1025])
            cpghi = max(cpglo, rng.choice([16, 1024, 16384]))
            args = [seed, count, "--spatial", hwlo, hwhi, "--channels", clo, chi, "--min-cpg", cpglo,
                    "--max-cpg", cpghi, "--elements", 1000, 10**8]
            rc, out, err = gen(*args)
            if rc == 2:  # no channel count in range has a divisor in the CPG band
                self.assertIn("no shape", err)
                continue
            self.assertEqual(rc, 0, err)
            problems = json.loads(out)["problems"]
            self.assertEqual(len(problems), count)
            for p in problems:
                c, hw, g = p["channels"], p["spatial"], p["groups"]
                self.assertTrue(hwlo <= hw <= hwhi, p)
                self.assertTrue(clo <= c <= chi, p)
                self.assertEqual(c % g, 0, p)
                self.assertTrue(cpglo <= c // g <= cpghi, p)
            self.assertEqual(gen(*args)[1], out)

    def test_impossible_range_is_a_usage_error(self):
        for bad in (["--spatial", 0, 4], ["--spatial", 8, 2], ["--channels", 64, 16],
                    ["--min-cpg", 8, "--max-cpg", 4], ["--min-cpg", 0]):
            rc, _, err = gen(1, 3, *bad)
            self.assertEqual(rc, 2, bad)
            self.assertIn(str(bad[0]), err)
        rc, _, err = gen(1, 3, "--elements", 10, 5)
        self.assertEqual(rc, 2)
        self.assertIn("--elements", err)
        rc, _, err = gen(1, 3, "--batch", 64, 64, "--elements", 1, 100)
        self.assertEqual(rc, 2)
        rc, _, err = gen(1, 3, "--instance", "--groups", 1, 8)  # G = C >= 16 at N >= 1
        self.assertEqual(rc, 2)
        self.assertIn("N*G", err)


if __name__ == "__main__":
    unittest.main()
