// One checked execution of a plan on either runtime (Plan with an OpenCL context, CudaPlan with
// a CUDA context; device_io.h): the input of fft_check.h uploaded in the plan's precision, the
// plan run out of place into an output buffer that starts as NaN, or in place in one buffer of
// the larger size, and the result compared with FFTW's. `fftc run --check` and the layout
// tests use it.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_check.h"

namespace fftc::fftlib {

// T: float for f32 plans, double for f64 ones.
template <typename T, typename PlanT, typename ContextT>
FftErrors runChecked(const PlanT& plan, const ContextT& context, const FftCheck& check,
                     bool inPlace) {
  std::vector<T> host(check.input.begin(), check.input.end());
  std::vector<T> y(plan.outputBytes() / sizeof(T), static_cast<T>(NAN));
  if (inPlace) {
    host.resize(std::max(host.size(), y.size()), static_cast<T>(NAN));
    auto buffer = upload(context, std::span<const T>(host));
    plan.execute(buffer);
    download(context, buffer, std::span<T>(host));
    std::copy_n(host.begin(), y.size(), y.begin());
  } else {
    auto in = upload(context, std::span<const T>(host));
    auto out = upload(context, std::span<const T>(y));
    plan.execute(in, out);
    download(context, out, std::span<T>(y));
  }
  const std::vector<double> got(y.begin(), y.end());
  return compareOutput(check, got, !inPlace);
}

}  // namespace fftc::fftlib
