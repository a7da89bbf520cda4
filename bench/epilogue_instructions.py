#!/usr/bin/env python3
# SASS instructions per element of each pass's last phase (issue 22 item 1: the four-step
# twiddle), without a GPU. For each size, `fftc fft --target cuda` emits the plan (the given
# batch, the default local memory, as `fftc fft` and the Nsight profiles of
# docs/performance.md), nvcc compiles it for sm_90 and cuobjdump disassembles it. In each
# kernel, the innermost loop between the last two barriers is the copy-out of a tile: one
# element per trip (the twiddle multiplication of the four-step passes, the store). Its body,
# from the back edge's target to the back edge, is counted: instructions (all of the body,
# also those a branch skips), floating point (F*, D*, MUFU, HFMA2), conditional branches.
# `per_element` adds the rest of the kernel (every other instruction once per work-item and
# work-group, NOPs aside) shared by the elements a work-item stores, N·batch / global size: an
# estimate of the whole pass (loops other than the epilogue's run once in these kernels). In
# the passes without a copy-out (a last pass over many columns) the loop found is the FFT's.
#
#   bench/epilogue_instructions.py --fftc build/fftc --sizes 131072,1048576 --precision f32,f64
#       [--batch 512] [--label after] [--out FILE.csv]
# cuobjdump: the CUDA toolkit's, or PyPI's nvidia-cuda-cuobjdump (as odd_radix_instructions.py).
import argparse
import glob
import json
import math
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from odd_radix_instructions import find_tool, sass_listing  # noqa: E402


def epilogue(ins):
    """The innermost loop after the last-but-one barrier: (instructions, fp, branches)."""
    bars = [a for a, t in ins if t.startswith("BAR")]
    if not bars:
        return None
    lo, hi = (bars[-2] if len(bars) > 1 else 0), bars[-1]
    best = None
    for a, t in ins:
        m = re.search(r"\bBRA (0x[0-9a-f]+)", t)
        if m and lo < a < hi:
            target = int(m.group(1), 16)
            if lo < target < a and (best is None or a - target < best[1] - best[0]):
                best = (target, a)
    if best is None:
        return None
    ops = [re.sub(r"^@!?U?P\w+ ", "", t).split()[0] for a, t in ins if best[0] <= a <= best[1]]
    fp = sum(1 for o in ops if re.match(r"^(F|D|MUFU|HFMA2|HADD2)", o) and not o.startswith("F2I"))
    branches = sum(1 for o in ops if o == "BRA") - 1  # less the back edge
    rest = sum(1 for a, t in ins if not (best[0] <= a <= best[1]) and t != "NOP")
    return len(ops), fp, branches, rest


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fftc", default="build/fftc")
    ap.add_argument("--sizes", default="131072,1048576,16777216,1000000")
    ap.add_argument("--precision", default="f32,f64")
    ap.add_argument("--batch", type=int, default=0, help="0: 512, or 2^24 / N when smaller")
    ap.add_argument("--label", default="")
    ap.add_argument("--nvcc", default=os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/bin/nvcc")
    ap.add_argument("--out", default="-")
    a = ap.parse_args()
    cuobjdump = find_tool("cuobjdump")
    if not cuobjdump:
        sys.exit("epilogue_instructions: no cuobjdump (the CUDA toolkit's or PyPI's)")
    out = sys.stdout if a.out == "-" else open(a.out, "w")
    print("label,precision,N,batch,kernel,instructions,fp,branches,per_element", file=out)
    env = dict(os.environ, FFTC_NO_PLAN_CACHE="1")
    with tempfile.TemporaryDirectory() as tmp:
        for prec in a.precision.split(","):
            for n in (int(s) for s in a.sizes.split(",")):
                batch = a.batch or max(1, min(512, (1 << 24) // n))
                d = os.path.join(tmp, f"{prec}-{n}")
                subprocess.run([a.fftc, "fft", "--size", str(n), "--batch", str(batch),
                                "--precision", prec, "--target", "cuda", "-o", d], check=True,
                               capture_output=True, env=env)
                cubin = os.path.join(d, "k.cubin")
                subprocess.run([a.nvcc, "-arch=sm_90", "-cubin", "-o", cubin,
                                glob.glob(os.path.join(d, "*.cu"))[0]], check=True)
                manifest = json.load(open(glob.glob(os.path.join(d, "*.json"))[0]))
                shapes = {st["kernel"]: math.prod(int(g) for g in st["global"])
                          for st in manifest["stages"]}
                for name, ins in sorted(sass_listing(cubin, cuobjdump).items()):
                    e = epilogue(ins)
                    if e:
                        per_item = n * batch / shapes[name]
                        print(f"{a.label},{prec},{n},{batch},{name},{e[0]},{e[1]},{e[2]},"
                              f"{e[0] + e[3] / per_item:.0f}", file=out, flush=True)


if __name__ == "__main__":
    main()
