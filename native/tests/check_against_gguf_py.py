#!/usr/bin/env python3
"""Optional cross-check against llama.cpp's own Python package (gguf-py, `pip install gguf`):
writes a GGUF with gguf.GGUFWriter holding random blocks of every supported type, reads it back
with our reader (`infer_native_tests --gguf-dequant`), and compares every element with
gguf.quants.dequantize. Not part of the CI tests (they must not need pip packages).

Usage: python3 native/tests/check_against_gguf_py.py build/native/infer_native_tests
"""
import subprocess
import sys
import tempfile

import numpy as np
import gguf
from gguf import GGMLQuantizationType as T
from gguf.quants import dequantize

exe = sys.argv[1]
rng = np.random.default_rng(7)

# type: (block elems, block bytes, byte offsets of fp16 scale fields)
types = {
    T.Q4_0: (32, 18, [0]),
    T.Q5_0: (32, 22, [0]),
    T.Q8_0: (32, 34, [0]),
    T.Q4_K: (256, 144, [0, 2]),
    T.Q5_K: (256, 176, [0, 2]),
    T.Q6_K: (256, 210, [208]),
    T.F16: (1, 2, None),
    T.BF16: (1, 2, None),
    T.F32: (1, 4, None),
}
rows, n = 3, 512
expected = {}
with tempfile.TemporaryDirectory() as d:
    path = f"{d}/x.gguf"
    w = gguf.GGUFWriter(path, "llama")
    w.add_uint32("test.u32", 7)
    w.add_array("test.strs", ["a", "bc"])
    for qt, (be, bb, scale_offs) in types.items():
        nb = rows * n // be
        if scale_offs is None:
            if qt == T.F32:
                raw = rng.standard_normal(rows * n).astype(np.float32).view(np.uint8)
            elif qt == T.F16:
                raw = rng.standard_normal(rows * n).astype(np.float16).view(np.uint8)
            else:
                f = rng.standard_normal(rows * n).astype(np.float32)
                raw = (f.view(np.uint32) >> 16).astype(np.uint16).view(np.uint8)
        else:
            blocks = rng.integers(0, 256, size=(nb, bb), dtype=np.uint8)
            for off in scale_offs:
                sc = (rng.uniform(0.0005, 0.02, nb) * rng.choice([-1, 1], nb)).astype(np.float16)
                if qt in (T.Q4_K, T.Q5_K, T.Q6_K):
                    sc = np.abs(sc)
                blocks[:, off:off + 2] = sc.view(np.uint8).reshape(nb, 2)
            raw = blocks.reshape(-1)
        name = f"t.{qt.name.lower()}"
        raw2 = raw.reshape(rows, -1)
        if qt == T.F32:
            w.add_tensor(name, raw2.view(np.float32))
        elif qt == T.F16:
            w.add_tensor(name, raw2.view(np.float16))
        else:  # bytes, with the byte shape
            w.add_tensor(name, raw2, raw_shape=raw2.shape, raw_dtype=qt)
        expected[name] = dequantize(raw2, qt).astype(np.float64).reshape(-1)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()
    out = subprocess.run([exe, "--gguf-dequant", path], capture_output=True, text=True, check=True).stdout

got = {}
for line in out.splitlines():
    name, idx, val = line.split()
    got.setdefault(name, []).append(float(val))
bad = 0
for name, exp in expected.items():
    g = np.array(got.get(name, []))
    if g.shape != exp.shape:
        print(f"{name}: {g.shape} elements, expected {exp.shape}")
        bad += 1
        continue
    err = np.max(np.abs(g - exp) / (np.abs(exp) + 1e-6))
    ok = err < 1e-5
    bad += 0 if ok else 1
    print(f"{'ok  ' if ok else 'FAIL'} {name}: {exp.size} elements, max rel diff {err:.2e}")
print("all types match gguf-py" if bad == 0 else f"{bad} mismatching tensors")
sys.exit(1 if bad else 0)
