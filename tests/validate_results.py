#!/usr/bin/python3
"""Validates gnbench results files (.json or .json.gz) against docs/results.schema.json.

usage: validate_results.py SCHEMA FILE...   exit 0 when every file is valid, 1 otherwise
(one line per error: the file, the JSON path, the message), 2 on bad usage.
"""
import gzip
import json
import sys

import jsonschema


def load(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    schema = load(argv[1])
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    bad = 0
    for path in argv[2:]:
        errors = sorted(validator.iter_errors(load(path)), key=lambda e: list(e.absolute_path))
        for e in errors[:5]:
            where = "/".join(str(p) for p in e.absolute_path)
            print(f"{path}: /{where}: {e.message[:300]}")
        bad += bool(errors)
    print(f"{len(argv) - 2 - bad} of {len(argv) - 2} results files valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
