// Checking a plan against FFTW for every kind of request (fft_check.h).
#include "fftlib/plan/fft_check.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "fftlib/fftw_reference.h"

namespace fftc::fftlib {

namespace {

// A value rounded to the request's precision.
long double rounded(long double v, Precision p) {
  return p == Precision::F32 ? static_cast<long double>(static_cast<float>(v))
                             : static_cast<long double>(static_cast<double>(v));
}

// Uniform scalars in [-0.5, 0.5), rounded to the precision (uniformInput's values, two a pair),
// as T: long double for FFTW, double for the input buffer (exact either way).
template <typename T>
std::vector<T> uniformScalars(std::size_t count, std::uint64_t seed, Precision p) {
  std::vector<T> out;
  out.reserve(count + 1);
  for (const auto& c : uniformInput<double>((count + 1) / 2, seed)) {
    out.push_back(static_cast<T>(rounded(c.real(), p)));
    out.push_back(static_cast<T>(rounded(c.imag(), p)));
  }
  out.resize(count);
  return out;
}

std::vector<ComplexL> pairs(const std::vector<long double>& s) {
  std::vector<ComplexL> out;
  for (std::size_t i = 0; i + 1 < s.size(); i += 2) out.emplace_back(s[i], s[i + 1]);
  return out;
}

std::vector<long double> scalars(const std::vector<ComplexL>& c) {
  std::vector<long double> out;
  for (const auto& v : c) {
    out.push_back(v.real());
    out.push_back(v.imag());
  }
  return out;
}

// A callback applied by the interpreter (in double) to the complex values of scalars s.
std::vector<ComplexL> callback(const FftCallback& c, const std::vector<long double>& s,
                               int64_t transformSize) {
  std::vector<std::complex<double>> values;
  for (const auto& v : pairs(s))
    values.emplace_back(static_cast<double>(v.real()), static_cast<double>(v.imag()));
  const auto out = applyCallback(c, values, transformSize);
  return {out.begin(), out.end()};
}

}  // namespace

std::size_t bufferScalars(const FftRequest& r, bool input) {
  const bool complexSide = !r.real || (input == (r.direction == Direction::Inverse));
  std::int64_t elements = r.batch;
  if (auto l = bufferLayout(r, input))
    elements = l->extent();
  else
    for (std::int64_t d : sideDims(r, input)) elements *= d;
  return static_cast<std::size_t>(elements) * (complexSide ? 2 : 1);
}

std::vector<double> timingInput(const FftRequest& r, std::uint64_t seed) {
  return uniformScalars<double>(bufferScalars(r, true), seed, r.precision);
}

FftCheck makeCheck(const FftRequest& r, std::uint64_t seed, std::size_t maxCheckedElements) {
  const auto total = static_cast<std::size_t>(r.batch * r.size);
  if (maxCheckedElements > 0 && total > maxCheckedElements && r.batch > 1 &&
      r.inLayout.isDefault() && r.outLayout.isDefault()) {
    FftRequest first = r;  // the first transforms: a prefix of both dense buffers
    first.batch = std::max<std::int64_t>(
        1, static_cast<std::int64_t>(maxCheckedElements) / std::max<std::int64_t>(r.size, 1));
    FftCheck c = makeCheck(first, seed);
    const auto rest =
        uniformScalars<double>(bufferScalars(r, true) - c.input.size(), seed + 2, r.precision);
    c.input.insert(c.input.end(), rest.begin(), rest.end());
    c.outputScalars = bufferScalars(r, false);
    return c;
  }
  const auto dims = requestDims(r);
  const bool r2c = r.real && r.direction == Direction::Forward;
  const bool c2r = r.real && !r2c;
  const std::size_t inCount = bufferScalars(r, true), outCount = bufferScalars(r, false);
  const long double nan = std::numeric_limits<long double>::quiet_NaN();

  std::vector<long double> in = uniformScalars<long double>(inCount, seed, r.precision);
  if (!r.inLayout.isDefault() && !c2r) {
    // NaN outside the input layout, so that a plan reading there gives NaN: the positions are
    // where FFTW writes through the layout taken as an output layout (C2R: below).
    std::vector<long double> mask(inCount, nan);
    if (r2c) {
      std::int64_t count = r.batch;  // the half spectrum's elements
      for (std::int64_t h : sideDims(r, false)) count *= h;
      referenceC2rMany(std::vector<ComplexL>(static_cast<std::size_t>(count)), mask, dims,
                       r.batch, {}, r.inLayout);
    } else {
      std::vector<ComplexL> m(inCount / 2, ComplexL(nan, nan));
      referenceDftMany(std::vector<ComplexL>(static_cast<std::size_t>(r.batch * r.size)), m,
                       dims, r.batch, {}, r.inLayout, Direction::Forward);
      mask = scalars(m);
    }
    for (std::size_t i = 0; i < inCount; ++i)
      if (std::isnan(mask[i])) in[i] = nan;
  }
  if (c2r) {  // the half spectrum of real data, through the input layout
    std::vector<long double> reals =
        uniformScalars<long double>(static_cast<std::size_t>(r.size * r.batch), seed + 1,
                                    r.precision);
    std::vector<ComplexL> spectrum(inCount / 2, ComplexL(nan, nan));
    referenceR2cMany(reals, spectrum, dims, r.batch, {}, r.inLayout);
    for (std::size_t i = 0; i < spectrum.size(); ++i) {  // NaN outside the layout
      in[2 * i] = rounded(spectrum[i].real(), r.precision);
      in[2 * i + 1] = rounded(spectrum[i].imag(), r.precision);
    }
  }

  FftCheck check;
  check.checkedBatch = r.batch;
  check.outputScalars = outCount;
  check.realOutput = c2r;
  check.tolerance = fftTolerance(r.size, r.precision);
  check.input.assign(in.begin(), in.end());
  // the load callback applied by the interpreter to what FFTW transforms (callbacks are for
  // dense 1D complex requests: the buffer is the elements)
  if (!r.pre.empty()) in = scalars(callback(r.pre, in, r.size));
  if (c2r) {
    check.reference.assign(outCount, nan);
    referenceC2rMany(pairs(in), check.reference, dims, r.batch, r.inLayout, r.outLayout);
  } else {
    std::vector<ComplexL> out(outCount / 2, ComplexL(nan, nan));
    if (r2c)
      referenceR2cMany(in, out, dims, r.batch, r.inLayout, r.outLayout);
    else
      referenceDftMany(pairs(in), out, dims, r.batch, r.inLayout, r.outLayout, r.direction);
    check.reference = scalars(out);
  }
  if (r.scale)
    for (auto& v : check.reference) v /= static_cast<long double>(r.size);
  if (!r.post.empty()) check.reference = scalars(callback(r.post, check.reference, r.size));
  return check;
}

FftErrors compareOutput(const FftCheck& check, std::span<const double> output, bool countHoles) {
  const std::size_t step = check.realOutput ? 1 : 2;
  std::vector<std::complex<double>> got;
  std::vector<ComplexL> want;
  FftErrors e;
  for (std::size_t i = 0; i + step <= check.reference.size(); i += step) {
    const bool inside = !std::isnan(check.reference[i]);
    const double re = i < output.size() ? output[i] : std::nan("");
    const double im = step == 2 && i + 1 < output.size() ? output[i + 1] : 0.0;
    if (!inside) {
      if (countHoles && !std::isnan(re)) ++e.holesWritten;
      continue;
    }
    got.emplace_back(re, im);
    want.emplace_back(check.reference[i], step == 2 ? check.reference[i + 1] : 0.0L);
  }
  e.compared = static_cast<std::int64_t>(got.size());
  e.l2 = l2Error(std::span<const std::complex<double>>(got), want);
  e.linf = linfError(std::span<const std::complex<double>>(got), want);
  return e;
}

}  // namespace fftc::fftlib
