#!/usr/bin/env bash
# Correctness on the GPU machine, in one device command (docs/status.md cites its log): the
# `gpu` test suites, then `fftc run --check` (FFTW in long double) on CUDA and on NVIDIA's
# OpenCL for what CI checks on PoCL only: advanced layouts (issue 7), in and out of place, real
# transforms, N-D plans (ndLocal). Prints one line per run and a summary; exit 1 if any failed.
#
#   eval "$(scripts/register-nvidia-opencl)"; bench/gpu_checks.sh [--fftc build-device/fftc]
#     [--tests build-device/tests] [--no-suites]
set -uo pipefail

fftc=build-device/fftc
tests=build-device/tests
suites=1
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fftc) fftc=$2; shift 2 ;;
    --tests) tests=$2; shift 2 ;;
    --no-suites) suites=0; shift ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "gpu_checks.sh: unknown option $1" >&2; exit 1 ;;
  esac
done

failed=0
if (( suites )); then
  for t in fftc_cuda_gpu_tests fftc_cuda_codegen_gpu_tests fftc_cuda_fftplan_gpu_tests; do
    if "$tests/$t" --gtest_brief=1 > "/tmp/$t.log" 2>&1; then
      echo "ok     $t ($(grep -c '^\[       OK' "/tmp/$t.log" || true) + $(grep -o '[0-9]* tests* from [0-9]* test suites* ran' "/tmp/$t.log"))"
    else
      echo "FAILED $t"; tail -20 "/tmp/$t.log"; failed=$((failed + 1))
    fi
  done
fi

runs=(
  # advanced layouts: strided input, interleaved output; interleaved batches in place
  "--size 16 --batch 3 --istride 2 --idist 40 --ostride 3 --odist 1"
  "--size 1000 --batch 64 --istride 64 --idist 1 --ostride 64 --odist 1 --in-place"
  "--size 4096 --batch 32 --idist 5000 --ostride 32 --odist 1 --in-place"
  "--size 8x6 --batch 2 --inembed 9,7 --onembed 10,8"
  "--size 64x48 --batch 8 --real --inembed 64,50 --in-place"
  "--size 15 --batch 3 --real --direction inverse --idist 9 --onembed 16"
  # real transforms and N-D plans
  "--size 1024 --batch 512 --real"
  "--size 1000 --batch 64 --real --direction inverse --scale"
  "--size 256x256x256"
  "--size 64x64x64 --batch 16 --precision f64"
  "--size 512x32x32 --batch 4 --direction inverse"
  "--size 17x16 --batch 8"
)
for target in cuda opencl; do
  for args in "${runs[@]}"; do
    # shellcheck disable=SC2086
    out=$("$fftc" run $args --target "$target" --check --json --repeat 5 --warmup 2 2>&1)
    rc=$?
    summary=$(python3 -c 'import json,sys
try:
  r=json.loads(sys.argv[1]); print("stages %s, %.4f ms, linf %.3g%s" % (r["stages"], r["time_ms"], r["linf_error"], (", holes %d" % r["holes_written"]) if "holes_written" in r else ""))
except Exception: print(sys.argv[1][-300:])' "$out")
    if (( rc == 0 )); then echo "ok     $target $args: $summary"; else
      echo "FAILED $target $args (exit $rc): $summary"; failed=$((failed + 1)); fi
  done
done
echo "gpu_checks: $failed failed"
(( failed == 0 ))
