#!/usr/bin/env bash
# Strong scaling of fftc's distributed FFT (issue 27; docs/distributed.md): 512^3 and 1024^3 f32
# C2C, slab and pencil, over 1, 2, 4 and 8 GPUs of one host (one MPI rank per GPU, --target cuda,
# rank r on cuda:r, the exchanges by --transport, NCCL by default), each checked against FFTW
# first at 64^3 on the same ranks, plus fftc's one-GPU 3D plan. Writes CSV, per row: the time
# per transform (the slowest rank's median), its local FFTs, box copies (pack_ms) and
# all-to-alls (exchange_ms); the bytes a rank sends and the exchange's bandwidth; the plain
# all-to-all of the same messages through the same transport in the same run (alltoall_ms,
# alltoall_gbps) and the exchange's share of it (exchange_vs_alltoall = alltoall_ms /
# exchange_ms; the target is >= 0.8); efficiency against the one-GPU plan (one / (G x time);
# the target is >= 0.7 at 4 GPUs for 1024^3) and scaling against the same decomposition on 1 GPU.
#
#   bench/distributed_bench.sh [--fftc build-device/fftc] [--gpus "1 2 4 8"]
#     [--sizes "512 1024"] [--decompositions "slab pencil"] [--transport nccl|mpi]
#     [--repeat 5] [--warmup 1] [--out bench/results/distributed.csv]
# Needs Open MPI's mpirun, an fftc built with MPI (FFTC_MPI_FOUND) on the GPU machine and, for
# NCCL, libnccl.so.2 (the CUDA toolkit's lib directory, or CUDA_HOME). As root:
# OMPI_ALLOW_RUN_AS_ROOT(_CONFIRM) are set here. 1024^3 f32 is 8 GiB per array: on one GPU the
# plan holds about 5 arrays (input, output, three work buffers) plus its local plans' scratch.
set -uo pipefail

fftc=build-device/fftc
gpus="1 2 4 8"
sizes="512 1024"
decompositions="slab pencil"
transport=nccl
repeat=5
warmup=1
out=bench/results/distributed.csv
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fftc) fftc=$2; shift 2 ;;
    --gpus) gpus=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --decompositions) decompositions=$2; shift 2 ;;
    --transport) transport=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) echo "distributed_bench.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
command -v mpirun >/dev/null || { echo "distributed_bench.sh: no mpirun (Open MPI)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
available=$(nvidia-smi -L 2>/dev/null | wc -l)
mkdir -p "$(dirname "$out")"
echo "size,decomposition,gpus,grid,transport,time_ms,local_ms,pack_ms,exchange_ms,exchange_bytes,exchange_gbps,alltoall_ms,alltoall_gbps,exchange_vs_alltoall,gflops,efficiency,scaling,device" > "$out"

field() {  # field JSON NAME: a number or string of fftc run --json's object
  sed -E "s/.*\"$2\":(\"[^\"]*\"|[^,}]*).*/\1/" <<<"$1" | tr -d '"'
}

failed=0
# the baseline: fftc's ordinary (not distributed) 3D plan on one GPU
for n in $sizes; do
  json=$("$fftc" run --target cuda --size "${n}x${n}x${n}" --repeat "$repeat" --warmup "$warmup" \
         --json 2>/tmp/dist_run.err | tail -1)
  if [[ "$json" == \{* ]]; then
    t=$(field "$json" time_ms)
    declare "single_$n=$t"
    echo "$n^3,single,1,1,,$t,$t,0,0,0,,,,,$(field "$json" gflops),1.000,,\"$(field "$json" device)\"" | tee -a "$out"
  else
    echo "FAILED ${n}^3 on one GPU (not distributed)"; tail -3 /tmp/dist_run.err
  fi
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN{ if (a > 0 && b > 0) printf "%.3f", a / b }'; }
for g in $gpus; do
  if (( g > available )); then echo "skip $g GPUs: $available available"; continue; fi
  for d in $decompositions; do
    # correctness on these ranks first (small: FFTW in long double on rank 0)
    if ! mpirun --oversubscribe -np "$g" "$fftc" run --target cuda --size 64x64x64 \
         --distributed "$d" --transport "$transport" --check --repeat 1 --warmup 0 \
         > /tmp/dist_check.log 2>&1; then
      echo "FAILED check: $d on $g GPUs"; tail -5 /tmp/dist_check.log; failed=$((failed + 1))
      continue
    fi
    for n in $sizes; do
      json=$(mpirun -np "$g" "$fftc" run --target cuda --size "${n}x${n}x${n}" --distributed "$d" \
             --transport "$transport" --repeat "$repeat" --warmup "$warmup" --json \
             2>/tmp/dist_run.err | tail -1)
      if [[ "$json" != \{* ]]; then
        echo "FAILED ${n}^3 $d on $g GPUs"; tail -5 /tmp/dist_run.err; failed=$((failed + 1))
        continue
      fi
      t=$(field "$json" time_ms)
      key="${n}_${d}"
      [[ $g -eq 1 ]] && declare "base_$key=$t"
      base_var="base_$key" single_var="single_$n"
      scaling="" eff=""
      [[ -n "${!base_var:-}" ]] && scaling=$(ratio "${!base_var}" "$(awk -v g="$g" -v t="$t" 'BEGIN{print g * t}')")
      [[ -n "${!single_var:-}" ]] && eff=$(ratio "${!single_var}" "$(awk -v g="$g" -v t="$t" 'BEGIN{print g * t}')")
      grid=$(sed -E 's/.*"grid":\[([^]]*)\].*/\1/' <<<"$json" | tr ',' 'x')
      ex=$(field "$json" exchange_ms) plain=$(field "$json" alltoall_ms)
      line="$n^3,$d,$g,$grid,$(field "$json" transport),$t,$(field "$json" local_ms),$(field "$json" pack_ms),$ex,$(field "$json" exchange_bytes),$(field "$json" exchange_gbps),$plain,$(field "$json" alltoall_gbps),$(ratio "$plain" "$ex"),$(field "$json" gflops),$eff,$scaling,\"$(field "$json" device)\""
      echo "$line" | tee -a "$out"
    done
  done
done
echo "wrote $out"
exit $(( failed > 0 ))
