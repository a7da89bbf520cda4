// fft(x) / ifft(x) inside programs (fftlib/plan/fft_ops.h, issue 24): the expansion by the
// planner's algorithm, before and after lowerFft, on random pointwise programs around the
// transforms, checked on the interpreter against FFTW (long double); the one-kernel form's
// shape; the global form; the reference; errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <random>
#include <regex>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "ir/fft_operation.h"
#include "fftlib/fftw_reference.h"
#ifdef FFTC_HAVE_CUDA
#include "compiler/exec/cuda_exec.h"
#endif
#include "compiler/exec/exec.h"
#include "fftlib/plan/fft_ops.h"
#include "tests/fftplan/fft_ops_util.h"
#include "tests/support/opencl_device.h"
#include "ir/diagnostic.h"
#include "ir/interpreter.h"

namespace fftc::fftlib::test {
namespace {

using compiler::frontend::Kernel;

std::vector<C> run(const ir::LambdaPtr& f, const std::vector<ir::Value>& args) {
  return ir::interpretCall(f, args).toComplexVector();
}

// ---- random pointwise programs around one transform of each row

struct Pointwise {
  std::string text;                      // a function on a row, as .fdl
  std::function<C(C, C)> apply;          // on an element and w's element at the same index
};

const std::vector<Pointwise>& pointwiseOps() {
  static const std::vector<Pointwise> ops = {
      {"map(fun y => y * 0.5)", [](C y, C) { return y * 0.5; }},
      {"map(conj)", [](C y, C) { return std::conj(y); }},
      {"map(mult) <<: zip(w)", [](C y, C w) { return y * w; }},
      {"map(add) <<: zip(w)", [](C y, C w) { return y + w; }},
      {"map(fun y => {re(y) * re(y) + im(y) * im(y), 0.0})",
       [](C y, C) { return C(std::norm(y), 0.0); }},
  };
  return ops;
}

TEST(FftOps, RandomPointwiseProgramsAroundATransformMatchFftw) {
  std::mt19937 rng(24);
  const int64_t sizes[] = {8, 12, 16, 30, 64, 128};
  const int64_t batches[] = {1, 3, 4};
  int oneKernel = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int64_t n = sizes[rng() % std::size(sizes)], b = batches[rng() % std::size(batches)];
    const bool inverse = rng() % 2;
    std::vector<const Pointwise*> pre, post;
    for (unsigned k = rng() % 3; k-- > 0;) pre.push_back(&pointwiseOps()[rng() % pointwiseOps().size()]);
    for (unsigned k = rng() % 3; k-- > 0;) post.push_back(&pointwiseOps()[rng() % pointwiseOps().size()]);
    // zip(w) applied to a row is zip(row, w): written out in the text
    auto chain = [](const std::vector<const Pointwise*>& ops, std::string inner) {
      for (const auto* op : ops) {
        std::string t = op->text;
        if (auto at = t.find("zip(w)"); at != std::string::npos) {
          t.replace(at, 6, "zip(" + inner + ", w)");
          inner = t;
        } else {
          inner = t + " <<: " + inner;
        }
      }
      return inner;
    };
    const std::string body =
        chain(post, fmt::format("{}({})", inverse ? "ifft" : "fft", chain(pre, "row")));
    const std::string text = fmt::format(
        "kernel k(x: [[complex]N]B, w: [complex]N) = map(fun row => {}) <<: x\n", body);
    SCOPED_TRACE(fmt::format("N={} B={}: {}", n, b, text));
    const Kernel k = compileKernel(text, {{"N", n}, {"B", b}});
    ASSERT_TRUE(hasFftOps(k));

    const auto x = randomVector(static_cast<size_t>(n * b), 100 + trial);
    const auto w = randomVector(static_cast<size_t>(n), 200 + trial);
    std::vector<C> want = x;
    auto applyAll = [&](const std::vector<const Pointwise*>& ops) {
      for (const auto* op : ops)
        for (size_t i = 0; i < want.size(); ++i) want[i] = op->apply(want[i], w[i % n]);
    };
    applyAll(pre);
    want = dftRows(want, n, inverse ? Direction::Inverse : Direction::Forward);
    applyAll(post);

    const std::vector<ir::Value> args = {
        ir::Value::complexArray(x, ir::ScalarKind::Double, {b, n}),
        ir::Value::complexArray(w, ir::ScalarKind::Double, {n})};
    const ExpandedFftOps e = expandFftOps(k);
    ASSERT_FALSE(ir::containsFftOperation(e.kernel.lambda->body()));
    oneKernel += e.oneKernel;
    EXPECT_LT(maxRelError(run(e.kernel.lambda, args), want), 1e-12);
    const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
    EXPECT_LT(maxRelError(run(built.lowered.kernel.lambda, args), want), 1e-12);
    if (e.oneKernel) {
      EXPECT_EQ(built.compiled.stages.size(), 1U);
    }
    // the program as written on the interpreter (its fft the exact DFT): `exec --check`'s reference
    EXPECT_LT(maxRelError(run(k.lambda, args), want), 1e-12);
  }
  EXPECT_GT(oneKernel, 0);  // the trials reach the one-kernel form
}

// ---- the convolution of examples/convolution.fdl: forward, product, inverse in one kernel

constexpr const char* kConv = R"(
kernel conv(x: [[complex]N]B, H: [complex]N) =
  map(fun row =>
    map(fun y => y * (1.0 / N)) <<: ifft <<: map(mult) <<: zip(fft(row), H))
  <<: x
)";

// A row that the 1D planner gives one work-item (rowInOneWorkItem: 22 = [22] in
// stockhamLocalCopy) keeps its radices through local memory inside a program: the one-kernel
// form has no copies, and without them the convolution left it for passes over global memory.
TEST(FftOps, ASmallRowInAProgramKeepsItsLocalRadices) {
  const Kernel k = compileKernel(kConv, {{"N", 22}, {"B", 5}}, ir::ScalarKind::Float);
  const ExpandedFftOps e = expandFftOps(k);
  ASSERT_TRUE(e.oneKernel);
  ASSERT_EQ(e.operations.size(), 2U);
  EXPECT_NE(e.operations[0].find("fft 22 f32: radices 2, 11 (one kernel"), std::string::npos)
      << e.operations[0];
}

TEST(FftOps, ConvolutionIsOneKernelOfThePlannersShape) {
  const int64_t n = 256, b = 5;
  const Kernel k = compileKernel(kConv, {{"N", n}, {"B", b}}, ir::ScalarKind::Float);
  const ExpandedFftOps e = expandFftOps(k);
  ASSERT_TRUE(e.oneKernel);
  ASSERT_EQ(e.operations.size(), 2U);
  EXPECT_NE(e.operations[0].find("fft 256 f32: radices"), std::string::npos) << e.operations[0];
  EXPECT_NE(e.operations[1].find("ifft 256 f32"), std::string::npos) << e.operations[1];
  ASSERT_EQ(e.stageLocal.size(), 1U);  // {work-items per row, rows per group}
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
  ASSERT_EQ(built.compiled.stages.size(), 1U);
  EXPECT_EQ(built.compiled.source.find("fft("), std::string::npos);  // no marker left

  // y = x ⊛ h with H = DFT(h), by FFTW
  const auto x = randomVector(static_cast<size_t>(n * b), 1);
  const auto h = randomVector(static_cast<size_t>(n), 2);
  const auto hSpec = dftRows(h, n, Direction::Forward);
  const std::vector<C> want = circularConvolution(x, h, n);
  const std::vector<ir::Value> args = {ir::Value::complexArray(x, ir::ScalarKind::Float, {b, n}),
                                       ir::Value::complexArray(hSpec, ir::ScalarKind::Float, {n})};
  EXPECT_LT(maxRelError(run(built.lowered.kernel.lambda, args), want), 1e-5);
}

// The product with H and the scaling are done in the forward's last pass and the inverse's last
// pass (lowerFftFused's mapIntoProducer), not in loops of their own through local memory, and
// the inverse takes the forward's radices in the other order, so that its first pass has the
// radix of the forward's last and the two are one pass (mapZipFusion): the kernel has the
// barriers of two FFTs of p passes each less one (p - 1 within each, none between them, one at
// the end of the group loop: 2p - 1) and writes its result from the inverse's last pass.
TEST(FftOps, ConvolutionsProductAndScalingAreInTheTransformsPasses) {
  for (const int64_t n : {256, 1024, 2048}) {
    const Kernel k = compileKernel(kConv, {{"N", n}, {"B", 4}}, ir::ScalarKind::Float);
    const ExpandedFftOps e = expandFftOps(k);
    ASSERT_TRUE(e.oneKernel);
    ASSERT_EQ(e.operations.size(), 2U);
    const auto radices = [](const std::string& op) {
      return op.substr(op.find("radices ") + 8, op.find(" (") - op.find("radices ") - 8);
    };
    const std::string fwd = radices(e.operations[0]), inv = radices(e.operations[1]);
    const int64_t passes = 1 + std::count(fwd.begin(), fwd.end(), ',');
    std::string reversed;  // "16, 8, 8" -> "8, 8, 16"
    for (size_t end = fwd.size(); end != std::string::npos;) {
      const size_t at = fwd.rfind(", ", end == fwd.size() ? std::string::npos : end - 1);
      const size_t begin = at == std::string::npos ? 0 : at + 2;
      reversed += (reversed.empty() ? "" : ", ") + fwd.substr(begin, end - begin);
      end = at;
    }
    EXPECT_EQ(inv, reversed) << e.operations[0] << "\n" << e.operations[1];
    // counted in two local arrays (in one, chainInOneArray, each pass waits once more)
    ExpandedFftOps two = e;
    two.chainInOneArray = false;
    const auto built = buildExpanded(two, "", compiler::pipeline::Target::OpenCL);
    const std::string& src = built.compiled.source;
    int64_t barriers = 0;
    for (size_t at = src.find("barrier("); at != std::string::npos; at = src.find("barrier(", at + 1))
      ++barriers;
    EXPECT_EQ(barriers, 2 * passes - 1) << e.operations[0] << "\n" << src;
  }
}

// Where the radices are not a palindrome (1024 = [16, 8, 8], the plain FFT's radices: chain
// radix 16) the fused middle pass (the forward's last radix-8 pass, the product with H, the
// inverse's first radix-8 pass) computes the convolution: the lowered kernel on the interpreter
// against the direct sum.
TEST(FftOps, ConvolutionWithReversedInverseRadicesMatchesTheDirectSum) {
  const int64_t n = 1024, b = 2;
  const Kernel k = compileKernel(kConv, {{"N", n}, {"B", b}}, ir::ScalarKind::Float);
  const ExpandedFftOps e = expandFftOps(k, {}, FftOpsOptions{.chainRadix = 16});
  ASSERT_TRUE(e.oneKernel);
  EXPECT_NE(e.operations.at(0).find("radices 16, 8, 8"), std::string::npos) << e.operations[0];
  EXPECT_NE(e.operations.at(1).find("radices 8, 8, 16"), std::string::npos) << e.operations[1];
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
  ASSERT_EQ(built.compiled.stages.size(), 1U);
  const auto x = randomVector(static_cast<size_t>(n * b), 5);
  const auto h = randomVector(static_cast<size_t>(n), 6);
  const std::vector<C> want = circularConvolution(x, h, n);
  const std::vector<ir::Value> args = {
      ir::Value::complexArray(x, ir::ScalarKind::Float, {b, n}),
      ir::Value::complexArray(dftRows(h, n, Direction::Forward), ir::ScalarKind::Float, {n})};
  EXPECT_LT(maxRelError(run(built.lowered.kernel.lambda, args), want), 1e-5);
}

// The convolution's transforms take fewer, wider radices than a lone transform of their size
// (chainRadices: powers of two up to 32 where that is fewer passes), a pass fewer each way being
// a local exchange and a barrier fewer: 512 [8, 8, 8] -> [32, 16] (the inverse reversed), 1024
// [16, 8, 8] -> [32, 32]; 2048 keeps three radices of 16 and 8, and `chainRadix` 16 gives the
// plain FFT's radices. Each form's barriers counted in two arrays (2p - 1 for p passes) and its
// result against the direct sum on the OpenCL device.
TEST(FftOps, ConvolutionTakesFewerWiderRadices) {
  EXPECT_EQ(chainRadices(512), (Radices{32, 16}));
  EXPECT_EQ(chainRadices(1024), (Radices{32, 32}));
  EXPECT_EQ(chainRadices(2048), chooseRadices(2048));
  EXPECT_EQ(chainRadices(8192), (Radices{32, 16, 16}));
  EXPECT_EQ(chainRadices(16384), (Radices{32, 32, 16}));
  EXPECT_EQ(chainRadices(1536), chooseRadices(1536));  // three radices either way
  EXPECT_EQ(chainRadices(1024, 16), chooseRadices(1024));
  struct Case {
    int64_t n, chainRadix;
    const char *fwd, *inv;
    int64_t passes;
  };
  for (const Case c : {Case{512, 32, "32, 16", "16, 32", 2}, Case{1024, 32, "32, 32", "32, 32", 2},
                       Case{1024, 16, "16, 8, 8", "8, 8, 16", 3},
                       Case{2048, 32, "16, 16, 8", "8, 16, 16", 3}}) {
    SCOPED_TRACE(fmt::format("N = {}, chain radix {}", c.n, c.chainRadix));
    const int64_t b = 3;
    const Kernel k = compileKernel(kConv, {{"N", c.n}, {"B", b}}, ir::ScalarKind::Float);
    const ExpandedFftOps e = expandFftOps(k, {}, FftOpsOptions{.chainRadix = c.chainRadix});
    ASSERT_TRUE(e.oneKernel);
    ASSERT_EQ(e.operations.size(), 2U);
    EXPECT_NE(e.operations[0].find(fmt::format("radices {} (", c.fwd)), std::string::npos)
        << e.operations[0];
    EXPECT_NE(e.operations[1].find(fmt::format("radices {} (", c.inv)), std::string::npos)
        << e.operations[1];
    // the wider radices in two arrays (fft_ops.cpp: their registers already bound the blocks
    // an SM, so one array would only add barriers)
    EXPECT_EQ(e.chainInOneArray, c.passes == 3);
    ExpandedFftOps two = e;
    two.chainInOneArray = false;
    const std::string src =
        buildExpanded(two, "", compiler::pipeline::Target::OpenCL).compiled.source;
    int64_t barriers = 0;
    for (size_t at = src.find("barrier("); at != std::string::npos; at = src.find("barrier(", at + 1))
      ++barriers;
    EXPECT_EQ(barriers, 2 * c.passes - 1);
    const auto x = randomVector(static_cast<size_t>(c.n * b), 11);
    const auto h = randomVector(static_cast<size_t>(c.n), 12);
    const std::vector<C> want = circularConvolution(x, h, c.n);
    const std::vector<ir::Value> args = {
        ir::Value::complexArray(x, ir::ScalarKind::Float, {b, c.n}),
        ir::Value::complexArray(dftRows(h, c.n, Direction::Forward), ir::ScalarKind::Float, {c.n})};
    // as expanded, and in one local array (its fused pass reads its tile in a loop, then
    // writes the array it read: the barrier between, codegen/barriers.cpp)
    ExpandedFftOps one = e;
    one.chainInOneArray = true;
    for (const ExpandedFftOps& form : {e, one}) {
      const auto built = buildExpanded(form, "", compiler::pipeline::Target::OpenCL);
      ASSERT_EQ(built.compiled.stages.size(), 1U);
      // one array: a barrier more in each pass from local to local memory (2048's radix-16
      // passes keep half of its 256 work-items idle: code generation keeps two arrays)
      if (form.chainInOneArray && c.passes == 2) {
        const std::string& text = built.compiled.source;
        int64_t n = 0;
        for (size_t at = text.find("barrier("); at != std::string::npos;
             at = text.find("barrier(", at + 1))
          ++n;
        EXPECT_EQ(n, 2 * c.passes - 1 + 2 * c.passes - 3);
      }
      const auto got =
          compiler::exec::runCompiled(fftc::testing::openclContext(), built.compiled, args)
              .output.toComplexVector();
      EXPECT_LT(maxRelError(got, want), 1e-5) << form.chainInOneArray;
    }
  }
}

// A convolution of radix-10 rows (1000 = [10, 10, 10]) pads its local arrays as the planner's
// Local plan of 1000 does (PlanChoice::localPadding, not 16: each pass's stores 10 elements
// apart met 4 - 8 a bank), so its stage takes the arrays padded every P elements, and computes
// the direct sum on the OpenCL device.
TEST(FftOps, ConvolutionTakesThePlannersLocalPadding) {
  const int64_t n = 1000, b = 3;
  const Kernel k = compileKernel(kConv, {{"N", n}, {"B", b}}, ir::ScalarKind::Float);
  const ExpandedFftOps e = expandFftOps(k);
  ASSERT_TRUE(e.oneKernel);
  ASSERT_EQ(e.localPaddings.size(), 1U);
  const int64_t every = e.localPaddings.front();
  ASSERT_GE(every, 8);
  ASSERT_NE(every, 16);
  compiler::codegen::CodegenOptions options;
  fftOpsOptions(e, "", options);
  EXPECT_EQ(options.localPadding, every);
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
  ASSERT_EQ(built.compiled.stages.size(), 1U);
  const int64_t rows = e.stageLocal.at(0).at(1), count = n * rows;
  // one array: the convolution's passes share it (chainInOneArray)
  EXPECT_TRUE(e.chainInOneArray);
  EXPECT_EQ(built.compiled.stages[0].localMemoryBytes, (count + (count - 1) / every) * 8);
  const auto x = randomVector(static_cast<size_t>(n * b), 9);
  const auto h = randomVector(static_cast<size_t>(n), 10);
  const std::vector<C> want = circularConvolution(x, h, n);
  const std::vector<ir::Value> args = {
      ir::Value::complexArray(x, ir::ScalarKind::Float, {b, n}),
      ir::Value::complexArray(dftRows(h, n, Direction::Forward), ir::ScalarKind::Float, {n})};
  const auto got = compiler::exec::runCompiled(fftc::testing::openclContext(), built.compiled, args)
                       .output.toComplexVector();
  EXPECT_LT(maxRelError(got, want), 1e-5);
}

// The convolution with its passes sharing one local array, by default since session 19
// (ExpandedFftOps::chainInOneArray -> CodegenOptions::localReuseInPass: each pass reads its
// elements, waits at a barrier, writes; on an H200 4096 f32 1.82 -> 2.17x faster than cuFFT's
// pipeline): half the local memory of the two-array form where every pass keeps all
// work-items busy (256 = [16, 16], 4096 = [16, 16, 16]; 1024's radix-16 passes keep half, the
// radix-8 ones share), more barriers, and the same result, run on the OpenCL device against
// the direct sum. A lone transform keeps the planner's arrays.
TEST(FftOps, ConvolutionInOneLocalArrayRunsCorrectly) {
  struct Case {
    int64_t n, b, localMemory, chainRadix;
  };
  // (1024 in the plain FFT's radices: its wider ones keep two arrays)
  for (const Case c : {Case{256, 11, 0, 32}, Case{1024, 3, 0, 16}, Case{4096, 2, 232448, 32}}) {
    const Kernel k = compileKernel(kConv, {{"N", c.n}, {"B", c.b}}, ir::ScalarKind::Float);
    FftRequest limits;
    limits.target = compiler::pipeline::Target::OpenCL;
    limits.localMemoryBytes = c.localMemory;
    const ExpandedFftOps e = expandFftOps(k, limits, FftOpsOptions{.chainRadix = c.chainRadix});
    ASSERT_TRUE(e.oneKernel) << c.n;
    EXPECT_TRUE(e.chainInOneArray) << c.n;
    ExpandedFftOps twoArrays = e;
    twoArrays.chainInOneArray = false;
    const auto two = buildExpanded(twoArrays, "", compiler::pipeline::Target::OpenCL);
    const auto one = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
    ASSERT_EQ(one.compiled.stages.size(), 1U);
    EXPECT_LT(2 * one.compiled.stages[0].localMemoryBytes,
              two.compiled.stages[0].localMemoryBytes + 64)
        << c.n;
    const auto x = randomVector(static_cast<size_t>(c.n * c.b), 7);
    const auto h = randomVector(static_cast<size_t>(c.n), 8);
    const std::vector<C> want = circularConvolution(x, h, c.n);
    const std::vector<ir::Value> args = {
        ir::Value::complexArray(x, ir::ScalarKind::Float, {c.b, c.n}),
        ir::Value::complexArray(dftRows(h, c.n, Direction::Forward), ir::ScalarKind::Float,
                                {c.n})};
    const auto got = compiler::exec::runCompiled(fftc::testing::openclContext(), one.compiled, args)
                         .output.toComplexVector();
    EXPECT_LT(maxRelError(got, want), 1e-5) << c.n;
  }
}

#ifdef FFTC_HAVE_CUDA
// The CUDA target: the one kernel compiles with NVRTC (no GPU needed; the run is the lead's
// bench/pipeline_bench on the device machine).
TEST(FftOps, ConvolutionCompilesForCuda) {
  const Kernel k = compileKernel(kConv, {{"N", 1024}, {"B", 4}}, ir::ScalarKind::Float);
  const auto built = buildExpanded(expandFftOps(k), "", compiler::pipeline::Target::Cuda);
  ASSERT_EQ(built.compiled.stages.size(), 1U);
  const auto program = compiler::exec::compileCuda(built.compiled);
  EXPECT_FALSE(program.binary.empty());
}

// conv2d's middle pass at 1024 x 1024 padded to 2048 (columns of 2048 f32): the tile of 4
// columns in the shared memory of an H100/H200 (two arrays, 139 KB: dynamic shared memory)
// compiles with NVRTC.
TEST(FftOps, ColumnTileCompilesForCudaBeyond48KiB) {
  const Kernel k = compileKernel(R"(
kernel cols(x: [[complex]N]M, H: [[complex]N]M) =
  transpose <<: map(fun (c, h) => ifft <<: map(mult) <<: zip(fft(c), h))
  <<: zip(transpose <<: x, transpose <<: H)
)",
                                 {{"M", 2048}, {"N", 64}}, ir::ScalarKind::Float);
  FftRequest cuda;
  cuda.target = compiler::pipeline::Target::Cuda;
  cuda.localMemoryBytes = 232448;
  const ExpandedFftOps e = expandFftOps(k, cuda);
  ASSERT_TRUE(e.columnTiles);
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::Cuda);
  ASSERT_EQ(built.compiled.stages.size(), 1U);
  EXPECT_GT(built.compiled.stages[0].localMemoryBytes, 48 * 1024);
  EXPECT_LE(built.compiled.stages[0].localMemoryBytes, cuda.localMemoryBytes);
  EXPECT_FALSE(compiler::exec::compileCuda(built.compiled).binary.empty());
}
#endif

// Where the planner keeps a row in one local array (two would take more than half of the
// budget, or do not fit it: 8192 f32 and 4096 f64 under an H100's 227 KiB, 4096 f32 in 48 KiB;
// and f32 4096 under 227 KiB, whose one kernel keeps the chain in one array), the convolution
// is still one kernel (it was three, a multi-pass form, since session 16's one-array rule): the
// forward takes its radices in the order whose passes after the first have one radix, the
// inverse the reverse, so that only the first pass (from global memory) and the last (to it)
// loop over their butterflies, and every pass shares the one array. The radices are the
// planner's, except 8192 f32's: its planner radices [16, 16, 16, 2] end in a radix below 8, so
// it takes radix-8 passes and one of 16 on n / 8 = 1024 work-items (chainEvenPasses), where
// 4096 f32's [16, 16, 16] keep the planner's 256. Its bytes are one row's, its result the
// direct sum's on the OpenCL device; for CUDA it compiles with NVRTC.
TEST(FftOps, ConvolutionInThePlannersOneLocalArrayIsOneKernel) {
  struct Case {
    int64_t n, b, localMemory;
    ir::ScalarKind kind;
    const char *fwd, *inv;
    int64_t workItems;
    bool plannersOneArray;  // the planner's plan of the rows (else the chain's one array)
    bool run;               // on the OpenCL device (PoCL: seconds a case)
  };
  for (const Case c :
       {Case{8192, 2, 232448, ir::ScalarKind::Float, "16, 8, 8, 8", "8, 8, 8, 16", 1024, true,
             true},
        Case{4096, 2, 232448, ir::ScalarKind::Double, "16, 16, 16", "16, 16, 16", 256, true, true},
        Case{4096, 2, 232448, ir::ScalarKind::Float, "16, 16, 16", "16, 16, 16", 256, false, true},
        Case{4096, 3, 0, ir::ScalarKind::Float, "16, 16, 16", "16, 16, 16", 256, true, false}}) {
    SCOPED_TRACE(fmt::format("N = {}, {} bytes", c.n, c.localMemory));
    const Kernel k = compileKernel(kConv, {{"N", c.n}, {"B", c.b}}, c.kind);
    FftRequest limits;
    limits.target = compiler::pipeline::Target::OpenCL;
    limits.localMemoryBytes = c.localMemory;
    const ExpandedFftOps e = expandFftOps(k, limits);
    ASSERT_TRUE(e.oneKernel);
    EXPECT_FALSE(e.multiPass);
    EXPECT_EQ(e.oneArray, c.plannersOneArray);
    ASSERT_EQ(e.operations.size(), 2U);
    EXPECT_NE(e.operations[0].find(fmt::format("radices {} (", c.fwd)), std::string::npos)
        << e.operations[0];
    EXPECT_NE(e.operations[1].find(fmt::format("radices {} (", c.inv)), std::string::npos)
        << e.operations[1];
    EXPECT_EQ(e.stageLocal, (std::vector<std::vector<int64_t>>{{c.workItems, 1}}));
    const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
    ASSERT_EQ(built.compiled.stages.size(), 1U);
    const int64_t elem = c.kind == ir::ScalarKind::Double ? 16 : 8;
    const int64_t row = compiler::codegen::CodegenOptions{}.paddedLocalCount(c.n, c.n) * elem;
    EXPECT_EQ(built.compiled.stages[0].localMemoryBytes, row);
#ifdef FFTC_HAVE_CUDA
    const auto cuda = buildExpanded(e, "", compiler::pipeline::Target::Cuda);
    ASSERT_EQ(cuda.compiled.stages.size(), 1U);
    EXPECT_EQ(cuda.compiled.stages[0].localMemoryBytes, row);
    EXPECT_FALSE(compiler::exec::compileCuda(cuda.compiled).binary.empty());
#endif
    if (!c.run) continue;
    // x ⊛ h = IDFT(DFT(x) .* H) / N, by FFTW in long double
    const auto x = randomVector(static_cast<size_t>(c.n * c.b), 9);
    const auto hSpec = dftRows(randomVector(static_cast<size_t>(c.n), 10), c.n, Direction::Forward);
    std::vector<C> want = dftRows(x, c.n, Direction::Forward);
    for (size_t i = 0; i < want.size(); ++i)
      want[i] *= hSpec[i % static_cast<size_t>(c.n)] / static_cast<double>(c.n);
    want = dftRows(want, c.n, Direction::Inverse);
    const std::vector<ir::Value> args = {ir::Value::complexArray(x, c.kind, {c.b, c.n}),
                                         ir::Value::complexArray(hSpec, c.kind, {c.n})};
    const auto got =
        compiler::exec::runCompiled(fftc::testing::openclContext(), built.compiled, args)
            .output.toComplexVector();
    EXPECT_LT(maxRelError(got, want), c.kind == ir::ScalarKind::Double ? 1e-12 : 1e-5);
  }
}

// The 8192 f32 convolution's kernel under 227 KiB is, byte for byte, the one that was measured
// (docs/performance.md "Session 24's GPU measures": pipeline_bench --fft-ops
// '{"form0.radices": [8,8,8,16], "form0.shape": [1024,1]}' 1.37 -> 1.40x cuFFT's pipeline):
// the planner's own expansion (chainEvenPasses) against the tuner's form of those radices.
TEST(FftOps, ConvolutionEvenPassesAreTheMeasuredForm) {
  const Kernel k = compileKernel(kConv, {{"N", 8192}, {"B", 2}}, ir::ScalarKind::Float);
  FftRequest cuda;
  cuda.target = compiler::pipeline::Target::Cuda;
  cuda.localMemoryBytes = 232448;
  FftOpsOptions measured;
  measured.forms = {FftOpsForm{.radices = {8, 8, 8, 16}, .workgroupSize = 1024, .fftsPerGroup = 1}};
  const auto planner = buildExpanded(expandFftOps(k, cuda), "", compiler::pipeline::Target::Cuda);
  const auto form =
      buildExpanded(expandFftOps(k, cuda, measured), "", compiler::pipeline::Target::Cuda);
  ASSERT_EQ(planner.compiled.stages.size(), 1U);
  EXPECT_EQ(planner.compiled.source, form.compiled.source);
}

TEST(FftOps, ALoneTransformKeepsThePlannersArrays) {
  const Kernel lone = compileKernel("kernel f(x: [[complex]N]B) = map(fun row => fft(row)) <<: x\n",
                                    {{"N", 1024}, {"B", 3}}, ir::ScalarKind::Float);
  const ExpandedFftOps e = expandFftOps(lone);
  ASSERT_TRUE(e.oneKernel);
  EXPECT_FALSE(e.chainInOneArray);
}

// A convolution's one kernel (two transforms' barriers) takes groups of at most 128 work-items,
// where a lone transform of the same rows keeps the planner's 256 (512: 64 work-items x 4 rows;
// 1024: 128 x 2); the smaller group's result against the direct sum on the interpreter.
TEST(FftOps, ConvolutionGroupsTakeAtMost128WorkItems) {
  struct Case {
    int64_t n, loneRows, convRows, workItems;
  };
  for (const Case c : {Case{512, 4, 2, 64}, Case{1024, 2, 1, 128}}) {
    SCOPED_TRACE(c.n);
    const int64_t b = 16;
    const Kernel lone = compileKernel(
        "kernel f(x: [[complex]N]B) = map(fun row => fft(row)) <<: x\n", {{"N", c.n}, {"B", b}},
        ir::ScalarKind::Float);
    const ExpandedFftOps l = expandFftOps(lone);
    ASSERT_EQ(l.stageLocal.size(), 1U);
    EXPECT_EQ(l.stageLocal[0], (std::vector<int64_t>{c.workItems, c.loneRows}));

    const Kernel k = compileKernel(kConv, {{"N", c.n}, {"B", b}}, ir::ScalarKind::Float);
    const ExpandedFftOps e = expandFftOps(k);
    ASSERT_TRUE(e.oneKernel);
    ASSERT_EQ(e.stageLocal.size(), 1U);
    EXPECT_EQ(e.stageLocal[0], (std::vector<int64_t>{c.workItems, c.convRows}));
    const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
    const auto x = randomVector(static_cast<size_t>(c.n * b), 3);
    const auto h = randomVector(static_cast<size_t>(c.n), 4);
    const std::vector<ir::Value> args = {
        ir::Value::complexArray(x, ir::ScalarKind::Float, {b, c.n}),
        ir::Value::complexArray(dftRows(h, c.n, Direction::Forward), ir::ScalarKind::Float,
                                {c.n})};
    EXPECT_LT(maxRelError(run(built.lowered.kernel.lambda, args), circularConvolution(x, h, c.n)),
              1e-5);
  }
}

// ---- the columns of row-major arrays: a tile of adjacent columns

// The indices at which `source` reads or writes `name` (the text between `name[` and `]`).
std::vector<std::string> indicesOf(const std::string& source, const std::string& name) {
  std::vector<std::string> out;
  const std::regex access("\\b" + name + "\\[([^\\]]*)\\]");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), access);
       it != std::sregex_iterator(); ++it)
    out.push_back((*it)[1].str());
  return out;
}

// Whether an index is contiguous across the work-items of local dimension 0: the local id
// (lid or lid_k; dimension 1's is lid1 or lid1_k) is a term of its own, coefficient 1.
bool contiguousInLocalDim0(const std::string& index) {
  static const std::regex term("(^|\\+ )lid(_[0-9]+)?( \\+|$)");
  return std::regex_search(index, term);
}

// A column transform with a product, conv2d's middle pass: each column of x, transformed,
// times H's column, inverse transformed, written back as a column.
constexpr const char* kColumns = R"(
kernel cols(x: [[complex]N]M, H: [[complex]N]M) =
  transpose <<: map(fun (c, h) => ifft <<: map(mult) <<: zip(fft(c), h))
  <<: zip(transpose <<: x, transpose <<: H)
)";

// The columns of row-major arrays (transpose <<: X) take the one-kernel form as a tile of F
// adjacent columns on local dimension 0 (64 bytes: 8 f32, 4 f64) and write through the
// transpose after the map, so that every load and store of global memory is contiguous across
// the work-items of dimension 0 (a column per row of work-items read each element 32 rows
// apart); the result against FFTW, run on the OpenCL device.
TEST(FftOps, ColumnsAreATileOfAdjacentColumnsReadAndWrittenContiguously) {
  struct Case {
    int64_t m, n;
    ir::ScalarKind precision;
    int64_t tile;
  };
  for (const Case c :
       {Case{64, 32, ir::ScalarKind::Float, 8}, Case{32, 12, ir::ScalarKind::Double, 4}}) {
    const Kernel k = compileKernel(kColumns, {{"M", c.m}, {"N", c.n}}, c.precision);
    const ExpandedFftOps e = expandFftOps(k);
    ASSERT_TRUE(e.oneKernel && e.columnTiles) << c.m;
    ASSERT_EQ(e.stageLocal.size(), 1U);
    EXPECT_EQ(e.stageLocal[0].at(0), c.tile) << c.m;  // {columns, work-items per column}
    EXPECT_NE(e.operations.at(0).find(fmt::format("x {} adjacent columns", c.tile)),
              std::string::npos)
        << e.operations[0];
    const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
    ASSERT_EQ(built.compiled.stages.size(), 1U);
    for (const std::string name : {"x", "H", "out"}) {
      const auto indices = indicesOf(built.compiled.source, name);
      ASSERT_FALSE(indices.empty()) << name << "\n" << built.compiled.source;
      for (const auto& index : indices)
        EXPECT_TRUE(contiguousInLocalDim0(index)) << name << "[" << index << "]";
    }
    const auto x = randomVector(static_cast<size_t>(c.m * c.n), 11);
    const auto h = randomVector(static_cast<size_t>(c.m * c.n), 12);
    auto transposed = [](const std::vector<C>& v, int64_t rows, int64_t cols) {
      std::vector<C> t(v.size());
      for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) t[j * rows + i] = v[i * cols + j];
      return t;
    };
    auto y = dftRows(transposed(x, c.m, c.n), c.m, Direction::Forward);
    const auto ht = transposed(h, c.m, c.n);
    for (size_t i = 0; i < y.size(); ++i) y[i] *= ht[i];
    const auto want = transposed(dftRows(y, c.m, Direction::Inverse), c.n, c.m);
    const std::vector<ir::Value> args = {ir::Value::complexArray(x, c.precision, {c.m, c.n}),
                                         ir::Value::complexArray(h, c.precision, {c.m, c.n})};
    const auto got =
        compiler::exec::runCompiled(fftc::testing::openclContext(), built.compiled, args)
            .output.toComplexVector();
    EXPECT_LT(maxRelError(got, want), c.precision == ir::ScalarKind::Float ? 1e-5 : 1e-12) << c.m;
  }
}

// Rows read as rows stay the planner's rows on local dimension 1, and columns too long for a
// tile in the budget (2048 f32: 4 columns take 139 KB, beyond the default 48 KiB) stay a column
// per row of work-items.
TEST(FftOps, RowsAndColumnsBeyondTheBudgetAreNoTile) {
  const Kernel rows = compileKernel(kConv, {{"N", 256}, {"B", 64}}, ir::ScalarKind::Float);
  const ExpandedFftOps r = expandFftOps(rows);
  EXPECT_TRUE(r.oneKernel);
  EXPECT_FALSE(r.columnTiles);
  const Kernel cols = compileKernel(kColumns, {{"M", 2048}, {"N", 16}}, ir::ScalarKind::Float);
  const ExpandedFftOps c = expandFftOps(cols);
  EXPECT_TRUE(c.oneKernel);
  EXPECT_FALSE(c.columnTiles);
  FftRequest cuda;
  cuda.target = compiler::pipeline::Target::Cuda;
  cuda.localMemoryBytes = 232448;  // an H100's or H200's opt-in shared memory
  const ExpandedFftOps wide = expandFftOps(cols, cuda);
  EXPECT_TRUE(wide.columnTiles);
  ASSERT_EQ(wide.stageLocal.size(), 1U);
  EXPECT_EQ(wide.stageLocal[0].at(0), 4);  // 32 bytes: 8 f32 columns take 2048 work-items
}

// ---- the global form: transforms that are not the row function of the outermost map

TEST(FftOps, TransformsOfColumnsArePassesOverGlobalMemory) {
  const int64_t m = 4, n = 8;
  const Kernel k = compileKernel(
      "kernel cols(x: [[complex]N]M) = transpose <<: map(fft) <<: transpose <<: x\n",
      {{"N", n}, {"M", m}});
  const ExpandedFftOps e = expandFftOps(k);
  EXPECT_FALSE(e.oneKernel);
  ASSERT_EQ(e.operations.size(), 1U);
  EXPECT_NE(e.operations[0].find("passes over global memory"), std::string::npos);
  const auto x = randomVector(static_cast<size_t>(m * n), 3);
  std::vector<C> xt(x.size()), want(x.size());
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) xt[j * m + i] = x[i * n + j];
  const auto yt = dftRows(xt, m, Direction::Forward);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) want[i * n + j] = yt[j * m + i];
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
  EXPECT_LT(maxRelError(run(built.lowered.kernel.lambda,
                            {ir::Value::complexArray(x, ir::ScalarKind::Double, {m, n})}),
                        want),
            1e-12);
}

// map(fft): the operation passed as a function, here the one kernel's row function itself
TEST(FftOps, AnOperationPassedAsAFunctionIsExpanded) {
  const Kernel k = compileKernel("kernel rows(x: [[complex]N]B) = map(ifft) <<: x\n",
                                 {{"N", 64}, {"B", 2}});
  const ExpandedFftOps e = expandFftOps(k);
  EXPECT_TRUE(e.oneKernel);  // 64 = [8, 8]: stockhamLocal (one radix, N <= 16, is another kernel)
  ASSERT_EQ(e.operations.size(), 1U);
  const auto x = randomVector(128, 5);
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
  EXPECT_LT(maxRelError(run(built.lowered.kernel.lambda,
                            {ir::Value::complexArray(x, ir::ScalarKind::Double, {2, 64})}),
                        dftRows(x, 64, Direction::Inverse)),
            1e-12);
}

TEST(FftOps, APrimeSizeAboveTheDirectRadicesIsBluestein) {
  const Kernel k = compileKernel("kernel p(x: [complex]N) = fft(x)\n", {{"N", 37}});
  const ExpandedFftOps e = expandFftOps(k);
  ASSERT_EQ(e.operations.size(), 1U);
  EXPECT_NE(e.operations[0].find("Bluestein"), std::string::npos) << e.operations[0];
  const auto x = randomVector(37, 4);
  EXPECT_LT(maxRelError(run(e.kernel.lambda, {ir::Value::complexArray(x, ir::ScalarKind::Double)}),
                        dftRows(x, 37, Direction::Forward)),
            1e-12);
}

// ---- errors

TEST(FftOps, ASymbolicSizeIsAUserError) {
  const Kernel k = compileKernel("kernel s(x: [complex]N) = fft(x)\n", {});
  try {
    expandFftOps(k);
    FAIL() << "expected an error";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("must be known at compile time"), std::string::npos)
        << e.what();
  }
}

TEST(FftOps, ARealArgumentIsATypeError) {
  EXPECT_THROW(compileKernel("kernel r(x: [real]N) = fft(x)\n", {{"N", 8}}), ir::CompileError);
}

TEST(FftOps, FftIsABuiltinName) {
  EXPECT_THROW(compileKernel("def fft = id\nkernel r(x: [complex]N) = fft(x)\n", {{"N", 8}}),
               ir::CompileError);
}

}  // namespace
}  // namespace fftc::fftlib::test
