// The planner's input: an FFT request (size, batch, precision, direction, variant, tuning
// parameters), the device limits it is planned under, their names on the command line, and the
// checks every plan shares. The heuristics (plan_choice.h) and compilation (planner.h) read it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/pipeline/pipeline.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_callbacks.h"

namespace fftc::fftlib {

enum class Precision { F32, F64 };
std::string precisionName(Precision p);           // "f32", "f64"
Precision parsePrecision(std::string_view text);  // UserError unless f32 | f64
// The bytes of one complex element: 8 (f32) or 16 (f64).
int64_t complexBytes(Precision p);
// "[a, b, c]": an integer list as the planner's messages and descriptions print it.
std::string listText(const std::vector<int64_t>& v);
// The product of v's elements (1 for an empty list): a size from its radices or dimensions.
int64_t product(const std::vector<int64_t>& v);

std::string directionName(Direction d);           // "forward", "inverse"
Direction parseDirection(std::string_view text);  // UserError unless forward | inverse

// Stockham: fft.fdl `stockham`; StockhamTwiddle: `stockhamTwiddle` (twiddle tables);
// CooleyTukey: `cooleyTukey`; Hierarchical: hierarchical.fdl `hierarchical` (four-step);
// Bluestein: bluestein.fdl `bluestein`; Local: fft.fdl `stockhamLocal` (the whole transform in
// one kernel, one work-group per group of FFTs, the passes through local memory).
enum class Variant { Auto, Stockham, StockhamTwiddle, CooleyTukey, Hierarchical, Bluestein, Local };
// "auto", "stockham", "twiddle", "cooley-tukey", "hierarchical", "bluestein", "local".
std::string variantName(Variant v);
// Accepts those names and "stockham-twiddle", "cooleytukey", "ct"; UserError otherwise.
Variant parseVariant(std::string_view text);
// "N" or "NxM[xK...]" (x or X; outermost first): the dimensions. UserError naming `what` (an
// option) unless each is a positive integer and their product at most 2^40.
std::vector<int64_t> parseDims(std::string_view text, std::string_view what);

// Local memory the local-memory kernels may use per work-group by default: 48 KiB, what
// NVIDIA's OpenCL and CUDA's static __shared__ arrays allow.
inline constexpr int64_t kLocalMemoryBytes = 48 * 1024;

// What the device lets a plan take. It enters the planner once, as an argument of planFft and
// choosePlan, where the device is known (CUDA: cudaPlanLimits, the opt-in shared memory); the
// request's own settings win over it.
struct PlanLimits {
  // Local memory per work-group when FftRequest::localMemoryBytes is 0.
  int64_t localMemoryBytes = kLocalMemoryBytes;
};

struct FftRequest {
  int64_t size = 1;  // N >= 1 (for N-D transforms: the product of dims)
  // Multi-dimensional transforms (nd.fdl, 2 to 4 dimensions): the dimensions, outermost first,
  // the last one contiguous (row-major, like FFTW); `size` must then be their product.
  // Empty or one element: the 1D transform of `size`.
  std::vector<int64_t> dims;
  // N-D only: which dimensions share a pass over global memory, as nd.fdl's group bounds
  // `gs` (0 = g_0 < g_1 < ... < g_P = D; dimensions g_p .. g_{p+1}-1 form pass p). Empty: the
  // planner chooses (docs/fft-api.md). A tuning parameter.
  std::vector<int64_t> passGroups;
  // Real transforms (nd.fdl r2c/c2r, 1D and N-D): Forward is R2C (batch x N reals in,
  // batch x N/n_last x (n_last/2 + 1) complex values out, FFTW's and cuFFT's half spectrum),
  // Inverse is C2R (the reverse, unnormalized unless `scale`).
  bool real = false;
  int64_t batch = 1;  // B >= 1 transforms of N contiguous elements each
  Precision precision = Precision::F32;
  Direction direction = Direction::Forward;
  bool scale = false;  // multiply by 1/N (usually with Inverse); false: unnormalized
  Variant variant = Variant::Auto;
  // Optional radix list. Stockham, twiddle, Cooley-Tukey: the passes, product N. Hierarchical:
  // split into rs1 | rs2 where the running product first reaches sqrt(N), product N.
  // Bluestein: the radices of M, product M >= 2N - 1. Auto with radices: Local when it fits,
  // else the twiddle variant.
  std::vector<int64_t> radices;
  compiler::pipeline::Target target = compiler::pipeline::Target::OpenCL;
  // Work-group shape of the local-memory kernels (Local, and Hierarchical's row and column
  // kernels): work-items per FFT and FFTs per work-group. 0: the planner chooses. Tuning
  // parameters (tuner/, issue 9); the planner rejects values the kernel cannot use.
  int64_t workgroupSize = 0;
  int64_t fftsPerGroup = 0;
  // The local memory one work-group of the local-memory kernels may take (the Local variant,
  // Hierarchical's levels, Bluestein in one kernel, the N-D local passes), in bytes; 0: the
  // device's, PlanLimits::localMemoryBytes (by default kLocalMemoryBytes). CUDA kernels above
  // 48 KiB take dynamic shared memory, opted into at launch.
  int64_t localMemoryBytes = 0;
  // CUDA: the blocks of each kernel that must fit one SM at once, the second argument of its
  // __launch_bounds__ (CodegenOptions::minBlocksPerMultiprocessor: ptxas keeps the registers
  // to 64K / (blocks x threads), spilling if it must); 0: the plan's own (LocalChoice::
  // minBlocksPerSm: none but for a Rader pass), 1: no bound beyond one block. A tuning
  // parameter (issue 22: two blocks of a one-kernel 8192 f32 per SM, so that one block's loads
  // overlap the other's barriers). Ignored by OpenCL.
  int64_t minBlocksPerSm = 0;
  // CUDA sm_90: the whole transform in one kernel whose rows each take a thread-block cluster
  // of this many work-groups, the passes through their distributed shared memory (fft.fdl
  // stockhamCluster: docs/fft-api.md, "Thread-block clusters"); 0: none. 1D complex only, an
  // explicit request (the planner does not choose it yet).
  int64_t clusterBlocks = 0;
  // Hierarchical: the number of levels (kernels), 2 or 3; 0: the planner chooses. A tuning
  // parameter; refused for the other variants.
  int64_t levels = 0;
  // Hierarchical: the levels' sizes n1, n2[, n3], outermost first (product N; with radices,
  // products of consecutive radices); empty: the planner's split (splitLevels). A tuning
  // parameter: with radices alone a split is fixed by a rule, and either side of the balance
  // can be the faster one.
  std::vector<int64_t> levelSizes;
  // The advanced layouts of the input and the output (FFTW's plan_many); default: dense, the
  // batch outermost. The output's must not map two elements to one address.
  DataLayout inLayout, outLayout;
  // Lay the generated source out with clang-format (readable; slower to compile).
  bool format = true;
  // The rewrite strategy (strategy-language text); empty: lowerFft. When it fails to lower or
  // compile, the plan falls back to lowerDefault and records why.
  std::string strategy;
  // Load and store callbacks (fft_callbacks.h): applied to every input element before the
  // transform and to every output element after it (after the scaling), fused into the
  // transform's first and last pass. 1D complex transforms with dense layouts only.
  FftCallback pre, post;

  // A stable text of everything above: the key of the plan cache.
  std::string key() const;
};

// The request as the planner plans it under `limits`: localMemoryBytes filled in when 0. The
// only place device limits enter a request (planFft and choosePlan call it).
FftRequest withLimits(const FftRequest& request, const PlanLimits& limits);

// request.dims when it has two or more dimensions, else {request.size}.
std::vector<int64_t> requestDims(const FftRequest& request);
// The dims of the request's input (`input`) or output array without the batch: requestDims,
// with n_last/2 + 1 on the complex side of a real transform (the half spectrum).
std::vector<int64_t> sideDims(const FftRequest& request, bool input);
// The codegen layout (batch dimension first) of the input (`input`) or output of a request,
// none for the default layout. UserError: an embed of the wrong length or smaller than a
// dimension, a stride below 1, a negative dist, an output layout that maps two elements to one
// address, more than 2^31 - 1 elements in the buffer.
std::optional<compiler::codegen::BufferLayout> bufferLayout(const FftRequest& request, bool input);
// "embed [..], stride s, dist d" (the defaults filled in) for describe() and messages.
std::string layoutText(const FftRequest& request, bool input);

// The checks of a 1D complex request (UserError): N < 1, batch < 1, a radix < 2, more than
// 2^30 elements (32-bit indices), dims that disagree with the size, levels or level sizes
// that no hierarchical plan has. The variant-specific checks are the heuristics' (choosePlan).
void checkRequest(const FftRequest& request);
// The checks of an N-D or real request over its dimensions `dims` (UserError): a dimension
// below 1, a size that is not their product, batch < 1, more than 2^30 elements, and the
// parameters N-D and real plans choose themselves (variant, radices, work-group shape, levels).
void checkNdRequest(const FftRequest& request, const std::vector<int64_t>& dims);

// The request's local memory per work-group: FftRequest::localMemoryBytes, else
// kLocalMemoryBytes (planFft and choosePlan have filled it in from PlanLimits by then).
int64_t localMemoryBudget(const FftRequest& request);
// The local memory a work-group of `rows` rows may take: the request's budget for one row;
// several rows at most kLocalMemoryBytes of it (the hierarchical tiles may pass it where that
// saves a level: plan_heuristics.cpp wideTileColumns, issue 22). Wider groups in more memory cost occupancy
// (H100, 2026-11-22: f64 N = 1024 with 2 rows in 69 KB took 1.21x cuFFT's time, with one row
// in 35 KB 1.06x; 2^18 as two levels of 16-column tiles 3.7x, three levels of 48 KiB 1.5x),
// while one long row in more memory saves passes over global memory (4096 f32 in one kernel
// of 70 KB: 1.05x, as two levels: 2.1x).
// bench/results/2026-11-22-nvidia-h100-local_memory_budget.csv.
int64_t localMemoryFor(const FftRequest& request, int64_t rows);

// The accuracy bar of CLI.md / docs/fftlib.md for linf_error against FFTW in long double:
// 2e-6 + 5e-7 log10(N) (f32) or 5e-15 + 5e-16 log10(N) (f64), pyvkfft's, for every N
// (Bluestein's sizes included).
double fftTolerance(int64_t n, Precision precision);

}  // namespace fftc::fftlib
