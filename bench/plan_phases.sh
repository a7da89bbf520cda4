#!/usr/bin/env bash
# Cold and warm plan times of `fftc fft --size N -o DIR`, phase by phase (FFTC_TIMINGS=1, thread
# CPU ms), with the whole process's user, system and wall seconds and its peak memory, as CSV
# (issue 21; docs/performance.md "Cold plans of Bluestein and large sizes").
#
#   bench/plan_phases.sh [--fftc BIN] [--label TEXT] [--sizes "N[:PREC[:TARGET]] ..."]
#                        [--fft-bench] > out.csv
#
# --fft-bench: fft_bench's request of each size (a batch of 2^26 f32 / 2^25 f64 elements in all,
# the H100/H200 shared-memory budget of 227 KiB), the plan whose cold plan_ms the GPU measures.
#
# Each row is one process: `cold` with an empty plan cache (a fresh FFTC_CACHE_DIR, so the
# entry is stored: "plan cache: store"), then `warm` (the same command again: the entry loaded).
# On a shared machine read the CPU columns: the wall columns include the waits for a core.
set -euo pipefail

fftc=build/fftc
label=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
fft_bench=0
sizes="1024 65536 1048576 65521 14641 4099 8191 131071 65521:f64 131071:f64 524287 524287:f64
392335 392335:f64 999983 999983:f64 1024:f32:cuda 65521:f32:cuda 999983:f32:cuda"
while [[ $# -gt 0 ]]; do
  case $1 in
    --fftc) fftc=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --sizes) sizes=$2; shift 2 ;;
    --fft-bench) fft_bench=1; shift ;;
    *) echo "plan_phases.sh: unknown argument $1" >&2; exit 1 ;;
  esac
done

phases=("front end: parse, imports" "front end: elaboration" "type inference" "rewriting"
        "codegen: views, simplify, print" "codegen: layout (clang-format)" "clang plugin: load"
        "planner: heuristics, stages" "plan cache: load" "plan cache: store")
columns="parse elaboration inference rewriting codegen layout plugin planner cache_load cache_store"

machine=$(uname -n)
date=$(date -u +%F)
echo -n "machine,date,build,N,precision,target,run"
for c in $columns; do echo -n ",${c}_cpu_ms"; done
echo ",sum_cpu_ms,user_s,sys_s,wall_s,max_rss_kb,output_bytes"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for spec in $sizes; do
  IFS=: read -r n prec target <<<"$spec"
  prec=${prec:-f32}
  target=${target:-opencl}
  rm -rf "$tmp/cache" "$tmp/out"
  request=()
  if [[ $fft_bench == 1 ]]; then
    elements=$((1 << 26))
    [[ $prec == f64 ]] && elements=$((1 << 25))
    request=(--batch $(( n < elements ? elements / n : 1 )) --local-memory 232448)
  fi
  for run in cold warm; do
    rm -rf "$tmp/out"
    FFTC_CACHE_DIR="$tmp/cache" FFTC_TIMINGS=1 /usr/bin/time -o "$tmp/time" \
      -f "%U %S %e %M" "$fftc" fft --size "$n" --precision "$prec" --target "$target" \
      "${request[@]}" -o "$tmp/out" >/dev/null 2>"$tmp/err" || { echo "failed: $spec" >&2; cat "$tmp/err" >&2; continue; }
    echo -n "$machine,$date,$label,$n,$prec,$target,$run"
    for p in "${phases[@]}"; do
      # the cpu column of the phase's line, 0 when the phase did not run
      v=$(awk -v p="  $p" 'index($0, p) == 1 { print $(NF - 2) }' "$tmp/err")
      echo -n ",${v:-0}"
    done
    sum=$(awk '$1 == "sum" { print $3 }' "$tmp/err")
    read -r user sys wall rss <"$tmp/time"
    bytes=$(du -sb "$tmp/out" | cut -f1)
    echo ",${sum:-0},$user,$sys,$wall,$rss,$bytes"
  done
done
