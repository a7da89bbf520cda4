// The value of the language's fft (ir/fft_operation.h, exactDftRounded): the exact DFT rounded
// once to the operation's precision, f64 from FFTW in long double, f32 from FFTW in double.
// Checked on Bluestein's chirp kernel, the closed fft that foldClosed tabulates (the chirp
// spectrum), against FFTW in long double: a table computed too coarsely for its precision (f32
// values from FFTW in float, f64 values from FFTW in double) fails the same check.
#include <gtest/gtest.h>

#include <fftw3.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "fftlib/fftw_reference.h"
#include "ir/fft_operation.h"
#include "ir/interpreter.h"

namespace fftc::ir {
namespace {

// b_m = conj(c_{t(m)}), t(m) = ((m + M/2) mod M) - M/2, c_j = e^{-πi j²/N} (fftlib/common.fdl's
// chirpKernel, forward), each value rounded to `precision` as the interpreter holds it.
std::vector<std::complex<double>> chirpKernel(int64_t n, int64_t m, ScalarKind precision) {
  std::vector<std::complex<double>> b;
  for (int64_t i = 0; i < m; ++i) {
    const int64_t t = (i + m / 2) % m - m / 2;
    b.push_back(std::conj(cisPiRatio(-((t * t) % (2 * n)), n).in(precision)));
  }
  return b;
}

// The largest distance of `got` from the exact DFT of `x` (long double) beyond half a rounding
// step of `precision` at the exact value, in units of the largest exact value's magnitude: 0
// when every value is the exact one correctly rounded, and below `slack` when each rounds as
// the exact value would but where that lies within slack·max of a rounding boundary.
template <typename Real>
double excessOverRounding(const std::vector<std::complex<double>>& x,
                          const std::vector<std::complex<Real>>& got) {
  std::vector<fftlib::ComplexL> in(x.begin(), x.end());
  const auto want =
      fftlib::referenceDft1d(in, static_cast<int64_t>(x.size()), 1, fftlib::Direction::Forward);
  long double largest = 0, excess = 0;
  for (const auto& w : want)
    largest = std::max({largest, std::fabs(w.real()), std::fabs(w.imag())});
  auto check = [&](long double exact, Real value) {
    const auto e = static_cast<Real>(exact);
    const long double halfStep = std::fabs(static_cast<long double>(std::nextafter(
                                               e, std::numeric_limits<Real>::infinity())) -
                                           static_cast<long double>(e)) /
                                 2;
    excess = std::max(excess, std::fabs(static_cast<long double>(value) - exact) - halfStep);
  };
  for (size_t i = 0; i < want.size(); ++i) {
    check(want[i].real(), got[i].real());
    check(want[i].imag(), got[i].imag());
  }
  return static_cast<double>(excess / largest);
}

std::vector<std::complex<float>> asFloat(const std::vector<std::complex<double>>& v) {
  return {v.begin(), v.end()};
}

// N = 4099 (Bluestein's, M = 8192) and a row of M = 2^15 (N = 16381)
constexpr std::array<std::pair<int64_t, int64_t>, 2> kSizes{{{4099, 8192}, {16381, 32768}}};

TEST(FftOperation, F32ValuesRoundTheExactDft) {
  for (auto [n, m] : kSizes) {
    const auto b = chirpKernel(n, m, ScalarKind::Float);
    const auto got = exactDftRounded(b, m, -1, ScalarKind::Float);
    for (const auto& v : got) {
      ASSERT_EQ(v.real(), static_cast<float>(v.real())) << "a float value held in a double";
      ASSERT_EQ(v.imag(), static_cast<float>(v.imag()));
    }
    EXPECT_LT(excessOverRounding(b, asFloat(got)), 1e-12) << n;
    // FFTW in float: errors of a few float rounding steps, which the check sees
    std::vector<std::complex<float>> in(b.begin(), b.end()), coarse(b.size());
    fftwf_plan p = fftwf_plan_dft_1d(
        static_cast<int>(m), reinterpret_cast<fftwf_complex*>(in.data()),
        reinterpret_cast<fftwf_complex*>(coarse.data()), FFTW_FORWARD, FFTW_ESTIMATE);
    fftwf_execute(p);
    fftwf_destroy_plan(p);
    EXPECT_GT(excessOverRounding(b, coarse), 1e-8) << n;
  }
}

TEST(FftOperation, F64ValuesRoundTheExactDft) {
  for (auto [n, m] : kSizes) {
    const auto b = chirpKernel(n, m, ScalarKind::Double);
    EXPECT_LT(excessOverRounding(b, exactDftRounded(b, m, -1, ScalarKind::Double)), 1e-18) << n;
    // FFTW in double: errors of a few double rounding steps
    std::vector<std::complex<double>> in = b, coarse(b.size());
    fftw_plan p = fftw_plan_dft_1d(static_cast<int>(m), reinterpret_cast<fftw_complex*>(in.data()),
                                   reinterpret_cast<fftw_complex*>(coarse.data()), FFTW_FORWARD,
                                   FFTW_ESTIMATE);
    fftw_execute(p);
    fftw_destroy_plan(p);
    EXPECT_GT(excessOverRounding(b, coarse), 1e-17) << n;
  }
}

}  // namespace
}  // namespace fftc::ir
