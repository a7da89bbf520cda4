#!/usr/bin/env bash
# Strong scaling of fftc's distributed FFT (issue 27, item 4; docs/distributed.md): 512^3 and
# 1024^3 f32 C2C, slab and pencil, over 1, 2, 4 and 8 GPUs of one host (one MPI rank per GPU,
# --target cuda, rank r on cuda:r), each checked against FFTW first at 64^3 on the same ranks.
# Writes CSV: time per transform (the slowest rank's median), the all-to-all's, the local FFTs'
# (with their host copies) and pack/unpack time, GFLOP/s, and efficiency against one GPU.
#
#   bench/distributed_bench.sh [--fftc build-device/fftc] [--gpus "1 2 4 8"]
#     [--sizes "512 1024"] [--decompositions "slab pencil"] [--repeat 5] [--warmup 1]
#     [--out bench/results/distributed.csv]
# Needs Open MPI's mpirun and an fftc built with MPI (FFTC_MPI_FOUND) on the GPU machine. As
# root: OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) are set here. 1024^3 f32 holds 8 GiB per array: one
# GPU needs about 40 GiB of device and 48 GiB of host memory in this host-staged version.
set -uo pipefail

fftc=build-device/fftc
gpus="1 2 4 8"
sizes="512 1024"
decompositions="slab pencil"
repeat=5
warmup=1
out=bench/results/distributed.csv
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fftc) fftc=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --decompositions) decompositions=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "distributed_bench.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
command -v mpirun >/dev/null || { echo "distributed_bench.sh: no mpirun (Open MPI)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
available=$(nvidia-smi -L 2>/dev/null | wc -l)
mkdir -p "$(dirname "$out")"
echo "size,decomposition,gpus,grid,time_ms,exchange_ms,local_ms,pack_ms,gflops,efficiency,device" > "$out"

field() {  # field JSON NAME: a number or string of fftc run --json's object
  sed -E "s/.*\"$2\":(\"[^\"]*\"|[^,}]*).*/\1/" <<<"$1" | tr -d '"'
}

failed=0
# the baseline: fftc's ordinary (not distributed) 3D plan on one GPU
for n in $sizes; do
  json=$("$fftc" run --target cuda --size "${n}x${n}x${n}" --repeat "$repeat" --warmup "$warmup" \
         --json 2>/tmp/dist_run.err | tail -1)
  if [[ "$json" == \{* ]]; then
    echo "$n^3,single,1,1,$(field "$json" time_ms),0,$(field "$json" time_ms),0,$(field "$json" gflops),,\"$(field "$json" device)\"" | tee -a "$out"
  else
    echo "FAILED ${n}^3 on one GPU (not distributed)"; tail -3 /tmp/dist_run.err
  fi
done
for g in $gpus; do
  if (( g > available )); then echo "skip $g GPUs: $available available"; continue; fi
  for d in $decompositions; do
    # correctness on these ranks first (small: FFTW in long double on rank 0)
    if ! mpirun --oversubscribe -np "$g" "$fftc" run --target cuda --size 64x64x64 \
         --distributed "$d" --check --repeat 1 --warmup 0 > /tmp/dist_check.log 2>&1; then
      echo "FAILED check: $d on $g GPUs"; tail -5 /tmp/dist_check.log; failed=$((failed + 1))
      continue
    fi
    for n in $sizes; do
      json=$(mpirun -np "$g" "$fftc" run --target cuda --size "${n}x${n}x${n}" --distributed "$d" \
             --repeat "$repeat" --warmup "$warmup" --json 2>/tmp/dist_run.err | tail -1)
      if [[ "$json" != \{* ]]; then
        echo "FAILED ${n}^3 $d on $g GPUs"; tail -5 /tmp/dist_run.err; failed=$((failed + 1))
        continue
      fi
      t=$(field "$json" time_ms)
      key="${n}_${d}"
      [[ $g -eq 1 ]] && declare "base_$key=$t"
      base_var="base_$key"
      eff=""
      [[ -n "${!base_var:-}" ]] && eff=$(awk -v b="${!base_var}" -v t="$t" -v g="$g" 'BEGIN{printf "%.3f", b/(g*t)}')
      grid=$(sed -E 's/.*"grid":\[([^]]*)\].*/\1/' <<<"$json" | tr ',' 'x')
      line="$n^3,$d,$g,$grid,$t,$(field "$json" exchange_ms),$(field "$json" local_ms),$(field "$json" pack_ms),$(field "$json" gflops),$eff,\"$(field "$json" device)\""
      echo "$line" | tee -a "$out"
    done
  done
done
echo "wrote $out"
exit $(( failed > 0 ))
