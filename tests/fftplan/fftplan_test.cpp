// The FFT planner and the public FFT API (fftlib/plan/) on OpenCL (PoCL on a machine without a
// GPU), every result against FFTW in long double with the tolerance of docs/fftlib.md; and
// `fftc run --check --json` end to end. ctest runs each TEST in its own process, so the sweeps
// are loops inside one TEST (the in-process plan cache and one Context are shared within it).
// FFTC_FFT_SWEEP=1 widens the every-size sweep from 1..64 to 1..256.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <array>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/opencl/runtime.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/kernel_loops.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

namespace cl = backends::opencl;
using Radices = std::vector<int64_t>;

cl::Context& context() { return fftc::testing::openclContext(); }

// Whether the device lacks `bytes` of local memory, so that the test is to be skipped: a GPU's
// OpenCL (NVIDIA's: 48 KiB, scripts/gpu-tests) may; PoCL, where this suite runs everywhere
// else, has it, so there a shortfall is a failure.
bool lacksLocalMemory(int64_t bytes) {
  const auto& d = context().device();
  if (static_cast<int64_t>(d.localMemBytes) >= bytes) return false;
  EXPECT_TRUE(d.isGpu()) << d.name << " (not a GPU) has only " << d.localMemBytes
                         << " bytes of local memory";
  return true;
}

// The typed parts of a choice (an empty or zero value when the choice is of another variant):
// a hierarchical choice's level i (rs1, rs2, rs3), its least tile columns, Bluestein's M, the
// Local variant's work-group shape.
Radices level(const PlanChoice& c, size_t i) {
  const auto* h = c.as<HierarchicalChoice>();
  return h && i < h->levels.size() ? h->levels[i] : Radices{};
}
int64_t leastColumns(const PlanChoice& c) {
  const auto* h = c.as<HierarchicalChoice>();
  return h ? h->leastColumns() : 0;
}
int64_t bluesteinM(const PlanChoice& c) {
  const auto* b = c.as<BluesteinChoice>();
  return b ? b->m : 0;
}
LocalShape localShape(const PlanChoice& c) {
  const auto* l = c.as<LocalChoice>();
  return l ? l->shape : LocalShape{};
}


struct Outcome {
  double linf = 0, l2 = 0, tolerance = 0;
  std::string plan;
};

template <typename T>
Outcome measure(const FftRequest& r, bool mismatchDirection = false) {
  Plan plan = Plan::create(context(), r);
  auto x = fftlib::uniformInput<T>(static_cast<size_t>(r.size * r.batch), 42 + static_cast<uint64_t>(r.size));
  auto y = plan.run(x);
  Direction refDir = r.direction;
  if (mismatchDirection)
    refDir = refDir == Direction::Forward ? Direction::Inverse : Direction::Forward;
  auto ref = referenceDft1d(toLongDouble(std::span<const std::complex<T>>(x)), r.size, r.batch,
                            refDir);
  if (r.scale)
    for (auto& v : ref) v /= static_cast<long double>(r.size);
  Outcome o;
  o.linf = linfError(std::span<const std::complex<T>>(y), ref);
  o.l2 = l2Error(std::span<const std::complex<T>>(y), ref);
  o.tolerance = fftTolerance(r.size, r.precision);
  o.plan = plan.info().describe();
  return o;
}

Outcome measureAny(const FftRequest& r) {
  return r.precision == Precision::F64 ? measure<double>(r) : measure<float>(r);
}

void expectAccurate(const FftRequest& r) {
  SCOPED_TRACE(r.key());
  Outcome o;
  try {
    o = measureAny(r);
  } catch (const std::exception& e) {
    ADD_FAILURE() << "failed: " << e.what();
    return;
  }
  EXPECT_LE(o.linf, o.tolerance) << o.plan << "l2 " << o.l2;
  EXPECT_LE(o.l2, o.tolerance) << o.plan;
}

FftRequest req(int64_t n, Variant v = Variant::Auto, Radices rs = {}) {
  FftRequest r;
  r.size = n;
  r.variant = v;
  r.radices = std::move(rs);
  r.format = false;  // faster compiles; the code is the same
  return r;
}

// ---- the planner's choices (no device)

TEST(Planner, RadixHeuristics) {
  EXPECT_EQ(chooseRadices(1), Radices{});
  EXPECT_EQ(chooseRadices(2), Radices{2});
  EXPECT_EQ(chooseRadices(16), Radices{16});
  EXPECT_EQ(chooseRadices(32), (Radices{8, 4}));
  EXPECT_EQ(chooseRadices(64), (Radices{8, 8}));
  EXPECT_EQ(chooseRadices(4096), (Radices{16, 16, 16}));
  EXPECT_EQ(chooseRadices(1024), (Radices{16, 8, 8}));
  EXPECT_EQ(chooseRadices(12), Radices{12});
  EXPECT_EQ(chooseRadices(48), (Radices{16, 3}));
  EXPECT_EQ(chooseRadices(96), (Radices{8, 12}));
  EXPECT_EQ(chooseRadices(60), (Radices{4, 15}));
  EXPECT_EQ(chooseRadices(243), (Radices{9, 9, 3}));
  EXPECT_EQ(chooseRadices(343), (Radices{7, 7, 7}));
  for (int64_t n = 1; n <= 4096; ++n) {
    if (!isSmooth(n)) continue;
    auto rs = chooseRadices(n);
    int64_t p = 1;
    for (int64_t r : rs) {
      EXPECT_LE(r, 16) << n;
      EXPECT_GE(r, 2) << n;
      p *= r;
    }
    EXPECT_EQ(p, n);
  }
  EXPECT_EQ(smoothSizeAtLeast(513), 525);
  // Bluestein's M: the power of two while its one kernel fits 48 KiB (2890 f32, 1445 f64
  // elements) or it is within 10% of the smooth size, else the smooth size
  const auto f32 = Precision::F32, f64 = Precision::F64;
  EXPECT_EQ(bluesteinSize(17, f32), 64);      // smooth 35
  EXPECT_EQ(bluesteinSize(257, f32), 1024);   // smooth 525
  EXPECT_EQ(bluesteinSize(257, f64), 1024);
  EXPECT_EQ(bluesteinSize(1009, f32), 2048);  // smooth 2025
  EXPECT_EQ(bluesteinSize(1009, f64), 2048);  // beyond 48 KiB, but 1.1% above 2025
  EXPECT_EQ(bluesteinSize(1500, f32), 3000);  // 4096 beyond 48 KiB and 37% above 3000
  EXPECT_EQ(bluesteinSize(700, f64), 1400);   // 2048 beyond 48 KiB in f64, 46% above 1400
  EXPECT_EQ(bluesteinSize(700, f32), 2048);
  EXPECT_EQ(bluesteinSize(4099, f32), 8232);
  EXPECT_EQ(bluesteinSize(65521, f32), 131072);  // smooth and a power of two
  EXPECT_EQ(bluesteinSize(1, f32), 1);
  EXPECT_EQ(bluesteinM(choosePlan(req(1019))), 2048);  // (1009 - 1 is smooth: Rader)
  EXPECT_EQ(largestPrimeFactor(4099), 4099);
  EXPECT_TRUE(isSmooth(1));
  EXPECT_TRUE(isSmooth(22));   // 11 and 13 are radices (radix_11_13_test.cpp)
  EXPECT_FALSE(isSmooth(34));
}

// smoothSizeAtLeast enumerates the 2,3,5,7-smooth numbers: the same as counting up from n
// (brute force, small n), and at once for the sizes where counting up took minutes (Bluestein's
// M of N = 2^24 + 43: its smooth neighbours are tens of thousands apart; values by hand).
TEST(Planner, SmoothSizeAtLeastWithoutCountingUp) {
  for (int64_t n = 1; n <= 5000; ++n) {
    int64_t m = n;
    while (largestPrimeFactor(m) > 7) ++m;
    ASSERT_EQ(smoothSizeAtLeast(n), m) << n;
  }
  EXPECT_EQ(smoothSizeAtLeast(33554517), 33592320);  // 2^10 · 3^8 · 5 = 33592320
  EXPECT_EQ(smoothSizeAtLeast(1000000000001), 1000188000000);
  EXPECT_EQ(smoothSizeAtLeast((int64_t{1} << 40) + 1), 1100753141760);
  EXPECT_EQ(smoothSizeAtLeast((int64_t{1} << 62) - 1), int64_t{1} << 62);
  EXPECT_THROW(smoothSizeAtLeast(int64_t{1} << 62 | 1), backends::UserError);
}

// A Bluestein size whose convolution is beyond the chirp spectrum fftc tabulates
// (kBluesteinMaxM) is refused by the planner at once, with the limit in one line; it planned
// for more than four minutes before (the smooth sizes above), then failed in the clang plugin.
TEST(Planner, HugeBluesteinSizeIsRefusedAtOnce) {
  auto refusal = [](auto plan) {
    try {
      plan();
    } catch (const backends::UserError& e) {
      return std::string(e.what());
    }
    return std::string("planned");
  };
  const std::string what = refusal([] { choosePlan(req(16777259)); });
  EXPECT_NE(what.find("16777259"), std::string::npos) << what;
  EXPECT_NE(what.find("33554432 points"), std::string::npos) << what;
  EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  // (a 1D request beyond 2^30 elements is refused before: bluesteinSize on its own)
  EXPECT_NE(
      refusal([] { bluesteinSize(int64_t{1} << 40 | 1, Precision::F64); }).find("33554432 points"),
      std::string::npos);
  // the largest Bluestein N (a prime whose N - 1 is not planned by radices) is within it
  EXPECT_LE(bluesteinSize(16777213, Precision::F32), kBluesteinMaxM);
  EXPECT_LE(bluesteinSize(16777213, Precision::F64), kBluesteinMaxM);
}

TEST(Planner, VariantChoice) {
  auto c = choosePlan(req(16384));  // too large for the one-kernel Local variant: four-step
  EXPECT_EQ(c.variant, Variant::Hierarchical);
  EXPECT_EQ(c.kernel, "hierarchicalLocal");
  c = choosePlan(req(2048));
  EXPECT_EQ(c.variant, Variant::Local);
  EXPECT_EQ(c.kernel, "stockhamLocal");
  c = choosePlan(req(263));  // a prime whose N - 1 = 2·131 is not smooth (257: Rader)
  EXPECT_EQ(c.variant, Variant::Bluestein);
  EXPECT_EQ(bluesteinM(c), 1024);
  EXPECT_EQ(c.kernel, "bluesteinLocal");  // M in local memory: one kernel
  EXPECT_EQ(c.stageLocal, (std::vector<std::vector<int64_t>>{
                              {1024 / *std::min_element(c.radices.begin(), c.radices.end()), 1}}));
  c = choosePlan(req(4099));
  EXPECT_EQ(bluesteinM(c), 8232);
  EXPECT_EQ(c.kernel, "bluesteinFourStep");  // M beyond local memory: 84 x 98, three passes
  EXPECT_EQ(c.radices, (Radices{12, 7, 14, 7}));
  EXPECT_EQ(c.stageLocal.size(), 3u);
  c = choosePlan(req(1));
  EXPECT_EQ(c.variant, Variant::Stockham);
  EXPECT_TRUE(c.radices.empty());
  c = choosePlan(req(1024, Variant::Hierarchical));
  EXPECT_EQ(level(c, 0), (Radices{8, 4}));
  EXPECT_EQ(level(c, 1), (Radices{8, 4}));
  c = choosePlan(req(64, Variant::Hierarchical, {4, 4, 4}));  // 16 x 4: tiles of 4 columns
  EXPECT_EQ(level(c, 0), (Radices{4}));                              // too narrow: three levels
  EXPECT_EQ(level(c, 1), (Radices{4}));
  EXPECT_EQ(level(c, 2), (Radices{4}));
  c = choosePlan(req(17, Variant::Bluestein, {5, 7}));
  EXPECT_EQ(bluesteinM(c), 35);
  EXPECT_EQ(parseVariant("cooley-tukey"), Variant::CooleyTukey);
  EXPECT_EQ(fftTolerance(17, Precision::F32), 2e-6 + 5e-7 * std::log10(17.0));  // undoubled
}

TEST(Planner, RejectsBadRequests) {
  EXPECT_THROW(choosePlan(req(0)), backends::UserError);
  EXPECT_THROW(choosePlan(req(-4)), backends::UserError);
  auto r = req(64);
  r.batch = 0;
  EXPECT_THROW(choosePlan(r), backends::UserError);
  EXPECT_THROW(choosePlan(req(64, Variant::Stockham, {4, 4})), backends::UserError);
  EXPECT_THROW(choosePlan(req(64, Variant::Auto, {4, 4, 8})), backends::UserError);
  EXPECT_THROW(choosePlan(req(64, Variant::Stockham, {1, 64})), backends::UserError);
  EXPECT_THROW(choosePlan(req(64, Variant::Hierarchical, {4, 4})), backends::UserError);
  EXPECT_THROW(choosePlan(req(17, Variant::Bluestein, {4, 8})), backends::UserError);  // 32 < 33
  EXPECT_THROW(parseVariant("radix2"), backends::UserError);
  EXPECT_THROW(parsePrecision("f16"), backends::UserError);
  EXPECT_THROW(parseDirection("backward"), backends::UserError);
  r = req(int64_t{1} << 28);
  r.batch = 16;
  EXPECT_THROW(choosePlan(r), backends::UserError);
}

// ---- on the device

TEST(FftPlan, RejectsBadUse) {
  // f64 on a device without doubles: the same device, described as one without.
  cl::DeviceInfo noDouble = context().device();
  noDouble.doubleSupport = false;
  cl::Context c(noDouble);
  auto r = req(8);
  r.precision = Precision::F64;
  EXPECT_THROW((void)Plan::create(c, r), backends::UserError);
  auto cu = req(8);
  cu.target = compiler::pipeline::Target::Cuda;
  EXPECT_THROW((void)Plan::create(context(), cu), backends::UserError);

  Plan p = Plan::create(context(), req(8));
  std::vector<std::complex<float>> shortInput(7);
  EXPECT_THROW((void)p.run(shortInput), backends::UserError);
  std::vector<std::complex<double>> wrongPrecision(8);
  EXPECT_THROW((void)p.run(wrongPrecision), backends::UserError);
  cl::Buffer small(context(), 8 * 4), ok(context(), p.bufferBytes());
  EXPECT_THROW(p.execute(small, ok), backends::UserError);
}

TEST(FftPlan, EverySizeAutoForwardF32) {
  const char* env = std::getenv("FFTC_FFT_SWEEP");
  const int64_t last = env && std::string(env) == "1" ? 256 : 64;
  for (int64_t n = 1; n <= last; ++n) {
    auto r = req(n);
    r.batch = 2;
    expectAccurate(r);
  }
}

TEST(FftPlan, SpreadOfSizes) {
  for (int64_t n : {128, 256, 1000, 1024, 4096, 243, 625, 343, 17, 257}) expectAccurate(req(n));
}

TEST(FftPlan, LargeSizes) {
  expectAccurate(req(4099));      // Bluestein, M = 8232
  expectAccurate(req(1 << 14));   // four passes
}

// Issue 6's spread of large sizes: powers of 2, 3, 5 and 7 near 2^20, a mixed product, and a
// prime above 65536 (Bluestein with M = 131220: chirp indices beyond 32 bits, a folded chirp
// spectrum of M elements).
TEST(FftPlan, LargeSpread) {
  for (int64_t n : {int64_t{1} << 20, int64_t{531441}, int64_t{390625}, int64_t{823543},
                    int64_t{248832}, int64_t{65537}}) {
    SCOPED_TRACE(n);
    expectAccurate(req(n));
  }
}

TEST(FftPlan, DoublePrecision) {
  for (int64_t n : {1, 7, 64, 1000, 257}) {
    auto r = req(n);
    r.precision = Precision::F64;
    r.batch = 2;
    expectAccurate(r);
  }
}

TEST(FftPlan, InverseAndScaling) {
  for (int64_t n : {96, 35, 19}) {
    for (bool scale : {false, true}) {
      auto r = req(n);
      r.direction = Direction::Inverse;
      r.scale = scale;
      expectAccurate(r);
    }
  }
  auto r = req(64);
  r.direction = Direction::Inverse;
  r.scale = true;
  r.precision = Precision::F64;
  expectAccurate(r);
}

TEST(FftPlan, Batch3) {
  for (int64_t n : {60, 17, 256}) {
    auto r = req(n);
    r.batch = 3;
    expectAccurate(r);
  }
}

// A prime batch in work-groups of several rows, the last one partial (rowsInGroups): the
// one-radix copy kernel, the local kernel and Bluestein in local memory, against FFTW.
TEST(FftPlan, APrimeBatchFillsWorkGroupsTheLastPartial) {
  for (int64_t n : {8, 27, 17, 23}) {
    auto r = req(n);
    r.batch = 257;
    const PlanChoice c = choosePlan(r);
    SCOPED_TRACE(c.kernel);
    const auto* b = c.as<BluesteinChoice>();
    const int64_t f = b ? b->shape.fftsPerGroup : localShape(c).fftsPerGroup;
    EXPECT_GT(f, 1);
    EXPECT_NE(257 % f, 0);
    expectAccurate(r);
  }
}

TEST(FftPlan, EachVariant) {
  const std::pair<Variant, std::vector<int64_t>> cases[] = {
      {Variant::Stockham, {64, 60}},     {Variant::StockhamTwiddle, {64, 60}},
      {Variant::CooleyTukey, {64, 60}},  {Variant::Hierarchical, {64, 1024, 60}},
      {Variant::Bluestein, {31, 64}},    {Variant::Local, {64, 60, 1000}},
  };
  for (const auto& [v, sizes] : cases)
    for (int64_t n : sizes) {
      auto r = req(n, v);
      r.batch = 2;
      expectAccurate(r);
      EXPECT_EQ(planFft(r)->choice.variant, v);
    }
  expectAccurate(req(60, Variant::CooleyTukey, {3, 4, 5}));
  expectAccurate(req(64, Variant::Stockham, {2, 16, 2}));
  expectAccurate(req(17, Variant::Bluestein, {4, 16}));  // M = 64: a power of two
}

// The check can fail: a forward transform measured against the inverse reference.
TEST(FftPlan, CheckCanFail) {
  Outcome o = measure<float>(req(16), /*mismatchDirection=*/true);
  EXPECT_GT(o.linf, 100 * o.tolerance);
}

TEST(FftPlan, DeviceBuffersInPlaceAndRepeated) {
  for (int64_t n : {16, 64, 23}) {  // one pass (not in-place safe), two passes, Bluestein
    SCOPED_TRACE(n);
    auto r = req(n);
    r.batch = 3;
    Plan plan = Plan::create(context(), r);
    auto x = fftlib::uniformInput<float>(plan.elements(), 7);
    auto in = cl::Buffer::from(context(), std::span<const std::complex<float>>(x));
    cl::Buffer out(context(), plan.bufferBytes());
    plan.execute(in, out);
    auto y1 = out.read<std::complex<float>>(context());
    plan.execute(in, out);  // again: the same result, the input unchanged
    auto y2 = out.read<std::complex<float>>(context());
    EXPECT_EQ(y1, y2);
    EXPECT_EQ(in.read<std::complex<float>>(context()), x);
    plan.execute(in);       // in place
    auto y3 = in.read<std::complex<float>>(context());
    EXPECT_EQ(y1, y3);
    auto ref = referenceDft1d(toLongDouble(std::span<const std::complex<float>>(x)), n, 3,
                              Direction::Forward);
    EXPECT_LE(linfError(std::span<const std::complex<float>>(y1), ref), fftTolerance(n, Precision::F32));
    auto times = plan.time(in, out, 1, 3);
    EXPECT_EQ(times.size(), 3u);
  }
}

TEST(FftPlan, PlanRecordsStagesAndBytes) {
  auto r = req(4096, Variant::StockhamTwiddle);
  auto p = planFft(r);
  EXPECT_EQ(p->choice.radices, (Radices{16, 16, 16}));
  EXPECT_FALSE(p->stages.empty());
  EXPECT_EQ(p->strategy, "lowerFft");
  // three passes over the array, each reading and writing 4096 complex f32 (the twiddle
  // tables are not counted)
  EXPECT_EQ(p->bytesMoved, 3 * 2 * 8 * 4096);
  EXPECT_EQ(planFft(r).get(), p.get());  // cached
}

// The Local variant: the whole FFT in one kernel (one pass over the array), its work-group
// shape chosen or given, and what it cannot do refused.
// A Local plan with a radix not a power of two pads its local arrays for its passes' stores
// (localPaddingFor): a warp's 32 stores of radix 10, 10 elements apart, padded every 16 met
// 4 - 8 a bank; with the plan's period each bank serves at most the two words of one float2
// pair (counted here from the addresses, not by the planner's model). Powers of two keep code
// generation's 16, and the padded kernel still matches FFTW.
TEST(FftPlan, LocalPaddingForTheRadices) {
  const PlanChoice c = choosePlan(req(1000));
  ASSERT_EQ(c.variant, Variant::Local);
  ASSERT_EQ(c.radices, (Radices{10, 10, 10}));
  const int64_t every = c.localPadding;
  ASSERT_GE(every, 8);
  std::map<int64_t, std::set<int64_t>> banks;
  for (int64_t t = 0; t < 32; ++t) {
    const int64_t i = 10 * t, word = 2 * (i + i / every);
    for (int64_t w : {word, word + 1}) banks[w % 32].insert(w);
  }
  for (const auto& [bank, words] : banks) EXPECT_LE(words.size(), 2u) << "bank " << bank;
  // the compiled kernel's arrays are padded so: F rows of 1000, one element every `every`
  const auto p = planFft(req(1000));
  const int64_t count = 1000 * c.stageLocal.at(0).at(1), padded = count + (count - 1) / every;
  EXPECT_EQ(p->compiled.stages.at(0).localMemoryBytes, 2 * padded * 8);
  EXPECT_EQ(choosePlan(req(4096)).localPadding, 0);
  EXPECT_EQ(localPaddingFor({16, 16, 16}, Precision::F32), 16);
  EXPECT_EQ(localPaddingFor({8, 9}, Precision::F32), 16);  // less than half: kept
  expectAccurate(req(1000));
  expectAccurate(req(60));
}

TEST(FftPlan, LocalVariantShape) {
  auto r = req(1024);
  r.batch = 4;
  auto p = planFft(r);
  EXPECT_EQ(p->choice.variant, Variant::Local);
  ASSERT_EQ(p->stages.size(), 1u);
  EXPECT_EQ(p->bytesMoved, 2 * 8 * 1024 * 4);
  EXPECT_EQ(localShape(p->choice).workgroupSize, 1024 / 8);  // radices [16, 8, 8]: 128 butterflies
  EXPECT_EQ(localShape(p->choice).fftsPerGroup, 2);        // 2 x 128 work-items
  EXPECT_EQ(p->stages[0].local, (std::vector<int64_t>{128, 2}));
  // a given shape: fewer work-items than butterflies, one row per group
  r.workgroupSize = 32;
  r.fftsPerGroup = 1;
  p = planFft(r);
  EXPECT_EQ(p->stages[0].local, (std::vector<int64_t>{32, 1}));
  EXPECT_EQ(p->stages[0].global, (std::vector<int64_t>{4 * 32, 1}));
  expectAccurate(r);
  {
    auto partial = req(256);
    partial.batch = 4;
    partial.workgroupSize = 32;
    partial.fftsPerGroup = 3;  // does not divide the batch: the last work-group is partial
    p = planFft(partial);
    EXPECT_EQ(p->stages[0].global, (std::vector<int64_t>{2 * 32, 3}));  // two groups of 3 rows
    expectAccurate(partial);
  }
  r.workgroupSize = 2048;  // more than 1024 work-items
  EXPECT_THROW(choosePlan(r), backends::UserError);
  EXPECT_THROW(choosePlan(req(8192, Variant::Local)), backends::UserError);  // 2 x 64 KiB
  EXPECT_EQ(choosePlan(req(8192)).variant, Variant::Hierarchical);
  r = req(8192);
  r.workgroupSize = 64;  // a shape no variant that fits takes: refused, no longer ignored
  EXPECT_THROW(choosePlan(r), backends::UserError);
  for (auto v : {Variant::Stockham, Variant::StockhamTwiddle, Variant::CooleyTukey}) {
    auto global = req(64, v);
    global.fftsPerGroup = 2;
    try {
      (void)choosePlan(global);
      ADD_FAILURE() << variantName(v) << " took a work-group shape";
    } catch (const backends::UserError& e) {
      EXPECT_NE(std::string(e.what()).find("work-group shape"), std::string::npos) << e.what();
    }
  }
  auto nd = req(64);
  nd.dims = {8, 8};
  nd.fftsPerGroup = 2;
  EXPECT_THROW(choosePlan(nd), backends::UserError);
  EXPECT_EQ(choosePlan(req(47)).variant, Variant::Bluestein);
  // primes up to 29 are radices of their own (plannedByRadices), beside small radices too (the
  // row then takes the work-items of the wider radix); 31 .. 43 beside others are Rader radices
  // (common.fdl raderDft), alone too where the butterfly fits a work-item (primeInOneWorkItem:
  // f32 31 .. 43); the other primes from 31 go to Bluestein's variant (raderLocal for the
  // primes whose N - 1 is 29-smooth), larger prime factors too unless they are Rader passes
  // (raderPassPlan: 2 x 67, one prime above 43 whose p - 1 is planned by radices, in four
  // local arrays that fit; not 47 x 53, nor 127 x 64 within 48 KiB)
  for (int64_t n : {31, 37}) EXPECT_EQ(choosePlan(req(n)).variant, Variant::Local) << n;
  for (int64_t n : {17, 19, 23, 29, 34, 17 * 64, 19 * 19, 23 * 32, 29 * 3, 2 * 31, 31 * 64}) {
    EXPECT_TRUE(plannedByRadices(n)) << n;
    EXPECT_NE(choosePlan(req(n)).variant, Variant::Bluestein) << n;
  }
  EXPECT_EQ(choosePlan(req(2 * 67)).variant, Variant::Local);
  for (int64_t n : {47, 53, 47 * 53, 127 * 64}) {
    EXPECT_FALSE(plannedByRadices(n)) << n;
    EXPECT_EQ(choosePlan(req(n)).variant, Variant::Bluestein) << n;
  }
  expectAccurate(req(17 * 64));
  expectAccurate(req(19 * 19));
  expectAccurate(req(23 * 32));
  expectAccurate(req(2 * 29));
  // six passes through local memory share two arrays (the code generator's reuse), each of
  // 64 elements padded by one in 16: 2 x 67 x 8 bytes; the answer still FFTW's
  auto six = req(64, Variant::Local, {2, 2, 2, 2, 2, 2});
  auto p6 = planFft(six);
  const std::string& src = p6->compiled.source;
  size_t decls = 0;
  for (size_t at = src.find("__local "); at != std::string::npos; at = src.find("__local ", at + 1))
    ++decls;
  EXPECT_EQ(decls, 2u) << src;
  EXPECT_EQ(p6->compiled.stages.at(0).localMemoryBytes, 2 * 67 * 8);
  expectAccurate(six);
}

// Odd sizes (issue 23): rows of odd length are not padded in local memory (no `>> 4` in the
// indices, two arrays of exactly F x N elements), and the butterflies' first elements are not
// multiplied by a twiddle 1 (the pad of 1s is read as the literal: no select in the source);
// powers of two keep their padding. The answers are still FFTW's.
TEST(FftPlan, OddRowsUnpaddedAndNoTwiddleOne) {
  for (const auto& [n, rs] : {std::pair<int64_t, Radices>{625, {5, 5, 5, 5}},
                              std::pair<int64_t, Radices>{243, {9, 9, 3}},
                              std::pair<int64_t, Radices>{45, {9, 5}}}) {
    auto r = req(n, Variant::Local, rs);
    r.batch = 4;
    auto p = planFft(r);
    const std::string& src = p->compiled.source;
    EXPECT_EQ(src.find(">> 4"), std::string::npos) << src;
    EXPECT_EQ(src.find(" ? "), std::string::npos) << src;
    EXPECT_EQ(p->compiled.stages.at(0).localMemoryBytes % (n * 8), 0) << n;  // whole rows
    expectAccurate(r);
  }
  auto pow2 = req(256, Variant::Local, {16, 16});
  pow2.batch = 4;
  auto p = planFft(pow2);
  EXPECT_NE(p->compiled.stages.at(0).localMemoryBytes % (256 * 8), 0);  // padded
}

// One radix (N <= 16): a work-item per row, and the rows copied through local memory.
TEST(FftPlan, LocalCopyForOneRadix) {
  auto r = req(16);
  r.batch = 64;
  auto c = choosePlan(r);
  EXPECT_EQ(c.kernel, "stockhamLocalCopy");
  EXPECT_EQ(c.stageLocal, (std::vector<std::vector<int64_t>>{{64, 1}}));
  auto p = planFft(r);
  EXPECT_EQ(p->stages.at(0).local, (std::vector<int64_t>{64, 1}));
  EXPECT_EQ(p->stages.at(0).global, (std::vector<int64_t>{64, 1}));
  // the copies: each of the 64 work-items loads its 16 elements, 64 apart, in one unrolled
  // sequence (a loop over all 1024, strided by the work-group size, waits for each load:
  // N = 16 took 1.37x cuFFT's time on an H100 that way)
  const std::string& src = p->compiled.source;
  EXPECT_NE(src.find("x[1024 * wg + lid + 960]"), std::string::npos) << src;
  EXPECT_EQ(src.find("< 1024;"), std::string::npos) << src;
  expectAccurate(r);
  r.radices = {4, 4};  // two radices: the rows' work-items load them directly
  EXPECT_EQ(choosePlan(r).kernel, "stockhamLocal");
  // an odd batch: the largest divisor of it, not one row per group
  auto odd = req(12);
  odd.batch = 15;
  EXPECT_EQ(localShape(choosePlan(odd)).fftsPerGroup, 15);
  expectAccurate(odd);
}

// The plan's work-group shapes are the generated kernel's (issue 19: nothing reshapes them
// after code generation): the manifest's local sizes are PlanChoice::stageLocal, the number of
// work-groups is what the kernel has with its own shapes, and the plan launches the manifest.
// 1009's Bluestein kernel is where the two differ.
TEST(Planner, TheKernelCarriesThePlansWorkGroupShapes) {
  for (int64_t n : {int64_t{100000}, int64_t{1009}, int64_t{4096}}) {
    const FftRequest r = req(n);
    const PlanChoice choice = choosePlan(r);
    PlanChoice own = choice;
    own.stageLocal.clear();
    const auto shaped = compileChoice(r, choice), unshaped = compileChoice(r, own);
    ASSERT_EQ(shaped->compiled.stages.size(), choice.stageLocal.size()) << n;
    ASSERT_EQ(unshaped->stages.size(), shaped->stages.size()) << n;
    bool differs = false;
    for (size_t k = 0; k < shaped->stages.size(); ++k) {
      const PlanStage &s = shaped->stages[k], &o = unshaped->stages[k];
      const auto& want = choice.stageLocal[k];
      for (size_t d = 0; d < s.local.size(); ++d) {
        EXPECT_EQ(shaped->compiled.stages[k].local[d].evaluate({}), s.local[d]) << n;
        EXPECT_EQ(shaped->compiled.stages[k].global[d].evaluate({}), s.global[d]) << n;
        EXPECT_EQ(s.global[d] / s.local[d], o.global[d] / o.local[d]) << n << " stage " << k;
        if (d < want.size()) {
          EXPECT_EQ(s.local[d], want[d]) << n << " stage " << k;
        }
        differs = differs || s.local[d] != o.local[d];
      }
    }
    if (n == 1009) {
      EXPECT_TRUE(differs) << n << ": a size where the shapes differ";
    }
  }
}

// The hierarchical plans let the tiles' passes share one local array; the automatic tiles and a
// request's F count the one array (oneArrayTile: each pass after the first with n / rs[1]
// butterflies, the row's work-items), so 2^18 takes two levels of 8-column tiles (three of 16 before session 16).
TEST(Planner, HierarchicalTilesOneArray) {
  EXPECT_TRUE(oneArrayTile({16, 16}));
  EXPECT_TRUE(oneArrayTile({16, 8, 8}));
  EXPECT_FALSE(oneArrayTile({16, 16, 8}));  // the second pass: 128 of 256 work-items
  EXPECT_FALSE(oneArrayTile({16}));         // one pass: one array anyway
  EXPECT_TRUE(oneArrayTile({4, 4, 4, 4, 4, 4}));                     // 1024 work-items
  EXPECT_FALSE(oneArrayTile({2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2}));  // 2048
  auto r = req(int64_t{1} << 18);
  auto c = choosePlan(r);
  EXPECT_TRUE(c.localReuseInPass);
  EXPECT_EQ(c.kernel, "hierarchicalLocal");  // [8, 8, 8] x [8, 8, 8]
  EXPECT_EQ(leastColumns(c), 8);  // two arrays of 8 columns would take 69616 bytes, one 34808
  r.levels = 3;
  c = choosePlan(r);
  EXPECT_EQ(c.kernel, "hierarchicalLocal3");  // 16-column tiles of [8, 8]
  EXPECT_EQ(leastColumns(c), 16);
  r.levels = 2;
  r.fftsPerGroup = 8;
  EXPECT_EQ(leastColumns(choosePlan(r)), 8);
  r.levels = 0;
  r.levelSizes = {256, 1024};  // [16, 8, 8]: 8 columns would take 70 KB in one array
  EXPECT_THROW((void)choosePlan(r), backends::UserError);
  r.levelSizes = {512, 512};
  EXPECT_EQ(leastColumns(choosePlan(r)), 8);
  // [16, 32]: 16 work-items a row (n / rs[1]), two radix-16 butterflies each in the first
  // pass (from global memory), then one radix-32 each: one array (two before, with 32
  // work-items, of which 16 idled through the radix-32 pass)
  r.radices = {16, 32, 16, 32};
  EXPECT_TRUE(oneArrayTile({16, 32}));
  EXPECT_EQ(tileWorkItems({16, 32}), 16);
  c = choosePlan(r);
  EXPECT_EQ(leastColumns(c), 8);
  EXPECT_EQ(c.stageLocal.at(0), (std::vector<int64_t>{8, 16}));
  r.radices = {16, 16, 2, 16, 16, 2};  // two arrays, 256 work-items a row: 8 columns take 2048
  EXPECT_FALSE(oneArrayTile({16, 16, 2}));
  EXPECT_THROW((void)choosePlan(r), backends::UserError);
}

// The hierarchical (four-step) variant: one stage per level, each transforming tiles of F
// adjacent columns in local memory; two levels while every tile is 64 bytes wide, else three.
TEST(Planner, HierarchicalShape) {
  auto c = choosePlan(req(4096, Variant::Hierarchical));
  EXPECT_EQ(c.kernel, "hierarchicalLocal");
  EXPECT_EQ(level(c, 0), (Radices{8, 8}));
  EXPECT_EQ(level(c, 1), (Radices{8, 8}));
  EXPECT_TRUE(level(c, 2).empty());
  EXPECT_EQ(std::get<int64_t>(c.defines.at("F1")), 16);  // 16 x 8 bytes: a 128-byte line
  EXPECT_EQ(std::get<int64_t>(c.defines.at("F2")), 16);
  EXPECT_EQ(c.stageLocal, (std::vector<std::vector<int64_t>>{{16, 8}, {16, 8}}));
  auto f64 = req(4096, Variant::Hierarchical);
  f64.precision = Precision::F64;
  EXPECT_EQ(leastColumns(choosePlan(f64)), 8);  // 8 x 16 bytes
  // 2^19 = 512 x 1024: a tile of 1024 is at most 2 columns wide (16 bytes), so three levels
  c = choosePlan(req(int64_t{1} << 19));
  EXPECT_EQ(c.variant, Variant::Hierarchical);
  EXPECT_EQ(c.kernel, "hierarchicalLocal3");
  int64_t n = 1;
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_FALSE(level(c, i).empty());
    for (int64_t x : level(c, i)) n *= x;
  }
  EXPECT_EQ(n, int64_t{1} << 19);
  ASSERT_EQ(c.stageLocal.size(), 3u);
  for (const auto& l : c.stageLocal) EXPECT_GE(l.at(0), 4);
  // the request's radices, split as N itself: n1 the largest prefix product at most sqrt(N)
  c = choosePlan(req(4096, Variant::Hierarchical, {4, 4, 16, 16}));
  EXPECT_EQ(level(c, 0), (Radices{4, 4}));
  EXPECT_EQ(level(c, 1), (Radices{16, 16}));
  c = choosePlan(req(4096, Variant::Hierarchical, {128, 2, 16}));  // one radix at least
  EXPECT_EQ(level(c, 0), (Radices{128}));
  EXPECT_EQ(level(c, 1), (Radices{2, 16}));
  auto split3 = req(int64_t{1} << 20, Variant::Hierarchical, {8, 8, 16, 8, 16, 8});
  split3.levels = 3;  // 64 <= 2^(20/3) ~ 101.6, then 128 <= sqrt(2^14), the rest
  c = choosePlan(split3);
  EXPECT_EQ(level(c, 0), (Radices{8, 8}));
  EXPECT_EQ(level(c, 1), (Radices{16, 8}));
  EXPECT_EQ(level(c, 2), (Radices{16, 8}));
  // explicit level sizes: the radices cut there; without radices, each level's own
  auto sized = req(32768, Variant::Hierarchical, {8, 4, 16, 8, 8});
  sized.levelSizes = {512, 64};
  c = choosePlan(sized);
  EXPECT_EQ(level(c, 0), (Radices{8, 4, 16}));
  EXPECT_EQ(level(c, 1), (Radices{8, 8}));
  expectAccurate(sized);
  sized.radices.clear();
  sized.levelSizes = {16, 32, 64};
  c = choosePlan(sized);
  EXPECT_EQ(c.kernel, "hierarchicalLocal3");
  auto size = [](const Radices& rs) {
    int64_t p = 1;
    for (int64_t x : rs) p *= x;
    return p;
  };
  EXPECT_EQ((std::vector<int64_t>{size(level(c, 0)), size(level(c, 1)), size(level(c, 2))}),
            (std::vector<int64_t>{16, 32, 64}));
  for (const auto& [radices, sizes, levels, variant] :
       std::vector<std::tuple<Radices, Radices, int64_t, Variant>>{
           {{8, 4, 16, 8, 8}, {256, 128}, 0, Variant::Hierarchical},  // cuts through the 16
           {{}, {64, 64}, 0, Variant::Hierarchical},                  // product 4096
           {{}, {32768}, 0, Variant::Hierarchical},                   // one level
           {{}, {1, 32768}, 0, Variant::Hierarchical},                // a level of 1
           {{}, {128, 256}, 3, Variant::Hierarchical},                // two sizes, three levels
           {{}, {128, 256}, 0, Variant::Stockham}}) {                 // not hierarchical
    auto bad = req(32768, variant, radices);
    bad.levelSizes = sizes;
    bad.levels = levels;
    EXPECT_THROW(choosePlan(bad), backends::UserError) << bad.key();
  }
  auto unfit = req(32768, Variant::Hierarchical);  // a level of 16384: no tile fits local memory
  unfit.levelSizes = {2, 16384};
  try {
    (void)choosePlan(unfit);
    ADD_FAILURE() << "accepted";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("no split into 2 levels"), std::string::npos) << e.what();
  }
  // a given tile width applies to every stage; one that divides no stage's columns is refused
  auto r = req(4096, Variant::Hierarchical);
  r.fftsPerGroup = 8;
  EXPECT_EQ(choosePlan(r).stageLocal, (std::vector<std::vector<int64_t>>{{8, 8}, {8, 8}}));
  r.fftsPerGroup = 3;
  EXPECT_THROW(choosePlan(r), backends::UserError);
  r.fftsPerGroup = 0;
  r.workgroupSize = 64;  // the levels' radices set the work-items per row
  EXPECT_THROW(choosePlan(r), backends::UserError);
  // the number of levels (a tuning parameter): 4096 in three kernels, 2^19 in two
  auto three = req(4096, Variant::Hierarchical);
  three.levels = 3;
  c = choosePlan(three);
  EXPECT_EQ(c.kernel, "hierarchicalLocal3");
  EXPECT_FALSE(level(c, 2).empty());
  expectAccurate(three);
  auto two = req(int64_t{1} << 19, Variant::Hierarchical);
  two.levels = 2;
  EXPECT_EQ(choosePlan(two).kernel, "hierarchicalLocal");
  for (int64_t bad : {1, 4}) {
    auto wrong = req(4096, Variant::Hierarchical);
    wrong.levels = bad;
    EXPECT_THROW(choosePlan(wrong), backends::UserError);
  }
  auto local = req(256, Variant::Local);
  local.levels = 2;  // not a parameter of the other variants
  EXPECT_THROW(choosePlan(local), backends::UserError);
}

// FftRequest::localMemoryBytes: one row may take the whole budget (CUDA: the device's opt-in
// shared memory), so 4096 and 8192 f32 run in one kernel; several rows per work-group stay
// within 48 KiB, so the rows per group and the hierarchical tiles of 2^16 and 2^18 do not
// change (wider tiles where they save a level: WideTilesBeyond48KiB); a budget below a row's
// two arrays leaves the Local variant.
TEST(Planner, LocalMemoryBudget) {
  constexpr int64_t kH100 = 232448;  // 227 KiB, the H100's opt-in shared memory per block
  auto r = req(4096);
  r.batch = 8;
  // 2 x 4352 x 8 B > 48 KiB: one array of one row (OneLocalArrayWhenTwoDoNotFit)
  EXPECT_TRUE(choosePlan(r).localReuseInPass);
  r.localMemoryBytes = kH100;
  auto c = choosePlan(r);
  EXPECT_EQ(c.variant, Variant::Local);
  EXPECT_FALSE(c.localReuseInPass);          // two arrays fit
  EXPECT_EQ(localShape(c).fftsPerGroup, 1);  // two rows would take 139 KB, beyond 48 KiB
  EXPECT_EQ(localMemoryFor(r, 1), kH100);
  EXPECT_EQ(localMemoryFor(r, 2), kLocalMemoryBytes);
  r.size = 8192;
  EXPECT_EQ(choosePlan(r).variant, Variant::Local);  // 2 x 8703 x 8 B = 139 KB, 1024 items
  // two arrays fit (209 KB), but the default radices end in 3: 4096 work-items; one array whose
  // passes loop over 1024 (one_array_looped_test.cpp), not two levels as before session 19
  r.size = 3 * 4096;
  ASSERT_EQ(choosePlan(r).variant, Variant::Local);
  EXPECT_TRUE(choosePlan(r).localReuseInPass);
  EXPECT_EQ(choosePlan(r).as<LocalChoice>()->loopedWorkItems, 1024);

  // f64 1024: one row per group either way (two would take 70 KB)
  auto d = req(1024);
  d.precision = Precision::F64;
  d.batch = 8;
  const auto before = choosePlan(d);
  d.localMemoryBytes = kH100;
  EXPECT_EQ(choosePlan(d).detail, before.detail);
  EXPECT_EQ(choosePlan(d).stageLocal, before.stageLocal);

  // the hierarchical levels and tiles of 2^18 and 2^16 are those of 48 KiB
  for (int64_t n : {int64_t{1} << 16, int64_t{1} << 18}) {
    auto h = req(n);
    const auto levels = choosePlan(h);
    h.localMemoryBytes = kH100;
    const auto wide = choosePlan(h);
    EXPECT_EQ(level(wide, 0), level(levels, 0)) << n;
    EXPECT_EQ(level(wide, 1), level(levels, 1)) << n;
    EXPECT_EQ(level(wide, 2), level(levels, 2)) << n;
    EXPECT_EQ(wide.stageLocal, levels.stageLocal) << n;
  }

  // a smaller budget: 2048 f32 (2 x 2175 x 8 B = 34800 B) takes one array in 32 KiB, and no
  // longer fits one kernel in 16 KiB (one array: 17400 B)
  auto small = req(2048);
  EXPECT_EQ(choosePlan(small).variant, Variant::Local);
  EXPECT_FALSE(choosePlan(small).localReuseInPass);
  small.localMemoryBytes = 32 * 1024;
  EXPECT_TRUE(choosePlan(small).localReuseInPass);
  small.localMemoryBytes = 16 * 1024;
  EXPECT_NE(choosePlan(small).variant, Variant::Local);
  try {
    small.variant = Variant::Local;
    (void)choosePlan(small);
    ADD_FAILURE() << "2048 f32 in 16 KiB";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("16384 bytes"), std::string::npos) << e.what();
  }
  // rows per group named by the request: beyond 48 KiB, refused whatever the budget
  r.size = 4096;
  r.fftsPerGroup = 2;
  try {
    (void)choosePlan(r);
    ADD_FAILURE() << "two rows of 4096 f32 per group";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("49152 bytes"), std::string::npos) << e.what();
  }
  // the budget is part of the plan's key
  auto k = req(64);
  const std::string key = k.key();
  k.localMemoryBytes = kH100;
  EXPECT_NE(k.key(), key);
}

// Two arrays of 16384 f32 (278 KB) or 8192 f64 do not fit 227 KiB, one (139 KB) does: one
// kernel whose passes read their tile into registers, wait and write the same array. Its
// middle passes have one radix q and the work-group's n / q butterflies; the first and last
// may be narrower, looping. Each butterfly stays in registers (half of 65536 / work-items):
// 16384 f32 takes [16, 16, 16, 4] in 1024 work-items (its default radices [16, 16, 8, 8] would
// need 2048; [32, 16, 32] spilled in 64 registers); 8192 f64 [16, 16, 16, 2] in 512 (its
// default [16, 8, 8, 8], 1024 work-items, spilled). Within 48 KiB, or where two arrays fit,
// nothing changes.
TEST(Planner, OneLocalArrayWhenTwoDoNotFit) {
  constexpr int64_t kH100 = 232448;
  auto r = req(16384);
  EXPECT_EQ(choosePlan(r).variant, Variant::Hierarchical);  // 48 KiB: two levels
  auto k48 = req(4096);  // 48 KiB: one array of 4096 f32 (34816 B) fits, two do not
  EXPECT_TRUE(choosePlan(k48).localReuseInPass);
  EXPECT_EQ(choosePlan(k48).radices, (Radices{16, 16, 16}));
  r.localMemoryBytes = kH100;
  auto c = choosePlan(r);
  ASSERT_EQ(c.variant, Variant::Local);
  EXPECT_TRUE(c.localReuseInPass);
  const auto* l = c.as<LocalChoice>();
  ASSERT_NE(l, nullptr);
  EXPECT_TRUE(l->oneArray);
  EXPECT_EQ(l->radices, (Radices{16, 16, 16, 4}));
  EXPECT_EQ(l->shape, (LocalShape{.workgroupSize = 1024, .fftsPerGroup = 1}));
  EXPECT_EQ(oneArrayRadicesFor(16384, r), (Radices{16, 16, 16, 4}));
  EXPECT_EQ(oneArrayWorkItems({32, 16, 32}), 1024);
  EXPECT_EQ(oneArrayWorkItems({16, 32, 32}), 512);  // the first pass: two butterflies each
  EXPECT_EQ(oneArrayWorkItems({4, 16, 16, 16}), 1024);
  // not uniform (each pass's butterflies looped over the work-items: one_array_looped_test)
  EXPECT_EQ(uniformOneArrayWorkItems({16, 16, 8, 8}), 0);  // middle passes of 1024 and 2048
  EXPECT_EQ(uniformOneArrayWorkItems({3, 16, 16, 16}), 0);  // 3 does not divide 16
  EXPECT_EQ(uniformOneArrayWorkItems({16, 8, 8, 16}), 0);   // 2048 work-items
  // an explicit work-group size must be the one array's
  auto wrong = r;
  wrong.workgroupSize = 4096;
  EXPECT_THROW((void)choosePlan(wrong), backends::UserError);

  auto d = req(8192);
  d.precision = Precision::F64;
  d.localMemoryBytes = kH100;
  auto cd = choosePlan(d);
  ASSERT_EQ(cd.variant, Variant::Local);
  EXPECT_TRUE(cd.localReuseInPass);
  EXPECT_EQ(cd.radices, (Radices{16, 16, 16, 2}));
  EXPECT_EQ(cd.as<LocalChoice>()->shape.workgroupSize, 512);

  // two arrays fit but take more than half of a device's share, one array fits in half: one
  // array, so that two blocks share a multiprocessor (8192 f32, 4096 f64); under the default
  // budget (48 KiB) and where two arrays fit in half (2048 f64), two arrays
  // (the one array's radices as oneArrayRadicesFor chooses them: f32 8192 [16, 16, 16, 2] in
  // 512 work-items, not its default [16, 8, 8, 8] in 1024)
  for (auto [n, p, one, rs] :
       {std::tuple{int64_t{8192}, Precision::F32, true, Radices{16, 16, 16, 2}},
        {4096, Precision::F64, true, Radices{16, 16, 16}},
        {2048, Precision::F64, false, chooseRadices(2048)}}) {
    auto two = req(n);
    two.precision = p;
    two.localMemoryBytes = kH100;
    const auto ct = choosePlan(two);
    EXPECT_EQ(ct.variant, Variant::Local) << n;
    EXPECT_EQ(ct.localReuseInPass, one) << n;
    EXPECT_EQ(ct.radices, rs) << n;
    EXPECT_TRUE(oneArrayRadicesFor(n, two).empty()) << n;
  }
  // one array does not fit either: 32768 f32 (278 KB)
  r.size = 32768;
  EXPECT_NE(choosePlan(r).variant, Variant::Local);
  // the request's radices: one array only where their middle passes allow it
  r.size = 16384;
  r.radices = {16, 32, 32};  // 512 work-items, the first pass looping over two butterflies
  EXPECT_EQ(choosePlan(r).variant, Variant::Local);
  EXPECT_EQ(choosePlan(r).as<LocalChoice>()->shape.workgroupSize, 512);
  // middle passes whose butterflies do not fit the registers however they loop (64 x 2 x 3
  // registers beyond 255)
  r.radices = {2, 64, 2, 64};
  EXPECT_NE(choosePlan(r).variant, Variant::Local);
  r.variant = Variant::Local;
  EXPECT_THROW((void)choosePlan(r), backends::UserError);
}

// The one-array kernel through the whole pipeline: one stage holding one array (139 KB), and
// FFTW's result on PoCL (the barrier between each pass's reads and writes is what keeps a
// work-item from overwriting what another has not read).
TEST(FftPlan, OneLocalArrayMatchesFftw) {
  auto r = req(16384);
  r.batch = 2;
  r.localMemoryBytes = 232448;
  const int64_t array = compiler::codegen::CodegenOptions{}.paddedLocalCount(16384) * 8;
  if (lacksLocalMemory(array))
    GTEST_SKIP() << "the OpenCL device has " << context().device().localMemBytes
                 << " bytes of local memory";
  auto p = planFft(r);
  ASSERT_EQ(p->stages.size(), 1u);
  EXPECT_EQ(p->compiled.stages.at(0).localMemoryBytes, array);
  EXPECT_NE(p->describe().find("one local array"), std::string::npos) << p->describe();
  expectAccurate(r);
  r.direction = Direction::Inverse;
  r.scale = true;
  expectAccurate(r);
  r.size = 8192;
  r.precision = Precision::F64;
  r.direction = Direction::Forward;
  r.scale = false;
  EXPECT_EQ(planFft(r)->compiled.stages.at(0).localMemoryBytes,
            compiler::codegen::CodegenOptions{}.paddedLocalCount(8192) * 16);
  expectAccurate(r);
}

// Issue 22's candidates for two blocks of 8192 f32 per SM (a budget of half an SM's shared
// memory makes the planner take one array): [16, 16, 32], 512 work-items, one array of 70 KB,
// against FFTW on PoCL; 4096 f64 [16, 16, 16] the same bytes with 256, [8, 8, 8, 8] with 512.
// FftRequest::minBlocksPerSm only bounds CUDA's registers (the CLI test shows the bound;
// checkRequest refuses it for OpenCL and above 32); it is part of the plan's key.
TEST(FftPlan, HalfSmOneArrayCandidatesMatchFftw) {
  auto r = req(8192);
  r.batch = 2;
  r.localMemoryBytes = 115000;
  r.radices = {16, 16, 32};
  auto c = choosePlan(r);
  ASSERT_EQ(c.variant, Variant::Local);
  EXPECT_TRUE(c.localReuseInPass);
  EXPECT_EQ(localShape(c), (LocalShape{.workgroupSize = 512, .fftsPerGroup = 1}));
  EXPECT_EQ(planFft(r)->compiled.stages.at(0).localMemoryBytes,
            compiler::codegen::CodegenOptions{}.paddedLocalCount(8192) * 8);
  expectAccurate(r);
  auto d = req(4096);
  d.batch = 2;
  d.precision = Precision::F64;
  d.localMemoryBytes = 115000;
  EXPECT_TRUE(choosePlan(d).localReuseInPass);
  EXPECT_EQ(choosePlan(d).radices, (Radices{16, 16, 16}));
  expectAccurate(d);
  d.radices = {8, 8, 8, 8};  // 512 work-items, two blocks by 56 registers (ptxas, sm_90)
  EXPECT_EQ(localShape(choosePlan(d)), (LocalShape{.workgroupSize = 512, .fftsPerGroup = 1}));
  expectAccurate(d);
  const std::string key = r.key();
  r.minBlocksPerSm = 2;
  EXPECT_NE(r.key(), key);
}

// One row of 4096 and of 8192 f32 in one kernel through 70 KB and 139 KB of local memory (PoCL
// allows it), against FFTW; the same kernels CUDA runs with dynamic shared memory.
TEST(FftPlan, LocalVariantBeyond48KiB) {
  for (int64_t n : {4096, 8192}) {
    auto r = req(n);
    r.batch = 2;
    r.localMemoryBytes = 232448;
    if (lacksLocalMemory(2 * compiler::codegen::CodegenOptions{}.paddedLocalCount(n) * 8))
      GTEST_SKIP() << "the OpenCL device has " << context().device().localMemBytes
                   << " bytes of local memory";
    ASSERT_EQ(choosePlan(r).variant, Variant::Local);
    expectAccurate(r);
    r.direction = Direction::Inverse;
    r.scale = true;
    expectAccurate(r);
  }
}

// Both kernels against FFTW: two levels (f32 and f64, inverse and scaled), three levels, and
// an odd size (1575 = 35 x 45, tiles of 15 columns).
TEST(FftPlan, HierarchicalLevels) {
  auto two = req(4096, Variant::Hierarchical);
  two.batch = 2;
  EXPECT_EQ(planFft(two)->stages.size(), 2u);
  expectAccurate(two);
  two.precision = Precision::F64;
  two.direction = Direction::Inverse;
  two.scale = true;
  expectAccurate(two);
  auto three = req(int64_t{1} << 19);
  auto p = planFft(three);
  EXPECT_EQ(p->choice.kernel, "hierarchicalLocal3");
  EXPECT_EQ(p->stages.size(), 3u);
  EXPECT_EQ(p->bytesMoved, 3 * 2 * 8 * (int64_t{1} << 19));  // one read and write per level
  expectAccurate(three);
  auto odd = req(3 * 3 * 5 * 5 * 7, Variant::Hierarchical);
  odd.batch = 3;
  expectAccurate(odd);
}

// The tile kernels of the hierarchical plans keep their tiles in one local array
// (PlanChoice::localReuseInPass: each pass reads its elements, waits, writes the array it read):
// in the emitted source each stage declares one `__local` array, of F columns of n_i (two
// before: 65536 f32's first stage ping-ponged between l and l_1), and the plans still compute
// FFTW's result on PoCL, which runs the work-items of a group one after another between
// barriers, so a write before another work-item's read shows as a wrong result.
TEST(FftPlan, HierarchicalTilesInOneLocalArray) {
  const compiler::codegen::CodegenOptions o{.localRowSkew = true};  // the tiles' rows skewed
  auto count = [](const std::string& s, const std::string& what) {
    size_t n = 0;
    for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + 1)) ++n;
    return n;
  };
  auto r = req(65536);
  r.batch = 2;
  auto p = planFft(r);
  ASSERT_EQ(p->choice.variant, Variant::Hierarchical);
  EXPECT_TRUE(p->choice.localReuseInPass);
  ASSERT_EQ(p->compiled.stages.size(), 2u);
  EXPECT_EQ(p->choice.stageLocal.at(0), (std::vector<int64_t>{16, 16}));  // 16 columns
  for (const auto& st : p->compiled.stages) {
    EXPECT_EQ(count(st.source, "__local float2 "), 1u) << st.source;
    EXPECT_EQ(st.localMemoryBytes, o.skewedLocalCount(16 * 256, 16) * 8);
  }
  expectAccurate(r);
  r.direction = Direction::Inverse;
  r.scale = true;
  expectAccurate(r);
  r.precision = Precision::F64;
  r.direction = Direction::Forward;
  r.scale = false;
  r.size = 16384;  // [16, 8] x [16, 8], 4 columns
  for (const auto& st : planFft(r)->compiled.stages)
    EXPECT_EQ(count(st.source, "__local double2 "), 1u) << st.source;
  expectAccurate(r);

  // three levels of [8, 8]: the first two stages had two arrays each
  auto three = req(int64_t{1} << 18);
  three.levels = 3;
  auto p3 = planFft(three);
  ASSERT_EQ(p3->compiled.stages.size(), 3u);
  for (const auto& st : p3->compiled.stages)
    EXPECT_EQ(count(st.source, "__local float2 "), 1u) << st.source;
  expectAccurate(three);

  // two levels of 8-column tiles asked for: one array allows them in 48 KiB (2^18 = [8, 8, 8]
  // x [8, 8, 8]: one array of 34808 bytes; two would take 69616)
  three.levels = 2;
  three.fftsPerGroup = 8;
  auto p2 = planFft(three);
  ASSERT_EQ(p2->compiled.stages.size(), 2u);
  EXPECT_EQ(p2->choice.as<HierarchicalChoice>()->leastColumns(), 8);
  for (const auto& st : p2->compiled.stages) {
    EXPECT_EQ(count(st.source, "__local float2 "), 1u) << st.source;
    EXPECT_EQ(st.localMemoryBytes, o.skewedLocalCount(8 * 512, 8) * 8);
  }
  expectAccurate(three);
}

// The two-level tiles of 8 columns (64 work-items a row: F = 8 < W = 64) as the bank and
// coalescing analysis wants them (hierarchical.fdl's twiddledTileFor, CodegenOptions::
// localRowSkew): the tile's rows one element more than their padded length apart (545, not
// 544: the 8 rows a warp takes at one offset were 544 = 34 x 16 float2 apart, one bank, 16
// wavefronts a warp access instead of 2), and the first stage's copy-out over the whole
// launched work-group (64 x 8 work-items, 8 adjacent elements a row of them; it was 8 x 512 on
// an 8 x 64 work-group, 64 of 512 work-items busy). FFTW checks the result on PoCL.
TEST(FftPlan, TwoLevelTilesSkewedAndSpread) {
  auto r = req(int64_t{1} << 17);
  r.batch = 2;
  r.levels = 2;
  r.fftsPerGroup = 8;
  auto p = planFft(r);
  ASSERT_EQ(p->compiled.stages.size(), 2u);
  EXPECT_EQ(std::get<int64_t>(p->choice.defines.at("W1")), 64);
  const std::string& s0 = p->compiled.stages[0].source;
  EXPECT_NE(s0.find("545 * "), std::string::npos) << s0;  // rows of 512 + 32 + 1
  EXPECT_EQ(s0.find("544 * "), std::string::npos) << s0;
  EXPECT_NE(s0.find("< 64; "), std::string::npos) << s0;  // the copy-out's rows of work-items
  EXPECT_EQ(s0.find("< 512; "), std::string::npos) << s0;  // not 512 elements on dimension 0
  EXPECT_NE(p->compiled.stages[1].source.find("273 * "), std::string::npos);  // 256 + 16 + 1
  expectAccurate(r);
  for (int64_t n : {int64_t{1} << 16, int64_t{1} << 18}) {
    r.size = n;
    expectAccurate(r);
  }
  r.size = int64_t{1} << 17;
  r.precision = Precision::F64;
  r.fftsPerGroup = 4;
  expectAccurate(r);

  // 16 columns of 512 f32 (70 KB) exceed the 48 KiB of tiles of several columns: the reason is
  // the hierarchical variant's (it was the twiddle variant refusing a work-group shape)
  r.precision = Precision::F32;
  r.fftsPerGroup = 16;
  try {
    (void)choosePlan(r);
    ADD_FAILURE() << "16 columns of 512 f32 planned";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("hierarchical variant: N = 131072 f32 has no split into 2 "
                                         "levels whose tiles fit in 49152 bytes"),
              std::string::npos)
        << e.what();
  }
}

// Tiles of several columns beyond 48 KiB (issue 22), under a CUDA device's budget (227 KiB):
// where the tiles within 48 KiB are narrower than 64 bytes, a level takes the fewest columns
// of at least 64 bytes in one local array of at most a third of the budget and 512
// work-items, its radices [r0, 16, ..., 16] (n / 16 work-items a row): f32 2^19 and 2^20 in
// two levels of 8 columns of 1024 = [4, 16, 16] (64 KiB, 64 x 8 work-items), f64 2^19 in 4
// columns, instead of three levels. Not where every level would be wide at fewer than half of
// a multiprocessor's threads (f64 2^20 and 10^6: below). At 48 KiB (OpenCL's default), under a
// budget whose third is below the tile, and where the tile would take more work-items (2^21:
// 2048 points a row), the plans are those of before; so are the two-level plans whose tiles
// were wide enough.
TEST(Planner, WideTilesBeyond48KiB) {
  constexpr int64_t kH100 = 232448;
  const compiler::codegen::CodegenOptions o{.localRowSkew = true};
  struct Case {
    int64_t n;
    Precision p;
    Radices rs1, rs2;
    int64_t columns;
  };
  for (const auto& [n, p, rs1, rs2, columns] :
       {Case{int64_t{1} << 19, Precision::F32, {8, 8, 8}, {4, 16, 16}, 8},
        Case{int64_t{1} << 20, Precision::F32, {4, 16, 16}, {4, 16, 16}, 8},
        Case{int64_t{1} << 19, Precision::F64, {8, 8, 8}, {4, 16, 16}, 4}}) {
    auto r = req(n);
    r.precision = p;
    r.batch = (int64_t{1} << 26) / n;
    r.target = compiler::pipeline::Target::Cuda;
    const auto three = choosePlan(r);  // 48 KiB: three levels
    EXPECT_EQ(three.kernel, "hierarchicalLocal3") << n;
    r.localMemoryBytes = kH100;
    const auto c = choosePlan(r);
    EXPECT_EQ(c.kernel, "hierarchicalLocal") << n;
    EXPECT_EQ(level(c, 0), rs1) << n;
    EXPECT_EQ(level(c, 1), rs2) << n;
    EXPECT_EQ(c.as<HierarchicalChoice>()->columns, (std::vector<int64_t>{columns, columns})) << n;
    // stage 1 transforms level 2, stage 2 level 1; [4, 16, 16]: 64 work-items a row
    EXPECT_EQ(c.stageLocal.at(0), (std::vector<int64_t>{columns, 64})) << n;
    EXPECT_EQ(c.stageLocal.at(1), (std::vector<int64_t>{columns, tileWorkItems(rs1)})) << n;
    const int64_t tile = o.skewedLocalCount(1024 * columns, columns) * complexBytes(p);
    EXPECT_GT(tile, kLocalMemoryBytes) << n;
    EXPECT_LE(3 * tile, kH100) << n;
    // the plan's radices given back plan the same levels and tiles (the tuner's space)
    auto back = r;
    back.radices = c.radices;
    EXPECT_EQ(choosePlan(back).detail, c.detail) << n;
    EXPECT_EQ(choosePlan(back).stageLocal, c.stageLocal) << n;
    // the OpenCL target at its default 48 KiB: the three levels of before
    auto cl = r;
    cl.target = compiler::pipeline::Target::OpenCL;
    cl.localMemoryBytes = 0;
    EXPECT_EQ(choosePlan(cl).detail, three.detail) << n;
    // a budget whose third does not hold the tile (100000 B: 33 KB)
    cl.localMemoryBytes = 100000;
    EXPECT_EQ(choosePlan(cl).detail, three.detail) << n;
  }
  // Every level wide, at a quarter of a multiprocessor's threads: f64 2^20's two levels of
  // [4, 16, 16] x 4 (256 work-items of 98 registers, two blocks an SM by registers; ptxas sm_90)
  // took 0.857 ms on an H200 against 0.805 for three levels (f32's, 1024 threads resident,
  // 0.813 against 0.845): f64 2^20 keeps the three levels of 48 KiB. Asked for two levels, the
  // wide tiles. 10^6 f64 ([10, 10, 10] x 4: 400 work-items, two blocks, 800 threads, above the
  // bound of 768) takes them: 0.866 ms against 0.943 for three levels.
  for (const auto& [n, wide] : {std::pair{int64_t{1} << 20, Radices{4, 16, 16}}}) {
    auto r = req(n);
    r.precision = Precision::F64;
    r.batch = (int64_t{1} << 25) / n;
    r.target = compiler::pipeline::Target::Cuda;
    const auto three = choosePlan(r);  // 48 KiB
    ASSERT_EQ(three.kernel, "hierarchicalLocal3") << n;
    r.localMemoryBytes = kH100;
    const auto c = choosePlan(r);
    EXPECT_EQ(c.kernel, "hierarchicalLocal3") << n;
    EXPECT_EQ(c.detail, three.detail) << n;
    EXPECT_EQ(c.stageLocal, three.stageLocal) << n;
    auto back = r;  // its radices given back: the same plan
    back.radices = c.radices;
    EXPECT_EQ(choosePlan(back).detail, c.detail) << n;
    r.levels = 2;
    const auto two = choosePlan(r);
    EXPECT_EQ(two.kernel, "hierarchicalLocal") << n;
    EXPECT_EQ(level(two, 0), wide) << n;
    EXPECT_EQ(level(two, 1), wide) << n;
    EXPECT_EQ(two.as<HierarchicalChoice>()->columns, (std::vector<int64_t>{4, 4})) << n;
  }
  {
    auto r = req(1000000);
    r.precision = Precision::F64;
    r.batch = 33;
    r.target = compiler::pipeline::Target::Cuda;
    r.localMemoryBytes = kH100;
    const auto c = choosePlan(r);
    EXPECT_EQ(c.kernel, "hierarchicalLocal");
    EXPECT_EQ(level(c, 0), (Radices{10, 10, 10}));
    EXPECT_EQ(level(c, 1), (Radices{10, 10, 10}));
    EXPECT_EQ(c.as<HierarchicalChoice>()->columns, (std::vector<int64_t>{4, 4}));
  }

  EXPECT_TRUE(oneArrayTile({4, 16, 16}));
  EXPECT_EQ(tileWorkItems({4, 16, 16}), 64);
  EXPECT_EQ(tileWorkItems({16, 8, 8}), 128);
  EXPECT_FALSE(oneArrayTile({16, 16, 8}));
  EXPECT_EQ(tileWorkItems({16, 16, 8}), 256);

  // unchanged under the budget: the two levels of 2^17 and 2^18 (tiles of 64 bytes within
  // 48 KiB), the three of 2^21 (f32 2048 = [8, 16, 16] x 8 columns: 1024 work-items, 128 KiB)
  // and 2^22
  for (int64_t n : {int64_t{1} << 17, int64_t{1} << 18, int64_t{1} << 21, int64_t{1} << 22}) {
    for (Precision p : {Precision::F32, Precision::F64}) {
      auto r = req(n);
      r.precision = p;
      r.batch = 4;
      const auto before = choosePlan(r);
      r.localMemoryBytes = kH100;
      const auto c = choosePlan(r);
      EXPECT_EQ(c.detail, before.detail) << n;
      EXPECT_EQ(c.stageLocal, before.stageLocal) << n;
    }
  }

  // the request's columns may take the whole budget: 16 columns of 512 f32 (70 KB, refused
  // at 48 KiB: TwoLevelTilesSkewedAndSpread)
  auto f16 = req(int64_t{1} << 17);
  f16.batch = 2;
  f16.levels = 2;
  f16.fftsPerGroup = 16;
  f16.localMemoryBytes = kH100;
  EXPECT_EQ(choosePlan(f16).as<HierarchicalChoice>()->columns, (std::vector<int64_t>{16, 16}));
  f16.localMemoryBytes = 60000;  // 70 KB do not fit
  EXPECT_THROW((void)choosePlan(f16), backends::UserError);
}

// The wide tiles through the whole pipeline on PoCL (1 MiB of local memory), against FFTW:
// f32 2^19's first stage keeps its 8 columns of [4, 16, 16] in one local array of 69680 bytes,
// beyond 48 KiB, on 8 x 64 work-items, its first pass of radix 4 four butterflies at once a
// work-item (hierarchical.fdl's fftTileW: no loop over the 256 butterflies of a row); f64 2^20
// inverse and scaled in two levels (asked for: automatically three, the wide tiles'
// occupancy), both stages wide, both first passes four butterflies at once.
TEST(FftPlan, WideTilesMatchFftw) {
  const compiler::codegen::CodegenOptions o{.localRowSkew = true};
  auto r = req(int64_t{1} << 19);
  r.localMemoryBytes = 232448;
  const int64_t tile = o.skewedLocalCount(8 * 1024, 8) * 8;
  if (lacksLocalMemory(tile))
    GTEST_SKIP() << "the OpenCL device has " << context().device().localMemBytes
                 << " bytes of local memory";
  auto p = planFft(r);
  ASSERT_EQ(p->compiled.stages.size(), 2u);
  EXPECT_EQ(p->compiled.stages[0].localMemoryBytes, tile);
  EXPECT_GT(tile, kLocalMemoryBytes);
  EXPECT_EQ(p->compiled.stages[0].source.find("__local float2 l_1"), std::string::npos)
      << "a second local array";
  EXPECT_EQ(p->compiled.stages[1].localMemoryBytes, o.skewedLocalCount(8 * 512, 8) * 8);
  for (const auto& st : p->compiled.stages) EXPECT_EQ(firstRowLoop(st.source), 64);
  expectAccurate(r);
  r.size = int64_t{1} << 20;
  r.precision = Precision::F64;
  r.direction = Direction::Inverse;
  r.scale = true;
  r.levels = 2;
  auto p64 = planFft(r);
  ASSERT_EQ(p64->compiled.stages.size(), 2u);
  for (const auto& st : p64->compiled.stages)
    EXPECT_EQ(st.localMemoryBytes, o.skewedLocalCount(4 * 1024, 4) * 16);
  for (const auto& st : p64->compiled.stages) EXPECT_EQ(firstRowLoop(st.source), 64);
  expectAccurate(r);
}

// A strategy that cannot compile the FFT falls back to lowerDefault, and says why.
TEST(FftPlan, FallsBackToLowerDefault) {
  auto r = req(16, Variant::Stockham);
  r.strategy = "prepare; lowerGlobal";
  auto p = planFft(r);
  EXPECT_EQ(p->strategy, "lowerDefault");
  EXPECT_FALSE(p->fallbackReason.empty());
  expectAccurate(r);
  r.strategy = "lowerGlobal";  // this one compiles
  EXPECT_EQ(planFft(r)->strategy, "lowerGlobal");
  expectAccurate(r);
}

// ---- fftc run end to end

struct Spawned {
  int status = -1;
  std::string out;
};

Spawned spawn(const std::string& args) {
  std::string cmd = std::string(FFTC_BINARY) + " " + args + " 2>/dev/null";
  Spawned s;
  FILE* f = popen(cmd.c_str(), "r");
  if (!f) return s;
  std::array<char, 4096> buf{};
  size_t got = 0;
  while ((got = fread(buf.data(), 1, buf.size(), f)) > 0) s.out.append(buf.data(), got);
  int st = pclose(f);
  s.status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return s;
}

TEST(FftcRun, CheckJsonEndToEnd) {
  auto s = spawn("run --size 60 --batch 4 --check --json --repeat 3");
  ASSERT_EQ(s.status, 0) << s.out;
  auto v = boost::json::parse(s.out).as_object();
  EXPECT_EQ(v.at("size").as_array().at(0).to_number<int64_t>(), 60);
  EXPECT_EQ(v.at("batch").to_number<int64_t>(), 4);
  EXPECT_EQ(v.at("precision").as_string(), "f32");
  EXPECT_EQ(v.at("direction").as_string(), "forward");
  EXPECT_EQ(v.at("target").as_string(), "opencl");
  EXPECT_EQ(v.at("variant").as_string(), "local");  // [60], a row in a work-item
  EXPECT_EQ(v.at("radices").as_array().size(), 1u);  // (rowInOneWorkItem; [4, 15] before)
  EXPECT_EQ(v.at("stages").to_number<int64_t>(), 1);
  EXPECT_GT(v.at("time_ms").to_number<double>(), 0);
  EXPECT_GT(v.at("gflops").to_number<double>(), 0);
  EXPECT_GT(v.at("gbps").to_number<double>(), 0);
  EXPECT_LE(v.at("linf_error").to_number<double>(), fftTolerance(60, Precision::F32));
  EXPECT_LE(v.at("l2_error").to_number<double>(), fftTolerance(60, Precision::F32));
  // exactly the report object of CLI.md, with docs/cli.md's workgroup_size, ffts_per_group,
  // local_memory_bytes, wisdom
  EXPECT_EQ(v.size(), 18u);
  EXPECT_EQ(v.at("local_memory_bytes").to_number<int64_t>(), kLocalMemoryBytes);
  EXPECT_FALSE(v.at("wisdom").as_bool());
}

TEST(FftcRun, ExitStatuses) {
  EXPECT_EQ(spawn("run --size 8x0").status, 1);  // a dimension of 0 (NxM itself: nd_test.cpp)
  EXPECT_EQ(spawn("fft --size 0 -o /tmp").status, 1);
  EXPECT_EQ(spawn("run --size 8 --radices 4,4").status, 1);
  // --target cuda runs (0) where there is a CUDA driver, else a device error (2); never 1.
  const int cuda = spawn("run --size 8 --target cuda").status;
  EXPECT_TRUE(cuda == 0 || cuda == 2) << cuda;
  EXPECT_EQ(spawn("run --size 8 --target cuda --device opencl:0:0").status, 1);
  EXPECT_EQ(spawn("run --size 8 --variant radix2").status, 1);
  // the one-kernel variant for a size whose arrays exceed local memory (a user error)
  EXPECT_EQ(spawn("run --size 8192 --variant local").status, 1);
}

}  // namespace
}  // namespace fftc::fftlib::test
