// The FFT cost function (fft_cost.h): measure through an executor, check against FFTW, time.
#include "fftlib/tune/fft_cost.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/run_checked.h"
#ifdef FFTC_HAVE_CUDA
#include "fftlib/plan/cuda_plan.h"
#endif
#include "ir/diagnostic.h"

namespace fftc::fftlib::tune {
namespace {

namespace cl = backends::opencl;

std::string firstLine(std::string s) {
  if (auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

std::size_t bytesOf(const cl::Buffer& b) { return b.bytes(); }
#ifdef FFTC_HAVE_CUDA
std::size_t bytesOf(const backends::cuda::DeviceBuffer& b) { return b.size(); }
#endif

// The plan on the kept buffers (KeptBuffers): the input uploaded unless it is there, the output
// set to NaN, one execution read back, then the timed ones (run_checked.h's steps).
template <typename T, typename PlanT, typename ContextT, typename BufferT>
void runOn(const PlanT& plan, const ContextT& context, KeptBuffers<BufferT>& kept,
           const MeasureInput& input, std::size_t warmup, std::size_t repeats, Measurement& m) {
  auto start = Clock::now();
  constexpr bool f64 = std::is_same_v<T, double>;
  if (!kept.in || kept.inputId != input.id || kept.f64 != f64) {
    kept.in.reset();
    kept.in.emplace(uploadAs<T>(context, input.scalars));
    kept.inputId = input.id;
    kept.f64 = f64;
  }
  if (!kept.out || bytesOf(*kept.out) != plan.outputBytes()) {
    kept.out.reset();
    kept.out.emplace(allocate(context, plan.outputBytes()));
  }
  m.outputScalars = plan.outputBytes() / sizeof(T);
  m.output = executeFromNaN<T>(plan, context, *kept.in, *kept.out,
                               std::min(input.readScalars, m.outputScalars));
  m.runSeconds = secondsSince(start);
  start = Clock::now();
  m.timesMs = plan.time(*kept.in, *kept.out, warmup, repeats);
  m.timeSeconds = secondsSince(start);
}

// Both executors' measure: PlanT (Plan or CudaPlan) created on the context, then runOn.
template <typename PlanT, typename ContextT, typename BufferT>
Measurement measureWith(const ContextT& context, KeptBuffers<BufferT>& kept,
                        const FftRequest& request, const MeasureInput& input, std::size_t warmup,
                        std::size_t repeats) {
  Measurement m;
  const auto start = Clock::now();
  const PlanT plan = PlanT::create(context, request);
  m.planSeconds = secondsSince(start);
  if (request.precision == Precision::F64)
    runOn<double>(plan, context, kept, input, warmup, repeats, m);
  else
    runOn<float>(plan, context, kept, input, warmup, repeats, m);
  m.plan = planFft(request);  // the in-process cache's entry: outlives the Plan
  return m;
}

}  // namespace

DeviceIdentity openClIdentity(const cl::DeviceInfo& d) {
  return {d.name, fmt::format("OpenCL: {} / {} / driver {}", d.platformName, d.platformVersion,
                              d.driverVersion)};
}

DeviceIdentity OpenClExecutor::identity() const { return openClIdentity(context_->device()); }

DeviceLimits OpenClExecutor::limits() const {
  DeviceLimits l;
  l.maxWorkGroupSize = static_cast<std::int64_t>(context_->device().maxWorkGroupSize);
  l.localMemBytes = static_cast<std::int64_t>(context_->device().localMemBytes);
  return l;
}

Measurement OpenClExecutor::measure(const FftRequest& request, const MeasureInput& input,
                                    std::size_t warmup, std::size_t repeats) {
  return measureWith<Plan>(*context_, buffers_, request, input, warmup, repeats);
}

#ifdef FFTC_HAVE_CUDA
namespace cu = backends::cuda;

DeviceIdentity cudaIdentity(const cu::Context& context) {
  const int v = cu::listDevices().driverVersion;
  return {context.device().name,
          fmt::format("CUDA driver {}.{} / {}", v / 1000, v % 1000 / 10, context.arch())};
}

CudaExecutor::CudaExecutor(const cu::Context& context)
    : context_(&context), identity_(cudaIdentity(context)) {}

DeviceLimits CudaExecutor::limits() const {
  DeviceLimits l;
  const auto& d = context_->device();
  l.maxWorkGroupSize = d.maxThreadsPerBlock;
  l.plan = cudaPlanLimits(d);
  l.localMemBytes = l.plan.localMemoryBytes;
  if (d.maxRegistersPerBlock > 0) l.registersPerGroup = d.maxRegistersPerBlock;
  return l;
}

Measurement CudaExecutor::measure(const FftRequest& request, const MeasureInput& input,
                                  std::size_t warmup, std::size_t repeats) {
  return measureWith<CudaPlan>(*context_, buffers_, request, input, warmup, repeats);
}
#endif

std::uint64_t newMeasureInputId() {
  static std::atomic<std::uint64_t> next{1};
  return next++;
}

FftCost::FftCost(const FftRequest& problem, FftExecutor& executor, CostOptions options)
    : executor_(&executor),
      options_(options),
      check_(makeCheck(problem, options.seed, options.checkElements)),
      inputId_(newMeasureInputId()) {}

tuner::Result FftCost::operator()(const FftRequest& request) const {
  Measurement m;
  try {
    m = executor_->measure(request, {check_.input, inputId_, check_.reference.size()},
                           options_.warmup, options_.repeats);
  } catch (const backends::UserError& e) {
    return tuner::Result::invalid("rejected: " + firstLine(e.what()));
  } catch (const ir::CompileError& e) {
    return tuner::Result::invalid("does not compile: " + firstLine(e.what()));
  } catch (const backends::DeviceError& e) {
    return tuner::Result::invalid("device error: " + firstLine(e.what()));
  }
  if (m.outputScalars != check_.outputScalars)
    return tuner::Result::invalid(fmt::format("wrong answer: {} output scalars, expected {}",
                                              m.outputScalars, check_.outputScalars));
  const auto start = Clock::now();
  const FftErrors e = compareOutput(check_, m.output, true);
  boost::json::object extra;
  extra["plan_s"] = m.planSeconds;
  extra["run_s"] = m.runSeconds;
  extra["time_s"] = m.timeSeconds;
  extra["check_s"] = secondsSince(start);
  extra["linf_error"] = e.linf;
  extra["l2_error"] = e.l2;
  if (!(e.linf <= check_.tolerance))  // NaN fails too
    return tuner::Result::invalid(
        fmt::format("wrong answer: linf_error {:.3g} above the tolerance {:.3g}", e.linf,
                    check_.tolerance),
        extra);
  if (e.holesWritten > 0)
    return tuner::Result::invalid(
        fmt::format("wrong answer: {} elements outside the output layout written",
                    e.holesWritten),
        extra);
  if (m.timesMs.empty()) return tuner::Result::invalid("no timed run", extra);
  const double ms = median(m.timesMs);
  if (!(ms > 0) || !std::isfinite(ms))
    return tuner::Result::invalid(fmt::format("time {} ms is not a positive time", ms), extra);
  if (m.plan) {
    const double s = ms * 1e-3;
    extra["gbps"] = static_cast<double>(m.plan->bytesMoved) / s * 1e-9;
    extra["gflops"] = m.plan->flopsPerBatch() / s * 1e-9;
    extra["stages"] = m.plan->stages.size();
    extra["strategy"] = m.plan->strategy;
  }
  return tuner::Result::valid(ms, extra);
}

}  // namespace fftc::fftlib::tune
