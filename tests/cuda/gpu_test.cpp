// Tests that need an NVIDIA GPU (run on the device machine; skipped elsewhere): launches,
// copies, timing, dynamic shared memory above 48 KiB, and launch errors.
#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "backends/cuda/context.h"
#include "backends/cuda/nvrtc_api.h"
#include "backends/cuda/timing.h"
#include "tests/cuda/test_support.h"

namespace fftc::backends::cuda {
namespace {

using testing::kVectorAddSource;

NvrtcCompiler uncachedCompiler() {
  return NvrtcCompiler(NvrtcApi::get(), std::nullopt);
}

Kernel buildKernel(const Context& context, const std::string& source, const std::string& name) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = source;
  return context.build(compiler, request).kernel(name);
}

TEST(GpuDevice, ReportsPlausibleProperties) {
  FFTC_REQUIRE_GPU();
  const Context context(0);
  const DeviceInfo& device = context.device();
  EXPECT_FALSE(device.name.empty());
  EXPECT_GE(device.computeMajor, 7);
  EXPECT_GT(device.multiprocessors, 0);
  EXPECT_EQ(device.warpSize, 32);
  EXPECT_GE(device.maxThreadsPerBlock, 1024);
  EXPECT_EQ(device.sharedMemoryPerBlock, 48U * 1024U);
  EXPECT_GT(device.sharedMemoryPerBlockOptin, device.sharedMemoryPerBlock);
  EXPECT_GT(device.globalMemory, 1ULL << 30);
  EXPECT_EQ(context.arch(), archForComputeCapability(device.computeMajor, device.computeMinor));
  const DeviceList list = listDevices();
  EXPECT_TRUE(list.available);
  ASSERT_FALSE(list.devices.empty());
  EXPECT_EQ(list.devices[0].name, device.name);
  EXPECT_GE(list.driverVersion, 13000);
  EXPECT_THROW(Context(static_cast<int>(list.devices.size())), UserError);
}

TEST(GpuMemory, CopiesRoundTrip) {
  FFTC_REQUIRE_GPU();
  const Context context = Context::open("cuda:0");
  std::vector<int> values(1 << 20);
  std::iota(values.begin(), values.end(), -12345);
  DeviceBuffer a = context.allocate(values.size() * sizeof(int));
  DeviceBuffer b = context.allocate(values.size() * sizeof(int));
  a.upload(std::span<const int>(values));
  b.copyFrom(a, a.size());
  std::vector<int> back(values.size(), 0);
  b.download(std::span<int>(back));
  EXPECT_EQ(back, values);
  // Offsets, and a zero fill.
  std::vector<int> slice(10);
  b.copyToHost(slice.data(), slice.size() * sizeof(int), 100 * sizeof(int));
  EXPECT_EQ(slice[0], values[100]);
  b.fillZero();
  b.download(std::span<int>(back));
  EXPECT_EQ(std::count(back.begin(), back.end(), 0), static_cast<long>(back.size()));
  EXPECT_THROW(b.copyToHost(back.data(), back.size() * sizeof(int), 4), std::out_of_range);
  DeviceBuffer moved = std::move(a);
  EXPECT_EQ(a.pointer(), 0U);
  EXPECT_NE(moved.pointer(), 0U);
}

TEST(GpuLaunch, VectorAdd) {
  FFTC_REQUIRE_GPU();
  const Context context(0);
  const Kernel kernel = buildKernel(context, kVectorAddSource, "vector_add");
  const int n = 1000003;  // not a multiple of the block size
  std::vector<float> a(n);
  std::vector<float> b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5F * static_cast<float>(i % 977);
  }
  DeviceBuffer da = context.allocate(n * sizeof(float));
  DeviceBuffer db = context.allocate(n * sizeof(float));
  DeviceBuffer dc = context.allocate(n * sizeof(float));
  da.upload(std::span<const float>(a));
  db.upload(std::span<const float>(b));
  dc.fillZero();
  KernelArgs args;
  args.add(da).add(db).add(dc).add(n);
  kernel.launch({.grid = {(n + 255) / 256}, .block = {256}}, args);
  context.synchronize();
  std::vector<float> c(n);
  dc.download(std::span<float>(c));
  for (int i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << "at " << i;
}

TEST(GpuTiming, SequenceOfStagesTakesPositiveTime) {
  FFTC_REQUIRE_GPU();
  const Context context(0);
  const Kernel kernel = buildKernel(context, kVectorAddSource, "vector_add");
  const int n = 1 << 24;
  DeviceBuffer a = context.allocate(n * sizeof(float));
  DeviceBuffer b = context.allocate(n * sizeof(float));
  a.fillZero();
  b.fillZero();
  const LaunchConfig config{.grid = {n / 256}, .block = {256}};
  // Two stages, as a two-pass plan: b = a + a, then a = b + b.
  std::vector<Launch> stages{
      {kernel, config, KernelArgs().add(a).add(a).add(b).add(n)},
      {kernel, config, KernelArgs().add(b).add(b).add(a).add(n)},
  };
  const std::vector<double> ms = timeRuns(context, stages, 2, 5);
  ASSERT_EQ(ms.size(), 5U);
  for (const double t : ms) {
    EXPECT_GT(t, 0.0);
    EXPECT_LT(t, 1000.0);
  }
  const double one = timeOnce(context, std::span<const Launch>(stages).first(1));
  EXPECT_GT(one, 0.0);
}

// Each block fills `bytes` of dynamic shared memory and sums it back: the launch needs the
// opt-in above 48 KiB, and the sum shows that all of it was usable.
constexpr const char* kSharedSource = R"(
extern "C" __global__ void shared_sum(unsigned* out, unsigned words) {
  extern __shared__ unsigned buffer[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) buffer[i] = i;
  __syncthreads();
  if (threadIdx.x == 0) {
    unsigned sum = 0;
    for (unsigned i = 0; i < words; ++i) sum += buffer[i];
    out[blockIdx.x] = sum;
  }
}
)";

TEST(GpuSharedMemory, DynamicSharedMemoryAbove48KiB) {
  FFTC_REQUIRE_GPU();
  const Context context(0);
  const Kernel kernel = buildKernel(context, kSharedSource, "shared_sum");
  const unsigned bytes = 160U * 1024U;  // within H100/H200's 227 KiB opt-in
  ASSERT_GE(context.device().sharedMemoryPerBlockOptin, bytes);
  const unsigned words = bytes / 4;
  DeviceBuffer out = context.allocate(4 * sizeof(unsigned));
  out.fillZero();
  kernel.launch({.grid = {4}, .block = {256}, .sharedMemoryBytes = bytes},
                KernelArgs().add(out).add(words));
  context.synchronize();
  EXPECT_GE(kernel.attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES),
            static_cast<int>(bytes));
  std::vector<unsigned> sums(4);
  out.download(std::span<unsigned>(sums));
  const unsigned expected = words * (words - 1) / 2;
  for (const unsigned sum : sums) EXPECT_EQ(sum, expected);

  const auto tooMuch = static_cast<unsigned>(context.device().sharedMemoryPerBlockOptin + 1024);
  try {
    kernel.launch({.grid = {1}, .block = {32}, .sharedMemoryBytes = tooMuch},
                  KernelArgs().add(out).add(words));
    FAIL() << "launched with more shared memory than the device has";
  } catch (const DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find("shared_sum"), std::string::npos) << error.what();
  }
}

TEST(GpuLaunch, ErrorsNameTheKernelOrTheCall) {
  FFTC_REQUIRE_GPU();
  const Context context(0);
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  const Module module = context.build(compiler, request);
  EXPECT_THROW(static_cast<void>(module.kernel("no_such_kernel")), DeviceError);
  const Kernel kernel = module.kernel("vector_add");
  try {
    kernel.launch({.grid = {1}, .block = {2048}}, KernelArgs());
    FAIL() << "launched 2048 threads per block";
  } catch (const DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find("vector_add"), std::string::npos) << error.what();
  }
  // A CUBIN for another architecture does not load, and the error says which.
  request.arch = context.arch() == "sm_90" ? "sm_80" : "sm_90";
  try {
    static_cast<void>(context.load(compiler.compile(request)));
    FAIL() << "loaded " << request.arch << " code on " << context.arch();
  } catch (const DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find(request.arch), std::string::npos) << error.what();
  }
}

TEST(GpuLaunch, PtxIsJitCompiledByTheDriver) {
  FFTC_REQUIRE_GPU();
  const Context context(0);
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.arch = "compute_" + context.arch().substr(3);
  const CompiledProgram ptx = compiler.compile(request);
  ASSERT_EQ(ptx.kind, BinaryKind::Ptx);
  const Kernel kernel = context.load(ptx).kernel("vector_add");
  DeviceBuffer x = context.allocate(64 * sizeof(float));
  std::vector<float> ones(64, 1.0F);
  x.upload(std::span<const float>(ones));
  kernel.launch({.grid = {1}, .block = {64}}, KernelArgs().add(x).add(x).add(x).add(64));
  context.synchronize();
  x.download(std::span<float>(ones));
  EXPECT_EQ(ones[63], 2.0F);
}

}  // namespace
}  // namespace fftc::backends::cuda
