// The multi-pass form of fft operations (fftlib/plan/fft_ops_passes.h, issue 24): transforms
// the planner plans as the two-level hierarchical FFT (forced here at cheap sizes by a small
// local-memory budget), the work around them in their first and last kernels. Each program is
// checked on the interpreter before and after lowerFft against FFTW or a direct sum, and the
// kernels are counted: two per transform (one fewer for each transform after another), none for
// the work around them.
#include <gtest/gtest.h>

#include <complex>
#include <functional>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>

#ifdef FFTC_HAVE_CUDA
#include "compiler/exec/cuda_exec.h"
#endif
#include "compiler/exec/exec.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_ops.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/fft_ops_util.h"
#include "tests/support/opencl_device.h"
#include "ir/interpreter.h"

namespace fftc::fftlib::test {
namespace {

using compiler::frontend::Kernel;

// Budgets of local memory that force the planner's hierarchical plans at cheap sizes (f64):
// rows of 64 in 512 bytes are three levels 4 x 4 x 4, rows of 256 in 4 KiB two levels 16 x 16.
constexpr int64_t kThreeLevels64 = 512, kTwoLevels256 = 4096;

struct Checked {
  ExpandedFftOps expanded;
  size_t stages = 0;
};

// The expansion under `localMemory` bytes and its lowering, on the interpreter against `want`.
Checked check(const Kernel& k, const std::vector<ir::Value>& args, const std::vector<C>& want,
              int64_t localMemory) {
  FftRequest limits;
  limits.localMemoryBytes = localMemory;
  Checked c{expandFftOps(k, limits)};
  EXPECT_LT(maxRelError(ir::interpretCall(c.expanded.kernel.lambda, args).toComplexVector(), want),
            1e-12);
  const auto built = buildExpanded(c.expanded, "", compiler::pipeline::Target::OpenCL);
  EXPECT_LT(
      maxRelError(ir::interpretCall(built.lowered.kernel.lambda, args).toComplexVector(), want),
      1e-12);
  c.stages = built.compiled.stages.size();
  return c;
}

// window (an array of the row's size), transform, a product with a spectrum, a scaling
TEST(FftOpsPasses, PointwiseWorkAroundOneTransformIsInItsKernels) {
  const int64_t n = 64, b = 3;
  for (const bool inverse : {false, true}) {
    const std::string text = fmt::format(
        "kernel k(x: [[complex]N]B, w: [complex]N, v: [complex]N) = map(fun row => "
        "map(fun y => y * 0.5) <<: map(mult) <<: zip({}(map(mult) <<: zip(row, w)), v)) <<: x\n",
        inverse ? "ifft" : "fft");
    SCOPED_TRACE(text);
    const Kernel k = compileKernel(text, {{"N", n}, {"B", b}});
    const auto x = randomVector(n * b, 1), w = randomVector(n, 2), v = randomVector(n, 3);
    std::vector<C> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] * w[i % n];
    want = dftRows(want, n, inverse ? Direction::Inverse : Direction::Forward);
    for (size_t i = 0; i < x.size(); ++i) want[i] *= v[i % n] * 0.5;
    const Checked c = check(k,
                            {ir::Value::complexArray(x, ir::ScalarKind::Double, {b, n}),
                             ir::Value::complexArray(w, ir::ScalarKind::Double, {n}),
                             ir::Value::complexArray(v, ir::ScalarKind::Double, {n})},
                            want, kThreeLevels64);
    EXPECT_TRUE(c.expanded.multiPass);
    EXPECT_EQ(c.stages, 3U);
    ASSERT_EQ(c.expanded.operations.size(), 1U);
    EXPECT_NE(c.expanded.operations[0].find("hierarchical"), std::string::npos)
        << c.expanded.operations[0];
  }
}

// random pointwise chains before and after a transform (windows, products, sums with an
// array of the row's size, scalings, conjugates, magnitudes): always the form, always right
TEST(FftOpsPasses, RandomPointwiseChainsAroundATransformMatchFftw) {
  struct Op {
    std::string text;  // "zip(w)" stands for zip(inner, w)
    std::function<C(C, C)> apply;
  };
  const std::vector<Op> ops = {
      {"map(fun y => y * 0.5)", [](C y, C) { return y * 0.5; }},
      {"map(conj)", [](C y, C) { return std::conj(y); }},
      {"map(mult) <<: zip(w)", [](C y, C w) { return y * w; }},
      {"map(add) <<: zip(w)", [](C y, C w) { return y + w; }},
      {"map(fun y => {re(y) * re(y) + im(y) * im(y), 0.0})",
       [](C y, C) { return C(std::norm(y), 0.0); }},
  };
  std::mt19937 rng(2424);
  const int64_t n = 64;
  for (int trial = 0; trial < 6; ++trial) {
    const int64_t b = 1 + static_cast<int64_t>(rng() % 3);
    const bool inverse = rng() % 2;
    std::vector<const Op*> pre, post;
    for (unsigned k = 1 + rng() % 2; k-- > 0;) pre.push_back(&ops[rng() % ops.size()]);
    for (unsigned k = 1 + rng() % 2; k-- > 0;) post.push_back(&ops[rng() % ops.size()]);
    auto chain = [](const std::vector<const Op*>& list, std::string inner) {
      for (const auto* op : list) {
        std::string t = op->text;
        if (auto at = t.find("zip(w)"); at != std::string::npos)
          inner = t.replace(at, 6, "zip(" + inner + ", w)");
        else
          inner = t + " <<: " + inner;
      }
      return inner;
    };
    const std::string text = fmt::format(
        "kernel k(x: [[complex]N]B, w: [complex]N) = map(fun row => {}) <<: x\n",
        chain(post, fmt::format("{}({})", inverse ? "ifft" : "fft", chain(pre, "row"))));
    SCOPED_TRACE(fmt::format("B={}: {}", b, text));
    const auto x = randomVector(n * b, 300 + trial), w = randomVector(n, 400 + trial);
    std::vector<C> want = x;
    auto applyAll = [&](const std::vector<const Op*>& list) {
      for (const auto* op : list)
        for (size_t i = 0; i < want.size(); ++i) want[i] = op->apply(want[i], w[i % n]);
    };
    applyAll(pre);
    want = dftRows(want, n, inverse ? Direction::Inverse : Direction::Forward);
    applyAll(post);
    const Checked c = check(compileKernel(text, {{"N", n}, {"B", b}}),
                            {ir::Value::complexArray(x, ir::ScalarKind::Double, {b, n}),
                             ir::Value::complexArray(w, ir::ScalarKind::Double, {n})},
                            want, kThreeLevels64);
    EXPECT_TRUE(c.expanded.multiPass);
    EXPECT_EQ(c.stages, 3U);
  }
}

// forward, product, inverse, scaling: a kernel per level and transform but one, the forward's
// last kernel, the product and the inverse's first in one (the inverse's levels the other way
// round): 3 kernels at two levels, 5 at three
TEST(FftOpsPasses, ConvolutionFusesTheForwardsLastKernelWithTheInversesFirst) {
  for (const auto& [n, budget, stages] :
       {std::tuple<int64_t, int64_t, size_t>{256, kTwoLevels256, 3}, {64, kThreeLevels64, 5}}) {
    const int64_t b = 2;
    const Kernel k = compileKernel(
        "kernel conv(x: [[complex]N]B, H: [complex]N) = map(fun row => "
        "map(fun y => y * (1.0 / N)) <<: ifft <<: map(mult) <<: zip(fft(row), H)) <<: x\n",
        {{"N", n}, {"B", b}});
    const auto x = randomVector(n * b, 4), h = randomVector(n, 5);
    const auto hSpec = dftRows(h, n, Direction::Forward);
    const std::vector<C> want = circularConvolution(x, h, n);
    const Checked c = check(k,
                            {ir::Value::complexArray(x, ir::ScalarKind::Double, {b, n}),
                             ir::Value::complexArray(hSpec, ir::ScalarKind::Double, {n})},
                            want, budget);
    EXPECT_TRUE(c.expanded.multiPass);
    EXPECT_EQ(c.stages, stages);
    EXPECT_EQ(c.expanded.stageLocal.size(), stages);
    ASSERT_EQ(c.expanded.operations.size(), 2U);
    EXPECT_NE(c.expanded.operations[1].find("the last of the transform before"), std::string::npos)
        << c.expanded.operations[1];
  }
}

// a padded row (the padding a view: only the row is read) and a cropped result
TEST(FftOpsPasses, PaddingAndCroppingAreViews) {
  for (const auto& [m, budget, stages] :
       {std::tuple<int64_t, int64_t, size_t>{128, kTwoLevels256, 3}, {32, kThreeLevels64, 5}}) {
    const int64_t b = 3;  // rows of m padded to 2m
    const Kernel k = compileKernel(
        "kernel p(x: [[complex]M]B) = map(fun row => map(fun y => y * 2.0) <<: crop(0, M) <<: "
        "ifft <<: fft <<: pad(0, M, {0.0, 0.0}) <<: row) <<: x\n",
        {{"M", m}, {"B", b}});
    const auto x = randomVector(m * b, 6);
    std::vector<C> want(x.size());
    for (size_t i = 0; i < x.size(); ++i) want[i] = x[i] * (2.0 * 2 * m);  // ifft o fft = 2m
    const Checked c =
        check(k, {ir::Value::complexArray(x, ir::ScalarKind::Double, {b, m})}, want, budget);
    EXPECT_TRUE(c.expanded.multiPass);
    EXPECT_EQ(c.stages, stages);
  }
}

// The multi-pass conv's first kernels are hierarchical.fdl's tile (twiddledTileWith, given the
// row function by name), as the plain FFT's plans (FftPlan.TwoLevelTilesSkewedAndSpread), and
// compile as those plans do (ExpandedFftOps::localRowSkew, localReuseInPass): the tile's rows
// one element more than their padded length apart (f32 2^17 at an H200's 227 KiB: 8 rows of
// 512 at 545, not 544: the 8 rows a warp takes at one offset met in one bank), the copy-out
// spread over the whole launched work-group where a row takes more work-items than the tile
// has rows (8 x 64: 64 rows of work-items, not 8 of them copying 512 elements a row), one local
// array (half the bytes). Run on the OpenCL device (PoCL runs a group's work-items one after
// another between barriers: a write before another's read shows) against FFTW.
TEST(FftOpsPasses, ConvolutionTilesSkewedAndSpread) {
  struct Case {
    int64_t n, localMemory, f, w, row;
  };
  // 8192 in 16 KiB: 8 columns of 128 on 8 x 16 work-items; 2^17 in 227 KiB: 8 of 512 on 8 x 64;
  // 2^19: the wide tile, 8 of 1024 as [4, 16, 16] on 8 x 64, its first pass four butterflies a
  // work-item at once as the plain FFT's (fftTileW)
  for (const Case c : {Case{8192, 16384, 8, 16, 128}, Case{int64_t{1} << 17, 232448, 8, 64, 512},
                       Case{int64_t{1} << 19, 232448, 8, 64, 1024}}) {
    SCOPED_TRACE(c.n);
    const int64_t b = 2;
    const Kernel k = compileKernel(
        "kernel conv(x: [[complex]N]B, H: [complex]N) = map(fun row => "
        "map(fun y => y * (1.0 / N)) <<: ifft <<: map(mult) <<: zip(fft(row), H)) <<: x\n",
        {{"N", c.n}, {"B", b}}, ir::ScalarKind::Float);
    FftRequest limits;
    limits.target = compiler::pipeline::Target::OpenCL;
    limits.localMemoryBytes = c.localMemory;
    const ExpandedFftOps e = expandFftOps(k, limits);
    ASSERT_TRUE(e.multiPass);
    EXPECT_TRUE(e.localRowSkew);
    EXPECT_TRUE(e.localReuseInPass);
    ASSERT_EQ(e.stageLocal.size(), 3U);
    EXPECT_EQ(e.stageLocal[0], (std::vector<int64_t>{c.f, c.w}));
    const auto built = buildExpanded(e, "", compiler::pipeline::Target::OpenCL);
    ASSERT_EQ(built.compiled.stages.size(), 3U);
    const auto& s0 = built.compiled.stages[0];
    const int64_t padded = c.row + c.row / 16;  // codegen's padding: one element in 16
    EXPECT_NE(s0.source.find(fmt::format("{} * ", padded + 1)), std::string::npos) << s0.source;
    EXPECT_EQ(s0.source.find(fmt::format("{} * ", padded)), std::string::npos) << s0.source;
    // the copy-out: c.w rows of work-items, c.f elements a row of them, not c.row
    EXPECT_NE(s0.source.find(fmt::format("< {}; ", c.w)), std::string::npos) << s0.source;
    EXPECT_EQ(s0.source.find(fmt::format("< {}; ", c.row)), std::string::npos) << s0.source;
    const compiler::codegen::CodegenOptions skewed{.localRowSkew = true};
    EXPECT_EQ(s0.localMemoryBytes, skewed.skewedLocalCount(c.f * c.row, c.f) * 8);  // one array
    // the plain FFT's first stage of the same plan is the same kernel (the forward's first
    // kernel reads the row itself), but for its name: one tile, not two
    FftRequest plain = limits;
    plain.size = c.n;
    plain.batch = b;
    const auto p = planFft(plain);
    ASSERT_EQ(p->compiled.stages.size(), 2U);
    auto unnamed = [](std::string text, const std::string& kernel) {
      for (size_t at = text.find(kernel); at != std::string::npos; at = text.find(kernel))
        text.replace(at, kernel.size(), "K");
      std::erase_if(text, [](char ch) { return ch == ' ' || ch == '\n'; });
      return text;
    };
    EXPECT_EQ(unnamed(s0.source, s0.kernel),
              unnamed(p->compiled.stages[0].source, p->compiled.stages[0].kernel));

    const auto x = randomVector(static_cast<size_t>(c.n * b), 11);
    const auto h = dftRows(randomVector(static_cast<size_t>(c.n), 12), c.n, Direction::Forward);
    std::vector<C> want = dftRows(x, c.n, Direction::Forward);
    for (size_t i = 0; i < want.size(); ++i) want[i] *= h[i % static_cast<size_t>(c.n)];
    want = dftRows(want, c.n, Direction::Inverse);
    for (auto& v : want) v /= static_cast<double>(c.n);
    const std::vector<ir::Value> args = {ir::Value::complexArray(x, ir::ScalarKind::Float, {b, c.n}),
                                         ir::Value::complexArray(h, ir::ScalarKind::Float, {c.n})};
    const auto got =
        compiler::exec::runCompiled(fftc::testing::openclContext(), built.compiled, args)
            .output.toComplexVector();
    EXPECT_LT(maxRelError(got, want), 1e-5);
  }
}

#ifdef FFTC_HAVE_CUDA
// The CUDA target at a size that needs several kernels on an H100 (227 KiB of shared memory):
// the kernels compile with NVRTC (no GPU needed; the run is the lead's pipeline_bench).
TEST(FftOpsPasses, ConvolutionOfLongRowsCompilesForCuda) {
  compiler::frontend::ElaborateOptions opts;
  opts.defines = {{"N", 65536}, {"B", 2}};
  const Kernel k = compiler::frontend::compileSource(
                       "kernel conv(x: [[complex]N]B, H: [complex]N) = map(fun row => "
                       "map(fun y => y * (1.0 / N)) <<: ifft <<: map(mult) <<: zip(fft(row), H)) "
                       "<<: x\n",
                       "conv.fdl", opts)
                       .kernels.at(0);
  FftRequest limits;
  limits.target = compiler::pipeline::Target::Cuda;
  limits.localMemoryBytes = 227 * 1024;
  const ExpandedFftOps e = expandFftOps(k, limits);
  ASSERT_TRUE(e.multiPass);
  const auto built = buildExpanded(e, "", compiler::pipeline::Target::Cuda);
  EXPECT_EQ(built.compiled.stages.size(), 3U);  // two levels 256 x 256, one kernel shared
  EXPECT_FALSE(compiler::exec::compileCuda(built.compiled).binary.empty());

  // 16384 fits 227 KiB only as one local array: one transform, or a chain of two, is one
  // kernel in it ([16, 16, 16, 4]; the convolution's forward [4, 16, 16, 16]); a chain of three
  // would loop over radix-4 butterflies between local arrays, which the one-kernel form does not
  // take: the hierarchical plan, not a pass over global memory per radix
  opts.defines = {{"N", 16384}, {"B", 2}};
  const auto expand = [&](const char* text) {
    return expandFftOps(compiler::frontend::compileSource(text, "f.fdl", opts).kernels.at(0),
                        limits);
  };
  const ExpandedFftOps one =
      expand("kernel f(x: [[complex]N]B) = map(fun row => fft(row)) <<: x\n");
  EXPECT_TRUE(one.oneKernel);
  EXPECT_TRUE(one.oneArray);
  ASSERT_EQ(one.operations.size(), 1U);
  EXPECT_NE(one.operations[0].find("radices 16, 16, 16, 4 (one kernel"), std::string::npos)
      << one.operations[0];
  const ExpandedFftOps e16 =
      expand("kernel f(x: [[complex]N]B) = map(fun row => fft <<: ifft <<: fft(row)) <<: x\n");
  EXPECT_TRUE(e16.multiPass);
  EXPECT_FALSE(e16.oneKernel);
  ASSERT_EQ(e16.operations.size(), 3U);
  EXPECT_NE(e16.operations[0].find("hierarchical"), std::string::npos) << e16.operations[0];
  EXPECT_FALSE(
      compiler::exec::compileCuda(buildExpanded(e16, "", compiler::pipeline::Target::Cuda).compiled)
          .binary.empty());
}
#endif

// work the form does not take (the transform's result beside the row's own transform) stays
// correct: passes over global memory
TEST(FftOpsPasses, TwoTransformsSideBySideAreNotTheForm) {
  const int64_t n = 64, b = 2;
  const Kernel k = compileKernel(
      "kernel s(x: [[complex]N]B) = map(fun row => map(add) <<: zip(fft(row), ifft(row))) <<: x\n",
      {{"N", n}, {"B", b}});
  const auto x = randomVector(n * b, 7);
  auto f = dftRows(x, n, Direction::Forward), g = dftRows(x, n, Direction::Inverse);
  for (size_t i = 0; i < f.size(); ++i) f[i] += g[i];
  const Checked c =
      check(k, {ir::Value::complexArray(x, ir::ScalarKind::Double, {b, n})}, f, kThreeLevels64);
  EXPECT_FALSE(c.expanded.multiPass);
}

}  // namespace
}  // namespace fftc::fftlib::test
