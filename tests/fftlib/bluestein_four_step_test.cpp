// bluestein.fdl's bluesteinFourStep (Bluestein's FFT in three passes, M = n1·n2) through the
// interpreter against FFTW in long double, on small M split in several ways.
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

struct FourStepCase {
  int64_t n;
  Radices rsM;
  int64_t n1End;  // n1 = prod(rsM[0 .. n1End))
  int64_t f1, f2, f3;
  int64_t batch;
};

FftCase fourStepCase(const FourStepCase& s, ir::ScalarKind p, Direction d, bool scaled) {
  return {.file = "bluestein.fdl",
          .kernel = "bluesteinFourStep",
          .defines = {{"N", s.n},
                      {"rsM", s.rsM},
                      {"n1End", s.n1End},
                      {"F1", s.f1},
                      {"F2", s.f2},
                      {"F3", s.f3}},
          .n = s.n,
          .batch = s.batch,
          .precision = p,
          .direction = d,
          .scaled = scaled};
}

class BluesteinFourStep : public ::testing::TestWithParam<FourStepCase> {};

TEST_P(BluesteinFourStep, MatchesFftw) {
  for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double})
    for (auto d : {Direction::Forward, Direction::Inverse})
      expectAccurate("bluesteinFourStep", fourStepCase(GetParam(), p, d, d == Direction::Inverse));
}

// M = 8·8 for 17 and 31 (2N - 1 = 33, 61), n1 of two radices (61: M = 128 = 16·8), M with 3, 5
// and 7 in it (17: 5·7; 22: 5·9), lines per work-group that divide B·n1, B·n2 unevenly, N = 1
INSTANTIATE_TEST_SUITE_P(Fft, BluesteinFourStep,
                         ::testing::Values(FourStepCase{17, {8, 8}, 1, 1, 1, 1, 1},
                                           FourStepCase{17, {8, 8}, 1, 2, 4, 3, 3},
                                           FourStepCase{31, {8, 8}, 1, 4, 2, 8, 2},
                                           FourStepCase{61, {4, 4, 8}, 2, 2, 4, 1, 2},
                                           FourStepCase{17, {5, 7}, 1, 5, 7, 1, 2},
                                           FourStepCase{22, {3, 3, 5}, 1, 3, 5, 9, 3},
                                           FourStepCase{1, {2}, 0, 1, 2, 1, 2}),
                         [](const ::testing::TestParamInfo<FourStepCase>& i) {
                           std::string s = "N" + std::to_string(i.param.n) + "_M";
                           for (size_t k = 0; k < i.param.rsM.size(); ++k)
                             s += (k == static_cast<size_t>(i.param.n1End) ? "x" : "") +
                                  std::to_string(i.param.rsM[k]);
                           return s + "_B" + std::to_string(i.param.batch) + "_F" +
                                  std::to_string(i.param.f1) + std::to_string(i.param.f2) +
                                  std::to_string(i.param.f3);
                         });

// Each factor the derivation needs is there: without pass 2's inverse twiddles (T*), or with the
// forward twiddles T of pass 1 conjugated, the result is wrong.
TEST(BluesteinFourStepNegativeControl, TwiddlesOfEitherHalfMatter) {
  const FourStepCase s{17, {8, 8}, 1, 1, 1, 1, 2};
  expectEachMutationWrong(
      fourStepCase(s, ir::ScalarKind::Double, Direction::Forward, false),
      {{"twiddleLines(B, bsN2, bsN1, 1, 1)", "twiddleLines(B, bsN2, bsN1, 1, 0)"},
       {"twiddleLines(B, bsN1, bsN2, 1, -1)", "twiddleLines(B, bsN1, bsN2, 1, 1)"}});
}

}  // namespace
}  // namespace fftc::fftlib::test
