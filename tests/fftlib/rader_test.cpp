// Rader's FFT of a prime size (fftlib/rader.fdl: rader, the formula, and raderLocal, the kernel
// the planner uses) through the interpreter against FFTW in long double, and the compile-time
// number theory it is built from (primitiveRoot, powMods, discreteLogs) on hand-checked values.
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

struct RaderCase {
  int64_t p;
  Radices rs;  // of p - 1
  int64_t batch;
  int64_t fftsPerGroup;  // raderLocal's F
};

FftCase raderCase(const std::string& kernel, const RaderCase& r, ir::ScalarKind prec, Direction d) {
  FftCase c{.file = "rader.fdl",
            .kernel = kernel,
            .defines = {{"N", r.p}, {"rs", r.rs}},
            .n = r.p,
            .batch = r.batch,
            .precision = prec,
            .direction = d,
            .scaled = d == Direction::Inverse};
  if (kernel == "raderLocal") {
    c.defines["F"] = r.fftsPerGroup;
    c.defines["B"] = r.batch;  // rowsInGroups decides whether F divides the batch
  }
  return c;
}

class Rader : public ::testing::TestWithParam<RaderCase> {};

// pyvkfft's tolerance undoubled (fftlib_support.h doubles it for prime factors above 13):
// Rader's convolution is as accurate as a mixed-radix FFT of p - 1.
TEST_P(Rader, MatchesFftw) {
  for (const char* kernel : {"rader", "raderLocal"})
    for (auto prec : {ir::ScalarKind::Float, ir::ScalarKind::Double})
      for (auto d : {Direction::Forward, Direction::Inverse}) {
        FftCase c = raderCase(kernel, GetParam(), prec, d);
        FftResult r = runFft(c);
        ASSERT_TRUE(r.ran) << describe(c) << "\n" << r.error;
        ErrorSummary::get().record(kernel, c, r);
        const double tol = largestPrimeFactor(c.n) > 13 ? r.tol / 2 : r.tol;
        EXPECT_LT(r.linf, tol) << describe(c) << " (l2 " << r.l2 << ")";
      }
}

// small primes (p - 1 of one radix), the first prime Bluestein took, primes whose p - 1 has
// radices 3, 5, 7, 9 and 16, and rows per work-group that divide the batch unevenly
INSTANTIATE_TEST_SUITE_P(Fft, Rader,
                         ::testing::Values(RaderCase{3, {2}, 2, 1}, RaderCase{5, {4}, 3, 2},
                                           RaderCase{7, {2, 3}, 3, 1}, RaderCase{31, {2, 3, 5}, 3, 2},
                                           RaderCase{37, {4, 9}, 2, 1}, RaderCase{43, {6, 7}, 1, 1},
                                           RaderCase{61, {4, 3, 5}, 3, 3},
                                           RaderCase{257, {16, 16}, 2, 1},
                                           RaderCase{1009, {16, 7, 9}, 1, 1}),
                         [](const ::testing::TestParamInfo<RaderCase>& i) {
                           return "N" + std::to_string(i.param.p) + "_B" +
                                  std::to_string(i.param.batch) + "_F" +
                                  std::to_string(i.param.fftsPerGroup);
                         });

// Rader as a radix step (common.fdl raderDft): the butterfly of a prime p >= 31 in a pass of a
// mixed-radix FFT, one work-item computing it with two register FFTs of p - 1 (their prime
// factors) and the spectrum table, in the twiddle-table kernels (stockhamTwiddle over global
// memory, stockhamLocal through local memory: the first pass, a middle one, the last). Batch 3,
// both precisions and directions, pyvkfft's tolerance undoubled. 127 and 257 are beyond the
// planner's kLargestRaderRadix (their butterflies spill) but compute correctly.
struct RaderRadixCase {
  std::string kernel;
  Radices rs;
  ir::ScalarKind precision;
  Direction direction;
};

std::vector<RaderRadixCase> raderRadixCases() {
  std::vector<RaderRadixCase> cases;
  for (const char* k : {"stockhamTwiddle", "stockhamLocal"})
    for (const Radices& rs : {Radices{2, 31}, Radices{8, 4, 31}, Radices{16, 37}, Radices{8, 61},
                              Radices{31, 2}, Radices{4, 43, 2}})
      for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double})
        for (auto d : {Direction::Forward, Direction::Inverse}) cases.push_back({k, rs, p, d});
  for (const Radices& rs : {Radices{4, 127}, Radices{2, 257}})
    cases.push_back({"stockhamLocal", rs, ir::ScalarKind::Float, Direction::Forward});
  return cases;
}

class RaderRadix : public ::testing::TestWithParam<RaderRadixCase> {};

TEST_P(RaderRadix, MatchesFftw) {
  const RaderRadixCase& p = GetParam();
  FftCase c{.file = "fft.fdl",
            .kernel = p.kernel,
            .defines = {{"rs", p.rs}},
            .n = product(p.rs),
            .batch = 3,
            .precision = p.precision,
            .direction = p.direction};
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << describe(c) << "\n" << r.error;
  ErrorSummary::get().record("rader radix " + p.kernel, c, r);
  EXPECT_LT(r.linf, r.tol / 2) << describe(c) << " (l2 " << r.l2 << ")";
}

INSTANTIATE_TEST_SUITE_P(Fft, RaderRadix, ::testing::ValuesIn(raderRadixCases()),
                         [](const ::testing::TestParamInfo<RaderRadixCase>& i) {
                           std::string s = i.param.kernel + "_";
                           for (int64_t r : i.param.rs) s += std::to_string(r) + "_";
                           s += precisionName(i.param.precision);
                           return s + (i.param.direction == Direction::Forward ? "_fwd" : "_inv");
                         });

// Rader as a pass (common.fdl raderStockPass, fft.fdl stockhamLocal -D rsR): a prime radix
// above 43 whose pass computes its n / p butterflies' cyclic convolutions together, the FFTs
// of p - 1 (radices rsR) as Stockham passes over the butterflies, in local memory. The pass
// first (reading global memory, no twiddles), last, in the middle (twiddled), twice (53 x 53),
// beside a Rader radix of its own inside the convolution (148 = [4, 37]: 2384; 82 = [2, 41]
// and [41, 2]: the inner radix a Rader pass itself, common.fdl raderBatchFftR, twiddled and
// not), and 2961 = 47 x 9 x 7; both precisions, both directions, pyvkfft's tolerance undoubled.
struct RaderPassCase {
  Radices rs;
  Radices rsR;
  bool bothDirections = true;
};

class RaderPass : public ::testing::TestWithParam<RaderPassCase> {};

TEST_P(RaderPass, MatchesFftw) {
  const RaderPassCase& p = GetParam();
  for (auto prec : {ir::ScalarKind::Float, ir::ScalarKind::Double})
    for (auto d : {Direction::Forward, Direction::Inverse}) {
      if (d == Direction::Inverse && !p.bothDirections) continue;
      FftCase c{.file = "fft.fdl",
                .kernel = "stockhamLocal",
                .defines = {{"rs", p.rs}, {"rsR", p.rsR}},
                .n = product(p.rs),
                .batch = 2,
                .precision = prec,
                .direction = d,
                .scaled = d == Direction::Inverse};
      FftResult r = runFft(c);
      ASSERT_TRUE(r.ran) << describe(c) << "\n" << r.error;
      ErrorSummary::get().record("rader pass", c, r);
      EXPECT_LT(r.linf, r.tol / 2) << describe(c) << " (l2 " << r.l2 << ")";
    }
}

INSTANTIATE_TEST_SUITE_P(Fft, RaderPass,
                         ::testing::Values(RaderPassCase{{47, 2}, {2, 23}},
                                           RaderPassCase{{8, 47}, {2, 23}},
                                           RaderPassCase{{4, 53, 2}, {4, 13}},
                                           RaderPassCase{{53, 53}, {4, 13}, false},
                                           RaderPassCase{{149, 16}, {4, 37}, false},
                                           RaderPassCase{{83, 2}, {2, 41}},
                                           RaderPassCase{{2, 83}, {41, 2}, false},
                                           RaderPassCase{{47, 9, 7}, {2, 23}, false}),
                         [](const ::testing::TestParamInfo<RaderPassCase>& i) {
                           std::string s;
                           for (int64_t r : i.param.rs) s += std::to_string(r) + "_";
                           return s + "R" + std::to_string(product(i.param.rsR) + 1);
                         });

// The pass is Rader's: x_0 left out of the zero frequency, the output gathered by log_g, or
// the spectrum's sign flipped, and 376 = [8, 47] is wrong.
TEST(RaderPassNegativeControl, ThePassIsRaders) {
  expectEachMutationWrong(
      FftCase{.file = "fft.fdl",
              .kernel = "stockhamLocal",
              .defines = {{"rs", Radices{8, 47}}, {"rsR", Radices{2, 23}}},
              .n = 376,
              .batch = 2,
              .precision = ir::ScalarKind::Double},
      {{"raderEach(p, m, raderX0Mask(p))", "raderEach(p, m, raderLast(p))"},
       {"transpose <<: gather(discreteLogs(raderH(p), p))",
        "transpose <<: gather(discreteLogs(raderG(p), p))"},
       {"raderEach(p, m, raderSpectrum1(p, s))", "raderEach(p, m, raderSpectrum1(p, -s))"}});
}

// The convolution's Rader radix is a Rader pass inside the pass (166 = [83, 2], 82 = [2, 41]):
// with the inner pass's inverse FFT forward, or its radices' twiddles of the wrong sign, the
// result is wrong.
TEST(RaderPassNegativeControl, TheInnerPassIsRaders) {
  expectEachMutationWrong(
      FftCase{.file = "fft.fdl",
              .kernel = "stockhamLocal",
              .defines = {{"rs", Radices{83, 2}}, {"rsR", Radices{2, 41}}},
              .n = 166,
              .batch = 2,
              .precision = ir::ScalarKind::Double},
      {{"raderBatchFftPaired(factors(rs[q] - 1), prod(rs) * m / rs[q], 1))",
        "raderBatchFftPaired(factors(rs[q] - 1), prod(rs) * m / rs[q], -1))"},
       {"                     prod(fs) * m, s)", "                     prod(fs) * m, -s)"}});
}

// The radix-31 butterfly is Rader's: with its spectrum's sign flipped, or its output gathered
// by log_g, 62 = [2, 31] is wrong.
TEST(RaderRadixNegativeControl, TheButterflyIsRaders) {
  expectEachMutationWrong(
      FftCase{.file = "fft.fdl",
              .kernel = "stockhamLocal",
              .defines = {{"rs", Radices{2, 31}}},
              .n = 62,
              .batch = 2,
              .precision = ir::ScalarKind::Double},
      {{"fftRaderWithMap(mapSeqUnroll, p, factors(p - 1), s, 0,",
        "fftRaderWithMap(mapSeqUnroll, p, factors(p - 1), -s, 0,"},
       {"gather(discreteLogs(raderH(p), p))", "gather(discreteLogs(raderG(p), p))"}});
}

// Each permutation and the X_0 slot matter: the output gathered by log_g instead of log_h, the
// input by h's powers, or the last slot's mask dropped, and the result is wrong.
TEST(RaderNegativeControl, PermutationsAndTheFirstOutputMatter) {
  expectEachMutationWrong(
      raderCase("rader", RaderCase{31, {2, 3, 5}, 2, 1}, ir::ScalarKind::Double,
                Direction::Forward),
      {{"gather(discreteLogs(raderH(p), p))", "gather(discreteLogs(raderG(p), p))"},
       {"gather(raderPowers(p)) <<: x", "gather(powMods(raderH(p), p - 1, p)) <<: x"},
       {"1.0 * (i / (p - 1))", "0.0 * i"}});
}

// The compile-time lists, checked by hand: 3 is the smallest primitive root mod 7, its powers
// 3^0 .. 3^5 mod 7 are 1 3 2 6 4 5, so log_3 of 1 .. 6 is 0 2 1 4 5 3 (and 0 maps to 6); the
// smallest primitive root mod 41 is 6 (2, 3, 4 and 5 are squares or have order 20 or less).
// Read through gather from x_i = i.
std::vector<double> gathered(const std::string& list, int64_t n) {
  fe::ElaborateOptions opts;
  opts.precision = ir::ScalarKind::Double;
  const std::string text =
      "kernel k(x: [complex]" + std::to_string(n) + ") = gather(" + list + ") <<: x\n";
  fe::Program p = fe::compileSource(text, "lists.fdl", opts);
  std::vector<std::complex<double>> in;
  for (int64_t i = 0; i < n; ++i) in.emplace_back(static_cast<double>(i), 0.0);
  ir::Value v = ir::Value::complexArray(in, ir::ScalarKind::Double, {n});
  std::vector<double> out;
  for (auto z : ir::interpretCall(p.kernel("k")->lambda, {v}).toComplexVector())
    out.push_back(z.real());
  return out;
}

TEST(RaderNumberTheory, ListsMatchHandValues) {
  EXPECT_EQ(gathered("powMods(primitiveRoot(7), 6, 7)", 7),
            (std::vector<double>{1, 3, 2, 6, 4, 5}));
  EXPECT_EQ(gathered("discreteLogs(3, 7)", 7), (std::vector<double>{6, 0, 2, 1, 4, 5, 3}));
  EXPECT_EQ(gathered("powMods(primitiveRoot(41), 2, 41)", 41), (std::vector<double>{1, 6}));
}

TEST(RaderNumberTheory, BadArgumentsAreErrors) {
  EXPECT_THROW(gathered("discreteLogs(2, 7)", 7), ir::CompileError);  // 2 has order 3 mod 7
  EXPECT_THROW(gathered("powMods(primitiveRoot(8), 2, 8)", 8), ir::CompileError);
  EXPECT_THROW(gathered("powMods(3, 6, 7)", 5), ir::CompileError);  // index 6 of 5 elements
}

}  // namespace
}  // namespace fftc::fftlib::test
