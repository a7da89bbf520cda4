// libFuzzer entry point for ArithExpr: the input bytes choose variables with (possibly
// symbolic) ranges, an expression and points inside the ranges; the simplified expression
// must evaluate like the unsimplified mirror tree, stay within its bounds and be a fixpoint
// of simplify(). Any mismatch aborts. Build: clang++ -fsanitize=fuzzer,address,undefined.
#include <cstdio>
#include <cstdlib>

#include "tests/arith/arith_fuzz_support.h"

namespace {

using fftc::ir::ArithError;
using fftc::ir::ArithExpr;

// Consumes the input bytes; once they run out it keeps answering 0 (deterministic).
struct ByteSource : fftc::ir::fuzz::Source {
  const uint8_t* data;
  size_t size, pos = 0;
  ByteSource(const uint8_t* d, size_t n) : data(d), size(n) {}
  uint64_t next(uint64_t bound) override {
    uint64_t v = 0;
    for (int b = 0; b < 4 && pos < size; ++b) v = (v << 8) | data[pos++];
    return v % bound;
  }
};

[[noreturn]] void fail(const char* what, const std::string& ref, const ArithExpr& e) {
  std::fprintf(stderr, "arith_fuzzer: %s\n  reference:  %s\n  simplified: %s\n", what, ref.c_str(), e.str().c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace fz = fftc::ir::fuzz;
  ByteSource src(data, size);
  std::vector<ArithExpr> vars = fz::makeVars(src);
  fz::RefP ref = fz::genExpr(src, vars.size(), 1 + static_cast<int>(src.next(5)));
  std::string text = fz::refStr(*ref, vars);
  std::optional<ArithExpr> e;
  uint64_t hits = fftc::ir::arithStats().budgetHits;
  try {
    e = fz::build(*ref, vars);
  } catch (const ArithError&) {
    return 0;  // division by a zero constant or overflow; the gtest checks these cases
  }
  if (fftc::ir::arithStats().budgetHits == hits && fftc::ir::simplify(*e) != *e)
    fail("simplify is not idempotent", text, *e);
  std::unordered_map<uint64_t, int64_t> env;
  for (int p = 0; p < 3; ++p) {
    auto vals = fz::pickPoint(src, vars, env);
    if (!vals) continue;
    auto want = fz::refEval(*ref, *vals);
    if (!want) continue;
    int64_t got;
    try {
      got = e->evaluate(env);
    } catch (const ArithError&) {
      fail("the simplified expression throws where the reference is defined", text, *e);
    }
    if (got != *want) fail("value changed by simplification", text, *e);
    if (auto lo = e->constLowerBound(); lo && *lo > got) fail("constLowerBound above the value", text, *e);
    if (auto hi = e->constUpperBound(); hi && *hi < got) fail("constUpperBound below the value", text, *e);
  }
  return 0;
}
