// One plan of the C API (fftc/fftc.h): a request planned on the current device (with the
// wisdom, and FFTC_MEASURE's brief tuning), the host arrays it was made for, and the device
// buffers that host execution copies through; plus its instances on callers' OpenCL queues.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include "fftlib/capi/capi_state.h"
#include "fftlib/plan/fft_api.h"
#ifdef FFTC_HAVE_CUDA
#include "fftlib/plan/cuda_plan.h"
#endif

struct CUstream_st;

namespace fftc::fftlib::capi {

// The planner flags of fftc.h (FFTW's values).
inline constexpr unsigned kMeasure = 0;
inline constexpr unsigned kDestroyInput = 1U << 0;
inline constexpr unsigned kPreserveInput = 1U << 4;
inline constexpr unsigned kEstimate = 1U << 6;
inline constexpr unsigned kWisdomOnly = 1U << 21;

// FFTC_MEASURE's budget: $FFTC_MEASURE_SECONDS, else 10 s (docs/c-api.md).
inline constexpr double kMeasureSeconds = 10;

class CPlan {
 public:
  enum class Kind : std::uint8_t { C2C, R2C, C2R };

  // Plans `request` (its target set to the current device's) for the arrays `in` and `out`
  // (either may be NULL: then only the execute_dft calls on new arrays run it).
  // UserError: a bad flag, FFTC_WISDOM_ONLY without an entry, what the planner refuses.
  CPlan(FftRequest request, void* in, void* out, unsigned flags);
  CPlan(const CPlan&) = delete;
  CPlan& operator=(const CPlan&) = delete;
  ~CPlan();

  [[nodiscard]] Kind kind() const;
  [[nodiscard]] Precision precision() const { return request_.precision; }

  // Host arrays: `in` is read (inputBytes from it), `out` written; in == out is in place. An
  // output layout's holes keep their values, as with FFTW.
  void executeHost(const void* in, void* out);
  // The arrays the plan was made for; UserError when they were NULL.
  void execute();
  // OpenCL buffers on the caller's queue (in order), enqueued without waiting.
  void executeCl(cl_mem in, cl_mem out, cl_command_queue queue);
  // CUDA device pointers on the caller's stream (null: the default stream), launched without
  // waiting. The plan's temporaries are shared: executions must not overlap in time.
  void executeCuda(void* in, void* out, CUstream_st* stream);

 private:
  struct QueuePlan;

  std::shared_ptr<const Device> device_;
  FftRequest request_;  // as planned: tuned when the wisdom had an entry
  void* in_;
  void* out_;
  std::mutex mutex_;  // host executions share the device buffers
  std::optional<Plan> clPlan_;
  std::optional<backends::opencl::Buffer> clIn_, clOut_;
  std::map<cl_command_queue, std::unique_ptr<QueuePlan>> queues_;
#ifdef FFTC_HAVE_CUDA
  std::optional<CudaPlan> cudaPlan_;
  std::optional<backends::cuda::DeviceBuffer> cudaIn_, cudaOut_;
  std::optional<backends::cuda::DeviceBuffer> cudaScratch_;  // in place on device pointers
#endif
};

}  // namespace fftc::fftlib::capi
