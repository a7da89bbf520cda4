// The DFT as a matrix-vector product with a generator, and the paper's Stockham FFT built from
// kronIdR / multPiT / multB / RepOfB, interpreted and compared with FFTW in long double.
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "fftlib/fftw_reference.h"
#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/interpreter.h"

namespace fftc::ir {
namespace {

using fftlib::ComplexL;
using fftlib::Direction;

std::vector<std::complex<double>> randomInput(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<std::complex<double>> x(n);
  for (auto& c : x) c = {u(rng), u(rng)};
  return x;
}

// omega(k, n) = exp(-2 pi i k / n) = cispi(-2.0 * k / n)
ExprPtr omega(ExprPtr k, ExprPtr n, ScalarKind p) { return cispi(lit(-2.0, p) * k / n); }

// Complex matrix-vector product: fun (v, M) => map(row => reduce(add, {0,0}) o map(mult) o zip(row, v)) <<: M
FunPtr complexMatVecMult() {
  return fun(
      [](ExprPtr v, ExprPtr m) {
        auto dot = fun([&](ExprPtr row) {
          return reduce(add(), tuple({lit(0), lit(0)})) << map(mult()) << zip(row, v);
        }, {"row"});
        return map(dot) << m;
      },
      {"v", "M"});
}

// D_N x as map(row => dot(row, x)) <<: array2(N, N, (j, k, n0, n1) => omega(j*k mod N, N))
ExprPtr dftMatVec(ExprPtr x, int64_t n, ScalarKind p) {
  auto gen = fun([&](ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr) { return omega((j * k) % n0, n0, p); });
  auto row = fun([&](ExprPtr r) {
    return reduce(add(), tuple({lit(0), lit(0)})) << map(mult()) << zip(r, x);
  });
  return map(row) << array2(n, n, gen);
}

// ---- the paper's Stockham FFT (section 3.1), sizes outermost first in the generator

// kronIdR(m, A) v = (A (x) I_m) v
FunPtr kronIdR(int64_t m, FunPtr matMult) {
  return join() << transpose() << map(std::move(matMult)) << transpose() << split(m);
}
// multPiT(r) v = Pi^T_{r,L} v
FunPtr multPiT(int64_t r) { return join() << transpose() << split(r); }
// RepOfB(r, L) = array3(L/r, r, r, genRepB),
// genRepB(j, k, l, numMats, height, width) = omega((k * numMats + j) * l, height * numMats)
ExprPtr repOfB(int64_t r, int64_t l, ScalarKind p) {
  auto gen = fun([&](ExprPtr j, ExprPtr k, ExprPtr c, ExprPtr numMats, ExprPtr height, ExprPtr) {
    return omega((k * numMats + j) * c, height * numMats, p);
  });
  return array3(l / r, r, r, gen);
}
// multB(r, L) v = B_{r,L} v
FunPtr multB(int64_t r, int64_t l, ScalarKind p) {
  return fun([&](ExprPtr v) {
    return join() << transpose() << map(complexMatVecMult()) <<
           zip(transpose() << split(l / r) << v, repOfB(r, l, p));
  }, {"v"});
}
// stockPass(r, L, n) = (B_{r,L} (x) I_{n/L}) (Pi^T_{r,L} (x) I_{n/L})
FunPtr stockPass(int64_t r, int64_t l, int64_t n, ScalarKind p) {
  return compose(kronIdR(n / l, multB(r, l, p)), kronIdR(n / l, multPiT(r)));
}
// fftStockham(rs) = stockPass(r_u, n, n) o ... o stockPass(r_1, r_1, n)
ExprPtr fftStockham(const std::vector<int64_t>& rs, ExprPtr v, ScalarKind p) {
  int64_t n = 1;
  for (auto r : rs) n *= r;
  int64_t l = 1;
  ExprPtr e = std::move(v);
  for (auto r : rs) {
    l *= r;
    e = stockPass(r, l, n, p) << e;
  }
  return e;
}

struct FftRun {
  std::vector<std::complex<double>> y;
  double l2, linf;
};

template <class Build>
FftRun runAgainstFftw(int64_t n, ScalarKind p, Build build, uint64_t seed = 1) {
  auto x = param("x", Type::array(Type::complex(p), n));
  LambdaPtr typed = inferTypes(lambda({x}, build(x)));
  EXPECT_EQ(typed->body()->type(), Type::array(Type::complex(p), n));
  auto input = randomInput(static_cast<size_t>(n), seed);
  Value in = Value::complexArray(input, p);
  auto y = interpretCall(typed, {in}).toComplexVector();
  // the reference sees exactly the (possibly float-rounded) input the program saw
  auto ref = fftlib::referenceDft1d(fftlib::toLongDouble(in.toComplexVector()), n, 1,
                                    Direction::Forward);
  return {y, fftlib::l2Error(y, ref), fftlib::linfError(y, ref)};
}

TEST(DftMatVec, MatchesFftwForSizes1To32Double) {
  for (int64_t n = 1; n <= 32; ++n) {
    FftRun r = runAgainstFftw(n, ScalarKind::Double, [&](ExprPtr x) { return dftMatVec(x, n, ScalarKind::Double); }, 100 + n);
    EXPECT_LT(r.l2, 1e-14) << "N = " << n;
    EXPECT_LT(r.linf, 1e-14) << "N = " << n;
  }
}

TEST(DftMatVec, MatchesFftwForSizes1To32Float) {
  for (int64_t n = 1; n <= 32; ++n) {
    FftRun r = runAgainstFftw(n, ScalarKind::Float, [&](ExprPtr x) { return dftMatVec(x, n, ScalarKind::Float); }, 200 + n);
    EXPECT_LT(r.l2, 1e-6) << "N = " << n;
    // float really rounds: the error is not at double level (except the trivial N = 1)
    if (n > 2) {
      EXPECT_GT(r.l2, 1e-12) << "N = " << n;
    }
  }
}

TEST(DftMatVec, MatchesFftwForLargerSizes) {
  for (int64_t n : {60, 127, 256}) {
    FftRun r = runAgainstFftw(n, ScalarKind::Double, [&](ExprPtr x) { return dftMatVec(x, n, ScalarKind::Double); }, n);
    EXPECT_LT(r.l2, 1e-13) << "N = " << n;
  }
}

TEST(DftMatVec, AWrongTwiddleSignIsCaught) {
  // the same program with omega(+jk) computes the inverse DFT: the comparison must fail
  const int64_t n = 8;
  FftRun r = runAgainstFftw(n, ScalarKind::Double, [&](ExprPtr x) {
    auto gen = fun([&](ExprPtr j, ExprPtr k, ExprPtr n0, ExprPtr) {
      return cispi(lit(2.0) * ((j * k) % n0) / n0);
    });
    auto row = fun([&](ExprPtr rr) {
      return reduce(add(), tuple({lit(0), lit(0)})) << map(mult()) << zip(rr, x);
    });
    return map(row) << array2(n, n, gen);
  });
  EXPECT_GT(r.l2, 0.1);
}

TEST(StockhamFft, Radix444On64PointsDouble) {
  FftRun r = runAgainstFftw(64, ScalarKind::Double, [](ExprPtr x) { return fftStockham({4, 4, 4}, x, ScalarKind::Double); });
  EXPECT_LT(r.l2, 1e-12);
  EXPECT_LT(r.linf, 1e-12);
}

TEST(StockhamFft, Radix444On64PointsFloat) {
  FftRun r = runAgainstFftw(64, ScalarKind::Float, [](ExprPtr x) { return fftStockham({4, 4, 4}, x, ScalarKind::Float); });
  EXPECT_LT(r.l2, 1e-5);
  EXPECT_LT(r.linf, 1e-5);
  EXPECT_GT(r.l2, 1e-10);  // computed in float, not silently in double
}

TEST(StockhamFft, MixedRadices) {
  for (std::vector<int64_t> rs : std::vector<std::vector<int64_t>>{
           {2}, {2, 2}, {2, 4, 8}, {8, 2, 4}, {3, 5}, {16, 4}, {2, 2, 2, 2, 2, 2}}) {
    FftRun r = runAgainstFftw(
        [&] { int64_t n = 1; for (auto q : rs) n *= q; return n; }(), ScalarKind::Double,
        [&](ExprPtr x) { return fftStockham(rs, x, ScalarKind::Double); });
    EXPECT_LT(r.l2, 1e-12) << "radices " << rs.size() << " first " << rs[0];
  }
}

TEST(StockhamFft, OnePassIsNotTheWholeFft) {
  // the last pass alone is not a DFT: the oracle must see the difference
  FftRun r = runAgainstFftw(16, ScalarKind::Double, [](ExprPtr x) { return stockPass(4, 16, 16, ScalarKind::Double) << x; });
  EXPECT_GT(r.l2, 0.1);
}

TEST(StockhamFft, Interprets4096PointsQuickly) {
  auto start = std::chrono::steady_clock::now();
  FftRun r = runAgainstFftw(4096, ScalarKind::Float, [](ExprPtr x) { return fftStockham({16, 16, 16}, x, ScalarKind::Float); });
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(r.l2, 1e-5);
  RecordProperty("seconds", std::to_string(seconds));
  EXPECT_LT(seconds, 10.0);  // Debug build; well under a second in release
}

}  // namespace
}  // namespace fftc::ir
