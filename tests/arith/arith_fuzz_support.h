// Random ArithExpr cases for the fuzz test and the libFuzzer target: a mirror expression tree
// evaluated without the simplifier (the reference), variables with possibly symbolic ranges,
// and points drawn inside the ranges.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arith/arith_expr.h"

namespace fftc::ir::fuzz {

// Where the random choices come from (a PRNG in the gtest, the input bytes under libFuzzer).
struct Source {
  virtual ~Source() = default;
  virtual uint64_t next(uint64_t bound) = 0;  // uniform-ish in [0, bound), bound >= 1
  int64_t range(int64_t lo, int64_t hi) {     // in [lo, hi]
    return lo + static_cast<int64_t>(next(static_cast<uint64_t>(hi - lo) + 1));
  }
  bool chance(int percent) { return next(100) < static_cast<uint64_t>(percent); }
};

// The reference: a plain tree, evaluated with checked floor arithmetic, never simplified.
struct Ref {
  enum Op { Const, Var, Add, Sub, Mul, Div, Mod, Min, Max, Neg } op = Const;
  int64_t value = 0;
  size_t var = 0;
  std::shared_ptr<Ref> a, b;
};
using RefP = std::shared_ptr<Ref>;

inline std::optional<int64_t> refEval(const Ref& r, const std::vector<int64_t>& vals) {
  if (r.op == Ref::Const) return r.value;
  if (r.op == Ref::Var) return vals[r.var];
  auto x = refEval(*r.a, vals);
  if (!x) return std::nullopt;
  if (r.op == Ref::Neg) {
    if (*x == INT64_MIN) return std::nullopt;
    return -*x;
  }
  auto y = refEval(*r.b, vals);
  if (!y) return std::nullopt;
  int64_t out;
  switch (r.op) {
    case Ref::Add:
      if (__builtin_add_overflow(*x, *y, &out)) return std::nullopt;
      return out;
    case Ref::Sub:
      if (__builtin_sub_overflow(*x, *y, &out)) return std::nullopt;
      return out;
    case Ref::Mul:
      if (__builtin_mul_overflow(*x, *y, &out)) return std::nullopt;
      return out;
    case Ref::Div:
    case Ref::Mod: {
      if (*y == 0 || (*y == -1 && *x == INT64_MIN)) return std::nullopt;
      int64_t q = *x / *y, m = *x % *y;
      if (m != 0 && ((m < 0) != (*y < 0))) --q, m += *y;  // floor
      return r.op == Ref::Div ? q : m;
    }
    case Ref::Min: return std::min(*x, *y);
    case Ref::Max: return std::max(*x, *y);
    default: return std::nullopt;
  }
}

inline std::string refStr(const Ref& r, const std::vector<ArithExpr>& vars) {
  static const char* ops[] = {"", "", " + ", " - ", " * ", " / ", " % ", "min", "max", "-"};
  switch (r.op) {
    case Ref::Const: return std::to_string(r.value);
    case Ref::Var: return vars[r.var].varName();
    case Ref::Neg: return "-(" + refStr(*r.a, vars) + ")";
    case Ref::Min:
    case Ref::Max: return std::string(ops[r.op]) + "(" + refStr(*r.a, vars) + ", " + refStr(*r.b, vars) + ")";
    default: return "(" + refStr(*r.a, vars) + ops[r.op] + refStr(*r.b, vars) + ")";
  }
}

// Builds the simplified expression through the public operators.
inline ArithExpr build(const Ref& r, const std::vector<ArithExpr>& vars) {
  switch (r.op) {
    case Ref::Const: return r.value;
    case Ref::Var: return vars[r.var];
    case Ref::Neg: return -build(*r.a, vars);
    default: break;
  }
  ArithExpr x = build(*r.a, vars), y = build(*r.b, vars);
  switch (r.op) {
    case Ref::Add: return x + y;
    case Ref::Sub: return x - y;
    case Ref::Mul: return x * y;
    case Ref::Div: return x / y;
    case Ref::Mod: return x % y;
    case Ref::Min: return min(x, y);
    default: return max(x, y);
  }
}

struct Case {
  std::vector<ArithExpr> vars;  // in dependency order: a range only names earlier variables
  RefP ref;
};

inline RefP node(Ref::Op op, RefP a = nullptr, RefP b = nullptr, int64_t v = 0) {
  auto r = std::make_shared<Ref>();
  r->op = op, r->a = std::move(a), r->b = std::move(b), r->value = v;
  return r;
}
inline RefP cst(int64_t v) { return node(Ref::Const, nullptr, nullptr, v); }

// Variables: sizes N, M; loop indices over symbolic extents; a triangle j in [0, i];
// an unbounded x; a constant range with a negative end; a symmetric symbolic range.
inline std::vector<ArithExpr> makeVars(Source& s) {
  ArithExpr N = ArithExpr::sizeVar("N");
  ArithExpr M = ArithExpr::sizeVar("M");
  ArithExpr extents[] = {N, M + 2, 2 * N, ArithExpr(s.range(1, 64)), N * M, ArithExpr(2048)};
  ArithExpr i = ArithExpr::loopVar("i", extents[s.next(6)]);
  ArithExpr jExt[] = {N, ArithExpr(8), i + 1, M};
  ArithExpr j = ArithExpr::loopVar("j", jExt[s.next(4)]);
  ArithExpr x = ArithExpr::unboundedVar("x");
  int64_t lo = s.range(-20, 5);
  ArithExpr y = ArithExpr::var("y", lo, lo + s.range(1, 40));
  ArithExpr k = ArithExpr::var("k", -N, N);
  return {N, M, i, j, x, y, k};
}

inline int64_t pickConst(Source& s) {
  static const int64_t big[] = {16, 32, 64, 128, 256, 2048, 4096, 8192};
  if (s.chance(15)) return big[s.next(8)];
  return s.range(-8, 12);
}

inline int64_t pickDivisor(Source& s) {
  static const int64_t ds[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 16, 32, 64, 2048};
  if (s.chance(8)) return -ds[s.next(14)];
  if (s.chance(2)) return 0;
  return ds[s.next(14)];
}

inline RefP genExpr(Source& s, size_t nVars, int depth) {
  if (depth == 0 || s.chance(25)) {
    if (s.chance(65)) {
      auto r = node(Ref::Var);
      r->var = s.next(nVars);
      return r;
    }
    return cst(pickConst(s));
  }
  auto sub = [&] { return genExpr(s, nVars, depth - 1); };
  switch (s.next(13)) {
    case 0:
    case 1: return node(Ref::Add, sub(), sub());
    case 2: return node(Ref::Sub, sub(), sub());
    case 3: return node(Ref::Mul, sub(), s.chance(70) ? cst(pickConst(s)) : sub());
    case 4:
    case 5: return node(Ref::Div, sub(), s.chance(75) ? cst(pickDivisor(s)) : sub());
    case 6:
    case 7: return node(Ref::Mod, sub(), s.chance(75) ? cst(pickDivisor(s)) : sub());
    case 8: return node(s.chance(50) ? Ref::Min : Ref::Max, sub(), sub());
    case 9: return node(Ref::Neg, sub());
    case 10: {  // (a / c) * c + a % c: the split/join shape of views
      RefP a = sub(), c = s.chance(70) ? cst(pickDivisor(s)) : sub();
      return node(Ref::Add, node(Ref::Mul, node(Ref::Div, a, c), c), node(Ref::Mod, a, c));
    }
    case 11: {  // (a % (c1*c2)) / c1 or (a / c1) % c2
      RefP a = sub();
      int64_t c1 = pickDivisor(s), c2 = pickDivisor(s);
      if (s.chance(50)) return node(Ref::Div, node(Ref::Mod, a, cst(c1 * c2)), cst(c1));
      return node(Ref::Mod, node(Ref::Div, a, cst(c1)), cst(c2));
    }
    default: {  // c*a + b, with b usually small: the (n*j + i) / n shape
      RefP c = s.chance(60) ? cst(pickDivisor(s)) : sub();
      return node(s.chance(50) ? Ref::Div : Ref::Mod, node(Ref::Add, node(Ref::Mul, c, sub()), sub()), c);
    }
  }
}

// A point inside the ranges: each variable's range is evaluated with the earlier values.
inline std::optional<std::vector<int64_t>> pickPoint(Source& s, const std::vector<ArithExpr>& vars,
                                                     std::unordered_map<uint64_t, int64_t>& env) {
  std::vector<int64_t> vals;
  env.clear();
  for (const ArithExpr& v : vars) {
    ArithExpr lo = v.varLo(), hi = v.varHi();
    int64_t l, h;
    if (lo.isInfinite() && hi.isInfinite()) {
      l = -100, h = 100;
    } else if (lo.isInfinite()) {
      h = hi.evaluate(env) - 1, l = h - 100;
    } else if (hi.isInfinite()) {
      l = lo.evaluate(env), h = l + (s.chance(50) ? 15 : 100);
    } else {
      l = lo.evaluate(env), h = hi.evaluate(env) - 1;
    }
    if (h < l) return std::nullopt;  // empty range at this point
    int64_t val = s.chance(20) ? (s.chance(50) ? l : h) : s.range(l, h);
    vals.push_back(val);
    env[v.varId()] = val;
  }
  return vals;
}

}  // namespace fftc::ir::fuzz
