"""scripts/dispatch_eval.py's copy of the lookup rule chooses what gnbench chooses: a generated
version-2 table of real variants and random times, unseen random shapes, `gnbench run
--variant best --table` on this machine's device (verify only) against choose_v2 at the
device's subgroup size. The rule's published measurements come from the script, so the two
must not drift apart."""

import json
import os
import random
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "scripts"))
import dispatch_eval  # noqa: E402
import variant_coverage as vc  # noqa: E402

GNBENCH = os.environ.get("GNBENCH") or os.path.join(ROOT, "build", "gnbench")
# Families that run on any Vulkan device at small sizes; their `when` decides admission.
POOL = ["gn_fused", "gn_fused_v4", "gn_fused2", "gn_onchip2_256", "gn_onchip2_v4_256",
        "gn_onchip2_m4_256", "gn_sgroup_2", "gn_sgroup_8", "gn_team_1x8", "gn_flat_64x4"]


def random_shape(rng, small):
    g = rng.randint(1, 16)
    cpg = rng.randint(1, 16)
    hw = rng.choice([1, rng.randint(2, 64), 4 * rng.randint(1, 32)])
    n = rng.randint(1, 8) if small else rng.randint(1, 512)
    return n, g * cpg, hw, g


class DispatchEvalMirrorsGnbench(unittest.TestCase):
    def test_same_choices_as_gnbench(self):
        rng = random.Random(20261204)
        names = {v["name"]: v for v in vc.load_variants([])}
        pool = [v for v in POOL if v in names]
        self.assertGreaterEqual(len(pool), 6, "the pool's variants are gone: update POOL")
        entries, table = [], []
        for i in range(40):
            shape = random_shape(rng, small=False)
            times = {v: round(rng.uniform(5, 50), 3) for v in rng.sample(pool, rng.randint(1, 5))}
            best = min(times, key=times.get)
            n, c, hw, g = shape
            table.append({"problem": f"e{i}", "batch": n, "channels": c, "spatial": hw,
                          "groups": g, "variant": best, "median_us": times[best], "times": times})
            entries.append((shape, times))
        problems = []
        for i in range(16):
            n, c, hw, g = random_shape(rng, small=True)
            problems.append({"name": f"u{i}", "batch": n, "channels": c, "spatial": hw, "groups": g})
        with tempfile.TemporaryDirectory() as d:
            tpath, cpath, rpath = (os.path.join(d, f) for f in ("t.json", "c.json", "r.json"))
            with open(tpath, "w") as f:
                json.dump({"format": "gnbench-dispatch-table", "version": 2, "entries": table}, f)
            with open(cpath, "w") as f:
                json.dump({"problems": problems}, f)
            run = subprocess.run([GNBENCH, "run", cpath, "--variant", "best", "--table", tpath,
                                  "--no-timing", "-q", "--json", rpath],
                                 capture_output=True, text=True, timeout=600)
            self.assertEqual(run.returncode, 0, run.stderr[-2000:])
            with open(rpath) as f:
                results = json.load(f)
        sg = results["context"]["gnbench"]["device"]["subgroup_size"]
        choices = results["context"]["gnbench"]["dispatch_choices"]
        compared = 0
        for p in problems:
            key = (p["batch"], p["channels"], p["spatial"], p["groups"])
            ok = lambda v, key=key: vc.admits(names[v], *key, sg)  # noqa: E731
            mine = dispatch_eval.choose_near(entries, key, ok, dispatch_eval.RULE) or ""
            self.assertEqual(choices[p["name"]]["variant"], mine, f"{p['name']} {key}")
            compared += bool(mine)
        self.assertGreaterEqual(compared, 8)


class FoldTables(unittest.TestCase):
    """fold_table builds what `tune --from ... --fill-from ...` writes (test_dispatch.cpp checks
    gnbench's side): later sources override in place, fill shapes follow only where the sources
    have none, and --unseen shapes are in neither."""

    def test_sources_then_fill_without_the_unseen(self):
        rng = random.Random(int.from_bytes(os.urandom(4), "little"))
        for _ in range(50):
            pool = list({random_shape(rng, small=False) for _ in range(30)})
            draw = lambda: {k: {"t": {"v": rng.uniform(1, 9)}} for k in rng.sample(pool, 10)}  # noqa: E731
            sets = {"a": draw(), "b": draw(), "other": draw(), "left": draw()}
            unseen = sets["left"]
            table = dispatch_eval.fold_table(sets, ["a", "b"], ["other"], unseen)
            shapes = [k for k, _ in table]
            self.assertEqual(len(shapes), len(set(shapes)))
            own = [k for k in dict.fromkeys(list(sets["a"]) + list(sets["b"])) if k not in unseen]
            fill = [k for k in sets["other"] if k not in unseen and k not in own]
            self.assertEqual(shapes, own + fill)
            for k, t in table:
                src = "b" if k in sets["b"] else "a" if k in sets["a"] else "other"
                self.assertIs(t, sets[src][k]["t"], (k, src))
            self.assertEqual(dispatch_eval.fold_table(sets, ["a", "b"], (), unseen),
                             table[:len(own)])


if __name__ == "__main__":
    unittest.main()
