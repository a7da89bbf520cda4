// Helpers shared by the CUDA backend tests: scratch directories, small kernels, GPU skipping.
// GPU tests are named Gpu* and skip (never fail) where there is no driver or device.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <string>

#include "backends/cuda/device.h"
#include "backends/cuda/driver_api.h"

namespace fftc::backends::cuda::testing {

// A fresh directory, removed with everything in it at the end of the scope.
class ScratchDirectory {
 public:
  ScratchDirectory() {
    static std::atomic<int> counter{0};
    path_ = std::filesystem::temp_directory_path() /
            ("fftc-cuda-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  ScratchDirectory(const ScratchDirectory&) = delete;
  ScratchDirectory& operator=(const ScratchDirectory&) = delete;
  ~ScratchDirectory() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// extern "C" so the kernel keeps its name in the module.
inline constexpr const char* kVectorAddSource = R"(
extern "C" __global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
)";

// Whether GPU tests can run here; `why` says what is missing.
inline bool gpuAvailable(std::string* why) {
  if (!DriverApi::available(why)) return false;
  if (deviceCount() == 0) {
    *why = "the driver reports no devices";
    return false;
  }
  return true;
}

}  // namespace fftc::backends::cuda::testing

#define FFTC_REQUIRE_GPU()                                                   \
  do {                                                                       \
    std::string fftc_gpu_missing;                                            \
    if (!::fftc::backends::cuda::testing::gpuAvailable(&fftc_gpu_missing)) { \
      GTEST_SKIP() << "no CUDA device: " << fftc_gpu_missing;                \
    }                                                                        \
  } while (false)
