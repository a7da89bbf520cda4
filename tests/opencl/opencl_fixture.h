// Shared by the OpenCL runtime tests: one context on the default device (PoCL on machines
// without a GPU) for the whole executable, since PoCL compiles every program with LLVM.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "backends/opencl/runtime.h"

namespace fftc::backends::opencl::testing {

// The default device's context, built once, with the binary cache off so that tests neither
// read nor write the user's cache.
inline Context& sharedContext() {
  static Context context = [] {
    Context c = Context::fromSelector("");
    c.setCache(nullptr);
    return c;
  }();
  return context;
}

// A fresh, empty directory under the system temporary directory, removed on destruction.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("fftc-opencl-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
    std::filesystem::remove_all(path_);
    std::filesystem::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

inline constexpr const char* kVectorAddSource = R"CL(
__kernel void vadd(__global const float* a, __global const float* b, __global float* c, int n) {
  int i = get_global_id(0);
  if (i < n) {
    c[i] = a[i] + b[i];
  }
}
)CL";

}  // namespace fftc::backends::opencl::testing
