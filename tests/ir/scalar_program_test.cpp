// The bulk evaluation of generators (ir/scalar_program.h): a compiled element function gives
// the interpreter's bits element by element, in float and double, for twiddle, chirp and
// sin/cos formulas; what it cannot compile is declined; the cispi memo is cispi.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <limits>

#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/interp_scalar.h"
#include "ir/interpreter.h"
#include "ir/scalar_program.h"

namespace fftc::ir {
namespace {

const Type kInt = Type::intType();

// Same kind and the same bits (Value's == takes +0 and -0 as equal).
::testing::AssertionResult sameBits(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return ::testing::AssertionFailure() << a << " vs " << b;
  if (a.kind() == ValueKind::Int) {
    if (a.asInt() == b.asInt()) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << a << " vs " << b;
  }
  const auto x = a.asComplex(), y = b.asComplex();
  if (std::bit_cast<uint64_t>(x.real()) == std::bit_cast<uint64_t>(y.real()) &&
      std::bit_cast<uint64_t>(x.imag()) == std::bit_cast<uint64_t>(y.imag()))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << a << " vs " << b;
}

// A typed element function of (j, k, n0, n1).
LambdaPtr element(const std::function<ExprPtr(ExprPtr, ExprPtr, ExprPtr, ExprPtr)>& body) {
  auto j = param("j", kInt), k = param("k", kInt), n0 = param("n0", kInt), n1 = param("n1", kInt);
  return inferTypes(lambda({j, k, n0, n1}, body(j, k, n0, n1)));
}

// Every element of a 7 x 12 grid: the compiled program against interpreting the lambda.
void expectSameAsInterpreter(const LambdaPtr& f) {
  auto program = ScalarProgram::compile(*f, 4);
  ASSERT_TRUE(program.has_value());
  interp::CisPiMemo memo;
  ScalarEvaluator fast(*program, memo);
  const int64_t n0 = 7, n1 = 12;
  for (int64_t j = 0; j < n0; ++j)
    for (int64_t k = 0; k < n1; ++k) {
      const std::vector<int64_t> args{j, k, n0, n1};
      Value slow = interpretCall(
          f, {Value::ofInt(j), Value::ofInt(k), Value::ofInt(n0), Value::ofInt(n1)});
      EXPECT_TRUE(sameBits(fast.run(args), slow)) << "at (" << j << ", " << k << ")";
    }
}

TEST(ScalarProgram, TwiddlesFloatAndDouble) {
  // omega(s, j·k, n0·n1) = cispi(s · 2.0 · ((j·k) mod n) / n), as common.fdl writes it
  for (ScalarKind p : {ScalarKind::Float, ScalarKind::Double})
    expectSameAsInterpreter(element([&](ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr n1) {
      ExprPtr n = n0 * n1;
      return cispi(lit(-1) * lit(2.0, p) * ((j * k) % n) / n);
    }));
}

TEST(ScalarProgram, ChirpWithLetAndScale) {
  // conj(chirp) · (1 / m), the chirp's square through an applied lambda (a let)
  for (ScalarKind p : {ScalarKind::Float, ScalarKind::Double})
    expectSameAsInterpreter(element([&](ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr n1) {
      auto t = param("t", kInt);
      ExprPtr sq = call(lambda({t}, t * t), j * n1 + k);
      ExprPtr c = conj(cispi(lit(1.0, p) * (sq % (lit(2) * n0)) / n0));
      return c * (lit(1.0, p) / (n0 * n1));
    }));
}

TEST(ScalarProgram, SinCosAndComplexArithmetic) {
  for (ScalarKind p : {ScalarKind::Float, ScalarKind::Double}) {
    expectSameAsInterpreter(element([&](ExprPtr j, ExprPtr k, ExprPtr, ExprPtr n1) {
      ExprPtr x = lit(0.1, p) * (j - k) / n1;
      return cos(x) * sin(x + lit(0.25, p)) - sqrt(lit(2.0, p) + x * x);
    }));
    expectSameAsInterpreter(element([&](ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr) {
      ExprPtr z = complex(lit(0.5, p) * j, lit(-1.5, p) + k);
      return z * litComplex(0.3, -0.7, p) / (z + litComplex(1.0, 1.0, p)) - cispi(lit(1.0, p) / n0);
    }));
  }
}

TEST(ScalarProgram, DeclinesWhatItCannotCompile) {
  auto j = param("j", kInt), k = param("k", kInt), free = param("free", kInt);
  // a parameter bound outside the function
  auto outer = lambda({free}, call(lambda({j, k}, cispi(lit(1.0) * (j + free) / k)), lit(1), lit(2)));
  LambdaPtr typedOuter = inferTypes(outer);
  const auto* inner = typedOuter->body()->as<FunCall>()->f().get();
  ASSERT_TRUE(typedOuter->body()->type());
  EXPECT_FALSE(ScalarProgram::compile(*inner, 2).has_value());
  // a tuple, and a wrong number of arguments
  auto a = param("a", kInt), b = param("b", kInt);
  auto pair = inferTypes(lambda({a, b}, tuple({a, b})));
  EXPECT_FALSE(ScalarProgram::compile(*pair, 2).has_value());
  auto sum = inferTypes(lambda({a, b}, a + b));
  EXPECT_FALSE(ScalarProgram::compile(*sum, 3).has_value());
  auto program = ScalarProgram::compile(*sum, 2);
  ASSERT_TRUE(program.has_value());
  interp::CisPiMemo memo;
  EXPECT_EQ(ScalarEvaluator(*program, memo).run(std::vector<int64_t>{40, 2}), Value::ofInt(42));
}

TEST(ScalarProgram, GeneratorsInterpretAsTheirElements) {
  // array2 through the interpreter (compiled, and read twice: computed once) against the
  // element function applied to each index
  LambdaPtr typed = element([](ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr n1) {
    return cispi(lit(-2.0, ScalarKind::Float) * ((j * k) % (n0 * n1)) / (n0 * n1));
  });
  ExprPtr gen = array2(5, 6, typed);
  Value v = interpret(inferTypes(zip(gen, gen)), {});
  ASSERT_EQ(v.size(), 5u);
  for (int64_t j = 0; j < 5; ++j)
    for (int64_t k = 0; k < 6; ++k) {
      Value e = interpretCall(typed, {Value::ofInt(j), Value::ofInt(k), Value::ofInt(5),
                                      Value::ofInt(6)});
      const Value& pair = v[static_cast<size_t>(j)];
      EXPECT_TRUE(sameBits(pair[0][static_cast<size_t>(k)], e));
      EXPECT_TRUE(sameBits(pair[1][static_cast<size_t>(k)], e));
    }
}

TEST(ScalarProgram, CisPiMemoIsCisPi) {
  interp::CisPiMemo memo;
  // more distinct angles than the first table holds, each asked twice
  for (int round = 0; round < 2; ++round)
    for (int i = -3000; i < 3000; ++i) {
      const double x = i / 1024.0 + i * 1e-7;
      const std::complex<double> a = memo(x).d, b = cisPi(x);
      ASSERT_EQ(std::bit_cast<uint64_t>(a.real()), std::bit_cast<uint64_t>(b.real())) << x;
      ASSERT_EQ(std::bit_cast<uint64_t>(a.imag()), std::bit_cast<uint64_t>(b.imag())) << x;
      const std::complex<float> f = memo(x).f, g = cisPiRounded(x).f;
      ASSERT_EQ(std::bit_cast<uint32_t>(f.real()), std::bit_cast<uint32_t>(g.real())) << x;
      ASSERT_EQ(std::bit_cast<uint32_t>(f.imag()), std::bit_cast<uint32_t>(g.imag())) << x;
      const int64_t q = 1000 + i % 7, p = 3 * i;  // and ratios, each asked twice
      ASSERT_EQ(memo.ratio(p, q).d, cisPiRatio(p, q).d) << p << "/" << q;
      ASSERT_EQ(memo.ratio(p, q).f, cisPiRatio(p, q).f) << p << "/" << q;
    }
  EXPECT_EQ(memo(0.5).d, std::complex<double>(0.0, 1.0));
}

// The memo keeps cisPiRatio's first-quadrant values and turns them: every quadrant, the signs of
// p and q, exact quarter turns (whose zeros must be +0 as cisPiRatio's), denominators that fit
// the dense arrays and one past their budget (the hash table), bit for bit in both precisions.
TEST(ScalarProgram, CisPiMemoRatioIsCisPiRatioBitForBit) {
  auto same = [](const CisPiRounded& a, const CisPiRounded& b) {
    return std::bit_cast<uint64_t>(a.d.real()) == std::bit_cast<uint64_t>(b.d.real()) &&
           std::bit_cast<uint64_t>(a.d.imag()) == std::bit_cast<uint64_t>(b.d.imag()) &&
           std::bit_cast<uint32_t>(a.f.real()) == std::bit_cast<uint32_t>(b.f.real()) &&
           std::bit_cast<uint32_t>(a.f.imag()) == std::bit_cast<uint32_t>(b.f.imag());
  };
  interp::CisPiMemo memo;
  const int64_t past = (int64_t{1} << 21) + 7;  // over the dense arrays' budget
  for (int round = 0; round < 2; ++round)
    for (int64_t q : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{8}, int64_t{-8}, int64_t{12},
                      int64_t{65521}, int64_t{-131072}, past}) {
      const int64_t span = std::min<int64_t>(4 * (q < 0 ? -q : q), 4096);
      for (int64_t p = -span; p <= span; ++p)
        ASSERT_TRUE(same(memo.ratio(p, q), cisPiRatio(p, q))) << p << "/" << q;
      for (int64_t p : {int64_t{1} << 40, -(int64_t{1} << 40) + 3,
                        std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::min()})
        ASSERT_TRUE(same(memo.ratio(p, q), cisPiRatio(p, q))) << p << "/" << q;
    }
  const int64_t lowest = std::numeric_limits<int64_t>::min();
  EXPECT_TRUE(same(memo.ratio(3, lowest), cisPiRatio(3, lowest)));
  // a quarter turn is exact, its zero positive
  EXPECT_EQ(std::bit_cast<uint64_t>(memo.ratio(1, 2).d.real()), 0u);
  EXPECT_EQ(memo.ratio(1, 2).d.imag(), 1.0);
  EXPECT_EQ(std::bit_cast<uint64_t>(memo.ratio(3, 2).d.real()), 0u);
  EXPECT_EQ(memo.ratio(3, 2).d.imag(), -1.0);
}

}  // namespace
}  // namespace fftc::ir
