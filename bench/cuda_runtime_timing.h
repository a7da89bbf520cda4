// The CUDA runtime API as the benchmarks use it beside fftc (cuFFT and its pipelines):
// failures as DeviceErrors, and a whole piece of work timed with events, PERFORMANCE.md's way.
#pragma once

#include <cuda_runtime.h>
#include <cufft.h>

#include <fmt/format.h>

#include <cstddef>
#include <functional>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/common/median.h"

namespace fftc::bench {

inline void checkCuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw backends::DeviceError(fmt::format("{}: {}", what, cudaGetErrorString(e)));
}
inline void checkCufft(cufftResult r, const char* what) {
  if (r != CUFFT_SUCCESS)
    throw backends::DeviceError(fmt::format("{}: cufftResult {}", what, static_cast<int>(r)));
}

// Times `work` on the default stream with CUDA events: `warmup` untimed, then `repeat` timed,
// recorded back to back and synchronized once; the median in ms.
inline double timeWithEvents(const std::function<void()>& work, int warmup, int repeat) {
  for (int i = 0; i < warmup; ++i) work();
  const auto runs = static_cast<std::size_t>(repeat);
  std::vector<cudaEvent_t> ev(2 * runs);
  for (auto& e : ev) checkCuda(cudaEventCreate(&e), "cudaEventCreate");
  for (std::size_t i = 0; i < runs; ++i) {
    checkCuda(cudaEventRecord(ev[2 * i], nullptr), "cudaEventRecord");
    work();
    checkCuda(cudaEventRecord(ev[2 * i + 1], nullptr), "cudaEventRecord");
  }
  checkCuda(cudaEventSynchronize(ev.back()), "cudaEventSynchronize");
  std::vector<double> ms;
  for (std::size_t i = 0; i < runs; ++i) {
    float t = 0;
    checkCuda(cudaEventElapsedTime(&t, ev[2 * i], ev[2 * i + 1]), "cudaEventElapsedTime");
    ms.push_back(t);
  }
  for (auto& e : ev) cudaEventDestroy(e);
  return backends::median(ms);
}

}  // namespace fftc::bench
