// Reference DFTs through FFTW in long double.
#include "fftlib/fftw_reference.h"

#include <fftw3.h>

#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>
#include <string>

namespace fftc::fftlib {

namespace {
std::mutex plannerMutex;  // FFTW's planner is not thread-safe

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
  for (size_t i = 0; i < y.size(); ++i) {
    ComplexL d = ComplexL(y[i].real(), y[i].imag()) - ref[i];
    long double e = std::abs(d), r = std::abs(ref[i]);
    if (l2) {
      num += e * e;
      den += r * r;
    } else {
      num = std::max(num, e);
      den = std::max(den, r);
    }
  }
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
  std::vector<int> idims;
  for (int64_t d : dims) {
    if (d <= 0 || d > std::numeric_limits<int>::max())
      throw std::invalid_argument("referenceDft: bad dimension " + std::to_string(d));
    n *= d;
    idims.push_back(static_cast<int>(d));
  }
  if (static_cast<int64_t>(input.size()) != n * batch)
    throw std::invalid_argument("referenceDft: " + std::to_string(input.size()) +
                                " values, expected " + std::to_string(n * batch));
  std::vector<ComplexL> in(input.begin(), input.end()), out(input.size());
  if (batch == 0) return out;
  auto* pin = reinterpret_cast<fftwl_complex*>(in.data());
  auto* pout = reinterpret_cast<fftwl_complex*>(out.data());
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    plan = fftwl_plan_many_dft(static_cast<int>(idims.size()), idims.data(),
                               static_cast<int>(batch), pin, nullptr, 1, static_cast<int>(n), pout,
                               nullptr, 1, static_cast<int>(n),
                               direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD,
                               FFTW_ESTIMATE);
  }
  if (!plan) throw std::runtime_error("referenceDft: FFTW could not plan the transform");
  fftwl_execute(plan);
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    fftwl_destroy_plan(plan);
  }
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
  std::vector<long double> in(input.begin(), input.end());
  std::vector<ComplexL> out(static_cast<size_t>(int64_t{sh.h} * batch));
  if (batch == 0) return out;
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    plan = fftwl_plan_many_dft_r2c(static_cast<int>(sh.dims.size()), sh.dims.data(),
                                   static_cast<int>(batch), in.data(), nullptr, 1, sh.n,
                                   reinterpret_cast<fftwl_complex*>(out.data()), nullptr, 1, sh.h,
                                   FFTW_ESTIMATE);
  }
  if (!plan) throw std::runtime_error("referenceR2c: FFTW could not plan the transform");
  fftwl_execute(plan);
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    fftwl_destroy_plan(plan);
  }
  return out;
}

std::vector<long double> referenceC2r(std::span<const ComplexL> input,
                                      std::span<const int64_t> dims, int64_t batch) {
  RealShape sh = realShape(dims, batch, "referenceC2r");
  if (static_cast<int64_t>(input.size()) != int64_t{sh.h} * batch)
    throw std::invalid_argument("referenceC2r: " + std::to_string(input.size()) + " values");
  std::vector<ComplexL> in(input.begin(), input.end());  // c2r overwrites its input
  std::vector<long double> out(static_cast<size_t>(int64_t{sh.n} * batch));
  if (batch == 0) return out;
  fftwl_plan plan;
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    plan = fftwl_plan_many_dft_c2r(static_cast<int>(sh.dims.size()), sh.dims.data(),
                                   static_cast<int>(batch),
                                   reinterpret_cast<fftwl_complex*>(in.data()), nullptr, 1, sh.h,
                                   out.data(), nullptr, 1, sh.n, FFTW_ESTIMATE);
  }
  if (!plan) throw std::runtime_error("referenceC2r: FFTW could not plan the transform");
  fftwl_execute(plan);
  {
    std::lock_guard<std::mutex> lock(plannerMutex);
    fftwl_destroy_plan(plan);
  }
  return out;
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
