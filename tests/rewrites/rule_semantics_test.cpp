// Every rule, applied to at least 200 random well-typed programs where it matches, leaves the
// interpreter's result unchanged; and every rule reports success iff it changed the program.
#include <gtest/gtest.h>

#include <optional>

#include "ir/printer.h"
#include "rewrites/equality.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using testing::ProgramGenerator;
using testing::randomValue;
using testing::runProgram;
using testing::valuesClose;

struct RuleCase {
  Rule rule;
  std::optional<Strategy> pre;  // brings random high-level programs to where the rule applies
};

std::vector<RuleCase> ruleCases() {
  using namespace rules;
  Strategy wg = topDown(mapWorkgroup(0));
  return {
      {mapFusion(), {}},
      {mapFission(), {}},
      {splitJoin(2), {}},
      {splitJoin(3), {}},
      {joinSplit(), {}},
      {transposeTransposeId(), {}},
      {joinSplitId(), {}},
      {splitJoinId(), {}},
      {mapMapInterchange(), {}},
      {reduceMapFusion(), {}},
      {mapZipFlatten(), {}},
      {mapZipFlattenViews(), {}},
      {mapIntoProducer(), {}},
      {mapZipFusion(), {}},
      {splitReduce(2), {}},
      {splitReduce(3), {}},
      {splitMap(), {}},
      {splitStrideReduce(2), {}},
      {splitStrideReduce(3), {}},
      {splitReduceMap(2), {}},
      {splitReduceMap(3), {}},
      {splitStrideMap(2), {}},
      {splitStrideMap(3), {}},
      {mapGlobal(0), {}},
      {mapGlobal(1), topDown(mapGlobal(0))},
      {mapWorkgroup(0), {}},
      {mapLocal(0), wg},
      {mapWorkgroupLocal(0), {}},
      {mapSeq(), {}},
      {mapSeqUnroll(), {}},
      {reduceSeq(), {}},
      {reduceSeqUnroll(), {}},
      {toGlobal(), lowerGlobal()},
      {toLocal(), seq(tryStrategy(wg), lowerSequential())},
      {toPrivate(), lowerSequential()},
  };
}

class RuleSemantics : public ::testing::TestWithParam<size_t> {};

struct Prepared {
  ExprPtr typed;
  std::vector<ParamPtr> inputs;
};

// The i-th random typed program of a pool shared by all rules (generated once, lazily).
const Prepared* poolProgram(size_t i) {
  static std::vector<std::optional<Prepared>> pool;
  while (pool.size() <= i) {
    ProgramGenerator gen(pool.size() * 131 + 1, 3);
    auto prog = gen.generate();
    try {
      pool.push_back(Prepared{ir::inferTypes(prog.body), prog.inputs});
    } catch (const ir::CompileError& e) {
      ADD_FAILURE() << "the generator made an ill-typed program: " << e.what() << "\n"
                    << ir::print(prog.body, {false, 2});
      pool.push_back(std::nullopt);
    }
  }
  return pool[i] ? &*pool[i] : nullptr;
}

// The i-th pool program after the case's preparation.
std::optional<Prepared> prepareProgram(size_t i, const RuleCase& rc) {
  const Prepared* p = poolProgram(i);
  if (!p) return std::nullopt;
  if (!rc.pre) return *p;
  return Prepared{rewrite(p->typed, *rc.pre).program, p->inputs};
}

TEST_P(RuleSemantics, PreservesInterpreterResults) {
  const RuleCase rc = ruleCases()[GetParam()];
  SCOPED_TRACE(rc.rule.name());
  std::mt19937_64 rng(GetParam() * 1000 + 17);
  int matched = 0;
  for (size_t i = 0; i < 30000 && matched < 200; ++i) {
    auto p = prepareProgram(i, rc);
    if (!p) continue;
    std::vector<Path> where = matchPositions(rc.rule, p->typed);
    if (where.empty()) continue;
    const Path& at = where[rng() % where.size()];
    Applied a = applyAt(rc.rule, p->typed, at);
    ASSERT_TRUE(a.changed) << "matchPositions and applyAt disagree at " << pathStr(at);
    for (int trial = 0; trial < 2; ++trial) {
      std::vector<ir::Value> args;
      for (const auto& in : p->inputs) args.push_back(randomValue(in->type(), rng));
      ir::Value before, after;
      try {
        before = runProgram(p->typed, p->inputs, args);
      } catch (const ir::InterpreterError&) {
        continue;  // e.g. an input the program cannot run on; not the rule's business
      }
      after = runProgram(a.program, p->inputs, args);
      std::string why;
      ASSERT_TRUE(valuesClose(before, after, 1e-4, &why))
          << why << "\nrule " << rc.rule.name() << " at " << pathStr(at) << "\nbefore:\n"
          << ir::print(p->typed, {false, 2}) << "\nafter:\n"
          << ir::print(a.program, {false, 2});
    }
    ++matched;
  }
  EXPECT_GE(matched, 200) << "too few random programs where " << rc.rule.name() << " matches";
}

TEST_P(RuleSemantics, SucceedsIffItChangesTheProgram) {
  const RuleCase rc = ruleCases()[GetParam()];
  SCOPED_TRACE(rc.rule.name());
  int changed = 0, unchanged = 0;
  for (size_t i = 0; i < 150; ++i) {
    auto p = prepareProgram(i, rc);
    if (!p) continue;
    for (const Path& at : allPaths(p->typed)) {
      Applied a = applyAt(rc.rule, p->typed, at);
      if (!a.changed) {
        ++unchanged;
        ASSERT_EQ(a.program, p->typed) << "no match must return the same pointer";
      } else {
        ++changed;
        ASSERT_NE(a.program, p->typed);
        ASSERT_FALSE(alphaEqual(a.program, p->typed))
            << "success without a change at " << pathStr(at) << ":\n"
            << ir::print(p->typed, {false, 2});
      }
    }
  }
  EXPECT_GT(changed, 0);
  EXPECT_GT(unchanged, 0);
}

std::string caseName(const ::testing::TestParamInfo<size_t>& info) {
  std::string n = ruleCases()[info.param].rule.name();
  std::string out;
  for (char c : n)
    if (std::isalnum(static_cast<unsigned char>(c))) out += c;
  return out;
}

INSTANTIATE_TEST_SUITE_P(AllRules, RuleSemantics, ::testing::Range<size_t>(0, ruleCases().size()),
                         caseName);

// Rules that must not match, table-driven (TVM style): the side conditions hold them back.
TEST(RuleSideConditions, RejectWhereTheConditionFails) {
  using namespace ir;
  auto x6 = param("x", Type::array(Type::intType(), 6));
  auto inc = fun([](ExprPtr a) { return a + lit(1); });
  ExprPtr m6 = inferTypes(map(inc) << ExprPtr(x6));
  // splitJoin(4) of 6 elements: 4 does not divide 6
  EXPECT_FALSE(applyAt(rules::splitJoin(4), m6, {}).changed);
  EXPECT_TRUE(applyAt(rules::splitJoin(3), m6, {}).changed);
  // split(3) o join of [[int]2]3: the inner size is 2, not 3
  auto x23 = param("y", Type::array(Type::array(Type::intType(), 2), 3));
  ExprPtr sj = inferTypes(split(3) << join() << ExprPtr(x23));
  EXPECT_FALSE(applyAt(rules::splitJoinId(), sj, {}).changed);
  ExprPtr sj2 = inferTypes(split(2) << join() << ExprPtr(x23));
  EXPECT_TRUE(applyAt(rules::splitJoinId(), sj2, {}).changed);
  // mapMapInterchange: the inner function mentions the row
  auto rows = param("r", Type::array(Type::array(Type::intType(), 2), 3));
  auto dep = fun([](ExprPtr r) {
    return map(fun([&](ExprPtr a) { return a + (reduce(add(), lit(0)) << r); })) << r;
  });
  ExprPtr mm = inferTypes(map(dep) << ExprPtr(rows));
  EXPECT_FALSE(applyAt(rules::mapMapInterchange(), mm, {}).changed);
  // mapGlobal(0) inside mapGlobal(0), mapLocal outside mapWorkgroup
  auto indep = fun([](ExprPtr r) { return map(fun([](ExprPtr a) { return a * lit(2); })) << r; });
  ExprPtr g = inferTypes(mapGlobal(0, indep) << ExprPtr(rows));
  std::vector<Path> inner = matchPositions(rules::mapSeq(), g);
  ASSERT_EQ(inner.size(), 1u);
  EXPECT_FALSE(applyAt(rules::mapGlobal(0), g, inner[0]).changed);
  EXPECT_TRUE(applyAt(rules::mapGlobal(1), g, inner[0]).changed);
  EXPECT_FALSE(applyAt(rules::mapLocal(0), g, inner[0]).changed);
  // unrolling needs a constant size
  auto n = ArithExpr::sizeVar("N");
  auto xn = param("xn", Type::array(Type::intType(), n));
  ExprPtr mn = inferTypes(map(inc) << ExprPtr(xn));
  EXPECT_FALSE(applyAt(rules::mapSeqUnroll(), mn, {}).changed);
  EXPECT_TRUE(applyAt(rules::mapSeq(), mn, {}).changed);
  // splitJoin(2) of a symbolic N: 2 | N is not provable; of 2*N it is
  EXPECT_FALSE(applyAt(rules::splitJoin(2), mn, {}).changed);
  auto x2n = param("x2n", Type::array(Type::intType(), n * 2));
  ExprPtr m2n = inferTypes(map(inc) << ExprPtr(x2n));
  Applied sj2n = applyAt(rules::splitJoin(2), m2n, {});
  EXPECT_TRUE(sj2n.changed);
  if (sj2n.changed) {
    EXPECT_EQ(sj2n.program->type(), m2n->type());
  }
  // toLocal only inside a mapWorkgroup
  ExprPtr s = inferTypes(mapSeq(inc) << ExprPtr(x6));
  EXPECT_FALSE(applyAt(rules::toLocal(), s, {}).changed);
  EXPECT_TRUE(applyAt(rules::toPrivate(), s, {}).changed);
}

}  // namespace
}  // namespace fftc::rewrites
