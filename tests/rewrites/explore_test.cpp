// Exploration (distinct variants, deduplication, the size cap) and the alpha-equivalence it
// deduplicates by.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "ir/printer.h"
#include "rewrites/equality.h"
#include "rewrites/explore.h"
#include "rewrites/named_strategies.h"
#include "rewrites/strategy_parser.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using namespace ir;

ExprPtr build(const ParamPtr& x) {
  return map(fun([](ExprPtr a) { return a + lit(1); }))
         << map(fun([](ExprPtr a) { return a * lit(2); })) << ExprPtr(x);
}

TEST(AlphaEquality, RenamedParamsAreEqualAndHashEqual) {
  auto x = param("x", Type::array(Type::intType(), 8));
  ExprPtr a = build(x), b = build(x);
  EXPECT_NE(a, b);
  EXPECT_TRUE(alphaEqual(a, b));
  EXPECT_EQ(alphaHash(a), alphaHash(b));
  EXPECT_TRUE(alphaEqual(inferTypes(a), b));
  // a different constant, a different free Param, swapped uses of bound Params
  ExprPtr c = map(fun([](ExprPtr a0) { return a0 + lit(2); }))
              << map(fun([](ExprPtr a0) { return a0 * lit(2); })) << ExprPtr(x);
  EXPECT_FALSE(alphaEqual(a, c));
  auto y = param("x", Type::array(Type::intType(), 8));
  EXPECT_FALSE(alphaEqual(a, build(y)));
  auto xs = param("xs", Type::array(Type::tuple({Type::intType(), Type::intType()}), 4));
  ExprPtr s1 = map(fun([](ExprPtr p, ExprPtr q) { return p - q; })) << ExprPtr(xs);
  ExprPtr s2 = map(fun([](ExprPtr p, ExprPtr q) { return q - p; })) << ExprPtr(xs);
  ExprPtr s3 = map(fun([](ExprPtr p, ExprPtr q) { return p - q; })) << ExprPtr(xs);
  EXPECT_FALSE(alphaEqual(s1, s2));
  EXPECT_TRUE(alphaEqual(s1, s3));
  EXPECT_EQ(alphaHash(s1), alphaHash(s3));
  // structural differences: split sizes, map kinds
  EXPECT_FALSE(alphaEqual(split(2) << ExprPtr(x), split(4) << ExprPtr(x)));
  auto f = fun([](ExprPtr a0) { return a0; });
  EXPECT_FALSE(alphaEqual(map(f) << ExprPtr(x), mapSeq(f) << ExprPtr(x)));
  EXPECT_FALSE(alphaEqual(mapGlobal(0, f) << ExprPtr(x), mapGlobal(1, f) << ExprPtr(x)));
}

// The children of patterns (ir::childrenOf): reduce's function and init, pad's constant, a
// generator's function, the arguments of a call, each compared in order.
TEST(AlphaEquality, PatternChildrenAreCompared) {
  auto x = param("x", Type::array(Type::intType(), 8));
  auto y = param("y", Type::intType());
  auto plus = [] { return fun([](ExprPtr a, ExprPtr b) { return a + b; }); };
  auto minus = [] { return fun([](ExprPtr a, ExprPtr b) { return a - b; }); };
  ExprPtr r0 = reduce(plus(), lit(0)) << ExprPtr(x);
  EXPECT_TRUE(alphaEqual(r0, reduce(plus(), lit(0)) << ExprPtr(x)));
  EXPECT_EQ(alphaHash(r0), alphaHash(reduce(plus(), lit(0)) << ExprPtr(x)));
  EXPECT_FALSE(alphaEqual(r0, reduce(plus(), lit(1)) << ExprPtr(x)));   // the init
  EXPECT_FALSE(alphaEqual(r0, reduce(minus(), lit(0)) << ExprPtr(x)));  // the function
  EXPECT_FALSE(alphaEqual(r0, reduce(plus(), ExprPtr(y)) << ExprPtr(x)));
  EXPECT_TRUE(alphaEqual(pad(1, 1, y) << ExprPtr(x), pad(1, 1, y) << ExprPtr(x)));
  EXPECT_FALSE(alphaEqual(pad(1, 1, y) << ExprPtr(x), pad(1, 1, lit(0)) << ExprPtr(x)));
  auto gen = [](int k) { return array(4, fun([k](ExprPtr i, ExprPtr) { return i * lit(k); })); };
  EXPECT_TRUE(alphaEqual(gen(2), gen(2)));
  EXPECT_FALSE(alphaEqual(gen(2), gen(3)));
  // arguments in order: a - b against b - a of the same free Params
  ExprPtr z = param("z", Type::intType());
  EXPECT_FALSE(alphaEqual(ExprPtr(y) - z, z - ExprPtr(y)));
  EXPECT_TRUE(alphaEqual(ExprPtr(y) - z, ExprPtr(y) - z));
}

TEST(AlphaEquality, FreshenedRandomProgramsAreEqual) {
  for (uint64_t seed = 0; seed < 100; ++seed) {
    testing::ProgramGenerator gen(seed, 3);
    auto p = gen.generate();
    ExprPtr a = p.body, b = freshen(p.body);
    EXPECT_TRUE(alphaEqual(a, b)) << print(a, {false, 2});
    EXPECT_EQ(alphaHash(a), alphaHash(b));
  }
}

TEST(Explore, DistinctVariantsWithTheirSequences) {
  auto x = param("x", Type::array(Type::intType(), 8));
  ExprPtr p = build(x);
  ExploreOptions o;
  o.rules = instantiateRules({"mapFusion", "mapFission", "splitJoin", "joinSplit"}, {2, 4});
  o.maxDepth = 3;
  ExploreResult r = explore(p, o);
  ASSERT_GT(r.variants.size(), 5u);
  EXPECT_FALSE(r.capped);
  EXPECT_GT(r.duplicates, 0u);  // mapFusion then mapFission comes back to the input
  EXPECT_TRUE(r.variants[0].steps.empty());
  std::vector<Value> xs;
  for (int i = 0; i < 8; ++i) xs.push_back(Value::ofInt(3 * i - 7));
  Value want = testing::runProgram(inferTypes(p), {x}, {Value::array(xs)});
  for (size_t i = 0; i < r.variants.size(); ++i) {
    const Variant& v = r.variants[i];
    EXPECT_LE(v.steps.size(), 3u);
    EXPECT_EQ(testing::runProgram(v.program, {x}, {Value::array(xs)}), want) << print(v.program);
    for (size_t j = 0; j < i; ++j)
      EXPECT_FALSE(alphaEqual(v.program, r.variants[j].program)) << i << " and " << j;
    // replaying the recorded sequence gives the variant
    if (!v.steps.empty()) {
      std::string text;
      for (const auto& s : v.steps) {
        auto at = s.find(" @ ");
        std::string rule = s.substr(0, at), path = s.substr(at + 3);
        std::string list = path == "root" ? "" : path;
        std::replace(list.begin(), list.end(), '.', ',');
        text += (text.empty() ? "" : "; ") + std::string("at([") + list + "], " + rule + ")";
      }
      RewriteResult replay = rewrite(p, parseStrategy(text));
      EXPECT_TRUE(replay.success) << text;
      EXPECT_TRUE(alphaEqual(replay.program, v.program)) << text;
    }
  }
}

TEST(Explore, SizeCapAndFinishing) {
  auto x = param("x", Type::array(Type::intType(), 16));
  ExprPtr p = build(x);
  ExploreOptions o;
  o.rules = instantiateRules({"splitJoin", "mapFusion", "mapMapInterchange"}, {2, 4, 8});
  o.maxDepth = 4;
  o.maxVariants = 12;
  ExploreResult capped = explore(p, o);
  EXPECT_TRUE(capped.capped);
  EXPECT_LE(capped.variants.size(), 12u);
  // with lowerDefault as the finishing strategy, every variant is lowered
  o.maxVariants = 40;
  o.maxDepth = 2;
  o.finish = lowerDefault();
  ExploreResult fin = explore(p, o);
  ASSERT_GT(fin.variants.size(), 1u);
  for (const auto& v : fin.variants) {
    EXPECT_EQ(testing::countKind(v.program, FunKind::Map), 0) << print(v.program);
    EXPECT_GE(testing::countKind(v.program, FunKind::MapGlobal), 1);
  }
}

// Beam search: every new variant is scored once; only the beamWidth best of a depth are
// rewritten further, so each deeper variant extends one of them; a variant scored nullopt is
// never extended.
TEST(Explore, BeamExtendsOnlyTheBestScored) {
  auto x = param("x", Type::array(Type::intType(), 16));
  ExprPtr p = build(x);
  ExploreOptions o;
  o.rules = instantiateRules({"splitJoin", "mapFusion", "joinSplit"}, {2, 4});
  o.maxDepth = 3;
  o.beamWidth = 2;
  std::map<std::vector<std::string>, double> scores;
  // fewer nodes is better; sequences that start with splitJoin(4) "do not compile"
  o.score = [&](const Variant& v) -> std::optional<double> {
    EXPECT_EQ(scores.count(v.steps), 0u) << "scored twice";
    const double s = static_cast<double>(nodeCount(v.program));
    scores[v.steps] = s;
    if (!v.steps.empty() && v.steps[0].rfind("splitJoin(4)", 0) == 0) return std::nullopt;
    return s;
  };
  ExploreResult r = explore(p, o);
  EXPECT_EQ(scores.size(), r.variants.size());
  for (size_t depth = 1; depth < 3; ++depth) {
    // the prefixes extended at depth + 1 are among the 2 best of depth
    std::vector<std::pair<double, std::vector<std::string>>> atDepth;
    for (const auto& [steps, s] : scores)
      if (steps.size() == depth && steps[0].rfind("splitJoin(4)", 0) != 0)
        atDepth.push_back({s, steps});
    std::sort(atDepth.begin(), atDepth.end());
    ASSERT_GE(atDepth.size(), 2u) << depth;
    int extended = 0;
    for (const Variant& v : r.variants) {
      if (v.steps.size() != depth + 1) continue;
      ++extended;
      const std::vector<std::string> prefix(v.steps.begin(), v.steps.end() - 1);
      EXPECT_NE(prefix[0].rfind("splitJoin(4)", 0), 0u) << "a dropped variant was extended";
      EXPECT_LE(scores.at(prefix), atDepth[1].first) << "extended a variant outside the beam";
    }
    EXPECT_GT(extended, 0) << depth;
  }
}

}  // namespace
}  // namespace fftc::rewrites
