// The ArithExpr API around the simplifier: hash-consing, errors, evaluation, substitution,
// bounds and proofs, budgets, and "no change returns the same node".
#include <gtest/gtest.h>

#include <thread>

#include "ir/arith/arith_expr.h"

namespace fftc::ir {
namespace {

using E = ArithExpr;

TEST(ArithApi, HashConsingAndIdentity) {
  E x = E::unboundedVar("x"), y = E::unboundedVar("y");
  EXPECT_EQ(x + y, y + x);
  EXPECT_EQ((x + y).hash(), (y + x).hash());
  EXPECT_EQ(x * 3 + 1, 1 + 3 * x);
  EXPECT_EQ(E(), E(0));
  EXPECT_EQ(E(5).constant(), 5);
  E x2 = E::unboundedVar("x");
  EXPECT_NE(x, x2);  // each call makes a new variable; names only print
  EXPECT_NE(x.varId(), x2.varId());
  EXPECT_EQ(x.varName(), "x");
  EXPECT_THROW((void)E(3).varId(), ArithError);
  std::unordered_map<E, int> m;
  m[x + 1] = 7;
  EXPECT_EQ(m.at(1 + x), 7);
}

TEST(ArithApi, Errors) {
  E x = E::unboundedVar("x"), y = E::unboundedVar("y");
  EXPECT_THROW(x / 0, ArithError);
  EXPECT_THROW(x % 0, ArithError);
  EXPECT_THROW(x / (y - y), ArithError);  // the divisor simplifies to the constant 0
  try {
    (void)(x / 0);
  } catch (const ArithError& e) {
    EXPECT_NE(std::string(e.what()).find("division by zero"), std::string::npos) << e.what();
  }
  EXPECT_THROW(E(INT64_MAX) + 1, ArithError);
  EXPECT_THROW(E(INT64_MIN) / -1, ArithError);
  EXPECT_THROW(E(int64_t{1} << 62) * 4, ArithError);
  EXPECT_THROW(x.evaluate({}), ArithError);  // unbound
  EXPECT_THROW((x / y).evaluate({{x.varId(), 1}, {y.varId(), 0}}), ArithError);
  EXPECT_THROW((x * x).evaluate({{x.varId(), int64_t{1} << 40}}), ArithError);  // overflow
  EXPECT_THROW(x + E::posInf(), ArithError);
}

TEST(ArithApi, EvaluateFloorSemantics) {
  E x = E::unboundedVar("x"), y = E::unboundedVar("y");
  auto at = [&](E e, int64_t a, int64_t b) { return e.evaluate({{x.varId(), a}, {y.varId(), b}}); };
  EXPECT_EQ(at(x / y, 7, 2), 3);
  EXPECT_EQ(at(x / y, -7, 2), -4);
  EXPECT_EQ(at(x % y, -7, 2), 1);
  EXPECT_EQ(at(x % y, 7, -2), -1);
  EXPECT_EQ(at(min(x, y) + max(x, y), 3, 9), 12);
}

TEST(ArithApi, SubstituteResimplifiesAndKeepsIdentity) {
  E N = E::sizeVar("N");
  E i = E::loopVar("i", N), j = E::unboundedVar("j");
  E e = (N * j + i) / 8;
  EXPECT_EQ(e.substitute({}), e);                       // no change: same node
  EXPECT_EQ(e.substitute({{12345, E(1)}}), e);          // unknown id: same node
  // Ranges are part of the variables: i still ranges over [0, N) after N := 8 in e.
  EXPECT_EQ(e.substitute({{N.varId(), E(8)}}), j + i / 8);
  E i8 = E::loopVar("i8", 8);
  EXPECT_EQ(((N * j + i8) / N).substitute({{N.varId(), E(8)}}), j);
  EXPECT_EQ((i + 1).substitute({{i.varId(), N - 1}}), N);
  EXPECT_EQ(simplify(e), e);
  bool converged = false;
  EXPECT_EQ(simplify(e, &converged), e);
  EXPECT_TRUE(converged);
  auto fv = e.freeVars();
  ASSERT_EQ(fv.size(), 3u);
  EXPECT_EQ(fv[0], N);
  EXPECT_TRUE(e.dependsOn(i));
  EXPECT_FALSE(e.dependsOn(E::unboundedVar("z")));
}

TEST(ArithApi, BoundsAndProofs) {
  E N = E::sizeVar("N"), M = E::sizeVar("M");
  E i = E::loopVar("i", N), n = E::loopVar("n", 2 * N), j = E::loopVar("j", M + 2);
  E x = E::unboundedVar("x");
  EXPECT_EQ(i.lowerBound(), E(0));
  EXPECT_EQ(i.upperBound(), N - 1);
  EXPECT_EQ(N.lowerBound(), E(1));
  EXPECT_EQ(N.upperBound(), N);  // no finite bound: the variable bounds itself
  EXPECT_EQ((N - i).lowerBound(), E(1));
  EXPECT_EQ((N - i).upperBound(), N);
  EXPECT_EQ((j % (M + 2)).upperBound(), M + 1);
  EXPECT_EQ((x % 8).constUpperBound(), 7);
  EXPECT_EQ((x % 8).constLowerBound(), 0);
  EXPECT_FALSE(x.constLowerBound().has_value());
  EXPECT_TRUE(x.lowerBound() == x || x.lowerBound().isInfinite());
  EXPECT_TRUE(provablyLess(i, N));
  EXPECT_TRUE(provablyLessEq(i, N - 1));
  EXPECT_FALSE(provablyLess(i, N - 1));
  EXPECT_FALSE(provablyLess(n, N));
  EXPECT_TRUE(provablyLess(n, 2 * N));
  EXPECT_TRUE(provablyLess(M * N + 2 * N - 1, (M + 2) * N));
  EXPECT_TRUE(provablyNonNegative(N - i - 1));
  EXPECT_FALSE(provablyNonNegative(x));
  EXPECT_TRUE(provablyPositive(N));
  E lid = E::loopVar("lid", 2);
  EXPECT_TRUE(provablyLess(1 + 2 * lid, 4));  // LIFT Regressions.expr15
  EXPECT_TRUE(provablyDivisible(M * j, M));
  EXPECT_TRUE(provablyDivisible(8 * x + 4, 4));
  EXPECT_FALSE(provablyDivisible(8 * x + 2, 4));
  EXPECT_TRUE(provablyDivisible(2 * j + M * j, M + 2));
  EXPECT_FALSE(provablyDivisible(x, M));
  EXPECT_EQ((8 * x + 4).knownFactor(), 4);
  // Listing 4: the quotient stays below 4096.
  E id = E::loopVar("id", E(int64_t{1} << 23)), k = E::loopVar("k", 2);
  E q = (id / 2048 + 4096 * k + 8192 * (id % 2048)) / 4096;
  ASSERT_TRUE(q.constUpperBound().has_value());
  EXPECT_LT(*q.constUpperBound(), 4096);
  EXPECT_TRUE(provablyLess(q, 4096));
}

TEST(ArithApi, BudgetsStopWithoutLooping) {
  ArithBudget saved = arithBudget();
  arithBudget().maxSteps = 3;
  uint64_t hits = arithStats().budgetHits;
  E N = E::sizeVar("N"), M = E::sizeVar("M");
  E j = E::loopVar("j", N), i = E::loopVar("i", M + 2);
  E e = (M * j + 2 * j + i) / (M + 2);  // needs more than 3 rule attempts
  EXPECT_GT(arithStats().budgetHits, hits);
  bool converged = true;
  arithBudget() = saved;
  E again = simplify(e, &converged);
  EXPECT_TRUE(converged);
  EXPECT_EQ(again, j);  // with the budget back, the expression simplifies
  // Simplifying with an exhausted budget must say so.
  arithBudget().maxDepth = 1;
  converged = true;
  (void)simplify((M * j + 2 * j + i) / (M + 2) + 1, &converged);
  EXPECT_FALSE(converged);
  arithBudget() = saved;
  // A deep expression neither overflows the stack nor loops.
  E x = E::unboundedVar("x");
  E deep = x;
  for (int d = 0; d < 2000; ++d) deep = (deep + d) / 2 + x % 3;
  EXPECT_GT(deep.nodeCount(), 1u);
}

TEST(ArithApi, ThreadsShareTheTable) {
  std::vector<std::thread> ts;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([t, &ok] {
      E x = E::unboundedVar("x");
      bool good = true;
      for (int r = 0; r < 2000; ++r) good = good && ((x / 4) * 4 + x % 4 + r == x + r);
      ok[static_cast<size_t>(t)] = good;
    });
  }
  for (auto& th : ts) th.join();
  for (int v : ok) EXPECT_TRUE(v);
}

}  // namespace
}  // namespace fftc::ir
