"""Reading gnbench results files in the scripts: one opener (.json or .json.gz) and one rule for
which entries count as verified (PASS, or XPASS: an expected failure that passed)."""
import gzip
import json

VERIFIED = ("PASS", "XPASS")


def read(path):
    """A results file (gzip when the name ends in .gz) as parsed JSON."""
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        return json.load(f)


def verified_entries(results):
    """The gnbench block of every entry whose verdict is PASS or XPASS."""
    for b in results["benchmarks"]:
        g = b.get("gnbench")
        if g and g.get("verdict") in VERIFIED:
            yield g
