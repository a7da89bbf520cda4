// The FFTW oracle itself: hand-checkable transforms and the error metrics.
#include "fftlib/fftw_reference.h"

#include <gtest/gtest.h>

#include <cmath>

namespace fftc::fftlib {
namespace {

TEST(FftwReference, ImpulseGivesOnes) {
  std::vector<ComplexL> x(8, 0);
  x[0] = 1;
  auto y = referenceDft1d(x, 8, 1, Direction::Forward);
  for (const auto& v : y) {
    EXPECT_EQ(v.real(), 1.0L);
    EXPECT_EQ(v.imag(), 0.0L);
  }
}

TEST(FftwReference, ShiftedImpulseGivesTwiddles) {
  const int n = 8;
  std::vector<ComplexL> x(n, 0);
  x[1] = 1;
  auto y = referenceDft1d(x, n, 1, Direction::Forward);
  for (int k = 0; k < n; ++k) {  // exp(-2 pi i k / n)
    EXPECT_NEAR(static_cast<double>(y[k].real()), std::cos(-2 * M_PI * k / n), 1e-15);
    EXPECT_NEAR(static_cast<double>(y[k].imag()), std::sin(-2 * M_PI * k / n), 1e-15);
  }
  auto z = referenceDft1d(x, n, 1, Direction::Inverse);
  EXPECT_NEAR(static_cast<double>(z[1].imag()), std::sin(2 * M_PI / n), 1e-15);
}

TEST(FftwReference, ConstantGoesToBinZero) {
  std::vector<ComplexL> x(6, ComplexL(2, -1));
  auto y = referenceDft1d(x, 6, 1, Direction::Forward);
  EXPECT_NEAR(static_cast<double>(y[0].real()), 12, 1e-15);
  EXPECT_NEAR(static_cast<double>(y[0].imag()), -6, 1e-15);
  for (int k = 1; k < 6; ++k) EXPECT_LT(static_cast<double>(std::abs(y[k])), 1e-15);
}

TEST(FftwReference, BatchesAreIndependent) {
  std::vector<ComplexL> x(8, 0);
  x[0] = 1;      // batch 0: impulse
  x[4 + 1] = 1;  // batch 1: shifted impulse
  auto y = referenceDft1d(x, 4, 2, Direction::Forward);
  EXPECT_NEAR(static_cast<double>(y[2].real()), 1, 1e-18);
  EXPECT_NEAR(static_cast<double>(y[4 + 1].imag()), -1, 1e-18);  // exp(-2 pi i / 4) = -i
  EXPECT_NEAR(static_cast<double>(y[4 + 2].real()), -1, 1e-18);
}

TEST(FftwReference, InverseRoundTrip) {
  std::vector<ComplexL> x;
  for (int i = 0; i < 30; ++i) x.emplace_back(std::sin(i * 0.7L), std::cos(i * 1.3L));
  auto y = referenceDft1d(x, 30, 1, Direction::Forward);
  auto z = referenceDft1d(y, 30, 1, Direction::Inverse);
  for (int i = 0; i < 30; ++i) EXPECT_LT(static_cast<double>(std::abs(z[i] / 30.0L - x[i])), 1e-17);
}

TEST(FftwReference, TwoDimensionalImpulse) {
  std::vector<ComplexL> x(4 * 3, 0);
  x[1 * 3 + 0] = 1;  // row 1: exp(-2 pi i k0 / 4) along the outer dimension
  int64_t dims[2] = {4, 3};
  auto y = referenceDft(x, dims, 1, Direction::Forward);
  EXPECT_NEAR(static_cast<double>(y[1 * 3 + 2].imag()), -1, 1e-18);
  EXPECT_NEAR(static_cast<double>(y[2 * 3 + 1].real()), -1, 1e-18);
}

TEST(FftwReference, ErrorMetrics) {
  std::vector<ComplexL> ref = {1, 1};
  std::vector<std::complex<double>> y = {{1, 0}, {0, 0}};
  EXPECT_DOUBLE_EQ(l2Error(y, ref), std::sqrt(0.5));
  EXPECT_DOUBLE_EQ(linfError(y, ref), 1.0);
  std::vector<std::complex<float>> yf = {{1, 0}, {1, 0}};
  EXPECT_EQ(l2Error(yf, ref), 0.0);
  EXPECT_EQ(linfError(yf, ref), 0.0);
  std::vector<ComplexL> ref2 = {ComplexL(3, 4), 0};
  std::vector<std::complex<double>> y2 = {{3, 4}, {0, 1}};
  EXPECT_DOUBLE_EQ(linfError(y2, ref2), 0.2);
  EXPECT_DOUBLE_EQ(l2Error(y2, ref2), std::sqrt(1.0 / 25));
  EXPECT_THROW(l2Error(y, ref2 = {1}), std::invalid_argument);
  // a NaN result is no small error: the maximum must not skip it
  std::vector<std::complex<double>> withNan = {{1, 0}, {std::nan(""), 0}, {1, 0}};
  std::vector<ComplexL> ref3 = {1, 1, 1};
  EXPECT_TRUE(std::isnan(linfError(withNan, ref3)));
  EXPECT_TRUE(std::isnan(l2Error(withNan, ref3)));
}

// The plan_many forms: FFTW places the data through the layouts; one reaching past its buffer
// is refused before FFTW writes anything.
TEST(FftwReference, ManyLayoutsPlaceTheDataAndRefuseShortBuffers) {
  const std::vector<int64_t> dims = {4};
  std::vector<ComplexL> in = {1, 0, 0, 0, 0, 0, 0, 0};  // stride 2: elements 1, 0, 0, 0
  std::vector<ComplexL> out(4, ComplexL(7, 7));
  referenceDftMany(in, out, dims, 1, {{}, 2, 0}, {}, Direction::Forward);
  for (const auto& v : out) EXPECT_EQ(v, ComplexL(1, 0));  // the impulse's DFT
  std::vector<ComplexL> shortOut(3);
  EXPECT_THROW(referenceDftMany(in, shortOut, dims, 1, {{}, 2, 0}, {}, Direction::Forward),
               std::invalid_argument);
  std::vector<ComplexL> shortIn(6);
  EXPECT_THROW(referenceDftMany(shortIn, out, dims, 1, {{}, 2, 0}, {}, Direction::Forward),
               std::invalid_argument);
}

TEST(FftwReference, BadShapesAreRejected) {
  std::vector<ComplexL> x(5);
  EXPECT_THROW(referenceDft1d(x, 4, 1, Direction::Forward), std::invalid_argument);
  EXPECT_THROW(referenceDft1d(x, 0, 1, Direction::Forward), std::invalid_argument);
}

}  // namespace
}  // namespace fftc::fftlib
