// Golden rows of the printers: str() for people, toC() for kernels (which must use C's / and
// % only where they agree with floor semantics, and shifts/masks for powers of two).
#include <gtest/gtest.h>

#include <algorithm>

#include "ir/arith/arith_expr.h"

namespace fftc::ir {
namespace {

using E = ArithExpr;

struct PrintVars {
  E x = E::unboundedVar("x"), y = E::unboundedVar("y");
  E N = E::sizeVar("N"), M = E::sizeVar("M");
  E i = E::loopVar("i", 64);
  E n = E::loopVar("n", 2 * N);
  E l = E::loopVar("l", N);
  E id = E::loopVar("id", E(int64_t{1} << 23));
  E k = E::loopVar("k", 2);
  E big = E::loopVar("big", E(int64_t{1} << 40));
};

TEST(ArithPrint, CGoldenRows) {
  PrintVars v;
  struct Golden {
    E e;
    const char* c;
  } rows[] = {
      {v.i / 4, "(i >> 2)"},
      {v.i % 8, "(i & 7)"},
      {v.i % 6, "(i % 6)"},
      {v.i / 6, "(i / 6)"},
      {v.x % 8, "fftc_floormod(x, 8)"},
      {v.x / 8, "fftc_floordiv(x, 8)"},
      {v.n / v.N, "(n / N)"},
      {v.n % v.N, "(n % N)"},
      {v.x / v.N, "fftc_floordiv(x, N)"},
      {v.x / v.y, "fftc_floordiv(x, y)"},
      {(v.n + 3) / 4, "((n + 3) >> 2)"},
      {(v.x + 3) / 4, "fftc_floordiv(x + 3, 4)"},
      {v.N - v.l - 1, "N - l - 1"},
      {2 * v.i + 3, "2 * i + 3"},
      {5 - v.i, "-i + 5"},
      {-v.x, "-x"},
      {min(v.i, v.M), "min(M, i)"}  /* operands in canonical order */,
      {max(v.x, v.y), "max(x, y)"},
      {v.k + 2 * (v.id % 2048), "k + 2 * (id & 2047)"},
      {(v.id / 2048 + 4096 * v.k + 8192 * (v.id % 2048)) % 4096, "(id >> 11)"},
      {v.x * v.y, "x * y"},
      {v.x / (v.N * v.M), "fftc_floordiv(x, N * M)"},
      {v.n / (v.N * v.M), "(n / (N * M))"},
      {(v.x - v.y) * 3, "3 * x - 3 * y"},
      {(v.x + 1) * (v.y + 1), "x + y + x * y + 1"},
      // Beyond int32: 64-bit helpers, variables cast to long, wide constants suffixed.
      {v.id * 4096, "4096 * ((long)id)"},
      {v.big % 8, "(((long)big) & 7)"},
      {(v.big - 5) / 3, "((((long)big) + 1) / 3) - 2"},
      {(v.big - v.x) / 3, "fftc_floordiv64(-((long)x) + ((long)big), 3)"},
      {E(int64_t{1} << 40), "1099511627776L"},
  };
  for (const Golden& g : rows) EXPECT_EQ(g.e.toC(), g.c) << "str: " << g.e.str();
}

// cHelpers() names exactly the helper functions toC() calls, so code generation records them
// on the kernel AST without reading printed text.
TEST(ArithPrint, CHelpersAreTheCallsOfToC) {
  PrintVars v;
  using L = std::vector<std::string>;
  EXPECT_EQ((v.i / 4).cHelpers(), L{});
  EXPECT_EQ((v.n / (v.N * v.M)).cHelpers(), L{});
  L both = (v.x / 8 + v.y % 3).cHelpers();
  std::sort(both.begin(), both.end());
  EXPECT_EQ(both, (L{"fftc_floordiv", "fftc_floormod"}));
  EXPECT_EQ(((v.big - v.x) / 3).cHelpers(), L{"fftc_floordiv64"});
  for (const E& e : {v.x / 8 + v.y % 3, (v.big - v.x) / 3, v.x % v.N})
    for (const auto& h : e.cHelpers())
      EXPECT_NE(e.toC().find(h + "("), std::string::npos) << h << " in " << e.toC();
}

TEST(ArithPrint, CAvoidsModWhereSimplifiedAway) {
  PrintVars v;
  std::string s = ((v.id / 2048) * 2048 + v.id % 2048).toC();
  EXPECT_EQ(s, "id");
  EXPECT_EQ(s.find('%'), std::string::npos);
  EXPECT_EQ(((2 * (v.id % 2048) + v.k) / 2).toC(), "(id & 2047)");
}

TEST(ArithPrint, StrGoldenRows) {
  PrintVars v;
  EXPECT_EQ((v.id / 2048 + 4096 * v.k).str(), "4096 * k + (id / 2048)");
  EXPECT_EQ((v.x % 8).str(), "(x % 8)");
  EXPECT_EQ(((v.x + 1) / 4).str(), "((x + 1) / 4)");
  EXPECT_EQ((v.x / (v.N + 2)).str(), "(x / (N + 2))");
  EXPECT_EQ((v.x - 1).str(), "x - 1");
  EXPECT_EQ(E(-5).str(), "-5");
  EXPECT_EQ(E::posInf().str(), "+inf");
  EXPECT_EQ(v.i.upperBound().str(), "63");
  EXPECT_EQ(v.l.upperBound().str(), "N - 1");
}

TEST(ArithPrint, FitsInt32) {
  PrintVars v;
  EXPECT_TRUE((v.id * 2).fitsInt32());
  EXPECT_FALSE((v.id * 4096).fitsInt32());
  EXPECT_TRUE(v.x.fitsInt32());  // unknown bounds: the variable is an int in the kernel
  EXPECT_FALSE(E(int64_t{1} << 31).fitsInt32());
  EXPECT_THROW(E::posInf().toC(), ArithError);
}

}  // namespace
}  // namespace fftc::ir
