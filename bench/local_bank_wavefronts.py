#!/usr/bin/env python3
"""Shared-memory bank model of emitted CUDA kernels, without a GPU: for each kernel of a `fftc
compile/fft --target cuda -o DIR` directory, every access to a shared array inside work-item
loops is evaluated for the first warp of the block (threadIdx.x fastest, the manifest's block
shape; the work-group loop's variable 0, every unrolled offset as written) and costed in
wavefronts: the most distinct 4-byte words any of the 32 banks serves (an 8-byte float2 covers
two words; 32 adjacent float2 are 2 wavefronts, the least). An access whose index names any
other variable (a sequential loop's) is not counted (listed as skipped). One CSV line a kernel:
accesses counted, their wavefronts, the least they could take, skipped.

  bench/local_bank_wavefronts.py DIR [DIR ...]

A model, not a profile: it takes the first iteration of each work-item loop and ignores the
broadcast of one word to several threads of a bank beyond counting it once."""
import json
import os
import re
import sys


def kernels(directory):
    cu = next(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".cu"))
    manifest = json.load(open(next(os.path.join(directory, f) for f in os.listdir(directory)
                                   if f.endswith(".json"))))
    shapes = {s["kernel"]: [int(x) for x in s["local"]] for s in manifest["stages"]}
    source = open(cu).read()
    for part in source.split("__global__")[1:]:
        name = re.search(r"(\w+_stage\d+)\(", part).group(1)
        yield name, shapes[name], part


def elem_words(part, array):
    m = re.search(r"(\w+)\s*\*?\s*(?:const\s+)?" + re.escape(array) + r"\b", part)
    return 4 if m and m.group(1) == "double2" else 2 if m and m.group(1) in ("float2", "double") else 1


def model(name, shape, part):
    arrays = re.findall(r"__shared__\s+\w+\s+(\w+)\[", part)
    arrays += re.findall(r"\*\s*const\s+(\w+)\s*=\s*reinterpret_cast<[^>]*>\(fftc_shared", part)
    if not arrays:
        return None
    access = re.compile(r"\b(" + "|".join(arrays) + r")\[([^\[\]]*(?:\[[^\[\]]*\][^\[\]]*)*)\]")
    bx, by = shape[0], shape[1] if len(shape) > 1 else 1
    loops = {}  # work-item loop variable -> (dimension, bound)
    counted = wavefronts = least = skipped = 0
    for line in part.splitlines():
        if m := re.search(r"for \(int (\w+) = \(int\)threadIdx\.([xy]); \w+ < (\d+);", line):
            loops[m.group(1)] = (m.group(2), int(m.group(3)))
            continue
        if "__shared__" in line or "reinterpret_cast" in line:
            continue
        for array, index in access.findall(line):
            words = elem_words(part, array)
            threads = []
            for t in range(min(32, bx * by)):
                env = {"__builtins__": {}}
                active = True
                for v, (d, bound) in loops.items():
                    val = t % bx if d == "x" else (t // bx) % by
                    env[v] = val
                    if v in index and val >= bound:
                        active = False
                for w in re.findall(r"\bwg\w*", index):
                    env[w] = 0
                if not active:
                    continue
                try:
                    threads.append(eval(index.replace("(int)", ""), env))
                except Exception:
                    threads = None
                    break
            if threads is None:
                skipped += 1
                continue
            if not threads:
                continue
            banks = {}
            for a in set(threads):
                for k in range(words):
                    banks.setdefault((a * words + k) % 32, set()).add(a * words + k)
            counted += 1
            wavefronts += max(len(s) for s in banks.values())
            least += max(1, -(-len(set(threads)) * words // 32))
    return [name, "x".join(map(str, shape)), counted, wavefronts, least, skipped]


def main():
    print("dir,kernel,block,accesses,wavefronts,least,skipped")
    for d in sys.argv[1:]:
        for name, shape, part in kernels(d):
            if row := model(name, shape, part):
                print(",".join(str(x) for x in [os.path.basename(d.rstrip("/"))] + row))


if __name__ == "__main__":
    main()
