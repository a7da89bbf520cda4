// Substitution, use counting and beta reduction (ir/substitute.h, ir/beta_reduce.h), checked
// against the interpreter and against hand-counted uses.
#include <gtest/gtest.h>

#include "ir/beta_reduce.h"
#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/interpreter.h"
#include "ir/substitute.h"
#include "ir/traversal.h"

namespace fftc::ir {
namespace {

const Type kInt = Type::intType();

Value ints(std::vector<int64_t> v) {
  std::vector<Value> out;
  for (auto x : v) out.push_back(Value::ofInt(x));
  return Value::array(std::move(out));
}

// e evaluated with xs bound to `input` ([int]n).
Value run(const ParamPtr& xs, const ExprPtr& e, const std::vector<int64_t>& input) {
  LambdaPtr typed = inferTypes(lambda({xs}, e));
  return interpretCall(typed, {ints(input)});
}

TEST(Substitute, ReplacesParamsAndComputesTheSame) {
  auto xs = param("xs", Type::array(kInt, 4));
  auto k = param("k", kInt);
  // body(k) = map(fun v => v * k)(xs); k := 2 + 1 gives 3 * xs
  ExprPtr body = map(fun([&](ExprPtr v) { return v * k; }, {"v"})) << xs;
  ExprPtr s = substitute(body, {{k.get(), lit(2) + lit(1)}});
  EXPECT_NE(s, body);
  EXPECT_FALSE(uses(s, k.get()));
  EXPECT_TRUE(uses(s, xs.get()));
  EXPECT_EQ(run(xs, s, {1, 2, 3, 4}), ints({3, 6, 9, 12}));
  // a Param that does not occur: the same node
  EXPECT_EQ(substitute(body, {{param("absent").get(), lit(0)}}), body);
}

TEST(Substitute, ReachesReduceInitsAndPadConstants) {
  auto xs = param("xs", Type::array(kInt, 3));
  auto a = param("a", kInt);
  auto b = param("b", kInt);
  ExprPtr body = reduce(add(), a) << (pad(1, 2, b) << xs);
  ExprPtr s = substitute(body, {{a.get(), lit(100)}, {b.get(), lit(-1)}});
  // 100 + (-1) + 1 + 2 + 3 + (-1) + (-1)
  EXPECT_EQ(run(xs, s, {1, 2, 3}), Value::ofInt(103));
}

TEST(Substitute, ALambdaUsedTwiceIsCopiedWithFreshParams) {
  auto xs = param("xs", Type::array(kInt, 4));
  auto y = param("y", Type::array(kInt, 4));
  ExprPtr twice = zip(y, y);
  ExprPtr repl = map(fun([](ExprPtr v) { return v + lit(1); }, {"v"})) << xs;
  ExprPtr s = substitute(twice, {{y.get(), repl}});
  const auto* z = s->as<FunCall>();
  ASSERT_NE(z, nullptr);
  EXPECT_EQ(z->arg(0), repl);  // the first use is the replacement itself
  const auto* second = z->arg(1)->as<FunCall>();
  ASSERT_NE(second, nullptr);
  const auto* l0 = repl->as<FunCall>()->f()->as<Map>()->f()->as<Lambda>();
  const auto* l1 = second->f()->as<Map>()->f()->as<Lambda>();
  ASSERT_TRUE(l0 && l1);
  EXPECT_NE(l0->params()[0], l1->params()[0]);
  EXPECT_EQ(l0->params()[0]->name(), l1->params()[0]->name());
  Value v = run(xs, s, {1, 2, 3, 4});
  EXPECT_EQ(v, run(xs, zip(repl, repl), {1, 2, 3, 4}));
}

TEST(Freshen, NewParamsSameMeaning) {
  auto xs = param("xs", Type::array(kInt, 4));
  ExprPtr e = map(fun([](ExprPtr v) { return v * v; }, {"v"})) << xs;
  ExprPtr f = freshen(e);
  EXPECT_NE(f, e);
  EXPECT_NE(f->as<FunCall>()->f(), e->as<FunCall>()->f());
  EXPECT_EQ(f->as<FunCall>()->arg(0), xs);  // free Params stay
  EXPECT_EQ(run(xs, f, {1, 2, 3, 4}), ints({1, 4, 9, 16}));
  EXPECT_EQ(freshen(xs), xs);
}

// Uses of p, counted by hand: (expression, count (capped at 2), under a function).
TEST(CountUses, Table) {
  auto p = param("p", kInt);
  auto xs = param("xs", Type::array(kInt, 4));
  struct Row {
    const char* what;
    ExprPtr e;
    int count;
    bool under;
  };
  std::vector<Row> rows = {
      {"absent", lit(1) + lit(2), 0, false},
      {"once", p + lit(1), 1, false},
      {"twice", p * p, 2, false},
      {"capped", p + p + p, 2, false},
      {"in map's f", map(fun([&](ExprPtr v) { return v + p; })) << xs, 1, true},
      {"reduce's init: once per call", reduce(add(), p) << xs, 1, false},
      {"pad's constant", pad(0, 1, p) << xs, 1, false},
      {"an applied lambda's body", call(fun([&](ExprPtr v) { return v + p; }), lit(1)), 1, true},
      {"a generator's f", array(3, fun([&](ExprPtr i, ExprPtr) { return i + p; })), 1, true},
      {"an argument next to a map", zip(map(neg()) << xs, pad(0, 1, p) << xs), 1, false},
  };
  for (const auto& r : rows) {
    UseCount u = countUses(r.e, p.get());
    EXPECT_EQ(u.count, r.count) << r.what;
    EXPECT_EQ(u.underFunction, r.under) << r.what;
  }
  // a shared subtree counts once per reference
  ExprPtr shared = p + lit(1);
  EXPECT_EQ(countUses(shared * shared, p.get()).count, 2);
}

TEST(BetaReduce, ReducesWhereNoWorkIsDuplicated) {
  auto xs = param("xs", Type::array(kInt, 4));
  auto a = param("a", kInt);
  auto b = param("b", kInt);
  auto l = [](std::vector<ParamPtr> ps, ExprPtr body) { return lambda(std::move(ps), body); };
  auto x = param("x", kInt);
  ExprPtr expensive = reduce(add(), lit(0)) << xs;  // sum = 10 on {1, 2, 3, 4}
  // cheap arguments (a literal, a view of a Param) always
  auto twice = l({x}, x + x);
  auto r1 = betaReduce(*twice, {lit(3)});
  ASSERT_TRUE(r1);
  EXPECT_EQ(run(xs, *r1, {1, 2, 3, 4}), Value::ofInt(6));
  // an expensive argument used twice: kept
  EXPECT_FALSE(betaReduce(*twice, {expensive}));
  // ... used once, outside any function: reduced
  auto once = l({x}, x + lit(1));
  auto r2 = betaReduce(*once, {expensive});
  ASSERT_TRUE(r2);
  EXPECT_EQ(run(xs, *r2, {1, 2, 3, 4}), Value::ofInt(11));
  // ... used once in map's f (once per element): kept
  auto inMap = l({x}, map(fun([&](ExprPtr v) { return v * x; })) << xs);
  EXPECT_FALSE(betaReduce(*inMap, {expensive}));
  // ... used once as reduce's init (once per call): reduced
  auto inInit = l({x}, reduce(add(), x) << xs);
  auto r3 = betaReduce(*inInit, {expensive});
  ASSERT_TRUE(r3);
  EXPECT_EQ(run(xs, *r3, {1, 2, 3, 4}), Value::ofInt(20));
  // a two-parameter lambda applied to one tuple binds its components
  auto diff = l({a, b}, a - b);
  auto r4 = betaReduce(*diff, {tuple({lit(3), lit(5)})});
  ASSERT_TRUE(r4);
  EXPECT_EQ(run(xs, *r4, {1, 2, 3, 4}), Value::ofInt(-2));
  // the wrong number of arguments: kept
  EXPECT_FALSE(betaReduce(*diff, {lit(1), lit(2), lit(3)}));
  // applyFun: the reduced body, or the call
  EXPECT_EQ(run(xs, applyFun(twice, {expensive}), {1, 2, 3, 4}), Value::ofInt(20));
  EXPECT_TRUE(applyFun(twice, {expensive})->as<FunCall>()->f() == twice);
}

TEST(BetaEta, EtaExpandsPatternChildrenAndKeepsResults) {
  auto xs = param("xs", Type::array(Type::array(kInt, 2), 3));
  ExprPtr e = map(map(neg())) << xs;
  ExprPtr n = betaEta(e);
  ASSERT_NE(n, e);
  const auto* outer = n->as<FunCall>()->f()->as<Map>();
  ASSERT_NE(outer, nullptr);
  EXPECT_TRUE(outer->f()->is<Lambda>());  // map(fun x => map(neg)(x))
  EXPECT_EQ(betaEta(n), n);               // idempotent: the same node
  auto in = Value::array({ints({1, 2}), ints({3, 4}), ints({5, 6})});
  auto want = Value::array({ints({-1, -2}), ints({-3, -4}), ints({-5, -6})});
  EXPECT_EQ(interpretCall(inferTypes(lambda({xs}, n)), {in}), want);
  // an applied lambda over a Param is reduced away
  auto y = param("y");
  ExprPtr redex = call(lambda({y}, map(map(neg())) << y), xs);
  ExprPtr r = betaEta(redex);
  EXPECT_TRUE(r->as<FunCall>()->f()->is<Map>());
  EXPECT_EQ(r->as<FunCall>()->arg(0), xs);
  EXPECT_EQ(interpretCall(inferTypes(lambda({xs}, r)), {in}), want);
}

}  // namespace
}  // namespace fftc::ir
