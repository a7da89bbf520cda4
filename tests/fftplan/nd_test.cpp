// Multi-dimensional FFTs (nd.fdl through the planner and the API, issue 7) on OpenCL (PoCL here),
// against FFTW's N-D DFT in long double with the tolerance of docs/fftlib.md for N the total
// size; and `fftc fft`/`fftc run --size NxM...` end to end. Few, small plans: PoCL compiles
// each kernel with LLVM.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <sys/wait.h>
#include <array>
#include <complex>
#include <cstdio>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/opencl/runtime.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/kernel_loops.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

namespace cl = backends::opencl;
using Dims = std::vector<int64_t>;

cl::Context& context() { return fftc::testing::openclContext(); }

// The N-D part of a choice; an empty one for a 1D choice.
NdChoice nd(const PlanChoice& c) {
  const auto* n = c.as<NdChoice>();
  return n ? *n : NdChoice{};
}

// N-D requests (two or more dimensions)
FftRequest ndRequest(Dims dims, int64_t batch = 1, Precision p = Precision::F32) {
  return shapeRequest(std::move(dims), batch, p);
}

// linf error of the plan's result against FFTW's DFT over `refDims` (the request's own dims,
// or others for a negative control).
template <typename T>
double ndError(const FftRequest& r, const Dims& refDims, std::string* plan = nullptr) {
  Plan p = Plan::create(context(), r);
  if (plan) *plan = p.info().describe();
  auto x =
      uniformInput<T>(static_cast<size_t>(r.size * r.batch), 7 + static_cast<uint64_t>(r.size));
  auto y = p.run(x);
  auto ref = referenceDft(toLongDouble(std::span<const std::complex<T>>(x)), refDims, r.batch,
                          r.direction);
  if (r.scale)
    for (auto& v : ref) v /= static_cast<long double>(r.size);
  return linfError(std::span<const std::complex<T>>(y), ref);
}

void expectAccurate(const FftRequest& r) {
  SCOPED_TRACE(r.key());
  std::string plan;
  try {
    double e = r.precision == Precision::F64 ? ndError<double>(r, r.dims, &plan)
                                             : ndError<float>(r, r.dims, &plan);
    EXPECT_LE(e, fftTolerance(r.size, r.precision)) << plan;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "failed: " << e.what();
  }
}

// ---- the planner (no device)

TEST(NdPlanner, ChoosesEachDimensionAndThePasses) {
  auto c = choosePlan(ndRequest({8, 47, 6}));
  EXPECT_EQ(c.file, "nd.fdl");
  EXPECT_EQ(c.kernel, "ndLocal");  // a local pass per dimension, Bluestein's 47 too
  EXPECT_EQ(nd(c).dimBluestein, (std::vector<bool>{false, true, false}));
  // Bluestein's M >= 2n - 1
  EXPECT_EQ(nd(c).dimRadices[1], chooseRadices(bluesteinSize(47, Precision::F32)));
  EXPECT_EQ(nd(c).passGroups, (Dims{0, 1, 2, 3}));  // a pass per dimension
  // a prime whose Rader butterfly fits a work-item (primeInOneWorkItem: f32 31), one radix in
  // 1D, stays Bluestein's in a local pass here (as one radix it took passes over global memory,
  // slower on an H200)
  const auto one = choosePlan(ndRequest({8, 31, 6}));
  EXPECT_EQ(one.kernel, "ndLocal");
  EXPECT_EQ(nd(one).dimBluestein, (std::vector<bool>{false, true, false}));
  auto given = ndRequest({8, 31, 6});
  given.passGroups = {0, 1, 2, 3};  // the request's grouping: nd.fdl's nd
  EXPECT_EQ(choosePlan(given).kernel, "nd");
  // many small planes: the inner two dimensions share a pass (a 16 x 16 plane per work-item),
  // two passes in all, fewer than ndLocal's three
  EXPECT_EQ(nd(choosePlan(ndRequest({16, 16, 16}, 64))).passGroups, (Dims{0, 1, 3}));
  // 256^3: a plane is too large to share; each dimension's line FFTs in local memory
  // (ndLocal), one pass per dimension where the grouping would make one per radix (six)
  auto p = planFft(ndRequest({256, 256, 256}));
  EXPECT_EQ(p->choice.kernel, "ndLocal");
  EXPECT_EQ(p->stages.size(), 3u);
  EXPECT_NE(p->describe().find("passes over global memory: 3 stages, 3.00"), std::string::npos)
      << p->describe();
  // the grouping stays where it makes fewer passes, or the request fixes it
  EXPECT_EQ(choosePlan(ndRequest({16, 16, 16}, 64)).kernel, "nd");
  // with 512 = 8 x 8 x 8 alone in a pass the grouping {0, 1, 3} would make four passes
  EXPECT_EQ(choosePlan(ndRequest({512, 32, 32})).kernel, "ndLocal");
  auto grouped = ndRequest({256, 256, 256});
  grouped.passGroups = {0, 1, 2, 3};
  EXPECT_EQ(planFft(grouped)->stages.size(), 6u);
  EXPECT_NE(p->compiled.name.find("256x256x256"), std::string::npos);
}

TEST(NdPlanner, RejectsBadRequests) {
  auto bad = ndRequest({4, 4});
  bad.size = 15;
  EXPECT_THROW((void)choosePlan(bad), backends::UserError);  // size is not the product
  EXPECT_THROW((void)choosePlan(ndRequest({4, 0})), backends::UserError);
  auto groups = ndRequest({4, 4, 4});
  groups.passGroups = {0, 2, 2, 3};
  EXPECT_THROW((void)choosePlan(groups), backends::UserError);
  groups.passGroups = {0, 2};
  EXPECT_THROW((void)choosePlan(groups), backends::UserError);
  auto variant = ndRequest({4, 4});
  variant.variant = Variant::Hierarchical;
  EXPECT_THROW((void)choosePlan(variant), backends::UserError);
  auto radices = ndRequest({4, 4});
  radices.radices = {4, 4};
  EXPECT_THROW((void)choosePlan(radices), backends::UserError);
  EXPECT_THROW((void)choosePlan(ndRequest({1 << 16, 1 << 15})), backends::UserError);  // > 2^30
}

// ---- on the device, against FFTW

TEST(NdFft, TwoDimensions) {
  expectAccurate(ndRequest({8, 6}, 2));              // power of two x smooth
  expectAccurate(ndRequest({31, 16}, 1));            // a prime (Bluestein) dimension
  expectAccurate(ndRequest({23, 16}, 1));            // a prime radix (23) dimension
  auto inv = ndRequest({9, 10}, 3, Precision::F64);  // odd, f64, inverse, scaled
  inv.direction = Direction::Inverse;
  inv.scale = true;
  expectAccurate(inv);
}

TEST(NdFft, ThreeAndFourDimensions) {
  expectAccurate(ndRequest({5, 7, 4}, 3));  // odd and prime dimensions
  auto fused = ndRequest({4, 3, 8}, 2, Precision::F64);
  fused.passGroups = {0, 1, 3};  // two passes: 4, then 3x8 planes
  expectAccurate(fused);
  auto one = ndRequest({3, 4, 5}, 2);
  one.passGroups = {0, 3};  // the whole 3D FFT in one pass
  one.direction = Direction::Inverse;
  expectAccurate(one);
  expectAccurate(ndRequest({2, 3, 2, 5}, 2));  // 4D
}

// ndLocal: a pass per dimension, the lines in local memory (strided tiles and contiguous rows)
TEST(NdFft, LocalMemoryPassPerDimension) {
  for (auto r : {ndRequest({16, 32}, 3), ndRequest({32, 48, 5}, 2),
                 ndRequest({64, 64, 64}, 1), ndRequest({12, 20}, 2, Precision::F64)}) {
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    // 16 x 32 is one plane: one pass; 64^3 two (fused3: ThreeDimensionsInTwoPasses)
    EXPECT_EQ(planFft(r)->stages.size(),
              r.dims.size() - (nd(c).planePass || nd(c).fusedSplit ? 1 : 0))
        << r.key();
    expectAccurate(r);
  }
  auto inv = ndRequest({32, 16, 8}, 2);
  inv.direction = Direction::Inverse;
  inv.scale = true;
  expectAccurate(inv);
}

// ndLocal's plane pass: the innermost two dimensions in one pass (a plane per work-group)
TEST(NdFft, InnerPlaneInOnePass) {
  auto inv = ndRequest({7, 32, 32}, 1);
  inv.direction = Direction::Inverse;
  inv.scale = true;
  for (auto r : {ndRequest({32, 32, 32}, 1), ndRequest({16, 64}, 3),
                 ndRequest({10, 32, 16}, 2, Precision::F64), inv}) {
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_TRUE(nd(c).planePass) << r.key();
    EXPECT_EQ(planFft(r)->stages.size(), r.dims.size() - 1) << r.key();  // 32^3: 2 passes
    expectAccurate(r);
  }
  EXPECT_FALSE(nd(choosePlan(ndRequest({64, 64, 64}))).planePass);  // 64 x 64 does not fit
}

// Beyond 48 KiB, a plane whose two arrays do not fit but one does (128 x 128 f32 under an
// H200's 227 KiB: 137 KiB) is one pass in one array: rows [r0, R, .., R], columns the reverse
// (each line's pass from the shared array to the local intermediate has n / R butterflies,
// one a work-item, so the generator may put a barrier in it), n / R work-items a line. Here
// 64 x 64 under budgets between one array and two (f32 60000 bytes, f64 100000).
TEST(NdFft, InnerPlaneInOneArrayBeyond48KiB) {
  auto inv = ndRequest({3, 64, 64}, 1);
  inv.direction = Direction::Inverse;
  inv.scale = true;
  inv.localMemoryBytes = 60000;
  auto f32 = ndRequest({4, 64, 64}, 1);
  f32.localMemoryBytes = 60000;
  auto f64 = ndRequest({2, 64, 64}, 2, Precision::F64);
  f64.localMemoryBytes = 100000;
  for (const auto& r : {f32, f64, inv}) {
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_TRUE(nd(c).planePass) << r.key();
    EXPECT_EQ(nd(c).dimRadices[1], (Dims{16, 4})) << r.key();
    EXPECT_EQ(nd(c).dimRadices[2], (Dims{4, 16})) << r.key();
    const auto plan = planFft(r);
    ASSERT_EQ(plan->stages.size(), 2u) << r.key();
    // one skewed, padded 64 x 64 array: less than two unpadded ones
    EXPECT_LT(plan->compiled.stages[0].localMemoryBytes, 2 * 64 * 64 * complexBytes(r.precision))
        << r.key();
    expectAccurate(r);
  }
  // 128^3 f32 under an H200's budget: 2 passes (3 with two arrays a plane)
  auto big = ndRequest({128, 128, 128});
  big.localMemoryBytes = 232448;
  EXPECT_TRUE(nd(choosePlan(big)).planePass);
  EXPECT_EQ(planFft(big)->stages.size(), 2u);
  big.precision = Precision::F64;  // 256 KiB a plane: a pass per dimension
  EXPECT_FALSE(nd(choosePlan(big)).planePass);
  // a scaled plane alone normalizes after its columns, in a second array: no one-array plane
  auto alone = ndRequest({64, 64});
  alone.localMemoryBytes = 60000;
  EXPECT_TRUE(nd(choosePlan(alone)).planePass);
  alone.scale = true;
  EXPECT_FALSE(nd(choosePlan(alone)).planePass);
  expectAccurate(alone);
}

// Three dimensions Z x Y x X whose Y x X plane fits no local memory in two passes (nd.fdl's
// fused3, Wu & JaJa): Y = n1·n2 by the four-step, pass 1 X and the n2-point FFTs on each
// (z, y1) plane, pass 2 the twiddles, the n1-point FFTs and Z on [Z][n1][F] blocks (F x's one
// 32-byte sector). Within 48 KiB 64^3 (64 = 8 x 8), 16 x 64 x 64 (Z one radix, 4 x 16) and 60^3
// (4 x 15) take it; against FFTW, f32 and f64, forward and inverse scaled.
TEST(NdFft, ThreeDimensionsInTwoPasses) {
  struct Case {
    Dims dims;
    int64_t batch;
    Precision p;
    bool inverse;
    int64_t n1;
  };
  for (const auto& k : {Case{{64, 64, 64}, 1, Precision::F32, false, 8},
                        Case{{64, 64, 64}, 1, Precision::F64, true, 8},
                        Case{{16, 64, 64}, 2, Precision::F32, true, 4},
                        Case{{32, 32, 64}, 1, Precision::F64, false, 4},
                        Case{{60, 60, 60}, 1, Precision::F32, false, 4}}) {  // 60 = 4 x 15
    auto r = ndRequest(k.dims, k.batch, k.p);
    if (k.inverse) {
      r.direction = Direction::Inverse;
      r.scale = true;
    }
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_FALSE(nd(c).planePass) << r.key();
    EXPECT_EQ(nd(c).fusedSplit, k.n1) << r.key();
    EXPECT_EQ(nd(c).fusedColumns, 32 / complexBytes(k.p)) << r.key();
    EXPECT_EQ(nd(c).dimRadices[1], (Dims{k.n1, k.dims[1] / k.n1})) << r.key();
    EXPECT_EQ(planFft(r)->stages.size(), 2u) << r.key();
    expectAccurate(r);
  }
  // under an H200's budget: 256^3 f32 and f64 (16 x 16) and 128^3 f64 (8 x 16), three passes
  // before, each pass within the budget, pass 2 one array of its [Z][n1][F] block (128 KiB)
  struct Big {
    Dims dims;
    Precision p;
    int64_t n1;
  };
  for (const auto& k :
       {Big{{256, 256, 256}, Precision::F32, 16}, Big{{256, 256, 256}, Precision::F64, 16},
        Big{{128, 128, 128}, Precision::F64, 8}}) {
    auto r = ndRequest(k.dims, 1, k.p);
    r.localMemoryBytes = 232448;
    EXPECT_EQ(nd(choosePlan(r)).fusedSplit, k.n1) << r.key();
    const auto plan = planFft(r);
    ASSERT_EQ(plan->stages.size(), 2u) << r.key();
    const int64_t block = k.dims[0] * k.n1 * 32;  // [Z][n1][F] of 32 bytes
    for (const auto& st : plan->compiled.stages) EXPECT_LE(st.localMemoryBytes, 232448) << r.key();
    EXPECT_LT(plan->compiled.stages[1].localMemoryBytes, 2 * block) << r.key();
    r.localMemoryBytes = 0;  // within 48 KiB no plane of 256 x 16 (or 128 x 16 f64) fits
    EXPECT_EQ(nd(choosePlan(r)).fusedSplit, 0) << r.key();
  }
  // a 37-point butterfly a work-item on 555 of them would not fit its registers: three passes
  EXPECT_EQ(nd(choosePlan(ndRequest({22, 74, 60}))).fusedSplit, 0);
  // 128^3 f32 keeps its one-array plane (two passes already)
  auto plane = ndRequest({128, 128, 128});
  plane.localMemoryBytes = 232448;
  EXPECT_TRUE(nd(choosePlan(plane)).planePass);
  EXPECT_EQ(nd(choosePlan(plane)).fusedSplit, 0);
  // a request's pass groups are the request's
  auto given = ndRequest({64, 64, 64});
  given.passGroups = {0, 1, 2, 3};
  EXPECT_EQ(choosePlan(given).kernel, "nd");
}

// A plane whose rows and columns both take several radix passes, of different sizes, cannot
// share planePass's barriers (loops of na and nb iterations on local dimension 1): a pass per
// dimension. These failed to compile ("barriers inside mapLocal(1) loops of 64 and 32
// iterations"), on every target, and so the distributed slabs of 64 x 48 x 40.
TEST(NdFft, UnequalPlanesOfSeveralPassesTakeAPassPerDimension) {
  for (auto r : {ndRequest({64, 32}, 1), ndRequest({48, 40}, 2), ndRequest({5, 20, 24}, 1)}) {
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_FALSE(nd(c).planePass) << r.key();
    expectAccurate(r);
  }
}

// ndLocal with Bluestein dimensions whose M fits: one pass each, bluesteinLocal on the lines
TEST(NdFft, BluesteinDimensionsInOneLocalPass) {
  for (auto r : {ndRequest({31, 16}, 2), ndRequest({257, 8}, 1), ndRequest({8, 47, 6}, 2)}) {
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_EQ(planFft(r)->stages.size(), r.dims.size()) << r.key();
    expectAccurate(r);
  }
}

// ndLocal with dimensions too long for local memory: the four-step FFT in two local passes
// (strided columns, and the innermost dimension whose pass B writes transposed)
TEST(NdFft, FourStepDimensionsInTwoLocalPasses) {
  auto inv = ndRequest({2, 3072}, 2);
  inv.direction = Direction::Inverse;
  inv.scale = true;
  // 2048 fits local memory, but only one strided line of it: 8-byte tiles; the four-step's
  // two passes have wide ones
  for (auto r : {ndRequest({4096, 8}, 1), ndRequest({6, 6000}, 1, Precision::F64), inv,
                 ndRequest({2048, 4}, 1)}) {
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    size_t split = 0;
    for (int64_t n1 : nd(c).fourStepSplits) split += n1 > 0;
    EXPECT_EQ(split, 1u) << r.key();
    EXPECT_EQ(planFft(r)->stages.size(), r.dims.size() + 1) << r.key();
    expectAccurate(r);
  }
}

// Under a budget beyond 48 KiB (a CUDA device's 227 KiB), a column dimension whose tile within
// 48 KiB would be narrower than a sector takes a wide tile in one pass (wideTileColumns: 64
// bytes of columns in one local array, [4, 16, 16] on 64 work-items a line, its radix-4 first
// pass four butterflies at once a work-item: nd.fdl's lineWidth) instead of the four-step's
// two; under 48 KiB the four-step stays.
TEST(NdFft, WideColumnTileInOnePassBeyond48KiB) {
  for (auto p : {Precision::F32, Precision::F64}) {
    auto r = ndRequest({1024, 16}, 1, p);
    r.localMemoryBytes = 232448;
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_EQ(nd(c).fourStepSplits, (Dims{0, 0})) << r.key();
    EXPECT_EQ(nd(c).dimRadices.front(), (Dims{4, 16, 16})) << r.key();
    EXPECT_EQ(nd(c).linesPerGroup.front(), p == Precision::F32 ? 8 : 4) << r.key();
    EXPECT_TRUE(c.localReuseInPass);
    const auto plan = planFft(r);
    ASSERT_EQ(plan->stages.size(), 2u) << r.key();
    EXPECT_EQ(firstRowLoop(plan->compiled.stages[1].source), 64) << r.key();  // the columns'
    expectAccurate(r);
    r.localMemoryBytes = 0;
    EXPECT_EQ(planFft(r)->stages.size(), 3u) << r.key();  // the four-step within 48 KiB
  }
}

// Where no 64-byte tile fits a third of the budget on 512 work-items (2048 and 4096 f32: 8
// columns of [8, 16, 16] take 1024 work-items and 128 KiB), a 64-byte tile in the whole budget
// on at most 1024 does (sectorTileColumns, session 24: 2048 x 8 f32 in 128 KiB on 1024
// work-items, f64 x 4 on 512), else a tile one 32-byte sector wide in one array (4096 x 4 f32
// in 128 KiB on 1024, f64 x 2; 2048 x 4 f32 where the rows are 4, 64 KiB on 512, f64 x 2): the
// column dimension in one pass, 2048^2 and 4096^2 in two; the
// first pass of 2048's radix 8 loops over its two butterflies a work-item (8 loads a trip:
// common.fdl's stockPassFirstW takes them at once only at radix 4 or less).
TEST(NdFft, SectorWideColumnTileInOnePassBeyond48KiB) {
  struct Case {
    Dims dims;
    Precision p;
    Dims radices;
    int64_t lines;
  };
  for (const auto& [dims, p, radices, lines] : {Case{{2048, 4}, Precision::F32, {8, 16, 16}, 4},
                                                Case{{4096, 4}, Precision::F32, {16, 16, 16}, 4},
                                                Case{{2048, 8}, Precision::F32, {8, 16, 16}, 8},
                                                Case{{2048, 2}, Precision::F64, {8, 16, 16}, 2},
                                                Case{{2048, 4}, Precision::F64, {8, 16, 16}, 4},
                                                Case{{4096, 2}, Precision::F64, {16, 16, 16}, 2}}) {
    auto r = ndRequest(dims, 1, p);
    r.localMemoryBytes = 232448;
    const auto c = choosePlan(r);
    ASSERT_EQ(c.kernel, "ndLocal") << r.key();
    EXPECT_EQ(nd(c).fourStepSplits, (Dims{0, 0})) << r.key();
    EXPECT_EQ(nd(c).dimRadices.front(), radices) << r.key();
    EXPECT_EQ(nd(c).linesPerGroup.front(), lines) << r.key();
    const auto plan = planFft(r);
    ASSERT_EQ(plan->stages.size(), 2u) << r.key();
    EXPECT_EQ(firstRowLoop(plan->compiled.stages[1].source), dims.front() / radices.front())
        << r.key();
    expectAccurate(r);
    r.localMemoryBytes = 0;
    EXPECT_EQ(planFft(r)->stages.size(), 3u) << r.key();  // the four-step within 48 KiB
  }
  // scaled inverse: the scale rides in the sector tile's pass (nd.fdl scaleOuter), which stays
  // in one array within the budget
  auto inv = ndRequest({2048, 4}, 1, Precision::F32);
  inv.direction = Direction::Inverse;
  inv.scale = true;
  inv.localMemoryBytes = 232448;
  const auto scaled = planFft(inv);
  ASSERT_EQ(scaled->stages.size(), 2u) << inv.key();
  for (const auto& st : scaled->compiled.stages)
    EXPECT_LE(st.localMemoryBytes, inv.localMemoryBytes) << inv.key();
  EXPECT_LT(scaled->compiled.stages[1].localMemoryBytes, 2 * 2048 * 4 * 8) << inv.key();
  expectAccurate(inv);
  // 3000 = [200, 15] by wideTileRadices: no 200-point butterflies, the four-step
  auto odd = ndRequest({3000, 8});
  odd.localMemoryBytes = 232448;
  EXPECT_GT(nd(choosePlan(odd)).fourStepSplits.front(), 0);
  // the sizes of fft_bench: two passes under an H200's budget
  for (int64_t n : {2048, 4096})
    for (auto p : {Precision::F32, Precision::F64}) {
      auto r = ndRequest({n, n}, 1, p);
      r.localMemoryBytes = 232448;
      const auto c = choosePlan(r);
      EXPECT_EQ(nd(c).fourStepSplits, (Dims{0, 0})) << r.key();
      // 64 bytes of lines for 2048 (session 24), a sector for 4096 (8 f32 lines: 256 KiB)
      EXPECT_EQ(nd(c).linesPerGroup.front(), (p == Precision::F32 ? 4 : 2) * (n == 2048 ? 2 : 1))
          << r.key();
    }
}

TEST(NdFft, DeviceBuffersInPlace) {
  auto r = ndRequest({6, 8}, 2);
  Plan plan = Plan::create(context(), r);
  EXPECT_TRUE(plan.info().inPlaceSafe) << plan.info().describe();
  auto x = uniformInput<float>(plan.elements(), 3);
  cl::Buffer b = cl::Buffer::from(context(), std::span<const std::complex<float>>(x));
  plan.execute(b);
  std::vector<std::complex<float>> y(plan.elements());
  b.read(context(), std::span<std::complex<float>>(y));
  auto ref = referenceDft(toLongDouble(std::span<const std::complex<float>>(x)), r.dims, r.batch,
                          r.direction);
  EXPECT_LE(linfError(std::span<const std::complex<float>>(y), ref),
            fftTolerance(r.size, r.precision));
}

// The check can fail: the dimensions taken in the wrong order give a different DFT.
TEST(NdFft, CheckCanFail) {
  EXPECT_GT(ndError<float>(ndRequest({4, 6}), Dims{6, 4}), 0.1);
}

// ---- real transforms (R2C forward, C2R inverse) through the API

FftRequest realRequest(Dims dims, Direction d, int64_t batch = 1, Precision p = Precision::F32) {
  FftRequest r = shapeRequest(std::move(dims), batch, p);
  r.real = true;
  r.direction = d;
  return r;
}

// R2C of uniform reals against FFTW's r2c, then C2R of that result (the round trip, against
// N x the input) and of FFTW's spectrum (against FFTW's c2r), scaled when `scale`.
template <typename T>
void expectRealRoundTrip(const Dims& dims, int64_t batch, Precision p, bool scale = false) {
  auto fwd = realRequest(dims, Direction::Forward, batch, p);
  auto inv = realRequest(dims, Direction::Inverse, batch, p);
  inv.scale = scale;
  SCOPED_TRACE(inv.key());
  const int64_t n = fwd.size;
  const double tol = fftTolerance(n, p);
  try {
    Plan r2c = Plan::create(context(), fwd), c2r = Plan::create(context(), inv);
    std::vector<T> x;
    for (const auto& c : uniformInput<T>(static_cast<size_t>(n * batch), 5)) x.push_back(c.real());
    std::vector<long double> xl(x.begin(), x.end());
    auto X = r2c.runR2c(std::span<const T>(x));
    auto refX = referenceR2c(xl, dims, batch);
    EXPECT_LE(linfError(std::span<const std::complex<T>>(X), refX), tol) << r2c.info().describe();
    std::vector<std::complex<T>> spec;
    for (const auto& v : refX)
      spec.emplace_back(static_cast<T>(v.real()), static_cast<T>(v.imag()));
    auto y = c2r.runC2r(std::span<const std::complex<T>>(spec));
    auto refY = referenceC2r(toLongDouble(std::span<const std::complex<T>>(spec)), dims, batch);
    std::vector<std::complex<T>> yc(y.begin(), y.end());
    std::vector<ComplexL> refYc(refY.begin(), refY.end()), trip;
    const long double k = scale ? 1.0L / static_cast<long double>(n) : 1.0L;
    for (auto& v : refYc) v *= k;
    EXPECT_LE(linfError(std::span<const std::complex<T>>(yc), refYc), tol) << c2r.info().describe();
    auto back = c2r.runC2r(std::span<const std::complex<T>>(X));
    std::vector<std::complex<T>> backc(back.begin(), back.end());
    for (long double v : xl) trip.emplace_back(v * static_cast<long double>(n) * k);
    EXPECT_LE(linfError(std::span<const std::complex<T>>(backc), trip), tol);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "failed: " << e.what();
  }
}

TEST(RealPlan, OneDimensionEvenAndOdd) {
  expectRealRoundTrip<float>({16}, 3, Precision::F32);
  expectRealRoundTrip<float>({15}, 2, Precision::F32, true);
  expectRealRoundTrip<double>({22}, 1, Precision::F64);  // half size 11: radix 11
  expectRealRoundTrip<double>({46}, 1, Precision::F64);  // half size 23: radix 23
  expectRealRoundTrip<double>({62}, 1, Precision::F64);  // half size 31: Bluestein
}

TEST(RealPlan, TwoAndThreeDimensions) {
  expectRealRoundTrip<float>({6, 8}, 2, Precision::F32);
  expectRealRoundTrip<float>({5, 7}, 1, Precision::F32);
  expectRealRoundTrip<double>({4, 3, 6}, 2, Precision::F64, true);
  expectRealRoundTrip<float>({31, 8}, 2, Precision::F32);  // Bluestein in local memory
  expectRealRoundTrip<float>({3, 1447}, 1, Precision::F32);  // Bluestein: nd.fdl's r2c / c2r
}

TEST(RealPlan, ChoiceAndErrors) {
  auto c = choosePlan(realRequest({6, 10}, Direction::Forward));
  EXPECT_EQ(c.kernel, "r2cLocal");  // every pass in local memory: two stages
  EXPECT_EQ(planFft(realRequest({6, 10}, Direction::Forward))->stages.size(), 2u);
  EXPECT_EQ(std::get<std::vector<int64_t>>(c.defines.at("ns")), (Dims{6, 5}));  // half size
  EXPECT_EQ(std::get<int64_t>(c.defines.at("even")), 1);
  auto odd = choosePlan(realRequest({9}, Direction::Inverse));
  EXPECT_EQ(odd.kernel, "c2rLocal");
  // a Bluestein dimension in local memory (31), and one beyond it (1447: M = 2916 > 2890):
  // the passes over global memory of nd.fdl's r2c
  EXPECT_EQ(choosePlan(realRequest({31, 8}, Direction::Forward)).kernel, "r2cLocal");
  EXPECT_EQ(choosePlan(realRequest({3, 1447}, Direction::Forward)).kernel, "r2c");
  auto global = realRequest({6, 10}, Direction::Forward);
  global.passGroups = {0, 1, 2};  // one pass per dimension, named: the global passes
  EXPECT_EQ(choosePlan(global).kernel, "r2c");
  global.passGroups = {0, 2};  // real plans do not fuse dimensions
  EXPECT_THROW((void)choosePlan(global), backends::UserError);
  EXPECT_EQ(std::get<int64_t>(odd.defines.at("even")), 0);
  Plan p = Plan::create(context(), realRequest({8}, Direction::Forward, 2));
  EXPECT_EQ(p.inputBytes(), 16u * 4u);
  EXPECT_EQ(p.outputBytes(), 2u * 5u * 8u);
  std::vector<float> wrong(15);
  EXPECT_THROW((void)p.runR2c(std::span<const float>(wrong)), backends::UserError);
  std::vector<std::complex<float>> spec(10);
  EXPECT_THROW((void)p.runC2r(std::span<const std::complex<float>>(spec)), backends::UserError);
  auto variant = realRequest({8}, Direction::Forward);
  variant.variant = Variant::Bluestein;
  EXPECT_THROW((void)choosePlan(variant), backends::UserError);
}

// ---- fftc fft / run --size NxM...

std::pair<int, std::string> spawn(const std::string& args) {
  std::string cmd = std::string(FFTC_BINARY) + " " + args + " 2>/dev/null";
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return {-1, ""};
  std::string out;
  std::array<char, 4096> buf{};
  size_t got = 0;
  while ((got = fread(buf.data(), 1, buf.size(), f)) > 0) out.append(buf.data(), got);
  int st = pclose(f);
  return {WIFEXITED(st) ? WEXITSTATUS(st) : -1, out};
}

TEST(NdFftcRun, CheckJsonEndToEnd) {
  auto [status, out] = spawn("run --size 6x5x4 --batch 2 --check --json --repeat 2 --warmup 0");
  ASSERT_EQ(status, 0) << out;
  auto v = boost::json::parse(out).as_object();
  auto size = v.at("size").as_array();
  ASSERT_EQ(size.size(), 3u);
  EXPECT_EQ(size.at(0).to_number<int64_t>(), 6);
  EXPECT_EQ(size.at(2).to_number<int64_t>(), 4);
  EXPECT_EQ(v.at("stages").to_number<int64_t>(), 3);
  EXPECT_LE(v.at("linf_error").to_number<double>(), fftTolerance(120, Precision::F32));
}

TEST(NdFftcRun, RealCheckJson) {
  for (const char* dir : {"forward", "inverse"}) {
    auto [status, out] = spawn(std::string("run --size 6x10 --real --batch 2 --check --json "
                                           "--repeat 1 --warmup 0 --direction ") +
                               dir);
    ASSERT_EQ(status, 0) << dir << out;
    auto v = boost::json::parse(out).as_object();
    EXPECT_TRUE(v.at("real").as_bool());
    EXPECT_LE(v.at("linf_error").to_number<double>(), fftTolerance(60, Precision::F32)) << dir;
  }
}

TEST(NdFftcRun, SizeSyntax) {
  auto [status, out] = spawn("fft --size 256x256x256 -o \"$(mktemp -d)\"");
  EXPECT_EQ(status, 0);
  EXPECT_NE(out.find("passes over global memory: 3 stages"), std::string::npos) << out;
  EXPECT_EQ(spawn("fft --size 8x").first, 1);
  EXPECT_EQ(spawn("fft --size 8xx8").first, 1);
  EXPECT_EQ(spawn("fft --size 4x4 --radices 4,4").first, 1);
}

}  // namespace
}  // namespace fftc::fftlib::test
