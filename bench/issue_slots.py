#!/usr/bin/env python3
# The issue-slot bound of a one-kernel CUDA plan without a GPU (how 31's Rader kernel was found
# slow, docs/fftlib.md "Rader"): per phase between barriers, the PTX instructions (nvcc -ptx,
# sm_90) times the iterations of its loop over threadIdx.x; a row of w work-items costs w / 32
# warps of that, whether or not its work-items have work in a phase. Rows x that / the device's
# warp-instruction rate is a lower bound on the time; with ptxas's registers, the threads an SM
# holds (below ~900 the kernel waits on latency instead). Against an H200 (f32, batch x N =
# 2^26): Rader 31 [2, 15] 2.0 ms (1.9 measured), 43 0.51 (0.73), 61 1.10 (1.40).
#
#   build/fftc fft --size 31 --batch 2164802 --target cuda --local-memory 232448 -o /tmp/k31
#   bench/issue_slots.py /tmp/k31 --rows 2164802 [--sms 132 --ghz 1.98]
import argparse
import glob
import json
import math
import os
import re
import subprocess
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument("dir", help="an `fftc fft --target cuda` output directory (one stage)")
ap.add_argument("--rows", type=int, required=True, help="the batch: transforms per launch")
ap.add_argument("--sms", type=int, default=132, help="streaming multiprocessors (H200: 132)")
ap.add_argument("--ghz", type=float, default=1.98, help="the SM clock (H200: 1.98)")
ap.add_argument("--nvcc", default=os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/bin/nvcc")
a = ap.parse_args()

cu = glob.glob(os.path.join(a.dir, "*.cu"))[0]
stage = json.load(open(glob.glob(os.path.join(a.dir, "*.json"))[0]))["stages"][0]
w, f = int(stage["local"][0]), int(stage["local"][1])
src = open(cu).read()
counts = [int(c) for c in
          re.findall(r"for \(int lid\w* = \(int\)threadIdx\.x; lid\w* < (\d+);", src)]
with tempfile.TemporaryDirectory() as tmp:
    ptx = os.path.join(tmp, "k.ptx")
    subprocess.run([a.nvcc, "-arch=sm_90", "-ptx", "-o", ptx, cu], check=True)
    phases, n = [], 0
    for line in open(ptx):
        if "bar.sync" in line:
            phases.append(n)
            n = 0
        elif re.match(r"^\t[a-z@]", line):
            n += 1
    phases.append(n)
    ptxas = subprocess.run([a.nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o",
                            os.path.join(tmp, "k.cubin"), cu], capture_output=True, text=True)
regs = int(re.search(r"Used (\d+) registers", ptxas.stderr).group(1))
threads = w * f
warps = math.ceil(threads / 32)
blocks = min(32, 2048 // threads, 65536 // (regs * warps * 32),
             (228 * 1024) // (stage["local_memory_bytes"] + 1024))
per_row = w / 32 * sum(p * math.ceil(c / w) for c, p in zip(counts, phases))
ms = a.rows * per_row / (a.sms * 4 * a.ghz * 1e9) * 1e3
print(f"work-items/row {w}, rows/group {f}, registers {regs}, threads/SM {blocks * threads}")
print("phases (loop count, PTX instructions):", list(zip(counts, phases)))
print(f"warp instructions/row {per_row:.0f}, issue bound {ms:.3f} ms for {a.rows} rows")
