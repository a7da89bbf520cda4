// The IR printer: readable, close to the language, with types.
#include "ir/printer.h"

#include <gtest/gtest.h>

#include "ir/builders.h"
#include "ir/infer.h"

namespace fftc::ir {
namespace {

TEST(Printer, UntypedProgramReadsLikeTheLanguage) {
  auto v = param("v", Type::array(Type::floatType(), 8));
  ExprPtr e = join() << transpose() << split(4) << v;
  PrintOptions o;
  o.types = false;
  EXPECT_EQ(print(e, o), "join <<: transpose <<: split(4) <<: v");
  EXPECT_EQ(print(reduce(add(), litF(0)), o), "reduce(add, 0.0f)");
  EXPECT_EQ(print(mapGlobal(1, mapSeq(neg())), o), "mapGlobal(1, mapSeq(neg))");
  EXPECT_EQ(print(pad(1, 2, PadBoundary::Mirror), o), "pad(1, 2, mirror)");
  EXPECT_EQ(print(lit(-2.0) * param("k") / param("n"), o), "((-2.0 * k) / n)");
  EXPECT_EQ(print(get(0, tuple({lit(1), litComplex(0, 1, ScalarKind::Float)})), o),
            "{1, {0.0f, 1.0f}}._0");
}

TEST(Printer, TypedProgramShowsTypes) {
  auto v = param("v", Type::array(Type::floatType(), 8));
  ExprPtr e = inferTypes(join() << map(map(fun([](ExprPtr x) { return x * x; }, {"x"}))) << split(4) << v);
  std::string s = print(e);
  EXPECT_NE(s.find("fun (x: float) => (x * x)"), std::string::npos) << s;
  EXPECT_NE(s.find("<<: split(4)  // : [[float]4]2"), std::string::npos) << s;
  EXPECT_NE(s.find("// : [float]8"), std::string::npos) << s;
}

TEST(Printer, DistinctParamsWithOneNameAreDisambiguated) {
  auto a = param("x"), b = param("x");
  PrintOptions o;
  o.types = false;
  EXPECT_EQ(print(lambda({a, b}, a + b), o), "fun (x, x_1) => (x + x_1)");
  EXPECT_EQ(print(call(lambda({a}, a), lit(1)), o), "(fun x => x) <<: 1");
}

}  // namespace
}  // namespace fftc::ir
