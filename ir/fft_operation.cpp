// fft(x) and ifft(x) as a marked map, and their value (fft_operation.h).
#include "ir/fft_operation.h"

#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "ir/fftw_run.h"
#include "ir/traversal.h"

namespace fftc::ir {
namespace {

// The marker's body: never compiled (expandFftOps or foldClosed replaces the operation), but
// were it printed by mistake the device compiler would stop at it with this message.
constexpr const char* kMarkerBody =
    "\n#error \"fft(x) was not expanded: compile it through fftc or fftlib::expandFftOps\"\n";

}  // namespace

FunPtr fftOperation(int sign, ScalarKind precision, const SourceLoc& loc) {
  const Type c = Type::complex(precision);
  auto marker = UserFun::make(sign < 0 ? "fft" : "ifft", {"x"}, {c}, c, kMarkerBody, loc);
  return Map::make(marker, loc);
}

bool isFftOperationMarker(const FunDecl& f) {
  const auto* u = f.as<UserFun>();
  return u != nullptr && u->body() == kMarkerBody;
}

int fftOperationSign(const FunDecl& f) {
  const auto* m = f.as<Map>();
  if (m == nullptr || !isFftOperationMarker(*m->f())) return 0;
  const std::string& name = m->f()->name();
  return name == "fft" ? -1 : name == "ifft" ? 1 : 0;
}

bool containsFftOperation(const ExprPtr& e) {
  return containsFun(e, [](const FunDecl& f) { return fftOperationSign(f) != 0; });
}

namespace {

void checkShape(size_t count, int64_t n, int64_t batch) {
  if (n < 1 || batch < 0 || n > std::numeric_limits<int>::max() ||
      batch > std::numeric_limits<int>::max() || static_cast<int64_t>(count) != n * batch)
    throw std::invalid_argument("exactDft: " + std::to_string(count) + " values for " +
                                std::to_string(batch) + " rows of " + std::to_string(n));
}

// The DFTs of `batch` rows of n complex values (long double pairs, as fftwl_complex) from `in`,
// which FFTW may overwrite (its plans take non-const arrays), into `out`.
void runExactDft(long double* in, long double* out, int64_t n, int64_t batch, int sign) {
  if (batch == 0) return;
  const int len = static_cast<int>(n);
  runFftwl(
      [&] {
        return fftwl_plan_many_dft(1, &len, static_cast<int>(batch),
                                   reinterpret_cast<fftwl_complex*>(in), nullptr, 1, len,
                                   reinterpret_cast<fftwl_complex*>(out), nullptr, 1, len,
                                   sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
      },
      "exactDft");
}

}  // namespace

std::vector<std::complex<long double>> exactDft(std::span<const std::complex<long double>> x,
                                                int64_t n, int64_t batch, int sign) {
  checkShape(x.size(), n, batch);
  // std::complex<long double> is layout-compatible with long double[2] (fftwl_complex)
  std::vector<std::complex<long double>> in(x.begin(), x.end()), out(x.size());
  runExactDft(reinterpret_cast<long double*>(in.data()), reinterpret_cast<long double*>(out.data()),
              n, batch, sign);
  return out;
}

namespace {

// exactDftRounded for an f32 use: FFTW in double, scalar codelets (FFTW_NO_SIMD: the same plan,
// so the same bits, whatever the host's vector units and the arrays' alignment).
std::vector<std::complex<double>> dftInDouble(std::span<const std::complex<double>> x, int64_t n,
                                              int64_t batch, int sign, ScalarKind precision) {
  std::vector<std::complex<double>> out(x.size());
  if (batch > 0) {
    const int len = static_cast<int>(n);
    // std::complex<double> is layout-compatible with double[2] (fftw_complex); FFTW reads x
    // (FFTW_PRESERVE_INPUT) and planning with FFTW_ESTIMATE touches neither array
    auto* in = reinterpret_cast<fftw_complex*>(const_cast<std::complex<double>*>(x.data()));
    runFftw(
        [&] {
          return fftw_plan_many_dft(1, &len, static_cast<int>(batch), in, nullptr, 1, len,
                                    reinterpret_cast<fftw_complex*>(out.data()), nullptr, 1, len,
                                    sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD,
                                    FFTW_ESTIMATE | FFTW_NO_SIMD | FFTW_PRESERVE_INPUT);
        },
        "exactDft");
  }
  if (precision == ScalarKind::Float)
    for (auto& v : out) v = {static_cast<float>(v.real()), static_cast<float>(v.imag())};
  return out;
}

}  // namespace

std::vector<std::complex<double>> exactDftRounded(std::span<const std::complex<double>> x,
                                                  int64_t n, int sign, ScalarKind precision,
                                                  ScalarKind use) {
  const int64_t batch = n == 0 ? 0 : static_cast<int64_t>(x.size()) / n;
  checkShape(x.size(), n, batch);
  if (precision == ScalarKind::Float || use == ScalarKind::Float)
    return dftInDouble(x, n, batch, sign, precision);
  // FFTW's two arrays in storage that is not cleared first: for a chirp spectrum of 2^21 points
  // they are 64 MB each, and clearing them and the result took a third of the transform's time
  const size_t count = x.size();
  auto in = std::make_unique_for_overwrite<long double[]>(2 * count);
  auto out = std::make_unique_for_overwrite<long double[]>(2 * count);
  for (size_t i = 0; i < count; ++i) {
    in[2 * i] = x[i].real();
    in[2 * i + 1] = x[i].imag();
  }
  runExactDft(in.get(), out.get(), n, batch, sign);
  std::vector<std::complex<double>> rounded;
  rounded.reserve(count);
  for (size_t i = 0; i < count; ++i)
    rounded.emplace_back(static_cast<double>(out[2 * i]), static_cast<double>(out[2 * i + 1]));
  return rounded;
}

}  // namespace fftc::ir
