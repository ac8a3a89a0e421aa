"""scripts/check_compiles_alone.py on small CMake unity builds made here: a file that compiles
only after a batch mate (a missing include, a helper of another file) fails the check by name
while the unity build itself succeeds; once it includes what it uses, the check passes; --files
leaves files out. The headers, the number of files and the broken file's place are drawn."""

import os
import random
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "check_compiles_alone.py")

# (header, an expression that needs it)
USES = [
    ("<vector>", "std::vector<int>(3).size()"),
    ("<string>", "std::string(\"ab\").size()"),
    ("<map>", "std::map<int, int>{{1, 2}}.size()"),
    ("<optional>", "std::optional<int>(4).value_or(0)"),
    ("<numeric>", "std::gcd(12, 18)"),
]


def cmake_project(dir, files):
    """files: {name: text}; a static library of them in unity batches of 8."""
    for name, text in files.items():
        with open(os.path.join(dir, name), "w") as f:
            f.write(text)
    with open(os.path.join(dir, "CMakeLists.txt"), "w") as f:
        f.write("cmake_minimum_required(VERSION 3.22)\nproject(p CXX)\n"
                f"add_library(p STATIC {' '.join(sorted(files))})\n"
                "set_target_properties(p PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)\n")
    build = os.path.join(dir, "build")
    for cmd in (["cmake", "-S", dir, "-B", build, "-G", "Ninja", "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"],
                ["cmake", "--build", build]):
        r = subprocess.run(cmd, capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
    return build


def check(build, *extra):
    r = subprocess.run([sys.executable, SCRIPT, build, *extra], capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


class CompilesAlone(unittest.TestCase):
    def test_drawn_projects(self):
        rng = random.Random(int.from_bytes(os.urandom(4), "little"))
        for _ in range(3):
            count = rng.randrange(2, 6)
            bad = rng.randrange(1, count)  # after the file that brings what it needs
            header, use = rng.choice(USES)
            files = {}
            for i in range(count):
                name = f"f{i}.cpp"
                if i == 0:
                    text = f"#include {header}\nnamespace {{ int helper() {{ return 7; }} }}\n"
                else:
                    text = ""
                if i == bad:
                    # uses the header it does not include, and file 0's file-local helper
                    body = f"return static_cast<int>({use}) + helper();"
                    text += f"int use{i}() {{ {body} }}\n"
                else:
                    text += f"int use{i}() {{ return {i}; }}\n"
                files[name] = text
            with self.subTest(count=count, bad=bad, header=header):
                with tempfile.TemporaryDirectory() as dir:
                    build = cmake_project(dir, files)
                    rc, out = check(build)
                    self.assertEqual(rc, 1, out)
                    self.assertIn(f"f{bad}.cpp does not compile alone", out)
                    self.assertIn(f"{count - 1} of {count} files compile alone", out)
                    rc, out = check(build, "--files", rf"/f(?!{bad}\.cpp)\d+\.cpp$")
                    self.assertEqual(rc, 0, out)
                    # the file made whole: its own include and helper
                    with open(os.path.join(dir, f"f{bad}.cpp"), "w") as f:
                        f.write(f"#include {header}\nnamespace {{ int helper() {{ return 7; }} }}\n"
                                f"int use{bad}() {{ return static_cast<int>({use}) + helper(); }}\n")
                    rc, out = check(build)
                    self.assertEqual(rc, 0, out)
                    self.assertIn(f"{count} of {count} files compile alone", out)

    def test_no_unity_batches_is_a_usage_error(self):
        with tempfile.TemporaryDirectory() as dir:
            with open(os.path.join(dir, "compile_commands.json"), "w") as f:
                f.write("[]")
            rc, out = check(dir)
            self.assertEqual(rc, 2, out)


if __name__ == "__main__":
    if shutil.which("cmake") is None or shutil.which("ninja") is None:
        sys.exit("cmake and ninja are needed")
    unittest.main()
