// The FftRequest the plan tests start from: the transform of `dims` (outermost first; one
// entry is 1D, several N-D), batched, in a precision, with the source left unformatted
// (faster compiles; the code is the same). nd_test.cpp and layout_test.cpp share it; the
// accuracy tests share lineRequest and kL2Bound.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "fftlib/plan/planner.h"

namespace fftc::fftlib::test {

inline FftRequest shapeRequest(std::vector<int64_t> dims, int64_t batch = 1,
                               Precision p = Precision::F32) {
  FftRequest r;
  r.size = 1;
  for (int64_t d : dims) r.size *= d;
  if (dims.size() > 1) r.dims = std::move(dims);
  r.batch = batch;
  r.precision = p;
  r.format = false;
  return r;
}

// A 1D request of n points (shapeRequest) in a direction, scaled or not.
inline FftRequest lineRequest(int64_t n, int64_t batch, Precision p,
                              Direction d = Direction::Forward, bool scale = false) {
  FftRequest r = shapeRequest({n}, batch, p);
  r.direction = d;
  r.scale = scale;
  return r;
}

// An H100's / H200's opt-in shared memory of a block (227 KiB, sm_90): fft_bench's CUDA budget.
constexpr int64_t kGpuSharedBytes = 232448;

// The request under that budget (FftRequest::localMemoryBytes).
inline FftRequest underGpuBudget(FftRequest r) {
  r.localMemoryBytes = kGpuSharedBytes;
  return r;
}

// fftc's L2 error may be at most this many times FFTW's at the same precision (issue 23).
constexpr double kL2Bound = 1.5;

}  // namespace fftc::fftlib::test
