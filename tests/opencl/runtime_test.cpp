// Kernels, arguments, launches and timing on the default device, with hand-checked results.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "tests/opencl/opencl_fixture.h"

namespace fftc::backends::opencl {
namespace {

using testing::kVectorAddSource;
using testing::sharedContext;

constexpr const char* kReverseSource = R"CL(
// Reverses each work-group's slice through local memory.
__kernel void reverse_groups(__global const int* in, __global int* out, __local int* tile) {
  size_t l = get_local_id(0);
  size_t base = get_group_id(0) * get_local_size(0);
  tile[l] = in[base + l];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[base + l] = tile[get_local_size(0) - 1 - l];
}
)CL";

constexpr const char* kMiscSource = R"CL(
__kernel void grid(__global int* out, int width) {
  int x = get_global_id(0);
  int y = get_global_id(1);
  out[y * width + x] = 1000 * y + x;
}
__kernel void add_one(__global const float* in, __global float* out) {
  int i = get_global_id(0);
  out[i] = in[i] + 1.0f;
}
__kernel void twice(__global const float* in, __global float* out) {
  int i = get_global_id(0);
  out[i] = 2.0f * in[i];
}
__kernel void axpb(__global float* x, float a, float b, int c) {
  int i = get_global_id(0);
  x[i] = a * x[i] + b + (float)c;
}
)CL";

constexpr const char* kDoubleSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void scale(__global double* x, double a) {
  int i = get_global_id(0);
  x[i] = a * x[i];
}
)CL";

// Built once: every test below reuses the programs.
const Program& miscProgram() {
  static const Program program = sharedContext().build(kMiscSource);
  return program;
}

TEST(OpenclRuntime, VectorAddGivesTheSums) {
  Context& ctx = sharedContext();
  const Program program = ctx.build(kVectorAddSource);
  constexpr int n = 1000;
  std::vector<float> a(n);
  std::vector<float> b(n);
  for (int i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(2 * i);
  }
  Buffer da = Buffer::from<float>(ctx, a);
  Buffer db = Buffer::from<float>(ctx, b);
  Buffer dc = Buffer::of<float>(ctx, n);
  Kernel kernel(program, "vadd");
  EXPECT_EQ(kernel.argCount(), 4U);
  kernel.setArgs(da, db, dc, n);
  // 1024 work-items for 1000 elements: the guard in the kernel must hold.
  launch(ctx, kernel, NDRange(1024), NDRange(64)).wait();
  const std::vector<float> c = dc.read<float>(ctx);
  ASSERT_EQ(c.size(), static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(c[i], static_cast<float>(3 * i)) << "at " << i;
  }
}

TEST(OpenclRuntime, LocalMemoryReversalReversesEachGroup) {
  Context& ctx = sharedContext();
  const Program program = ctx.build(kReverseSource);
  constexpr std::size_t group = 16;
  constexpr std::size_t n = 4 * group;
  std::vector<int> in(n);
  std::iota(in.begin(), in.end(), 100);
  Buffer din = Buffer::from<int>(ctx, in);
  Buffer dout = Buffer::of<int>(ctx, n);
  Kernel kernel(program, "reverse_groups");
  kernel.setArgs(din, dout, LocalMemory{group * sizeof(int)});
  launch(ctx, kernel, NDRange(n), NDRange(group)).wait();
  const std::vector<int> out = dout.read<int>(ctx);
  // Group 0 holds 100..115 and becomes 115..100; group 1 holds 116..131; ...
  EXPECT_EQ(out[0], 115);
  EXPECT_EQ(out[15], 100);
  EXPECT_EQ(out[16], 131);
  for (std::size_t g = 0; g < n / group; ++g) {
    for (std::size_t l = 0; l < group; ++l) {
      ASSERT_EQ(out[g * group + l], in[g * group + group - 1 - l])
          << "group " << g << " item " << l;
    }
  }
}

TEST(OpenclRuntime, TwoDimensionalRange) {
  Context& ctx = sharedContext();
  Kernel kernel(miscProgram(), "grid");
  constexpr int width = 8;
  constexpr int height = 4;
  Buffer out = Buffer::of<int>(ctx, width * height);
  kernel.setArgs(out, width);
  launch(ctx, kernel, NDRange(width, height), NDRange(4, 2)).wait();
  const std::vector<int> values = out.read<int>(ctx);
  EXPECT_EQ(values[0], 0);
  EXPECT_EQ(values[width - 1], 7);
  EXPECT_EQ(values[3 * width + 5], 3005);
}

TEST(OpenclRuntime, ScalarArgumentsIntAndFloat) {
  Context& ctx = sharedContext();
  Kernel kernel(miscProgram(), "axpb");
  std::vector<float> x = {1, 2, 3, 4};
  Buffer dx = Buffer::from<float>(ctx, x);
  kernel.setArgs(dx, 3.0F, 0.5F, 10);  // 3x + 0.5 + 10
  launch(ctx, kernel, NDRange(4)).wait();
  EXPECT_EQ(dx.read<float>(ctx), (std::vector<float>{13.5F, 16.5F, 19.5F, 22.5F}));
}

TEST(OpenclRuntime, DynamicArgumentsFromKernelArg) {
  Context& ctx = sharedContext();
  Kernel kernel(miscProgram(), "axpb");
  Buffer dx = Buffer::from<float>(ctx, std::vector<float>{1, 2});
  const std::vector<KernelArg> args = {&dx, 2.0F, 1.0F, std::int32_t{-1}};  // 2x + 1 - 1
  kernel.setArgs(args);
  launch(ctx, kernel, NDRange(2)).wait();
  EXPECT_EQ(dx.read<float>(ctx), (std::vector<float>{2.0F, 4.0F}));
}

TEST(OpenclRuntime, DoubleScalarAndBuffer) {
  Context& ctx = sharedContext();
  if (!ctx.device().doubleSupport) {
    EXPECT_THROW(ctx.requireDoubleSupport(), UserError);
    // Only a GPU's OpenCL may lack fp64 (scripts/gpu-tests); PoCL, where this suite runs
    // everywhere else, has it, so there a missing fp64 fails.
    ASSERT_TRUE(ctx.device().isGpu()) << ctx.device().name << " (not a GPU) reports no fp64";
    GTEST_SKIP() << ctx.device().name << " has no fp64";
  }
  ctx.requireDoubleSupport();
  Kernel kernel(ctx.build(kDoubleSource), "scale");
  Buffer dx = Buffer::from<double>(ctx, std::vector<double>{1.0, 0.1, -3.0});
  kernel.setArgs(dx, 1.0 / 3.0);
  launch(ctx, kernel, NDRange(3)).wait();
  const std::vector<double> x = dx.read<double>(ctx);
  EXPECT_EQ(x[0], 1.0 / 3.0);  // exact only in double: a float path would round differently
  EXPECT_EQ(x[1], (1.0 / 3.0) * 0.1);
  EXPECT_EQ(x[2], -1.0);
}

TEST(OpenclRuntime, RequireDoubleSupportNamesTheDevice) {
  DeviceInfo device;
  device.name = "Toy GPU";
  device.doubleSupport = false;
  try {
    requireDoubleSupport(device);
    FAIL() << "expected UserError";
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "device Toy GPU has no double-precision support");
  }
  device.doubleSupport = true;
  EXPECT_NO_THROW(requireDoubleSupport(device));
}

TEST(OpenclRuntime, SyntaxErrorGivesOneLineDeviceErrorWithTheLog) {
  Context& ctx = sharedContext();
  const char* broken = "__kernel void bad(__global float* x) {\n  x[0] = ;\n}\n";
  try {
    (void)ctx.build(broken);
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("OpenCL build failed on " + ctx.device().name + ": ", 0), 0U) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("error"), std::string::npos) << what;
    // The log holds the whole diagnostic, including the line the message quotes.
    const std::string reason = what.substr(what.find(": ") + 2);
    EXPECT_NE(e.log().find(reason), std::string::npos) << e.log();
    // ... and points at line 2 of the source, where the bad statement is.
    EXPECT_NE(e.log().find(":2:"), std::string::npos) << e.log();
    EXPECT_NE(reason.find(":2:"), std::string::npos) << reason;
  }
}

TEST(OpenclRuntime, FirstErrorLinePicksTheErrorLine) {
  EXPECT_EQ(firstErrorLine("note: a\n  <source>:2:10: error: expected expression  \nmore"),
            "<source>:2:10: error: expected expression");
  EXPECT_EQ(firstErrorLine("\n\n  only a note\n"), "only a note");
  EXPECT_EQ(firstErrorLine(""), "");
}

TEST(OpenclRuntime, UnknownKernelNameIsAClError) {
  try {
    Kernel kernel(miscProgram(), "no_such_kernel");
    FAIL() << "expected ClError";
  } catch (const ClError& e) {
    EXPECT_EQ(e.code(), CL_INVALID_KERNEL_NAME);
    EXPECT_NE(std::string(e.what()).find("clCreateKernel failed: CL_INVALID_KERNEL_NAME"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("no_such_kernel"), std::string::npos);
  }
}

TEST(OpenclRuntime, BadWorkGroupSizeIsADeviceErrorNotAnAbort) {
  Context& ctx = sharedContext();
  Kernel kernel(miscProgram(), "add_one");
  Buffer in = Buffer::of<float>(ctx, 64);
  Buffer out = Buffer::of<float>(ctx, 64);
  kernel.setArgs(in, out);
  const std::size_t tooBig = ctx.device().maxWorkGroupSize * 2;
  try {
    (void)launch(ctx, kernel, NDRange(tooBig), NDRange(tooBig));
    FAIL() << "expected ClError";
  } catch (const ClError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("clEnqueueNDRangeKernel failed: CL_INVALID_"), std::string::npos) << what;
    EXPECT_NE(what.find("add_one"), std::string::npos) << what;
  }
  EXPECT_THROW((void)launch(ctx, kernel, NDRange(64), NDRange(8, 8)), std::invalid_argument);
}

TEST(OpenclRuntime, ErrorNames) {
  EXPECT_EQ(errorName(CL_INVALID_WORK_GROUP_SIZE), "CL_INVALID_WORK_GROUP_SIZE");
  EXPECT_EQ(errorName(CL_BUILD_PROGRAM_FAILURE), "CL_BUILD_PROGRAM_FAILURE");
  EXPECT_EQ(errorName(-1001), "CL_PLATFORM_NOT_FOUND_KHR");
  EXPECT_EQ(errorName(-12345), "CL_ERROR_-12345");
  const ClError error(CL_OUT_OF_RESOURCES, "clFinish", "stage 2");
  EXPECT_STREQ(error.what(), "clFinish failed: CL_OUT_OF_RESOURCES (-5): stage 2");
  EXPECT_THROW(check(CL_INVALID_VALUE, "clX"), DeviceError);
  EXPECT_NO_THROW(check(CL_SUCCESS, "clX"));
}

TEST(OpenclRuntime, BufferRangesAreChecked) {
  Context& ctx = sharedContext();
  Buffer buffer = Buffer::of<float>(ctx, 4);
  EXPECT_EQ(buffer.bytes(), 16U);
  std::vector<float> five(5);
  EXPECT_THROW(buffer.write<float>(ctx, five), std::out_of_range);
  std::vector<float> two(2);
  EXPECT_THROW(buffer.read<float>(ctx, std::span<float>(two), 3), std::out_of_range);
  buffer.write<float>(ctx, std::vector<float>{1, 2}, 2);
  buffer.read<float>(ctx, std::span<float>(two), 2);
  EXPECT_EQ(two, (std::vector<float>{1, 2}));
  buffer.zero(ctx);
  EXPECT_EQ(buffer.read<float>(ctx), (std::vector<float>{0, 0, 0, 0}));
}

TEST(OpenclTiming, OneLaunchHasAPositiveFiniteTime) {
  Context& ctx = sharedContext();
  Kernel kernel(miscProgram(), "add_one");
  constexpr std::size_t n = 1 << 20;
  Buffer in = Buffer::from<float>(ctx, std::vector<float>(n, 1.0F));
  Buffer out = Buffer::of<float>(ctx, n);
  kernel.setArgs(in, out);
  const Event event = launch(ctx, kernel, NDRange(n));
  const double ms = event.ms();
  EXPECT_GT(ms, 0.0);
  EXPECT_TRUE(std::isfinite(ms));
  EXPECT_LT(ms, 60'000.0);
  EXPECT_LE(event.startNs(), event.endNs());
  EXPECT_EQ(out.read<float>(ctx)[n - 1], 2.0F);
}

TEST(OpenclTiming, SequenceCoversEveryStage) {
  Context& ctx = sharedContext();
  Kernel addOne(miscProgram(), "add_one");
  Kernel twice(miscProgram(), "twice");
  constexpr std::size_t n = 1 << 20;
  std::vector<float> host(n);
  std::iota(host.begin(), host.end(), 0.0F);
  Buffer x = Buffer::from<float>(ctx, host);
  Buffer y = Buffer::of<float>(ctx, n);
  Buffer z = Buffer::of<float>(ctx, n);
  Buffer w = Buffer::of<float>(ctx, n);
  // The same kernel in two stages with different arguments: w = 2 * (x + 1) + 1.
  const std::vector<Launch> stages = {
      Launch{&addOne, NDRange(n), std::nullopt, {&x, &y}},
      Launch{&twice, NDRange(n), NDRange(64), {&y, &z}},
      Launch{&addOne, NDRange(n), std::nullopt, {&z, &w}},
  };
  const SequenceTiming timing = timeSequence(ctx, stages);
  ASSERT_EQ(timing.stageMs.size(), 3U);
  double sum = 0;
  for (double ms : timing.stageMs) {
    EXPECT_GT(ms, 0.0);
    sum += ms;
  }
  // An in-order queue runs the stages one after another, so the span holds all three.
  EXPECT_TRUE(std::isfinite(timing.totalMs));
  EXPECT_GE(timing.totalMs, sum * (1 - 1e-9));
  const std::vector<float> result = w.read<float>(ctx);
  EXPECT_EQ(result[0], 3.0F);
  EXPECT_EQ(result[10], 23.0F);

  // The explicit events agree with the measurement's definition.
  const std::vector<Event> events = enqueueSequence(ctx, stages);
  EXPECT_LE(events[0].startNs(), events[1].startNs());
  EXPECT_LE(events[1].endNs(), events[2].endNs());
  EXPECT_DOUBLE_EQ(elapsedMs(events.front(), events.back()),
                   static_cast<double>(events[2].endNs() - events[0].startNs()) * 1e-6);

  const std::vector<double> repeated = timeRepeated(ctx, stages, 1, 3);
  ASSERT_EQ(repeated.size(), 3U);
  for (double ms : repeated) {
    EXPECT_GT(ms, 0.0);
  }
}

TEST(OpenclTiming, NDRangeFromSizes) {
  const std::vector<std::size_t> two = {8, 4};
  const NDRange range = NDRange::fromSizes(two);
  EXPECT_EQ(range.dims(), 2U);
  EXPECT_EQ(range.total(), 32U);
  EXPECT_THROW((void)NDRange::fromSizes(std::vector<std::size_t>{}), std::invalid_argument);
  EXPECT_THROW((void)NDRange::fromSizes(std::vector<std::size_t>{1, 2, 3, 4}),
               std::invalid_argument);
}

}  // namespace
}  // namespace fftc::backends::opencl
