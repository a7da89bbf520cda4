// The public FFT API of fftc, in the style of FFTW and cuFFT: plan once, execute many times.
//
//   namespace cl = fftc::backends::opencl;
//   cl::Context context = cl::Context::fromSelector("");      // the default device
//   fftc::fftlib::FftRequest request;
//   request.size = 1024;  request.batch = 8;                  // f32, forward, auto
//   fftc::fftlib::Plan plan = fftc::fftlib::Plan::create(context, request);
//   cl::Buffer in = cl::Buffer(context, plan.bufferBytes()), out = ...;
//   plan.execute(in, out);                                    // out-of-place, blocking
//   plan.execute(out);                                        // in place
//   std::vector<std::complex<float>> y = plan.run(hostInput); // host convenience
//
// Layout: `batch` transforms of `size` contiguous complex elements each (float2 or double2,
// i.e. std::complex<float> / std::complex<double>), transform b at elements [b*N, (b+1)*N);
// FftRequest::inLayout / outLayout give FFTW's advanced layouts (embed, stride, dist).
// Errors: backends::UserError for requests the planner rejects (N < 1, batch < 1, radices whose
// product is not N, an unknown variant name, f64 on a device without doubles, buffers too
// small, a host vector of the wrong length or precision); backends::DeviceError for driver
// failures. A Plan is not thread-safe (its kernels' arguments are set at each execution);
// the Context must outlive it.
#pragma once

#include <complex>
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "backends/opencl/runtime.h"
#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

// The device programs of a compiled kernel: when its stages have sources of their own
// (StageInfo::source, a module of several kernels) and more than one thread may build
// (buildThreads), one program per stage, built concurrently (buildConcurrently: issue 21),
// program i holding stage i's kernel; else the one program of CompiledKernel::source. Each
// build goes through the context's binary cache.
[[nodiscard]] std::vector<backends::opencl::Program> buildStagePrograms(
    const backends::opencl::Context& context, const compiler::codegen::CompiledKernel& kernel);

class Plan {
 public:
  // Plans (planFft: heuristics, compilation, in-process cache), checks the device, builds the
  // program (OpenCL binary cache), uploads the tables and allocates the temporaries.
  // Target::OpenCL only (CUDA plans: CudaPlan, cuda_plan.h).
  [[nodiscard]] static Plan create(const backends::opencl::Context& context,
                                   const FftRequest& request);

  [[nodiscard]] const CompiledFft& info() const;
  [[nodiscard]] const FftRequest& request() const { return info().request; }
  // batch x N, and that many complex elements in bytes: the size of an input or output buffer.
  [[nodiscard]] std::size_t elements() const;
  [[nodiscard]] std::size_t bufferBytes() const;
  // The input and output buffers' bytes: bufferBytes() for complex plans; for real ones
  // (FftRequest::real) the reals and the half spectrum.
  [[nodiscard]] std::size_t inputBytes() const;
  [[nodiscard]] std::size_t outputBytes() const;

  // Out-of-place: reads `in` (left unchanged), writes `out`; blocks until done.
  void execute(const backends::opencl::Buffer& in, backends::opencl::Buffer& out) const;
  // In place. When the input is read up before the output is written (info().inPlaceSafe)
  // the buffer is passed as both; otherwise the input is first copied to a scratch buffer of
  // the plan (one extra device copy) and the plan reads that.
  void execute(backends::opencl::Buffer& inout) const;
  // Enqueues the stages on the context's queue without waiting; their profiling events.
  std::vector<backends::opencl::Event> enqueue(const backends::opencl::Buffer& in,
                                               backends::opencl::Buffer& out) const;
  // `warmup` untimed executions, then `repeats` timed ones: one time per execution in ms
  // (profiling events, first stage's start to last stage's end).
  [[nodiscard]] std::vector<double> time(const backends::opencl::Buffer& in,
                                         backends::opencl::Buffer& out, std::size_t warmup,
                                         std::size_t repeats) const;

  // Host convenience: uploads `input` (elements() values; with an advanced layout the input
  // buffer's inputBytes()), executes, downloads (the output buffer, holes zero). T must be
  // float for f32 plans and double for f64 plans.
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

  // Host convenience for real plans: R2C (batch x N reals -> the half spectrum) and C2R (the
  // reverse). T must be float for f32 plans and double for f64 plans.
  template <typename T>
  [[nodiscard]] std::vector<std::complex<T>> runR2c(std::span<const T> input) const {
    checkReal(sizeof(T), true, input.size() * sizeof(T));
    std::vector<std::complex<T>> out(outputBytes() / sizeof(std::complex<T>));
    runBytes(input.data(), out.data());
    return out;
  }
  template <typename T>
  [[nodiscard]] std::vector<T> runC2r(std::span<const std::complex<T>> input) const {
    checkReal(sizeof(T), false, input.size() * sizeof(input[0]));
    std::vector<T> out(outputBytes() / sizeof(T));
    runBytes(input.data(), out.data());
    return out;
  }

  struct Impl;

 private:
  explicit Plan(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  void checkHost(std::size_t realBytes, std::size_t count) const;
  void checkReal(std::size_t realBytes, bool r2c, std::size_t inputBytes) const;
  void runBytes(const void* in, void* out) const;
  std::shared_ptr<Impl> impl_;
};

}  // namespace fftc::fftlib
