// Host <-> device helpers shared by the programs that run FFT plans on either runtime (fftc
// run, fftc tune's cost function, bench/fft_bench): one overload set per runtime, so the
// measuring code is written once as a template over (Plan, opencl::Context) and
// (CudaPlan, cuda::Context).
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <span>
#include <vector>

#include "backends/common/median.h"
#include "backends/opencl/runtime.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif

namespace fftc::fftlib {

using backends::median;  // backends/common/median.h

// E: the elements, complex values or reals.
template <typename E>
backends::opencl::Buffer upload(const backends::opencl::Context& context, std::span<const E> x) {
  return backends::opencl::Buffer::from(context, x);
}
inline backends::opencl::Buffer allocate(const backends::opencl::Context& context,
                                         std::size_t bytes) {
  return backends::opencl::Buffer(context, bytes);
}
template <typename E>
void download(const backends::opencl::Context& context, const backends::opencl::Buffer& b,
              std::span<E> y) {
  b.read(context, y);
}
// Every byte 0xFF: a NaN in every f32 and f64 element, so that what a plan leaves unwritten
// reads back as NaN.
inline void fillNaN(const backends::opencl::Context& context, backends::opencl::Buffer& b) {
  b.fill(context, 0xFF);
}

#ifdef FFTC_HAVE_CUDA
template <typename E>
backends::cuda::DeviceBuffer upload(const backends::cuda::Context& context,
                                    std::span<const E> x) {
  backends::cuda::DeviceBuffer b = context.allocate(x.size_bytes());
  b.upload(x);
  return b;
}
inline backends::cuda::DeviceBuffer allocate(const backends::cuda::Context& context,
                                             std::size_t bytes) {
  return context.allocate(bytes);
}
template <typename E>
void download(const backends::cuda::Context&, const backends::cuda::DeviceBuffer& b,
              std::span<E> y) {
  b.download(y);
}
inline void fillNaN(const backends::cuda::Context&, backends::cuda::DeviceBuffer& b) {
  b.fill(0xFF);
}
#endif

}  // namespace fftc::fftlib
