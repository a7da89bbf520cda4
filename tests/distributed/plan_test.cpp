// The distributed plan (fftlib/distributed/distributed_plan.h) in one process (SelfTransport,
// P = 1) on OpenCL (PoCL here): every stage's local plan and its views of the blocks, the data on
// the device throughout, against FFTW's N-D DFT in long double; a local plan through view
// layouts against FFTW. Several ranks: the mpi tests (tests/distributed/CMakeLists.txt) run
// `fftc run --distributed` under mpirun.
#include <gtest/gtest.h>

#include <complex>
#include <stdexcept>

#include "backends/common/device_error.h"
#include "fftlib/distributed/distributed_plan.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/plan_request.h"
#include "tests/support/opencl_device.h"

namespace fftc::distributed::test {
namespace {

using fftlib::Direction;
using fftlib::Precision;

struct Case {
  std::vector<int64_t> dims;
  Decomposition decomposition;
  Direction direction;
  OutputDistribution output;
  bool scale;
};

template <typename T>
double planError(const Case& c, Precision precision) {
  SelfTransport self;
  DistributedRequest r;
  r.dims = c.dims;
  r.decomposition = c.decomposition;
  r.direction = c.direction;
  r.output = c.output;
  r.scale = c.scale;
  r.precision = precision;
  auto device = openClDevice(fftc::testing::openclContext());
  auto plan = DistributedPlan::create(self, r, *device);
  const auto n = static_cast<std::size_t>(fftlib::product(c.dims));
  EXPECT_EQ(plan.inputBox().count(), static_cast<int64_t>(n));
  const auto x = fftlib::uniformInput<T>(n, 3 + n);
  std::vector<std::complex<T>> y(n);
  plan.execute<T>(x, y);
  auto ref = fftlib::referenceDft(fftlib::toLongDouble(std::span<const std::complex<T>>(x)),
                                  c.dims, 1, c.direction);
  if (c.scale)
    for (auto& v : ref) v /= static_cast<long double>(n);
  return fftlib::linfError(std::span<const std::complex<T>>(y), ref);
}

TEST(DistributedPlanSelf, MatchesFftw) {
  // Few plans (PoCL compiles each): the pencil's permuted storage and its exchange back to the
  // input's blocks; the inverse slab's strided first stage and 2D last stage, in f64.
  const Case pencil{{4, 6, 5}, Decomposition::Pencil, Direction::Forward,
                    OutputDistribution::SameAsInput, true};
  EXPECT_LE(planError<float>(pencil, Precision::F32), fftlib::fftTolerance(120, Precision::F32));
  const Case slab{{6, 5, 4}, Decomposition::Slab, Direction::Inverse,
                  OutputDistribution::Transposed, false};
  EXPECT_LE(planError<double>(slab, Precision::F64), fftlib::fftTolerance(120, Precision::F64));
}

// A local plan through view layouts (DataLayout::viewDims), what the distributed plan fuses its
// packing with: a 4x6 FFT, batch 3, read with the batch axis innermost (x[i][j][b] at 18i + 3j
// + b) and written as two messages cut along the second axis (columns 0-2, then 3-5, each
// row-major over batch, row, column), against FFTW's dense result placed by hand.
TEST(ViewLayouts, SplitAndPermutedAxesMatchFftw) {
  fftlib::FftRequest r;
  r.size = 24;
  r.dims = {4, 6};
  r.batch = 3;
  r.format = false;
  r.inLayout.viewDims = {3, 4, 6};
  r.inLayout.viewStrides = {1, 18, 3};
  r.outLayout.viewDims = {3, 4, 2, 3};
  r.outLayout.viewStrides = {12, 3, 36, 1};
  auto device = openClDevice(fftc::testing::openclContext());
  auto plan = device->plan(r);
  const auto x = fftlib::uniformInput<float>(72, 5);  // dense: x[b][i][j]
  std::vector<std::complex<float>> buffer(72), y(72);
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j) buffer[18 * i + 3 * j + b] = x[24 * b + 6 * i + j];
  auto in = device->allocate(72 * sizeof(y[0])), out = device->allocate(72 * sizeof(y[0]));
  device->upload(*in, buffer.data(), 72 * sizeof(y[0]));
  plan->execute(*in, *out);
  device->download(*out, y.data(), 72 * sizeof(y[0]));
  const auto ref = fftlib::referenceDft(fftlib::toLongDouble(std::span<const std::complex<float>>(x)),
                                        r.dims, 3, fftlib::Direction::Forward);
  std::vector<std::complex<float>> placed(72);
  for (int b = 0; b < 3; ++b)
    for (int i = 0; i < 4; ++i)
      for (int j = 0; j < 6; ++j)
        placed[24 * b + 6 * i + j] = y[static_cast<std::size_t>(36 * (j / 3) + 12 * b + 3 * i + j % 3)];
  EXPECT_LE(fftlib::linfError(std::span<const std::complex<float>>(placed), ref),
            fftlib::fftTolerance(24, fftlib::Precision::F32));
}

TEST(ViewLayouts, BadViewsAreUserErrors) {
  fftlib::FftRequest r;
  r.size = 8;
  r.batch = 2;
  r.outLayout.viewDims = {2, 4};  // 8 of the 16 elements
  r.outLayout.viewStrides = {4, 1};
  EXPECT_THROW((void)fftlib::bufferLayout(r, false), backends::UserError);
  r.outLayout.viewDims = {2, 8};  // both transforms at one place
  r.outLayout.viewStrides = {1, 1};
  EXPECT_THROW((void)fftlib::bufferLayout(r, false), backends::UserError);
  r.outLayout.viewStrides = {1, 2};  // interleaved: fine
  EXPECT_TRUE(fftlib::bufferLayout(r, false).has_value());
  r.outLayout.stride = 2;  // a view goes alone
  EXPECT_THROW((void)fftlib::bufferLayout(r, false), backends::UserError);
}

TEST(DistributedPlanSelf, WrongLengthOrPrecisionIsAUserError) {
  SelfTransport self;
  DistributedRequest r;
  r.dims = {4, 4};
  // The lengths are checked before anything reaches the device: a device that must not be used
  // beyond its buffers, with local plans that must not run (no compile).
  struct NeverRun final : LocalFft {
    void execute(const DeviceArray&, DeviceArray&) override { throw std::logic_error("ran"); }
  };
  struct HostArray final : DeviceArray {
    explicit HostArray(std::size_t n) : bytes_(n) {}
    [[nodiscard]] std::size_t bytes() const override { return bytes_; }
    [[nodiscard]] void* address() const override { return nullptr; }
    std::size_t bytes_;
  };
  struct Unused final : LocalDevice {
    std::unique_ptr<DeviceArray> allocate(std::size_t bytes) override {
      return std::make_unique<HostArray>(bytes);
    }
    void upload(DeviceArray&, const void*, std::size_t) override { throw std::logic_error("up"); }
    void download(const DeviceArray&, void*, std::size_t) override {
      throw std::logic_error("down");
    }
    void copy(const DeviceArray&, DeviceArray&, const RectCopy&) override {
      throw std::logic_error("copy");
    }
    void synchronize() override {}
    std::unique_ptr<LocalFft> plan(const fftlib::FftRequest&) override {
      return std::make_unique<NeverRun>();
    }
  } device;
  auto plan = DistributedPlan::create(self, r, device);
  std::vector<std::complex<float>> x(15), y(16);
  EXPECT_THROW(plan.execute<float>(x, y), backends::UserError);
  std::vector<std::complex<double>> xd(16), yd(16);
  EXPECT_THROW(plan.execute<double>(xd, yd), backends::UserError);
}

// agree() re-raises a rank's failure with its kind (one rank: no "rank R:" prefix).
TEST(Agree, ReRaisesTheKind) {
  SelfTransport self;
  EXPECT_NO_THROW(agree(self, nullptr));
  try {
    agree(self, std::make_exception_ptr(backends::DeviceError("no device")));
    FAIL() << "no exception";
  } catch (const backends::DeviceError& e) {
    EXPECT_STREQ(e.what(), "no device");
  }
  EXPECT_THROW(agree(self, std::make_exception_ptr(backends::UserError("bad"))),
               backends::UserError);
  EXPECT_THROW(agree(self, std::make_exception_ptr(std::logic_error("bug"))), std::runtime_error);
}

}  // namespace
}  // namespace fftc::distributed::test
