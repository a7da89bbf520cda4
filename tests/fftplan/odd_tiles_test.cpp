// Hierarchical tiles of odd-smooth levels (issue 23): a level's radices [r0, R, ..., R] (R <= 25)
// where they take a pass fewer than chooseRadices' (100000 = [10, 25] x [16, 25]: 10 and 16
// work-items a tile row instead of 50 and 80, so that several blocks share a multiprocessor),
// and tile columns beyond 128 bytes where the rows have no divisor from 64 to 128 bytes (f64
// 14641 at fft_bench's batch 2291 = 29 x 79: 11 columns, not one). The planner's choice, and on
// OpenCL (PoCL) the L2 error against FFTW in long double within 1.5x FFTW's own.
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "backends/opencl/runtime.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/fftw_at_precision.h"
#include "tests/fftplan/plan_accuracy.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

using Radices = std::vector<int64_t>;

constexpr int64_t kH100 = 232448;  // an H100's / H200's opt-in shared memory of a block

// ---- the planner (no device)

TEST(OddTiles, LevelsOfFewerPasses) {
  struct Want {
    int64_t n;
    Precision p;
    int64_t batch;
    std::vector<Radices> levels;
    std::vector<int64_t> columns;
    std::vector<int64_t> workItems;  // a tile row's, stage by stage
  };
  // fft_bench's batches (2^26 / N f32, 2^25 / N f64) under the H100/H200 budget; 250 =
  // [10, 25] (was [10, 5, 5], 50 work-items), 400 = [16, 25] (was [16, 5, 5], 80), 162 = [9, 18]
  for (const Want& w :
       {Want{100000, Precision::F32, 671, {{10, 25}, {16, 25}}, {11, 16}, {16, 10}},
        Want{100000, Precision::F64, 335, {{10, 25}, {16, 25}}, {5, 8}, {16, 10}},
        Want{39366, Precision::F32, 1704, {{9, 18}, {9, 9, 3}}, {9, 12}, {81, 9}},
        // rows 2291 x 121 and 1174 x 2197: no f64 divisor from 4 to 8 columns
        Want{14641, Precision::F64, 2291, {{11, 11}, {11, 11}}, {11, 11}, {11, 11}},
        Want{28561, Precision::F64, 1174, {{13, 13}, {13, 13}}, {13, 13}, {13, 13}}}) {
    FftRequest r = shapeRequest({w.n}, w.batch, w.p);
    r.localMemoryBytes = kH100;
    const std::string what = r.key();
    const PlanChoice c = choosePlan(r);
    ASSERT_EQ(c.variant, Variant::Hierarchical) << what;
    const auto* h = c.as<HierarchicalChoice>();
    ASSERT_NE(h, nullptr) << what;
    EXPECT_EQ(h->levels, w.levels) << what;
    EXPECT_EQ(h->columns, w.columns) << what;
    ASSERT_EQ(c.stageLocal.size(), w.workItems.size()) << what;
    for (size_t s = 0; s < w.workItems.size(); ++s)
      EXPECT_EQ(c.stageLocal[s], (std::vector<int64_t>{w.columns[s], w.workItems[s]})) << what;
    // the plan's radices given back plan the same levels and tiles (the tuner's space)
    FftRequest back = r;
    back.radices = c.radices;
    EXPECT_EQ(choosePlan(back).detail, c.detail) << what;
    EXPECT_EQ(choosePlan(back).stageLocal, c.stageLocal) << what;
  }
  // levels where no [r0, R, ..., R] saves a pass keep chooseRadices': 10^6 f64's [10, 10, 10],
  // 2^17's and 2^20's
  FftRequest r = shapeRequest({1000000}, 33, Precision::F64);
  r.localMemoryBytes = kH100;
  EXPECT_EQ(choosePlan(r).as<HierarchicalChoice>()->levels,
            (std::vector<Radices>{{10, 10, 10}, {10, 10, 10}}));
  EXPECT_EQ(choosePlan(shapeRequest({131072}, 512)).as<HierarchicalChoice>()->levels,
            (std::vector<Radices>{{16, 16}, {8, 8, 8}}));
}

// ---- PoCL against FFTW

// The plans these rules change, at the OpenCL default budget (48 KiB): 100000 [10, 25] x
// [16, 25] (f32 and f64, inverse too), f64 3125 [5, 5] x [5, 25], f32 39366's [9, 18] level,
// f64 14641 and 28561 in 11 and 13 columns of a batch of one (121 and 169 rows: none from 4 to
// 8 divides them).
TEST(OddTiles, MatchesFftw) {
  struct Case {
    int64_t n;
    Precision p;
    int64_t batch;
    Direction d;
    std::string shape;  // in the plan's description
  };
  for (const Case& k :
       {Case{100000, Precision::F32, 2, Direction::Forward, "rs1 = [10, 25] x rs2 = [16, 25]"},
        Case{100000, Precision::F64, 1, Direction::Inverse, "rs1 = [10, 25] x rs2 = [16, 25]"},
        Case{3125, Precision::F64, 3, Direction::Forward, "rs1 = [5, 5] x rs2 = [5, 25]"},
        Case{39366, Precision::F32, 1, Direction::Forward, "rs1 = [9, 18]"},
        Case{14641, Precision::F64, 1, Direction::Forward, "11 columns"},
        Case{28561, Precision::F64, 1, Direction::Inverse, "13 columns"}}) {
    FftRequest r = shapeRequest({k.n}, k.batch, k.p);
    r.direction = k.d;
    std::string plan;
    const L2Pair e = k.p == Precision::F64 ? measurePlan<double>(r, plan, 29)
                                           : measurePlan<float>(r, plan, 29);
    std::printf("[odd tiles] %s fftc L2 %.3g  FFTW L2 %.3g  ratio %.2f\n", r.key().c_str(),
                e.fftc, e.fftw, e.ratio());
    EXPECT_NE(plan.find(k.shape), std::string::npos) << plan;
    EXPECT_LE(e.fftc, kL2Bound * e.fftw) << r.key() << "\n" << plan;
  }
}

}  // namespace
}  // namespace fftc::fftlib::test
