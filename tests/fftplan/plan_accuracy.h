// One 1D plan run on PoCL and held to issue 23's accuracy bar: its L2 error against FFTW in long
// double at most kL2Bound times FFTW's own at the same precision, its Linf within pyvkfft's
// tolerance; each ratio printed. The Bluestein and Rader plan tests share it. measurePlan gives
// the two L2 errors for a test's own bound (odd_tiles_test.cpp, one_array_looped_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "tests/fftplan/fftw_at_precision.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {

// `tag` names the suite in the printed line; `kernel`, when not empty, is the library kernel the
// plan must have chosen; `seed` seeds the input.
template <typename T>
void expectPlanWithinFftw(const FftRequest& r, const char* tag, uint64_t seed,
                          const std::string& kernel = "") {
  SCOPED_TRACE(r.key());
  Plan fft = Plan::create(fftc::testing::openclContext(), r);
  if (!kernel.empty()) {
    ASSERT_EQ(fft.info().choice.kernel, kernel);
  }
  const auto x =
      uniformInput<T>(static_cast<size_t>(r.size * r.batch), seed + static_cast<uint64_t>(r.size));
  const auto y = fft.run(x);
  auto ref = referenceDft1d(toLongDouble(std::span<const std::complex<T>>(x)), r.size, r.batch,
                            r.direction);
  const double fftw = l2(fftwC2c<T>(x, {r.size}, r.batch, r.direction), ref);  // unscaled
  if (r.scale)
    for (auto& v : ref) v /= static_cast<long double>(r.size);
  const double fftc = l2(y, ref);
  std::printf("[%s] %s  fftc L2 %.3g  FFTW L2 %.3g  ratio %.2f\n", tag, r.key().c_str(), fftc, fftw,
              fftc / fftw);
  EXPECT_LE(fftc, kL2Bound * fftw) << fft.info().describe();
  EXPECT_LE(linfError(std::span<const std::complex<T>>(y), ref), fftTolerance(r.size, r.precision))
      << fft.info().describe();
}

// The plan of `r` on PoCL (`plan`: its description), its Linf against FFTW in long double
// checked; its L2 error and FFTW's at the same precision, the input seeded by `seed`.
template <typename T>
L2Pair measurePlan(const FftRequest& r, std::string& plan, uint64_t seed) {
  Plan p = Plan::create(fftc::testing::openclContext(), r);
  plan = p.info().describe();
  auto x =
      uniformInput<T>(static_cast<size_t>(r.size * r.batch), seed + static_cast<uint64_t>(r.size));
  auto y = p.run(x);
  const std::vector<int64_t> dims{r.size};
  auto ref =
      referenceDft(toLongDouble(std::span<const std::complex<T>>(x)), dims, r.batch, r.direction);
  EXPECT_LE(linfError(std::span<const std::complex<T>>(y), ref), fftTolerance(r.size, r.precision))
      << plan;
  return {l2(y, ref), l2(fftwC2c<T>(x, dims, r.batch, r.direction), ref)};
}

}  // namespace fftc::fftlib::test
