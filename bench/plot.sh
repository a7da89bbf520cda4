#!/usr/bin/env bash
# Plots a CSV of bench/fft_bench: per precision, fftc's time over cuFFT's against N for each
# fftc target (log-log), with the lines ratio = 1 and 2. Needs gnuplot (Debian: gnuplot-nox).
#   bench/plot.sh results/DEVICE_DATE.csv [OUT.png]      # default: the CSV's name with .png
set -euo pipefail
csv=${1:?usage: bench/plot.sh FILE.csv [OUT.png]}
png=${2:-${csv%.csv}.png}
command -v gnuplot >/dev/null || { echo "plot.sh: gnuplot not found (apt-get install gnuplot-nox)" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Columns by name from the header, so that added columns do not break the plot.
awk -F, -v dir="$tmp" '
  NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  {
    r = $col["ratio"]
    if (r == "") next
    f = dir "/" $col["precision"] "_" $col["target"] ".dat"
    print $col["N"], r >> f
    device = $col["device"]; date = $col["date"]
  }
  END { gsub(/"/, "", device); print device " (" date ")" > dir "/title" }
' "$csv"
title=$(cat "$tmp/title" 2>/dev/null || echo "")
for f in "$tmp"/*.dat; do [[ -e "$f" ]] && sort -n -o "$f" "$f"; done

plots() {  # $1: precision
  local p=$1 s="" t
  for t in cuda opencl; do
    [[ -s "$tmp/${p}_$t.dat" ]] || continue
    s+="${s:+, }'$tmp/${p}_$t.dat' using 1:2 with linespoints title 'fftc $t / cuFFT'"
  done
  [[ -n "$s" ]] || s="NaN notitle"
  echo "$s, 1 with lines dt 2 lw 1.5 lc rgb 'black' title 'ratio 1', 2 with lines dt 4 lw 1.5 lc rgb 'red' title 'ratio 2'"
}

gnuplot <<GNUPLOT
set terminal pngcairo size 1400,600 noenhanced
set output '$png'
set multiplot layout 1,2 title 'fftc / cuFFT time, C2C forward, batch to 2^26 (f32) / 2^25 (f64) elements: $title'
set logscale xy 2
set yrange [0.5:*]
set samples 2
set xlabel 'N'
set ylabel 'fftc ms / cuFFT ms'
set grid
set key top left
set title 'f32'
plot $(plots f32)
set title 'f64'
plot $(plots f64)
unset multiplot
GNUPLOT
echo "plot.sh: wrote $png"
