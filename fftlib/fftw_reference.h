// The FFTW oracle: reference DFTs computed in long double (fftwl_*) and the error metrics of
// CLI.md, against which the interpreter, fftc's FFTs and `fftc run --check` are measured.
#pragma once

#include <complex>
#include <cstdint>
#include <random>
#include <span>
#include <vector>

namespace fftc::fftlib {

using ComplexL = std::complex<long double>;

enum class Direction { Forward, Inverse };

// One side's layout in FFTW's plan_many / cuFFT's cufftPlanMany form (docs/fft-api.md): the
// side's logical array is batch x d_0 x ... x d_{D-1} (the transform's dims; for real
// transforms the reals, or the half spectrum with d_{D-1}/2 + 1 on the complex side), and
// element (b, i_0, ..., i_{D-1}) is at b * dist + stride * Σ_k i_k * E_k, E_k = embed[k+1] ···
// embed[D-1]. All in elements of the side's type (reals or complex values).
//
// A view (viewDims, viewStrides; FFTW's guru interface taken further) says what plan_many
// cannot: the logical array in row-major order, flat index e, seen as viewDims (outermost
// first, product batch * Π d_k) whose element (j_0, ..., j_m) is at Σ j_m * viewStrides[m]
// (codegen's BufferLayout). Several batch axes, or an axis split in two (a distributed FFT's
// packed all-to-all messages, docs/distributed.md). Used instead of embed/stride/dist, which
// then keep their defaults; FFTW's reference calls do not take it.
struct DataLayout {
  std::vector<int64_t> embed;  // empty: the dims; else D entries, embed[k] >= d_k for k >= 1
  int64_t stride = 1;          // >= 1
  int64_t dist = 0;            // 0: stride * Π embed (transforms one after another)
  std::vector<int64_t> viewDims, viewStrides;  // empty, or a view (above)
  [[nodiscard]] bool isView() const { return !viewDims.empty(); }
  [[nodiscard]] bool isDefault() const {
    return embed.empty() && stride == 1 && dist == 0 && viewDims.empty();
  }
  bool operator==(const DataLayout&) const = default;
};

// Batched N-dimensional complex DFT, unnormalized like FFTW and cuFFT:
//   y[k] = sum_j x[j] * exp(s * 2*pi*i * j.k / n),  s = -1 forward, +1 inverse
// (so inverse(forward(x)) = prod(dims) * x). `dims` outermost first, row-major; the batch is
// the outermost (slowest) index: input.size() must be batch * prod(dims).
std::vector<ComplexL> referenceDft(std::span<const ComplexL> input,
                                   std::span<const int64_t> dims, int64_t batch,
                                   Direction direction);
std::vector<ComplexL> referenceDft1d(std::span<const ComplexL> input, int64_t n, int64_t batch,
                                     Direction direction);

// Batched real transforms with FFTW's Hermitian layout (fftwl_plan_many_dft_r2c / _c2r):
// R2C maps batch x prod(dims) reals to batch x (prod of all but the last) x (dims.back()/2 + 1)
// complex values, the forward DFT's half spectrum; C2R is the unnormalized inverse of the
// half spectrum (the imaginary parts of X_0 and, for even last dimensions, X_{n/2} ignored).
std::vector<ComplexL> referenceR2c(std::span<const long double> input,
                                   std::span<const int64_t> dims, int64_t batch);
std::vector<long double> referenceC2r(std::span<const ComplexL> input,
                                      std::span<const int64_t> dims, int64_t batch);

// The same transforms between buffers in advanced layouts (fftwl_plan_many_dft and its r2c,
// c2r forms with the layouts' embed, stride, dist): FFTW reads `input` and writes `output`
// through them; elements of `output` outside the layout keep their values.
// std::invalid_argument when a layout reaches past its buffer.
void referenceDftMany(std::span<const ComplexL> input, std::span<ComplexL> output,
                      std::span<const int64_t> dims, int64_t batch, const DataLayout& in,
                      const DataLayout& out, Direction direction);
void referenceR2cMany(std::span<const long double> input, std::span<ComplexL> output,
                      std::span<const int64_t> dims, int64_t batch, const DataLayout& in,
                      const DataLayout& out);
void referenceC2rMany(std::span<const ComplexL> input, std::span<long double> output,
                      std::span<const int64_t> dims, int64_t batch, const DataLayout& in,
                      const DataLayout& out);

// Conversions for inputs and results in float or double precision.
std::vector<ComplexL> toLongDouble(std::span<const std::complex<double>> x);
std::vector<ComplexL> toLongDouble(std::span<const std::complex<float>> x);

// l2 = sqrt(sum |y - ref|^2 / sum |ref|^2); linf = max |y - ref| / max |ref|. 0 when both are
// zero; +inf when only ref is zero; NaN when a result is NaN. Throws std::invalid_argument on
// different lengths.
double l2Error(std::span<const std::complex<double>> y, std::span<const ComplexL> ref);
double linfError(std::span<const std::complex<double>> y, std::span<const ComplexL> ref);
double l2Error(std::span<const std::complex<float>> y, std::span<const ComplexL> ref);
double linfError(std::span<const std::complex<float>> y, std::span<const ComplexL> ref);

// The inputs of `fftc run` and the FFT tests (CLI.md): re and im uniform in [-0.5, 0.5) from a
// seeded mt19937_64, rounded to T.
template <typename T>
std::vector<std::complex<T>> uniformInput(size_t count, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<std::complex<T>> x(count);
  for (auto& v : x) {
    const double re = u(rng), im = u(rng);
    v = {static_cast<T>(re), static_cast<T>(im)};
  }
  return x;
}

}  // namespace fftc::fftlib
