// Code generation: a typed low-level kernel (frontend::Kernel or an ir::Lambda) becomes a module
// of device kernels (one per stage), its manifest (buffers, stages, work sizes), table data,
// a views dump and the NAME.hpp header of CLI.md.
//
//   CodegenOptions o;  o.dialect = std::make_shared<backends::OpenCLDialect>();
//   CompiledKernel ck = compileKernel(*program.kernel("fft"), o);
//   writeFile("fft.cl", ck.source);  writeFile("fft.json", manifestText(ck));
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/common/c_printer.h"
#include "compiler/codegen/memory.h"  // BufferLayout
#include "compiler/codegen/table_bytes.h"
#include "compiler/frontend/frontend.h"
#include "ir/expr.h"

namespace fftc::compiler::codegen {

struct CodegenOptions {
  std::shared_ptr<const backends::CDialect> dialect;  // required (OpenCL or CUDA)
  std::string name;                // base name of the device kernels; default: the kernel's
  // Generators with constant sizes whose elements fold to constants become tables: in the
  // source (`__constant`) up to this many bytes, else a table buffer (manifest role "table").
  bool tables = true;
  int64_t constantTableMaxBytes = 4096;
  // Local arrays get one unused element after every `localPadding` elements (0: none), so that
  // the work-items of a warp reading or writing with a stride of 16 or 32 elements (an FFT
  // pass's butterflies) hit different banks instead of one.
  int64_t localPadding = 16;
  // Element i of a local array of `count` elements is stored at i + i / localPadEvery(count)
  // (0: unpadded, for arrays no longer than localPadding); the array takes
  // paddedLocalCount(count) elements. `inner` is the product of the array's extents but the
  // outermost (an FFT's row length), 0 when not known: an odd one is not padded. The strides
  // of views over such an array are products of its extents' divisors, all odd, and an odd
  // stride meets every bank before it repeats one, so padding would only cost index
  // arithmetic: (i + k) >> 4 of each access, which for rows of 625 did not fold (issue 23).
  int64_t localPadEvery(int64_t count, int64_t inner = 0) const {
    if (inner > 0 && inner % 2 == 1) return 0;
    return localPadding > 0 && count > localPadding ? localPadding : 0;
  }
  int64_t paddedLocalCount(int64_t count, int64_t inner = 0) const {
    const int64_t every = localPadEvery(count, inner);
    return every > 0 ? count + (count - 1) / every : count;
  }
  // Local arrays of one work-group statement may share storage (local_memory.h, reusePlan):
  // when every read of one comes before every write of the other in the statement's body and
  // the barrier between them is legal (in mapLocal loops only, each as long as the stage's
  // work-group), a Stockham pass reads its tile into private arrays, waits, and writes the
  // same local array: one array instead of two, one barrier more per pass. Off by default
  // (the kernels stay as they were); the FFT planner sets it when two arrays do not fit.
  bool localReuseInPass = false;
  // CUDA: the blocks of a stage that must fit one multiprocessor at once, the second argument
  // of __launch_bounds__ (ptxas then keeps registers to 64K / (blocks x work-items)); 0: none.
  // Where shared memory allows B blocks and the registers fewer, B here makes the registers
  // allow them too (or spill: the caller checks).
  int64_t minBlocksPerMultiprocessor = 0;
  // Padded local arrays of several rows (extents beyond the outermost: the row) also skip one
  // element after each row: element i at i + i / localPadEvery + i / row. A hierarchical tile
  // keeps F columns as F rows of n_i in local memory while the work-items of a warp take the F
  // rows at one offset (F on local dimension 0, for coalesced global loads): a padded row of 256
  // or 512 f32 elements is a multiple of 16 float2, so the F rows met in the same banks (8-way
  // conflicts on every access of f32 2^17's two-level tiles, 16 wavefronts a warp instead of 2).
  // Off by default; the FFT planner sets it for hierarchical plans (PlanChoice::localRowSkew).
  bool localRowSkew = false;
  // With localRowSkew, a row of an array of F rows skips max(1, 128 / (F x element bytes))
  // elements instead of one, so that the F rows' starts spread over the 32 banks: a column tile
  // of the FFT operations (fftlib/plan/fft_ops.cpp) has F = 4 f32 columns whose work-items take
  // 17 elements apart in a row (a radix-16 pass's padded butterflies) and 8 rows of work-items
  // a warp: one element a row put the warp's 4 columns in 11 of the 16 bank pairs, 2x the least
  // wavefronts (bench/local_bank_wavefronts.py), four elements in all 16. Off by default (the
  // hierarchical tiles keep one element: their work-items take adjacent elements). Arrays whose
  // rows are not local dimension 0's (a warp within one row) are then not skewed at all.
  bool localRowSkewSpread = false;
  // the elements a local array of `rows` rows takes: paddedLocalCount and, with the row skew,
  // one more a row
  int64_t skewedLocalCount(int64_t count, int64_t rows) const {
    const int64_t padded = paddedLocalCount(count);
    return localRowSkew && rows > 1 && localPadEvery(count) > 0 ? padded + rows - 1 : padded;
  }
  int64_t maxTableElements = 65536;  // larger generators are computed inline
  // A generator whose element function is a scalar formula is folded in bulk
  // (foldGeneratorTable), else element by element through code generation: the same literals
  // either way (tests compare the two); false only for those tests.
  bool bulkTableFolding = true;
  // Intermediates inside parallel loops without toX go to private memory up to this many
  // elements (constant sizes only), else to global memory.
  int64_t privateMaxElements = 64;
  // Work-group size used for mapGlobal stages (0: left to the driver, "local" is empty).
  int64_t defaultLocalSize = 0;
  // The caller's work-group shape per stage (an FFT plan's choice), empty: each stage's own.
  // A stage's work-groups stay; their size becomes the given one, dimension by dimension (the
  // mapLocal loops stride by the work-group size, so any size computes the same result; the
  // caller picks one that keeps barriers uniform). Shapes for another number of stages than
  // the kernel has (a lowering they were not chosen for) are not applied.
  std::vector<std::vector<int64_t>> stageLocal;
  bool format = true;              // lay out with compiler/clang formatSource when available
  bool checkUserFuns = true;       // check userfun bodies with clang (when available)
  // The -D bindings, recorded in the manifest's "sizes".
  std::map<std::string, int64_t> sizes;
  // Strided layouts of kernel parameters (by name) and of the result (BufferLayout); the
  // others are dense. CompileError when a layout's dims do not multiply to the value's
  // (constant) element count, or a dimension or stride is below 1.
  std::map<std::string, BufferLayout> inputLayouts;
  std::optional<BufferLayout> outputLayout;
  // Budgets: code generation unrolls iterate and mapSeqUnroll/reduceSeqUnroll, so a short
  // program can ask for any number of copies of a body. Past these totals per kernel it is a
  // CompileError at the pattern (docs/codegen.md, "Budgets").
  int64_t maxIterateSteps = 4096;    // iterate steps, all iterates of a kernel together
  int64_t maxUnrolledBodies = 65536; // bodies of unrolled loops, all of a kernel together
};

// One buffer of the manifest.
struct BufferInfo {
  std::string name;
  std::string role;         // "input", "output", "temp", "table"
  ir::Type element;         // innermost element type
  std::string elementC;     // "float2", "float", a struct name
  ir::ArithExpr count;      // element count (a size expression)
  int64_t elementBytes = 0; // bytes of one element in the device layout
  std::string dataFile;     // tables: NAME_tabK.bin
  TableBytes data;          // tables: the contents (shared, immutable)
  ir::Type type;            // inputs/outputs: the full (nested) type of the value
  std::optional<BufferLayout> layout;  // inputs/outputs: a strided layout (count = its extent)
};

struct StageInfo {
  std::string kernel;
  std::vector<std::string> args;          // buffer names, then size variable names
  std::vector<ir::ArithExpr> global;      // per dimension
  std::vector<ir::ArithExpr> local;       // empty: the driver chooses
  int64_t localMemoryBytes = 0;
  // The dynamic local memory its launch must give (CUDA's dynamic shared memory, when the
  // local arrays exceed the dialect's static limit: CDialect::staticLocalLimit); 0: static.
  int64_t dynamicLocalBytes = 0;
  // The work-groups of its thread-block clusters (mapCluster; compiled into the kernel as
  // __cluster_dims__, so the launch is a plain one whose group count it divides); 1: none.
  int64_t clusterBlocks = 1;
  std::vector<std::string> accesses;      // "read x[gid]", for --emit views
  // This stage's kernel alone as a translation unit (stageModule: its helpers, structs and
  // tables), not laid out, so that a plan builds its stages concurrently, one device program
  // each; empty when the module has one kernel (CompiledKernel::source is that program).
  std::string source;
};

struct CompiledKernel {
  std::string name;
  std::string target;       // "opencl", "cuda"
  std::string precision;    // "f32", "f64"
  bool usesDouble = false;
  std::string source;
  backends::Module module;
  std::vector<BufferInfo> buffers;   // inputs (parameter order), output, temps, tables
  std::vector<StageInfo> stages;
  std::vector<std::string> sizeVarNames;     // int arguments of every stage, in this order
  std::vector<ir::ArithExpr> sizeVars;
  std::map<std::string, int64_t> sizes;      // the -D bindings

  const BufferInfo* buffer(const std::string& name) const;
};

// Compiles one typed kernel. Throws ir::CompileError (with the node's location) when the program
// is not low-level (e.g. a map with code: it needs --rewrite) or uses what codegen cannot do.
CompiledKernel compileKernel(const frontend::Kernel& kernel, const CodegenOptions& options);

// The same for a typed lambda built in C++ (tests): parameter names and size variables given.
CompiledKernel compileLambda(const ir::LambdaPtr& typedKernel, const std::string& name,
                             const std::vector<std::string>& paramNames,
                             const std::vector<ir::ArithExpr>& sizeVars,
                             const CodegenOptions& options);

// The manifest of CLI.md.
boost::json::object manifest(const CompiledKernel& kernel);
std::string manifestText(const CompiledKernel& kernel);  // pretty-printed JSON
// Each stage's memory accesses as index expressions (`fftc compile --emit views`).
std::string viewsText(const CompiledKernel& kernel);
// The device code a CUDA header carries: kernel.source compiled by NVRTC to PTX for a virtual
// architecture (`arch`, compute_XY), which the driver compiles for the device at load time.
struct HeaderPtx {
  std::string arch;
  std::string text;
};

// NAME.hpp, standalone (CLI.md): the source, the buffers' counts, the tables as bytes and a
// Kernel class that builds (OpenCL) or loads (CUDA: `ptx`, required) the program, uploads the
// tables, allocates the temporaries and runs the stages with the OpenCL API or the CUDA driver
// API only. std::invalid_argument for a CUDA kernel without PTX.
std::string emitHeader(const CompiledKernel& kernel, const HeaderPtx* ptx = nullptr);

}  // namespace fftc::compiler::codegen
