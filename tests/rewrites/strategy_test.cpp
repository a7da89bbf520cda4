// Strategy combinators: semantics of seq/lChoice/try/repeat/traversals, budgets on adversarial
// strategies, and lowerDefault on random programs (semantics kept, every computing map/reduce
// lowered, memory placed).
#include <gtest/gtest.h>

#include "ir/printer.h"
#include "rewrites/equality.h"
#include "rewrites/ir_util.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "rewrites/strategy_parser.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using namespace ir;
using testing::countKind;
using testing::forEachFun;
using testing::ProgramGenerator;
using testing::randomValue;
using testing::runProgram;
using testing::valuesClose;

// map(f) o map(g) o map(h) over 8 ints: two fusions apply, then none.
struct Chain3 {
  ParamPtr x = param("x", Type::array(Type::intType(), 8));
  ExprPtr e = map(fun([](ExprPtr a) { return a + lit(1); }))
              << map(fun([](ExprPtr a) { return a * lit(3); }))
              << map(fun([](ExprPtr a) { return a - lit(2); })) << ExprPtr(x);
  Value run(const ExprPtr& p) const {
    std::vector<Value> xs;
    for (int i = 0; i < 8; ++i) xs.push_back(Value::ofInt(i - 3));
    return runProgram(p, {x}, {Value::array(xs)});
  }
};

TEST(Strategies, NormalizeFusesEveryMap) {
  Chain3 c;
  RewriteResult r = rewrite(c.e, normalize(rules::mapFusion()));
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.budgetHit);
  EXPECT_EQ(countKind(r.program, FunKind::Map), 1);
  EXPECT_EQ(r.log.size(), 2u);
  EXPECT_EQ(c.run(r.program), c.run(inferTypes(c.e)));
}

TEST(Strategies, SeqFailsAsAWholeAndRestores) {
  Chain3 c;
  ExprPtr typed = inferTypes(c.e);
  // mapFusion succeeds at the root, transposeTransposeId then fails: nothing may change
  RewriteResult r = rewrite(typed, seq(rules::mapFusion(), rules::transposeTransposeId()));
  EXPECT_FALSE(r.success);
  EXPECT_EQ(r.program, typed);
  EXPECT_TRUE(r.log.empty());
  // try makes it succeed, still without a change
  RewriteResult t =
      rewrite(typed, tryStrategy(seq(rules::mapFusion(), rules::transposeTransposeId())));
  EXPECT_TRUE(t.success);
  EXPECT_EQ(t.program, typed);
}

TEST(Strategies, LChoiceTakesTheFirstThatApplies) {
  Chain3 c;
  ExprPtr typed = inferTypes(c.e);
  RewriteResult r = rewrite(typed, lChoice(rules::transposeTransposeId(), rules::mapSeq()));
  ASSERT_TRUE(r.success);
  ASSERT_EQ(r.log.size(), 1u);
  EXPECT_EQ(r.log[0], "mapSeq @ root");
}

TEST(Strategies, TopDownAndBottomUpPickDifferentPositions) {
  Chain3 c;
  ExprPtr typed = inferTypes(c.e);
  RewriteResult td = rewrite(typed, topDown(rules::mapSeq()));
  RewriteResult bu = rewrite(typed, bottomUp(rules::mapSeq()));
  ASSERT_EQ(td.log.size(), 1u);
  ASSERT_EQ(bu.log.size(), 1u);
  EXPECT_EQ(td.log[0], "mapSeq @ root");
  EXPECT_NE(bu.log[0], "mapSeq @ root");  // the innermost map, applied to x
  EXPECT_EQ(exprAt(bu.program, {1, 1})->as<FunCall>()->f()->kind(), FunKind::MapSeq);
}

TEST(Strategies, AtPathAndAllChildren) {
  Chain3 c;
  ExprPtr typed = inferTypes(c.e);
  // the root's children: the lambda body of its map, then its argument (the middle map)
  RewriteResult r = rewrite(typed, atPath({1}, rules::mapSeq()));
  ASSERT_TRUE(r.success);
  EXPECT_EQ(r.log[0], "mapSeq @ 1");
  EXPECT_FALSE(rewrite(typed, atPath({7, 7}, rules::mapSeq())).success);
  // all(mapSeq) at the root fails: the lambda body child is not a map
  EXPECT_FALSE(rewrite(typed, allChildren(rules::mapSeq())).success);
  EXPECT_TRUE(rewrite(typed, someChild(rules::mapSeq())).success);
  EXPECT_TRUE(rewrite(typed, oneChild(rules::mapSeq())).success);
}

TEST(Strategies, AllTopDownAndOuter) {
  Chain3 c;
  // alltd: the root map is rewritten, the maps inside it (its argument) are not visited again
  RewriteResult r = rewrite(c.e, allTopDown(rules::mapSeq()));
  EXPECT_EQ(countKind(r.program, FunKind::MapSeq), 1);
  auto id1 = fun([](ExprPtr a) { return a; });
  auto id2 = fun([](ExprPtr a) { return a; });
  RewriteResult z =
      rewrite(zip(map(id1) << ExprPtr(c.x), map(id2) << ExprPtr(c.x)), allTopDown(rules::mapSeq()));
  EXPECT_EQ(countKind(z.program, FunKind::MapSeq), 2);
  EXPECT_FALSE(rewrite(c.e, allTopDown(rules::transposeTransposeId())).success);
  // a map nested in a map is not "outer"
  auto xs = param("xs", Type::array(Type::array(Type::intType(), 2), 4));
  ExprPtr nested =
      map(fun([](ExprPtr row) { return map(fun([](ExprPtr a) { return a; })) << row; }))
      << ExprPtr(xs);
  RewriteResult o = rewrite(nested, normalize(outer(rules::mapSeq())));
  EXPECT_EQ(countKind(o.program, FunKind::MapSeq), 1);
  EXPECT_EQ(countKind(o.program, FunKind::Map), 1);
}

// ---- budgets: adversarial strategies terminate with a report

void expectBudgetHit(const ExprPtr& program, const std::string& text, int64_t budget,
                     const std::vector<ParamPtr>& inputs, const std::vector<Value>& args) {
  SCOPED_TRACE(text);
  RewriteOptions o;
  o.maxSteps = budget;
  RewriteResult r = rewrite(program, parseStrategy(text), o);
  EXPECT_TRUE(r.budgetHit);
  EXPECT_EQ(r.steps, budget);
  EXPECT_NE(r.report().find("budget of " + std::to_string(budget) + " steps was exhausted"),
            std::string::npos)
      << r.report();
  // whatever was rewritten so far still computes the same
  std::string why;
  EXPECT_TRUE(valuesClose(runProgram(inferTypes(program), inputs, args),
                          runProgram(r.program, inputs, args), 1e-6, &why))
      << why;
}

TEST(Budgets, AdversarialStrategiesStopAtTheBudget) {
  auto x = param("x", Type::array(Type::intType(), 16));
  ExprPtr p = map(fun([](ExprPtr a) { return a * a; })) << ExprPtr(x);
  std::vector<Value> xs;
  for (int i = 0; i < 16; ++i) xs.push_back(Value::ofInt(i));
  std::vector<Value> args{Value::array(xs)};
  expectBudgetHit(p, "repeat(splitJoin(2); joinSplit)", 50, {x}, args);
  expectBudgetHit(p, "repeat(topDown(splitJoin(2)); topDown(joinSplit))", 51, {x}, args);
  expectBudgetHit(p, "normalize(splitJoin(1))", 40, {x}, args);
  expectBudgetHit(p, "repeat(id)", 100, {x}, args);
  expectBudgetHit(p, "repeat(try(mapSeq))", 100, {x}, args);
  expectBudgetHit(p, "normalize(mapMapInterchange <+ splitJoin(2))", 30, {x}, args);
  ExprPtr two = map(fun([](ExprPtr a) { return -a; }))
                << map(fun([](ExprPtr a) { return -a; })) << ExprPtr(x);
  expectBudgetHit(two, "repeat(topDown(mapFusion); topDown(mapFission))", 60, {x}, args);
}

TEST(Budgets, ANormalStrategyDoesNotHitTheBudget) {
  Chain3 c;
  RewriteResult r = rewrite(c.e, lowerDefault());
  EXPECT_TRUE(r.success);
  EXPECT_FALSE(r.budgetHit);
  EXPECT_EQ(r.report().find("exhausted"), std::string::npos);
}

// ---- lowerDefault on random programs

// What the code generator relies on after lowerDefault.
void checkLowered(const ExprPtr& p) {
  forEachFun(p, [&](const FunDecl& f, const std::vector<const FunDecl*>& stack) {
    EXPECT_NE(f.kind(), FunKind::Reduce) << "a high-level reduce is left";
    if (f.kind() == FunKind::Map) {
      EXPECT_TRUE(ir::isView(f)) << "a computing high-level map is left";
    }
    if (f.kind() == FunKind::MapGlobal) {
      for (const FunDecl* s : stack) {
        EXPECT_TRUE(s->is<Lambda>() || s->is<AbstractTo>())
            << "a mapGlobal nested in " << s->name();
      }
      ASSERT_FALSE(stack.empty());
      EXPECT_EQ(stack.back()->kind(), FunKind::ToGlobal) << "a stage not written to global memory";
    }
  });
}

TEST(LowerDefault, RandomProgramsKeepTheirResultsAndAreFullyLowered) {
  std::mt19937_64 rng(99);
  int checked = 0;
  for (uint64_t seed = 0; checked < 200 && seed < 2000; ++seed) {
    ProgramGenerator gen(seed * 31 + 7, 3);
    auto prog = gen.generate();
    ExprPtr typed = inferTypes(prog.body);
    RewriteResult r = rewrite(typed, lowerDefault());
    ASSERT_FALSE(r.budgetHit) << r.report();
    checkLowered(r.program);
    std::vector<Value> args;
    for (const auto& in : prog.inputs) args.push_back(randomValue(in->type(), rng));
    Value before;
    try {
      before = runProgram(typed, prog.inputs, args);
    } catch (const InterpreterError&) {
      continue;
    }
    std::string why;
    ASSERT_TRUE(valuesClose(before, runProgram(r.program, prog.inputs, args), 1e-4, &why))
        << why << "\n"
        << print(typed, {false, 2}) << "\nlowered:\n"
        << print(r.program, {false, 2});
    ++checked;
  }
  EXPECT_GE(checked, 200);
}

// childCount counts what children() collects, at every position of random programs before
// and after lowering (the traversals walk by it; it no longer builds the list).
TEST(Strategies, ChildCountIsTheNumberOfChildren) {
  size_t positions = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    ProgramGenerator gen(seed * 31 + 7, 3);
    ExprPtr typed = inferTypes(gen.generate().body);
    for (const ExprPtr& root : {typed, rewrite(typed, lowerDefault()).program}) {
      for (const Path& p : allPaths(root)) {
        const ExprPtr e = exprAt(root, p);
        ASSERT_EQ(childCount(e), children(e).size()) << pathStr(p) << "\n" << print(root);
        ++positions;
      }
    }
  }
  EXPECT_GT(positions, 1000u);
}

TEST(LowerDefault, MemoryPlacement) {
  // map(row => reduce(add) o map(mult) o zip(row, v)) over a matrix: a stage in global memory,
  // the products fused into the dot product's loop (fuseScalarReduceMaps: no private array),
  // the dot product written out.
  auto m = param("M", Type::array(Type::array(Type::floatType(), 4), 3));
  auto v = param("v", Type::array(Type::floatType(), 4));
  ExprPtr mv =
      map(fun([&](ExprPtr row) { return reduce(add(), litF(0)) << map(mult()) << zip(row, v); }))
      << ExprPtr(m);
  RewriteResult r = rewrite(mv, lowerDefault());
  EXPECT_EQ(countKind(r.program, FunKind::MapGlobal), 1);
  EXPECT_EQ(countKind(r.program, FunKind::ToGlobal), 1);
  EXPECT_EQ(countKind(r.program, FunKind::ToPrivate), 0);
  EXPECT_EQ(countKind(r.program, FunKind::MapSeq), 0);
  EXPECT_EQ(countKind(r.program, FunKind::ReduceSeq), 1);
  // a program that only rearranges its input gets a copy stage
  auto x = param("x", Type::array(Type::array(Type::intType(), 2), 3));
  RewriteResult t = rewrite(transpose() << ExprPtr(x), lowerDefault());
  EXPECT_EQ(countKind(t.program, FunKind::MapGlobal), 1);
  EXPECT_EQ(countKind(t.program, FunKind::MapSeq), 1);
  checkLowered(t.program);
  // a mapGlobal whose function returns a view gets a sequential copy
  RewriteResult s = rewrite(
      map(fun([](ExprPtr row) { return (map(fun([](ExprPtr a) { return a * lit(2); })) << row); }))
          << transpose() << ExprPtr(x),
      lowerDefault());
  EXPECT_EQ(countKind(s.program, FunKind::MapSeq), 1);
}

}  // namespace
}  // namespace fftc::rewrites

namespace fftc::rewrites {
namespace {

using namespace ir;

// prepare = betaEta: a program wrapped in a redex over an input comes back unchanged (modulo
// Param names); over a computed argument the result still computes the same.
TEST(Prepare, BetaReducesRedexesAndKeepsResults) {
  std::mt19937_64 rng(5);
  int checked = 0;
  for (uint64_t seed = 0; checked < 100 && seed < 1000; ++seed) {
    testing::ProgramGenerator gen(seed * 7 + 3, 3);
    auto prog = gen.generate();
    if (prog.inputs.empty() || !prog.inputs[0]->type().isArray()) continue;
    const ParamPtr& in0 = prog.inputs[0];
    ParamPtr v = param("v");
    ExprPtr body = substitute(prog.body, {{in0.get(), v}});
    ExprPtr p = inferTypes(prog.body);
    ExprPtr redex = FunCall::make(lambda({v}, body), {in0});
    RewriteResult r = rewrite(redex, prepare());
    EXPECT_TRUE(alphaEqual(r.program, rewrite(p, tryStrategy(prepare())).program))
        << print(r.program, {false, 2});
    // a computed argument: inlined only where that duplicates no work
    auto inc = lambda1("a", [](const ExprPtr& a) { return a; });
    ExprPtr arg = FunCall::make(ir::Map::make(inc), {in0});
    RewriteResult q = rewrite(FunCall::make(lambda({v}, body), {arg}), prepare());
    std::vector<Value> args;
    for (const auto& in : prog.inputs) args.push_back(testing::randomValue(in->type(), rng));
    Value want;
    try {
      want = testing::runProgram(p, prog.inputs, args);
    } catch (const InterpreterError&) {
      continue;
    }
    std::string why;
    EXPECT_TRUE(
        testing::valuesClose(want, testing::runProgram(q.program, prog.inputs, args), 1e-6, &why))
        << why;
    ++checked;
  }
  EXPECT_GE(checked, 100);
}

TEST(Prepare, EtaExpandsPatternArgumentsOnce) {
  auto x = param("x", Type::array(Type::array(Type::array(Type::intType(), 2), 2), 3));
  ExprPtr p = map(map(map(neg()))) << map(transpose()) << map(transpose()) << ExprPtr(x);
  RewriteResult r = rewrite(p, prepare());
  ASSERT_TRUE(r.success);
  // every pattern argument of a map is now a lambda, so rules see the inner applications
  testing::forEachFun(r.program, [](const FunDecl& f, const auto&) {
    if (const auto* m = f.as<ir::Map>()) {
      EXPECT_TRUE(m->f()->is<Lambda>() || m->f()->is<Builtin>()) << m->f()->name();
    }
  });
  EXPECT_FALSE(rewrite(r.program, prepare()).success);  // idempotent: nothing left to do
  RewriteResult t = rewrite(r.program, parseStrategy("fuseMaps; topDown(transposeTransposeId)"));
  EXPECT_TRUE(t.success) << t.report();
}

TEST(LowerDefault, IterateAndScalarResults) {
  auto x = param("x", Type::array(Type::intType(), 8));
  ExprPtr it = iterate(3, map(fun([](ExprPtr a) { return a * lit(2); }))) << ExprPtr(x);
  RewriteResult r = rewrite(it, lowerDefault());
  EXPECT_EQ(testing::countKind(r.program, FunKind::MapGlobal), 1) << print(r.program);
  EXPECT_EQ(testing::countKind(r.program, FunKind::ToGlobal), 1);
  std::vector<Value> xs;
  for (int i = 0; i < 8; ++i) xs.push_back(Value::ofInt(i));
  EXPECT_EQ(testing::runProgram(r.program, {x}, {Value::array(xs)}),
            testing::runProgram(inferTypes(it), {x}, {Value::array(xs)}));
  // a scalar result over 8 elements: the map fuses into one top-level sequential reduction
  // (too small for splitTopReduce's two levels), one stage
  ExprPtr sum = reduce(add(), lit(0)) << map(fun([](ExprPtr a) { return a * a; })) << ExprPtr(x);
  RewriteResult s = rewrite(sum, lowerDefault());
  EXPECT_EQ(testing::countKind(s.program, FunKind::ReduceSeq), 1);
  EXPECT_EQ(testing::countKind(s.program, FunKind::MapGlobal), 0);
  EXPECT_EQ(testing::countKind(s.program, FunKind::ToGlobal), 1) << print(s.program);
  EXPECT_EQ(testing::runProgram(s.program, {x}, {Value::array(xs)}), Value::ofInt(140));
}

}  // namespace
}  // namespace fftc::rewrites

namespace fftc::rewrites {
namespace {

using namespace ir;
using testing::countKind;

// lowerGlobal inside a work-group: the outer map on mapLocal(0), a map inside it on
// mapLocal(1) (a tile's rows and each row's elements), anything deeper sequential; a written
// mapLocal(1) keeps its inner map on dimension 0 (the one-kernel FFT's rows and butterflies).
TEST(LowerGlobal, TwoLocalDimensionsInsideAWorkGroup) {
  auto x = param("x", Type::array(
                           Type::array(Type::array(Type::array(Type::floatType(), 2), 4), 4), 8));
  auto twice = fun([](ExprPtr a) { return a * litF(2); });
  // (functions as the front end gives them: eta-expanded, so that each map is a call)
  auto tile = fun([&](ExprPtr t) {
    return map(fun([&](ExprPtr row) {
             return map(fun([&](ExprPtr e) { return map(twice) << e; })) << row;
           })) << t;
  });
  RewriteResult r = rewrite(mapWorkgroup(0, tile) << ExprPtr(x), lowerGlobal());
  std::string text = print(r.program);
  EXPECT_EQ(countKind(r.program, FunKind::MapLocal), 2) << text;
  EXPECT_EQ(countKind(r.program, FunKind::MapSeq), 1) << text;
  EXPECT_LT(text.find("mapLocal(0"), text.find("mapLocal(1")) << text;
  auto rows = fun([&](ExprPtr t) {
    return mapLocal(1, fun([&](ExprPtr row) {
             return map(fun([&](ExprPtr e) { return map(twice) << e; })) << row;
           })) << t;
  });
  RewriteResult q = rewrite(mapWorkgroup(0, rows) << ExprPtr(x), lowerGlobal());
  std::string lowered = print(q.program);
  EXPECT_LT(lowered.find("mapLocal(1"), lowered.find("mapLocal(0")) << lowered;
  EXPECT_EQ(countKind(q.program, FunKind::MapSeq), 1) << lowered;
}

}  // namespace
}  // namespace fftc::rewrites
