// The CUDA device the gpu-labelled tests run on: device 0's context, opened once per test
// executable, or nullptr and why (no driver, no device). REQUIRE_CUDA(ctx) skips a test, with
// that reason, where there is none.
#pragma once

#ifdef FFTC_HAVE_CUDA

#include <exception>
#include <iostream>
#include <memory>
#include <string>

#include "backends/cuda/context.h"
#include "backends/cuda/driver_api.h"

namespace fftc::testing {

inline const backends::cuda::Context* cudaContext(std::string* why) {
  namespace cu = backends::cuda;
  static std::string reason;
  static std::unique_ptr<cu::Context> context = []() -> std::unique_ptr<cu::Context> {
    try {
      if (!cu::DriverApi::available(&reason)) return nullptr;
      if (cu::deviceCount() == 0) {
        reason = "the driver reports no devices";
        return nullptr;
      }
      auto c = std::make_unique<cu::Context>(0);
      std::cerr << "CUDA device: " << c->device().name << " (" << c->arch() << ")\n";
      return c;
    } catch (const std::exception& e) {
      reason = e.what();
      return nullptr;
    }
  }();
  *why = reason;
  return context.get();
}

}  // namespace fftc::testing

#define REQUIRE_CUDA(ctx)                                                              \
  std::string fftc_why;                                                                \
  const ::fftc::backends::cuda::Context* ctx = ::fftc::testing::cudaContext(&fftc_why); \
  if (!ctx) GTEST_SKIP() << "no CUDA device: " << fftc_why

#endif  // FFTC_HAVE_CUDA
