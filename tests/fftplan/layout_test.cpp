// Advanced layouts (FftRequest::inLayout / outLayout: FFTW's plan_many embed, stride, dist;
// issue 7) through the planner and the API on OpenCL (PoCL here), against FFTW's plan_many
// in long double on the same buffers (fft_check.h, run_checked.h): the input buffer is NaN
// outside the input layout, so a plan that reads a hole produces NaN; the output buffer starts
// as NaN, and every element FFTW does not write must still be NaN after the plan (out of
// place), so a plan that writes a hole is caught. The check's own negative controls are at the
// end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/opencl/runtime.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/fft_check.h"
#include "fftlib/plan/planner.h"
#include "fftlib/plan/run_checked.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

namespace cl = backends::opencl;
using Dims = std::vector<int64_t>;

cl::Context& context() { return fftc::testing::openclContext(); }

FftRequest request(Dims dims, int64_t batch, DataLayout in, DataLayout out, bool real = false,
                   Direction direction = Direction::Forward, Precision p = Precision::F32) {
  FftRequest r = shapeRequest(std::move(dims), batch, p);
  r.real = real;
  r.direction = direction;
  r.inLayout = std::move(in);
  r.outLayout = std::move(out);
  return r;
}

// The elements of the output side: batch x the dims (the half spectrum for R2C).
int64_t outputElements(const FftRequest& r) {
  const auto dims = requestDims(r);
  const int64_t last = r.real && r.direction == Direction::Forward ? dims.back() / 2 + 1 : dims.back();
  return r.batch * r.size / dims.back() * last;
}

template <typename T = float>
void expectAccurate(const FftRequest& r, bool inPlace = false) {
  SCOPED_TRACE(r.key() + (inPlace ? " in place" : ""));
  Plan plan = Plan::create(context(), r);
  const FftCheck check = makeCheck(r, 11);
  const FftErrors e = runChecked<T>(plan, context(), check, inPlace);
  EXPECT_EQ(e.compared, outputElements(r));  // every output element compared
  EXPECT_LE(e.linf, check.tolerance);
  EXPECT_EQ(e.holesWritten, 0);
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

// The check can fail: a wrong value, a written hole, a value read from a hole (NaN).
TEST(Layouts, TheCheckCatchesWrongValuesAndWrittenHoles) {
  auto r = request({16}, 2, {{}, 2, 40}, {{}, 1, 20});
  const FftCheck check = makeCheck(r, 3);
  std::vector<double> y(check.reference.begin(), check.reference.end());  // FFTW's own answer
  auto e = compareOutput(check, y, true);
  EXPECT_EQ(e.compared, 32);
  EXPECT_LE(e.linf, 1e-15);  // FFTW's long double answer rounded to double
  EXPECT_EQ(e.holesWritten, 0);
  // the input: NaN but at the layout's 2 x 16 complex elements
  int64_t finite = 0;
  for (double v : check.input) finite += !std::isnan(v);
  EXPECT_EQ(finite, 64);
  auto wrong = y;
  wrong[2 * 20 + 1] += 0.5;  // transform 1, element 0, imaginary part
  EXPECT_GT(compareOutput(check, wrong, true).linf, 1e-3);
  auto hole = y;
  hole[2 * 17] = 0;  // after transform 0's 16 elements
  EXPECT_EQ(compareOutput(check, hole, true).holesWritten, 1);
  EXPECT_EQ(compareOutput(check, hole, false).holesWritten, 0);  // in place: not counted
  auto nan = y;
  nan[0] = std::nan("");
  EXPECT_FALSE(compareOutput(check, nan, true).ok(check.tolerance));
}

// The tuner's check of the first transforms only (at most maxCheckedElements elements).
TEST(Layouts, TheCheckCanCoverTheFirstTransformsOnly) {
  auto r = request({16}, 100, {}, {});
  const FftCheck part = makeCheck(r, 5, 64);  // 4 transforms of 16
  const FftCheck all = makeCheck(r, 5);
  EXPECT_EQ(part.checkedBatch, 4);
  EXPECT_EQ(part.reference.size(), 4u * 16 * 2);
  EXPECT_EQ(part.outputScalars, all.outputScalars);
  EXPECT_EQ(all.outputScalars, 100u * 16 * 2);
  ASSERT_EQ(part.input.size(), all.input.size());
  EXPECT_TRUE(std::equal(part.input.begin(), part.input.begin() + 128, all.input.begin()));
  std::vector<double> y(all.reference.begin(), all.reference.end());
  auto e = compareOutput(part, y, true);
  EXPECT_EQ(e.compared, 64);
  EXPECT_EQ(e.holesWritten, 0);  // the unchecked transforms are no holes
  EXPECT_LE(e.linf, 1e-15);
  y[2 * 16 * 3] += 1;  // transform 3: checked
  EXPECT_GT(compareOutput(part, y, true).linf, 1e-3);
  // with a layout every element is checked
  auto strided = request({16}, 100, {{}, 1, 20}, {});
  const FftCheck whole = makeCheck(strided, 5, 64);
  EXPECT_EQ(whole.checkedBatch, 100);
  EXPECT_EQ(whole.reference.size(), whole.outputScalars);
}

}  // namespace
}  // namespace fftc::fftlib::test
