// The FFT plan space (fftlib/tune/fft_space.h): hand-counted sizes, device limits, the
// planner's veto, Dotsenko's pruning, Bluestein, and the configuration <-> request mapping.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "backends/common/device_error.h"
#include "fftlib/tune/fft_space.h"

namespace {

using namespace fftc::fftlib;
using namespace fftc::fftlib::tune;

FftRequest request(int64_t n, int64_t batch) {
  FftRequest r;
  r.size = n;
  r.batch = batch;
  return r;
}

std::map<std::string, uint64_t> perVariant(const FftSpace& s) {
  std::map<std::string, uint64_t> m;
  for (const auto& [v, k] : s.sizePerVariant()) m[v] = k;
  return m;
}

// Counted by iterating the space, independent of sizePerVariant's binary search.
std::map<std::string, uint64_t> countByVariant(const FftSpace& s) {
  std::map<std::string, uint64_t> m;
  for (uint64_t k = 0; k < s.space().size(); ++k) ++m[s.space().at(k).getString("variant")];
  return m;
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (auto r : v) p *= r;
  return p;
}

// N = 16, batch 4, by hand: radix sequences from {2,4,8,16} with at most one pass more than
// the fewest: [16], [2,8], [8,2], [4,4]. Hierarchical needs two: 3. Local: [16] has work-group
// {1} x FFTs {1,2,4} + (0,0) = 4; [2,8] and [8,2]: {1,2,4,8} x 3 + 1 = 13; [4,4]: {1,2,4} x 3
// + 1 = 10; 40 in all.
TEST(FftSpace, SizesCountedByHand) {
  FftSpace s(request(16, 4));
  const std::map<std::string, uint64_t> expected = {
      {"stockham", 4}, {"twiddle", 4}, {"cooley-tukey", 4}, {"hierarchical", 3}, {"local", 40}};
  EXPECT_EQ(perVariant(s), expected);
  EXPECT_EQ(countByVariant(s), expected);
  EXPECT_EQ(s.space().size(), 55u);
}

// Work-groups of at most 4 work-items: [16]: 3 + 1; [2,8], [8,2], [4,4]: wg 1 x {1,2,4},
// wg 2 x {1,2}, wg 4 x {1} + 1 = 7 each: 25. Local memory for two FFTs (256 bytes): [16]:
// 2 + 1; [2,8], [8,2]: 4 x 2 + 1 = 9; [4,4]: 3 x 2 + 1 = 7: 28.
TEST(FftSpace, DeviceLimitsBoundTheWorkGroupShape) {
  FftSpaceOptions small;
  small.limits.maxWorkGroupSize = 4;
  EXPECT_EQ(perVariant(FftSpace(request(16, 4), small))["local"], 25u);
  FftSpaceOptions lm;
  lm.limits.localMemBytes = 2 * 16 * 8;
  FftSpace s(request(16, 4), lm);
  EXPECT_EQ(perVariant(s)["local"], 28u);
  for (uint64_t k = 0; k < s.space().size(); ++k) {
    const FftRequest r = s.request(s.space().at(k));
    EXPECT_LE(r.fftsPerGroup * 16 * 8, lm.limits.localMemBytes);
  }
  // A transform that does not fit in local memory has no local-memory configuration.
  FftSpaceOptions tiny;
  tiny.limits.localMemBytes = 64;
  EXPECT_EQ(perVariant(FftSpace(request(16, 4), tiny))["local"], 0u);
}

TEST(FftSpace, EveryConfigurationIsOneThePlannerBuilds) {
  for (int64_t n : {16, 64, 1000}) {
    FftSpace s(request(n, 8));
    ASSERT_GT(s.space().size(), 0u);
    for (uint64_t k = 0; k < s.space().size(); ++k) {
      const FftRequest r = s.request(s.space().at(k));
      SCOPED_TRACE(s.space().at(k).toString());
      EXPECT_EQ(product(r.radices), n);
      EXPECT_NO_THROW((void)choosePlan(r));
      EXPECT_EQ(r.workgroupSize == 0, r.fftsPerGroup == 0);
      EXPECT_LE(r.workgroupSize * r.fftsPerGroup, s.options().limits.maxWorkGroupSize);
      if (r.variant != Variant::Local) {
        EXPECT_EQ(r.workgroupSize, 0);
      }
      EXPECT_LE(r.fftsPerGroup, 8);
    }
  }
}

TEST(FftSpace, ThePlannersVetoRemovesConfigurations) {
  FftSpaceOptions o;
  o.validate = [](const FftRequest& r) {
    return r.variant != Variant::CooleyTukey && r.workgroupSize != 2 && plannerAccepts(r);
  };
  FftSpace s(request(16, 4), o);
  auto m = perVariant(s);
  EXPECT_EQ(m["cooley-tukey"], 0u);
  EXPECT_EQ(m["stockham"], 4u);
  EXPECT_EQ(m["local"], 40u - 9);  // wg 2 with [2,8], [8,2] and [4,4], 3 FFT counts each
}

TEST(FftSpace, HoldsTheHeuristicPlanAndStartsThere) {
  FftSpace s(request(64, 8));
  auto k = s.heuristicIndex();
  ASSERT_TRUE(k);
  const FftRequest r = s.request(s.space().at(*k));
  const PlanChoice heuristic = choosePlan(request(64, 8));  // what variant auto builds
  EXPECT_EQ(r.variant, heuristic.variant);
  EXPECT_EQ(r.radices, heuristic.radices);
  EXPECT_EQ(r.workgroupSize, 0);  // the planner's own shape
  EXPECT_EQ(choosePlan(r).kernel, heuristic.kernel);
  EXPECT_TRUE(r.strategy.empty());
  // 1000: the heuristic's radix 10 is not in {2,3,4,5,7,8,16}; the space adds it.
  FftSpace t(request(1000, 2));
  ASSERT_TRUE(t.heuristicIndex());
  EXPECT_EQ(t.request(t.space().at(*t.heuristicIndex())).radices,
            (std::vector<int64_t>{10, 10, 10}));
}

// The heuristic configuration, planned as the tuner plans it (explicit variant, radices,
// levels), is exactly the plan that variant auto builds: every field of the choice, kernels'
// defines and work-group shapes included. Otherwise the tuner measures something else as "the
// heuristic plan" (on the H100 the hierarchical 2^20's split [8,8,16] x [8,16] x [8] instead of
// [8,8] x [16,8] x [16,8] took 1.8x as long) and may record a plan slower than the planner's.
TEST(FftSpace, TheHeuristicConfigurationPlansTheHeuristicPlan) {
  std::vector<FftRequest> problems;
  for (int64_t n : {2, 16, 31, 64, 128, 256, 512, 1000, 1009, 1024, 2048, 4096, 8192, 16384, 32768,
                    65536, 1 << 17, 1 << 18, 1 << 19, 1 << 20, 1 << 22, 3 * 4096, 5 * 5 * 5 * 128,
                    4099, 1331, 6656, 14641})  // the last three: radices 11 and 13
    for (int64_t batch : {1, 64})
      for (auto precision : {Precision::F32, Precision::F64}) {
        FftRequest r = request(n, batch);
        r.precision = precision;
        problems.push_back(r);
      }
  FftRequest nd = request(64 * 32, 4);
  nd.dims = {64, 32};
  problems.push_back(nd);
  nd.real = true;
  problems.push_back(nd);
  for (const FftRequest& base : problems) {
    SCOPED_TRACE(::testing::Message() << base.size << " batch " << base.batch << " "
                                      << precisionName(base.precision) << " dims "
                                      << base.dims.size() << (base.real ? " real" : ""));
    FftSpace s(base);
    const auto k = s.heuristicIndex();
    ASSERT_TRUE(k);
    const PlanChoice want = choosePlan(base), got = choosePlan(s.request(s.space().at(*k)));
    EXPECT_EQ(got.variant, want.variant);
    EXPECT_EQ(got.file, want.file);
    EXPECT_EQ(got.kernel, want.kernel);
    EXPECT_EQ(got.radices, want.radices);
    EXPECT_EQ(got.stageLocal, want.stageLocal);
    EXPECT_EQ(got.defines == want.defines, true);
    // the typed choice: levels and tiles, work-group shapes, M, the N-D passes
    EXPECT_EQ(got.detail == want.detail, true);
  }
}

TEST(FftSpace, DotsenkosAssimilationPruning) {
  auto sequences = [](bool prune) {
    FftSpaceOptions o;
    o.pruneAssimilated = prune;
    o.variants = {Variant::Stockham};
    FftSpace s(request(256, 1), o);
    std::set<std::vector<int64_t>> out;
    for (uint64_t k = 0; k < s.space().size(); ++k) out.insert(s.request(s.space().at(k)).radices);
    return out;
  };
  const auto pruned = sequences(true), all = sequences(false);
  using V = std::vector<int64_t>;
  EXPECT_TRUE(pruned.count(V{16, 16}));
  EXPECT_TRUE(all.count(V{4, 4, 16}));
  EXPECT_FALSE(pruned.count(V{4, 4, 16}));  // 4 x 4 = 16 is in it
  EXPECT_FALSE(pruned.count(V{2, 8, 16}));
  EXPECT_TRUE(pruned.count(V{8, 8, 4}));  // no product of two others in it
  for (const auto& rs : pruned) EXPECT_LE(rs.size(), 3u);  // fewest (2) + 1
  EXPECT_LT(pruned.size(), all.size());
}

// 31 f32: Bluestein's and Rader's convolutions, and the planner's own plan, the prime one radix
// in a work-item a row (primeInOneWorkItem: the Local variant); 37 f64 (its butterfly spills)
// Bluestein's only.
TEST(FftSpace, BluesteinForSizesWithLargePrimes) {
  FftRequest f64 = request(37, 2);
  f64.precision = Precision::F64;
  const auto only = perVariant(FftSpace(f64));
  EXPECT_EQ(only.size(), 1u);
  EXPECT_EQ(only.count("bluestein"), 1u);
  FftSpace s(request(31, 2));
  auto m = perVariant(s);
  ASSERT_EQ(m.size(), 2u);
  EXPECT_GT(m["bluestein"], 0u);
  EXPECT_GT(m["local"], 0u);
  std::set<int64_t> ms;
  for (uint64_t k = 0; k < s.space().size(); ++k) {
    const FftRequest r = s.request(s.space().at(k));
    if (r.variant == Variant::Local) {
      EXPECT_EQ(r.radices, (std::vector<int64_t>{31}));
      continue;
    }
    EXPECT_EQ(r.variant, Variant::Bluestein);
    EXPECT_TRUE(product(r.radices) >= 2 * 31 - 1 || product(r.radices) == 30);
    ms.insert(product(r.radices));
  }
  // the smooth sizes >= 61: 63 and 64 = 2^6; and Rader's convolution of 30 (the heuristic's)
  EXPECT_EQ(ms, (std::set<int64_t>{30, 63, 64}));
  ASSERT_TRUE(s.heuristicIndex());
  EXPECT_EQ(s.request(s.space().at(*s.heuristicIndex())).variant, Variant::Local);
}

// 488 = [61, 8] (a Rader pass, raderPassPlan): the planner's plan is in the space and is its
// heuristic point, beside Bluestein's; 376 = [47, 8] (Bluestein's one kernel by default)
// Bluestein's only.
TEST(FftSpace, HoldsTheRaderPassPlan) {
  FftSpace s(request(488, 2));
  const auto m = perVariant(s);
  EXPECT_GT(m.at("local"), 0u);
  EXPECT_GT(m.at("bluestein"), 0u);
  ASSERT_TRUE(s.heuristicIndex());
  const FftRequest h = s.request(s.space().at(*s.heuristicIndex()));
  EXPECT_EQ(h.variant, Variant::Local);
  EXPECT_EQ(h.radices, (std::vector<int64_t>{61, 8}));
  const auto only = perVariant(FftSpace(request(376, 2)));
  EXPECT_EQ(only.size(), 1u);
  EXPECT_EQ(only.count("bluestein"), 1u);
}

// 22 f32 (rowInOneWorkItem): the planner's plan, one radix 22 in a work-item a row, is in the
// space and is its heuristic point; the Local variant's two-radix lists stay beside it.
TEST(FftSpace, HoldsTheSmallRowInOneWorkItem) {
  FftSpace s(request(22, 64));
  bool oneRadix = false, twoRadices = false;
  for (uint64_t k = 0; k < s.space().size(); ++k) {
    const FftRequest r = s.request(s.space().at(k));
    if (r.variant != Variant::Local) continue;
    oneRadix = oneRadix || r.radices == std::vector<int64_t>{22};
    twoRadices = twoRadices || r.radices.size() == 2;
  }
  EXPECT_TRUE(oneRadix);
  EXPECT_TRUE(twoRadices);
  ASSERT_TRUE(s.heuristicIndex());
  const FftRequest h = s.request(s.space().at(*s.heuristicIndex()));
  EXPECT_EQ(h.variant, Variant::Local);
  EXPECT_EQ(h.radices, (std::vector<int64_t>{22}));
}

// 143 = 11 x 13 (issue 23): the mixed-radix variants with radices 11 and 13 in either order,
// never Bluestein.
TEST(FftSpace, RadicesElevenAndThirteen) {
  FftSpace s(request(143, 2));
  auto m = perVariant(s);
  EXPECT_EQ(m.count("bluestein"), 0u);
  EXPECT_GT(m["local"], 0u);
  std::set<std::vector<int64_t>> sequences;
  for (uint64_t k = 0; k < s.space().size(); ++k) sequences.insert(s.request(s.space().at(k)).radices);
  EXPECT_TRUE(sequences.count({13, 11}));
  EXPECT_TRUE(sequences.count({11, 13}));
  EXPECT_FALSE(sequences.count({143}));  // not a radix: the fewest passes are two
}

TEST(FftSpace, RequestOptionsNarrowTheSpace) {
  FftRequest r = request(64, 4);
  r.variant = Variant::StockhamTwiddle;
  r.radices = {8, 8};
  FftSpace s(r);
  EXPECT_EQ(s.space().size(), 1u);
  EXPECT_THROW(FftSpace(request(0, 1)), fftc::backends::UserError);
}

// The hierarchical variant's levels: 2 and 3 for the radix sequences the planner splits so;
// the other variants none.
TEST(FftSpace, HierarchicalLevelsAreAParameter) {
  FftRequest r = request(65536, 4);
  r.variant = Variant::Hierarchical;
  FftSpace space(r);
  std::set<int64_t> levels;
  for (std::uint64_t k = 0; k < space.space().size(); ++k) {
    const FftRequest c = space.request(space.space().at(k));
    levels.insert(c.levels);
    EXPECT_TRUE(plannerAccepts(c)) << c.key();
    EXPECT_EQ(levelSizes(choosePlan(c)).size(), static_cast<size_t>(c.levels)) << c.key();
  }
  EXPECT_EQ(levels, (std::set<int64_t>{2, 3}));
  // Every cut of the radices into the levels, not one rule's: 32768 = [8,4,16,8,8] as 32 x 1024
  // and as 512 x 64 (the split of the old rule, 1.26x the heuristic's on the H100), and the
  // heuristic's 128 x 256.
  FftSpace big(request(32768, 64));
  std::set<std::vector<int64_t>> splits, cutsOf84168;
  for (std::uint64_t k = 0; k < big.space().size(); ++k) {
    const FftRequest c = big.request(big.space().at(k));
    if (c.variant != Variant::Hierarchical) continue;
    splits.insert(c.levelSizes);
    int64_t p = 1;
    for (int64_t n : c.levelSizes) p *= n;
    EXPECT_EQ(p, 32768);
    if (c.radices == std::vector<int64_t>{8, 4, 16, 8, 8}) cutsOf84168.insert(c.levelSizes);
  }
  for (const std::vector<int64_t>& want :
       {std::vector<int64_t>{128, 256}, {512, 64}, {32, 1024}, {32, 16, 64}})
    EXPECT_EQ(splits.count(want), 1u) << want[0] << " x " << want[1];
  EXPECT_TRUE(cutsOf84168.count({512, 64}) && cutsOf84168.count({32, 1024}));
  EXPECT_FALSE(cutsOf84168.count({8, 4096}));  // a 4096-point level: no tile fits local memory
  ASSERT_TRUE(space.heuristicIndex());
  EXPECT_EQ(space.request(space.space().at(*space.heuristicIndex())).levels,
            static_cast<std::int64_t>(levelSizes(choosePlan(r)).size()));
  const FftSpace all(request(64, 4));
  for (std::uint64_t k = 0; k < all.space().size(); ++k)
    EXPECT_EQ(all.request(all.space().at(k)).levels == 0,
              all.space().at(k).getString("variant") != "hierarchical");
}

TEST(FftSpace, ConfigurationsRoundTripThroughJson) {
  FftSpace s(request(16, 4));
  for (uint64_t k = 0; k < s.space().size(); ++k) {
    const auto c = s.space().at(k);
    EXPECT_EQ(s.space().indexOf(c.toJson()), k);
    const FftRequest r = requestFor(s.base(), c.toJson());
    EXPECT_EQ(r.radices, c.getList("radices"));
    EXPECT_EQ(variantName(r.variant), c.getString("variant"));
  }
  EXPECT_THROW(requestFor(s.base(), boost::json::object{{"variant", "stockham"}}),
               fftc::tuner::TunerError);
  // Parameters added later read as the planner's choice when absent (older wisdom), and a
  // field of the wrong type is refused.
  const boost::json::object old{{"variant", "hierarchical"}, {"radices", {4, 4}},
                                {"workgroupSize", 0},        {"fftsPerGroup", 0},
                                {"rewrite", "lowerFft"}};
  const FftRequest r = requestFor(s.base(), old);
  EXPECT_EQ(r.levels, 0);
  EXPECT_TRUE(r.levelSizes.empty());
  EXPECT_TRUE(r.passGroups.empty());
  EXPECT_EQ(requestFor(s.base(), [&] {
              auto c = old;
              c["levelSizes"] = {4, 4};
              return c;
            }()).levelSizes,
            (std::vector<int64_t>{4, 4}));
  for (const auto& [field, value] : std::vector<std::pair<const char*, boost::json::value>>{
           {"radices", "4,4"}, {"radices", {4, "4"}}, {"levelSizes", 16}, {"levelSizes", {4.0, 4}},
           {"passGroups", "[]"}, {"levels", "2"}}) {
    auto bad = old;
    bad[field] = value;
    EXPECT_THROW(requestFor(s.base(), bad), fftc::tuner::TunerError)
        << field << " " << boost::json::serialize(value);
  }
}

}  // namespace
