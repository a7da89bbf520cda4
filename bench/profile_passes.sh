#!/usr/bin/env bash
# Issue 22's evidence: each pass of a CUDA plan under Nsight Compute on the GPU machine (DRAM
# throughput against its peak, bytes moved, achieved occupancy and what limits it, registers,
# shared memory). One line per kernel launch in a CSV; the plan itself is printed too.
#
#   bench/profile_passes.sh [--fftc build-device/fftc] [--out FILE] [SIZE[:PRECISION] ...]
#
# Needs ncu with hardware counters (docs/performance.md; the device README says which machines
# give them). Clocks are left alone (--clock-control none), as METHOD.md asks.
set -uo pipefail

fftc=build-device/fftc
out=profile_passes.csv
sizes=()
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fftc) fftc=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) sizes+=("$1"); shift ;;
  esac
done
[[ ${#sizes[@]} -gt 0 ]] || sizes=(4096 8192 16384 65536 262144 1048576 16777216 4096:f64 8192:f64)
ncu=$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[[ -n "$ncu" ]] || { echo "profile_passes.sh: ncu not found" >&2; exit 1; }

metrics=gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum
metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,sm__warps_active.avg.pct_of_peak_sustained_active
metrics+=,sm__maximum_warps_per_active_cycle_pct
metrics+=,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem
metrics+=,launch__occupancy_limit_blocks,launch__occupancy_limit_warps
metrics+=,launch__registers_per_thread,launch__shared_mem_per_block
metrics+=,launch__block_size,launch__grid_size,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum

echo "size,precision,$(echo "kernel,$metrics" | tr -d ' ')" > "$out"
for s in "${sizes[@]}"; do
  n=${s%%:*}; p=f32; [[ $s == *:* ]] && p=${s##*:}
  [[ $p == f32 ]] && elems=$((1 << 26)) || elems=$((1 << 25))
  batch=$(( elems / n )); (( batch >= 1 )) || batch=1
  echo "== $n $p batch $batch"
  "$ncu" --clock-control none --csv --page raw --metrics "$metrics" \
    --kernel-name regex:'^fft_' --launch-count 8 \
    "$fftc" run --size "$n" --batch "$batch" --precision "$p" --target cuda --repeat 1 --warmup 0 \
    > "/tmp/ncu_${n}_${p}.csv" 2> "/tmp/ncu_${n}_${p}.err" || { echo "ncu failed for $n $p:"; tail -5 "/tmp/ncu_${n}_${p}.err"; continue; }
  # ncu's raw page: a header row of metric names, a row of units, then one row per launch.
  python3 - "$n" "$p" "$metrics" "/tmp/ncu_${n}_${p}.csv" >> "$out" <<'PY'
import csv, sys
n, p, metrics, path = sys.argv[1], sys.argv[2], sys.argv[3].split(","), sys.argv[4]
lines = [l for l in open(path) if l.startswith('"')]
rows = list(csv.reader(lines))
head = rows[0]
for r in rows[2:]:
    d = dict(zip(head, r))
    print(",".join([n, p, d.get("Kernel Name", "?")] + [d.get(m, "").replace(",", "") for m in metrics]))
PY
done
echo "wrote $out"
