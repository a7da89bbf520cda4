// Smoke tests of ArithExpr basics: constants, hash-consing, printing of simple forms.
#include <gtest/gtest.h>

#include "ir/arith/arith_expr.h"

namespace fftc::ir {
namespace {

TEST(ArithSmoke, Listing4) {
  ArithExpr id = ArithExpr::loopVar("id", ArithExpr(int64_t{1} << 23));
  ArithExpr k = ArithExpr::loopVar("k", 2);
  EXPECT_EQ((id / 2048) * 2048 + id % 2048, id) << ((id / 2048) * 2048 + id % 2048).str();
  EXPECT_EQ((2 * (id % 2048) + k) / 2, id % 2048) << ((2 * (id % 2048) + k) / 2).str();
  ArithExpr e = (id / 2048 + 4096 * k + 8192 * (id % 2048)) / 4096;
  EXPECT_EQ(e, k + 2 * (id % 2048)) << e.str();
  EXPECT_LT(*e.constUpperBound(), 4096);
}

TEST(ArithSmoke, Symbolic) {
  ArithExpr M = ArithExpr::sizeVar("M");
  ArithExpr j = ArithExpr::unboundedVar("j");
  ArithExpr i = ArithExpr::loopVar("i", M + 2);
  ArithExpr e = (M * j + 2 * j + i) / (M + 2);
  EXPECT_EQ(e, j) << e.str();
  ArithExpr f = (M * j + 2 * j + i) % (M + 2);
  EXPECT_EQ(f, i) << f.str();
  ArithExpr N = ArithExpr::sizeVar("N");
  ArithExpr n = ArithExpr::loopVar("n", N);
  EXPECT_EQ(n % N, n);
  EXPECT_EQ(n / N, ArithExpr(0));
  EXPECT_TRUE(provablyLess(n, N));
  EXPECT_EQ((N - n).lowerBound(), ArithExpr(1)) << (N - n).lowerBound().str();
  EXPECT_EQ(n.upperBound(), N - 1) << n.upperBound().str();
}

}  // namespace
}  // namespace fftc::ir
