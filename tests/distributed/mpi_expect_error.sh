#!/usr/bin/env bash
# Runs an mpirun command that must fail alike on every rank: exit status STATUS, and the one-line
# error matching PATTERN printed COUNT times (once per rank), within a time limit (no hang).
# usage: mpi_expect_error.sh STATUS PATTERN COUNT -- mpirun ...
set -u
status=$1 pattern=$2 count=$3
shift 4
out=$(timeout 120 "$@" 2>&1)
rc=$?
echo "$out"
if [[ $rc -eq 124 ]]; then echo "FAIL: timed out (a rank waited)"; exit 1; fi
if [[ $rc -ne $status ]]; then echo "FAIL: exit status $rc, expected $status"; exit 1; fi
n=$(grep -cE -- "$pattern" <<<"$out")
if [[ $n -ne $count ]]; then echo "FAIL: '$pattern' printed $n times, expected $count"; exit 1; fi
echo "PASS"
