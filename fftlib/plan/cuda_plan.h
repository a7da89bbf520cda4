// The public FFT API on CUDA: a compiled FFT plan bound to a CUDA context, in the style of the
// OpenCL Plan (fft_api.h): plan once, execute many times on device buffers.
//
//   namespace cu = fftc::backends::cuda;
//   cu::Context context = cu::Context::open("cuda:0");        // DeviceError without a driver
//   fftc::fftlib::FftRequest request;
//   request.size = 1024;  request.batch = 8;
//   request.target = fftc::compiler::pipeline::Target::Cuda;
//   fftc::fftlib::CudaPlan plan = fftc::fftlib::CudaPlan::create(context, request);
//   cu::DeviceBuffer in = context.allocate(plan.bufferBytes()), out = ...;
//   plan.execute(in, out);                                    // out-of-place, blocking
//   plan.execute(out);                                        // in place
//   std::vector<double> ms = plan.time(in, out, 5, 20);       // CUDA events
//   std::vector<std::complex<float>> y = plan.run(hostInput); // host convenience
//
// Layout, errors and in-place semantics are those of fft_api.h. Kernels are compiled by NVRTC
// for the context's device through the CUBIN cache; launches go to the default stream. A
// CudaPlan is not thread-safe in the sense that it shares its temporaries between executions;
// the Context must outlive it.
#pragma once

#ifdef FFTC_HAVE_CUDA

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/context.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "backends/cuda/timing.h"
#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

// The limits CudaPlan::create plans under on `device` (planFft's argument): the shared memory
// a block may opt into (H100: 227 KiB) for a request whose localMemoryBytes is 0, so that one
// transform of up to 8192 f32 or 4096 f64 elements runs in one kernel (dynamic shared memory
// above 48 KiB).
PlanLimits cudaPlanLimits(const backends::cuda::DeviceInfo& device);

// NVRTC's programs of a compiled kernel for `arch`: when its stages have sources of their own
// (StageInfo::source) and more than one thread may compile (buildThreads), one per stage,
// compiled concurrently (buildConcurrently: issue 21), program i holding stage i's kernel;
// else the one program of CompiledKernel::source. Each compile goes through the CUBIN cache.
[[nodiscard]] std::vector<backends::cuda::CompiledProgram> compileStagePrograms(
    const compiler::codegen::CompiledKernel& kernel,
    const std::string& arch = std::string(backends::cuda::kDefaultArch));

class CudaPlan {
 public:
  // Plans the request under cudaPlanLimits(device) (planFft), checks the device (shared memory
  // per block), compiles with NVRTC for the device's architecture, loads the module, uploads
  // the tables and allocates the temporaries. UserError unless request.target is Target::Cuda.
  // A one-array kernel (PlanChoice::localReuseInPass) the heuristics chose whose passes ptxas
  // could not keep in registers (over 512 bytes of spills and stack a thread: the driver's
  // CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) is replaced by the hierarchical plan, where there is
  // one (docs/fft-api.md, rule 4).
  [[nodiscard]] static CudaPlan create(const backends::cuda::Context& context,
                                       const FftRequest& request);

  [[nodiscard]] const CompiledFft& info() const;
  [[nodiscard]] const FftRequest& request() const { return info().request; }
  [[nodiscard]] std::size_t elements() const;
  [[nodiscard]] std::size_t bufferBytes() const;
  // The input and output buffers' bytes (bufferBytes() but for advanced layouts).
  [[nodiscard]] std::size_t inputBytes() const;
  [[nodiscard]] std::size_t outputBytes() const;

  // Out-of-place: reads `in` (left unchanged), writes `out`; blocks until done (DeviceError
  // reports a kernel that failed).
  void execute(const backends::cuda::DeviceBuffer& in, backends::cuda::DeviceBuffer& out) const;
  // In place: one buffer as both when info().inPlaceSafe, else the input is first copied to a
  // scratch buffer of the plan (device to device) and the plan reads that.
  void execute(backends::cuda::DeviceBuffer& inout) const;
  // Enqueues the stages on the default stream without waiting.
  void enqueue(const backends::cuda::DeviceBuffer& in, backends::cuda::DeviceBuffer& out) const;
  // The launches of one execution (kernels, grids, arguments bound to `in` and `out`): what
  // enqueue() runs, for callers that time or interleave them themselves.
  [[nodiscard]] std::vector<backends::cuda::Launch> launches(
      const backends::cuda::DeviceBuffer& in, backends::cuda::DeviceBuffer& out) const;
  // `warmup` untimed executions, then `repeats` timed ones: one time per execution in ms
  // (CUDA events around each execution: first stage's start to last stage's end).
  [[nodiscard]] std::vector<double> time(const backends::cuda::DeviceBuffer& in,
                                         backends::cuda::DeviceBuffer& out, std::size_t warmup,
                                         std::size_t repeats) const;

  // Host convenience: uploads `input` (elements() values; with an advanced layout the input
  // buffer's), executes, downloads (the output buffer, holes zero). T must be float for f32
  // plans and double for f64 plans.
  template <typename T>
  [[nodiscard]] std::vector<std::complex<T>> run(std::span<const std::complex<T>> input) const {
    checkHost(sizeof(T), input.size());
    std::vector<std::complex<T>> out(outputBytes() / sizeof(std::complex<T>));
    runBytes(input.data(), out.data());
    return out;
  }
  template <typename T>
  [[nodiscard]] std::vector<std::complex<T>> run(const std::vector<std::complex<T>>& input) const {
    return run(std::span<const std::complex<T>>(input));
  }

  struct Impl;

 private:
  explicit CudaPlan(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  // create without the one-array check: the request's plan as the heuristics choose it.
  static CudaPlan createAsPlanned(const backends::cuda::Context& context,
                                  const FftRequest& request);
  void checkHost(std::size_t realBytes, std::size_t count) const;
  void runBytes(const void* in, void* out) const;
  std::shared_ptr<Impl> impl_;
};

}  // namespace fftc::fftlib

#endif  // FFTC_HAVE_CUDA
