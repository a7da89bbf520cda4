// cispiRatio computed at run time (the four-step FFTs' twiddles, Bluestein's chirps): a
// denominator known to lie in [1, 2^28] takes fftc_cispiratio32 (int reduction, one sincospi;
// a power of two q straight from p's low bits), any other the 64-bit fftc_cispiratio. Both
// are run on the device (PoCL here) for numerators across the whole int range and checked
// against the interpreter's exact value rounded once (ir::cisPiRatio).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "ir/interpreter.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

// Numerators around the quarter turns of q and their neighbours, and a spread over the int range.
std::vector<int64_t> numerators(int64_t q) {
  std::vector<int64_t> p;
  for (int64_t k = -8; k <= 8; ++k)
    for (int64_t d : {-1, 0, 1}) {
      const int64_t v = k * q / 2 + d;
      if (v >= INT32_MIN && v <= INT32_MAX) p.push_back(v);
    }
  std::mt19937_64 rng(static_cast<uint64_t>(q));
  std::uniform_int_distribution<int64_t> any(INT32_MIN, INT32_MAX);
  std::uniform_int_distribution<int64_t> near(-4 * q, 4 * q);
  for (int i = 0; i < 256; ++i) p.push_back(any(rng));
  for (int i = 0; i < 256; ++i) p.push_back(std::clamp<int64_t>(near(rng), INT32_MIN, INT32_MAX));
  p.push_back(INT32_MIN);
  p.push_back(INT32_MAX);
  return p;
}

// The largest distance of the device's cispiRatio(p, q) from the exact value rounded once, over
// numerators(q); `body` is the kernel's cispiRatio call (of the size N or the constant Q, both
// q), `helper` the helper it must use.
double maxError(int64_t q, const std::string& body, const std::string& helper,
                ir::ScalarKind precision) {
  std::vector<int64_t> p = numerators(q);
  // a kernel whose denominator is its size N: q numerators (repeated)
  if (body.find(", N)") != std::string::npos)
    for (size_t i = 0; p.size() != static_cast<size_t>(q); ++i)
      p.size() < static_cast<size_t>(q) ? p.push_back(p[i]) : p.pop_back();
  std::vector<ir::Value> in;
  for (int64_t v : p) in.push_back(ir::Value::ofInt(v));
  const auto n = static_cast<int64_t>(p.size());
  const cg::CompiledKernel ck =
      compileText("kernel k(x: [int]N) = mapGlobal(λ(p => " + body + ")) <<: x", "k", {{"Q", q}},
                  options(), precision);
  EXPECT_EQ(count(ck.source, helper + "("), 2u) << ck.source;  // its definition and its call
  const auto got =
      ex::runCompiled(context(), ck, {ir::Value::array(in)}, {{"N", n}}).output.toComplexVector();
  EXPECT_EQ(got.size(), p.size());
  double worst = 0;
  for (size_t i = 0; i < p.size() && i < got.size(); ++i) {
    const ir::CisPiRounded want = ir::cisPiRatio(p[i], q);
    const std::complex<double> w = precision == ir::ScalarKind::Double
                                       ? want.d
                                       : std::complex<double>(want.f.real(), want.f.imag());
    const double e = std::abs(got[i] - w);
    EXPECT_LT(e, 1e-3) << "cispiRatio(" << p[i] << ", " << q << "): got " << got[i] << ", want "
                       << w;
    worst = std::max(worst, e);
  }
  std::printf("[cispiratio] %s q %lld: max error %.3g\n", helper.c_str(), static_cast<long long>(q),
              worst);
  return worst;
}

// Within two units in the last place of 1 (sinpi and cospi are within a few ulps; the angle is
// reduced exactly in int) for denominators that are and are not powers of two, up to 2^28.
TEST(CisPiRatio32, WithinTwoUlpOfTheExactValue) {
  for (ir::ScalarKind precision : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
    const bool dbl = precision == ir::ScalarKind::Double;
    const char* helper = dbl ? "fftc_cispiratio32_d" : "fftc_cispiratio32_f";
    const double ulp = dbl ? 0x1p-52 : 0x1p-23;
    for (int64_t q : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{8}, int64_t{17}, int64_t{1000},
                      int64_t{2048}, int64_t{65521}, int64_t{131072}, int64_t{1000000},
                      int64_t{1} << 23, int64_t{1} << 24, int64_t{3} << 20, int64_t{1} << 28}) {
      SCOPED_TRACE(std::to_string(q) + (dbl ? " f64" : " f32"));
      EXPECT_LE(maxError(q, "cispiRatio(p, Q)", helper, precision), 2 * ulp);
    }
  }
}

// A denominator with no bound (a size) or above 2^28 keeps the 64-bit reduction.
TEST(CisPiRatio32, UnboundedOrLargeDenominatorsReduceIn64Bits) {
  EXPECT_LE(maxError(1000, "cispiRatio(p, N)", "fftc_cispiratio_f", ir::ScalarKind::Float),
            2 * 0x1p-23);
  EXPECT_LE(
      maxError(int64_t{1} << 29, "cispiRatio(p, Q)", "fftc_cispiratio_d", ir::ScalarKind::Double),
      2 * 0x1p-52);
}

// A numerator that may leave int's range (an index's square, computed in 64 bits) keeps the
// 64-bit reduction even with a small constant denominator: fftc_cispiratio32 takes an int.
TEST(CisPiRatio32, NumeratorsBeyondIntReduceIn64Bits) {
  const cg::CompiledKernel ck =
      compileText("kernel k(x: [complex]N) = mapGlobal(λ(t => t)) <<: array(N, λ((i, n) => "
                  "cispiRatio(i * i * 4096, 1000)))",
                  "k", {{"N", int64_t{1} << 20}}, options(), ir::ScalarKind::Float);
  EXPECT_EQ(count(ck.source, "fftc_cispiratio_f("), 2u) << ck.source;
  EXPECT_EQ(count(ck.source, "fftc_cispiratio32_f("), 0u) << ck.source;
}

}  // namespace
}  // namespace fftc::codegen_test
