// The FFT cost function (fft_cost.h): measure through an executor, check against FFTW, time.
#include "fftlib/tune/fft_cost.h"

#include <algorithm>
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

// One execution and the timed ones on the same buffers (run_checked.h), on either runtime.
template <typename T, typename PlanT, typename ContextT>
Measurement measureAs(const PlanT& plan, const ContextT& context, std::span<const double> input,
                      std::size_t warmup, std::size_t repeats) {
  Measurement m;
  std::tie(m.output, m.timesMs) = runAndTime<T>(plan, context, input, warmup, repeats);
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

Measurement OpenClExecutor::measure(const FftRequest& request, std::span<const double> input,
                                    std::size_t warmup, std::size_t repeats) {
  const Plan plan = Plan::create(*context_, request);
  Measurement m = request.precision == Precision::F64
                      ? measureAs<double>(plan, *context_, input, warmup, repeats)
                      : measureAs<float>(plan, *context_, input, warmup, repeats);
  m.plan = planFft(request);  // the in-process cache's entry: outlives the Plan
  return m;
}

#ifdef FFTC_HAVE_CUDA
namespace cu = backends::cuda;

CudaExecutor::CudaExecutor(const cu::Context& context) : context_(&context) {
  const int v = cu::listDevices().driverVersion;
  identity_ = {context.device().name, fmt::format("CUDA driver {}.{} / {}", v / 1000,
                                                  v % 1000 / 10, context.arch())};
}

DeviceLimits CudaExecutor::limits() const {
  DeviceLimits l;
  const auto& d = context_->device();
  l.maxWorkGroupSize = d.maxThreadsPerBlock;
  l.localMemBytes = static_cast<std::int64_t>(d.sharedMemoryPerBlock);
  if (d.maxRegistersPerBlock > 0) l.registersPerGroup = d.maxRegistersPerBlock;
  return l;
}

Measurement CudaExecutor::measure(const FftRequest& request, std::span<const double> input,
                                  std::size_t warmup, std::size_t repeats) {
  const CudaPlan plan = CudaPlan::create(*context_, request);
  Measurement m = request.precision == Precision::F64
                      ? measureAs<double>(plan, *context_, input, warmup, repeats)
                      : measureAs<float>(plan, *context_, input, warmup, repeats);
  m.plan = planFft(request);
  return m;
}
#endif

FftCost::FftCost(const FftRequest& problem, FftExecutor& executor, CostOptions options)
    : executor_(&executor),
      options_(options),
      check_(makeCheck(problem, options.seed, options.checkElements)) {}

tuner::Result FftCost::operator()(const FftRequest& request) const {
  Measurement m;
  try {
    m = executor_->measure(request, check_.input, options_.warmup, options_.repeats);
  } catch (const backends::UserError& e) {
    return tuner::Result::invalid("rejected: " + firstLine(e.what()));
  } catch (const ir::CompileError& e) {
    return tuner::Result::invalid("does not compile: " + firstLine(e.what()));
  } catch (const backends::DeviceError& e) {
    return tuner::Result::invalid("device error: " + firstLine(e.what()));
  }
  if (m.output.size() != check_.outputScalars)
    return tuner::Result::invalid(fmt::format("wrong answer: {} output scalars, expected {}",
                                              m.output.size(), check_.outputScalars));
  const FftErrors e = compareOutput(check_, m.output, true);
  boost::json::object extra;
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
