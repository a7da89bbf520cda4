// Rader's algorithm in the planner (rader.fdl raderLocal, issue 23 item 2) on OpenCL (PoCL
// here): which primes it takes from Bluestein, and its plans against FFTW in long double, with
// fftc's L2 error within 1.5x FFTW's own at the same precision and Linf within fftTolerance.
// (accuracy_test.cpp runs every N up to 256 through the planner, the primes 31 .. 251 whose
// N - 1 is 29-smooth among them: 47 = 2·23 + 1 and 59 = 2·29 + 1 with a local-to-local pass
// of a prime radix above 16.)
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "backends/common/device_error.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "fftlib/plan/min_blocks.h"
#include "tests/fftplan/fftw_at_precision.h"
#include "tests/fftplan/plan_accuracy.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"

namespace fftc::fftlib::test {
namespace {

// a CUDA request under an H200's shared memory (fft_bench's budget)
FftRequest wideCuda(FftRequest r) {
  r.target = compiler::pipeline::Target::Cuda;
  return underGpuBudget(r);
}

// Primes from 47 (31 .. 43 where their butterfly fits a work-item: below) whose N - 1 is
// 29-smooth and whose three local arrays of N - 1 fit 48 KiB (f32: N - 1 <= 1927, f64: 963) go
// to Rader, in one kernel; the others stay with Bluestein
// (83: 82 = 2·41; 4099: 4098 = 2·3·683; 2017 f32: 2016 does not fit three times); so does a
// request that names the variant.
TEST(RaderPlan, ThePlannerTakesRaderWhereNMinusOneFits) {
  for (int64_t n : {47, 59, 61, 79, 127, 257, 1009}) {
    const PlanChoice c = choosePlan(lineRequest(n, 2, Precision::F32));
    EXPECT_EQ(c.kernel, "raderLocal") << n;
    EXPECT_EQ(c.variant, Variant::Bluestein) << n;
    const auto* b = c.as<BluesteinChoice>();
    ASSERT_NE(b, nullptr);
    EXPECT_TRUE(b->rader);
    EXPECT_EQ(b->m, n - 1);
    EXPECT_EQ(product(b->radicesM), n - 1);
    EXPECT_EQ(c.stageLocal.size(), 1u);
  }
  EXPECT_EQ(raderRadices(257, lineRequest(257, 1, Precision::F32)), (Radices{16, 16}));
  for (int64_t n : {37, 43, 401})
    EXPECT_EQ(choosePlan(lineRequest(n, 1, Precision::F64)).kernel, "raderLocal") << n;
  for (int64_t n : {83, 4099, 2017}) {
    const PlanChoice c = choosePlan(lineRequest(n, 1, Precision::F32));
    EXPECT_NE(c.kernel, "raderLocal") << n;
    EXPECT_EQ(c.file, "bluestein.fdl") << n;
  }
  EXPECT_TRUE(raderRadices(29, lineRequest(29, 1, Precision::F32)).empty());  // a radix
  EXPECT_TRUE(raderRadices(62, lineRequest(62, 1, Precision::F32)).empty());  // not prime
  FftRequest named = lineRequest(257, 1, Precision::F32);
  named.variant = Variant::Bluestein;
  EXPECT_EQ(choosePlan(named).kernel, "bluesteinLocal");
}

// The convolution's radices balance the row's work-items (rader_radices.cpp): 30 = [2, 15] ran
// its radix-15 pass on 2 of a row's 15 work-items, 13 idle in the same warps (31 took 6.9x
// cuFFT's time on an H200); [6, 5] keeps all 6 busy. Lists within 3/4 of chooseRadices' cost
// stay (43, 127, 257, 401, 1009: their kernels unchanged), every list multiplies to N - 1.
TEST(RaderPlan, ConvolutionRadicesKeepTheRowBusy) {
  const FftRequest r32 = lineRequest(31, 1, Precision::F32);
  EXPECT_EQ(raderRadices(31, r32), (Radices{6, 5}));
  EXPECT_EQ(raderRadices(37, r32), (Radices{6, 6}));
  EXPECT_EQ(raderRadices(61, r32), (Radices{10, 6}));
  for (int64_t n : {41, 43, 127, 257, 401, 1009})
    EXPECT_EQ(raderConvolutionRadices(n - 1), chooseRadices(n - 1)) << n;
  for (int64_t n : {31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 97, 101, 211, 631, 1201}) {
    const Radices rs = raderConvolutionRadices(n - 1);
    EXPECT_EQ(product(rs), n - 1) << n;
    for (int64_t r : rs) EXPECT_TRUE(r <= 16 || largestPrimeFactor(r) == r) << n;
  }
  const PlanChoice c = choosePlan(lineRequest(61, 4096, Precision::F32));
  EXPECT_EQ(c.radices, (Radices{10, 6}));
  EXPECT_EQ(c.stageLocal.front().at(0), 10);  // work-items per row: 60 / min(rs)
}

// An N - 1 none of whose radix lists keeps a row within 1024 work-items (8190 = 2·3²·5·7·13:
// every list has a radix below 8) gets chooseRadices' list, which raderRadices then refuses by
// the same bound: Bluestein, as before. (The empty list once made the cost's comparison
// overflow, and the plan of 8191 with a 227 KiB budget crashed.)
TEST(RaderPlan, NoRadixListWithinTheWorkItemsIsBluestein) {
  EXPECT_EQ(raderConvolutionRadices(8190), chooseRadices(8190));
  FftRequest r = lineRequest(8191, 8192, Precision::F32);
  r.localMemoryBytes = kGpuSharedBytes;
  EXPECT_TRUE(raderRadices(8191, r).empty());
  const PlanChoice c = choosePlan(r);
  EXPECT_EQ(c.variant, Variant::Bluestein);
  EXPECT_NE(c.kernel, "raderLocal");
}

// A Rader radix prime whose values take at most half of a thread's registers is one radix,
// raderDft in a work-item a row (primeInOneWorkItem: f32 31 .. 43, f64 31; on an H200 f32 31
// took 0.34 ms where raderLocal's rows of 6 work-items took 0.96); beyond (f64 37: 148
// registers of values, ptxas spills 852 bytes) raderLocal, and a named variant keeps its own.
TEST(RaderPlan, APrimeRadixThatFitsAWorkItemIsOneLocalPass) {
  for (auto [n, p] : {std::pair{31, Precision::F32}, {37, Precision::F32}, {41, Precision::F32},
                      {43, Precision::F32}, {31, Precision::F64}}) {
    EXPECT_TRUE(primeInOneWorkItem(n, p)) << n;
    const PlanChoice c = choosePlan(lineRequest(n, 4096, p));
    EXPECT_EQ(c.variant, Variant::Local) << n;
    EXPECT_EQ(c.kernel, "stockhamLocalCopy") << n;  // one pass: stockhamLocal's copy form
    EXPECT_EQ(c.radices, (Radices{n})) << n;
  }
  EXPECT_FALSE(primeInOneWorkItem(37, Precision::F64));
  EXPECT_FALSE(primeInOneWorkItem(47, Precision::F32));  // beyond kLargestRaderRadix
  EXPECT_FALSE(primeInOneWorkItem(29, Precision::F32));  // a direct radix (symDft)
  FftRequest named = lineRequest(31, 2, Precision::F32);
  named.variant = Variant::Bluestein;
  EXPECT_EQ(choosePlan(named).kernel, "bluesteinLocal");
  named.radices = {6, 5};  // Rader's convolution radices name raderLocal
  EXPECT_EQ(choosePlan(named).kernel, "raderLocal");
}
TEST(RaderPlan, MatchFftwPrimesInOneWorkItem) {
  expectPlanWithinFftw<float>(lineRequest(31, 9, Precision::F32), "rader radix", 3,
                              "stockhamLocalCopy");
  expectPlanWithinFftw<float>(lineRequest(43, 5, Precision::F32, Direction::Inverse, true),
                              "rader radix", 3, "stockhamLocalCopy");
  expectPlanWithinFftw<double>(lineRequest(31, 7, Precision::F64, Direction::Inverse),
                               "rader radix", 3, "stockhamLocalCopy");
}

// Larger primes than accuracy_test.cpp's (p - 1 with radices 16, 7, 9, 5), batches that fill
// work-groups unevenly, both directions, scaled.
TEST(RaderPlan, MatchFftw257BatchF32) {
  expectPlanWithinFftw<float>(lineRequest(257, 5, Precision::F32), "rader", 11, "raderLocal");
}
TEST(RaderPlan, MatchFftw401InverseScaledF64) {
  expectPlanWithinFftw<double>(lineRequest(401, 2, Precision::F64, Direction::Inverse, true),
                               "rader", 11, "raderLocal");
}
TEST(RaderPlan, MatchFftw1009F32) {
  expectPlanWithinFftw<float>(lineRequest(1009, 3, Precision::F32), "rader", 11, "raderLocal");
}
// 46 = [2, 23]: the radix-23 pass goes from local to local memory, reading its butterflies in
// one sequential loop and writing them in the next (the race docs/fftlib.md describes)
TEST(RaderPlan, MatchFftw47BatchF32) {
  expectPlanWithinFftw<float>(lineRequest(47, 4, Precision::F32), "rader", 11, "raderLocal");
}
TEST(RaderPlan, MatchFftw631InverseF32) {
  expectPlanWithinFftw<float>(lineRequest(631, 1, Precision::F32, Direction::Inverse), "rader", 11,
                              "raderLocal");
}

// Rader as a radix step (common.fdl raderDft): a composite size whose prime factors above 29
// are at most kLargestRaderRadix is planned by its radices, the prime a radix of its own, in one
// kernel where it fits (stockhamLocal) and in the hierarchical levels beyond; Bluestein kept
// 31 x 32 (M = 2048), 37 x 16, 43 x 2 before. Larger prime factors (47 .. 61: their f64
// butterflies spill; 71, 127, 257, 1009) and the primes themselves (raderLocal) are planned as
// before.
TEST(RaderRadixPlan, CompositeSizesTakeRaderRadices) {
  const std::pair<int64_t, Radices> local[] = {
      {62, {2, 31}}, {992, {8, 4, 31}}, {592, {16, 37}}, {1147, {37, 31}}};
  for (const auto& [n, rs] : local) {
    EXPECT_TRUE(plannedByRadices(n)) << n;
    for (Precision p : {Precision::F32, Precision::F64}) {
      const PlanChoice c = choosePlan(lineRequest(n, 64, p));
      EXPECT_EQ(c.variant, Variant::Local) << n;
      EXPECT_EQ(c.kernel, "stockhamLocal") << n;
      EXPECT_EQ(c.radices, rs) << n;
    }
  }
  const PlanChoice h = choosePlan(lineRequest(31 << 15, 1, Precision::F32));
  EXPECT_EQ(h.variant, Variant::Hierarchical);
  EXPECT_EQ(product(h.radices), 31 << 15);
  EXPECT_NE(std::find(h.radices.begin(), h.radices.end(), 31), h.radices.end());
  EXPECT_TRUE(raderRadix(31));
  EXPECT_TRUE(raderRadix(43));
  EXPECT_FALSE(raderRadix(29));  // symDft
  EXPECT_FALSE(raderRadix(47));  // beyond kLargestRaderRadix
  EXPECT_FALSE(raderRadix(62));  // not prime
  // larger prime factors are Rader passes where three local storages fit (below), else Bluestein
  for (int64_t n : {61 * 8, 71 * 2, 127 * 4, 257 * 2, 1009 * 4}) {
    EXPECT_FALSE(plannedByRadices(n)) << n;
    EXPECT_EQ(choosePlan(lineRequest(n, 2, Precision::F32)).file,
              n == 1009 * 4 ? "bluestein.fdl" : "fft.fdl")
        << n;
  }
  EXPECT_FALSE(plannedByRadices(31));  // a prime: primeInOneWorkItem or raderLocal
  // 311 - 1 = 2·5·31: raderLocal's convolution keeps radices of at most 29 (Bluestein)
  EXPECT_TRUE(raderRadices(311, lineRequest(311, 1, Precision::F32)).empty());
}

// The pass's arrays in three storages, not four (code generation's reuse across sizes,
// local_memory.h reusePlan): the input and Y of n = F·N elements, and one of the convolution's
// F·(p - 1)·m, Y taking the storage of the ping-pong array that does not hold A (488, 212 in
// rows of several; f32 2961 on an H200: 96672 -> 73920 bytes of shared memory). Padded one
// element in 16. Where the convolution has a Rader radix (2384: 148 = [4, 37]), that radix is a
// Rader pass of its own (common.fdl raderBatchFftR), no butterfly of 37 in a work-item (no
// private array of 36), whose arrays of 36·64 take a fourth storage; the planner counts four
// (raderPassLocalBytes), at least what the kernel declares.
TEST(RaderPassPlan, ThreeStoragesAndAFourthForARaderRadix) {
  auto padded = [](int64_t k) { return k + (k - 1) / 16; };
  for (const auto& [n, p, bytes] : {std::tuple<int64_t, int64_t, int64_t>{488, 61, 0},
                                    {212, 53, 0}}) {
    SCOPED_TRACE(n);
    FftRequest r = lineRequest(n, 3, Precision::F32);
    r.localMemoryBytes = bytes;
    const int64_t f = std::get<int64_t>(choosePlan(r).defines.at("F"));
    auto plan = planFft(r);
    ASSERT_EQ(plan->compiled.stages.size(), 1u);
    EXPECT_EQ(plan->compiled.stages[0].localMemoryBytes,
              8 * (2 * padded(f * n) + padded(f * (n - n / p))));
    const std::string& src = plan->compiled.source;
    size_t decls = 0;
    for (size_t at = src.find("__local float2 "); at != std::string::npos;
         at = src.find("__local float2 ", at + 1))
      ++decls;
    EXPECT_EQ(decls, 3u) << src;
  }
  FftRequest r = lineRequest(2384, 3, Precision::F32);
  r.localMemoryBytes = kGpuSharedBytes;
  auto plan = planFft(r);
  ASSERT_EQ(plan->compiled.stages.size(), 1u);
  const std::string& src = plan->compiled.source;
  size_t decls = 0;
  for (size_t at = src.find("__local float2 "); at != std::string::npos;
       at = src.find("__local float2 ", at + 1))
    ++decls;
  EXPECT_EQ(decls, 4u) << src;
  EXPECT_EQ(src.find("[36];"), std::string::npos) << src;
  EXPECT_LE(plan->compiled.stages[0].localMemoryBytes,
            raderPassLocalBytes(2384, 149, 1, Precision::F32));
  EXPECT_GT(plan->compiled.stages[0].localMemoryBytes,
            raderPassLocalBytes(2384, 149, 1, Precision::F32) * 3 / 4);
}

// The planner's count (raderPassLocalBytes) against what code generation declares, where an
// odd N leaves its arrays unpadded and the convolution's even (p - 1)·m padded (2961 = 47·63:
// 3 x 3079, not 3 x 2961), and the sizes that three storages let into 48 KiB where four did
// not (f64 866 = [433, 2]: 4 x 920 x 16 = 58880 bytes, 3 x 44160; f32 1876 = [67, 4, 7];
// Bluestein's three passes before), on PoCL against FFTW.
TEST(RaderPassPlan, TheThreeStoragesAreWhatCodegenDeclares) {
  for (const auto& [n, p, prec, bytes] :
       {std::tuple<int64_t, int64_t, Precision, int64_t>{2961, 47, Precision::F32, kGpuSharedBytes},
        {866, 433, Precision::F64, 0},
        {1876, 67, Precision::F32, 0},
        {488, 61, Precision::F64, 0}}) {
    SCOPED_TRACE(n);
    FftRequest r = lineRequest(n, 5, prec);
    r.localMemoryBytes = bytes;
    const PlanChoice c = choosePlan(r);
    ASSERT_NE(c.as<LocalChoice>(), nullptr);
    ASSERT_FALSE(c.as<LocalChoice>()->raderPass.empty());
    const int64_t f = std::get<int64_t>(c.defines.at("F"));
    const int64_t counted = raderPassLocalBytes(n, p, f, prec);
    EXPECT_LE(counted, localMemoryFor(r, f));
    auto plan = planFft(r);
    ASSERT_EQ(plan->compiled.stages.size(), 1u);
    const int64_t declared = plan->compiled.stages[0].localMemoryBytes;
    EXPECT_LE(declared, counted);                    // never more than the planner counted
    EXPECT_GE(declared, counted - 16 * 3 * (f + 8));  // nor much less (padding rounding)
  }
  EXPECT_EQ(raderPassLocalBytes(866, 433, 1, Precision::F64), 3 * (866 + 54) * 16);
  expectPlanWithinFftw<double>(lineRequest(866, 3, Precision::F64), "rader pass", 5,
                               "stockhamLocal");
  expectPlanWithinFftw<float>(lineRequest(1876, 3, Precision::F32), "rader pass", 7,
                              "stockhamLocal");
}

// The plans on PoCL against FFTW in long double, L2 within kL2Bound of FFTW's at the same
// precision: the Rader radix in the first pass (62 = [2, 31]: 2 work-items a row), the last
// (992 = [8, 4, 31]), beside another (1147 = [37, 31]), f64 inverse scaled, uneven batches.
TEST(RaderRadixPlan, MatchFftw62BatchF32) {
  expectPlanWithinFftw<float>(lineRequest(62, 7, Precision::F32), "rader radix", 3,
                              "stockhamLocal");
}
TEST(RaderRadixPlan, MatchFftw992F32) {
  expectPlanWithinFftw<float>(lineRequest(992, 3, Precision::F32), "rader radix", 3,
                              "stockhamLocal");
}
TEST(RaderRadixPlan, MatchFftw592InverseScaledF64) {
  expectPlanWithinFftw<double>(lineRequest(592, 2, Precision::F64, Direction::Inverse, true),
                               "rader radix", 3, "stockhamLocal");
}
TEST(RaderRadixPlan, MatchFftw86F32AndF64) {
  expectPlanWithinFftw<float>(lineRequest(86, 3, Precision::F32), "rader radix", 3,
                              "stockhamLocal");
  expectPlanWithinFftw<double>(lineRequest(86, 3, Precision::F64), "rader radix", 3,
                               "stockhamLocal");
}
TEST(RaderRadixPlan, MatchFftw1147F64) {
  expectPlanWithinFftw<double>(lineRequest(1147, 2, Precision::F64), "rader radix", 3,
                               "stockhamLocal");
}
// beyond one kernel: the hierarchical variant with 31 in a level
TEST(RaderRadixPlan, MatchFftwHierarchical31x4096F32) {
  expectPlanWithinFftw<float>(lineRequest(31 * 4096, 1, Precision::F32), "rader radix", 3,
                              "hierarchicalLocal3");
}

// The nested-Rader rule is written twice: common.fdl's raderBatchFftR makes a convolution radix a
// Rader pass of its own where it is a prime from raderMinPrime, the planner counts that pass's
// fourth storage (raderPassLocalBytes) where raderRadix holds. They must agree on every radix
// of a convolution the planner takes (p - 1 of a prime p with prime factors up to
// kLargestRaderRadix): a change of raderMinPrime, kLargestDirectPrime or kLargestRaderRadix
// alone fails here.
TEST(RaderPassPlan, TheNestedRaderRuleIsCommonFdls) {
  const std::string_view common = librarySource("common.fdl");
  const std::string_view def = "def raderMinPrime = ";
  const size_t at = common.find(def);
  ASSERT_NE(at, std::string_view::npos);
  const int64_t minPrime = std::stoll(std::string(common.substr(at + def.size(), 8)));
  auto prime = [](int64_t r) { return r >= 2 && largestPrimeFactor(r) == r; };
  EXPECT_TRUE(prime(minPrime));
  for (int64_t q = kLargestDirectPrime + 1; q < minPrime; ++q) EXPECT_FALSE(prime(q)) << q;
  int64_t nested = 0;
  for (int64_t p = kLargestRaderRadix + 1; p <= 3000; ++p) {
    if (!prime(p) || largestPrimeFactor(p - 1) > kLargestRaderRadix) continue;
    for (const int64_t r : raderConvolutionRadices(p - 1)) {
      const bool fdl = r >= minPrime && prime(r);
      EXPECT_EQ(fdl, raderRadix(r)) << "p = " << p << ", radix " << r;
      nested += fdl ? 1 : 0;
    }
  }
  EXPECT_GT(nested, 0);  // 149 = [4, 37] among them
}

// Rader as a pass (common.fdl raderStockPass, raderPassPlan): a composite size whose one
// prime factor above kLargestRaderRadix has p - 1 planned by radices, in one kernel
// (stockhamLocal -D rsR, the Rader passes first) where three local storages of N fit; Bluestein
// before (2961 = 47·63 and 2384 = 149·16 took 3.44x and 2.88x cuFFT's time on an H200).
TEST(RaderPassPlan, CompositeSizesTakeRaderPasses) {
  EXPECT_TRUE(raderPassPrime(47));
  EXPECT_TRUE(raderPassPrime(149));    // 148 = 4·37: a Rader radix in the convolution
  EXPECT_FALSE(raderPassPrime(43));    // a Rader radix in a work-item (raderRadix)
  EXPECT_FALSE(raderPassPrime(4099));  // 4098 = 2·3·683
  EXPECT_FALSE(raderPassPrime(94));
  struct Expected {
    int64_t n;
    Precision p;
    int64_t localBytes;
    Radices rs, rsR;
  };
  for (const Expected& e : {Expected{488, Precision::F32, 0, {61, 8}, {10, 6}},
                            Expected{212, Precision::F64, 0, {53, 4}, {4, 13}},
                            // an H100's or H200's opt-in shared memory
                            Expected{2384, Precision::F32, kGpuSharedBytes, {149, 16}, {4, 37}},
                            Expected{2961, Precision::F64, kGpuSharedBytes, {47, 9, 7}, {2, 23}}}) {
    FftRequest r = lineRequest(e.n, 3, e.p);
    r.localMemoryBytes = e.localBytes;
    const PlanChoice c = choosePlan(r);
    EXPECT_EQ(c.variant, Variant::Local) << e.n;
    EXPECT_EQ(c.kernel, "stockhamLocal") << e.n;
    EXPECT_EQ(c.radices, e.rs) << e.n;
    ASSERT_NE(c.as<LocalChoice>(), nullptr) << e.n;
    EXPECT_EQ(c.as<LocalChoice>()->raderPass, e.rsR) << e.n;
    EXPECT_EQ(std::get<Radices>(c.defines.at("rsR")), e.rsR) << e.n;
    EXPECT_LE(c.stageLocal[0][0] * c.stageLocal[0][1], 1024) << e.n;
  }
  // the plan's radices given back (the tuner's way to name it), with or without the variant
  for (Variant v : {Variant::Auto, Variant::Local}) {
    FftRequest r = lineRequest(488, 3, Precision::F32);
    r.variant = v;
    r.radices = {61, 8};
    const PlanChoice c = choosePlan(r);
    EXPECT_EQ(c.kernel, "stockhamLocal");
    ASSERT_NE(c.as<LocalChoice>(), nullptr);
    EXPECT_EQ(c.as<LocalChoice>()->raderPass, (Radices{10, 6}));
  }
  // a convolution with a dense prime radix above 16 (46 = [2, 23]) where Bluestein is one
  // kernel (376 = [47, 8], 47 x 47 under 227 KiB): Bluestein's, which was faster on an H200;
  // 2961 above keeps its pass (Bluestein's M = 6000 takes passes over global memory)
  for (const auto& [n, bytes] : {std::pair<int64_t, int64_t>{376, 0}, {47 * 47, kGpuSharedBytes}})
    for (Precision p : {Precision::F32, Precision::F64}) {
      FftRequest r = lineRequest(n, 3, p);
      r.localMemoryBytes = bytes;
      EXPECT_EQ(choosePlan(r).kernel, "bluesteinLocal") << n;
    }
  // three arrays of N do not fit 48 KiB (f32 2384: 3 x 20 KB), two prime factors above 43, a
  // p - 1 not planned by radices, a prime (raderLocal or Bluestein): Bluestein's variant
  for (int64_t n : {2384, 2961, 47 * 53, 4099 * 2, 1601})
    EXPECT_EQ(choosePlan(lineRequest(n, 2, Precision::F32)).variant, Variant::Bluestein) << n;
}

// The blocks a multiprocessor a CUDA Rader pass asks of ptxas (raderPassMinBlocks), from its
// inputs by hand: sm_90's 65536 registers given 256 a warp, 64 warps, the budget + 1 KiB of
// shared memory a multiprocessor and 1 KiB reserved a block, 768 threads resident the aim.
TEST(RaderPassPlan, MinBlocksFollowSharedMemoryAndTheRegisterEstimate) {
  // the three storages: 2961 = 47·63, 46·63 = 2898 + 181 padding = 3079 > 2961 (odd: unpadded)
  EXPECT_EQ(raderPassLocalBytes(2961, 47, 1, Precision::F32), 3 * 3079 * 8);
  // four where the convolution's 37 is a Rader pass too (2384 = 149·16, 148 = [4, 37])
  EXPECT_EQ(raderPassLocalBytes(2384, 149, 1, Precision::F32), 4 * (2384 + 148) * 8);
  EXPECT_EQ(raderPassLocalBytes(2384, 149, 1, Precision::F64), 4 * (2384 + 148) * 16);
  FftRequest cuda = lineRequest(2961, 22664, Precision::F32);
  cuda.target = compiler::pipeline::Target::Cuda;
  cuda.localMemoryBytes = kGpuSharedBytes;
  // 2961: widest 23 (the convolution's [2, 23]), 3·23·2 = 138 -> 144 registers: one block of 8
  // warps by them; 233472 / (73896 + 1024) = 3 by shared memory; 768 threads = 3 blocks, whose
  // 65536 / (3·256) = 85 -> 80 registers keep half of 138
  EXPECT_EQ(raderPassMinBlocks(256, 73896, 23, cuda), 3);
  // 2384: widest 37 (a Rader radix, [4, 37]), 222: 3 blocks' 80 registers < 111, 2's 128 not
  EXPECT_EQ(raderPassMinBlocks(256, 60768, 37, cuda), 2);
  // the shared memory holds one block (f64 2961): none asked
  EXPECT_EQ(raderPassMinBlocks(256, 147792, 23, cuda), 0);
  // f32 514 = [257, 2], [16, 16]: 2·16·2 = 64 registers, 3 blocks of 9 warps = 864 threads
  EXPECT_EQ(raderPassMinBlocks(257, 3 * 546 * 8, 16, cuda), 0);
  // f64 514: 128 registers, one block of 257 threads; 3 blocks reach 768, with 72 registers
  FftRequest cuda64 = cuda;
  cuda64.precision = Precision::F64;
  EXPECT_EQ(raderPassMinBlocks(257, 3 * 546 * 16, 16, cuda64), 3);
  FftRequest opencl = cuda;
  opencl.target = compiler::pipeline::Target::OpenCL;
  EXPECT_EQ(raderPassMinBlocks(256, 73896, 23, opencl), 0);  // ptxas's alone
  // through the planner into __launch_bounds__; a request's own count wins
  EXPECT_EQ(choosePlan(cuda).as<LocalChoice>()->minBlocksPerSm, 3);
  EXPECT_EQ(choosePlan(opencl).as<LocalChoice>()->minBlocksPerSm, 0);
  EXPECT_NE(planFft(cuda)->compiled.source.find("__launch_bounds__(256, 3)"), std::string::npos);
  cuda.minBlocksPerSm = 2;
  EXPECT_NE(planFft(cuda)->compiled.source.find("__launch_bounds__(256, 2)"), std::string::npos);
}

// The nested Rader pass's register estimate (session 24): a Rader radix of the convolution is a
// pass over the work-group, so the estimate takes its own convolution's widest radix (37: 36 =
// [6, 6]), not a 37-point butterfly's 222 registers: f32 2384 = [149, 16] is left at 16 (64
// registers: 4 blocks of 8 warps, more than the shared memory's 2), so none is asked (ptxas
// sm_90: 48 registers, where (256, 2) took 67); f32 2961's 23, a dense butterfly, still asks 3.
TEST(RaderPassPlan, TheNestedPassEstimatesItsConvolutionsWidestRadix) {
  FftRequest r = wideCuda(lineRequest(2384, 28149, Precision::F32));
  const auto plan = raderPassPlan(2384, r);
  ASSERT_TRUE(plan.has_value());
  EXPECT_EQ(plan->convolution, (Radices{4, 37}));
  EXPECT_EQ(plan->widest, 16);
  EXPECT_EQ(choosePlan(r).as<LocalChoice>()->minBlocksPerSm, 0);
  EXPECT_NE(planFft(r)->compiled.source.find("__launch_bounds__(256)"), std::string::npos);
  // 346 = [173, 2], 172 = [4, 43]: 43's 42 = [7, 6], widest 7
  EXPECT_EQ(raderPassPlan(346, wideCuda(lineRequest(346, 3, Precision::F32)))->widest, 7);
  const FftRequest denseRequest = wideCuda(lineRequest(2961, 3, Precision::F32));
  const auto dense = raderPassPlan(2961, denseRequest);
  ASSERT_TRUE(dense.has_value());
  EXPECT_EQ(dense->widest, 23);
  EXPECT_EQ(choosePlan(denseRequest).as<LocalChoice>()->minBlocksPerSm, 3);
}

// The blocks a CUDA one-kernel plan with a direct prime radix above 16 first asks of ptxas
// (widePrimeMinBlocks), from its inputs by hand: ptxas's cap a thread is a sub-partition's
// 16384 registers over its share of the warps (a quarter, rounded up), in steps of 8.
TEST(WidePrimeRadix, BlocksKeepThreeWarpsASubPartition) {
  EXPECT_EQ(subPartitionRegisterCap(3, 4), 168);  // 12 warps, 3 a part: 16384 / 96 = 170
  EXPECT_EQ(subPartitionRegisterCap(3, 3), 168);  // 9 warps: still 3 in one part
  EXPECT_EQ(subPartitionRegisterCap(3, 5), 128);  // 15: 4
  EXPECT_EQ(subPartitionRegisterCap(2, 4), 255);  // 8: 2, 256 registers
  EXPECT_EQ(subPartitionRegisterCap(2, 6), 168);
  const FftRequest r = wideCuda(lineRequest(783, 85707, Precision::F32));
  // 783 = [29, 9, 3], 3 rows of 27 work-items: 81 threads, 3 warps; 29's estimate 3·29·2 = 174
  // -> 176 registers: 2 warps a part, 8 warps, 2 blocks; (232448 + 1024) / (37584 + 1024) = 6
  // blocks by shared memory; 6's cap 96 and 5's 128 keep under 3/4 of 174, 4's 168 not
  EXPECT_EQ(widePrimeMinBlocks(81, 37584, {29, 9, 3}, r), 4);
  EXPECT_EQ(widePrimeMinBlocks(58, 2 * 1682 * 8, {29, 29}, r), 6);  // 841: 2 warps, 4 -> 6
  EXPECT_EQ(widePrimeMinBlocks(145, 2 * 2465 * 8, {29, 17}, r), 2);  // 493: 5 warps, 1 -> 2
  // shared memory holds the estimate's blocks: none
  EXPECT_EQ(widePrimeMinBlocks(81, 120000, {29, 9, 3}, r), 0);
  // 29 after another radix (522 = [2, 29, 9]), radices 17 - 23 (estimates 102 - 138, within
  // 168), a row in one work-item (29 alone: 116), f64 and OpenCL: none
  EXPECT_EQ(widePrimeMinBlocks(90, 2 * 2610 * 8, {2, 29, 9}, r), 0);
  EXPECT_EQ(widePrimeMinBlocks(115, 2 * 2645 * 8, {23, 23}, r), 0);
  EXPECT_EQ(widePrimeMinBlocks(96, 96 * 29 * 8, {29}, r), 0);
  FftRequest f64 = r;
  f64.precision = Precision::F64;
  EXPECT_EQ(widePrimeMinBlocks(81, 37584, {29, 9, 3}, f64), 0);
  FftRequest opencl = r;
  opencl.target = compiler::pipeline::Target::OpenCL;
  EXPECT_EQ(widePrimeMinBlocks(81, 37584, {29, 9, 3}, opencl), 0);
  // through the planner into __launch_bounds__; a request's own count wins
  EXPECT_EQ(choosePlan(r).as<LocalChoice>()->minBlocksPerSm, 4);
  EXPECT_NE(planFft(r)->compiled.source.find("__launch_bounds__(81, 4)"), std::string::npos);
  EXPECT_EQ(choosePlan(opencl).as<LocalChoice>()->minBlocksPerSm, 0);
  FftRequest own = r;
  own.minBlocksPerSm = 2;
  EXPECT_NE(planFft(own)->compiled.source.find("__launch_bounds__(81, 2)"), std::string::npos);
}

// The plan whose CUDA kernel the rule bounds, on PoCL against FFTW (OpenCL takes no bound: the
// same radices and rows; the bounded CUDA kernel runs in cuda_fftplan's GPU spread)
TEST(WidePrimeRadix, MatchFftw783F32) {
  expectPlanWithinFftw<float>(lineRequest(783, 5, Precision::F32), "wide prime radix", 3,
                              "stockhamLocal");
}

// The plans on PoCL against FFTW in long double (L2 within kL2Bound of FFTW's at the same
// precision): the pass first and alone beside a radix (488 = [61, 8], f32 and f64), several
// rows a work-group (212 = [53, 4], a batch they do not divide), the convolution with a Rader
// radix of its own (2384: 148 = [4, 37]), three radices inverse scaled (2961), 47 x 47 (the
// second pass twiddled, its radices given) under a GPU's shared memory.
TEST(RaderPassPlan, MatchFftw488F32AndF64) {
  expectPlanWithinFftw<float>(lineRequest(488, 3, Precision::F32), "rader pass", 3,
                              "stockhamLocal");
  expectPlanWithinFftw<double>(lineRequest(488, 3, Precision::F64), "rader pass", 3,
                               "stockhamLocal");
}
TEST(RaderPassPlan, MatchFftw212RowsInGroupsF32) {
  expectPlanWithinFftw<float>(lineRequest(212, 11, Precision::F32), "rader pass", 3,
                              "stockhamLocal");
}
FftRequest wide(FftRequest r) { return underGpuBudget(r); }
TEST(RaderPassPlan, MatchFftw2384F32AndF64) {
  expectPlanWithinFftw<float>(wide(lineRequest(2384, 2, Precision::F32)), "rader pass", 3,
                              "stockhamLocal");
  expectPlanWithinFftw<double>(wide(lineRequest(2384, 2, Precision::F64)), "rader pass", 3,
                               "stockhamLocal");
}
TEST(RaderPassPlan, MatchFftw2961InverseScaledF32AndF64) {
  expectPlanWithinFftw<float>(wide(lineRequest(2961, 2, Precision::F32, Direction::Inverse, true)),
                              "rader pass", 3, "stockhamLocal");
  expectPlanWithinFftw<double>(wide(lineRequest(2961, 2, Precision::F64, Direction::Inverse, true)),
                               "rader pass", 3, "stockhamLocal");
}
TEST(RaderPassPlan, MatchFftw47x47F64) {
  FftRequest r = wide(lineRequest(47 * 47, 2, Precision::F64));
  r.radices = {47, 47};  // by default Bluestein's one kernel (CompositeSizesTakeRaderPasses)
  expectPlanWithinFftw<double>(r, "rader pass", 3, "stockhamLocal");
}

// Accuracy by construction (issue 23): the Rader primes where FFTW computes a direct DFT (31,
// 43: about 1.8e-16 in f64, the hardest to match) and 61 (30 = [6, 5], 60 = [10, 6] from the
// radix rule), f32 and f64, the inverse direction (accuracy_test.cpp runs every N up to 256
// forward, these among them): L2 within kL2Bound of FFTW's own at the same precision, Linf
// within fftTolerance. With the spectrum an f64 Stockham FFT, f64 31 and 43 were 1.74 and 1.61;
// with the exact DFT rounded once (the language's fft, raderSpectrum) they meet kL2Bound.
class RaderAccuracy : public ::testing::TestWithParam<Precision> {};

TEST_P(RaderAccuracy, InverseWithinFftw) {
  const Precision p = GetParam();
  for (int64_t n : {31, 43, 61}) {
    const FftRequest r = lineRequest(n, 4096 / n, p, Direction::Inverse);
    // f32 31 and 43, f64 31: raderDft in a work-item (primeInOneWorkItem)
    const bool oneRadix = n == 31 || (n == 43 && p == Precision::F32);
    const char* kernel = oneRadix ? "stockhamLocalCopy" : "raderLocal";
    p == Precision::F64 ? expectPlanWithinFftw<double>(r, "rader accuracy", 5, kernel)
                        : expectPlanWithinFftw<float>(r, "rader accuracy", 5, kernel);
  }
}

INSTANTIATE_TEST_SUITE_P(Rader, RaderAccuracy, ::testing::Values(Precision::F32, Precision::F64),
                         [](const auto& param) {
                           return param.param == Precision::F64 ? "F64" : "F32";
                         });


// A request's rows a work-group keep Rader's one kernel where three arrays of them fit (an A/B
// of the rows: f64 43's 22 in 48 KiB against 11), else Bluestein's: its two arrays of M = 128
// fit fewer rows, so the error names Rader's arrays; its three passes over global memory take
// f32 1901's 2 rows. Named radices of N - 1 have no Bluestein: Rader's error. A request's
// work-group size still goes to Bluestein. On PoCL, 43 f64 in groups of 11 rows, the last
// partial.
TEST(RaderPlan, ARequestsRowsKeepRader) {
  FftRequest r = lineRequest(43, 780335, Precision::F64);
  r.target = compiler::pipeline::Target::Cuda;
  r.localMemoryBytes = kGpuSharedBytes;
  EXPECT_EQ(choosePlan(r).kernel, "raderLocal");
  EXPECT_EQ(std::get<int64_t>(choosePlan(r).defines.at("F")), 22);
  r.fftsPerGroup = 11;
  const PlanChoice c = choosePlan(r);
  EXPECT_EQ(c.kernel, "raderLocal");
  EXPECT_EQ(std::get<int64_t>(c.defines.at("F")), 11);
  r.fftsPerGroup = 23;  // 3 x 23 x 42 x 16 bytes > 48 KiB, and Bluestein's 2 x 23 x 128 x 16
  const std::string rader = "rader's three local arrays of F x (N - 1) = 23 x 42 f64";
  auto expectRaderError = [&](const FftRequest& q) {
    EXPECT_THROW(
        {
          try {
            (void)choosePlan(q);
          } catch (const backends::UserError& e) {
            EXPECT_NE(std::string(e.what()).find(rader), std::string::npos) << e.what();
            throw;
          }
        },
        backends::UserError);
  };
  expectRaderError(r);
  FftRequest named = r;
  named.variant = Variant::Bluestein;
  named.radices = {6, 7};
  expectRaderError(named);
  FftRequest wide = lineRequest(1901, 64, Precision::F32);
  EXPECT_EQ(choosePlan(wide).kernel, "raderLocal");
  wide.fftsPerGroup = 2;
  EXPECT_EQ(choosePlan(wide).kernel, "bluesteinFourStep");
  r.fftsPerGroup = 0;
  r.workgroupSize = 7;
  EXPECT_NE(choosePlan(r).kernel, "raderLocal");
  FftRequest small = lineRequest(43, 25, Precision::F64);
  small.fftsPerGroup = 11;
  expectPlanWithinFftw<double>(small, "rader rows", 13, "raderLocal");
}

}  // namespace
}  // namespace fftc::fftlib::test
