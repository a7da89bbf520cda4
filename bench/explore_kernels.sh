#!/usr/bin/env bash
# Issue 26 on a GPU, in about 10 minutes on an H100 (3 before the reduction and stencil rules): `fftc explore` ranks rewrite variants of the
# naive high-level programs at sizes the interpreter checks quickly (GEMM 2048 x 2048 x 256, a sum of 2^20
# floats, a 5-point Jacobi step on 4096^2), then bench/kernels_bench times each best strategy at
# the benchmark sizes against its library in one process: SGEMM 1024..8192 against cuBLAS
# (CUDA cores), the sum of 2^28 floats against CUB, the Jacobi step on 8192^2 against the copy
# bandwidth. Writes OUT/explore_{gemm,sum,jacobi,copy}.json and OUT/kernels.csv; GEMM_STRATEGY,
# SUM_STRATEGY, JACOBI_STRATEGY and COPY_STRATEGY replace the strategies explore found for
# kernels_bench; GEMM_SIZES its GEMM sizes (default 1024,2048,4096,8192).
#   bench/explore_kernels.sh [OUT]     (default bench/results/explore)
# FFTC (default build/fftc) and KERNELS_BENCH (default build/bench/kernels_bench: build it with
# `cmake --build build --target kernels_bench`) name the executables; run from the repository
# root (kernels_bench reads examples/ and bench/kernels/).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/explore}
fftc=${FFTC:-build/fftc}
kb=${KERNELS_BENCH:-build/bench/kernels_bench}
target=${TARGET:-cuda}  # TARGET=opencl tries the explore steps on PoCL
mkdir -p "$out"

best() {  # the best_strategy of an explore JSON file
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["best_strategy"] or "lowerDefault")' "$1"
}
explore() {  # NAME FILE ARGS...: explore on CUDA, the JSON in OUT/explore_NAME.json
  local name=$1 file=$2
  shift 2
  local t0=$SECONDS
  "$fftc" explore "$file" --target "$target" --repeat 5 --warmup 2 --json "$@" > "$out/explore_$name.json"
  echo "explore $name: $((SECONDS - t0)) s, best: $(best "$out/explore_$name.json")" >&2
}

# GEMM: LIFT's register blocking (registerBlock: strided tiles, coalesced, with the r x c
# accumulators of a work-item in registers), tiles of C on work-groups, 2D mappings, and the
# tiles staged in local memory chunk by chunk of K (stageLocal(8), in mapLocal2D's place);
# four steps breadth first (about 150 variants). M = N = 2048 gives the grid as many work-items as the
# benchmark sizes do (an 8 x 8 block a work-item: 256 work-groups of 256), K = 256 keeps the
# interpreter's reference (computed once) short; GEMM_STRATEGY overrides what kernels_bench times.
explore gemm examples/gemm.fdl -D M=2048 -D N=2048 -D K=256 --depth 4 \
  --rules tile2D,registerBlock,registerBlockVector,mapWorkgroup2D,mapLocal2D,mapGlobal2D,stageLocal,stageLocalVector,stageLocalPrefetch \
  --params 8,128 \
  --max-variants 300 --budget 540
# The sum: LIFT's parallel reduction (docs/rewrites.md, "A worked exploration: the sum"):
# strided partial sums (coalesced), a work-group per chunk of them (mapWorkgroup), the group's
# partials summed in local memory in two levels; four steps, breadth first (about 320 variants).
# The chunk sizes are absolute: the best at 2^20 is not the best at 2^28, so SUM_STRATEGY
# overrides what kernels_bench times (README of the results: the strategies scaled to 2^28).
explore sum bench/kernels/sum.fdl -D N=1048576 --depth 4 \
  --rules splitStrideReduce,splitReduceMap,mapWorkgroup --params 0,16,256,1024 \
  --max-variants 400 --budget 240
# The Jacobi step: the stencil tiled with its halo, a work-item per column of r outputs
# (slideTileRegisters: each input loaded once a work-item once the gather of the cross is
# unrolled, reduceSeqUnroll: 3r+2 loads for r points instead of 5r; slideTileLocal: a
# work-group's tile with its halo in local memory, r x 32 outputs), or which map is dimension
# 0 of the grid and several elements per work-item with coalesced accesses (splitStrideMap).
# 4096^2 (64 MiB, more than the H200's L2, as the benchmark's 8192^2 is; the interpreter's
# reference takes about 10 s); the tiled variants come first in the breadth-first order.
explore jacobi bench/kernels/jacobi5.fdl --kernel jacobi -D H=4096 -D W=4096 --depth 3 \
  --rules slideTileRegisters,slideTileLocal,reduceSeqUnroll,mapGlobal,splitStrideMap \
  --params 1,4,8 --max-variants 240 --budget 240
# The copy it is compared with, coarsened the same way.
explore copy bench/kernels/jacobi5.fdl --kernel copy -D H=256 -D W=256 --depth 2 \
  --rules mapGlobal,splitStrideMap --params 1,2,4,8 --max-variants 64 --budget 40

[[ $target == cuda ]] || exit 0
t0=$SECONDS
"$kb" --out "$out/kernels.csv" --root . \
  --gemm-strategy "${GEMM_STRATEGY:-$(best "$out/explore_gemm.json")}" \
  --gemm-sizes "${GEMM_SIZES:-1024,2048,4096,8192}" \
  --sum-strategy "${SUM_STRATEGY:-$(best "$out/explore_sum.json")}" \
  --jacobi-strategy "${JACOBI_STRATEGY:-$(best "$out/explore_jacobi.json")}" \
  --copy-strategy "${COPY_STRATEGY:-$(best "$out/explore_copy.json")}"
echo "kernels_bench: $((SECONDS - t0)) s" >&2
