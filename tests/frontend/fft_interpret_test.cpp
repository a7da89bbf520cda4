// The paper's Stockham FFT (examples/stockham.fdl), compiled by the front end for several radix
// lists and run through the reference interpreter, matches FFTW.
#include <gtest/gtest.h>

#include <complex>
#include <random>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"
#include "ir/interpreter.h"
#include "tests/frontend/test_paths.h"

namespace fe = fftc::compiler::frontend;
namespace ir = fftc::ir;

namespace {

std::string stockhamPath() { return (fftc::test::examplesDir() / "stockham.fdl").string(); }

// Runs kernel `fft` of stockham.fdl for radices `rs` on random data; returns the l2 error
// against FFTW.
double stockhamError(const std::vector<int64_t>& rs, ir::ScalarKind precision) {
  fe::ElaborateOptions opts;
  opts.precision = precision;
  opts.defines["rs"] = rs;
  fe::Program p;
  try {
    p = fe::parseFile(stockhamPath(), opts);
  } catch (const ir::CompileError& e) {
    ADD_FAILURE() << fe::formatError(e);
    return 1.0;
  }
  const fe::Kernel* k = p.kernel("fft");
  EXPECT_TRUE(k);
  if (!k) return 1.0;
  int64_t n = 1;
  for (int64_t r : rs) n *= r;
  EXPECT_EQ(k->paramTypes[0].size().constant(), n);

  std::mt19937 rng(42);
  std::uniform_real_distribution<double> u(-0.5, 0.5);
  std::vector<std::complex<double>> x(static_cast<size_t>(n));
  for (auto& c : x) {
    // Exactly representable in float, so both precisions see the same input.
    c = {static_cast<float>(u(rng)), static_cast<float>(u(rng))};
  }
  ir::Value in = ir::Value::complexArray(x, precision);
  ir::Value out = ir::interpretCall(k->lambda, {in});
  std::vector<std::complex<double>> y = out.toComplexVector();
  auto ref = fftc::fftlib::referenceDft1d(fftc::fftlib::toLongDouble(x), n, 1,
                                          fftc::fftlib::Direction::Forward);
  return fftc::fftlib::l2Error(y, ref);
}

}  // namespace

struct RadixCase {
  std::vector<int64_t> rs;
};

class StockhamFft : public ::testing::TestWithParam<std::vector<int64_t>> {};

TEST_P(StockhamFft, MatchesFftwF32) { EXPECT_LT(stockhamError(GetParam(), ir::ScalarKind::Float), 1e-5); }
TEST_P(StockhamFft, MatchesFftwF64) { EXPECT_LT(stockhamError(GetParam(), ir::ScalarKind::Double), 1e-12); }

INSTANTIATE_TEST_SUITE_P(Radices, StockhamFft,
                         ::testing::Values(std::vector<int64_t>{4, 4, 4},
                                           std::vector<int64_t>{2, 2, 2, 2, 2, 2},
                                           std::vector<int64_t>{8, 8},
                                           std::vector<int64_t>{4, 16},
                                           std::vector<int64_t>{2, 4, 8},
                                           std::vector<int64_t>{8}));

// Section 3.2's bit reversal (kernel bitrev of stockham.fdl): for radices [2, 2, 2] element i
// of the result is element bitreverse3(i) of the input; for [4, 2] the digit-reversed index.
TEST(CooleyTukey, BitReversalPermutes) {
  auto run = [](std::vector<int64_t> rs) {
    fe::ElaborateOptions opts;
    opts.defines["rs"] = rs;
    fe::Program p = fe::parseFile(stockhamPath(), opts);
    int64_t n = 1;
    for (int64_t r : rs) n *= r;
    std::vector<std::complex<double>> x;
    for (int64_t i = 0; i < n; ++i) x.emplace_back(static_cast<double>(i), 0.0);
    auto y = ir::interpretCall(p.kernel("bitrev")->lambda,
                               {ir::Value::complexArray(x, ir::ScalarKind::Float)})
                 .toComplexVector();
    std::vector<int> out;
    for (auto c : y) out.push_back(static_cast<int>(c.real()));
    return out;
  };
  EXPECT_EQ(run({2, 2, 2}), (std::vector<int>{0, 4, 2, 6, 1, 5, 3, 7}));
  // n = 8 = r1 * r2 with r1 = 4, r2 = 2: index i = i1 + 4 * i2 (i1 < 4, i2 < 2) comes from
  // input i2 + 2 * i1 (mixed-radix digit reversal).
  std::vector<int> want;
  for (int i = 0; i < 8; ++i) want.push_back((i >> 2) + 2 * (i & 3));
  EXPECT_EQ(run({4, 2}), want);
}
