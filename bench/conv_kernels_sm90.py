#!/usr/bin/env python3
"""Issue 24's local evidence for the fused convolution, without a GPU: per conv size, the kernels
of examples/convolution.fdl and of the plain FFT of the same size (`fftc fft`), as the H100/H200
would run them (batch x N = 2^24, 227 KiB of shared memory: what bench/pipeline_bench plans
with), compiled by ptxas for sm_90: registers, spills, shared memory, block size and the
theoretical occupancy they give, the barriers in each kernel's source (__syncthreads: one a
pass through shared memory, one at the end of the work-group loop) and, for the one-kernel
sizes, the shared-memory loads and stores per element; for the multi-pass sizes, the kernel
count. One CSV line per
kernel, labelled by the build (`--fftc LABEL=PATH`, several for before and after):

  bench/conv_kernels_sm90.py --fftc before=/path/old/fftc --fftc after=build/fftc --out FILE

Occupancy is CUDA's occupancy calculator for sm_90: 2048 threads, 32 blocks, 65536 registers
(allocated per warp in units of 256) and 228 KiB of shared memory per SM (1 KiB reserved per
block). Needs nvcc (the CUDA toolkit)."""
import argparse
import json
import math
import os
import re
import subprocess
import sys
import tempfile

LOCAL_MEMORY = 232448  # the opt-in shared memory of a block on an H100/H200
TOTAL = 1 << 24


def occupancy(threads, registers, smem):
    warps = math.ceil(threads / 32)
    per_warp = math.ceil(max(registers, 1) * 32 / 256) * 256
    by_regs = (65536 // per_warp) // warps
    by_smem = 233472 // (smem + 1024)
    by_threads = 2048 // threads
    blocks = min(by_regs, by_smem, by_threads, 32)
    return blocks, blocks * warps * 32 / 2048


def ptxas(cu):
    out = subprocess.run([os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/bin/nvcc",
                          "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", os.devnull, cu],
                         capture_output=True, text=True, check=True).stderr
    info, kernel = {}, None
    for line in out.splitlines():
        if m := re.search(r"Compiling entry function '(\w+)'", line):
            kernel = m.group(1)
            info[kernel] = {"spill": 0, "smem": 0}
        elif kernel and (m := re.search(r"(\d+) bytes spill stores", line)):
            info[kernel]["spill"] = int(m.group(1))
        elif kernel and (m := re.search(r"Used (\d+) registers", line)):
            info[kernel]["registers"] = int(m.group(1))
            if s := re.search(r"(\d+) bytes smem", line):
                info[kernel]["smem"] = int(s.group(1))
    return info


def local_traffic(kernel, n):
    """Shared-memory loads and stores a row of n elements makes, per element: each access in a
    work-item loop `for (int lid.. = threadIdx.x; lid.. < T; ..)` (one pass of a row) counted T
    times. Empty strings when an access is outside such a loop."""
    # static arrays, and views of the dynamic one (float2* const l = reinterpret_cast<...>)
    arrays = re.findall(r"__shared__\s+\w+\s+(\w+)\[", kernel)
    arrays += re.findall(r"\*\s*const\s+(\w+)\s*=\s*reinterpret_cast<[^>]*>\(fftc_shared", kernel)
    if not arrays:
        return 0, 0
    access = re.compile(r"\b(" + "|".join(arrays) + r")\[")
    store = re.compile(r"^\s*(" + "|".join(arrays) + r")\[[^;]*?\]\s*=[^=]")
    loads = stores = 0
    trips = None
    for line in kernel.splitlines():
        if "__shared__" in line or "reinterpret_cast" in line:
            continue
        if m := re.search(r"for \(int \w+ = \(int\)threadIdx\.x; \w+ < (\d+);", line):
            trips = int(m.group(1))
            continue
        hits = len(access.findall(line))
        if not hits:
            continue
        if trips is None:
            return "", ""
        st = 1 if store.match(line) else 0
        stores += trips * st
        loads += trips * (hits - st)
    return f"{loads / n:g}", f"{stores / n:g}"


def kernels(fftc, label, what, n, work):
    batch = max(1, TOTAL // n)
    d = os.path.join(work, f"{label}-{what}-{n}")
    if what == "conv":
        example = os.path.join(os.path.dirname(__file__), "..", "examples", "convolution.fdl")
        cmd = [fftc, "compile", example, "--kernel", "conv", "-D", f"N={n}", "-D", f"B={batch}"]
    else:
        cmd = [fftc, "fft", "--size", str(n), "--batch", str(batch)]
    cmd += ["--target", "cuda", "--local-memory", str(LOCAL_MEMORY), "-o", d]
    subprocess.run(cmd, capture_output=True, text=True, check=True)
    manifest = json.load(open(next(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".json"))))
    cu = next(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".cu"))
    info = ptxas(cu)
    source = open(cu).read()
    syncs, traffic = {}, {}  # kernel -> __syncthreads in its text (up to the next kernel)
    for part in source.split("__global__")[1:]:
        if m := re.search(r"(\w+_stage\d+)\(", part):
            syncs[m.group(1)] = part.count("__syncthreads")
            if len(manifest["stages"]) == 1:  # one row a mapLocal(1) (the one-kernel forms)
                traffic[m.group(1)] = local_traffic(part, n)
    rows = []
    for s in manifest["stages"]:
        k = info[s["kernel"]]
        block = math.prod(int(x) for x in s["local"])
        smem = k["smem"] + int(s.get("dynamic_local_memory_bytes", 0))  # static + launch's
        blocks, occ = occupancy(block, k["registers"], smem)
        rows.append([label, what, n, batch, len(manifest["stages"]), s["kernel"], block,
                     k["registers"], k["spill"], smem, blocks, f"{occ:.3f}",
                     syncs.get(s["kernel"], ""), *traffic.get(s["kernel"], ("", ""))])
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fftc", action="append", required=True, help="LABEL=PATH")
    ap.add_argument("--out", default="conv_kernels_sm90.csv")
    ap.add_argument("--sizes", default="256,512,1024,2048,4096,8192")
    ap.add_argument("--multipass", default="16384,32768,65536,131072,262144")
    a = ap.parse_args()
    header = ["build", "kernel", "N", "batch", "stages", "stage", "block", "registers",
              "spill_store_bytes", "smem_bytes", "blocks_per_sm", "occupancy", "barriers",
              "local_loads_per_element", "local_stores_per_element"]
    rows = []
    with tempfile.TemporaryDirectory() as work:
        for spec in a.fftc:
            label, path = spec.split("=", 1)
            for n in (int(x) for x in a.sizes.split(",") if x):
                rows += kernels(path, label, "conv", n, work)
                rows += kernels(path, label, "fft", n, work)
            for n in (int(x) for x in a.multipass.split(",") if x):
                rows += kernels(path, label, "conv", n, work)
    with open(a.out, "w") as f:
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(str(x) for x in r) + "\n")
    print(f"conv_kernels_sm90.py: {len(rows)} kernels in {a.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
