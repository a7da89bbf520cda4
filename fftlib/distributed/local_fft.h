// The local transforms of a distributed FFT: an fftc plan (planned, compiled and cached like any
// other) on this rank's device, run host to host, for OpenCL (PoCL here) and CUDA.
#pragma once

#include <functional>
#include <memory>

#include "backends/opencl/runtime.h"
#include "fftlib/plan/planner.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif

namespace fftc::distributed {

class LocalFft {
 public:
  virtual ~LocalFft() = default;
  // Uploads the request's input buffer (inputBytes) from `in`, executes, downloads the output
  // buffer (outputBytes) to `out`. The plan's first version stages every exchange through the
  // host, so each stage's transform starts and ends there.
  virtual void execute(const void* in, void* out) = 0;
};

// Makes the local transform of a request (its dims, batch and layouts set by the plan).
using LocalFftFactory = std::function<std::unique_ptr<LocalFft>(const fftlib::FftRequest&)>;

// fftlib::Plan on `context` (the request's target set to OpenCL); the context must outlive
// the plans.
LocalFftFactory openClLocalFft(const backends::opencl::Context& context);
#ifdef FFTC_HAVE_CUDA
// fftlib::CudaPlan on `context` (target CUDA).
LocalFftFactory cudaLocalFft(const backends::cuda::Context& context);
#endif

}  // namespace fftc::distributed
