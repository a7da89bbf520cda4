#!/usr/bin/env bash
# Issue 22's occupancy evidence without a GPU: for each pass (stage) of the CUDA plan fft_bench
# runs at 2^14 .. 2^24 (its batch, the H100/H200 shared-memory budget), the registers ptxas
# gives it for sm_90, its shared memory per block (the manifest's), its block size, and the
# theoretical occupancy those allow on an sm_90 SM: blocks limited by 64K registers (allocated
# per warp in units of 256), by 228 KB of shared memory (1 KB reserved per block, 128-byte
# units), by 2048 threads and by 32 blocks. Companion of bench/spill_check.sh.
#
#   bench/tile_occupancy.sh [--fftc build/fftc] [--out FILE] [--label NAME]
#                           [--log2 14-24] [--precision f32,f64] [--budget BYTES]
#                           [--fft-options "--levels 2"]
#
# --label fills the CSV's first column (e.g. before/after, to concatenate two runs);
# --fft-options are passed on to `fftc fft` (a plan other than the automatic one).
# The shared-memory limit is the largest carveout's: Nsight Compute reports the one the driver
# configured, which can be lower when registers bound the blocks anyway.
# Needs nvcc (the CUDA toolkit); about 2 minutes for both precisions on 2 cores.
# bench/results/2026-11-29-sm90-tile_occupancy.csv: --label before (main 0716493), after, and
# levels2-F8 / levels2-F4 (--fft-options "--levels 2 --ffts-per-group 8" --precision f32, 4 for
# f64, --log2 17-19), concatenated.
set -uo pipefail

fftc=build/fftc
out=tile_occupancy.csv
label=
range=14-24
precisions=f32,f64
fftOptions=
budget=232448  # the opt-in shared memory of a block on an H100/H200, as fft_bench's plans
while [[ $# -gt 0 ]]; do
  case "$1" in
    --fftc) fftc=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --label) label=$2; shift 2 ;;
    --log2) range=$2; shift 2 ;;
    --precision) precisions=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --fft-options) fftOptions=$2; shift 2 ;;
    -h|--help) sed -n '2,19p' "$0"; exit 0 ;;
    *) echo "tile_occupancy.sh: unknown option $1" >&2; exit 1 ;;
  esac
done
nvcc=${CUDA_HOME:-/usr/local/cuda}/bin/nvcc
[[ -x "$nvcc" ]] || { echo "tile_occupancy.sh: no nvcc in ${CUDA_HOME:-/usr/local/cuda}/bin" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "label,precision,N,batch,plan,stage,block,registers,spill_store_bytes,shared_bytes,blocks_by_regs,blocks_by_smem,blocks_by_threads,blocks_per_sm,occupancy" > "$out"
for prec in ${precisions//,/ }; do
  [[ $prec == f32 ]] && total=26 || total=25
  for ((k = ${range%-*}; k <= ${range#*-}; ++k)); do
    n=$((1 << k)); batch=$((1 << (total - k))); ((batch < 1)) && batch=1
    dir=$work/$prec-$n
    if ! "$fftc" fft --size "$n" --batch "$batch" --precision "$prec" --target cuda \
        --local-memory "$budget" $fftOptions -o "$dir" > "$dir.log" 2>&1; then
      echo "$label,$prec,$n,$batch,error: $(tail -1 "$dir.log" | tr ',' ';'),,,,,,,,,," >> "$out"
      continue
    fi
    "$nvcc" -arch=sm_90 -cubin -Xptxas -v -o /dev/null "$dir"/*.cu 2> "$dir.ptxas"
    python3 - "$dir" "$dir.ptxas" "$dir.log" "$label" "$prec" "$n" "$batch" >> "$out" <<'EOF'
import glob, json, math, re, sys
d, ptxas, log, label, prec, n, batch = sys.argv[1:]
m = json.load(open(glob.glob(d + "/*.json")[0]))
regs, spill, k = {}, {}, None
for line in open(ptxas):
    if "Compiling entry function" in line:
        k = re.search(r"'([A-Za-z0-9_]+)'", line).group(1)
    elif "bytes stack frame" in line:
        spill[k] = int(line.split()[4])
    elif re.search(r"Used \d+ registers", line):
        regs[k] = int(re.search(r"Used (\d+) registers", line).group(1))
# the plan, short: the variant and its radices ("hierarchical [16 16] x [16 16]")
text = next((l.split(":", 1)[1].strip() for l in open(log) if l.startswith("variant:")), "")
plan = " ".join([text.split(" ")[0], " x ".join(re.findall(r"\[[^\]]*\]", text))])
plan = plan.replace(",", "")
for i, st in enumerate(m["stages"]):
    block = math.prod(int(x) for x in st["local"])
    r = regs.get(st["kernel"], 0)
    smem = int(st.get("local_memory_bytes", 0))
    warps = (block + 31) // 32
    per_warp = math.ceil(r * 32 / 256) * 256 if r else 256
    by_regs = (65536 // per_warp) // warps
    by_smem = 233472 // (math.ceil((smem + 1024) / 128) * 128) if smem else 32
    by_threads = 2048 // block
    blocks = min(by_regs, by_smem, by_threads, 32)
    occ = blocks * warps / 64
    print(f"{label},{prec},{n},{batch},{plan},{i},{block},{r},{spill.get(st['kernel'], 0)},"
          f"{smem},{by_regs},{by_smem},{by_threads},{blocks},{occ:.3f}")
EOF
  done
done
echo "tile_occupancy.sh: $(($(wc -l < "$out") - 1)) passes in $out"
