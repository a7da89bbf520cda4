// nd.fdl's real kernels r2c and c2r through the reference interpreter, against FFTW's r2c/c2r
// in long double (fftw_reference.h): 1D, 2D and 3D, even and odd last dimensions (the even
// ones by the half-size complex FFT), smooth and Bluestein dimensions, round trips; and a
// negative control.
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

using Dims = std::vector<int64_t>;

// The bindings the planner gives nd.fdl for a real transform of `dims` (the last one real).
Defines realDefines(const Dims& dims, int64_t batch) {
  const int64_t nr = dims.back();
  const bool even = nr % 2 == 0 && nr > 1;
  Dims ns(dims.begin(), dims.end() - 1);
  ns.push_back(even ? nr / 2 : nr);
  Radices rsAll;
  Dims offs{0}, bl, gs{0};
  for (int64_t n : ns) {
    auto rs = greedyRadices(n);
    Radices use = rs ? *rs : bluesteinRadices(n);
    rsAll.insert(rsAll.end(), use.begin(), use.end());
    offs.push_back(static_cast<int64_t>(rsAll.size()));
    bl.push_back(rs ? 0 : 1);
    gs.push_back(static_cast<int64_t>(gs.size()));
  }
  return {{"ns", ns},
          {"rsAll", rsAll},
          {"offs", offs},
          {"bluestein", bl},
          {"gs", gs},
          {"nr", nr},
          {"even", int64_t{even ? 1 : 0}},
          {"B", batch}};
}

int64_t total(const Dims& d) {
  return product(d);
}
int64_t half(const Dims& d) {
  return total(d) / d.back() * (d.back() / 2 + 1);
}

std::vector<double> realInput(size_t count, uint64_t seed) {
  std::vector<double> x;
  for (const auto& c : randomInput((count + 1) / 2, seed)) {
    x.push_back(c.real());
    x.push_back(c.imag());
  }
  x.resize(count);
  return x;
}

ir::Value run(const Dims& dims, int64_t batch, ir::ScalarKind p, const std::string& kernel,
              const ir::Value& in, const std::string& mutateFrom = "",
              const std::string& mutateTo = "") {
  FftCase c{.file = "nd.fdl",
            .kernel = kernel,
            .defines = realDefines(dims, batch),
            .precision = p,
            .direction = kernel == "r2c" ? Direction::Forward : Direction::Inverse,
            .mutateFrom = mutateFrom,
            .mutateTo = mutateTo};
  fe::Program prog = compileLibrary(c);
  const fe::Kernel* k = prog.kernel(kernel);
  if (!k) throw std::runtime_error("no kernel " + kernel);
  return ir::interpretCall(k->lambda, {in});
}

// linf of r2c against FFTW (and c2r of FFTW's spectrum against FFTW's c2r when `both`).
struct RealErrors {
  double r2c = 1, c2r = 1;
};
RealErrors realErrors(const Dims& dims, int64_t batch, ir::ScalarKind p,
                      const std::string& mutateFrom = "", const std::string& mutateTo = "") {
  const int64_t n = total(dims), h = half(dims);
  auto x = realInput(static_cast<size_t>(n * batch), 77 + static_cast<uint64_t>(n));
  std::vector<long double> xl(x.begin(), x.end());
  RealErrors e;
  // R2C
  auto X = run(dims, batch, p, "r2c", ir::Value::realArray(x, p, {batch, n}), mutateFrom, mutateTo)
               .toComplexVector();
  auto refX = referenceR2c(xl, dims, batch);
  e.r2c = linfError(X, refX);
  // C2R of FFTW's spectrum (rounded to the precision), against FFTW's C2R of the same values
  std::vector<std::complex<double>> spec;
  for (const auto& v : refX) {
    auto re = static_cast<double>(v.real()), im = static_cast<double>(v.imag());
    if (p == ir::ScalarKind::Float) re = static_cast<float>(re), im = static_cast<float>(im);
    spec.emplace_back(re, im);
  }
  auto y =
      run(dims, batch, p, "c2r", ir::Value::complexArray(spec, p, {batch, h}), mutateFrom, mutateTo)
          .toRealVector();
  auto refY = referenceC2r(toLongDouble(spec), dims, batch);
  std::vector<std::complex<double>> yc(y.begin(), y.end());
  std::vector<ComplexL> refYc(refY.begin(), refY.end());
  e.c2r = linfError(yc, refYc);
  // the round trip: c2r(r2c(x)) = n x
  for (size_t i = 0; i < xl.size(); ++i) refYc[i] = ComplexL(xl[i] * static_cast<long double>(n));
  e.c2r = std::max(e.c2r, linfError(yc, refYc));
  return e;
}

void expectReal(const Dims& dims, int64_t batch, ir::ScalarKind p) {
  std::string what = "dims";
  for (int64_t d : dims) what += " " + std::to_string(d);
  what += std::string(" ") + precisionName(p) + " batch " + std::to_string(batch);
  RealErrors e;
  try {
    e = realErrors(dims, batch, p);
  } catch (const ir::CompileError& err) {
    FAIL() << what << "\n" << fe::formatError(err);
  }
  const double tol = tolerance(total(dims), p);
  EXPECT_LT(e.r2c, tol) << what << " r2c";
  EXPECT_LT(e.c2r, tol) << what << " c2r";
}

TEST(RealFft, OneDimension) {
  for (int64_t n : {1, 2, 3, 8, 12, 15, 17, 22, 64}) expectReal({n}, 2, ir::ScalarKind::Float);
  expectReal({30}, 1, ir::ScalarKind::Double);
  expectReal({13}, 1, ir::ScalarKind::Double);
}

TEST(RealFft, TwoAndThreeDimensions) {
  expectReal({6, 8}, 2, ir::ScalarKind::Float);     // even last dimension
  expectReal({5, 7}, 1, ir::ScalarKind::Float);     // odd, prime
  expectReal({11, 10}, 1, ir::ScalarKind::Double);  // a Bluestein outer dimension
  expectReal({3, 4, 6}, 2, ir::ScalarKind::Float);
  expectReal({4, 3, 5}, 1, ir::ScalarKind::Double);
}

// Negative control: the post-processing tables with the sign of i·w flipped.
TEST(RealFft, CheckCanFail) {
  auto e = realErrors({4, 8}, 1, ir::ScalarKind::Double, "({1.0, 0.0} + {0.0, pm * s * 1.0}",
                      "({1.0, 0.0} - {0.0, pm * s * 1.0}");
  EXPECT_GT(e.r2c, 1e-3);
  EXPECT_GT(e.c2r, 1e-3);
}

}  // namespace
}  // namespace fftc::fftlib::test
