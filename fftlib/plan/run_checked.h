// One (checked) execution of a plan on either runtime (Plan with an OpenCL context, CudaPlan with
// a CUDA context; device_io.h): the input of fft_check.h uploaded in the plan's precision, the
// plan run out of place into an output buffer that starts as NaN, or in place in one buffer of
// the larger size, and the result compared with FFTW's; or, with the timing, on the same
// buffers. `fftc run --check`, the tuner's cost (fftlib/tune/fft_cost.cpp) and the layout
// tests use it.
#pragma once

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_check.h"

namespace fftc::fftlib {

// The input buffer's scalars (exact in the plan's precision: fft_check.h) uploaded as T.
template <typename T, typename ContextT>
auto uploadAs(const ContextT& context, std::span<const double> scalars) {
  const std::vector<T> x(scalars.begin(), scalars.end());
  return upload(context, std::span<const T>(x));
}

// One out-of-place execution from the uploaded input `in` into `out`, which is set to NaN on the
// device first: the first `count` scalars of `out` afterwards (T: float for f32 plans, double
// for f64 ones).
template <typename T, typename PlanT, typename ContextT, typename BufferT>
std::vector<double> executeFromNaN(const PlanT& plan, const ContextT& context, const BufferT& in,
                                   BufferT& out, std::size_t count) {
  fillNaN(context, out);
  plan.execute(in, out);
  std::vector<T> y(count);
  download(context, out, std::span<T>(y));
  return {y.begin(), y.end()};
}

// One out-of-place execution from the uploaded input `in`: a new output buffer that started as
// NaN, and all its scalars after the execution. The buffers stay for timing
// (`plan.time(in, out, ...)`).
template <typename T, typename PlanT, typename ContextT, typename BufferT>
auto runOutOfPlace(const PlanT& plan, const ContextT& context, const BufferT& in) {
  auto out = allocate(context, plan.outputBytes());
  auto output = executeFromNaN<T>(plan, context, in, out, plan.outputBytes() / sizeof(T));
  return std::pair{std::move(out), std::move(output)};
}

// One out-of-place execution on `input` (the input buffer's scalars), then `warmup` untimed and
// `repeats` timed ones on the same buffers: the first execution's output scalars (the buffer
// started as NaN) and the times in ms.
template <typename T, typename PlanT, typename ContextT>
std::pair<std::vector<double>, std::vector<double>> runAndTime(const PlanT& plan,
                                                               const ContextT& context,
                                                               std::span<const double> input,
                                                               std::size_t warmup,
                                                               std::size_t repeats) {
  auto in = uploadAs<T>(context, input);
  auto [out, output] = runOutOfPlace<T>(plan, context, in);
  return {std::move(output), plan.time(in, out, warmup, repeats)};
}

// One execution on `input` (the input buffer's scalars): the output buffer's scalars, which
// started as NaN out of place; in place the one buffer has the larger of the two sizes.
template <typename T, typename PlanT, typename ContextT>
std::vector<double> runOnce(const PlanT& plan, const ContextT& context,
                            std::span<const double> input, bool inPlace) {
  if (!inPlace) return runOutOfPlace<T>(plan, context, uploadAs<T>(context, input)).second;
  std::vector<T> host(input.begin(), input.end());
  const std::size_t outputCount = plan.outputBytes() / sizeof(T);
  host.resize(std::max(host.size(), outputCount), static_cast<T>(NAN));
  auto buffer = upload(context, std::span<const T>(host));
  plan.execute(buffer);
  download(context, buffer, std::span<T>(host));
  return {host.begin(), host.begin() + static_cast<std::ptrdiff_t>(outputCount)};
}

// runOnce on the check's input, compared with FFTW's output.
template <typename T, typename PlanT, typename ContextT>
FftErrors runChecked(const PlanT& plan, const ContextT& context, const FftCheck& check,
                     bool inPlace) {
  return compareOutput(check, runOnce<T>(plan, context, check.input, inPlace), !inPlace);
}

}  // namespace fftc::fftlib
