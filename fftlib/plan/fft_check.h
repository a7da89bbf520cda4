// Checking an FFT plan's result against FFTW in long double, for every kind of request (1D and
// N-D, complex and real, advanced layouts): the input buffer's contents and FFTW's output
// buffer, both as scalars (a complex value is its real and imaginary part), and the comparison
// of a plan's output buffer with it. `fftc run --check` and the tuner's cost function
// (fftlib/tune/fft_cost.h) use it; the data is placed by FFTW's plan_many itself.
//
//   FftCheck check = makeCheck(request, seed);                    // input + reference
//   ... upload check.input (as float or double), run the plan, the output buffer starting NaN
//   FftErrors e = compareOutput(check, output, /*countHoles=*/true);
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

// The scalars of the request's input (`input`) or output buffer: its extent (advanced layouts)
// or batch x the side's elements, times 2 for complex values.
std::size_t bufferScalars(const FftRequest& request, bool input);

struct FftCheck {
  // The input buffer: every scalar uniform in [-0.5, 0.5) and rounded to the precision, NaN
  // outside an input layout (a plan that reads there gives NaN). C2R: where the layout places
  // the half spectrum, FFTW's R2C of such reals, so that the input is Hermitian.
  std::vector<double> input;
  // FFTW's output buffer for that input (scaled by 1/N when the request scales): NaN outside
  // the output layout. Of a check of the first transforms only, those transforms' part (a
  // prefix of the output buffer; the rest is not checked).
  std::vector<long double> reference;
  std::size_t outputScalars = 0;  // the whole output buffer's scalars
  double tolerance = 0;  // fftTolerance(N, precision)
  bool realOutput = false;  // C2R: the output buffer holds reals, else complex values
  std::int64_t checkedBatch = 0;  // the transforms checked: the batch's first this many
};
// With `maxCheckedElements` > 0 and the dense layouts, only the first transforms of the batch
// holding at most that many elements (at least one transform) are computed by FFTW and
// checked: the tuner's cost, whose batches of 2^26 elements would take FFTW in long double
// longer than the search, and `fftc run --check-elements`.
FftCheck makeCheck(const FftRequest& request, std::uint64_t seed,
                   std::size_t maxCheckedElements = 0);

// An input buffer for timing only: uniform scalars in [-0.5, 0.5), rounded to the precision
// (no reference computed; for C2R not a Hermitian spectrum).
std::vector<double> timingInput(const FftRequest& request, std::uint64_t seed);

struct FftErrors {
  double l2 = 0, linf = 0;     // over the output layout's elements (fftw_reference.h)
  std::int64_t compared = 0;   // those elements
  std::int64_t holesWritten = 0;  // elements outside it that are no longer NaN
  bool ok(double tolerance) const { return linf <= tolerance && holesWritten == 0; }
};
// `output`: the plan's output buffer, scalars. With `countHoles` the buffer started as NaN
// (out of place), and every element outside the output layout must still be NaN.
FftErrors compareOutput(const FftCheck& check, std::span<const double> output, bool countHoles);

}  // namespace fftc::fftlib
