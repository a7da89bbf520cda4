// The FFT planner: a request (size, batch, precision, direction, scaling, variant, optional
// radices) -> a variant and radix lists chosen by heuristics -> the FFT library's .fdl program
// instantiated with -D bindings -> lowered (lowerFft, else lowerDefault) and compiled by the
// normal pipeline. Compiled plans are cached in this process (keyed by the request); the
// OpenCL binary cache keeps the device builds. docs/fft-api.md describes the heuristics.
//
//   FftRequest r;  r.size = 4096;  r.batch = 16;
//   std::shared_ptr<const CompiledFft> p = planFft(r);   // throws backends::UserError
//   fmt::print("{}", p->describe());
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"
#include "fftlib/fftw_reference.h"

namespace fftc::fftlib {

enum class Precision { F32, F64 };
std::string precisionName(Precision p);  // "f32", "f64"
Precision parsePrecision(std::string_view text);  // UserError unless f32 | f64

std::string directionName(Direction d);  // "forward", "inverse"
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

struct FftRequest {
  int64_t size = 1;           // N >= 1 (for N-D transforms: the product of dims)
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
  int64_t batch = 1;          // B >= 1 transforms of N contiguous elements each
  Precision precision = Precision::F32;
  Direction direction = Direction::Forward;
  bool scale = false;         // multiply by 1/N (usually with Inverse); false: unnormalized
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
  // default, kLocalMemoryBytes. CUDA kernels above 48 KiB take dynamic shared memory, opted
  // into at launch (CudaPlan::create raises 0 to the device's share: cudaLocalMemoryBytes).
  int64_t localMemoryBytes = 0;
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

  // A stable text of everything above: the key of the plan cache.
  std::string key() const;
};

// The heuristic part of the planner, before any compilation.
struct PlanChoice {
  Variant variant = Variant::Stockham;
  std::vector<int64_t> radices;  // Stockham/twiddle/Cooley-Tukey: rs; Bluestein: rsM
  // Hierarchical: the levels' radices, rs1 the outermost (n_i = prod(rs_i), N = n1·n2[·n3]);
  // rs3 empty for two levels. Each level is one stage of F_i columns per work-group.
  std::vector<int64_t> rs1, rs2, rs3;
  // Per stage, the work-group size the plan launches with (dimension 0 first); empty: the
  // generated kernel's own. Local: {work-items per FFT, FFTs per group}; Hierarchical: {F
  // columns, n_i / min(rs_i) butterflies}. The kernels' loops are correct for any size but a
  // barrier's row loop, whose extent this keeps.
  std::vector<std::vector<int64_t>> stageLocal;
  int64_t bluesteinM = 0;        // Bluestein: M = prod(radices)
  int64_t fftsPerGroup = 0;      // Local: F, the FFTs of one work-group; Hierarchical: the
                                 // least F of its stages
  int64_t workgroupSize = 0;     // Local: work-items per FFT (0: one per butterfly)
  std::string file;              // "fft.fdl", "hierarchical.fdl", "bluestein.fdl"
  std::string kernel;            // the kernel of that file
  std::map<std::string, compiler::frontend::DefineValue> defines;  // rs/rs1,rs2/N,rsM, dir, scale, B
  // N-D (nd.fdl): per dimension, outermost first, its radices (Stockham's, or those of
  // Bluestein's convolution size M) and whether it is Bluestein's. Empty for 1D plans.
  std::vector<int64_t> dims;
  std::vector<int64_t> passGroups;  // nd.fdl's gs
  std::vector<std::vector<int64_t>> dimRadices;
  std::vector<bool> dimBluestein;
  // ndLocal: per dimension, n1 of the four-step split n = n1·n2 (two passes), 0 for one pass
  std::vector<int64_t> fourStepSplits;
  bool planePass = false;  // ndLocal: the innermost two dimensions share one pass
};

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

// Validates the request (UserError: N < 1, batch < 1, a radix < 1 or whose product is wrong,
// a size too large for 32-bit indices, a multi-dimensional request) and chooses.
PlanChoice choosePlan(const FftRequest& request);
// A hierarchical choice's level sizes n1, n2[, n3] (the products of rs1, rs2, rs3); empty for
// the other variants.
std::vector<int64_t> levelSizes(const PlanChoice& choice);
// The N-D part of choosePlan (planner_nd.cpp): each dimension by the 1D heuristics
// (Stockham when smooth, else Bluestein), the kernel nd2/nd3/nd4 of nd.fdl.
PlanChoice chooseNdPlan(const FftRequest& request);
// Real transforms (request.real), 1D and N-D: the last dimension's real lines by the half-size
// complex FFT when even, by the full one when odd; the others on the half spectrum.
PlanChoice chooseRealPlan(const FftRequest& request);
// request.dims when it has two or more dimensions, else {request.size}.
std::vector<int64_t> requestDims(const FftRequest& request);
struct CompiledFft;
// Lines of CompiledFft::describe (planner_nd.cpp): the dimensions of an N-D plan, and the
// number of passes over global memory (stages, and bytes moved in units of one read and one
// write of the whole array).
std::string describeDims(const PlanChoice& choice);
std::string describePasses(const CompiledFft& plan);

// The radices of n when n is 2,3,5,7-smooth: the fewest passes with radices <= 16, power-of-two
// radices first (largest first, bits spread evenly), then the others; {} for n = 1.
// UserError when n has another prime factor.
std::vector<int64_t> chooseRadices(int64_t n);
bool isSmooth(int64_t n);                 // every prime factor in {2, 3, 5, 7}
int64_t smoothSizeAtLeast(int64_t n);     // the smallest 2,3,5,7-smooth integer >= n
// Bluestein's convolution size M >= 2N - 1: the next power of two when its one kernel fits
// 48 KiB of local memory, or when it is at most 10% above the smallest 2,3,5,7-smooth size;
// else that smooth size. Power-of-two passes and no divisions in the chirp's indices: on an
// H100 (f32), 1009 with M = 2048 took 0.62x the time of M = 2025 and 257 with 1024 0.65x of
// 525; 17 with 64 the time of 35. Beyond one kernel the larger M costs more passes' worth
// (4099: 16384 took 4.4x the time of 8232). bench/results/2026-11-22-nvidia-h100-fftc_run_probes.log.
int64_t bluesteinSize(int64_t n, Precision precision);
int64_t largestPrimeFactor(int64_t n);    // 1 for n = 1

// Local memory the local-memory kernels may use per work-group by default: 48 KiB, what
// NVIDIA's OpenCL and CUDA's static __shared__ arrays allow.
inline constexpr int64_t kLocalMemoryBytes = 48 * 1024;
// The request's local memory per work-group: FftRequest::localMemoryBytes, else
// kLocalMemoryBytes.
int64_t localMemoryBudget(const FftRequest& request);
// The local memory a work-group of `rows` rows may take: the request's budget for one row;
// several rows at most kLocalMemoryBytes of it. Wider groups in more memory cost occupancy
// (H100, 2026-11-22: f64 N = 1024 with 2 rows in 69 KB took 1.21x cuFFT's time, with one row
// in 35 KB 1.06x; 2^18 as two levels of 16-column tiles 3.7x, three levels of 48 KiB 1.5x),
// while one long row in more memory saves passes over global memory (4096 f32 in one kernel
// of 70 KB: 1.05x, as two levels: 2.1x). bench/results/2026-11-22-nvidia-h100-local_memory_budget.csv.
int64_t localMemoryFor(const FftRequest& request, int64_t rows);
// Whether a local-memory kernel can hold F rows of n: two arrays of F rows, padded by one
// element in 16 (CodegenOptions::localPadding), in localMemoryFor(request, F) bytes.
bool localFits(int64_t n, const FftRequest& request, int64_t fftsPerGroup = 1);
// Whether one row of n = prod(rs) runs in one local-memory kernel (Local, bluesteinLocal, the
// N-D local passes): localFits, and at most 1024 work-items for its widest pass (n / min(rs)).
// False for an empty list.
bool localKernelFits(const std::vector<int64_t>& rs, const FftRequest& request);
// The most rows of n elements, at most `most`, that divide `rows` and whose two padded local
// arrays fit (localFits); 1 when none above one does.
int64_t largestFittingDivisor(int64_t n, const FftRequest& request, int64_t rows, int64_t most);

// The accuracy bar of CLI.md / docs/fftlib.md for linf_error against FFTW in long double:
// 2e-6 + 5e-7 log10(N) (f32) or 5e-15 + 5e-16 log10(N) (f64), doubled when N has a prime
// factor above 13.
double fftTolerance(int64_t n, Precision precision);

// One stage of a compiled plan with its work sizes evaluated.
struct PlanStage {
  std::string kernel;
  std::vector<std::string> args;
  std::vector<int64_t> global, local;  // local empty: the driver chooses
  int64_t bytesMoved = 0;  // its non-table buffer arguments, each read or written once
  int64_t dynamicLocalBytes = 0;  // CUDA: the dynamic shared memory of its launch
};

struct CompiledFft {
  FftRequest request;
  PlanChoice choice;
  std::string strategy;          // "lowerFft" (or the request's), "lowerDefault" when it failed
  std::string fallbackReason;    // why the first strategy failed (empty when it did not)
  compiler::codegen::CompiledKernel compiled;
  std::vector<PlanStage> stages;
  int64_t bytesMoved = 0;        // sum over the stages
  std::string inputBuffer, outputBuffer;  // names in compiled.buffers
  // True when every stage that reads the input runs before the first that writes the output:
  // in-place execution can then pass one buffer as both.
  bool inPlaceSafe = false;

  double flopsPerBatch() const;  // 5 N log2 N x batch
  std::string describe() const;  // the plan as text (fftc fft prints it)
};

// choosePlan + compile through the pipeline, cached in-process by request.key().
// UserError for bad requests; ir::CompileError when neither strategy compiles.
std::shared_ptr<const CompiledFft> planFft(const FftRequest& request);

// Drops the in-process cache (tests).
void clearPlanCache();
size_t planCacheSize();

// The text of an FFT library file embedded at build time ("fft.fdl", ...).
std::string_view librarySource(std::string_view file);

}  // namespace fftc::fftlib
