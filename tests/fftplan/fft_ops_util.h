// What the tests of fft operations in programs share (fft_ops_test.cpp, fft_ops_passes_test.cpp):
// compiling a program's one kernel, random rows, FFTW's DFT of rows, the relative error.
#pragma once

#include <algorithm>
#include <complex>
#include <cstdint>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"

namespace fftc::fftlib::test {

using C = std::complex<double>;

inline compiler::frontend::Kernel compileKernel(
    const std::string& text, std::map<std::string, compiler::frontend::DefineValue> d,
    ir::ScalarKind precision = ir::ScalarKind::Double) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = precision;
  opts.defines = std::move(d);
  return compiler::frontend::compileSource(text, "ops.fdl", opts).kernels.at(0);
}

inline std::vector<C> randomVector(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<C> v(n);
  for (auto& c : v) c = {u(rng), u(rng)};
  return v;
}

// The unnormalized DFT of each of the rows of x (n elements each) by FFTW.
inline std::vector<C> dftRows(const std::vector<C>& x, int64_t n, Direction d) {
  std::vector<ComplexL> in(x.begin(), x.end());
  auto out = referenceDft1d(in, n, static_cast<int64_t>(x.size()) / n, d);
  return {out.begin(), out.end()};
}

// Each row of x (rows of n) circularly convolved with h by the direct sum: an answer
// independent of any FFT.
inline std::vector<C> circularConvolution(const std::vector<C>& x, const std::vector<C>& h,
                                          int64_t n) {
  std::vector<C> y(x.size());
  for (size_t r = 0; r + static_cast<size_t>(n) <= x.size(); r += static_cast<size_t>(n))
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) y[r + i] += x[r + j] * h[(i - j + n) % n];
  return y;
}

// max |got - want| / max |want|; 1e300 when the sizes differ.
inline double maxRelError(const std::vector<C>& got, const std::vector<C>& want) {
  double err = 0, scale = 1e-300;
  for (const auto& w : want) scale = std::max(scale, std::abs(w));
  if (got.size() != want.size()) return 1e300;
  for (size_t i = 0; i < want.size(); ++i) err = std::max(err, std::abs(got[i] - want[i]));
  return err / scale;
}

}  // namespace fftc::fftlib::test
