// Fuzz test of the simplifier (Halide test/fuzz/simplify.cpp style): random expressions over
// variables with random, possibly symbolic ranges; the simplified expression must evaluate
// like an unsimplified mirror tree at random points inside the ranges, stay within its own
// bounds, and be a fixpoint of simplify(). FFTC_FUZZ_ITERATIONS overrides the count.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>

#include "tests/arith/arith_fuzz_support.h"

namespace fftc::ir {
namespace {

struct RngSource : fuzz::Source {
  std::mt19937_64 rng;
  explicit RngSource(uint64_t seed) : rng(seed) {}
  uint64_t next(uint64_t bound) override { return rng() % bound; }
};

int64_t iterations() {
  if (const char* s = std::getenv("FFTC_FUZZ_ITERATIONS")) return std::atoll(s);
#ifdef NDEBUG
  return 100000;  // about 10 s in RelWithDebInfo
#else
  return 30000;  // Debug builds are ~5x slower
#endif
}

std::string pointStr(const std::vector<ArithExpr>& vars, const std::vector<int64_t>& vals) {
  std::string s;
  for (size_t i = 0; i < vars.size(); ++i) s += vars[i].varName() + "=" + std::to_string(vals[i]) + " ";
  return s;
}

TEST(ArithFuzz, SimplifyPreservesValueBoundsAndIsIdempotent) {
  const int64_t n = iterations();
  RngSource src(0xF17C);
  int64_t checkedPoints = 0, thrown = 0, notConverged = 0, symbolicChecks = 0;
  auto start = std::chrono::steady_clock::now();
  for (int64_t it = 0; it < n; ++it) {
    std::vector<ArithExpr> vars = fuzz::makeVars(src);
    fuzz::RefP ref = fuzz::genExpr(src, vars.size(), 1 + static_cast<int>(src.next(4)));
    std::string refText = fuzz::refStr(*ref, vars);
    uint64_t hits = arithStats().budgetHits;
    std::optional<ArithExpr> e;
    try {
      e = fuzz::build(*ref, vars);
    } catch (const ArithError& err) {
      // Only legitimate when the reference is undefined (division by a zero constant, overflow).
      ++thrown;
      std::unordered_map<uint64_t, int64_t> env;
      for (int p = 0; p < 4; ++p) {
        auto vals = fuzz::pickPoint(src, vars, env);
        if (vals) {
          ASSERT_FALSE(fuzz::refEval(*ref, *vals).has_value())
              << "threw '" << err.what() << "' on " << refText << " defined at " << pointStr(vars, *vals);
        }
      }
      continue;
    }
    bool converged = arithStats().budgetHits == hits;
    if (!converged) ++notConverged;
    if (converged) {
      bool again = true;
      ASSERT_EQ(simplify(*e, &again), *e) << "not idempotent: " << refText << " -> " << e->str() << " -> "
                                          << simplify(*e).str();
      ASSERT_EQ(e->substitute({}), *e);
    }
    bool checkSymbolic = it % 4 == 0;
    ArithExpr lb = checkSymbolic ? e->lowerBound() : ArithExpr::negInf();
    ArithExpr ub = checkSymbolic ? e->upperBound() : ArithExpr::posInf();
    std::unordered_map<uint64_t, int64_t> env;
    for (int p = 0; p < 4; ++p) {
      auto vals = fuzz::pickPoint(src, vars, env);
      if (!vals) continue;
      auto want = fuzz::refEval(*ref, *vals);
      if (!want) continue;
      int64_t got;
      try {
        got = e->evaluate(env);
      } catch (const ArithError& err) {
        FAIL() << "simplified form throws '" << err.what() << "': " << refText << " -> " << e->str() << " at "
               << pointStr(vars, *vals);
      }
      ++checkedPoints;
      ASSERT_EQ(got, *want) << refText << "\n  simplified: " << e->str() << "\n  at " << pointStr(vars, *vals);
      if (auto l = e->constLowerBound()) {
        ASSERT_LE(*l, got) << e->str() << " at " << pointStr(vars, *vals);
      }
      if (auto u = e->constUpperBound()) {
        ASSERT_GE(*u, got) << e->str() << " at " << pointStr(vars, *vals);
      }
      if (!lb.isInfinite()) {
        ++symbolicChecks;
        ASSERT_LE(lb.evaluate(env), got) << e->str() << " lowerBound " << lb.str() << " at " << pointStr(vars, *vals);
      }
      if (!ub.isInfinite()) {
        ++symbolicChecks;
        ASSERT_GE(ub.evaluate(env), got) << e->str() << " upperBound " << ub.str() << " at " << pointStr(vars, *vals);
      }
    }
  }
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz: %lld expressions, %lld points, %lld symbolic-bound checks, %lld threw, %lld not converged, %.1f s\n",
              static_cast<long long>(n), static_cast<long long>(checkedPoints),
              static_cast<long long>(symbolicChecks), static_cast<long long>(thrown),
              static_cast<long long>(notConverged), secs);
  EXPECT_GT(checkedPoints, n);  // the test really compared values
}

}  // namespace
}  // namespace fftc::ir
