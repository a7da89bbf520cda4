// The FFT cost function (fft_cost.h): measure through an executor, check against FFTW, time.
#include "fftlib/tune/fft_cost.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_api.h"
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

// One execution (its output) and the timed ones, on either runtime (device_io.h).
template <typename T, typename PlanT, typename ContextT>
Measurement measureAs(const PlanT& plan, const ContextT& context,
                      std::span<const std::complex<double>> input, std::size_t warmup,
                      std::size_t repeats) {
  std::vector<std::complex<T>> x(input.size());
  std::transform(input.begin(), input.end(), x.begin(), [](const std::complex<double>& v) {
    return std::complex<T>(static_cast<T>(v.real()), static_cast<T>(v.imag()));
  });
  auto in = fftlib::upload(context, std::span<const std::complex<T>>(x));
  auto out = fftlib::allocate(context, plan.bufferBytes());
  plan.execute(in, out);
  fftlib::download(context, out, std::span<std::complex<T>>(x));
  Measurement m;
  m.output.resize(x.size());
  std::transform(x.begin(), x.end(), m.output.begin(), [](const std::complex<T>& v) {
    return std::complex<double>(v.real(), v.imag());
  });
  m.timesMs = plan.time(in, out, warmup, repeats);
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

Measurement OpenClExecutor::measure(const FftRequest& request,
                                    std::span<const std::complex<double>> input,
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

Measurement CudaExecutor::measure(const FftRequest& request,
                                  std::span<const std::complex<double>> input, std::size_t warmup,
                                  std::size_t repeats) {
  const CudaPlan plan = CudaPlan::create(*context_, request);
  Measurement m = request.precision == Precision::F64
                      ? measureAs<double>(plan, *context_, input, warmup, repeats)
                      : measureAs<float>(plan, *context_, input, warmup, repeats);
  m.plan = planFft(request);
  return m;
}
#endif

FftCost::FftCost(const FftRequest& problem, FftExecutor& executor, CostOptions options)
    : problem_(problem), executor_(&executor), options_(options) {
  const auto count = static_cast<std::size_t>(problem.size * problem.batch);
  if (problem.precision == Precision::F64) {
    input_ = uniformInput<double>(count, options_.seed);
  } else {
    auto x = uniformInput<float>(count, options_.seed);
    input_.assign(x.begin(), x.end());
  }
  reference_ = referenceDft1d(toLongDouble(std::span<const std::complex<double>>(input_)),
                              problem.size, problem.batch, problem.direction);
  if (problem.scale)
    for (auto& v : reference_) v /= static_cast<long double>(problem.size);
  tolerance_ = fftTolerance(problem.size, problem.precision);
}

tuner::Result FftCost::operator()(const FftRequest& request) const {
  Measurement m;
  try {
    m = executor_->measure(request, input_, options_.warmup, options_.repeats);
  } catch (const backends::UserError& e) {
    return tuner::Result::invalid("rejected: " + firstLine(e.what()));
  } catch (const ir::CompileError& e) {
    return tuner::Result::invalid("does not compile: " + firstLine(e.what()));
  } catch (const backends::DeviceError& e) {
    return tuner::Result::invalid("device error: " + firstLine(e.what()));
  }
  if (m.output.size() != reference_.size())
    return tuner::Result::invalid(fmt::format("wrong answer: {} output values, expected {}",
                                              m.output.size(), reference_.size()));
  const double linf = linfError(std::span<const std::complex<double>>(m.output), reference_);
  const double l2 = l2Error(std::span<const std::complex<double>>(m.output), reference_);
  boost::json::object extra;
  extra["linf_error"] = linf;
  extra["l2_error"] = l2;
  if (!(linf <= tolerance_))  // NaN fails too
    return tuner::Result::invalid(
        fmt::format("wrong answer: linf_error {:.3g} above the tolerance {:.3g}", linf,
                    tolerance_),
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
