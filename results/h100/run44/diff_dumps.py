"""Compares the outputs of two `gnbench run --dump` folders: for each problem and variant, which
tensors differ bitwise, how many elements, in which rows (n*C + c) and by how much. Run 44h.
Standard library only (float32 .npy as written by gnbench)."""
import ast
import struct
import sys
from array import array
from pathlib import Path


def load(path):
    raw = path.read_bytes()
    hlen = struct.unpack("<H", raw[8:10])[0]
    header = ast.literal_eval(raw[10:10 + hlen].decode())
    assert header["descr"] == "<f4", header
    bits = array("I", raw[10 + hlen:])
    return header["shape"], bits


a, b = Path(sys.argv[1]), Path(sys.argv[2])
for prob in sorted(p for p in a.iterdir() if p.is_dir()):
    for var in sorted(v for v in prob.iterdir() if v.is_dir() and v.name != "reference"):
        for t in ("grad_input", "grad_weight", "grad_bias"):
            shape, x = load(var / f"{t}.npy")
            _, y = load(b / prob.name / var.name / f"{t}.npy")
            diff = [i for i in range(len(x)) if x[i] != y[i]]
            line = f"{prob.name} {var.name} {t}: {len(diff)} of {len(x)} differ"
            if diff:
                fx = array("f", x.tobytes())
                fy = array("f", y.tobytes())
                line += f", max |diff| {max(abs(fx[i] - fy[i]) for i in diff):.3g}"
                if t == "grad_input" and len(shape) >= 3:
                    row_len = len(x) // (shape[0] * shape[1])
                    rows = sorted({i // row_len for i in diff})
                    line += f", {len(rows)} rows (n*C + c): {rows[:16]}{' ...' if len(rows) > 16 else ''}"
                else:
                    line += f", at {diff[:16]}"
            print(line)
