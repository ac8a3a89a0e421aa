#!/usr/bin/env python3
"""Every source file that a build compiles in unity batches, compiled on its own.

A unity batch (CMakeLists.txt, GNBENCH_UNITY_BUILD) can hide a missing include or namespace: a
file then compiles only after its batch mates. This reads BUILD/compile_commands.json, takes each
unity batch's command line for each file the batch includes, and runs it with -fsyntax-only (the
front end: what a missing declaration breaks, at about a sixth of a full compile), CPUs-many at a
time. Exit 1, with the compiler's messages, when any file does not compile alone.

Usage: scripts/check_compiles_alone.py BUILD_DIR [--files REGEX] [--jobs N]
"""
import argparse
import concurrent.futures
import json
import os
import pathlib
import re
import shlex
import subprocess
import sys

INCLUDE = re.compile(r'^#include "(.+)"$', re.M)


def commands(build: pathlib.Path):
    """(source, directory, argv) for each file of each unity batch."""
    for entry in json.loads((build / "compile_commands.json").read_text()):
        batch = pathlib.Path(entry["file"])
        if "/Unity/" not in batch.as_posix():
            continue  # compiled alone by the build itself
        argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
        # without the output and the batch file; the source goes where the batch was
        out, skip = [], False
        for arg in argv:
            if skip:
                skip = False
            elif arg == "-o":
                skip = True
            elif arg not in (entry["file"], "-c"):
                out.append(arg)
        for source in INCLUDE.findall(batch.read_text()):
            yield source, entry["directory"], out + ["-fsyntax-only", source]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("build", type=pathlib.Path)
    ap.add_argument("--files", default="", help="only the files whose path matches (re.search)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args()
    jobs = [j for j in commands(args.build) if re.search(args.files, j[0])]
    if not jobs:
        print(f"check_compiles_alone: no unity batches in {args.build}/compile_commands.json",
              file=sys.stderr)
        return 2

    def compile_one(job):
        source, directory, argv = job
        r = subprocess.run(argv, cwd=directory, capture_output=True, text=True)
        return source, r.returncode, r.stderr

    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for source, code, err in pool.map(compile_one, jobs):
            if code != 0:
                failed += 1
                print(f"check_compiles_alone: {source} does not compile alone:\n{err}")
    print(f"check_compiles_alone: {len(jobs) - failed} of {len(jobs)} files compile alone")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
