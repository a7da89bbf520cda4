// Advanced layouts (FftRequest::inLayout / outLayout: FFTW's plan_many embed, stride, dist;
// issue 7) through the planner and the API on OpenCL (PoCL here), against FFTW's plan_many
// in long double on the same buffers. FFTW itself places the data: the input buffer is NaN
// except where FFTW writes through the input layout, so a plan that reads a hole produces NaN;
// the output buffer starts as NaN, and every element FFTW does not write must still be NaN
// after the plan (out of place), so a plan that writes a hole is caught.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/opencl/runtime.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

namespace cl = backends::opencl;
using Dims = std::vector<int64_t>;

cl::Context& context() { return fftc::testing::openclContext(); }

FftRequest request(Dims dims, int64_t batch, DataLayout in, DataLayout out, bool real = false,
                   Direction direction = Direction::Forward, Precision p = Precision::F32) {
  FftRequest r;
  r.size = 1;
  for (int64_t d : dims) r.size *= d;
  if (dims.size() > 1) r.dims = dims;
  r.batch = batch;
  r.real = real;
  r.direction = direction;
  r.precision = p;
  r.inLayout = std::move(in);
  r.outLayout = std::move(out);
  r.format = false;
  return r;
}

struct Outcome {
  double linf = 0;
  int64_t compared = 0, holesChanged = 0;
};

// One side's buffer in long double: complex values, or reals (each stored as a complex with
// imaginary part 0 in `complex` for the comparison).
struct Side {
  std::vector<ComplexL> complex;
  std::vector<long double> reals;
  bool isReal = false;
};

template <typename T>
std::vector<T> toHost(const Side& s) {
  std::vector<T> h;
  if (s.isReal)
    for (long double v : s.reals) h.push_back(static_cast<T>(v));
  else
    for (const auto& c : s.complex) {
      h.push_back(static_cast<T>(c.real()));
      h.push_back(static_cast<T>(c.imag()));
    }
  return h;
}

template <typename T>
Side fromHost(const std::vector<T>& h, bool isReal) {
  Side s;
  s.isReal = isReal;
  if (isReal)
    s.reals.assign(h.begin(), h.end());
  else
    for (size_t i = 0; i + 1 < h.size(); i += 2) s.complex.emplace_back(h[i], h[i + 1]);
  return s;
}

// Runs the plan on buffers placed by FFTW and compares (see the file comment).
template <typename T>
Outcome run(const FftRequest& r, bool inPlace) {
  Plan plan = Plan::create(context(), r);
  const auto dims = requestDims(r);
  const bool r2c = r.real && r.direction == Direction::Forward;
  const bool c2r = r.real && !r2c;
  const size_t inCount = plan.inputBytes() / (r2c ? sizeof(T) : 2 * sizeof(T));
  const size_t outCount = plan.outputBytes() / (c2r ? sizeof(T) : 2 * sizeof(T));
  const long double nan = NAN;

  // the input: NaN but where FFTW writes through the input layout
  Side in;
  in.isReal = r2c;
  const auto dense = uniformInput<double>(static_cast<size_t>(r.size * r.batch), 11);
  std::vector<ComplexL> denseL(dense.begin(), dense.end());
  if (r2c) {
    in.reals.assign(inCount, nan);
    std::vector<long double> reals;
    for (const auto& c : denseL) reals.push_back(c.real());
    // (a C2R of a half spectrum into the layout: any reals will do)
    std::vector<ComplexL> half(static_cast<size_t>(r.batch * r.size / dims.back() *
                                                    (dims.back() / 2 + 1)));
    referenceR2cMany(reals, half, dims, r.batch, {}, {});
    referenceC2rMany(half, in.reals, dims, r.batch, {}, r.inLayout);
  } else if (c2r) {
    in.complex.assign(inCount, ComplexL(nan, nan));
    std::vector<long double> reals;
    for (const auto& c : denseL) reals.push_back(c.real());
    referenceR2cMany(reals, in.complex, dims, r.batch, {}, r.inLayout);  // a Hermitian input
  } else {
    in.complex.assign(inCount, ComplexL(nan, nan));
    referenceDftMany(denseL, in.complex, dims, r.batch, {}, r.inLayout, Direction::Forward);
  }
  std::vector<T> host = toHost<T>(in);
  in = fromHost(host, r2c);  // rounded to T, as the plan reads it

  // FFTW's result through both layouts, NaN where it writes nothing
  Side ref;
  ref.isReal = c2r;
  if (c2r) {
    ref.reals.assign(outCount, nan);
    referenceC2rMany(in.complex, ref.reals, dims, r.batch, r.inLayout, r.outLayout);
  } else if (r2c) {
    ref.complex.assign(outCount, ComplexL(nan, nan));
    referenceR2cMany(in.reals, ref.complex, dims, r.batch, r.inLayout, r.outLayout);
  } else {
    ref.complex.assign(outCount, ComplexL(nan, nan));
    referenceDftMany(in.complex, ref.complex, dims, r.batch, r.inLayout, r.outLayout,
                     r.direction);
  }

  std::vector<T> y((c2r ? 1 : 2) * outCount, static_cast<T>(NAN));
  if (inPlace) {
    host.resize(std::max(host.size(), y.size()), static_cast<T>(NAN));
    cl::Buffer buf = cl::Buffer::from(context(), std::span<const T>(host));
    plan.execute(buf);
    std::vector<T> all(host.size());
    buf.read(context(), std::span<T>(all));
    std::copy_n(all.begin(), y.size(), y.begin());
  } else {
    cl::Buffer a = cl::Buffer::from(context(), std::span<const T>(host));
    cl::Buffer b = cl::Buffer::from(context(), std::span<const T>(y));
    plan.execute(a, b);
    b.read(context(), std::span<T>(y));
  }
  const Side got = fromHost(y, c2r);

  Outcome o;
  std::vector<std::complex<T>> g;
  std::vector<ComplexL> w;
  for (size_t i = 0; i < outCount; ++i) {
    const ComplexL want = c2r ? ComplexL(ref.reals[i], 0) : ref.complex[i];
    const ComplexL have = c2r ? ComplexL(got.reals[i], 0) : got.complex[i];
    if (std::isnan(want.real())) {
      if (!inPlace && !std::isnan(have.real())) ++o.holesChanged;
      continue;
    }
    g.emplace_back(static_cast<T>(have.real()), static_cast<T>(have.imag()));
    w.push_back(want);
  }
  o.compared = static_cast<int64_t>(g.size());
  o.linf = linfError(std::span<const std::complex<T>>(g), w);
  return o;
}

template <typename T = float>
void expectAccurate(const FftRequest& r, bool inPlace = false) {
  SCOPED_TRACE(r.key() + (inPlace ? " in place" : ""));
  const Outcome o = run<T>(r, inPlace);
  const int64_t elements =
      r.batch * (r.real ? r.size / requestDims(r).back() *
                              (r.direction == Direction::Forward ? requestDims(r).back() / 2 + 1
                                                                 : requestDims(r).back())
                        : r.size);
  EXPECT_EQ(o.compared, elements);  // every output element compared (and finite in FFTW's)
  EXPECT_LE(o.linf, fftTolerance(r.size, r.precision));
  EXPECT_EQ(o.holesChanged, 0);
}

TEST(Layouts, StridedInputInterleavedOutput1d) {
  auto r = request({16}, 3, {{}, 2, 40}, {{}, 3, 1});
  expectAccurate(r);
  // the buffers' extents, by hand: 2·40 + 2·15 + 1 inputs, 1·2 + 3·15 + 1 outputs
  Plan p = Plan::create(context(), r);
  EXPECT_EQ(p.inputBytes(), 111u * 8);
  EXPECT_EQ(p.outputBytes(), 48u * 8);
}

TEST(Layouts, InterleavedBatchesInPlace) {
  // FFTW's and cuFFT's transforms of the columns of a matrix: stride = batch, dist = 1.
  expectAccurate(request({1000}, 4, {{}, 4, 1}, {{}, 4, 1}), true);
  expectAccurate(request({1000}, 4, {{}, 4, 1}, {{}, 4, 1}), false);
}

TEST(Layouts, MultiPassPlansInAndOutOfPlace) {
  // hierarchical (two stages through local memory) and Bluestein
  auto r = request({4096}, 2, {{}, 1, 5000}, {{}, 2, 1});
  expectAccurate(r);
  expectAccurate(r, true);
  expectAccurate(request({17}, 2, {{}, 1, 20}, {{}, 1, 19}, false, Direction::Inverse));
}

TEST(Layouts, EmbeddedNdArrays) {
  expectAccurate(request({8, 6}, 2, {{9, 7}, 1, 0}, {{10, 8}, 1, 0}));
  // a 3D transform of interleaved batches, output padded rows
  expectAccurate(request({4, 3, 5}, 3, {{}, 3, 1}, {{4, 3, 7}, 1, 0}));
}

TEST(Layouts, RealTransforms) {
  // FFTW's in-place R2C layout: each row of 6 reals padded to 2 (6/2 + 1) = 8
  expectAccurate(request({8, 6}, 2, {{8, 8}, 1, 0}, {}, true), true);
  expectAccurate(request({8, 6}, 2, {{8, 8}, 1, 0}, {}, true), false);
  // C2R of an odd length, padded output rows and spaced input transforms
  expectAccurate(request({15}, 3, {{}, 1, 9}, {{16}, 1, 0}, true, Direction::Inverse));
}

TEST(Layouts, DoublePrecision) {
  expectAccurate<double>(
      request({12}, 2, {{}, 2, 30}, {{}, 2, 1}, false, Direction::Forward, Precision::F64));
}

TEST(Layouts, TheDenseLayoutSpelledOutIsTheDefault) {
  auto dense = Plan::create(context(), request({16}, 3, {}, {}));
  auto spelled = Plan::create(context(), request({16}, 3, {{16}, 1, 16}, {{16}, 1, 16}));
  EXPECT_EQ(spelled.info().compiled.source, dense.info().compiled.source);
}

TEST(Layouts, BadLayoutsAreUserErrors) {
  auto expectError = [](const FftRequest& r, const std::string& part) {
    try {
      (void)planFft(r);
      ADD_FAILURE() << "no error for " << r.key();
    } catch (const backends::UserError& e) {
      EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
    }
  };
  expectError(request({8, 6}, 1, {{8}, 1, 0}, {}), "1 entries for 2 dimensions");
  expectError(request({8, 6}, 1, {}, {{8, 5}, 1, 0}), "below the dimension 6");
  expectError(request({16}, 1, {{}, 0, 0}, {}), "input stride 0");
  expectError(request({16}, 3, {}, {{}, 1, 8}), "share an address");
  expectError(request({16}, 3, {}, {{}, 2, 1}), "share an address");
  // a buffer smaller than the layout's extent
  Plan p = Plan::create(context(), request({16}, 3, {{}, 2, 40}, {}));
  cl::Buffer small(context(), p.inputBytes() - 8), out(context(), p.outputBytes());
  EXPECT_THROW(p.execute(small, out), backends::UserError);
}

}  // namespace
}  // namespace fftc::fftlib::test
