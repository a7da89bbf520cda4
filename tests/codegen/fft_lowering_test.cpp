// Issue 5's end-to-end check: the FFT library's whole Stockham and Cooley-Tukey programs over
// radix lists [4,4,4], [3,4,5] and [2,8,4], lowered by the default strategy and by the FFT
// strategy, compile to OpenCL, run on the device, and match both the interpreter (the program
// as written) and FFTW in long double.
#include <cmath>

#include "compiler/pipeline/pipeline.h"
#include "fftlib/fftw_reference.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

struct Case {
  const char* kernel;
  std::vector<int64_t> rs;
  const char* strategy;
};

std::string caseName(const ::testing::TestParamInfo<Case>& info) {
  std::string n = std::string(info.param.kernel) + "_" + info.param.strategy;
  for (auto r : info.param.rs) n += "_" + std::to_string(r);
  return n;
}

class FftLowering : public ::testing::TestWithParam<Case> {};

TEST_P(FftLowering, RunsAndMatchesInterpreterAndFftw) {
  const Case& c = GetParam();
  const int64_t batch = 2;
  fe::ElaborateOptions eo;
  eo.defines["rs"] = c.rs;
  eo.defines["B"] = batch;
  fe::Program p = fe::compileSource(readFile(sourceRoot() + "/fftlib/fft.fdl"), sourceRoot() + "/fftlib/fft.fdl", eo);
  const fe::Kernel& k = *p.kernel(c.kernel);
  auto lowered = compiler::pipeline::lower(k, c.strategy);
  ASSERT_TRUE(lowered.rewritten);
  EXPECT_FALSE(lowered.info.budgetHit) << lowered.info.report();
  cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, options());

  // The interpreter runs the high-level program as written.
  auto checked = ex::checkAgainstInterpreter(context(), k.lambda, ck, {}, 11);
  EXPECT_MATCHES(checked);

  // FFTW in long double on the same inputs.
  int64_t n = 1;
  for (auto r : c.rs) n *= r;
  auto in = checked.inputs.at(0).toComplexVector();
  std::vector<fftlib::ComplexL> inL(in.begin(), in.end());
  auto ref = fftlib::referenceDft1d(inL, n, batch, fftlib::Direction::Forward);
  auto out = checked.device.toComplexVector();
  std::vector<std::complex<float>> outF(out.begin(), out.end());
  const double tolerance = 2e-6 + 5e-7 * std::log10(static_cast<double>(n));
  EXPECT_LT(fftlib::linfError(outF, ref), tolerance);
}

std::vector<Case> cases() {
  std::vector<Case> out;
  for (const char* kernel : {"stockham", "cooleyTukey"})
    for (const auto& rs : {std::vector<int64_t>{4, 4, 4}, {3, 4, 5}, {2, 8, 4}})
      for (const char* strategy : {"lowerDefault", "lowerFft"}) out.push_back({kernel, rs, strategy});
  return out;
}

INSTANTIATE_TEST_SUITE_P(All, FftLowering, ::testing::ValuesIn(cases()), caseName);

}  // namespace
}  // namespace fftc::codegen_test
