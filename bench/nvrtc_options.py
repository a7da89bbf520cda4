#!/usr/bin/env python3
"""NVRTC's time for the CUDA kernels of fft_bench's plans, by option set, without a GPU (issue 21).

For each size and precision, `fftc fft` writes the CUDA module fft_bench's plan would build on
an H100/H200 (the batch of 2^26 f32 / 2^25 f64 elements, the 227 KiB shared-memory budget);
NVRTC (libnvrtc through ctypes, one process, loaded and warmed once, as in fft_bench) compiles
it to sm_90 CUBIN once per option set per round, the sets in a different order each round, with
NVRTC's own cache off (-no-cache). Each row: the median and min wall ms, NVRTC's phases (its
--time=- report: front end, NVVM, ptxas), and the CUBIN's kernels (cuobjdump: instructions,
registers, stack) and whether its SASS is the first set's. On a loaded machine read the CPU
columns: the calling thread's CPU time (NVRTC compiles on it) and the process's (options such as
-split-compile hand part of the work to threads of NVRTC's own).

  bench/nvrtc_options.py [--fftc build/fftc] [--out FILE] [--sizes 8,16,...] [--precision f32,f64]
                         [--rounds 3] [--set NAME=OPTIONS ...] [--cuobjdump PATH]
                         [--fft-options '--variant hierarchical']

The sets default to `none` (fftc's options before) and `minimal` (-minimal). The module is the
whole plan's (a multi-stage plan compiles its stages as programs of their own, concurrently).
"""
import argparse
import ctypes
import hashlib
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BUDGET = 232448  # the opt-in shared memory of an H100/H200 block: fft_bench's CUDA plans


def pow2_sizes():
    return [1 << k for k in range(3, 25)]


class Nvrtc:
    def __init__(self, path):
        self.lib = ctypes.CDLL(path)

    def compile(self, source, options):
        lib = self.lib
        prog = ctypes.c_void_p()
        if lib.nvrtcCreateProgram(ctypes.byref(prog), source, b"kernel.cu", 0, None, None):
            raise RuntimeError("nvrtcCreateProgram failed")
        argv = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
        start, cpu, process = time.perf_counter(), time.thread_time(), time.process_time()
        result = lib.nvrtcCompileProgram(prog, len(options), argv)
        ms = (time.perf_counter() - start) * 1e3
        cpu_ms = (time.thread_time() - cpu) * 1e3
        self.process_ms = (time.process_time() - process) * 1e3
        size = ctypes.c_size_t()
        lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        lib.nvrtcGetProgramLog(prog, log)
        cubin = b""
        if result == 0:
            lib.nvrtcGetCUBINSize(prog, ctypes.byref(size))
            buf = ctypes.create_string_buffer(size.value)
            lib.nvrtcGetCUBIN(prog, buf)
            cubin = buf.raw
        lib.nvrtcDestroyProgram(ctypes.byref(prog))
        if result != 0:
            raise RuntimeError(f"NVRTC error {result}: {log.value.decode()[:300]}")
        return ms, cpu_ms, log.value.decode(), cubin


def phases(log):
    """NVRTC's --time=- lines: 'kernel.cu, CUDA C++ Frontend, 45, ms' -> {phase: ms}."""
    out = {}
    for line in log.splitlines():
        parts = [p.strip() for p in line.split(",")]
        if len(parts) == 4 and parts[3] == "ms" and parts[2].isdigit():
            out[parts[1]] = out.get(parts[1], 0) + int(parts[2])
    return out


def sass(cubin, cuobjdump, work):
    """{function: (registers, stack bytes, opcode listing)} of a CUBIN."""
    path = os.path.join(work, "k.cubin")
    with open(path, "wb") as f:
        f.write(cubin)
    res = subprocess.run([cuobjdump, "-res-usage", path], check=True, capture_output=True,
                         text=True).stdout
    usage, cur = {}, None
    for line in res.splitlines():
        m = re.match(r"\s*Function (\S+):", line)
        if m:
            cur = m.group(1)
            continue
        m = re.search(r"REG:(\d+) STACK:(\d+)", line)
        if m and cur:
            usage[cur] = (int(m.group(1)), int(m.group(2)))
    text = subprocess.run([cuobjdump, "-sass", path], check=True, capture_output=True,
                          text=True).stdout
    listing, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            cur = listing.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s+/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            cur.append(m.group(1))
    return {k: usage.get(k, (0, 0)) + (tuple(v),) for k, v in listing.items()}


def find_cuobjdump(explicit):
    if explicit:
        return explicit
    cuda = os.environ.get("CUDA_HOME", "/usr/local/cuda")
    for c in [os.path.join(cuda, "bin", "cuobjdump"), shutil.which("cuobjdump")]:
        if c and os.access(c, os.X_OK):
            return c
    try:  # the nvidia-cuda-cuobjdump wheel
        import nvidia  # noqa: F401
        for base in nvidia.__path__:
            for sub in ("cu13", "cuda_cuobjdump"):
                c = os.path.join(base, sub, "bin", "cuobjdump")
                if os.access(c, os.X_OK):
                    return c
    except ImportError:
        pass
    return None


def bench_batch(prec, n):
    """fft_bench's batch: 2^26 (f32) or 2^25 (f64) elements in all."""
    return max(1, (1 << (26 if prec == "f32" else 25)) // n)


def emit(fftc, n, prec, work, tag="", extra=()):
    """The CUDA module `fftc fft` emits for fft_bench's request of N (bytes); RuntimeError when
    fftc fails."""
    d = os.path.join(work, f"{tag}{prec}-{n}")
    gen = subprocess.run([fftc, "fft", "--size", str(n), "--batch", str(bench_batch(prec, n)),
                          "--precision", prec, "--target", "cuda", "--local-memory", str(BUDGET),
                          "-o", d] + list(extra), capture_output=True, text=True)
    if gen.returncode != 0:
        raise RuntimeError(f"{prec} {n}: {fftc} failed: {gen.stderr.strip()[-200:]}")
    cu = [f for f in os.listdir(d) if f.endswith(".cu")][0]
    with open(os.path.join(d, cu), "rb") as f:
        source = f.read()
    shutil.rmtree(d)
    return source


def add_tool_args(ap):
    """--cuobjdump and --nvrtc, as every script of this family takes them."""
    ap.add_argument("--cuobjdump", default=None)
    ap.add_argument("--nvrtc", default=os.path.join(os.environ.get("CUDA_HOME", "/usr/local/cuda"),
                                                    "lib64", "libnvrtc.so.13"))


def open_tools(args, script, options):
    """(cuobjdump, Nvrtc) from add_tool_args' arguments, NVRTC warmed up with `options`; exits
    with a one-line reason when there is no cuobjdump."""
    cuobjdump = find_cuobjdump(args.cuobjdump)
    if cuobjdump is None:
        sys.exit(f"{script}: no cuobjdump (set --cuobjdump or CUDA_HOME)")
    nvrtc = Nvrtc(args.nvrtc)
    nvrtc.compile(b'extern "C" __global__ void f(float* x) { x[0] = 1.0f; }', options)
    return cuobjdump, nvrtc


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fftc", default="build/fftc")
    ap.add_argument("--out", default="nvrtc_options.csv")
    ap.add_argument("--sizes", default=",".join(map(str, pow2_sizes() + [65521, 999983])))
    ap.add_argument("--precision", default="f32,f64")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--set", action="append", default=[],
                    help="NAME=OPTIONS (white-space separated NVRTC options)")
    ap.add_argument("--fft-options", default="",
                    help="more `fftc fft` options for every size, e.g. '--variant hierarchical'")
    add_tool_args(ap)
    args = ap.parse_args()
    sets = [s.split("=", 1) for s in args.set] or [["none", ""], ["minimal", "-minimal"]]
    sets = [(name, opts.split()) for name, opts in sets]
    base = ["--gpu-architecture=sm_90", "-no-cache", "--time=-"]
    cuobjdump, nvrtc = open_tools(args, "nvrtc_options.py", base)
    work = tempfile.mkdtemp(prefix="nvrtc_options.")
    with open(args.out, "w") as out:
        out.write("precision,N,batch,kernels,source_bytes,options,rounds,median_ms,min_ms,cpu_median_ms,"
                  "process_cpu_median_ms,frontend_ms,nvvm_ms,ptxas_ms,cubin_bytes,instructions,registers,stack_bytes,"
                  "sass_as_first,fft_options\n")
        for prec in args.precision.split(","):
            for n in [int(s) for s in args.sizes.split(",")]:
                batch = bench_batch(prec, n)
                try:
                    source = emit(args.fftc, n, prec, work, extra=args.fft_options.split())
                except RuntimeError as e:
                    print(e, file=sys.stderr)
                    continue
                ms = {name: [] for name, _ in sets}
                cpu = {name: [] for name, _ in sets}
                process = {name: [] for name, _ in sets}
                ph = {name: [] for name, _ in sets}
                cubins = {}
                for r in range(args.rounds):
                    order = sets[r % len(sets):] + sets[:r % len(sets)]
                    for name, opts in order:
                        t, c, log, cubin = nvrtc.compile(source, base + opts)
                        ms[name].append(t)
                        cpu[name].append(c)
                        process[name].append(nvrtc.process_ms)
                        ph[name].append(phases(log))
                        cubins[name] = cubin
                first = None
                for name, opts in sets:
                    funcs = sass(cubins[name], cuobjdump, work)
                    listing = {k: v[2] for k, v in funcs.items()}
                    if first is None:
                        first = listing
                    med = lambda key: statistics.median(p.get(key, 0) for p in ph[name])
                    out.write(",".join(map(str, [
                        prec, n, batch, len(funcs), len(source), name, args.rounds,
                        f"{statistics.median(ms[name]):.1f}", f"{min(ms[name]):.1f}",
                        f"{statistics.median(cpu[name]):.1f}",
                        f"{statistics.median(process[name]):.1f}",
                        med("CUDA C++ Frontend"), med("NVVM Optimizer"), med("PTX Translation"),
                        len(cubins[name]), sum(len(v[2]) for v in funcs.values()),
                        max(v[0] for v in funcs.values()), max(v[1] for v in funcs.values()),
                        "yes" if listing == first else "no", args.fft_options])) + "\n")
                    out.flush()
                print(f"{prec} {n}: " + ", ".join(
                    f"{name} {statistics.median(ms[name]):.0f} ms ({statistics.median(cpu[name]):.0f} CPU)"
                    for name, _ in sets),
                    file=sys.stderr)
    shutil.rmtree(work)


if __name__ == "__main__":
    main()
