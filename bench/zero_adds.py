#!/usr/bin/env python3
"""The additions of zero in fftc's CUDA butterflies, and what NVRTC and the SASS would save
without them (issue 21; an experiment on the emitted source, the generator is not changed).

Each output of an unrolled butterfly is a reduceSeqUnroll from the complex zero:
    float2 acc = make_float2(0.0f, 0.0f); const float2 t = E; acc = fftc_cadd_f(acc, t); ...
and 0.0 + x is not x in IEEE arithmetic (x = -0.0), so NVVM keeps it: one FADD/DADD with RZ per
accumulator in the SASS. This script emits each size's module as nvrtc_options.py does, rewrites
those first steps to `acc = t` (a regular expression over the source), compiles both with NVRTC
(-minimal, as fftc does), and writes per size: the accumulators rewritten, and for each version
the median thread-CPU ms of 3 compiles, SASS instructions, the adds of RZ, registers and stack.

  bench/zero_adds.py [--fftc build/fftc] [--out FILE] [--sizes ...] [--precision f32,f64]
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

FIRST_ADD = re.compile(
    r"(float2|double2) (acc\w*) = make_\1\(0\.0f?, 0\.0f?\);\n(\s*)const \1 (t\w*) = ([^;]*);\n"
    r"\s*\2 = fftc_cadd_\w+\(\2, \4\);")


def without_zero_adds(source):
    return FIRST_ADD.subn(lambda m: f"const {m.group(1)} {m.group(4)} = {m.group(5)};\n"
                          f"{m.group(3)}{m.group(1)} {m.group(2)} = {m.group(4)};", source)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fftc", default="build/fftc")
    ap.add_argument("--out", default="zero_adds.csv")
    ap.add_argument("--sizes", default=",".join(map(str, nv.pow2_sizes() + [65521, 999983])))
    ap.add_argument("--precision", default="f32,f64")
    ap.add_argument("--rounds", type=int, default=3)
    nv.add_tool_args(ap)
    args = ap.parse_args()
    options = ["--gpu-architecture=sm_90", "-no-cache", "-minimal"]
    cuobjdump, nvrtc = nv.open_tools(args, "zero_adds.py", options)
    work = tempfile.mkdtemp(prefix="zero_adds.")
    zero_add = re.compile(r"^[DF]ADD \S+, RZ, ")
    with open(args.out, "w") as out:
        out.write("precision,N,batch,accumulators_rewritten,cpu_ms,instructions,zero_adds,"
                  "registers,stack_bytes,cpu_ms_without,instructions_without,zero_adds_without,"
                  "registers_without,stack_bytes_without\n")
        for prec in args.precision.split(","):
            for n in [int(s) for s in args.sizes.split(",")]:
                batch = nv.bench_batch(prec, n)
                try:
                    source = nv.emit(args.fftc, n, prec, work).decode()
                except RuntimeError as e:
                    print(e, file=sys.stderr)
                    continue
                rewritten, count = without_zero_adds(source)
                cpu = {0: [], 1: []}
                cubin = {}
                for r in range(args.rounds):
                    for v in ((0, 1) if r % 2 == 0 else (1, 0)):
                        _, c, _, cubin[v] = nvrtc.compile(
                            (source if v == 0 else rewritten).encode(), options)
                        cpu[v].append(c)
                row = [prec, n, batch, count]
                for v in (0, 1):
                    funcs = nv.sass(cubin[v], cuobjdump, work)
                    row += [f"{statistics.median(cpu[v]):.1f}",
                            sum(len(f[2]) for f in funcs.values()),
                            sum(1 for f in funcs.values() for i in f[2] if zero_add.match(i)),
                            max(f[0] for f in funcs.values()), max(f[1] for f in funcs.values())]
                out.write(",".join(map(str, row)) + "\n")
                out.flush()
                print(",".join(map(str, row)), file=sys.stderr)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
