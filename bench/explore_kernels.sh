#!/usr/bin/env bash
# Issue 26 on a GPU: `fftc explore` ranks rewrite variants of the naive high-level programs
# (examples/dot.fdl, examples/gemm.fdl) at sizes the interpreter can check, then the best
# strategy and lowerDefault are timed at the benchmark sizes with `fftc exec --rewrite`.
# Writes OUT/explore_*.json and OUT/kernels.csv (kernel,size,strategy,ms).
#   bench/explore_kernels.sh [OUT] [TARGET]     (defaults: bench/results/explore, cuda)
# No cuBLAS/CUB comparison here: that needs a host program linking them (not written yet).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results/explore}
target=${2:-cuda}
fftc=${FFTC:-build/fftc}
mkdir -p "$out"
csv="$out/kernels.csv"
echo "kernel,size,strategy,ms" > "$csv"

best() {  # the best_strategy of an explore JSON file
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["best_strategy"] or "lowerDefault")' "$1"
}
time_at() {  # KERNEL FILE STRATEGY SIZE-LABEL -D...: one exec, median of 20 runs
  local name=$1 file=$2 strategy=$3 label=$4
  shift 4
  local ms
  ms=$("$fftc" exec "$file" "$@" --target "$target" --rewrite "$strategy" --warmup 5 \
       --repeat 20 --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["time_ms"])')
  echo "$name,$label,\"$strategy\",$ms" >> "$csv"
}

"$fftc" explore examples/dot.fdl -D N=1048576 --target "$target" --budget 300 --json \
  > "$out/explore_dot.json"
"$fftc" explore examples/gemm.fdl -D M=256 -D N=256 -D K=256 --target "$target" --budget 300 \
  --json > "$out/explore_gemm.json"

s=$(best "$out/explore_dot.json")
for n in 16777216 268435456; do
  time_at dot examples/dot.fdl lowerDefault "$n" -D N=$n
  time_at dot examples/dot.fdl "$s" "$n" -D N=$n
done
s=$(best "$out/explore_gemm.json")
for n in 1024 2048 4096; do
  time_at gemm examples/gemm.fdl lowerDefault "$n" -D M=$n -D N=$n -D K=$n
  time_at gemm examples/gemm.fdl "$s" "$n" -D M=$n -D N=$n -D K=$n
done
cat "$csv"
