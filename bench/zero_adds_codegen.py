#!/usr/bin/env python3
"""The generator's fold of the unrolled reductions' first additions of zero (issue 21): for each
size, the CUDA module of two fftc binaries (before: without the fold, e.g. main's build; after:
this one) compiled by NVRTC as fftc compiles it (-minimal), and per version the median
thread-CPU ms of the compiles, SASS instructions, adds of RZ, registers and stack (the largest
of the module's kernels), and the kernels whose registers or stack moved.

  bench/zero_adds_codegen.py --before OLD/fftc [--after build/fftc] [--out FILE]
                             [--sizes ...] [--precision f32,f64] [--rounds 3]
"""
import argparse
import os
import re
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nvrtc_options as nv  # noqa: E402

ZERO_ACC = re.compile(r"(float2|double2|float|double) acc\w* = make_\w+\(0\.0f?, 0\.0f?\);|"
                      r"(float|double) acc\w* = -?0\.0f?;")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", default="build/fftc")
    ap.add_argument("--out", default="zero_adds_codegen.csv")
    ap.add_argument("--sizes", default=",".join(map(str, nv.pow2_sizes())))
    ap.add_argument("--precision", default="f32,f64")
    ap.add_argument("--rounds", type=int, default=3)
    nv.add_tool_args(ap)
    args = ap.parse_args()
    options = ["--gpu-architecture=sm_90", "-no-cache", "-minimal"]
    cuobjdump, nvrtc = nv.open_tools(args, "zero_adds_codegen.py", options)
    work = tempfile.mkdtemp(prefix="zero_adds_codegen.")
    zero_add = re.compile(r"^[DF]ADD \S+, RZ, ")
    with open(args.out, "w") as out:
        out.write("precision,N,batch,kernels,zero_accumulators_before,zero_accumulators_after,"
                  "cpu_ms_before,cpu_ms_after,instructions_before,instructions_after,"
                  "zero_adds_before,zero_adds_after,registers_before,registers_after,"
                  "stack_bytes_before,stack_bytes_after,kernels_moved\n")
        for prec in args.precision.split(","):
            for n in [int(s) for s in args.sizes.split(",")]:
                batch = nv.bench_batch(prec, n)
                src = [nv.emit(args.before, n, prec, work, "before-").decode(),
                       nv.emit(args.after, n, prec, work, "after-").decode()]
                cpu = {0: [], 1: []}
                cubin = {}
                for r in range(args.rounds):
                    for v in ((0, 1) if r % 2 == 0 else (1, 0)):
                        _, c, _, cubin[v] = nvrtc.compile(src[v].encode(), options)
                        cpu[v].append(c)
                funcs = [nv.sass(cubin[v], cuobjdump, work) for v in (0, 1)]
                moved = [f"{k}:{funcs[0][k][0]}/{funcs[0][k][1]}->{funcs[1][k][0]}/{funcs[1][k][1]}"
                         for k in sorted(funcs[0]) if k in funcs[1] and
                         funcs[0][k][:2] != funcs[1][k][:2]]
                row = [prec, n, batch, len(funcs[1]),
                       len(ZERO_ACC.findall(src[0])), len(ZERO_ACC.findall(src[1]))]
                row += [f"{statistics.median(cpu[v]):.1f}" for v in (0, 1)]
                row += [sum(len(f[2]) for f in funcs[v].values()) for v in (0, 1)]
                row += [sum(1 for f in funcs[v].values() for i in f[2] if zero_add.match(i))
                        for v in (0, 1)]
                row += [max(f[0] for f in funcs[v].values()) for v in (0, 1)]
                row += [max(f[1] for f in funcs[v].values()) for v in (0, 1)]
                row.append(" ".join(moved))
                out.write(",".join(map(str, row)) + "\n")
                out.flush()
                print(",".join(map(str, row)), file=sys.stderr)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
