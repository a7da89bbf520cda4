// Reference DFTs through FFTW in long double.
#include "fftlib/fftw_reference.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "ir/fftw_run.h"

namespace fftc::fftlib {

namespace {

template <class T>
std::vector<ComplexL> widen(std::span<const std::complex<T>> x) {
  std::vector<ComplexL> out;
  out.reserve(x.size());
  for (const auto& c : x) out.emplace_back(c.real(), c.imag());
  return out;
}

template <class T>
std::pair<long double, long double> sums(std::span<const std::complex<T>> y,
                                         std::span<const ComplexL> ref, bool l2) {
  if (y.size() != ref.size())
    throw std::invalid_argument("error metric: " + std::to_string(y.size()) + " results but " +
                                std::to_string(ref.size()) + " reference values");
  long double num = 0, den = 0;
  bool nan = false;  // a NaN result is an error however the maximum below treats it
  for (size_t i = 0; i < y.size(); ++i) {
    ComplexL d = ComplexL(y[i].real(), y[i].imag()) - ref[i];
    long double e = std::abs(d), r = std::abs(ref[i]);
    nan = nan || std::isnan(e);
    if (l2) {
      num += e * e;
      den += r * r;
    } else {
      num = std::max(num, e);
      den = std::max(den, r);
    }
  }
  if (nan) num = std::numeric_limits<long double>::quiet_NaN();
  return {num, den};
}

double ratio(long double num, long double den, bool sqrtIt) {
  if (den == 0) return num == 0 ? 0.0 : std::numeric_limits<double>::infinity();
  long double r = num / den;
  return static_cast<double>(sqrtIt ? std::sqrt(r) : r);
}
}  // namespace

std::vector<ComplexL> referenceDft(std::span<const ComplexL> input, std::span<const int64_t> dims,
                                   int64_t batch, Direction direction) {
  if (dims.empty() || batch < 0) throw std::invalid_argument("referenceDft: bad shape");
  int64_t n = 1;
  for (int64_t d : dims) {
    if (d <= 0 || d > std::numeric_limits<int>::max())
      throw std::invalid_argument("referenceDft: bad dimension " + std::to_string(d));
    n *= d;
  }
  if (static_cast<int64_t>(input.size()) != n * batch)
    throw std::invalid_argument("referenceDft: " + std::to_string(input.size()) +
                                " values, expected " + std::to_string(n * batch));
  std::vector<ComplexL> out(input.size());
  referenceDftMany(input, out, dims, batch, {}, {}, direction);
  return out;
}

namespace {
// dims as ints, their product and the half-spectrum size; throws on bad shapes.
struct RealShape {
  std::vector<int> dims;
  int n = 1, h = 1;
};
RealShape realShape(std::span<const int64_t> dims, int64_t batch, const char* what) {
  if (dims.empty() || batch < 0) throw std::invalid_argument(std::string(what) + ": bad shape");
  RealShape s;
  for (int64_t d : dims) {
    if (d <= 0 || d > std::numeric_limits<int>::max())
      throw std::invalid_argument(std::string(what) + ": bad dimension " + std::to_string(d));
    s.dims.push_back(static_cast<int>(d));
  }
  for (size_t i = 0; i < s.dims.size(); ++i) {
    s.n *= s.dims[i];
    s.h *= i + 1 < s.dims.size() ? s.dims[i] : s.dims[i] / 2 + 1;
  }
  return s;
}
}  // namespace

std::vector<ComplexL> referenceR2c(std::span<const long double> input,
                                   std::span<const int64_t> dims, int64_t batch) {
  RealShape sh = realShape(dims, batch, "referenceR2c");
  if (static_cast<int64_t>(input.size()) != int64_t{sh.n} * batch)
    throw std::invalid_argument("referenceR2c: " + std::to_string(input.size()) + " values");
  std::vector<ComplexL> out(static_cast<size_t>(int64_t{sh.h} * batch));
  referenceR2cMany(input, out, dims, batch, {}, {});
  return out;
}

std::vector<long double> referenceC2r(std::span<const ComplexL> input,
                                      std::span<const int64_t> dims, int64_t batch) {
  RealShape sh = realShape(dims, batch, "referenceC2r");
  if (static_cast<int64_t>(input.size()) != int64_t{sh.h} * batch)
    throw std::invalid_argument("referenceC2r: " + std::to_string(input.size()) + " values");
  std::vector<long double> out(static_cast<size_t>(int64_t{sh.n} * batch));
  referenceC2rMany(input, out, dims, batch, {}, {});
  return out;
}

namespace {

// FFTW's int arguments of one side's layout; `sideDims` the side's logical dims. Throws when
// the layout reaches past `available` elements.
struct FftwSide {
  std::vector<int> embed;
  int stride = 1, dist = 1;
};
FftwSide fftwSide(const DataLayout& l, std::vector<int64_t> sideDims, int64_t batch,
                  size_t available, const char* what) {
  if (l.isView())
    throw std::invalid_argument(std::string(what) + ": a view layout is not FFTW's plan_many");
  const std::vector<int64_t> embed = l.embed.empty() ? sideDims : l.embed;
  if (embed.size() != sideDims.size() || l.stride < 1 || l.dist < 0)
    throw std::invalid_argument(std::string(what) + ": bad layout");
  int64_t product = 1, inner = 1, extent = 1;
  for (int64_t e : embed) product *= e;
  FftwSide s;
  s.stride = static_cast<int>(l.stride);
  s.dist = static_cast<int>(l.dist > 0 ? l.dist : l.stride * product);
  for (size_t k = embed.size(); k-- > 0;) {
    extent += (sideDims[k] - 1) * l.stride * inner;
    inner *= embed[k];
  }
  extent += (batch - 1) * s.dist;
  if (batch > 0 && static_cast<size_t>(extent) > available)
    throw std::invalid_argument(std::string(what) + ": the layout reaches element " +
                                std::to_string(extent - 1) + " of " + std::to_string(available));
  for (int64_t e : embed) s.embed.push_back(static_cast<int>(e));
  return s;
}

std::vector<int64_t> halfDims(std::span<const int64_t> dims) {
  std::vector<int64_t> h(dims.begin(), dims.end());
  h.back() = h.back() / 2 + 1;
  return h;
}

}  // namespace

void referenceDftMany(std::span<const ComplexL> input, std::span<ComplexL> output,
                      std::span<const int64_t> dims, int64_t batch, const DataLayout& in,
                      const DataLayout& out, Direction direction) {
  const std::vector<int64_t> d(dims.begin(), dims.end());
  const auto si = fftwSide(in, d, batch, input.size(), "referenceDftMany input");
  const auto so = fftwSide(out, d, batch, output.size(), "referenceDftMany output");
  if (batch == 0) return;
  std::vector<int> n(d.begin(), d.end());
  std::vector<ComplexL> copy(input.begin(), input.end());
  ir::runFftwl(
      [&] {
        return fftwl_plan_many_dft(
            static_cast<int>(n.size()), n.data(), static_cast<int>(batch),
            reinterpret_cast<fftwl_complex*>(copy.data()), si.embed.data(), si.stride, si.dist,
            reinterpret_cast<fftwl_complex*>(output.data()), so.embed.data(), so.stride, so.dist,
            direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
      },
      "referenceDftMany");
}

void referenceR2cMany(std::span<const long double> input, std::span<ComplexL> output,
                      std::span<const int64_t> dims, int64_t batch, const DataLayout& in,
                      const DataLayout& out) {
  const std::vector<int64_t> d(dims.begin(), dims.end());
  const auto si = fftwSide(in, d, batch, input.size(), "referenceR2cMany input");
  const auto so = fftwSide(out, halfDims(dims), batch, output.size(), "referenceR2cMany output");
  if (batch == 0) return;
  std::vector<int> n(d.begin(), d.end());
  std::vector<long double> copy(input.begin(), input.end());
  ir::runFftwl(
      [&] {
        return fftwl_plan_many_dft_r2c(static_cast<int>(n.size()), n.data(),
                                       static_cast<int>(batch), copy.data(), si.embed.data(),
                                       si.stride, si.dist,
                                       reinterpret_cast<fftwl_complex*>(output.data()),
                                       so.embed.data(), so.stride, so.dist, FFTW_ESTIMATE);
      },
      "referenceR2cMany");
}

void referenceC2rMany(std::span<const ComplexL> input, std::span<long double> output,
                      std::span<const int64_t> dims, int64_t batch, const DataLayout& in,
                      const DataLayout& out) {
  const std::vector<int64_t> d(dims.begin(), dims.end());
  const auto si = fftwSide(in, halfDims(dims), batch, input.size(), "referenceC2rMany input");
  const auto so = fftwSide(out, d, batch, output.size(), "referenceC2rMany output");
  if (batch == 0) return;
  std::vector<int> n(d.begin(), d.end());
  std::vector<ComplexL> copy(input.begin(), input.end());  // c2r overwrites its input
  ir::runFftwl(
      [&] {
        return fftwl_plan_many_dft_c2r(static_cast<int>(n.size()), n.data(),
                                       static_cast<int>(batch),
                                       reinterpret_cast<fftwl_complex*>(copy.data()),
                                       si.embed.data(), si.stride, si.dist, output.data(),
                                       so.embed.data(), so.stride, so.dist, FFTW_ESTIMATE);
      },
      "referenceC2rMany");
}

std::vector<ComplexL> referenceDft1d(std::span<const ComplexL> input, int64_t n, int64_t batch,
                                     Direction direction) {
  int64_t dims[1] = {n};
  return referenceDft(input, dims, batch, direction);
}

std::vector<ComplexL> toLongDouble(std::span<const std::complex<double>> x) { return widen(x); }
std::vector<ComplexL> toLongDouble(std::span<const std::complex<float>> x) { return widen(x); }

double l2Error(std::span<const std::complex<double>> y, std::span<const ComplexL> ref) {
  auto [num, den] = sums(y, ref, true);
  return ratio(num, den, true);
}
double linfError(std::span<const std::complex<double>> y, std::span<const ComplexL> ref) {
  auto [num, den] = sums(y, ref, false);
  return ratio(num, den, false);
}
double l2Error(std::span<const std::complex<float>> y, std::span<const ComplexL> ref) {
  auto [num, den] = sums(y, ref, true);
  return ratio(num, den, true);
}
double linfError(std::span<const std::complex<float>> y, std::span<const ComplexL> ref) {
  auto [num, den] = sums(y, ref, false);
  return ratio(num, den, false);
}

}  // namespace fftc::fftlib
