// The FFT inside larger programs: a kernel's `fft(x)` / `ifft(x)` operations (front end,
// ir/fft_operation.h) replaced by the FFT library's algorithm the planner chooses.
//
//   kernel conv(x: [[complex]N]B, h: [complex]N) =
//     map(fun row => ifft <<: map(mult) <<: zip(fft(row), h)) <<: x
//
// When the operations sit in the function of a map over B rows (each row one transform of size
// n, the rest of the row's work pointwise around them) that is in the kernel's data flow (the
// body or, recursively, an argument of a call in it; not inside another function) and the
// planner plans a batch of B transforms of n as the one-kernel local-memory FFT (fft.fdl's
// stockhamLocal), the whole row function runs in that kernel's form: a work-group per F rows,
// rowsInGroups(F, B, mapWorkgroup(0, mapLocal(1, row function))), each fft the twiddle-table
// Stockham FFT with the planner's radices (reversed for a transform of another's result: an
// odd count of transforms before it; in the order whose passes between local arrays keep every
// work-item busy where the plan keeps one local array, oneArrayChain), so the maps before,
// between and after the
// transforms fuse into the transforms' first and last passes (one stage; the maps after a
// pass by lowerFftFused's mapIntoProducer, so the kernel has the passes of its transforms and
// no others; a transform's last pass and the next one's first, of the same radix then, are
// one pass by mapZipFusion). When the planner
// plans them as the hierarchical FFT instead (too large for one work-group), the row function
// is split into its transforms and the pointwise work between them: each transform is the
// planner's kernels (one per level), the work before the first transform is read in its first
// kernel, the work after a transform is done in its last kernel, pads and crops of the rows are
// views (fft_ops_passes.h). Otherwise each operation becomes the twiddle-table Stockham FFT in
// place, lowered to passes over global memory (sizes with a prime factor above
// kLargestDirectPrime: Bluestein's FFT).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"
#include "fftlib/plan/plan_choice.h"
#include "fftlib/plan/plan_request.h"

namespace fftc::fftlib {

struct ExpandedFftOps {
  compiler::frontend::Kernel kernel;  // typed; no fft operation left
  bool oneKernel = false;  // a row map is in the one-kernel local-memory form
  bool multiPass = false;  // a row map is in the multi-pass form (fft_ops_passes.h)
  // a row map over the columns of row-major arrays is in the one-kernel form as a tile of
  // adjacent columns on local dimension 0 (fft_ops.cpp: columnsOfArrays, columnTileLines)
  bool columnTiles = false;
  // The one-kernel forms' work-group shapes (CodegenOptions::stageLocal) in the order they
  // run: {work-items per row, rows per group}, as the planner's Local plans ({columns, work-items
  // per column} for a column tile). Code generation
  // applies them when they are as many as the stages (every stage one such form).
  std::vector<std::vector<int64_t>> stageLocal;
  // One line per operation: "fft 1024 f32: radices 16, 16, 4 (one kernel, 1 row per group)".
  std::vector<std::string> operations;
  // What the multi-pass forms' hierarchical plans ask of code generation, as the planner's own
  // plans do (PlanChoice::localRowSkew, localReuseInPass): the tiles' rows one element apart in
  // the banks, each tile's passes in one local array where legal (the planner's tile widths
  // count one array). Applied when no row map is in the one-kernel form (fftOpsOptions), whose
  // kernels stay as they were; the row skew also where a column tile is (its F columns are F
  // rows of local memory read at one offset by adjacent work-items).
  bool localRowSkew = false;
  bool localReuseInPass = false;
  // A one-kernel form keeps its rows in one local array, as the planner's Local plan of its
  // transforms (LocalChoice::oneArray): its passes share it (CodegenOptions::localReuseInPass).
  bool oneArray = false;
  // A one-kernel form holds a transform of another's result (the convolution: forward, product,
  // inverse): its passes share one local array where code generation finds it legal
  // (CodegenOptions::localReuseInPass), a barrier more a pass for more blocks an SM. On an H200
  // (pipeline_bench --local-reuse, bench/results/2026-11-29-nvidia-h200-session19-conv_one_array.csv)
  // never slower: conv f32 4096 1.82 -> 2.17x faster than cuFFT's pipeline, 512 2.31 -> 2.47.
  bool chainInOneArray = false;
  // Each one-kernel row form's local padding (PlanChoice::localPadding, 0: code generation's
  // 16): applied when every form of the kernel asks for the same one (fftOpsOptions).
  std::vector<int64_t> localPaddings;
  // The rules skipZeroRows applied before the forms were chosen, "rule @ path" in order
  // (rewrites/named_strategies.h: the zero rows of a padded outer dimension not transformed).
  std::vector<std::string> rewrites;
  // Every row map that may take the one-kernel form (its transforms of one size the planner
  // plans by radices), in the order the expansion meets them (stages in the order they run): the
  // request its plan is chosen for (size, batch, precision, limits), and whether its rows are
  // the columns of arrays (a column tile). What FftOpsOptions::forms indexes.
  std::vector<FftRequest> formRequests;
  std::vector<bool> formColumns;
  int64_t minBlocksPerSm = 0;  // FftOpsOptions::minBlocksPerSm, applied by fftOpsOptions
};

// The plan of one one-kernel row form (a tuner's choice; fftlib/tune/fft_ops_space.h): the
// radices of its first transform (a transform of another's result takes them reversed), the
// work-items per row and the rows per work-group (FftRequest::workgroupSize, fftsPerGroup; a
// column tile's columns stay columnTileLines'). Empty radices and zeros: the planner's choice.
struct FftOpsForm {
  std::vector<int64_t> radices;
  int64_t workgroupSize = 0, fftsPerGroup = 0;
  bool isDefault() const { return radices.empty() && workgroupSize == 0 && fftsPerGroup == 0; }
};

// What a caller may choose of the expansion (an experiment, a tuner's search).
struct FftOpsOptions {
  // The largest radix of a transform of another's result in one kernel (the convolution's
  // forward and inverse; chainRadices): 16 gives them the plain FFT's radices (chooseRadices).
  int64_t chainRadix = kChainDefaultRadix;
  // Whether the wider radices must keep their butterfly in the registers of the plan's
  // work-group by the planner's estimate (butterflyInRegisters); false: taken anyway (8192 f32
  // [32, 16, 16] on 512 work-items: 128 registers, 72 bytes spilled by ptxas sm_90).
  bool chainRegisterBound = true;
  // Whether rewrites::skipZeroRows runs first: a program that pads a matrix's rows with zero
  // rows and transforms its rows and then its columns transforms the non-zero rows only and
  // reads the padding as the columns' (examples/conv2d_padded.fdl). False: the program's order.
  bool skipZeroRows = true;
  // Each candidate row map's plan, in the order of ExpandedFftOps::formRequests (missing or
  // default: the planner's). A choice the planner rejects, or whose plan is not the one-kernel
  // form, throws UserError (a tuner's invalid configuration); the chain's wider radices
  // (chainRadix) are not tried for a row map given a plan.
  std::vector<FftOpsForm> forms;
  // CUDA: the blocks of each one-kernel form an SM must hold at once (__launch_bounds__' second
  // argument, CodegenOptions::minBlocksPerMultiprocessor); 0: none.
  int64_t minBlocksPerSm = 0;
};

// Whether the kernel holds fft or ifft operations.
bool hasFftOps(const compiler::frontend::Kernel& kernel);

// The kernel with its operations replaced (see above). `limits` gives the target and the local
// memory budget (FftRequest::target, localMemoryBytes; the rest is ignored). Throws
// backends::UserError for an operation whose size is not a constant (give it by -D) or whose
// argument is not a [complex]n.
ExpandedFftOps expandFftOps(const compiler::frontend::Kernel& kernel, const FftRequest& limits = {},
                            const FftOpsOptions& choices = {});

// The strategy an expanded kernel is lowered by: lowerFft, as the planner's kernels, with the
// maps after a pass fused into it (rewrites/named_strategies.h). The expansion's work-group
// shapes are those of this strategy's (or lowerFft's) kernels.
inline constexpr std::string_view kFftOpsStrategy = "lowerFftFused";
inline bool fftOpsShapesApply(std::string_view strategy) {
  return strategy == kFftOpsStrategy || strategy == "lowerFft";
}

// The code generation options of an expanded kernel lowered by `strategy` (empty:
// kFftOpsStrategy): the expansion's work-group shapes where they apply, twiddle tables as
// buffers, and the multi-pass forms' layout options above; `options` holds the caller's.
void fftOpsOptions(const ExpandedFftOps& expanded, std::string_view strategy,
                   compiler::codegen::CodegenOptions& options);

// An expanded kernel lowered by `strategy` (empty: kFftOpsStrategy) and
// compiled with the expansion's work-group shapes and, as the planner's plans, twiddle tables
// as buffers (a __constant table read at indices that differ across a warp serializes on
// NVIDIA): what `fftc compile` and `fftc exec` do with a kernel that has operations.
compiler::pipeline::Built buildExpanded(const ExpandedFftOps& expanded, std::string_view strategy,
                                        compiler::pipeline::Target target,
                                        compiler::codegen::CodegenOptions options = {});

}  // namespace fftc::fftlib
