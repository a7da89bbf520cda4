// The planner's heuristics: a request -> a typed choice per variant (radices, levels, work-group
// shapes, N-D passes) and its instantiation (the .fdl kernel, its -D bindings, each stage's
// work-group size), before any compilation. docs/fft-api.md describes the rules.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "compiler/frontend/frontend.h"
#include "fftlib/plan/plan_request.h"

namespace fftc::fftlib {

using Radices = std::vector<int64_t>;

// The work-group shape of a one-kernel local-memory FFT (Local, Bluestein in local memory).
struct LocalShape {
  int64_t workgroupSize = 0;  // work-items per FFT
  int64_t fftsPerGroup = 0;   // F, the FFTs of one work-group
  bool operator==(const LocalShape&) const = default;
};

// Stockham, StockhamTwiddle, CooleyTukey: a pass over global memory per radix, a work-item per
// butterfly (fft.fdl stockham, stockhamTwiddle, cooleyTukey).
struct GlobalPassesChoice {
  Radices radices;  // product N
  bool operator==(const GlobalPassesChoice&) const = default;
};

// Local: the whole transform in one kernel through local memory (fft.fdl stockhamLocal, or
// stockhamLocalCopy for one work-item per row).
struct LocalChoice {
  Radices radices;  // product N
  LocalShape shape;
  // One local array instead of two (PlanChoice::localReuseInPass): chosen when two arrays of N
  // do not fit the budget and one does (16384 f32, 8192 f64 in an H100's 227 KiB).
  bool oneArray = false;
  // fft.fdl stockhamCluster or cluster.fdl fourStepCluster: each row over a thread-block
  // cluster of this many work-groups
  // (FftRequest::clusterBlocks), shape.workgroupSize the work-items of the whole cluster (each
  // block has workgroupSize / clusterBlocks); 0: stockhamLocal. Initialize LocalChoice by
  // field name: positionally, loopedWorkItems below landed here.
  int64_t clusterBlocks = 0;
  // One array whose passes from local memory to local memory have other butterfly counts than
  // the work-group's size (loopedOneArrayWorkItems): that size, fft.fdl's W; 0 otherwise.
  int64_t loopedWorkItems = 0;
  // The radices of p - 1 where the radix p (a prime above kLargestRaderRadix, raderPassPlan)
  // is a Rader pass (fft.fdl's rsR, common.fdl's raderStockPass); empty otherwise.
  Radices raderPass;
  // CUDA: the blocks a multiprocessor asked of ptxas (__launch_bounds__, raderPassMinBlocks),
  // unless the request names its own (FftRequest::minBlocksPerSm); 0: none.
  int64_t minBlocksPerSm = 0;
  bool operator==(const LocalChoice&) const = default;
};

// Hierarchical: two or three levels, each one kernel of tiles through local memory
// (hierarchical.fdl hierarchicalLocal, hierarchicalLocal3).
struct HierarchicalChoice {
  // The levels' radices, outermost first (rs1, rs2[, rs3]; n_i = prod(rs_i), N = n1·n2[·n3]).
  std::vector<Radices> levels;
  // Per stage (stage s transforms level k-1-s): F_s, the columns of one work-group's tile.
  std::vector<int64_t> columns;
  int64_t leastColumns() const;
  bool operator==(const HierarchicalChoice&) const = default;
};

// Bluestein: the chirp convolution of size M >= 2N - 1 (bluestein.fdl bluesteinLocal in one
// kernel when M fits local memory, else bluesteinFourStep in three passes when M = n1·n2 with
// both halves fitting, else bluesteinGlobal, a pass over global memory per step). For a prime N
// whose N - 1 is planned by radices and fits one local kernel, the variant's automatic choice is
// Rader's convolution instead (`rader`: rader.fdl raderLocal, M = N - 1, cyclic, no padding).
struct BluesteinChoice {
  Radices radicesM;  // product M
  int64_t m = 0;
  bool rader = false;  // rader.fdl raderLocal: M = N - 1, radicesM its radices
  bool local = false;  // bluesteinLocal
  LocalShape shape;    // bluesteinLocal's; zero otherwise
  // bluesteinFourStep: n1 = prod(radicesM[0 .. n1End)), n2 the rest (0: not four-step), and the
  // lines per work-group of its three passes (F1, F2, F3)
  int64_t n1End = 0;
  std::vector<int64_t> linesPerGroup;
  bool operator==(const BluesteinChoice&) const = default;
};

// N-D and real transforms (nd.fdl nd, ndLocal, r2c, c2r, r2cLocal, c2rLocal).
struct NdChoice {
  std::vector<int64_t> dims;        // outermost first (real: the real dimensions)
  std::vector<int64_t> passGroups;  // nd.fdl's gs
  // Per dimension (real: the last is the complex FFT of its real lines), its radices
  // (Stockham's, or those of Bluestein's convolution size M) and whether it is Bluestein's.
  std::vector<Radices> dimRadices;
  std::vector<bool> dimBluestein;
  // ndLocal: per dimension, n1 of the four-step split n = n1·n2 (two passes), 0 for one pass
  std::vector<int64_t> fourStepSplits;
  bool planePass = false;  // ndLocal: the innermost two dimensions share one pass
  // ndLocal's fused3: the innermost three dimensions in two passes, the middle one's n1 of
  // n1·n2 (0: not fused) and the x columns of a second pass's block
  int64_t fusedSplit = 0;
  int64_t fusedColumns = 0;
  // ndLocal: the lines per work-group of each dimension's pass; r2cLocal/c2rLocal: {Fr}
  std::vector<int64_t> linesPerGroup;
  bool operator==(const NdChoice&) const = default;
};

using VariantChoice =
    std::variant<GlobalPassesChoice, LocalChoice, HierarchicalChoice, BluesteinChoice, NdChoice>;

// The heuristics' answer: the typed choice, and the library kernel that instantiates it.
struct PlanChoice {
  Variant variant = Variant::Stockham;  // never Auto; N-D and real plans: Stockham
  VariantChoice detail;
  // Every radix of the plan in pass order (Stockham/twiddle/Cooley-Tukey/Local: rs;
  // Hierarchical: rs1 ++ rs2 [++ rs3]; Bluestein: M's; N-D: nd.fdl's rsAll).
  Radices radices;
  std::string file;    // "fft.fdl", "hierarchical.fdl", "bluestein.fdl", "nd.fdl"
  std::string kernel;  // the kernel of that file
  std::map<std::string, compiler::frontend::DefineValue> defines;  // the kernel's -D bindings
  // Per stage, the work-group size the plan launches with (dimension 0 first); empty: the
  // generated kernel's own. Code generation builds the kernel with these shapes
  // (CodegenOptions::stageLocal), so the manifest and header carry them. Local: {work-items per FFT, FFTs per group}; Hierarchical: {F
  // columns, n_i / min(rs_i) butterflies}. The kernels' loops are correct for any size but a
  // barrier's row loop, whose extent this keeps.
  std::vector<std::vector<int64_t>> stageLocal;
  // Code generation lets the local arrays of one pass share storage (each pass reads its tile
  // into private arrays, waits at a barrier, writes it back: CodegenOptions::localReuseInPass).
  bool localReuseInPass = false;
  // Local rows skewed by one element (CodegenOptions::localRowSkew): hierarchical tiles.
  bool localRowSkew = false;
  // One unused element after every this many of a local array (CodegenOptions::localPadding);
  // 0: code generation's own (16). Local plans with a radix not a power of two: localPaddingFor.
  int64_t localPadding = 0;

  // The typed choice when it is a T, else null.
  template <typename T>
  const T* as() const {
    return std::get_if<T>(&detail);
  }
};

// Validates the request (UserError: N < 1, batch < 1, a radix < 2 or whose product is wrong,
// a size too large for 32-bit indices, a parameter the variant has not, a shape that does not
// fit) and chooses, under `limits` (withLimits). 1D complex requests here, N-D (dims of two or
// more) by chooseNdPlan, real ones by chooseRealPlan.
PlanChoice choosePlan(const FftRequest& request, const PlanLimits& limits = {});
// A hierarchical choice's level sizes n1, n2[, n3] (the products of its levels' radices); empty
// for the other variants.
std::vector<int64_t> levelSizes(const PlanChoice& choice);
// The N-D part of choosePlan (planner_nd.cpp), the request's limits filled in: each dimension
// by the 1D heuristics (Stockham when smooth, else Bluestein), nd.fdl's nd or ndLocal.
PlanChoice chooseNdPlan(const FftRequest& request);
// Real transforms (request.real), 1D and N-D: the last dimension's real lines by the half-size
// complex FFT when even, by the full one when odd; the others on the half spectrum.
PlanChoice chooseRealPlan(const FftRequest& request);

// The largest prime that is a radix of its own in the planner's default plans: a size whose
// prime factors are all at most this is planned by mixed radix (Local, Hierarchical, the twiddle
// variant), never by Bluestein. Radices 11 and 13 are dense butterflies (r² products, common.fdl's
// multB), still far fewer operations than Bluestein's three FFTs of M >= 2N - 1 (on an H100, f32
// 11^3 = 1331 by Bluestein took 4.5x cuFFT's time, 2^9·13 = 6656 16x: issue 23).
inline constexpr int64_t kLargestRadixPrime = 13;
// The largest prime above 13 that may be a radix of its own (common.fdl's symmetric prime
// butterfly, about (p-1)² real products in one work-item) instead of sending the size to
// Bluestein. Measured on an H200 in one process with cuFFT, the same session, cap 19 against
// cap 31 (2026-11-26, bench/results/2026-11-26-nvidia-h200-prime_radix_cap19_31.csv, rows of a
// size taking the work-items of their wider radix, workItemsPerRow): as radices 23 took 2.6x
// cuFFT's time (f32) against 4.4x by Bluestein, 29 3.1x against 3.5x, 23 x 32 2.2x against
// 5.4x, 2 x 17 4.0x against 6.4x (f64: 2.3 - 2.8x against 3.3 - 8.0x); 31 was slower in f32
// (4.1x against 3.3x, 2 x 31 5.7x against 3.4x).
inline constexpr int64_t kLargestDirectPrime = 29;
// The largest prime that is a radix by Rader's algorithm (common.fdl's raderDft: the butterfly
// of a prime p > kLargestDirectPrime in one work-item, two register FFTs of p - 1 over its prime
// factors and the kernel spectrum as a table), when p - 1 is planned by radices. ptxas for sm_90
// (stockhamLocal, f32): [2, 31] 155 registers, [16, 37] 168, [8, 61] 255, none spilled; [2, 71]
// spills 448 bytes, [4, 127] 2900, [2, 257] 33388 (f64: [2, 31] 116 bytes, [8, 61] 2912). A
// composite size whose prime factors above 29 are all such radices is planned by radices
// (37 x 16, 43 x 2, 31 x 2^k); a prime is one radix where its butterfly fits a work-item
// (primeInOneWorkItem), else raderLocal's work-items share its convolution (raderRadices), and
// larger prime factors are Rader passes (raderPassPlan) or go to Bluestein. On an H200
// (2026-11-29) f64 488 = [8, 61] took 2.0 ms for a batch of 68759, its butterfly spilling,
// where f32 592 = [16, 37] was 0.57x cuFFT's time and 2368 = [8, 8, 37] 0.42x: 43 is the
// bound (the accuracy sweep's 86, 129, 172, 215 need it; as Bluestein their f64 L2 was 1.7 -
// 1.8x FFTW's).
inline constexpr int64_t kLargestRaderRadix = 43;
// The largest prime factor of Bluestein's convolution size M when it is not a power of two: M
// is free to choose, and radices 11 and 13 cost more per element than 2, 3, 5, 7.
inline constexpr int64_t kBluesteinLargestPrime = 7;

// The radices of n when n is 13-smooth: the fewest passes with radices <= 16, power-of-two
// radices first (largest first, bits spread evenly), then the others (11 and 13 each a radix of
// their own); {} for n = 1. A larger prime factor becomes a radix of its own (the matrix
// butterfly: r² products), which only a request's own radices or Bluestein's M would hold.
std::vector<int64_t> chooseRadices(int64_t n);
bool isSmooth(int64_t n);              // every prime factor in {2, 3, 5, 7, 11, 13}
// Whether n is planned by its radices (mixed radix), not by Bluestein: its prime factors are
// at most kLargestDirectPrime, or n is composite and those above are Rader radices
// (raderRadix). (A radix p beside small ones no longer idles a row's
// work-items: workItemsPerRow gives the row those of the wider radix; 34 = [2, 17] with 17
// work-items took 10.9x cuFFT's time, with 2 4.0x, against Bluestein's 6.4x.)
bool plannedByRadices(int64_t n);
// Whether the prime p is a radix by Rader's algorithm: kLargestDirectPrime < p <=
// kLargestRaderRadix and p - 1 planned by direct radices.
bool raderRadix(int64_t p);
// The planner's one register estimate, for every choice that keeps a butterfly in a work-item's
// registers (ptxas gives a thread at most 255 of them, a block of w threads 65536 / w each): a
// butterfly of radix r holds its r complex values (2 registers each in f32, 4 in f64) twice
// over for the temporaries, three times beyond radix 16 in a pass of several, whose inputs are
// twiddled ([16, 32, 32] f32 in 512 work-items of 128 registers spilled 128 bytes; ptxas sm_90).
// `wholeRow`: the butterfly is the whole row's FFT (one radix, no twiddles), twice over at any r.
int64_t butterflyRegisters(int64_t r, Precision p, bool wholeRow = false);
// butterflyRegisters(r, p, wholeRow) within a work-item of a block of `workItems`:
// min(255, 65536 / workItems).
bool butterflyInRegisters(int64_t r, int64_t workItems, Precision p, bool wholeRow = false);
// Whether a row of n is one radix, its butterfly a work-item's (the Local variant's
// stockhamLocalCopy, one global read and one write, no exchange through local memory): n is
// planned by radices or a Rader radix, and the whole row's butterfly (common.fdl's
// multDFTfactored: a register FFT over n's prime factors, symDft or raderDft for a prime) fits
// half of a thread's 255 registers (butterflyInRegisters of one work-item): f32 N <= 63, f64
// N <= 31 (a composite f64 row: 5 registers a complex value as ptxas allocates them, N <= 51);
// a composite row's prime factors below kLargestDirectPrime (29's symDft, 14 x 14 real
// products, and Rader's 31 beside the row's other half spilled: f32 58 36 bytes, 62 68 bytes).
// A composite row whose several radices are close ([4, 5], [4, 9], [8, 4], [9, 7], [7, 7]) keeps
// them: one radix a work-item's took f32 20 0.93 -> 1.06x cuFFT's time, 36 0.97 -> 1.34, 32 0.81
// -> 0.84, 63 1.09 -> 1.13, f64 20 0.93 -> 1.15, 28 0.90 -> 1.02 (H200, session 19); it is one
// radix where one of them is at least 3 times another or a factor is 11 or more.
// Every N <= 16 and prime 17 .. 29 was one radix already (chooseRadices); a composite N above 16
// was two radices, a row on several work-items through local memory (f32 22 = [2, 11] 1.77x
// cuFFT's time on an H200, 26 = [2, 13] 1.73x, 60 = [4, 15] 1.16x: two to four work-items a row,
// 45-53% of DRAM's bandwidth). ptxas sm_90 (stockhamLocalCopy, fft_bench's batch and 227 KiB),
// one radix f32: 22 127 registers, 26 128, 32 150, 34 255, 46 208, 57 228, 60 167, 63 167, none
// spilled (64 168, 72 178 neither: the estimate is high for small factors); f64 22 140, 26 166,
// 30 166, none; f64 36 spilled 12 bytes, 38 32.
bool rowInOneWorkItem(int64_t n, Precision precision);
// The radices of a one-kernel (Local) plan of n: [n] where rowInOneWorkItem, else
// chooseRadices(n).
Radices localRadices(int64_t n, Precision precision);
// The radices of a transform chained to another in one kernel (fft_ops.cpp: the convolution's
// forward and inverse FFT): powers of two up to `largest` (a power of two; the odd factors as
// chooseRadices packs them) where that takes fewer radices than chooseRadices(n), else
// chooseRadices(n). A pass fewer is a local exchange and a barrier fewer each way:
// 512 [8, 8, 8] -> [32, 16], 1024 [16, 8, 8] -> [32, 32], 8192 [16, 16, 16, 2] -> [32, 16, 16];
// 2048 and 4096 keep three radices of 16 and 8.
inline constexpr int64_t kChainLargestRadix = 32;
Radices chainRadices(int64_t n, int64_t largest = kChainLargestRadix);
// The chain's largest radix by default (FftOpsOptions::chainRadix, `--chain-radix`): 16, the
// plain FFT's radices. On an H200 the wider ones lost (pipeline_bench, speedup over cuFFT's
// pipeline, two runs each: 512 [32, 16] 1.59 against [8, 8, 8]'s 2.43 - 2.48, 1024 [32, 32]
// 2.05 - 2.07 against 2.22 - 2.24; bench/results/2026-11-29-nvidia-h200-session20-conv_chain_radix.csv):
// their 149 - 165 registers leave 3 - 6 warps an SM (0.19 occupancy, ptxas sm_90) where the
// radix-8/16 rows keep 0.625 - 0.75, and the barriers saved do not make up for it.
inline constexpr int64_t kChainDefaultRadix = 16;
// Whether the prime n is planned as one radix, common.fdl's raderDft in one work-item a row (the
// Local variant, radices [n]), not raderLocal's rows of (n - 1) / min(rs) work-items: n is a
// Rader radix and rowInOneWorkItem (f32 31 .. 43, f64 31). On an H200
// (bench/results/2026-11-29-nvidia-h200-rader_prime_probes.csv) f32
// 31 took 0.337 ms against raderLocal's 0.957 (3.47x -> 1.22x cuFFT's time), 37 0.469 / 0.739,
// 41 0.451 / 0.833, 43 0.532 / 0.722, f64 31 0.355 / 0.692 (ptxas sm_90: 255 registers, 148
// bytes of spill); f64 37 and 43 spill 852 and 1152 bytes and took 0.846 and 1.145 ms against
// raderLocal's 0.624 and 0.672.
bool primeInOneWorkItem(int64_t n, Precision precision);
// plannedByRadices(n) or primeInOneWorkItem(n, precision): planned by its radices at this
// precision (the 1D planner's variant, the fft operations of programs; not N-D dimensions,
// planner_nd.cpp).
bool plannedByRadices(int64_t n, Precision precision);
bool hasRaderRadix(const Radices& rs);  // one of rs is a Rader radix
// The padding period of a Local plan's local arrays (local_banks.cpp): each pass of radix r
// stores a butterfly's r outputs together, so a warp's stores are r elements apart; padded every
// 16 (code generation's default, right for powers of two), stride 10 put 4 - 8 of a warp's 32
// stores in each bank used. Here the period among 8 .. 32 whose padded strides meet the fewest
// wavefronts in the passes' stores (a model of 32 banks of 4 bytes, the first warp), 16 on a tie
// and for radices that are all powers of two. By the bank model of the emitted CUDA
// (bench/local_bank_wavefronts.py, wavefronts against the least): f32 1000 [10, 10, 10] 187/60
// -> 70/80, 100 110/40 -> 50/40, 70 [10, 7] 92/34 -> 41/34.
int64_t localPaddingFor(const Radices& rs, Precision precision);
// The most work-items of a block (a one-kernel row's work-group, a hierarchical tile) whose
// passes hold a Rader radix: 256 x 255 registers is the 64 K of a block.
inline constexpr int64_t kRaderWorkItems = 256;
int64_t smoothSizeAtLeast(int64_t n);  // the smallest 2,3,5,7-smooth integer >= n (Bluestein's M)
// The largest Bluestein convolution size M: its chirp spectrum D_M b is a compile-time table
// (rewrites::FoldOptions::maxFftElements: the exact DFT of M points in long double, 32·M bytes
// twice while it is computed), so a size whose 2N - 1 is beyond it (a prime factor above 29 and
// N > 2^24) is refused at once (bluesteinSize: a UserError naming the limit).
inline constexpr int64_t kBluesteinMaxM = int64_t{1} << 25;
// Bluestein's convolution size M >= 2N - 1: the next power of two when its one kernel fits
// 48 KiB of local memory, or when it is at most 10% above the smallest 2,3,5,7-smooth size;
// else that smooth size. Power-of-two passes and no divisions in the chirp's indices: on an
// H100 (f32), 1009 with M = 2048 took 0.62x the time of M = 2025 and 257 with 1024 0.65x of
// 525; 17 with 64 the time of 35. Beyond one kernel the larger M costs more passes' worth
// (4099: 16384 took 4.4x the time of 8232).
// bench/results/2026-11-22-nvidia-h100-fftc_run_probes.log. An M beyond one kernel that has no
// four-step split into two local-fitting halves (fourStepSplit) gives way to the least smooth
// size that has one (bluesteinFourStep: three passes; f64 999983 -> 2016000 = 1400 x 1440).
int64_t bluesteinSize(int64_t n, Precision precision);
// The radices of Rader's convolution of a prime n (rader.fdl raderLocal, one kernel):
// raderConvolutionRadices(n - 1) when n >= 31 (smaller primes are radices of their own), n - 1 is planned by radices
// (plannedByRadices: prime factors at most 29) and the kernel's three local arrays of n - 1 (the
// forward FFT's result stays for X_0 while the inverse FFT ping-pongs) fit the request's budget
// with at most 1024 work-items; {} otherwise (Bluestein).
Radices raderRadices(int64_t n, const FftRequest& request);
// Rader as a pass of a one-kernel plan (issue 23 item 2; common.fdl's raderStockPass, fft.fdl
// stockhamLocal -D rsR): a size N = p^k·m whose one prime factor above kLargestRaderRadix, p,
// has p - 1 planned by radices (raderPassPrime), m planned by radices, N not prime. Its radices
// are [p, ..., p] then chooseRadices(m) (the Rader passes first: the first reads global memory
// with no twiddles), the convolution's raderConvolutionRadices(p - 1); every pass's
// butterflies, the convolution FFTs' (p - 1)·m / r among them, on `workItems` work-items
// (the widest pass's, at most 1024, at most kRaderWorkItems where a radix is a Rader radix,
// fewer while the widest butterfly does not fit the registers: butterflyInRegisters). It fits
// where its three local storages do (raderPassLocalBytes: rows of one work-group, F, as many
// as fit in 256 work-items). Where Bluestein took 2961 = 47·63 (M = 6000 in three FFTs through
// global memory) and 2384 = 149·16 (M = 4800): one kernel, one read and one write of the data.
bool raderPassPrime(int64_t p);
struct RaderPassPlan {
  Radices radices;      // of N, the Rader passes first
  Radices convolution;  // of p - 1 (rsR)
  int64_t workItems = 0;
  int64_t fftsPerGroup = 1;
  // the widest butterfly's radix in a work-item, of N's other passes or the convolution (a
  // Rader radix of the convolution, a pass over the work-group: its own convolution's widest);
  // raderPassMinBlocks' register estimate
  int64_t widest = 2;
};
std::optional<RaderPassPlan> raderPassPlan(int64_t n, const FftRequest& request);
// The local memory of a work-group of F rows of N with a Rader pass of the prime p, as code
// generation allocates it: the pass's input and Y (n = F·N elements each) and the convolution
// FFTs' two arrays of F·(p - 1)·N/p in three storages (Y takes the FFT array that does not
// hold A; docs/codegen.md, reuse across sizes), each declared with its largest member's padded
// size (localFits' padding): 3 x max(padded F·N, padded F·(p - 1)·N/p) elements. f32 2961 =
// 47·63: 3 x 3079 x 8 = 73896 bytes. Four storages where the convolution has a Rader radix,
// itself a Rader pass (common.fdl raderBatchFftR): 2384 = 149·16, 148 = [4, 37]:
// 4 x 2532 x 8 = 81024 (the kernel's 80768).
int64_t raderPassLocalBytes(int64_t n, int64_t p, int64_t fftsPerGroup, Precision precision);
// The blocks a multiprocessor a CUDA Rader-pass kernel asks of ptxas (__launch_bounds__' second
// argument, FftRequest::minBlocksPerSm; 0: none), sm_90's 65536 registers, 64 warps and 32
// blocks, the shared memory `budget` + 1 KiB a multiprocessor (1 KiB reserved a block). Where
// by the estimate of its widest butterfly (butterflyRegisters, `widest`) the registers hold
// fewer blocks than the shared memory `localBytes` allows and fewer than 768 threads (three
// eighths of 2048, wideSplitPays' bound), the fewest blocks that reach 768 threads, at most
// what the shared memory allows; fewer while a thread would keep under half of the estimate
// (the butterfly's values once, its temporaries spilled). The evidence (H200, f32,
// --min-blocks; ptxas sm_90): 2961 = [47, 9, 7] on 256 threads, 116 registers, 2 blocks: 3 (80
// registers, 108 bytes spilled) 1.39 -> 1.13x cuFFT's time; 2384 = [149, 16], 183, 1 block: 2
// (128, 968 bytes) 1.89 -> 1.35, 3 (80, 2584) 2.01. Sizes whose registers already keep 768
// threads (f32 514: 49 registers, 4 blocks of 257; 488, 212, 1016) get none: 514 with 2 or 3
// blocks asked took 64 registers, 3 blocks, 0.71 -> 0.83x.
int64_t raderPassMinBlocks(int64_t threads, int64_t localBytes, int64_t widest,
                           const FftRequest& request);
// The radices of Rader's convolution FFTs of m = N - 1 (rader_radices.cpp): chooseRadices(m)
// unless another list takes at most 3/4 of its issue slots per row (its passes' butterflies
// over the row's m / min(rs) work-items, which idle through a pass of few large butterflies:
// 30 = [2, 15] -> [6, 5]).
Radices raderConvolutionRadices(int64_t m);
int64_t largestPrimeFactor(int64_t n);  // 1 for n = 1

// Whether a local-memory kernel can hold F rows of n: two arrays of F rows (or `arrays`),
// padded by one element in 16 unless F·n is odd (CodegenOptions::localPadEvery), in
// localMemoryFor(request, F) bytes.
bool localFits(int64_t n, const FftRequest& request, int64_t fftsPerGroup = 1, int64_t arrays = 2);
// Whether the passes of rs can share one local array (PlanChoice::localReuseInPass): every
// pass from local memory to local memory (all but the first and the last) has the same radix q
// and so n / q butterflies, the work-group's size, so that every work-item reaches the barrier
// between the pass's reads and its writes once; at most 1024 work-items. The first pass (from
// global memory) and the last (to it) may be narrower when their radix divides q, each
// work-item then looping over q / r of their butterflies (16384 f32 = [4, 16, 16, 16] in 1024
// work-items of 64 registers; [32, 16, 32] spilled). With two radices, n / min(rs) work-items.
// uniformOneArrayWorkItems: that work-group size, 0 when rs has no such form.
int64_t uniformOneArrayWorkItems(const Radices& rs);
// Any radices (three at least, no Rader radix) in one array: the passes from local memory to
// local memory whose n / r butterflies are not the work-group's w give work-item t the
// butterflies t, t + w, ... (common.fdl's onWorkItems: all read before the barrier, padded rows
// not stored), the first and last pass loop over theirs. w: a multiple of 32 up to 1024 whose
// passes' values stay in registers (k butterflies of radix r held at once: (2r + (k-1)r)
// values, in 65536 / w registers), the least time Σ ceil(n / r / w) · butterflyWork(r), then
// the fewest work-items (16807 = 7^5: 832, three butterflies a pass; f32 8448 [8, 11, 8, 12]:
// 768). 0 when none fits.
int64_t loopedOneArrayWorkItems(const Radices& rs, Precision precision);
// The one array's work-group size: uniformOneArrayWorkItems, else loopedOneArrayWorkItems.
int64_t oneArrayWorkItems(const Radices& rs, Precision precision = Precision::F32);
bool oneArrayRadices(const Radices& rs, Precision precision = Precision::F32);
// Whether a hierarchical tile stage over the radices rs surely keeps one local array under
// PlanChoice::localReuseInPass (and has two without): every pass after the first, from local
// memory to local memory (the first stage's last pass too: its result leaves transposed), has
// n / rs[1] butterflies (the radices after the first are equal), the tile row's work-items,
// each reading its elements, waiting, then writing the array it read; at most 1024 of them;
// two radices at least. The first pass reads global memory: its radix may be larger (fewer
// butterflies than work-items) or smaller (a work-item loops over several: [4, 16, 16]). A
// request's levels count one array for these tiles (chooseHierarchical); code generation may
// merge others too.
bool oneArrayTile(const Radices& rs);
// The work-items of one row of a hierarchical tile over rs (the stage's launch shape, F of
// them): n / rs[1] for oneArrayTile, else n / min(rs), one per butterfly of the widest pass.
int64_t tileWorkItems(const Radices& rs);
// A tile of several columns beyond 48 KiB for a level whose tiles within it are narrower than
// 64 bytes, under a larger budget (a CUDA device's): its columns, 0 when none fits
// (plan_heuristics.cpp), with wideTileRadices' radices [r0, R, .., R] ({} when n has none).
int64_t wideTileColumns(int64_t n, const std::vector<int64_t>& rs, int64_t rows,
                        const FftRequest& r);
Radices wideTileRadices(int64_t n);
// An N-D column tile narrower than wideTileColumns' where it has none: at least a 32-byte
// sector of columns in one array, within a third of the budget on 512 work-items or the whole
// budget on 1024 (planner_nd.cpp's useLocalPasses); 0 when none fits.
int64_t sectorTileColumns(int64_t n, const std::vector<int64_t>& rs, int64_t rows,
                          const FftRequest& r);
// Whether one row of n = prod(rs) runs in a one-array local kernel: oneArrayRadices and one
// padded array of n in the request's budget.
bool oneArrayKernelFits(const Radices& rs, const FftRequest& request);
// The radices of a one-array local kernel of n when two arrays do not fit the request's budget
// and one does: chooseRadices(n) when they qualify and each pass's butterfly stays in the
// registers of a work-group of that size (half of 65536 / work-items, at most 255), else the
// fewest passes that qualify so (then the smallest largest radix, then the largest first;
// 16384 f32 = [16, 16, 16, 4]); {} when none fits.
// Without one of those forms (every candidate's passes of unequal butterfly counts, or more
// than 1024 of them), chooseRadices(n) on loopedOneArrayWorkItems when its radices are at most
// 16 and `looped`; the same where two arrays fit but chooseRadices(n)'s two-array kernel would
// take more than 1024 work-items (localKernelFits: f32 8448 on an H200).
Radices oneArrayRadicesFor(int64_t n, const FftRequest& request, bool looped = true);
// The radices of n whose one-array kernel loops over the work-group (loopedOneArrayWorkItems,
// plan_heuristics.cpp): of the orders of radices of at most 16 in the fewest passes or one more,
// the fewest passes, the least time, the fewest work-items, the widest first pass; {} where none
// fits the registers.
Radices loopedOneArrayRadices(int64_t n, const FftRequest& request);
// Whether one row of n = prod(rs) runs in one local-memory kernel (Local, bluesteinLocal, the
// N-D local passes): localFits, and at most 1024 work-items for its widest pass (n / min(rs)).
// False for an empty list.
bool localKernelFits(const std::vector<int64_t>& rs, const FftRequest& request);
// The most rows of n elements, at most `most`, that divide `rows` and whose two padded local
// arrays fit (localFits); 1 when none above one does.
int64_t largestFittingDivisor(int64_t n, const FftRequest& request, int64_t rows, int64_t most);
// The lines of one work-group of a one-kernel FFT over lines that are the columns of a
// row-major array (adjacent lines adjacent in memory; fft_ops.cpp's column form), on local
// dimension 0 so that a warp's loads and stores take whole sectors: F = 64 bytes of elements
// (two 32-byte sectors, the hierarchical tiles' least width), else 32 bytes, at most `rows`,
// whose F x workItems work-items are at most 1024 and whose two padded, skewed local arrays
// of F lines of n fit the request's budget (beyond 48 KiB: the tile replaces F work-groups of
// one line each); 0 when none does (the lines then stay one a row of work-items).
int64_t columnTileLines(int64_t n, int64_t workItems, int64_t rows, const FftRequest& request);
// The four-step split n = n1·n2 of a line too long for local memory (planner_nd.cpp; ndLocal's
// four-step dimensions, bluesteinFourStep's M): n1 the largest divisor of n at most sqrt(n)
// whose two sizes both fit (0 when none does).
int64_t fourStepSplit(int64_t n, const FftRequest& request);
// One local pass over lines of n = Π rs elements (planner_nd.cpp): `strided` lines on local
// dimension 0, a tile at most 128 bytes wide, else contiguous rows on dimension 1; F divides
// `rows`. Returns F and appends the stage's work-group shape to stageLocal. `skewed`: the
// kernel skews its lines (PlanChoice::localRowSkew), which the two arrays' bytes count.
int64_t linePass(const FftRequest& request, const std::vector<int64_t>& rs, bool strided,
                 int64_t rows, std::vector<std::vector<int64_t>>& stageLocal,
                 bool skewed = false);

}  // namespace fftc::fftlib
