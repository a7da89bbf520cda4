// The reference interpreter: every pattern against hand-computed values.
#include <gtest/gtest.h>

#include <cmath>

#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/interpreter.h"

namespace fftc::ir {
namespace {

const Type kInt = Type::intType();
const Type kFloat = Type::floatType();
const Type kDouble = Type::doubleType();

Value ints(std::vector<int64_t> v) {
  std::vector<Value> out;
  for (auto x : v) out.push_back(Value::ofInt(x));
  return Value::array(std::move(out));
}
Value ints2(std::vector<std::vector<int64_t>> v) {
  std::vector<Value> out;
  for (auto& r : v) out.push_back(ints(r));
  return Value::array(std::move(out));
}

// Evaluates body(x) for x: [int]n bound to `input`.
Value runInts(const std::vector<int64_t>& input, const std::function<ExprPtr(ExprPtr)>& body) {
  auto x = param("x", Type::array(kInt, static_cast<int64_t>(input.size())));
  LambdaPtr typed = inferTypes(lambda({x}, body(x)));
  return interpretCall(typed, {ints(input)});
}

Value eval(const ExprPtr& e, const InterpreterOptions& o = {}) {
  return interpret(inferTypes(e), {}, o);
}

TEST(Interpreter, MapReduceZip) {
  EXPECT_EQ(runInts({1, 2, 3}, [](ExprPtr x) { return map(neg()) << x; }), ints({-1, -2, -3}));
  EXPECT_EQ(runInts({1, 2, 3, 4}, [](ExprPtr x) { return reduce(add(), lit(10)) << x; }),
            Value::ofInt(20));
  // reduce is a left fold: ((10 - 1) - 2) - 3
  EXPECT_EQ(runInts({1, 2, 3}, [](ExprPtr x) { return reduce(sub(), lit(10)) << x; }),
            Value::ofInt(4));
  EXPECT_EQ(runInts({1, 2, 3}, [](ExprPtr x) { return map(mult()) << zip(x, x); }), ints({1, 4, 9}));
  Value z = runInts({1, 2}, [](ExprPtr x) { return zip({x, map(neg()) << x, x}); });
  EXPECT_EQ(z, Value::array({Value::tuple({Value::ofInt(1), Value::ofInt(-1), Value::ofInt(1)}),
                             Value::tuple({Value::ofInt(2), Value::ofInt(-2), Value::ofInt(2)})}));
}

TEST(Interpreter, SplitJoinTranspose) {
  EXPECT_EQ(runInts({1, 2, 3, 4, 5, 6}, [](ExprPtr x) { return split(2) << x; }),
            ints2({{1, 2}, {3, 4}, {5, 6}}));
  EXPECT_EQ(runInts({1, 2, 3, 4, 5, 6}, [](ExprPtr x) { return transpose() << split(3) << x; }),
            ints2({{1, 4}, {2, 5}, {3, 6}}));
  EXPECT_EQ(runInts({1, 2, 3, 4, 5, 6},
                    [](ExprPtr x) { return join() << transpose() << split(3) << x; }),
            ints({1, 4, 2, 5, 3, 6}));
}

TEST(Interpreter, PadEveryBoundary) {
  auto run = [](FunPtr p) { return runInts({1, 2, 3}, [&](ExprPtr x) { return p << x; }); };
  EXPECT_EQ(run(pad(2, 4, PadBoundary::Wrap)), ints({2, 3, 1, 2, 3, 1, 2, 3, 1}));
  EXPECT_EQ(run(pad(2, 4, PadBoundary::Clamp)), ints({1, 1, 1, 2, 3, 3, 3, 3, 3}));
  EXPECT_EQ(run(pad(2, 4, PadBoundary::Mirror)), ints({2, 1, 1, 2, 3, 3, 2, 1, 1}));
  EXPECT_EQ(run(pad(2, 4, lit(0))), ints({0, 0, 1, 2, 3, 0, 0, 0, 0}));
  // wider than the array: wrap and mirror keep folding
  EXPECT_EQ(run(pad(5, 0, PadBoundary::Wrap)), ints({2, 3, 1, 2, 3, 1, 2, 3}));
  // reading leftwards from x0: x0 x1 x2 | x2 x1 x0 | x0 ...
  EXPECT_EQ(run(pad(7, 0, PadBoundary::Mirror)), ints({1, 1, 2, 3, 3, 2, 1, 1, 2, 3}));
}

TEST(Interpreter, CropUndoesPad) {
  EXPECT_EQ(runInts({1, 2, 3, 4, 5, 6}, [](ExprPtr x) { return crop(1, 2) << x; }),
            ints({2, 3, 4}));
  EXPECT_EQ(runInts({1, 2, 3}, [](ExprPtr x) { return crop(0, 0) << x; }), ints({1, 2, 3}));
  EXPECT_EQ(runInts({1, 2, 3}, [](ExprPtr x) { return crop(3, 0) << x; }), ints({}));
  EXPECT_EQ(runInts({1, 2, 3},
                    [](ExprPtr x) { return crop(2, 4) << pad(2, 4, PadBoundary::Mirror) << x; }),
            ints({1, 2, 3}));
  // more than the array has: a type error
  auto x = param("x", Type::array(kInt, 3));
  EXPECT_THROW(inferTypes(lambda({x}, crop(2, 2) << x)), CompileError);
  EXPECT_THROW(crop(-1, 0), CompileError);
}

TEST(Interpreter, Slide) {
  EXPECT_EQ(runInts({1, 2, 3, 4, 5, 6, 7}, [](ExprPtr x) { return slide(3, 2) << x; }),
            ints2({{1, 2, 3}, {3, 4, 5}, {5, 6, 7}}));
  EXPECT_EQ(runInts({1, 2, 3, 4}, [](ExprPtr x) { return slide(2, 1) << x; }),
            ints2({{1, 2}, {2, 3}, {3, 4}}));
  // a 3-point stencil with clamped borders
  EXPECT_EQ(runInts({1, 2, 4}, [](ExprPtr x) {
              return map(reduce(add(), lit(0))) << slide(3, 1) << pad(1, 1, PadBoundary::Clamp) << x;
            }),
            ints({4, 7, 10}));
}

TEST(Interpreter, Iterate) {
  EXPECT_EQ(eval(iterate(3, fun([](ExprPtr v) { return v * lit(2); })) << lit(1)), Value::ofInt(8));
  FunPtr halve = map(reduce(add(), lit(0))) << split(2);
  EXPECT_EQ(runInts({1, 2, 3, 4, 5, 6, 7, 8}, [&](ExprPtr x) { return iterate(2, halve) << x; }),
            ints({10, 26}));
  EXPECT_EQ(runInts({5, 6}, [&](ExprPtr x) { return iterate(0, halve) << x; }), ints({5, 6}));
}

TEST(Interpreter, Generators) {
  EXPECT_EQ(eval(array(4, fun([](ExprPtr i, ExprPtr n) { return n - i; }))), ints({4, 3, 2, 1}));
  EXPECT_EQ(eval(array2(2, 3, fun([](ExprPtr i, ExprPtr j, ExprPtr, ExprPtr n1) { return i * n1 + j; }))),
            ints2({{0, 1, 2}, {3, 4, 5}}));
  Value v = eval(array3(2, 3, 4, fun([](ExprPtr i, ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr n1, ExprPtr n2) {
    return ((i * lit(100) + j * lit(10) + k) * lit(1000)) + n0 * lit(100) + n1 * lit(10) + n2;
  })));
  ASSERT_EQ(v.size(), 2u);
  ASSERT_EQ(v[1].size(), 3u);
  ASSERT_EQ(v[1][2].size(), 4u);
  EXPECT_EQ(v[1][2][3], Value::ofInt(123 * 1000 + 234));
  EXPECT_EQ(v[0][0][0], Value::ofInt(234));
}

TEST(Interpreter, TuplesAndDestructuring) {
  Value v = runInts({1, 2, 3}, [](ExprPtr x) {
    return map(fun([](ExprPtr a, ExprPtr b) { return a - b * lit(10); })) << zip(x, map(neg()) << x);
  });
  EXPECT_EQ(v, ints({11, 22, 33}));
  EXPECT_EQ(eval(get(1, tuple({lit(1), tuple({lit(2), lit(3)})}))),
            Value::tuple({Value::ofInt(2), Value::ofInt(3)}));
  EXPECT_EQ(eval(call(mult(), tuple({lit(6), lit(7)}))), Value::ofInt(42));
}

TEST(Interpreter, ComplexArithmetic) {
  auto c = [](double re, double im) { return litComplex(re, im); };
  auto cv = [](double re, double im) { return Value::ofComplex({re, im}, ScalarKind::Double); };
  EXPECT_EQ(eval(c(1, 2) * c(3, 4)), cv(-5, 10));
  EXPECT_EQ(eval(c(1, 2) + c(3, 4)), cv(4, 6));
  EXPECT_EQ(eval(c(1, 2) - c(3, 4)), cv(-2, -2));
  EXPECT_EQ(eval(c(-5, 10) / c(3, 4)), cv(1, 2));
  EXPECT_EQ(eval(lit(2.0) * c(3, 4)), cv(6, 8));
  EXPECT_EQ(eval(lit(2) * c(3, 4)), cv(6, 8));
  EXPECT_EQ(eval(c(3, 4) / lit(2.0)), cv(1.5, 2));
  EXPECT_EQ(eval(-c(3, 4)), cv(-3, -4));
  EXPECT_EQ(eval(conj(c(3, 4))), cv(3, -4));
  EXPECT_EQ(eval(re(c(3, 4))), Value::ofDouble(3));
  EXPECT_EQ(eval(im(c(3, 4))), Value::ofDouble(4));
  EXPECT_EQ(eval(get(1, c(3, 4))), Value::ofDouble(4));
  EXPECT_EQ(eval(complex(lit(1.0), lit(2.0))), cv(1, 2));
  EXPECT_EQ(eval(complex(lit(1), lit(2))), Value::ofComplex({1, 2}, ScalarKind::Float));
  EXPECT_EQ(eval(cispi(lit(0.5))), cv(0, 1));
  EXPECT_EQ(eval(cispi(lit(-1.0))), cv(-1, 0));
  EXPECT_EQ(eval(cispi(lit(3.0))), cv(-1, 0));
  auto near = eval(cispi(lit(0.25))).asComplex();
  EXPECT_NEAR(near.real(), std::sqrt(0.5), 1e-16);
  EXPECT_NEAR(near.imag(), std::sqrt(0.5), 1e-16);
  auto e = eval(exp(c(0, M_PI))).asComplex();
  EXPECT_NEAR(e.real(), -1, 1e-15);
  EXPECT_EQ(eval(map(mult()) << zip(array(2, fun([](ExprPtr i, ExprPtr) { return cispi(lit(0.5) * i); })),
                                     array(2, fun([](ExprPtr, ExprPtr) { return litComplex(0, 1); })))),
            Value::array({cv(0, 1), cv(-1, 0)}));
}

TEST(Interpreter, FloatRoundsLikeFloat) {
  // 1 + 1e-8 is 1 in float, not in double
  EXPECT_EQ(eval(litF(1) + litF(1e-8)), Value::ofFloat(1.0f));
  EXPECT_NE(eval(lit(1.0) + lit(1e-8)), Value::ofDouble(1.0));
  // ints meeting floats become float: 2^24 + 1 is not a float
  EXPECT_EQ(eval(lit(16777217) + litF(0)), Value::ofFloat(16777216.0f));
  EXPECT_EQ(eval(lit(16777217) + lit(0.0)), Value::ofDouble(16777217.0));
  // a float complex product rounds each operation to float
  float a = 1.1f, b = 2.3f, c = 3.7f, d = 0.9f;
  Value p = eval(litComplex(a, b, ScalarKind::Float) * litComplex(c, d, ScalarKind::Float));
  EXPECT_EQ(p.kind(), ValueKind::ComplexFloat);
  EXPECT_EQ(p.asComplex().real(), static_cast<double>(a * c - b * d));
  EXPECT_EQ(p.asComplex().imag(), static_cast<double>(a * d + b * c));
  // sum of 0.1f ten times is not 1 in float (1.0000001192092896)
  auto x = param("x", Type::array(kFloat, 10));
  LambdaPtr k = inferTypes(lambda({x}, reduce(add(), litF(0)) << x));
  std::vector<double> tenths(10, 0.1);
  Value s = interpretCall(k, {Value::realArray(tenths, ScalarKind::Float)});
  EXPECT_EQ(s, Value::ofFloat(1.0000001192092896f));
  auto y = param("y", Type::array(kDouble, 10));
  LambdaPtr kd = inferTypes(lambda({y}, reduce(add(), lit(0.0)) << y));
  EXPECT_EQ(interpretCall(kd, {Value::realArray(tenths, ScalarKind::Double)}),
            Value::ofDouble(0.9999999999999999));
}

TEST(Interpreter, IntegerDivisionFloors) {
  EXPECT_EQ(eval(lit(-7) / lit(2)), Value::ofInt(-4));
  EXPECT_EQ(eval(lit(-7) % lit(2)), Value::ofInt(1));
  EXPECT_EQ(eval(lit(7) % lit(-2)), Value::ofInt(-1));
  EXPECT_EQ(eval(lit(7) / lit(2)), Value::ofInt(3));
  // -2.0 * k / n is a real division
  EXPECT_EQ(eval(lit(-2.0) * lit(3) / lit(4)), Value::ofDouble(-1.5));
  EXPECT_EQ(eval(lit(-7.5) % lit(2.0)), Value::ofDouble(0.5));
  EXPECT_THROW(eval(lit(1) / lit(0)), InterpreterError);
}

TEST(Interpreter, SymbolicSizes) {
  ArithExpr n = ArithExpr::sizeVar("N");
  auto x = param("x", Type::array(kInt, 2 * n));
  LambdaPtr k = inferTypes(lambda({x}, map(fun([&](ExprPtr v) { return v + litSize(n); })) << x));
  // N is not a whole parameter size (2*N), so it must be bound explicitly
  EXPECT_THROW(interpretCall(k, {ints({1, 2})}), InterpreterError);
  InterpreterOptions o;
  o.sizes[n.varId()] = 1;
  EXPECT_EQ(interpretCall(k, {ints({1, 2})}, o), ints({2, 3}));
  o.sizes[n.varId()] = 2;
  EXPECT_THROW(interpretCall(k, {ints({1, 2})}, o), InterpreterError);  // 2*N = 4 != 2
  // a bare size variable is bound from the argument
  ArithExpr m = ArithExpr::sizeVar("M");
  auto y = param("y", Type::array(kInt, m));
  LambdaPtr k2 = inferTypes(lambda({y}, map(fun([&](ExprPtr v) { return v * litSize(m); })) << y));
  EXPECT_EQ(interpretCall(k2, {ints({1, 2, 3})}), ints({3, 6, 9}));
}

TEST(Interpreter, LowLevelPatternsMeanTheirHighLevelForms) {
  const std::vector<int64_t> in = {1, 2, 3, 4, 5, 6, 7, 8};
  auto sq = fun([](ExprPtr v) { return v * v; });
  Value hi = runInts(in, [&](ExprPtr x) { return map(map(sq)) << split(2) << x; });
  EXPECT_EQ(runInts(in, [&](ExprPtr x) { return mapGlobal(0, mapSeq(sq)) << split(2) << x; }), hi);
  EXPECT_EQ(runInts(in, [&](ExprPtr x) {
              return mapWorkgroup(0, toGlobal(mapLocal(0, sq))) << split(2) << x;
            }),
            hi);
  EXPECT_EQ(runInts(in, [&](ExprPtr x) { return toPrivate(mapSeqUnroll(toLocal(mapSeq(sq)))) << split(2) << x; }), hi);
  Value r = runInts(in, [&](ExprPtr x) { return map(reduce(add(), lit(0))) << split(4) << x; });
  EXPECT_EQ(runInts(in, [&](ExprPtr x) { return mapSeq(reduceSeq(add(), lit(0))) << split(4) << x; }), r);
  EXPECT_EQ(runInts(in, [&](ExprPtr x) { return mapSeq(reduceSeqUnroll(add(), lit(0))) << split(4) << x; }), r);
  EXPECT_EQ(r, ints({10, 26}));
}

TEST(Interpreter, UserFunctions) {
  auto f = userFun("axpy", {{"a", kFloat}, {"x", kFloat}}, kFloat, "return a * x + 1.0f;");
  auto x = param("x", Type::array(kFloat, 3));
  LambdaPtr k = inferTypes(lambda({x}, map(fun([&](ExprPtr v) { return call(f, litF(2), v); })) << x));
  std::vector<double> in = {1, 2, 3};
  EXPECT_THROW(interpretCall(k, {Value::realArray(in, ScalarKind::Float)}), InterpreterError);
  InterpreterOptions o;
  o.userFuns["axpy"] = [](const std::vector<Value>& a) {
    return Value::ofFloat(static_cast<float>(a[0].asReal() * a[1].asReal() + 1.0));
  };
  EXPECT_EQ(interpretCall(k, {Value::realArray(in, ScalarKind::Float)}, o),
            Value::realArray(std::vector<double>{3, 5, 7}, ScalarKind::Float));
}

TEST(Interpreter, BadInputsAreErrors) {
  auto x = param("x", Type::array(kInt, 3));
  LambdaPtr k = inferTypes(lambda({x}, map(neg()) << x));
  EXPECT_THROW(interpretCall(k, {ints({1, 2})}), InterpreterError);
  EXPECT_THROW(interpretCall(k, {Value::ofInt(1)}), InterpreterError);
  EXPECT_THROW(interpretCall(k, {Value::realArray(std::vector<double>{1, 2, 3}, ScalarKind::Float)}),
               InterpreterError);
  // untyped programs are refused
  EXPECT_THROW(interpret(map(neg()) << x, {{x.get(), ints({1, 2, 3})}}), InterpreterError);
}

TEST(Values, HostArraysRoundTrip) {
  std::vector<std::complex<double>> c = {{1, 2}, {3, 4}, {5, 6}, {7, 8}, {9, 10}, {11, 12}};
  Value v = Value::complexArray(c, ScalarKind::Double, {2, 3});
  ASSERT_EQ(v.size(), 2u);
  EXPECT_EQ(v[1][0], Value::ofComplex({7, 8}, ScalarKind::Double));
  EXPECT_EQ(v.toComplexVector(), c);
  Value f = Value::complexArray(std::vector<std::complex<double>>{{0.1, 0.2}}, ScalarKind::Float);
  EXPECT_EQ(f[0].asComplex().real(), static_cast<double>(0.1f));
  EXPECT_EQ(Value::realArray(std::vector<double>{1.5, 2.5}, ScalarKind::Double).toRealVector(),
            (std::vector<double>{1.5, 2.5}));
  EXPECT_EQ(Value::array({Value::tuple({Value::ofDouble(1), Value::ofDouble(2)})}).toComplexVector(),
            (std::vector<std::complex<double>>{{1, 2}}));
  EXPECT_THROW(ints({1}).toComplexVector(), InterpreterError);
}

}  // namespace
}  // namespace fftc::ir
