// The cost of one FFT configuration for the tuner: plan and compile through the normal planner,
// run on the device, check against FFTW (fftTolerance), time with profiling events (median of
// `repeats` after `warmup`, PERFORMANCE.md). Anything that fails is invalid, never fast.
//
//   OpenClExecutor device(context);
//   FftCost cost(request, device, {.warmup = 5, .repeats = 20});
//   tuner::Result r = cost(space.request(config));   // valid(ms, extra) or invalid(reason)
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "backends/opencl/runtime.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif
#include "fftlib/plan/fft_check.h"
#include "fftlib/plan/planner.h"
#include "fftlib/tune/fft_space.h"
#include "tuner/cost_function.h"

namespace fftc::fftlib::tune {

// The device a plan runs on, as wisdom and tuning logs record it.
struct DeviceIdentity {
  std::string device;  // e.g. "NVIDIA H200"
  std::string driver;  // platform, its version and the driver version
};

// What every measurement of one problem runs on.
struct MeasureInput {
  // the input buffer's scalars, exact in the request's precision (fft_check.h)
  std::span<const double> scalars;
  // equal ids: equal scalars (an executor may keep them on the device from one measurement to
  // the next); newMeasureInputId() gives a fresh one
  std::uint64_t id = 0;
  // the output buffer's first scalars to read back after the first execution: the checked ones
  std::size_t readScalars = 0;
};
std::uint64_t newMeasureInputId();

// One run of a plan: the output of its first execution, the times of the timed ones, and
// where the evaluation's wall time went (as Kernel Tuner reports compile, verification and
// benchmark times).
struct Measurement {
  std::shared_ptr<const CompiledFft> plan;
  // the output buffer's first MeasureInput::readScalars scalars (complex values as re, im),
  // converted from the plan's precision; it started as NaN, so elements outside an output
  // layout read NaN unless written
  std::vector<double> output;
  std::size_t outputScalars = 0;  // the whole output buffer's scalars
  std::vector<double> timesMs;
  double planSeconds = 0;   // planning, code generation and the device compiler
  double runSeconds = 0;    // uploads, the first execution and the read-back
  double timeSeconds = 0;   // the warm-up and timed executions
};

// Where the tuner runs plans: OpenCL (OpenClExecutor) or CUDA (CudaExecutor); a test's fake
// device implements the same three functions.
class FftExecutor {
 public:
  virtual ~FftExecutor() = default;
  virtual DeviceIdentity identity() const = 0;
  virtual DeviceLimits limits() const = 0;
  // Plans and builds `request`, executes it once on `input`, then `warmup` untimed and
  // `repeats` timed executions. Throws what the planner, the compiler and the runtime throw
  // (UserError, CompileError, DeviceError).
  virtual Measurement measure(const FftRequest& request, const MeasureInput& input,
                              std::size_t warmup, std::size_t repeats) = 0;
};

// The device buffers an executor keeps between measurements: every configuration of a problem
// runs on the same input, so it is converted and uploaded once per input id and precision,
// and the output buffer is reused while its size holds (set to NaN on the device each time).
template <typename BufferT>
struct KeptBuffers {
  std::uint64_t inputId = 0;
  bool f64 = false;
  std::optional<BufferT> in, out;
};

// OpenCL through fftlib::Plan (fft_api.h).
class OpenClExecutor : public FftExecutor {
 public:
  explicit OpenClExecutor(const backends::opencl::Context& context) : context_(&context) {}
  DeviceIdentity identity() const override;
  DeviceLimits limits() const override;
  Measurement measure(const FftRequest& request, const MeasureInput& input, std::size_t warmup,
                      std::size_t repeats) override;

 private:
  const backends::opencl::Context* context_;
  KeptBuffers<backends::opencl::Buffer> buffers_;
};

DeviceIdentity openClIdentity(const backends::opencl::DeviceInfo& device);

#ifdef FFTC_HAVE_CUDA
DeviceIdentity cudaIdentity(const backends::cuda::Context& context);

// CUDA through fftlib::CudaPlan (cuda_plan.h): requests must have target Cuda.
class CudaExecutor : public FftExecutor {
 public:
  explicit CudaExecutor(const backends::cuda::Context& context);
  DeviceIdentity identity() const override { return identity_; }
  DeviceLimits limits() const override;
  Measurement measure(const FftRequest& request, const MeasureInput& input, std::size_t warmup,
                      std::size_t repeats) override;

 private:
  const backends::cuda::Context* context_;
  DeviceIdentity identity_;
  KeptBuffers<backends::cuda::DeviceBuffer> buffers_;
};
#endif

struct CostOptions {
  std::size_t warmup = 5;
  std::size_t repeats = 20;
  std::uint64_t seed = 1;  // of the uniform inputs (CLI.md), as fftc run --seed
  // The answer is checked on the batch's first transforms of at most this many elements (at
  // least one transform; dense layouts), as bench/fft_bench checks its rows: FFTW in long
  // double on the 2^26 elements of a benchmark batch took longer than a short search.
  std::size_t checkElements = std::size_t{1} << 18;
};

// A tuner cost for requests of one problem (size, dims, batch, precision, direction, scale,
// real, layouts): the input and its FFTW reference are computed once (fft_check.h); a
// configuration whose answer is wrong or that writes outside the output layout is invalid.
// The cost is the median time in ms; `extra` holds gbps, gflops, linf_error, l2_error, stages,
// the strategy that lowered the plan, and the evaluation's seconds spent planning and
// compiling (plan_s), running and reading back the checked run (run_s), timing (time_s) and
// comparing with FFTW (check_s).
class FftCost {
 public:
  FftCost(const FftRequest& problem, FftExecutor& executor, CostOptions options = {});
  tuner::Result operator()(const FftRequest& request) const;
  double tolerance() const { return check_.tolerance; }

 private:
  FftExecutor* executor_;
  CostOptions options_;
  FftCheck check_;
  std::uint64_t inputId_;
};

}  // namespace fftc::fftlib::tune
