// The OpenCL device the plan tests run on: the default device's context (the first GPU, else
// the first device: PoCL without a GPU), opened once per test executable and never destroyed
// (PoCL tears down its own state at exit).
#pragma once

#include "backends/opencl/runtime.h"

namespace fftc::testing {

inline backends::opencl::Context& openclContext() {
  static auto* c = new backends::opencl::Context(backends::opencl::Context::fromSelector(""));
  return *c;
}

}  // namespace fftc::testing
