// FFTW in float or double (fftwf_* / fftw_*): the error fftc is measured against, at the same
// precision as fftc's result (accuracy_test.cpp, radix_11_13_test.cpp).
#pragma once

#include <fftw3.h>

#include <complex>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <vector>

#include "fftlib/fftw_reference.h"

namespace fftc::fftlib::test {

// FFTW's batched plans (plan_many: `howmany` rows `idist` / `odist` elements apart) in T.
template <typename T>
struct Fftw;
template <>
struct Fftw<float> {
  using Complex = fftwf_complex;
  using PlanT = fftwf_plan;
  static PlanT c2c(int rank, const int* n, int howmany, void* in, int idist, void* out, int odist,
                   int sign) {
    return fftwf_plan_many_dft(rank, n, howmany, static_cast<Complex*>(in), nullptr, 1, idist,
                               static_cast<Complex*>(out), nullptr, 1, odist, sign, FFTW_ESTIMATE);
  }
  static PlanT r2c(int rank, const int* n, int howmany, void* in, int idist, void* out, int odist) {
    return fftwf_plan_many_dft_r2c(rank, n, howmany, static_cast<float*>(in), nullptr, 1, idist,
                                   static_cast<Complex*>(out), nullptr, 1, odist, FFTW_ESTIMATE);
  }
  static PlanT c2r(int rank, const int* n, int howmany, void* in, int idist, void* out, int odist) {
    return fftwf_plan_many_dft_c2r(rank, n, howmany, static_cast<Complex*>(in), nullptr, 1, idist,
                                   static_cast<float*>(out), nullptr, 1, odist, FFTW_ESTIMATE);
  }
  static void run(PlanT p) { fftwf_execute(p); }
  static void destroy(PlanT p) { fftwf_destroy_plan(p); }
};
template <>
struct Fftw<double> {
  using Complex = fftw_complex;
  using PlanT = fftw_plan;
  static PlanT c2c(int rank, const int* n, int howmany, void* in, int idist, void* out, int odist,
                   int sign) {
    return fftw_plan_many_dft(rank, n, howmany, static_cast<Complex*>(in), nullptr, 1, idist,
                              static_cast<Complex*>(out), nullptr, 1, odist, sign, FFTW_ESTIMATE);
  }
  static PlanT r2c(int rank, const int* n, int howmany, void* in, int idist, void* out, int odist) {
    return fftw_plan_many_dft_r2c(rank, n, howmany, static_cast<double*>(in), nullptr, 1, idist,
                                  static_cast<Complex*>(out), nullptr, 1, odist, FFTW_ESTIMATE);
  }
  static PlanT c2r(int rank, const int* n, int howmany, void* in, int idist, void* out, int odist) {
    return fftw_plan_many_dft_c2r(rank, n, howmany, static_cast<Complex*>(in), nullptr, 1, idist,
                                  static_cast<double*>(out), nullptr, 1, odist, FFTW_ESTIMATE);
  }
  static void run(PlanT p) { fftw_execute(p); }
  static void destroy(PlanT p) { fftw_destroy_plan(p); }
};

// FFTW in T of `batch` rows of `dims`, from a copy of `in` (c2r overwrites its input) into a new
// vector of `outSize` elements; `make` is one of Fftw<T>'s plan makers, bound to its kind.
template <typename T, typename Out, typename In, typename Make>
std::vector<Out> fftwRun(std::vector<In> in, size_t outSize, const std::vector<int64_t>& dims,
                         int64_t batch, Make make) {
  std::vector<Out> out(outSize);
  const std::vector<int> n(dims.begin(), dims.end());
  const auto rows = static_cast<size_t>(batch);
  auto p = make(static_cast<int>(n.size()), n.data(), static_cast<int>(batch),
                static_cast<void*>(in.data()), static_cast<int>(in.size() / rows),
                static_cast<void*>(out.data()), static_cast<int>(out.size() / rows));
  if (p == nullptr) throw std::runtime_error("FFTW: no plan");
  Fftw<T>::run(p);
  Fftw<T>::destroy(p);
  return out;
}

inline int64_t halfSpectrum(const std::vector<int64_t>& dims) {  // complex elements of a row's r2c
  int64_t n = dims.back() / 2 + 1;
  for (size_t i = 0; i + 1 < dims.size(); ++i) n *= dims[i];
  return n;
}

template <typename T>
std::vector<std::complex<T>> fftwC2c(const std::vector<std::complex<T>>& x,
                                     const std::vector<int64_t>& dims, int64_t batch, Direction d) {
  const int sign = d == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD;
  return fftwRun<T, std::complex<T>>(
      x, x.size(), dims, batch,
      [sign](int rank, const int* n, int howmany, void* i, int idist, void* o, int odist) {
        return Fftw<T>::c2c(rank, n, howmany, i, idist, o, odist, sign);
      });
}

template <typename T>
std::vector<std::complex<T>> fftwR2c(const std::vector<T>& x, const std::vector<int64_t>& dims,
                                     int64_t batch) {
  return fftwRun<T, std::complex<T>>(x, static_cast<size_t>(halfSpectrum(dims) * batch), dims,
                                     batch, Fftw<T>::r2c);
}

template <typename T>
std::vector<T> fftwC2r(const std::vector<std::complex<T>>& x, const std::vector<int64_t>& dims,
                       int64_t batch) {
  int64_t n = 1;
  for (int64_t d : dims) n *= d;
  return fftwRun<T, T>(x, static_cast<size_t>(n * batch), dims, batch, Fftw<T>::c2r);
}

// fftc's and FFTW's L2 errors (fftlib::l2Error) against the same long-double reference.
struct L2Pair {
  double fftc = 0, fftw = 0;
  double ratio() const { return fftw > 0 ? fftc / fftw : fftc > 0 ? 1e300 : 1; }
};

template <typename T>
double l2(const std::vector<std::complex<T>>& y, const std::vector<ComplexL>& ref) {
  return l2Error(std::span<const std::complex<T>>(y), ref);
}

}  // namespace fftc::fftlib::test
