#!/usr/bin/env bash
# Issue 22's register evidence without a GPU: each kernel of the CUDA plan fft_bench would run
# (the same batch, the H100/H200 shared-memory budget), compiled by the toolkit's ptxas for
# sm_90 with -v, as one CSV line: registers, spill bytes and stack frame. A pass that spills
# pays local-memory traffic on top of its DRAM bytes, which Nsight's DRAM share does not show.
#
#   bench/spill_check.sh [--fftc build/fftc] [--bench build/bench/fft_bench] [--out FILE]
#                        [--sizes GROUPS] [--precision f32,f64] [--launch-bounds-min-blocks K]
#
# --launch-bounds-min-blocks K rewrites __launch_bounds__(T) as __launch_bounds__(T, K) before
# compiling: what ptxas does with the block count said (an experiment; the emitted kernels are
# not changed). N-D sizes (NxM[xK], e.g. --sizes 2048x2048,128x128x128) at fft_bench's batch
# too. Needs nvcc (the CUDA toolkit); takes about 10 minutes for all sizes on 2 cores.
set -uo pipefail

fftc=build/fftc
bench=build/bench/fft_bench
out=spill_check.csv
sizes=pow2,smooth,primes
precisions=f32,f64
minBlocks=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fftc) fftc=$2; shift 2 ;;
    --bench) bench=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --precision) precisions=$2; shift 2 ;;
    --launch-bounds-min-blocks) minBlocks=$2; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    *) echo "spill_check.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[[ -x "$nvcc" ]] || { echo "spill_check.sh: no nvcc in ${CUDA_HOME:-/usr/local/cuda}/bin" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The budget fft_bench's CUDA plans get on an H100/H200: the opt-in shared memory of a block.
budget=232448
echo "precision,N,batch,kernel,block,registers,spill_store_bytes,spill_load_bytes,stack_bytes" > "$out"
for prec in ${precisions//,/ }; do
  [[ $prec == f32 ]] && total=$((1 << 26)) || total=$((1 << 25))
  for n in $("$bench" --list --sizes "$sizes"); do
    elements=$((${n//x/*}))  # an N-D size NxMxK: its product, as fft_bench's batch takes it
    batch=$((total / elements)); ((batch < 1)) && batch=1
    dir=$work/$prec-$n
    if ! "$fftc" fft --size "$n" --batch "$batch" --precision "$prec" --target cuda \
        --local-memory $budget -o "$dir" > "$dir.log" 2>&1; then
      echo "$prec,$n,$batch,error: $(tail -1 "$dir.log" | tr ',' ';'),,,,," >> "$out"
      continue
    fi
    cu=$(ls "$dir"/*.cu)
    ((minBlocks > 0)) && sed -E -i "s/__launch_bounds__\(([0-9]+)\)/__launch_bounds__(\1, $minBlocks)/" "$cu"
    "$nvcc" -arch=sm_90 -cubin -Xptxas -v -o /dev/null "$cu" 2> "$dir.ptxas"
    # ptxas prints, per kernel: "Compiling entry function 'NAME'", then the stack/spill line,
    # then "Used R registers"; the block size is the kernel's __launch_bounds__.
    awk -v p="$prec" -v n="$n" -v b="$batch" -v cu="$cu" '
      BEGIN { while ((getline line < cu) > 0)
                if (match(line, /__launch_bounds__\([0-9]+/)) {
                  t = substr(line, RSTART + 18, RLENGTH - 18)
                  if (!match(line, /[A-Za-z0-9_]+_stage[0-9]+/)) {
                    getline line < cu; match(line, /[A-Za-z0-9_]+_stage[0-9]+/) }
                  block[substr(line, RSTART, RLENGTH)] = t } }
      /Compiling entry function/ { match($0, /[A-Za-z0-9_]+_stage[0-9]+/); k = substr($0, RSTART, RLENGTH) }
      /bytes stack frame/ { st = $1; ss = $5; sl = $9 }
      /Used [0-9]+ registers/ { for (i = 1; i <= NF; i++) if ($i == "Used") r = $(i + 1)
                                print p "," n "," b "," k "," block[k] "," r "," ss "," sl "," st }
    ' "$dir.ptxas" >> "$out"
  done
done
echo "spill_check.sh: $(($(wc -l < "$out") - 1)) kernels in $out; spilling:"
awk -F, 'NR > 1 && $7 > 0 { print "  " $1 " " $2 " " $4 ": " $6 " registers, block " $5 ", " $7 " bytes spilled" }' "$out"
