// The hierarchical (four-step) FFT of fftlib/hierarchical.fdl and Bluestein's FFT of
// fftlib/bluestein.fdl, each on its own, through the interpreter against FFTW.
#include <numbers>
#include <set>
#include <unordered_map>

#include "ir/expr.h"
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

const ir::ScalarKind kPrecisions[] = {ir::ScalarKind::Float, ir::ScalarKind::Double};
const Direction kDirections[] = {Direction::Forward, Direction::Inverse};

// ---- hierarchical

struct HierCase {
  Radices rs1, rs2, rs3;  // rs3 empty: one level (kernel hierarchical)
};

class Hierarchical : public ::testing::TestWithParam<HierCase> {};

TEST_P(Hierarchical, MatchesFftw) {
  const HierCase& h = GetParam();
  bool twoLevels = !h.rs3.empty();
  for (auto p : kPrecisions) {
    for (auto d : kDirections) {
      FftCase c{.file = "hierarchical.fdl",
                .kernel = twoLevels ? "hierarchical3" : "hierarchical",
                .defines = {{"rs1", h.rs1}, {"rs2", h.rs2}},
                .n = product(h.rs1) * product(h.rs2) * product(h.rs3),
                .batch = 3,
                .precision = p,
                .direction = d};
      if (twoLevels) c.defines["rs3"] = h.rs3;
      expectAccurate(c.kernel, c);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Fft, Hierarchical,
                         ::testing::Values(HierCase{{4}, {4}, {}}, HierCase{{2}, {3}, {}},
                                           HierCase{{4, 4}, {8}, {}}, HierCase{{3}, {5, 7}, {}},
                                           HierCase{{16}, {16}, {}}, HierCase{{8, 4}, {16, 2}, {}},
                                           HierCase{{4}, {2}, {8}}, HierCase{{3}, {4}, {5}},
                                           HierCase{{16}, {4}, {16}}),
                         [](const ::testing::TestParamInfo<HierCase>& p) {
                           auto list = [](const Radices& rs) {
                             std::string s;
                             for (int64_t r : rs) s += std::to_string(r);
                             return s;
                           };
                           std::string s = list(p.param.rs1) + "x" + list(p.param.rs2);
                           if (!p.param.rs3.empty()) s += "x" + list(p.param.rs3);
                           return s;
                         });

TEST(HierarchicalNegativeControl, MissingTwiddleFails) {
  FftCase c{.file = "hierarchical.fdl",
            .kernel = "hierarchical",
            .defines = {{"rs1", Radices{4}}, {"rs2", Radices{8}}},
            .n = 32,
            .precision = ir::ScalarKind::Double,
            .mutateFrom = "omega(s, j1 * k2, n1 * n2)",
            .mutateTo = "omega(s, 0, n1 * n2)"};
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_GT(r.linf, 1e-2);
}

// ---- Bluestein

class Bluestein : public ::testing::TestWithParam<int64_t> {};

TEST_P(Bluestein, MatchesFftw) {
  int64_t n = GetParam();
  for (auto p : kPrecisions) {
    for (auto d : kDirections) {
      FftCase c{.file = "bluestein.fdl",
                .kernel = "bluestein",
                .defines = {{"N", n}, {"rsM", bluesteinRadices(n)}},
                .n = n,
                .batch = n > 200 ? 1 : 3,
                .precision = p,
                .direction = d};
      expectAccurate("bluestein", c);
    }
  }
}

// primes, and composites with a factor outside the radices (22 = 2·11, 143 = 11·13)
INSTANTIATE_TEST_SUITE_P(Fft, Bluestein,
                         ::testing::Values(17, 31, 61, 127, 257, 22, 143, 2, 8, 1009),
                         [](const ::testing::TestParamInfo<int64_t>& p) {
                           return "N" + std::to_string(p.param);
                         });

// A power-of-two convolution size works as well as a smooth one.
TEST(BluesteinOptions, PowerOfTwoConvolution) {
  for (auto p : kPrecisions) {
    FftCase c{.file = "bluestein.fdl",
              .kernel = "bluestein",
              .defines = {{"N", int64_t{61}}, {"rsM", Radices{8, 16}}},
              .n = 61,
              .batch = 2,
              .precision = p,
              .direction = Direction::Inverse,
              .scaled = true};
    expectAccurate("bluestein M=2^k", c);
  }
}

// Govindaraju's fix: without the reduction of j² mod 2N, the chirp angle πj²/N of a large N
// loses its accuracy in single precision and the check fails; with it, it passes (above).
TEST(BluesteinNegativeControl, ChirpAngleWithoutModularReductionFails) {
  int64_t n = 1031;
  FftCase c{.file = "bluestein.fdl",
            .kernel = "bluestein",
            .defines = {{"N", n}, {"rsM", bluesteinRadices(n)}},
            .n = n,
            .batch = 1,
            .precision = ir::ScalarKind::Float};
  FftResult good = runFft(c);
  ASSERT_TRUE(good.ran) << good.error;
  ErrorSummary::get().record("bluestein", c, good);
  EXPECT_LT(good.linf, good.tol);
  // (cispiRatio reduces j·j mod 2n exactly in integers; the angle in real arithmetic, unreduced)
  c.mutateFrom = "cispiRatio(s * ((j * j) % (2 * n)), n)";
  c.mutateTo = "cispi(s * 1.0 * (j * j) / n)";
  FftResult bad = runFft(c);
  ASSERT_TRUE(bad.ran) << bad.error;
  EXPECT_GT(bad.linf, 10 * bad.tol) << "with the fix: " << good.linf;
}

TEST(BluesteinNegativeControl, WrongChirpSignFails) {
  FftCase c{.file = "bluestein.fdl",
            .kernel = "bluestein",
            .defines = {{"N", int64_t{17}}, {"rsM", Radices{5, 7}}},
            .n = 17,
            .precision = ir::ScalarKind::Double,
            .mutateFrom = "conj(chirp(s, n, (i + m / 2) % m - m / 2))",
            .mutateTo = "chirp(s, n, (i + m / 2) % m - m / 2)"};
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << r.error;
  EXPECT_GT(r.linf, 1e-2);
}

// ---- the FFT of the chirp is a closed sub-expression (a compile-time table)

// Free Params of expressions and functions, memoized by node (the IR is a DAG).
class FreeParams {
 public:
  const std::set<const ir::Param*>& of(const ir::ExprPtr& e) {
    if (auto it = exprs_.find(e.get()); it != exprs_.end()) return it->second;
    std::set<const ir::Param*> s;
    if (const auto* p = e->as<ir::Param>()) {
      s.insert(p);
    } else if (const auto* c = e->as<ir::FunCall>()) {
      s = ofFun(c->f());
      for (const auto& a : c->args()) {
        const auto& as = of(a);
        s.insert(as.begin(), as.end());
      }
    }
    return exprs_[e.get()] = std::move(s);
  }
  std::set<const ir::Param*> ofFun(const ir::FunPtr& f) {
    std::set<const ir::Param*> s;
    for (const auto& g : f->funChildren()) {
      auto gs = ofFun(g);
      s.insert(gs.begin(), gs.end());
    }
    for (const auto& e : f->exprChildren()) {
      const auto& es = of(e);
      s.insert(es.begin(), es.end());
    }
    if (const auto* l = f->as<ir::Lambda>()) {
      for (const auto& p : l->params()) s.erase(p.get());
    }
    return s;
  }

 private:
  std::unordered_map<const ir::Expr*, std::set<const ir::Param*>> exprs_;
};

bool computes(const ir::FunPtr& f);
bool computes(const ir::ExprPtr& e) {
  const auto* c = e->as<ir::FunCall>();
  if (!c) return false;
  if (computes(c->f())) return true;
  for (const auto& a : c->args())
    if (computes(a)) return true;
  return false;
}
bool computes(const ir::FunPtr& f) {
  if (f->kind() == ir::FunKind::Map || f->kind() == ir::FunKind::Reduce) return true;
  for (const auto& g : f->funChildren())
    if (computes(g)) return true;
  for (const auto& e : f->exprChildren())
    if (computes(e)) return true;
  return false;
}

// The largest closed sub-expressions that compute (contain a map or reduce): what the
// compiler must evaluate on the host into tables.
void closedComputations(const ir::ExprPtr& e, FreeParams& fp, std::vector<ir::ExprPtr>& out);
void closedComputations(const ir::FunPtr& f, FreeParams& fp, std::vector<ir::ExprPtr>& out) {
  for (const auto& g : f->funChildren()) closedComputations(g, fp, out);
  for (const auto& e : f->exprChildren()) closedComputations(e, fp, out);
}
void closedComputations(const ir::ExprPtr& e, FreeParams& fp, std::vector<ir::ExprPtr>& out) {
  const auto* c = e->as<ir::FunCall>();
  if (!c) return;
  if (fp.of(e).empty() && computes(e)) {
    out.push_back(e);
    return;
  }
  closedComputations(c->f(), fp, out);
  for (const auto& a : c->args()) closedComputations(a, fp, out);
}

TEST(BluesteinChirpSpectrum, IsAClosedSubExpressionEqualToTheDftOfTheChirp) {
  const int64_t n = 31;
  const Radices rsM = {7, 3, 3};
  const int64_t m = 63;
  for (auto d : kDirections) {
    FftCase c{.file = "bluestein.fdl",
              .kernel = "bluestein",
              .defines = {{"N", n}, {"rsM", rsM}},
              .n = n,
              .precision = ir::ScalarKind::Double,
              .direction = d};
    fe::Program p = compileLibrary(c);
    const fe::Kernel* k = p.kernel("bluestein");
    ASSERT_TRUE(k);
    FreeParams fp;
    std::vector<ir::ExprPtr> closed;
    closedComputations(k->lambda->body(), fp, closed);
    ASSERT_EQ(closed.size(), 1u) << "expected exactly the FFT of the chirp";
    EXPECT_EQ(closed[0]->type().str(), "[complex<double>]63");
    // Evaluated on its own (no inputs), it is D_M b with b_m = conj(c_{t(m)}).
    std::vector<std::complex<double>> table = ir::interpret(closed[0], {}).toComplexVector();
    double s = d == Direction::Forward ? -1 : 1;
    std::vector<ComplexL> b(static_cast<size_t>(m));
    for (int64_t i = 0; i < m; ++i) {
      int64_t t = (i + m / 2) % m - m / 2;
      long double angle =
          -s * std::numbers::pi_v<long double> * static_cast<long double>(t * t) / n;
      b[static_cast<size_t>(i)] = {std::cos(angle), std::sin(angle)};
    }
    auto ref = referenceDft1d(b, m, 1, Direction::Forward);
    EXPECT_LT(linfError(table, ref), tolerance(m, ir::ScalarKind::Double));
  }
}

}  // namespace
}  // namespace fftc::fftlib::test
