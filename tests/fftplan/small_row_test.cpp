// A small composite row in one work-item (rowInOneWorkItem, issue 23: every size fast): the
// planner's one register estimate, the Local plans of one radix N whose butterfly is the register
// FFT over N's prime factors (common.fdl's multDFTfactored), and those plans on PoCL against FFTW
// in long double, fftc's L2 error within 1.5x FFTW's own at the same precision.
#include <gtest/gtest.h>

#include <string>
#include <tuple>
#include <vector>

#include "fftlib/plan/planner.h"
#include "tests/fftplan/plan_accuracy.h"
#include "tests/fftplan/requests.h"

namespace fftc::fftlib::test {
namespace {

// Hand-counted: r complex values of 2 (f32) or 4 (f64) registers, twice over; three times
// beyond radix 16 in a pass of several, twice over for a whole row at any radix.
TEST(SmallRow, OneRegisterEstimate) {
  EXPECT_EQ(butterflyRegisters(16, Precision::F32), 64);
  EXPECT_EQ(butterflyRegisters(16, Precision::F64), 128);
  EXPECT_EQ(butterflyRegisters(32, Precision::F32), 192);
  EXPECT_EQ(butterflyRegisters(32, Precision::F32, true), 128);
  EXPECT_EQ(butterflyRegisters(26, Precision::F64, true), 208);
  EXPECT_TRUE(butterflyInRegisters(63, 1, Precision::F32, true));   // 252
  EXPECT_FALSE(butterflyInRegisters(64, 1, Precision::F32, true));  // 256
  EXPECT_TRUE(butterflyInRegisters(31, 1, Precision::F64, true));   // 248
  EXPECT_FALSE(butterflyInRegisters(32, 1, Precision::F64, true));  // 256
  EXPECT_TRUE(butterflyInRegisters(16, 512, Precision::F64));       // 128 of 128
  EXPECT_FALSE(butterflyInRegisters(32, 512, Precision::F32));      // 192 of 128
  EXPECT_TRUE(butterflyInRegisters(16, 1024, Precision::F32));      // 64 of 64
}

// (before, precision, one radix?): the rows that must stay several radices too.
TEST(SmallRow, WhichRowsAreOneWorkItems) {
  struct Row {
    int64_t n;
    Precision p;
    bool one;
  };
  const std::vector<Row> rows = {
      {22, Precision::F32, true},  {26, Precision::F32, true},   {33, Precision::F32, true},
      {34, Precision::F32, true},  {38, Precision::F32, true},   {39, Precision::F32, true},
      {44, Precision::F32, true},  {46, Precision::F32, true},   {52, Precision::F32, true},
      {55, Precision::F32, true},  {57, Precision::F32, true},   {60, Precision::F32, true},
      {58, Precision::F32, false},   {22, Precision::F64, true},
      {26, Precision::F64, true},  {30, Precision::F64, true},   {31, Precision::F64, true},
      {11, Precision::F32, true},  {16, Precision::F64, true},   {29, Precision::F32, true},
      {62, Precision::F32, false},  // [2, 29], [2, 31] spilled
      {64, Precision::F32, false},  // 256 registers of values
      {81, Precision::F32, false}, {100, Precision::F32, false}, {32, Precision::F64, false},
      {37, Precision::F64, false},  // Rader 37 f64 spilled
      // a composite f64 row at 5 registers a complex value (5·51 = 255): one radix where it
      // left the row to 2 - 3 work-items of a wide butterfly each ([11, 3], [2, 17]: 0.57 -
      // 0.83 of the time on an H200); 52 = [4, 13] (260) and 57 = [19, 3] keep theirs (they
      // lost 7% and 10% as one radix), as do close radices (36 = [4, 9], 40 = [8, 5])
      {33, Precision::F64, true}, {34, Precision::F64, true}, {38, Precision::F64, true},
      {39, Precision::F64, true}, {46, Precision::F64, true}, {48, Precision::F64, true},
      {51, Precision::F64, true}, {52, Precision::F64, false}, {57, Precision::F64, false},
      {36, Precision::F64, false}, {40, Precision::F64, false}, {62, Precision::F64, false},
      {47, Precision::F32, false},  // a prime beyond kLargestRaderRadix: Bluestein
      // close radices keep them (slower as one radix on the H200): [4, 5], [4, 9], [8, 4], [9, 7]
      {20, Precision::F32, false}, {36, Precision::F32, false}, {32, Precision::F32, false},
      {63, Precision::F32, false}, {49, Precision::F32, false}, {20, Precision::F64, false},
      {28, Precision::F64, false}, {27, Precision::F32, true},  // [9, 3]: 3 times
      {24, Precision::F64, false},  // [8, 3]
      {1, Precision::F32, false},
  };
  for (const Row& row : rows) {
    EXPECT_EQ(rowInOneWorkItem(row.n, row.p), row.one) << row.n << " " << precisionName(row.p);
    if (row.n < 2 || !plannedByRadices(row.n, row.p)) continue;
    const PlanChoice c = choosePlan(lineRequest(row.n, 4096, row.p));
    EXPECT_EQ(c.variant, Variant::Local) << row.n;
    if (row.one) {
      EXPECT_EQ(c.radices, (Radices{row.n})) << row.n << " " << precisionName(row.p);
      EXPECT_EQ(c.kernel, "stockhamLocalCopy") << row.n;  // one work-item a row
    } else {
      EXPECT_EQ(c.radices, chooseRadices(row.n)) << row.n << " " << precisionName(row.p);
    }
  }
}

// A request's own radices, and the variants over global memory, keep theirs.
TEST(SmallRow, NamedRadicesAndOtherVariantsKeepTheirs) {
  FftRequest named = lineRequest(22, 64, Precision::F32);
  named.radices = {2, 11};
  const PlanChoice c = choosePlan(named);
  EXPECT_EQ(c.radices, (Radices{2, 11}));
  EXPECT_EQ(c.kernel, "stockhamLocal");
  FftRequest twiddle = lineRequest(22, 64, Precision::F32);
  twiddle.variant = Variant::StockhamTwiddle;
  EXPECT_EQ(choosePlan(twiddle).radices, (Radices{2, 11}));
  FftRequest local = lineRequest(22, 64, Precision::F32);
  local.variant = Variant::Local;
  EXPECT_EQ(choosePlan(local).radices, (Radices{22}));
}

// An odd row length in whole warps of rows (F even): both local arrays are F rows of N,
// unpadded (fft.fdl stockhamLocalCopy: the copy in split inside its toLocal), so the
// butterflies' reads at the odd stride N meet every bank (the flat F·N was padded one in 16:
// f32 15 11.7-way conflicts by the bank model). The batch of 1000 leaves the last group
// partial: its padding clamps the flat element (common.fdl rowsInGroupsFlat), so no copy
// divides by N (each was `(i % 33) + 33 * min(999, 64 * wg + i / 33)`). The plans still match
// FFTW on PoCL.
TEST(SmallRow, OddRowsUnpadded) {
  for (int64_t n : {15, 33}) {
    SCOPED_TRACE(n);
    const FftRequest r = lineRequest(n, 1000, Precision::F32);
    const PlanChoice c = choosePlan(r);
    ASSERT_EQ(c.kernel, "stockhamLocalCopy");
    const int64_t f = std::get<int64_t>(c.defines.at("F"));
    EXPECT_EQ(f % 32, 0);
    auto plan = planFft(r);
    ASSERT_EQ(plan->compiled.stages.size(), 1u);
    EXPECT_EQ(plan->compiled.stages[0].localMemoryBytes, 2 * f * n * 8);
    ASSERT_NE(1000 % f, 0);
    const std::string& src = plan->compiled.source;
    EXPECT_EQ(src.find("% " + std::to_string(n)), std::string::npos) << src;
    EXPECT_EQ(src.find("/ " + std::to_string(n)), std::string::npos) << src;
    EXPECT_NE(src.find("min(" + std::to_string(1000 * n - 1) + ", "), std::string::npos) << src;
    expectPlanWithinFftw<float>(r, "small row", 11, "stockhamLocalCopy");
  }
}

// On PoCL against FFTW: factors with symDft (11, 13, 17, 23), a dense 3 beside a 2 (60 = [2, 2,
// 3, 5]), batches that leave the last work-group partial, both
// directions, scaled.
TEST(SmallRow, MatchFftwF32) {
  for (int64_t n : {22, 26, 34, 46, 60})
    expectPlanWithinFftw<float>(lineRequest(n, 257, Precision::F32), "small row", 5,
                                "stockhamLocalCopy");
  expectPlanWithinFftw<float>(lineRequest(39, 101, Precision::F32, Direction::Inverse, true),
                              "small row", 7, "stockhamLocalCopy");
}

TEST(SmallRow, MatchFftwF64) {
  expectPlanWithinFftw<double>(lineRequest(22, 257, Precision::F64), "small row", 5,
                               "stockhamLocalCopy");
  expectPlanWithinFftw<double>(lineRequest(26, 99, Precision::F64, Direction::Inverse, true),
                               "small row", 7, "stockhamLocalCopy");
  expectPlanWithinFftw<double>(lineRequest(30, 64, Precision::F64), "small row", 9,
                               "stockhamLocalCopy");
  // one radix since session 22 (5 registers a complex value): symDft 11 and 17 beside 3 and 2
  expectPlanWithinFftw<double>(lineRequest(33, 101, Precision::F64), "small row", 11,
                               "stockhamLocalCopy");
  expectPlanWithinFftw<double>(lineRequest(51, 70, Precision::F64, Direction::Inverse, true),
                               "small row", 13, "stockhamLocalCopy");
}

// A row a work-item: the rows of a work-group are whole warps (as many as fit, at most 256), the
// last group partial, not the batch's largest divisor (f32 11's 149, f64 17's 78, f64 22's
// 101); a request's own rows are kept.
TEST(SmallRow, RowsOfAWorkGroupAreWholeWarps) {
  for (auto [n, p, batch] : {std::tuple{int64_t{11}, Precision::F32, int64_t{6100805}},
                             {17, Precision::F64, 1973790},
                             {22, Precision::F64, 1525201},
                             {16, Precision::F32, 4194304}}) {
    const PlanChoice c = choosePlan(lineRequest(n, batch, p));
    const auto* l = c.as<LocalChoice>();
    ASSERT_NE(l, nullptr) << n;
    EXPECT_EQ(l->shape.workgroupSize, 1) << n;
    EXPECT_GE(l->shape.fftsPerGroup, 32) << n;
    EXPECT_EQ(l->shape.fftsPerGroup % 32, 0) << n << ": " << l->shape.fftsPerGroup;
  }
  FftRequest named = lineRequest(11, 6100805, Precision::F32);
  named.fftsPerGroup = 149;
  EXPECT_EQ(choosePlan(named).as<LocalChoice>()->shape.fftsPerGroup, 149);
}

}  // namespace
}  // namespace fftc::fftlib::test
