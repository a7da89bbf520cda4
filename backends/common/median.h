// The median that PERFORMANCE.md reports for repeated timings, shared by every program that
// times kernels on either runtime: fftc run, fft_bench and the tuner (fftlib/plan/device_io.h)
// and fftc exec --repeat (compiler/exec).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace fftc::backends {

// The median of `v` (0 for none).
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace fftc::backends
