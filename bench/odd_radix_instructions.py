#!/usr/bin/env python3
# Instructions per element of fftc's CUDA FFT kernels by kind, without a GPU (issue 23 item 4:
# why one-kernel odd sizes stay below the powers of two's share of bandwidth). For each size,
# the plan fft_bench would run (batch 2^26 / N f32, 2^25 / N f64, the H200's shared-memory
# budget) is emitted by `fftc fft --target cuda`, compiled by nvcc for sm_90, disassembled
# (cuobjdump -sass; without it the PTX is counted) and split into phases at the barriers. A
# phase's instructions are issued once per trip of its loop over threadIdx.x by every warp
# that has a work-item with work in it (a warp of idle work-items issues nothing, a warp with
# one busy work-item issues the whole phase), so
#   warp instructions / element = sum over phases and warps of (instructions x trips) / (F x N)
# for a work-group of F rows of N. Kinds: fp (FADD/FMUL/FFMA, D*), int (index arithmetic:
# IMAD, IADD3, LEA, SHF, LOP3, ISETP, ...: div and mod by constants are IMAD.HI + SHF chains),
# uniform (U*), lds, sts, ldg, stg, ldc (tables and parameters), bar, control (BRA, EXIT,
# BSSY, NOP, ...), mov. `divmod` counts the source's / and % by non-powers of two.
#
#   bench/odd_radix_instructions.py --fftc build/fftc --sizes 625,1024 [--precision f32]
#       [--label main] [--out FILE.csv]
# cuobjdump and nvdisasm: the CUDA toolkit's, or PyPI's nvidia-cuda-cuobjdump and
# nvidia-cuda-nvdisasm (found on PATH or in the nvidia package).
import argparse
import glob
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

KINDS = ["fp", "int", "uniform", "lds", "sts", "ldg", "stg", "ldc", "bar", "control", "mov",
         "other"]
FP = re.compile(r"^(FADD|FMUL|FFMA|FMNMX|FSEL|FSETP|FCHK|DADD|DMUL|DFMA|DSETP|MUFU|HADD2|HFMA2|HMUL2|F2F|FRND)$")
INT = re.compile(r"^(IMAD|IADD3|IADD|LEA|SHF|SHL|SHR|LOP3|LOP|ISETP|IMNMX|IABS|SEL|SGXT|PRMT|POPC|FLO|BREV|I2F|F2I|I2I|IDP|VIADD|VIMNMX|PLOP3|P2R|R2P|ICMP)$")
CONTROL = re.compile(r"^(BRA|EXIT|BSSY|BSYNC|WARPSYNC|NOP|RET|CALL|BREAK|YIELD|BMOV|JMP|ACQBULK|DEPBAR)$")
MOV = re.compile(r"^(MOV|S2R|S2UR|CS2R|R2UR|SHFL)$")


def kind(op):
    if FP.match(op):
        return "fp"
    if op.startswith("U") and op not in ("UMOV",):
        return "uniform"
    if op in ("LDS", "LDSM"):
        return "lds"
    if op == "STS":
        return "sts"
    if op in ("LDG", "LD"):
        return "ldg"
    if op in ("STG", "ST"):
        return "stg"
    if op in ("LDC", "ULDC"):
        return "ldc"
    if op in ("BAR",):
        return "bar"
    if CONTROL.match(op):
        return "control"
    if MOV.match(op) or op == "UMOV":
        return "mov"
    if INT.match(op):
        return "int"
    return "other"


def find_tool(name):
    path = shutil.which(name)
    if path:
        return path
    try:
        import nvidia  # PyPI's nvidia-cuda-cuobjdump / nvidia-cuda-nvdisasm
        for root in nvidia.__path__:
            for cand in glob.glob(os.path.join(root, "*", "bin", name)):
                return cand
    except ImportError:
        pass
    return None


def sass_listing(cubin, cuobjdump):
    """Each function's instructions: (address, the text with its predicate, without the ';')."""
    env = dict(os.environ)
    env["PATH"] = os.path.dirname(cuobjdump) + os.pathsep + env.get("PATH", "")
    text = subprocess.run([cuobjdump, "-sass", cubin], check=True, capture_output=True,
                          text=True, env=env).stdout
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.match(r"\s+Function : (\S+)", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(2)))
    return funcs


def sass_functions(cubin, cuobjdump):
    """Each function's opcodes (predicates dropped)."""
    funcs = {}
    for name, ins in sass_listing(cubin, cuobjdump).items():
        ops = funcs.setdefault(name, [])
        for _, text in ins:
            m = re.match(r"(?:@!?U?P[0-9T] )?([A-Z][A-Z0-9_]*)", text)
            if m:
                ops.append(m.group(1))
    return funcs


def ptx_functions(ptx):
    funcs, cur = {}, None
    for line in open(ptx):
        m = re.match(r"\.visible \.entry (\w+)\(", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"^\t(?:@%p\d+ )?([a-z][a-z0-9]*)", line)
        if m and cur is not None:
            op = m.group(1)
            cur.append({"add": "IADD3", "mul": "IMAD", "mad": "IMAD", "shl": "SHF", "shr": "SHF",
                        "div": "IMAD", "rem": "IMAD", "and": "LOP3", "or": "LOP3",
                        "setp": "ISETP", "cvt": "I2I", "ld": "LDG", "st": "STG",
                        "bar": "BAR", "bra": "BRA", "ret": "EXIT", "mov": "MOV",
                        "fma": "FFMA", "neg": "FADD", "sub": "IADD3"}.get(op, op.upper()))
    return funcs


def phases(ops):
    out, cur = [], []
    for op in ops:
        if op == "BAR":
            out.append(cur)
            cur = []
        else:
            cur.append(op)
    out.append(cur)
    return out


def kernel_sources(src):
    """The body of each __global__ kernel: name -> its loop counts over threadIdx.x in order."""
    parts = re.split(r'extern "C" __global__', src)[1:]
    result = {}
    for part in parts:
        name = re.search(r"(\w+_stage\d+)\s*\(", part).group(1)
        counts = [int(c) for c in
                  re.findall(r"for \(int lid\w* = \(int\)threadIdx\.x; lid\w* < (\d+);", part)]
        divmod_ = 0
        for m in re.finditer(r"[/%] (\d+)\b", part):
            d = int(m.group(1))
            if d > 1 and d & (d - 1):
                divmod_ += 1
        result[name] = (counts, divmod_)
    return result


def analyze(fftc, nvcc, cuobjdump, n, precision, budget, tmp):
    total = (1 << 26) if precision == "f32" else (1 << 25)
    batch = max(1, total // n)
    d = os.path.join(tmp, f"{precision}-{n}")
    r = subprocess.run([fftc, "fft", "--size", str(n), "--batch", str(batch), "--precision",
                        precision, "--target", "cuda", "--local-memory", str(budget), "-o", d],
                       capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"fftc fft --size {n}: {r.stderr.strip().splitlines()[-1:]}")
    m = re.search(r"radices \[([0-9, ]*)\]", r.stdout)
    radices = "x".join(m.group(1).split(", ")) if m else ""
    cu = glob.glob(os.path.join(d, "*.cu"))[0]
    manifest = json.load(open(glob.glob(os.path.join(d, "*.json"))[0]))
    cubin = os.path.join(d, "k.cubin")
    pr = subprocess.run([nvcc, "-arch=sm_90", "-cubin", "-Xptxas", "-v", "-o", cubin, cu],
                        capture_output=True, text=True, check=True)
    regs = {m.group(1): int(m.group(2)) for m in re.finditer(
        r"Compiling entry function '(\w+)'.*?Used (\d+) registers", pr.stderr, re.S)}
    if cuobjdump:
        funcs = sass_functions(cubin, cuobjdump)
        isa = "sass"
    else:
        ptx = os.path.join(d, "k.ptx")
        subprocess.run([nvcc, "-arch=sm_90", "-ptx", "-o", ptx, cu], check=True)
        funcs = ptx_functions(ptx)
        isa = "ptx"
    sources = kernel_sources(open(cu).read())
    counts = {k: 0.0 for k in KINDS}
    rows_total, stages_desc = 0, []
    divmods = 0
    for stage in manifest["stages"]:
        name = stage["kernel"]
        local = [int(v) for v in stage["local"]] or [1]
        w = local[0]
        f = local[1] if len(local) > 1 else 1
        groups = math.prod(int(v) for v in stage["global"]) // math.prod(local)
        loop_counts, dm = sources[name]
        divmods += dm
        ph = phases(funcs[name])
        threads = w * f
        warps = math.ceil(threads / 32)
        # the phases between barriers are the loops over threadIdx.x in order; code before the
        # first loop and after the last (the work-group loop) counts once per warp
        for i, ops in enumerate(ph):
            c = loop_counts[i] if i < len(loop_counts) else None
            if c is None:
                active = warps
                trips = 1
            else:
                trips = math.ceil(c / w)
                busy = min(c, w)  # work-items with work in the first trip
                active = len({(y * w + x) // 32 for y in range(f) for x in range(busy)})
            for op in ops:
                counts[kind(op)] += active * trips * groups
            if i + 1 < len(ph):
                counts["bar"] += warps * groups
        stages_desc.append(f"{name.split('_')[-1]}:{w}x{f}:{regs.get(name, 0)}r:"
                           f"{stage.get('local_memory_bytes', 0)}B")
        rows_total = batch
    elements = n * batch
    per = {k: counts[k] / elements for k in KINDS}
    busy = ";".join(str(c) for c in sources[manifest["stages"][0]["kernel"]][0])
    return {
        "precision": precision, "N": n, "batch": batch,
        "radices": radices,
        "stages": len(manifest["stages"]), "kernels": " ".join(stages_desc),
        "busy_per_pass": busy, "isa": isa,
        "warp_instr_per_elem": sum(per.values()),
        **{k: per[k] for k in KINDS}, "divmod_in_source": divmods,
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fftc", default="build/fftc")
    ap.add_argument("--sizes", default="15,22,26,243,625,1000,3125,6561,10000,1024")
    ap.add_argument("--precision", default="f32")
    ap.add_argument("--label", default="", help="a column naming the build (before, after)")
    ap.add_argument("--local-memory", type=int, default=232448)
    ap.add_argument("--nvcc", default=os.environ.get("CUDA_HOME", "/usr/local/cuda") + "/bin/nvcc")
    ap.add_argument("--out", default="-")
    ap.add_argument("--append", action="store_true", help="append to --out without a header")
    a = ap.parse_args()
    cuobjdump = find_tool("cuobjdump")
    if cuobjdump and not find_tool("nvdisasm"):
        cuobjdump = None
    elif cuobjdump and not shutil.which("nvdisasm"):
        os.environ["PATH"] = os.path.dirname(find_tool("nvdisasm")) + os.pathsep + os.environ["PATH"]
    cols = ["label", "precision", "N", "batch", "radices", "stages", "kernels", "busy_per_pass", "isa",
            "warp_instr_per_elem"] + KINDS + ["divmod_in_source"]
    out = sys.stdout if a.out == "-" else open(a.out, "a" if a.append else "w")
    if not a.append:
        print(",".join(cols), file=out)
    with tempfile.TemporaryDirectory() as tmp:
        for prec in a.precision.split(","):
            for n in (int(s) for s in a.sizes.split(",")):
                try:
                    row = analyze(a.fftc, a.nvcc, cuobjdump, n, prec, a.local_memory, tmp)
                except (RuntimeError, subprocess.CalledProcessError, KeyError) as e:
                    print(f"odd_radix_instructions: {prec} {n}: {e}", file=sys.stderr)
                    continue
                row["label"] = a.label
                print(",".join(f"{row[c]:.3f}" if isinstance(row[c], float) else str(row[c])
                               for c in cols), file=out, flush=True)


if __name__ == "__main__":
    main()
