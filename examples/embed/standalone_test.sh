#!/bin/sh
# The standalone-header check of ctest (examples/embed/CMakeLists.txt), the user's three steps:
#   standalone_test.sh FFTC CXX DIR "FFT OPTIONS" "CXX ARGUMENTS" run|syntax ["FFT OPTIONS 2"]
# writes the header with `FFTC fft FFT OPTIONS -o DIR`, compiles with
# `CXX -std=c++17 -I DIR CXX ARGUMENTS` (which name the example and the libraries), and runs the
# program (run) or only checks that it compiles (syntax: CXX ARGUMENTS carry -fsyntax-only).
# FFT OPTIONS 2: a second header in DIR first, for a program that includes two.
set -eu
fftc=$1 cxx=$2 dir=$3 fft=$4 args=$5 mode=$6 second=${7:-}
rm -rf "$dir"
mkdir -p "$dir"
if [ -n "$second" ]; then
  # shellcheck disable=SC2086
  "$fftc" fft $second -o "$dir" >/dev/null
fi
# shellcheck disable=SC2086  # the option lists are split into words on purpose
"$fftc" fft $fft -o "$dir"
echo "+ $cxx -std=c++17 -I $dir $args"
# shellcheck disable=SC2086
"$cxx" -std=c++17 -I "$dir" $args -o "$dir/standalone"
if [ "$mode" = run ]; then
  "$dir/standalone"
fi
