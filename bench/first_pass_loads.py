#!/usr/bin/env python3
# Issue 22's evidence for a tile's first pass without a GPU: for each size, `fftc fft --target
# cuda` emits the plan fft_bench runs (its batch: 2^26 elements f32, 2^25 f64; the H100/H200
# budget of 232448 bytes), nvcc compiles it for sm_90 (-Xptxas -v) and cuobjdump disassembles
# it. One CSV line a kernel: block, registers, spill stores, shared memory, blocks an SM (64K
# registers in warp units of 256, 228 KB with 1 KB a block, 2048 threads, 32 blocks), the LDG
# instructions before the first barrier (the first pass's loads from global memory, a loop's
# body counted once) and the trips of that pass's loop over local dimension 1 (its bound in
# the source over the block's second dimension): 4 LDG x 4 trips is a work-item looping over
# four butterflies, one trip's loads in flight at a time; 16 x 1 takes them at once.
#
#   bench/first_pass_loads.py --fftc build/fftc --sizes 524288,1048576,1024x1024 \
#       [--precision f32,f64] [--label NAME] [--out FILE.csv]
#
# bench/results/2026-11-30-sm90-first_pass_at_once.csv: --label "main 30919f4" (main's fftc)
# and big22, the sizes whose kernels changed, concatenated.
import argparse
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from odd_radix_instructions import find_tool, sass_listing  # noqa: E402


def occupancy_blocks(registers, threads, shared):
    per_warp = (registers * 32 + 255) // 256 * 256
    by_regs = 65536 // (per_warp * ((threads + 31) // 32))
    by_smem = 233472 // ((shared + 127) // 128 * 128 + 1024) if shared else 32
    return min(by_regs, by_smem, 2048 // threads, 32)


def kernel_lines(directory, label, precision, size, batch, nvcc, cuobjdump):
    cu = glob.glob(os.path.join(directory, "*.cu"))[0]
    manifest = json.load(open(glob.glob(os.path.join(directory, "*.json"))[0]))
    cubin = os.path.join(directory, "k.cubin")
    ptxas = subprocess.run([nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", cubin, cu],
                           check=True, capture_output=True, text=True).stderr
    regs, spills = {}, {}
    for name, body in re.findall(r"Compiling entry function '(\w+)'.*?\n(.*?Used \d+ registers)",
                                 ptxas, re.S):
        regs[name] = int(re.search(r"Used (\d+) registers", body).group(1))
        spills[name] = int(re.search(r"(\d+) bytes spill stores", body).group(1))
    sass = sass_listing(cubin, cuobjdump)
    source = open(cu).read()
    for stage in manifest["stages"]:
        name = stage["kernel"]
        block = [int(x) for x in stage["local"]] + [1]
        threads = block[0] * block[1]
        shared = int(stage.get("local_memory_bytes", 0))
        loads = 0
        for _, text in sass[name]:
            if "BAR.SYNC" in text:
                break
            loads += "LDG" in text
        body = next(k for k in source.split("__global__")[1:] if f" {name}(" in k)
        m = re.search(r"< (\d+); \w+ \+= \(int\)blockDim\.y", body)
        trips = -(-int(m.group(1)) // block[1]) if m else 1  # ceil: idle work-items
        print(f"{label},{precision},{size},{batch},{name.rsplit('_', 1)[1]},{block[0]}x{block[1]},"
              f"{regs[name]},{spills[name]},{shared},"
              f"{occupancy_blocks(regs[name], threads, shared)},{loads},{trips}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fftc", default="build/fftc")
    ap.add_argument("--sizes", default="524288,1048576,1024x1024,2048x2048")
    ap.add_argument("--precision", default="f32,f64")
    ap.add_argument("--label", default="")
    ap.add_argument("--out")
    a = ap.parse_args()
    nvcc = os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"), "bin", "nvcc")
    cuobjdump = find_tool("cuobjdump")
    if not os.access(nvcc, os.X_OK) or not cuobjdump:
        sys.exit("first_pass_loads.py: needs nvcc and cuobjdump (the CUDA toolkit, or PyPI's "
                 "nvidia-cuda-cuobjdump)")
    out = open(a.out, "w") if a.out else sys.stdout
    sys.stdout = out
    print("label,precision,size,batch,stage,block,registers,spill_store_bytes,shared_bytes,"
          "blocks_per_sm,first_pass_ldg,first_pass_trips")
    with tempfile.TemporaryDirectory() as work:
        for precision in a.precision.split(","):
            for size in a.sizes.split(","):
                n = 1
                for d in size.split("x"):
                    n *= int(d)
                batch = max(1, (1 << (26 if precision == "f32" else 25)) // n)
                d = os.path.join(work, f"{size}-{precision}")
                subprocess.run([a.fftc, "fft", "--size", size, "--batch", str(batch),
                                "--precision", precision, "--target", "cuda",
                                "--local-memory", "232448", "-o", d],
                               check=True, capture_output=True)
                kernel_lines(d, a.label, precision, size, batch, nvcc, cuobjdump)


if __name__ == "__main__":
    main()
