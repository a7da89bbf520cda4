// What the standalone examples share: a reproducible input and the comparison of an FFT's output
// with a DFT computed here in long double (standalone.cpp, standalone_cuda.cpp).
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdio>
#include <string_view>
#include <vector>

namespace dft_check {

// The tolerance on the largest error relative to the largest output, by the element type: about
// 4 x epsilon x log2(N) for N up to 65536 (fftc's f32 FFTs of 4096, 4099 and 65536 reach 1.5e-7
// to 2.4e-7 here, f64 2.4e-16), while a wrong twiddle or index is off by O(1).
template <typename Real>
constexpr double tolerance() {
  return sizeof(Real) == sizeof(float) ? 5e-6 : 1e-13;
}

// `count` complex values in [-1, 1) from a small linear congruential generator.
template <typename Real>
std::vector<std::complex<Real>> input(std::size_t count) {
  std::vector<std::complex<Real>> v(count);
  unsigned state = 12345;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return static_cast<Real>(static_cast<double>(state >> 8) / (1 << 23) - 1.0);
  };
  for (auto& x : v) x = {next(), next()};
  return v;
}

// Compares `out` (batches of n) with the forward DFT X_k = sum_j x_j e^{-2 pi i jk/n} of `in`,
// in long double with twiddles by the exact index jk mod n, for the first and the last FFT of
// the batch: every bin up to n = 8192, else 512 bins spread by a prime stride (all n^2 terms
// would take minutes at 65536). Prints one line; 0 when the error is within tolerance<Real>(),
// else 1.
template <typename Real>
int compare(std::string_view name, std::size_t n, const std::vector<std::complex<Real>>& in,
            const std::vector<std::complex<Real>>& out) {
  using C = std::complex<long double>;
  const std::size_t batch = in.size() / n;
  const long double pi = 3.141592653589793238462643383279502884L;
  std::vector<C> w(n);
  for (std::size_t j = 0; j < n; ++j)
    w[j] = std::polar(1.0L, -2 * pi * static_cast<long double>(j) / static_cast<long double>(n));
  double worst = 0, largest = 0;
  for (std::size_t b : {std::size_t{0}, batch - 1}) {
    const std::size_t bins = n <= 8192 ? n : 512;
    for (std::size_t i = 0; i < bins; ++i) {
      const std::size_t k = n <= 8192 ? i : i * 7919 % n;
      C sum = 0;
      for (std::size_t j = 0; j < n; ++j) {
        const std::complex<Real>& x = in[b * n + j];
        sum += C(x.real(), x.imag()) * w[(j * k) % n];
      }
      const std::complex<Real>& got = out[b * n + k];
      worst = std::fmax(worst, static_cast<double>(std::abs(sum - C(got.real(), got.imag()))));
      largest = std::fmax(largest, static_cast<double>(std::abs(sum)));
    }
  }
  // Relative to the largest output: an FFT's error grows with the norm of the whole vector.
  const double error = worst / largest;
  const bool ok = error <= tolerance<Real>();
  std::printf("%.*s: %zu x %zu-point FFT, max error %.3g of the largest output (tolerance %.0e): %s\n",
              static_cast<int>(name.size()), name.data(), batch, n, error, tolerance<Real>(),
              ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}

}  // namespace dft_check
