// fft(x) and ifft(x) as a marked map, and their value (fft_operation.h).
#include "ir/fft_operation.h"

#include <limits>
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

// exactDft of `in`, which FFTW may overwrite (its plans take non-const arrays): the callers' copy
// is the one FFTW reads (a chirp spectrum of 2^21 points is 64 MB a copy).
std::vector<std::complex<long double>> exactDftOf(std::vector<std::complex<long double>>& in,
                                                  int64_t n, int64_t batch, int sign) {
  if (n < 1 || batch < 0 || n > std::numeric_limits<int>::max() ||
      batch > std::numeric_limits<int>::max() || static_cast<int64_t>(in.size()) != n * batch)
    throw std::invalid_argument("exactDft: " + std::to_string(in.size()) + " values for " +
                                std::to_string(batch) + " rows of " + std::to_string(n));
  std::vector<std::complex<long double>> out(in.size());
  if (batch == 0) return out;
  // fftwl_complex is long double[2], layout-compatible with std::complex<long double>
  const int len = static_cast<int>(n);
  runFftwl(
      [&] {
        return fftwl_plan_many_dft(1, &len, static_cast<int>(batch),
                                   reinterpret_cast<fftwl_complex*>(in.data()), nullptr, 1, len,
                                   reinterpret_cast<fftwl_complex*>(out.data()), nullptr, 1, len,
                                   sign < 0 ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
      },
      "exactDft");
  return out;
}

}  // namespace

std::vector<std::complex<long double>> exactDft(std::span<const std::complex<long double>> x,
                                                int64_t n, int64_t batch, int sign) {
  std::vector<std::complex<long double>> in(x.begin(), x.end());
  return exactDftOf(in, n, batch, sign);
}

std::vector<std::complex<double>> exactDftRounded(std::span<const std::complex<double>> x,
                                                  int64_t n, int sign, ScalarKind precision) {
  std::vector<std::complex<long double>> in(x.begin(), x.end());
  const auto y = exactDftOf(in, n, n == 0 ? 0 : static_cast<int64_t>(x.size()) / n, sign);
  std::vector<std::complex<double>> out(y.size());
  for (size_t i = 0; i < y.size(); ++i)
    out[i] =
        precision == ScalarKind::Float
            ? std::complex<double>(static_cast<float>(y[i].real()), static_cast<float>(y[i].imag()))
            : std::complex<double>(static_cast<double>(y[i].real()),
                                   static_cast<double>(y[i].imag()));
  return out;
}

}  // namespace fftc::ir
