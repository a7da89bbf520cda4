// cispi and cispiRatio (ir/interpreter.h): exact at quarter turns, exactly symmetric, and rounded
// once from long double to double and to float (the twiddles of every FFT; issue 23, item 5).
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>

#include "ir/interpreter.h"

namespace fftc::ir {
namespace {

// e^{iπ p/q} in long double straight from the angle: within a few long double ulps of the
// truth, so its rounding to float is the correctly rounded float but for ties within 2^-40.
std::complex<long double> direct(int64_t p, int64_t q) {
  const long double pi = 3.141592653589793238462643383279502884L;
  const long double a = pi * static_cast<long double>(p) / static_cast<long double>(q);
  return {std::cos(a), std::sin(a)};
}

TEST(CisPi, QuarterTurnsAreExact) {
  for (int64_t q : {int64_t{1}, int64_t{2}, int64_t{3}, int64_t{7}, int64_t{1000}, int64_t{65536},
                    int64_t{1} << 40}) {
    EXPECT_EQ(cisPiRatio(0, q).d, std::complex<double>(1, 0)) << q;
    EXPECT_EQ(cisPiRatio(q, q).d, std::complex<double>(-1, 0)) << q;
    EXPECT_EQ(cisPiRatio(-q, q).d, std::complex<double>(-1, 0)) << q;
    EXPECT_EQ(cisPiRatio(5 * q, 2 * q).d, std::complex<double>(0, 1)) << q;
    EXPECT_EQ(cisPiRatio(3 * q, 2 * q).f, std::complex<float>(0, -1)) << q;
    EXPECT_EQ(cisPiRatio(q, -2 * q).d, std::complex<double>(0, -1)) << q;
  }
  EXPECT_EQ(cisPi(1.0), std::complex<double>(-1, 0));
  EXPECT_EQ(cisPi(-0.5), std::complex<double>(0, -1));
  EXPECT_EQ(cisPi(7.5), std::complex<double>(0, -1));
}

TEST(CisPi, SymmetriesAreExact) {
  for (int64_t q : std::initializer_list<int64_t>{3, 5, 7, 11, 13, 17, 1009, 65521}) {
    for (int64_t p = 0; p < 2 * q; ++p) {
      const auto a = cisPiRatio(p, q);
      // conjugate: e^{-iθ}; supplement: e^{i(π - θ)} = -conj(e^{iθ}); a full turn more
      EXPECT_EQ(cisPiRatio(-p, q).d, std::conj(a.d)) << p << "/" << q;
      EXPECT_EQ(cisPiRatio(q - p, q).d, -std::conj(a.d) + std::complex<double>(0, 0));
      EXPECT_EQ(cisPiRatio(q - p, q).f, -std::conj(a.f) + std::complex<float>(0, 0));
      EXPECT_EQ(cisPiRatio(p + 2 * q, q).d, a.d);
      EXPECT_EQ(cisPiRatio(p - 6 * q, q).f, a.f);
      if (p == 0 || p == q) continue;
      // a real argument that is the same ratio (binary fractions only) gives the same bits
      if ((q & (q - 1)) == 0) {
        EXPECT_EQ(cisPiRounded(static_cast<double>(p) / q).d, a.d);
      }
    }
  }
  EXPECT_EQ(cisPiRounded(0.375).f, cisPiRatio(3, 8).f);
  EXPECT_EQ(cisPiRounded(-1.25).d, cisPiRatio(-5, 4).d);
}

// Each value is the long double value rounded once: within half an ulp of the direct long double
// value, plus the long double's own error (float: exactly its rounding, but for near-ties).
TEST(CisPi, RoundedOnceToEachPrecision) {
  int offByOne = 0;
  for (int64_t q : std::initializer_list<int64_t>{3, 5, 7, 9, 11, 13, 15, 25, 49, 243, 625, 1331,
                                                  2187, 16807, 65521}) {
    for (int64_t p = -2 * q; p <= 2 * q; ++p) {
      if (p % q == 0) continue;  // exact (QuarterTurnsAreExact); sin(π) in long double is not 0
      const auto v = cisPiRatio(p, q);
      const auto want = direct(p, q);
      const double ulpRe = std::nextafter(std::fabs(v.d.real()), 2.0) - std::fabs(v.d.real());
      const double ulpIm = std::nextafter(std::fabs(v.d.imag()), 2.0) - std::fabs(v.d.imag());
      const long double slack = 0x1p-58L;  // the reference's own error (angles up to 2π)
      EXPECT_LE(std::fabs(static_cast<long double>(v.d.real()) - want.real()),
                0.5L * ulpRe + slack);
      EXPECT_LE(std::fabs(static_cast<long double>(v.d.imag()) - want.imag()),
                0.5L * ulpIm + slack);
      const std::complex<float> f(static_cast<float>(want.real()), static_cast<float>(want.imag()));
      if (v.f != f) ++offByOne;
      EXPECT_LE(std::fabs(v.f.real() - f.real()), 1e-7f) << p << "/" << q;
    }
  }
  EXPECT_LE(offByOne, 2);  // ties within 2^-40 of a float ulp: as good as never
}

// The reduction matters: the angle 2πk/n rounded to f32 first (the old cispi(s * 2.0 * k / n) in
// an f32 kernel) is off by up to several f32 ulps; cisPiRatio is off by at most half of one.
TEST(CisPi, BetterThanTheRoundedAngle) {
  double worstOld = 0, worstNew = 0;
  for (int64_t n : std::initializer_list<int64_t>{3, 5, 7, 9, 243, 625, 2187}) {
    for (int64_t k = 0; k < n; ++k) {
      const auto want = direct(2 * k, n);
      const auto oldF =
          cisPi(static_cast<float>(2.0f * static_cast<float>(k) / static_cast<float>(n)));
      const auto newF = cisPiRatio(2 * k, n).f;
      auto err = [&](double re, double im) {
        return std::abs(std::complex<long double>(re, im) - want) / 0x1p-24L;
      };
      worstOld = std::max(worstOld, static_cast<double>(err(static_cast<float>(oldF.real()),
                                                            static_cast<float>(oldF.imag()))));
      worstNew = std::max(worstNew, static_cast<double>(err(newF.real(), newF.imag())));
    }
  }
  EXPECT_LE(worstNew, 0.75);  // |error| in units of 2^-24: at most half an ulp in each part
  EXPECT_GT(worstOld, 2.0);
}

}  // namespace
}  // namespace fftc::ir
