// One local array whose passes have other butterfly counts than the work-group's size (issues
// 22 and 23): under an H100/H200 budget (227 KiB), sizes whose row fits one array but whose
// passes from local memory to local memory differ in butterflies (f32 8448 = [16, 4, 11, 12]),
// or have more than 1024 of them (16807 = 7^5: 2401 a pass), are one kernel whose work-items
// each loop over their share of every pass (common.fdl's onWorkItems, fft.fdl's W), instead of
// two kernels of a hierarchical plan. The planner's choice (variant, radices, work-items,
// stages), and on OpenCL (PoCL) the L2 error against FFTW in long double within 1.5x FFTW's
// own at the same precision.
#include <gtest/gtest.h>

#include <complex>
#include <map>
#include <optional>
#include <tuple>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/opencl/runtime.h"
#include "compiler/codegen/codegen.h"
#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/fftw_at_precision.h"
#include "tests/fftplan/plan_accuracy.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

namespace cl = backends::opencl;
using Radices = std::vector<int64_t>;

FftRequest h100(int64_t n, Precision p, int64_t batch = 1) {
  return underGpuBudget(shapeRequest({n}, batch, p));
}

// ---- the planner (no device)

TEST(OneArrayLooped, WorkItemsOfUnequalPasses) {
  // the uniform form: middle passes of one radix q, n / q work-items
  EXPECT_EQ(uniformOneArrayWorkItems({16, 16, 16, 4}), 1024);
  EXPECT_EQ(uniformOneArrayWorkItems({16, 4, 11, 12}), 0);  // middle 2112 and 768 butterflies
  EXPECT_EQ(uniformOneArrayWorkItems({7, 7, 7, 7, 7}), 0);  // 2401 work-items
  // looped: the least time Σ ceil(n / r / w) · butterflyWork(r), then the fewest work-items,
  // a multiple of 32 whose values stay in registers. 7^5: three butterflies a pass from 801
  // work-items on (two would take 1201): 832. 11^4: 1331 a pass, two each from 666: 672.
  EXPECT_EQ(loopedOneArrayWorkItems({7, 7, 7, 7, 7}, Precision::F32), 832);
  EXPECT_EQ(loopedOneArrayWorkItems({11, 11, 11, 11}, Precision::F32), 672);
  EXPECT_EQ(oneArrayWorkItems({7, 7, 7, 7, 7}, Precision::F32), 832);
  // [16, 4, 11, 12]: 528, 2112, 768, 704 butterflies; from 768 on, 1, 3, 1, 1 a work-item
  // (2112 / 768 = 2.75), a radix-4 pass's three of four values each, 24 registers of 85
  EXPECT_EQ(loopedOneArrayWorkItems({16, 4, 11, 12}, Precision::F32), 768);
  // a Rader radix, or a radix whose butterflies do not fit the registers: none
  EXPECT_EQ(loopedOneArrayWorkItems({2, 61, 2, 64}, Precision::F32), 0);
  EXPECT_EQ(loopedOneArrayWorkItems({2, 64, 2, 64}, Precision::F32), 0);
}

TEST(OneArrayLooped, PlannedAsOneKernel) {
  struct Want {
    int64_t n;
    Precision p;
    Radices rs;
    int64_t workItems;
  };
  for (const Want& w : {Want{8448, Precision::F32, {16, 4, 11, 12}, 768},
                        Want{8448, Precision::F64, {12, 8, 8, 11}, 544},
                        Want{16807, Precision::F32, {7, 7, 7, 7, 7}, 832},
                        Want{14641, Precision::F32, {11, 11, 11, 11}, 672},
                        Want{20449, Precision::F32, {13, 11, 11, 13}, 960}}) {
    const FftRequest r = h100(w.n, w.p);
    const std::string what = r.key();
    const PlanChoice c = choosePlan(r);
    ASSERT_EQ(c.variant, Variant::Local) << what;
    EXPECT_EQ(c.kernel, "stockhamLocal") << what;
    EXPECT_EQ(c.radices, w.rs) << what;
    EXPECT_TRUE(c.localReuseInPass) << what;
    EXPECT_EQ(c.stageLocal.size(), 1u) << what;  // one stage
    const auto* l = c.as<LocalChoice>();
    ASSERT_NE(l, nullptr) << what;
    EXPECT_TRUE(l->oneArray) << what;
    EXPECT_EQ(l->loopedWorkItems, w.workItems) << what;
    EXPECT_EQ(l->clusterBlocks, 0) << what;  // a one-block plan, not a cluster's
    EXPECT_EQ(l->shape, (LocalShape{.workgroupSize = w.workItems, .fftsPerGroup = 1})) << what;
    EXPECT_EQ(c.defines.at("W"), compiler::frontend::DefineValue(w.workItems)) << what;
    // the same radices named by the request (--radices, wisdom, the tuner's point): the same plan
    FftRequest named = r;
    named.radices = w.rs;
    const PlanChoice again = choosePlan(named);
    EXPECT_EQ(again.detail, c.detail) << what;
    EXPECT_EQ(again.defines, c.defines) << what;
  }
  // the same sizes under 48 KiB, or where one array does not fit (16807 f64: 269 KB): two levels
  EXPECT_EQ(choosePlan(shapeRequest({16807})).variant, Variant::Hierarchical);
  EXPECT_EQ(choosePlan(h100(16807, Precision::F64)).variant, Variant::Hierarchical);
  // the uniform one arrays stay as they were, without W (f32 16384, f64 10000's [10, 10, 10, 10]
  // whose radix-10 butterflies spill 168 bytes but beat two levels)
  for (auto [n, p, rs] : {std::tuple{int64_t{16384}, Precision::F32, Radices{16, 16, 16, 4}},
                          {10000, Precision::F64, Radices{10, 10, 10, 10}}}) {
    const PlanChoice c = choosePlan(h100(n, p));
    EXPECT_EQ(c.radices, rs) << n;
    EXPECT_EQ(c.as<LocalChoice>()->loopedWorkItems, 0) << n;
    EXPECT_EQ(c.defines.count("W"), 0u) << n;
  }
  // a request's radices: looped where their middle passes differ
  FftRequest r = h100(16384, Precision::F32);
  r.radices = {16, 8, 16, 8};
  const PlanChoice c = choosePlan(r);
  ASSERT_EQ(c.variant, Variant::Local);
  EXPECT_GT(c.as<LocalChoice>()->loopedWorkItems, 0);
}

// The request's work-items for one array (`--workgroup-size W`): each loops over its share of
// every pass, as the looped shapes do. f32 6561 [9, 9, 9, 9] under a budget where two arrays
// (105 KB) do not fit: 729 work-items by default (two blocks an SM by threads on sm_90), 384 on
// request (three: ptxas 56 registers, 52 KB), so that the GPU can weigh the two.
TEST(OneArrayLooped, RequestedWorkItemsLoop) {
  FftRequest r = h100(6561, Precision::F32);
  r.localMemoryBytes = 100000;
  const PlanChoice plain = choosePlan(r);
  ASSERT_TRUE(plain.as<LocalChoice>()->oneArray);
  EXPECT_EQ(plain.as<LocalChoice>()->loopedWorkItems, 0);
  EXPECT_EQ(plain.as<LocalChoice>()->shape.workgroupSize, 729);
  r.workgroupSize = 384;
  const PlanChoice c = choosePlan(r);
  const auto* l = c.as<LocalChoice>();
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->oneArray);
  EXPECT_EQ(l->loopedWorkItems, 384);
  EXPECT_EQ(l->shape, (LocalShape{.workgroupSize = 384, .fftsPerGroup = 1}));
  EXPECT_EQ(c.defines.at("W"), compiler::frontend::DefineValue(384));
  r.workgroupSize = 2048;  // beyond a work-group
  EXPECT_THROW((void)choosePlan(r), backends::UserError);
  r.workgroupSize = 729;  // the plain shape, named
  EXPECT_EQ(choosePlan(r).detail, plain.detail);
}

// A looped kernel held to one block an SM by registers where shared memory holds two asks
// ptxas for two on CUDA (loopedMinBlocks; f32 8448 0.83x the time on an H200 with
// --min-blocks 2, session 23); 16807 f32 (134 KB) and f64 8448 (135 KB) keep one block by
// shared memory, and OpenCL has no such bound.
TEST(OneArrayLooped, TwoBlocksAskedWhereSharedMemoryHoldsThem) {
  for (auto [n, p, blocks] : {std::tuple{int64_t{8448}, Precision::F32, int64_t{2}},
                              {8448, Precision::F64, 0},
                              {16807, Precision::F32, 0},
                              {14641, Precision::F32, 0}}) {
    FftRequest r = h100(n, p);
    r.target = compiler::pipeline::Target::Cuda;
    const PlanChoice c = choosePlan(r);
    const auto* l = c.as<LocalChoice>();
    ASSERT_NE(l, nullptr) << n;
    ASSERT_GT(l->loopedWorkItems, 0) << n;
    EXPECT_EQ(l->minBlocksPerSm, blocks) << n;
    r.target = compiler::pipeline::Target::OpenCL;
    const PlanChoice o = choosePlan(r);
    EXPECT_EQ(o.as<LocalChoice>()->minBlocksPerSm, 0) << n;
  }
}

// An odd size whose two arrays shared memory holds to two blocks an SM under a device's budget
// takes one array on half the uniform work-items, two butterflies each a pass
// (oddOneArrayWorkItems; on an H200 f32 6561 0.389 -> 0.304 ms, f64 3125 0.418 -> 0.321, f64 2401
// 0.313 -> 0.292, session 24). Even sizes, sizes whose two arrays hold three blocks (f64 2197:
// 70 KB), f32 2401 and 3125 (38 and 50 KB), radices above 9 (not measured), the default budget
// and a requested shape keep theirs.
TEST(OneArrayLooped, OddSizesHeldToTwoBlocksTakeOneArray) {
  struct Want {
    int64_t n;
    Precision p;
    Radices rs;
    int64_t workItems;
  };
  for (const Want& w : {Want{6561, Precision::F32, {9, 9, 9, 9}, 384},
                        Want{3125, Precision::F64, {5, 5, 5, 5, 5}, 320},
                        Want{2401, Precision::F64, {7, 7, 7, 7}, 192}}) {
    FftRequest r = h100(w.n, w.p);
    r.target = compiler::pipeline::Target::Cuda;
    const std::string what = r.key();
    const PlanChoice c = choosePlan(r);
    ASSERT_EQ(c.variant, Variant::Local) << what;
    EXPECT_EQ(c.radices, w.rs) << what;
    EXPECT_TRUE(c.localReuseInPass) << what;
    const auto* l = c.as<LocalChoice>();
    ASSERT_NE(l, nullptr) << what;
    EXPECT_TRUE(l->oneArray) << what;
    EXPECT_EQ(l->loopedWorkItems, w.workItems) << what;
    EXPECT_EQ(l->shape, (LocalShape{.workgroupSize = w.workItems, .fftsPerGroup = 1})) << what;
    EXPECT_EQ(l->minBlocksPerSm, 0) << what;  // ptxas's own registers: --min-blocks 4 spilled
    EXPECT_EQ(c.defines.at("W"), compiler::frontend::DefineValue(w.workItems)) << what;
    // the planner's radices named (the tuner's point): the same plan
    FftRequest named = r;
    named.radices = w.rs;
    EXPECT_EQ(choosePlan(named).detail, c.detail) << what;
    // a requested work-group shape keeps two arrays
    FftRequest shaped = r;
    shaped.fftsPerGroup = 1;
    EXPECT_FALSE(choosePlan(shaped).as<LocalChoice>()->oneArray) << what;
  }
  for (auto [n, p] : {std::tuple{int64_t{2197}, Precision::F64},
                      {2401, Precision::F32},
                      {3125, Precision::F32},
                      {5000, Precision::F32},   // even: [10, 10, 10, 5]
                      {3072, Precision::F64},   // even
                      {3375, Precision::F64},   // [15, 15, 15]: a radix above 9
                      {4913, Precision::F32}}) {  // [17, 17, 17]
    const PlanChoice c = choosePlan(h100(n, p));
    const auto* l = c.as<LocalChoice>();
    ASSERT_NE(l, nullptr) << n;
    EXPECT_FALSE(l->oneArray) << n;
    EXPECT_EQ(l->loopedWorkItems, 0) << n;
  }
  // 48 KiB: 6561 f32 is no one-kernel plan, 625 f64 stays in two arrays
  EXPECT_NE(choosePlan(shapeRequest({6561})).variant, Variant::Local);
  const PlanChoice small = choosePlan(shapeRequest({625}, 1, Precision::F64));
  ASSERT_NE(small.as<LocalChoice>(), nullptr);
  EXPECT_FALSE(small.as<LocalChoice>()->oneArray);
}

// ---- PoCL against FFTW

cl::Context& context() {
  return fftc::testing::openclContext();
}

// The walk of loopedOneArrayRadices as it was before session 24 pruned it (main a5d0b78): every
// order of radices of at most 16 in at most one pass more than the fewest, each kept by the key
// (passes, time, work-items, -first radix); the time Σ ceil(n / r / w) · r · Σ f over r's prime
// factors f (butterflyWork, written here from its definition). The pruned walk must give the
// same radices for fft_bench's sizes (pow2, smooth, primes, random:1).
Radices exhaustiveLoopedRadices(int64_t n, Precision p) {
  constexpr int64_t kMost = 16;
  auto work = [](int64_t r) {
    int64_t sum = 0, m = r;
    for (int64_t f = 2; f <= m; ++f)
      for (; m % f == 0; m /= f) sum += f;
    return r * sum;
  };
  std::map<int64_t, int64_t> fewest;
  auto least = [&](auto&& self, int64_t m) -> int64_t {
    if (m == 1) return 0;
    if (auto it = fewest.find(m); it != fewest.end()) return it->second;
    int64_t f = -1;
    for (int64_t r = 2; r <= kMost; ++r)
      if (m % r == 0)
        if (int64_t k = self(self, m / r); k >= 0 && (f < 0 || k + 1 < f)) f = k + 1;
    fewest[m] = f;
    return f;
  };
  const int64_t passes = least(least, n);
  if (passes < 0) return {};
  Radices best, c;
  std::tuple<size_t, int64_t, int64_t, int64_t> bestKey{};
  auto walk = [&](auto&& self, int64_t rest) -> void {
    if (rest == 1) {
      if (uniformOneArrayWorkItems(c) > 0) return;
      const int64_t w = loopedOneArrayWorkItems(c, p);
      if (w == 0) return;
      int64_t time = 0;
      for (int64_t r : c) time += (n / r + w - 1) / w * work(r);
      const std::tuple key{c.size(), time, w, -c.front()};
      if (best.empty() || key < bestKey) {
        best = c;
        bestKey = key;
      }
      return;
    }
    if (static_cast<int64_t>(c.size()) >= passes + 1) return;
    for (int64_t r = 2; r <= kMost; ++r) {
      if (rest % r != 0) continue;
      c.push_back(r);
      self(self, rest / r);
      c.pop_back();
    }
  };
  walk(walk, n);
  return best;
}

TEST(OneArrayLooped, PrunedWalkMatchesTheExhaustiveOne) {
  std::vector<int64_t> sizes;
  for (int k = 3; k <= 24; ++k) sizes.push_back(int64_t{1} << k);
  // bench/fft_bench.cpp's kSmooth, kPrimes and random:1:12:16-1048576
  for (int64_t n : {11,    12,    13,    15,    22,    26,    27,    49,    60,     81,     100,
                    121,   143,   169,   243,   343,   352,   625,   1000,  1001,   1287,   1331,
                    2197,  2401,  3125,  6561,  6656,  8448,  10000, 14641, 16807,  20449,  28561,
                    39366, 87808, 100000, 1000000, 17, 31,   61,    127,   257,    401,    1009,
                    1601,  4099,  8191,  65521, 131071, 524287, 999983, 70, 72,   2384,   20,
                    783,   392335, 2961, 36,   8887,  18352, 43,    7637})
    sizes.push_back(n);
  int found = 0;
  for (int64_t n : sizes)
    for (Precision p : {Precision::F32, Precision::F64}) {
      const Radices oracle = exhaustiveLoopedRadices(n, p);
      EXPECT_EQ(loopedOneArrayRadices(n, h100(n, p)), oracle)
          << n << (p == Precision::F64 ? " f64" : " f32");
      found += oracle.empty() ? 0 : 1;
    }
  EXPECT_GT(found, 20);  // the lists reach the walk's choices, not only its empty answers
}

// The plan's L2 error and FFTW's, printed; none where the OpenCL device's local memory cannot
// hold one padded array of the row (the one-array kernels' storage).
std::optional<L2Pair> measureInOneArray(const FftRequest& r, std::string& plan, uint64_t seed,
                                        const char* label) {
  const int64_t bytes = compiler::codegen::CodegenOptions{}.paddedLocalCount(r.size, r.size) *
                        (r.precision == Precision::F64 ? 16 : 8);
  if (static_cast<int64_t>(context().device().localMemBytes) < bytes) return std::nullopt;
  const L2Pair e = r.precision == Precision::F64 ? measurePlan<double>(r, plan, seed)
                                                 : measurePlan<float>(r, plan, seed);
  std::printf("[one array %s] %s fftc L2 %.3g  FFTW L2 %.3g  ratio %.2f\n", label,
              r.key().c_str(), e.fftc, e.fftw, e.ratio());
  return e;
}

// Each pass's reads, the barrier, then its writes to the same array: a work-item that wrote
// before every other had read its share would show here as a wrong result. Inverse too, and a
// batch of three (one row a work-group).
TEST(OneArrayLooped, MatchesFftw) {
  for (auto [n, p, d] : {std::tuple{int64_t{8448}, Precision::F32, Direction::Forward},
                         {8448, Precision::F64, Direction::Forward},
                         {16807, Precision::F32, Direction::Forward},
                         {16807, Precision::F32, Direction::Inverse},
                         {14641, Precision::F32, Direction::Forward}}) {
    FftRequest r = h100(n, p, 3);
    r.direction = d;
    std::string plan;
    const auto e = measureInOneArray(r, plan, 23, "looped");
    if (!e) GTEST_SKIP() << "the OpenCL device's local memory does not hold one array of " << n;
    EXPECT_NE(plan.find("looping over its butterflies"), std::string::npos) << plan;
    EXPECT_LE(e->fftc, kL2Bound * e->fftw) << r.key() << "\n" << plan;
  }
}

// The request's work-items (RequestedWorkItemsLoop): 6561 = [9, 9, 9, 9] on 384 and 512, whose
// passes of 729 butterflies leave some work-items two and others one.
TEST(OneArrayLooped, RequestedWorkItemsMatchFftw) {
  for (int64_t w : {384, 512}) {
    FftRequest r = h100(6561, Precision::F32, 3);
    r.localMemoryBytes = 100000;
    r.workgroupSize = w;
    std::string plan;
    const L2Pair e = measurePlan<float>(r, plan, 23);
    std::printf("[one array looped] %s W %lld fftc L2 %.3g  FFTW L2 %.3g  ratio %.2f\n",
                r.key().c_str(), static_cast<long long>(w), e.fftc, e.fftw, e.ratio());
    EXPECT_NE(plan.find(std::to_string(w) + " work-items per FFT"), std::string::npos) << plan;
    EXPECT_NE(plan.find("looping over its butterflies"), std::string::npos) << plan;
    EXPECT_LE(e.fftc, kL2Bound * e.fftw) << r.key() << "\n" << plan;
  }
}

// The planner's one array for odd sizes (OddSizesHeldToTwoBlocksTakeOneArray): 6561 f32 on 384
// work-items, 3125 f64 on 320, 2401 f64 on 192, each leaving some work-items one butterfly of a
// pass and others two; inverse too.
TEST(OneArrayLooped, OddSizesOneArrayMatchFftw) {
  for (auto [n, p, d] : {std::tuple{int64_t{6561}, Precision::F32, Direction::Forward},
                         {3125, Precision::F64, Direction::Forward},
                         {3125, Precision::F64, Direction::Inverse},
                         {2401, Precision::F64, Direction::Forward}}) {
    FftRequest r = h100(n, p, 3);
    r.direction = d;
    std::string plan;
    const auto e = measureInOneArray(r, plan, 29, "odd");
    if (!e) GTEST_SKIP() << "the OpenCL device's local memory does not hold one array of " << n;
    EXPECT_NE(plan.find("one local array"), std::string::npos) << plan;
    EXPECT_NE(plan.find("looping over its butterflies"), std::string::npos) << plan;
    EXPECT_LE(e->fftc, kL2Bound * e->fftw) << r.key() << "\n" << plan;
  }
}

}  // namespace
}  // namespace fftc::fftlib::test
