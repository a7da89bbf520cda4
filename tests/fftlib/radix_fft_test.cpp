// The radix-list FFTs of fftlib/fft.fdl (Stockham, Stockham with twiddle tables, Cooley-Tukey)
// through the interpreter against FFTW: the paper's radix lists (and radices 11, 13), every N in
// 1..256 (mixed radix, or Bluestein where N has a prime factor above 7), both precisions and
// directions, batch 3.
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

const char* const kRadixKernels[] = {"stockham", "stockhamTwiddle", "cooleyTukey", "stockhamLocal"};

struct RadixCase {
  std::string kernel;
  Radices rs;
  ir::ScalarKind precision;
  Direction direction;
};

std::string radixCaseName(const ::testing::TestParamInfo<RadixCase>& p) {
  const RadixCase& c = p.param;
  std::string s = c.kernel + "_";
  for (int64_t r : c.rs) s += std::to_string(r) + "_";
  s += precisionName(c.precision);
  s += c.direction == Direction::Forward ? "_fwd" : "_inv";
  return s;
}

std::vector<RadixCase> radixCases() {
  const std::vector<Radices> lists = {
      {4, 4, 4}, {3, 4, 5}, {2, 8, 4},    {16, 16}, {2, 2, 2, 2, 2, 2, 2},
      {7, 5, 3}, {2},       {16, 8, 2, 3},
      {11, 13},  {2, 13}};  // the planner's radices 11 and 13 (issue 23)
  std::vector<RadixCase> cases;
  for (const char* k : kRadixKernels)
    for (const auto& rs : lists)
      for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double})
        for (auto d : {Direction::Forward, Direction::Inverse}) cases.push_back({k, rs, p, d});
  return cases;
}

class RadixList : public ::testing::TestWithParam<RadixCase> {};

TEST_P(RadixList, MatchesFftw) {
  const RadixCase& p = GetParam();
  FftCase c{.file = "fft.fdl",
            .kernel = p.kernel,
            .defines = {{"rs", p.rs}},
            .n = product(p.rs),
            .batch = 3,
            .precision = p.precision,
            .direction = p.direction};
  expectAccurate(p.kernel, c);
}

INSTANTIATE_TEST_SUITE_P(Fft, RadixList, ::testing::ValuesIn(radixCases()), radixCaseName);

// Every N in 1..256: the greedy radix list with each radix-list kernel, Bluestein otherwise.
struct SizeCase {
  int64_t n;
  ir::ScalarKind precision;
  Direction direction;
};

class EverySize : public ::testing::TestWithParam<SizeCase> {};

TEST_P(EverySize, MatchesFftw) {
  const SizeCase& p = GetParam();
  if (auto rs = greedyRadices(p.n)) {
    for (const char* k : kRadixKernels) {
      FftCase c{.file = "fft.fdl",
                .kernel = k,
                .defines = {{"rs", *rs}},
                .n = p.n,
                .batch = 3,
                .precision = p.precision,
                .direction = p.direction};
      expectAccurate(std::string(k) + " (1..256)", c);
    }
  } else {
    FftCase c{.file = "bluestein.fdl",
              .kernel = "bluestein",
              .defines = {{"N", p.n}, {"rsM", bluesteinRadices(p.n)}},
              .n = p.n,
              .batch = 3,
              .precision = p.precision,
              .direction = p.direction};
    expectAccurate("bluestein (1..256)", c);
  }
}

std::vector<SizeCase> sizeCases() {
  std::vector<SizeCase> cases;
  for (int64_t n = 1; n <= 256; ++n)
    for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double})
      for (auto d : {Direction::Forward, Direction::Inverse}) cases.push_back({n, p, d});
  return cases;
}

INSTANTIATE_TEST_SUITE_P(Fft, EverySize, ::testing::ValuesIn(sizeCases()),
                         [](const ::testing::TestParamInfo<SizeCase>& p) {
                           return "N" + std::to_string(p.param.n) + "_" +
                                  precisionName(p.param.precision) +
                                  (p.param.direction == Direction::Forward ? "_fwd" : "_inv");
                         });

// A few larger sizes, batch 1 (the interpreter takes ~0.2 s per 4096-point FFT).
TEST(LargerSizes, MatchFftw) {
  const std::pair<const char*, Radices> cases[] = {{"stockham", {16, 16, 16}},
                                                   {"stockhamTwiddle", {16, 16, 16}},
                                                   {"cooleyTukey", {8, 8, 8, 8}},
                                                   {"stockham", {7, 5, 3, 16, 2}}};
  for (const auto& [k, rs] : cases) {
    for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
      FftCase c{.file = "fft.fdl",
                .kernel = k,
                .defines = {{"rs", rs}},
                .n = product(rs),
                .batch = 1,
                .precision = p};
      expectAccurate(std::string(k) + " large", c);
    }
  }
}

TEST(FftOptions, ScaledInverseDividesByN) {
  for (const char* k : kRadixKernels) {
    for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
      FftCase c{.file = "fft.fdl",
                .kernel = k,
                .defines = {{"rs", Radices{8, 3, 4}}},
                .n = 96,
                .batch = 2,
                .precision = p,
                .direction = Direction::Inverse,
                .scaled = true};
      expectAccurate(std::string(k) + " scaled", c);
      // and the check can fail: the same kernel without its normalization
      c.mutateFrom = "map(normalize(scale, N) o fft";
      c.mutateTo = "map(normalize(0, N) o fft";
      c.kernel = "stockham";
      FftResult r = runFft(c);
      ASSERT_TRUE(r.ran) << r.error;
      EXPECT_GT(r.linf, 0.5);
    }
  }
}

// -D B fixes the batch; without it the batch is an integer argument of the kernel.
TEST(FftOptions, BatchIsASizeVariableUnlessBound) {
  FftCase c{.file = "fft.fdl", .kernel = "stockham", .defines = {{"rs", Radices{4, 4}}}, .n = 16};
  fe::Program p = compileLibrary(c);
  ASSERT_TRUE(p.kernel("stockham"));
  EXPECT_EQ(p.kernel("stockham")->sizeVarNames, std::vector<std::string>{"B"});
  c.defines["B"] = int64_t{3};
  fe::Program q = compileLibrary(c);
  EXPECT_TRUE(q.kernel("stockham")->sizeVarNames.empty());
  EXPECT_EQ(q.kernel("stockham")->paramTypes[0].size().constant(), 3);
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_LT(r.linf, r.tol);
}

// Negative controls: each check above can fail.
TEST(FftNegativeControl, WrongTwiddleSignFails) {
  // the butterfly's twiddles with the sign of the other direction
  for (const char* k : {"stockham", "cooleyTukey"}) {
    FftCase c{.file = "fft.fdl",
              .kernel = k,
              .defines = {{"rs", Radices{4, 4, 4}}},
              .n = 64,
              .precision = ir::ScalarKind::Double,
              .mutateFrom = "omega(s, (k * numMats + j) * l, height * numMats)",
              .mutateTo = "omega(-s, (k * numMats + j) * l, height * numMats)"};
    FftResult r = runFft(c);
    ASSERT_TRUE(r.ran) << r.error;
    EXPECT_GT(r.linf, 1e-2) << k;
  }
  FftCase t{.file = "fft.fdl",
            .kernel = "stockhamTwiddle",
            .defines = {{"rs", Radices{4, 4, 4}}},
            .n = 64,
            .precision = ir::ScalarKind::Float,
            .mutateFrom = "omega(s, j * k, rows * r)",
            .mutateTo = "omega(-s, j * k, rows * r)"};
  FftResult r = runFft(t);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_GT(r.linf, 1e-2);
}

TEST(FftNegativeControl, WrongDirectionFails) {
  FftCase c{.file = "fft.fdl",
            .kernel = "stockham",
            .defines = {{"rs", Radices{3, 4, 5}}},
            .n = 60,
            .precision = ir::ScalarKind::Double,
            .direction = Direction::Inverse,
            .mutateFrom = "def omega(s, k, n) = cispiRatio(s * 2",
            .mutateTo = "def omega(s, k, n) = cispiRatio(-s * 2"};
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_GT(r.linf, 1e-2);
}

TEST(FftNegativeControl, DigitReversalWithRadicesInOrderFails) {
  // bitRev must take the radices reversed; in their own order it is another permutation
  // (for a list that is not a palindrome).
  FftCase c{.file = "fft.fdl",
            .kernel = "cooleyTukey",
            .defines = {{"rs", Radices{3, 4, 5}}},
            .n = 60,
            .precision = ir::ScalarKind::Double,
            .mutateFrom = "ctPerm(rs[len(rs) - 1 - q], prod(rs, len(rs) - 1 - q, len(rs)))",
            .mutateTo = "ctPerm(rs[q], prod(rs, q, len(rs)))"};
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_GT(r.linf, 1e-2);
}

}  // namespace
}  // namespace fftc::fftlib::test
