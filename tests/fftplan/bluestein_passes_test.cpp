// Bluestein beyond local memory in three passes (bluestein.fdl's bluesteinFourStep, issue 23
// item 3) on OpenCL (PoCL here): the planner's choice and its three stages, and the results
// against FFTW in long double, with fftc's L2 error within kL2Bound of FFTW's own at the same
// precision and Linf within fftTolerance, f32 and f64, forward and inverse, scaled, batched.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <span>
#include <vector>

#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/fftw_at_precision.h"
#include "tests/fftplan/plan_accuracy.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

// The planner's choice beyond local memory (48 KiB): three passes, M split into two halves that
// each fit a local line kernel, whatever M's factors (4099: M = 8232 = 2^3·3·7^3; 8191 and
// 65521: powers of two; 999983, the largest prime below 2^20: f32 M = 2^21 = 1024 x 2048, f64
// 2016000 = 1400 x 1440, since two arrays of 2048 f64 take 68 KiB: bluesteinSize).
TEST(BluesteinThreePasses, ThePlannerChoosesThemBeyondLocalMemory) {
  EXPECT_EQ(bluesteinSize(999983, Precision::F32), int64_t{1} << 21);
  EXPECT_EQ(bluesteinSize(999983, Precision::F64), 2016000);
  for (int64_t n : {4099, 8191, 65521, 131071, 524287, 999983}) {
    for (Precision p : {Precision::F32, Precision::F64}) {
      const PlanChoice c = choosePlan(lineRequest(n, 2, p));
      SCOPED_TRACE(c.kernel);
      EXPECT_EQ(c.kernel, "bluesteinFourStep") << n;
      const auto* b = c.as<BluesteinChoice>();
      ASSERT_NE(b, nullptr);
      EXPECT_GE(b->m, 2 * n - 1);
      ASSERT_GT(b->n1End, 0);
      const Radices rs1(b->radicesM.begin(), b->radicesM.begin() + b->n1End),
          rs2(b->radicesM.begin() + b->n1End, b->radicesM.end());
      const FftRequest r = lineRequest(n, 2, p);
      EXPECT_TRUE(localKernelFits(rs1, r) && localKernelFits(rs2, r)) << n;
      EXPECT_EQ(c.stageLocal.size(), 3u);
    }
  }
  // (257 - 1 is smooth: rader.fdl, rader_plan_test.cpp; 263 - 1 = 2·131 is not)
  EXPECT_EQ(choosePlan(lineRequest(263, 1, Precision::F32)).kernel, "bluesteinLocal");
}

// The request's radices of M split at the largest prefix at most sqrt(M) whose halves fit; the
// heuristic's radices given back split as it did.
TEST(BluesteinThreePasses, GivenRadicesSplitAsTheHeuristic) {
  const PlanChoice heuristic = choosePlan(lineRequest(8191, 1, Precision::F32));
  FftRequest r = lineRequest(8191, 1, Precision::F32);
  r.variant = Variant::Bluestein;
  r.radices = heuristic.radices;
  const PlanChoice given = choosePlan(r);
  EXPECT_EQ(given.kernel, "bluesteinFourStep");
  EXPECT_EQ(given.defines, heuristic.defines);
}

TEST(BluesteinThreePasses, ThreeStagesEachReadingAndWritingMOnce) {
  const FftRequest r = lineRequest(4099, 2, Precision::F32);
  auto p = planFft(r);
  EXPECT_EQ(p->choice.kernel, "bluesteinFourStep");
  ASSERT_EQ(p->stages.size(), 3u);
  const int64_t m = p->choice.as<BluesteinChoice>()->m;
  // pass 1 reads N and writes M, passes 2 and 3 read M and write M, then N (8-byte elements)
  EXPECT_EQ(p->bytesMoved, 2 * 8 * (4099 + m + m + m + m + 4099));
}

// The chirp spectrum, wrapped over the batch by a view, is one table of M entries, not one copy
// a transform (foldClosed folds below a view that repeats its argument: 999983 in a batch of 16
// had a table of 256 MiB, beyond the plan cache's bound).
TEST(BluesteinThreePasses, OneSpectrumTableForTheWholeBatch) {
  for (int64_t batch : {int64_t{1}, int64_t{8}}) {
    auto p = planFft(lineRequest(4099, batch, Precision::F32));
    const int64_t m = p->choice.as<BluesteinChoice>()->m;
    int64_t largest = 0;
    for (const auto& b : p->compiled.buffers)
      if (b.role == "table") largest = std::max(largest, static_cast<int64_t>(b.data.size()));
    EXPECT_EQ(largest, m * 8) << "batch " << batch;  // the spectrum: M complex f32
  }
}

// One size a TEST: ctest runs each in a process of its own (a few seconds each on PoCL).
TEST(BluesteinThreePasses, MatchFftw4099BatchF32) {
  expectPlanWithinFftw<float>(lineRequest(4099, 3, Precision::F32), "bluestein3", 7);
}
TEST(BluesteinThreePasses, MatchFftw4099InverseF64) {
  expectPlanWithinFftw<double>(lineRequest(4099, 2, Precision::F64, Direction::Inverse),
                               "bluestein3", 7);
}
TEST(BluesteinThreePasses, MatchFftw8191InverseScaledF32) {
  expectPlanWithinFftw<float>(lineRequest(8191, 1, Precision::F32, Direction::Inverse, true),
                              "bluestein3", 7);
}
TEST(BluesteinThreePasses, MatchFftw8191ScaledF64) {
  expectPlanWithinFftw<double>(lineRequest(8191, 1, Precision::F64, Direction::Forward, true),
                               "bluestein3", 7);
}
TEST(BluesteinThreePasses, MatchFftw65521F32) {
  expectPlanWithinFftw<float>(lineRequest(65521, 1, Precision::F32), "bluestein3", 7);
}
TEST(BluesteinThreePasses, MatchFftw65521InverseF64) {
  expectPlanWithinFftw<double>(lineRequest(65521, 1, Precision::F64, Direction::Inverse),
                               "bluestein3", 7);
}

}  // namespace
}  // namespace fftc::fftlib::test
