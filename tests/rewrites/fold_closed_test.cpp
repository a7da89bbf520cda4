// foldClosed (rewrites/fold_closed.h): closed sub-expressions that compute become tables whose
// values are the DFT computed independently (FFTW in long double); the program's result is
// unchanged; expressions that read the input, bare generators, userfuns and oversized arrays
// are left alone.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <random>

#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"
#include "ir/fft_operation.h"
#include "ir/interpreter.h"
#include "ir/printer.h"
#include "rewrites/fold_closed.h"
#include "rewrites/named_strategies.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using namespace ir;
namespace fe = compiler::frontend;

// A DFT written with reduce (sign s), and Bluestein's chirp c_j = e^{πi j²/N} as a generator.
constexpr const char* kPrelude = R"(
def N = 12
def chirpK = array(N, fun (i, n) => cispi(1.0 * ((i * i) % (2 * n)) / n))
def ks = array(N, fun (k, n) => k)
def dft(s) = λ(v => map(fun k => reduce(add, {0.0, 0.0}) <<: map(mult)
    <<: zip(v, array(N, fun (j, n) => cispi(s * 2.0 * ((j * k) % n) / n)))) <<: ks)
)";

LambdaPtr kernelOf(const std::string& body, ScalarKind precision = ScalarKind::Double) {
  fe::ElaborateOptions opts;
  opts.precision = precision;
  auto prog = fe::compileSource(std::string(kPrelude) + body, "fold.fdl", opts);
  return prog.kernels.at(0).lambda;
}

std::vector<const Table*> tables(const ExprPtr& e) {
  std::vector<const Table*> out;
  testing::forEachFun(e, [&](const FunDecl& f, const auto&) {
    if (const auto* t = f.as<Table>()) out.push_back(t);
  });
  return out;
}

// The kernel with foldClosed applied to its body, re-typed.
LambdaPtr fold(const LambdaPtr& k, const FoldOptions& options = {}) {
  return rewriteKernel(k, foldClosedPass(options));
}

void expectSameResults(const LambdaPtr& a, const LambdaPtr& b) {
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<Value> args;
    for (const auto& p : a->params()) args.push_back(testing::randomValue(p->type(), rng));
    EXPECT_EQ(interpretCall(a, args).toComplexVector(), interpretCall(b, args).toComplexVector());
  }
}

TEST(FoldClosed, TheChirpSpectrumIsATableOfItsDft) {
  LambdaPtr k = kernelOf("kernel k(x: [complex]N) = map(mult) <<: zip(x, dft(-1) <<: chirpK)");
  LambdaPtr f = fold(k);
  auto ts = tables(f->body());
  ASSERT_EQ(ts.size(), 1u) << print(f->body());
  EXPECT_EQ(testing::countKind(f->body(), FunKind::Reduce), 0) << "the DFT is gone";
  // the table against FFTW's DFT of the chirp, computed here from its definition
  std::vector<fftlib::ComplexL> chirp;
  for (int64_t j = 0; j < 12; ++j) {
    const long double a = std::numbers::pi_v<long double> * static_cast<long double>((j * j) % 24) / 12;
    chirp.emplace_back(std::cos(a), std::sin(a));
  }
  auto want = fftlib::referenceDft1d(chirp, 12, 1, fftlib::Direction::Forward);
  ASSERT_EQ(ts[0]->values().size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_NEAR(ts[0]->values()[i].real(), static_cast<double>(want[i].real()), 1e-13) << i;
    EXPECT_NEAR(ts[0]->values()[i].imag(), static_cast<double>(want[i].imag()), 1e-13) << i;
  }
  expectSameResults(k, f);
  // the printer shows it
  EXPECT_NE(print(f->body()).find("table([complex<double>]12)"), std::string::npos);
}

TEST(FoldClosed, LeavesWhatReadsTheInputOrDoesNotCompute) {
  // the DFT of the input: not closed; the chirp alone: a generator, left to the code generator
  LambdaPtr k = kernelOf("kernel k(x: [complex]N) = map(mult) <<: zip(dft(1) <<: x, chirpK)");
  LambdaPtr f = fold(k);
  EXPECT_TRUE(tables(f->body()).empty()) << print(f->body());
  EXPECT_EQ(print(f->body()), print(k->body()));
}

TEST(FoldClosed, LeavesGeneratorsOnlyRearrangedByViewMaps) {
  // each chirp element repeated 3 times (a map of views over the generator): no table of the
  // repeated array; the code generator reads the generator (its own table) through the views
  LambdaPtr k = kernelOf(
      "kernel k(x: [complex]36) = map(mult) <<: zip(x, join <<: join <<: map(λ(c => pad(0, 2, wrap) <<: "
      "split(1) <<: c)) <<: split(1) <<: chirpK)");
  LambdaPtr f = fold(k);
  EXPECT_TRUE(tables(f->body()).empty()) << print(f->body());
}

TEST(FoldClosed, FoldsTheOutermostClosedExpressionOnly) {
  // dft's inner generator reads k, bound inside the closed DFT: the whole DFT is one table
  LambdaPtr k = kernelOf(
      "kernel k(x: [complex]N) = map(mult) <<: zip(x, dft(1) <<: dft(-1) <<: chirpK)");
  LambdaPtr f = fold(k);
  ASSERT_EQ(tables(f->body()).size(), 1u) << print(f->body());
  expectSameResults(k, f);
  // the round trip D* D c = N c
  const auto& v = tables(f->body())[0]->values();
  for (int64_t j = 0; j < 12; ++j) {
    const double a = std::numbers::pi * static_cast<double>((j * j) % 24) / 12;
    EXPECT_NEAR(v[static_cast<size_t>(j)].real(), 12 * std::cos(a), 1e-12);
    EXPECT_NEAR(v[static_cast<size_t>(j)].imag(), 12 * std::sin(a), 1e-12);
  }
}

TEST(FoldClosed, LeavesUserFunsAndLargeArrays) {
  LambdaPtr k = kernelOf(R"(
userfun twice(c: complex): complex = "return c + c;"
kernel k(x: [complex]N) = map(mult) <<: zip(x, map(twice) <<: chirpK))");
  EXPECT_TRUE(tables(fold(k)->body()).empty()) << "the interpreter cannot run a userfun";
  LambdaPtr d = kernelOf("kernel k(x: [complex]N) = map(mult) <<: zip(x, dft(-1) <<: chirpK)");
  EXPECT_TRUE(
      tables(fold(d, FoldOptions{.maxElements = 11, .maxReducingElements = 11})->body()).empty());
  EXPECT_EQ(tables(fold(d, FoldOptions{.maxElements = 12, .maxReducingElements = 11})->body())
                .size(),
            1u);
  // An expression that reduces (an FFT) may be larger than maxElements, up to
  // maxReducingElements; an elementwise map over a generator may not.
  EXPECT_EQ(tables(fold(d, FoldOptions{.maxElements = 11, .maxReducingElements = 12})->body())
                .size(),
            1u);
  LambdaPtr m =
      kernelOf("kernel k(x: [complex]N) = map(mult) <<: zip(x, map(fun c => c * 2.0) <<: chirpK)");
  EXPECT_EQ(tables(fold(m, FoldOptions{.maxElements = 12, .maxReducingElements = 12})->body())
                .size(),
            1u);
  EXPECT_TRUE(
      tables(fold(m, FoldOptions{.maxElements = 11, .maxReducingElements = 12})->body()).empty());
}

// The DFT by its definition in long double: independent of FFTW and of the interpreter.
std::vector<fftlib::ComplexL> naiveDft(const std::vector<fftlib::ComplexL>& x, int sign) {
  const auto n = static_cast<int64_t>(x.size());
  std::vector<fftlib::ComplexL> y(x.size());
  for (int64_t k = 0; k < n; ++k)
    for (int64_t j = 0; j < n; ++j) {
      const long double a = sign * 2 * std::numbers::pi_v<long double> *
                            static_cast<long double>((j * k) % n) / static_cast<long double>(n);
      y[static_cast<size_t>(k)] +=
          x[static_cast<size_t>(j)] * fftlib::ComplexL(std::cos(a), std::sin(a));
    }
  return y;
}

std::vector<fftlib::ComplexL> exactChirp() {
  std::vector<fftlib::ComplexL> chirp;
  for (int64_t j = 0; j < 12; ++j) {
    const long double a =
        std::numbers::pi_v<long double> * static_cast<long double>((j * j) % 24) / 12;
    chirp.emplace_back(std::cos(a), std::sin(a));
  }
  return chirp;
}

// The language's fft of a closed array (Bluestein's chirp spectrum as fftlib writes it): a table
// of the exact DFT rounded once to the program's precision, folded whatever maxElements and
// maxReducingElements say (it has no other form), up to maxFftElements.
TEST(FoldClosed, AClosedFftOperationIsTheExactDftRoundedOnce) {
  const auto want = naiveDft(exactChirp(), -1);
  for (ScalarKind precision : {ScalarKind::Float, ScalarKind::Double}) {
    LambdaPtr k =
        kernelOf("kernel k(x: [complex]N) = map(mult) <<: zip(x, fft(chirpK))", precision);
    ASSERT_TRUE(containsFftOperation(k->body()));
    LambdaPtr f = fold(k);
    auto ts = tables(f->body());
    ASSERT_EQ(ts.size(), 1u) << print(f->body());
    EXPECT_FALSE(containsFftOperation(f->body()));
    ASSERT_EQ(ts[0]->values().size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      const auto v = ts[0]->values()[i];
      if (precision == ScalarKind::Float) {
        // the float nearest the exact value: within half its ulp (and the 1e-15 by which the
        // inputs, rounded to double, move a value near 0), where an f32 FFT would be off by a
        // few ulps
        for (auto [got, exact] : {std::pair{v.real(), want[i].real()}, {v.imag(), want[i].imag()}}) {
          const float e = static_cast<float>(exact);
          const double ulp = std::nextafter(std::abs(e), INFINITY) - std::abs(e);
          EXPECT_NEAR(got, static_cast<double>(exact), 0.5 * ulp + 1e-15) << i;
          EXPECT_EQ(got, static_cast<double>(static_cast<float>(got))) << "a float value " << i;
        }
      } else {  // within the rounding of its inputs (|x_j| = 1, 12 of them) and its own
        EXPECT_NEAR(v.real(), static_cast<double>(want[i].real()), 4e-15) << i;
        EXPECT_NEAR(v.imag(), static_cast<double>(want[i].imag()), 4e-15) << i;
      }
    }
  }
  LambdaPtr d = kernelOf("kernel k(x: [complex]N) = map(mult) <<: zip(x, ifft(chirpK))");
  EXPECT_EQ(tables(fold(d, FoldOptions{.maxElements = 1, .maxReducingElements = 1})->body()).size(),
            1u);
  EXPECT_TRUE(
      tables(fold(d, FoldOptions{.maxElements = 1, .maxReducingElements = 1, .maxFftElements = 11})
                 ->body())
          .empty());
}

// The interpreter's value of fft and ifft: the DFT (sign -1 and +1, unnormalized).
TEST(FftOperation, TheInterpreterComputesTheDft) {
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<Value> x;
  std::vector<fftlib::ComplexL> xl;
  for (int i = 0; i < 12; ++i) {
    const std::complex<double> c(u(rng), u(rng));
    x.push_back(Value::ofComplex(c, ScalarKind::Double));
    xl.emplace_back(c.real(), c.imag());
  }
  for (int sign : {-1, 1}) {
    LambdaPtr k = kernelOf(sign < 0 ? "kernel k(x: [complex]N) = fft(x)"
                                    : "kernel k(x: [complex]N) = ifft <<: x");
    const auto got = interpretCall(k, {Value::array(x)}).toComplexVector();
    const auto want = naiveDft(xl, sign);
    ASSERT_EQ(got.size(), want.size());
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_NEAR(got[i].real(), static_cast<double>(want[i].real()), 1e-15) << sign << " " << i;
      EXPECT_NEAR(got[i].imag(), static_cast<double>(want[i].imag()), 1e-15) << sign << " " << i;
    }
  }
}

}  // namespace
}  // namespace fftc::rewrites
