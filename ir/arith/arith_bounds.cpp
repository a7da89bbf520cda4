// The analysis carried by every ArithExpr: constant interval and divisibility (computed at
// creation), symbolic bounds by variable elimination (lazy, cached), and the provers on top.
#include <fmt/format.h>

#include <algorithm>

#include "ir/arith/arith_expr.h"
#include "ir/arith/arith_node.h"

namespace fftc::ir {
namespace {

// ---------------------------------------------------------------- extended integers
bool isInf(int64_t x) { return x == kNegInf || x == kPosInf; }

int64_t addLo(int64_t a, int64_t b) {
  if (a == kNegInf || b == kNegInf) return kNegInf;
  if (a == kPosInf || b == kPosInf) return kPosInf;
  return checkedAdd(a, b).value_or(kNegInf);
}
int64_t addHi(int64_t a, int64_t b) {
  if (a == kPosInf || b == kPosInf) return kPosInf;
  if (a == kNegInf || b == kNegInf) return kNegInf;
  return checkedAdd(a, b).value_or(kPosInf);
}
int64_t mulExt(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  bool neg = (a < 0) != (b < 0);
  if (isInf(a) || isInf(b)) return neg ? kNegInf : kPosInf;
  auto r = checkedMul(a, b);
  if (!r || isInf(*r)) return neg ? kNegInf : kPosInf;
  return *r;
}
int64_t negExt(int64_t a) {
  if (a == kNegInf) return kPosInf;
  if (a == kPosInf) return kNegInf;
  return -a;
}
// floor(a / b) for b >= 1 (b may be +inf).
int64_t divPos(int64_t a, int64_t b) {
  if (b == kPosInf) return isInf(a) ? a : (a >= 0 ? 0 : -1);
  if (isInf(a)) return a;
  return *checkedFloorDiv(a, b);
}

void intervalDiv(const ArithNode& a, const ArithNode& b, int64_t& lo, int64_t& hi) {
  int64_t alo = a.lo, ahi = a.hi, blo = b.lo, bhi = b.hi;
  if (bhi <= -1) {  // floor(a / b) = floor(-a / -b)
    std::swap(alo, ahi), alo = negExt(alo), ahi = negExt(ahi);
    std::swap(blo, bhi), blo = negExt(blo), bhi = negExt(bhi);
  } else if (blo < 1) {
    lo = kNegInf, hi = kPosInf;
    return;
  }
  int64_t c[4] = {divPos(alo, blo), divPos(alo, bhi), divPos(ahi, blo), divPos(ahi, bhi)};
  lo = *std::min_element(c, c + 4);
  hi = *std::max_element(c, c + 4);
}

void intervalMod(const ArithNode& a, const ArithNode& b, int64_t& lo, int64_t& hi) {
  lo = kNegInf, hi = kPosInf;
  if (b.lo >= 1) {
    lo = 0, hi = b.hi == kPosInf ? kPosInf : b.hi - 1;
    if (a.lo >= 0) hi = std::min(hi, a.hi);
    if (b.lo == b.hi && !isInf(a.lo) && !isInf(a.hi)) {
      int64_t k = *checkedFloorDiv(a.lo, b.lo);
      if (k == *checkedFloorDiv(a.hi, b.lo)) lo = a.lo - k * b.lo, hi = a.hi - k * b.lo;
    }
  } else if (b.hi <= -1) {
    lo = b.lo == kNegInf ? kNegInf : b.lo + 1, hi = 0;
  }
}

int64_t mulFactor(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  return checkedMul(a, b).value_or(std::max(a, b));
}

}  // namespace

void computeAnalysis(ArithNode& n) {
  n.level = 0;
  n.hasVars = false;
  for (const ArithExpr& o : n.ops) {
    n.level = std::max(n.level, nodeOf(o).level);
    n.hasVars = n.hasVars || nodeOf(o).hasVars;
  }
  const auto& ops = n.ops;
  switch (n.kind) {
    case ArithKind::Const:
      n.lo = n.hi = n.value;
      n.factor = n.value == INT64_MIN ? 1 : (n.value < 0 ? -n.value : n.value);
      break;
    case ArithKind::PosInf: n.lo = n.hi = kPosInf; break;
    case ArithKind::NegInf: n.lo = n.hi = kNegInf; break;
    case ArithKind::Var: {
      const ArithNode& l = nodeOf(ops[0]);
      const ArithNode& h = nodeOf(ops[1]);
      n.lo = l.lo;
      n.hi = h.hi == kPosInf ? kPosInf : h.hi - 1;
      n.level += 1;
      n.hasVars = true;
      n.factor = 1;
      break;
    }
    case ArithKind::Sum:
      n.lo = n.hi = 0;
      n.factor = 0;
      for (const ArithExpr& o : ops) {
        n.lo = addLo(n.lo, nodeOf(o).lo), n.hi = addHi(n.hi, nodeOf(o).hi);
        n.factor = gcd64(n.factor, nodeOf(o).factor);
      }
      break;
    case ArithKind::Prod:
      n.lo = n.hi = 1;
      n.factor = 1;
      for (const ArithExpr& o : ops) {
        const ArithNode& x = nodeOf(o);
        int64_t c[4] = {mulExt(n.lo, x.lo), mulExt(n.lo, x.hi), mulExt(n.hi, x.lo), mulExt(n.hi, x.hi)};
        n.lo = *std::min_element(c, c + 4);
        n.hi = *std::max_element(c, c + 4);
        n.factor = mulFactor(n.factor, x.factor);
      }
      break;
    case ArithKind::FloorDiv:
      intervalDiv(nodeOf(ops[0]), nodeOf(ops[1]), n.lo, n.hi);
      n.factor = 1;
      break;
    case ArithKind::FloorMod:
      intervalMod(nodeOf(ops[0]), nodeOf(ops[1]), n.lo, n.hi);
      // a % b = a - b * floor(a / b): every common divisor of a and b divides it.
      n.factor = gcd64(nodeOf(ops[0]).factor, nodeOf(ops[1]).factor);
      break;
    case ArithKind::Min:
    case ArithKind::Max: {
      const ArithNode& a = nodeOf(ops[0]);
      const ArithNode& b = nodeOf(ops[1]);
      bool isMin = n.kind == ArithKind::Min;
      n.lo = isMin ? std::min(a.lo, b.lo) : std::max(a.lo, b.lo);
      n.hi = isMin ? std::min(a.hi, b.hi) : std::max(a.hi, b.hi);
      n.factor = gcd64(a.factor, b.factor);
      break;
    }
  }
  // Unknown (infinite) bounds count as fitting: variables without a finite range are int in
  // generated code; only a finite bound proven outside int32 asks for 64-bit arithmetic.
  bool own = (n.lo == kNegInf || n.lo >= INT32_MIN) && (n.hi == kPosInf || n.hi <= INT32_MAX);
  n.fits32 = own;
  if (n.kind != ArithKind::Var)
    for (const ArithExpr& o : ops) n.fits32 = n.fits32 && nodeOf(o).fits32;
}

// ---------------------------------------------------------------- monotonicity
namespace {
int combineMono(int x, int y) {
  if (x == 0) return y;
  if (y == 0 || x == y) return x;
  return 2;
}
int flipMono(int m) { return m == 1 ? -1 : (m == -1 ? 1 : m); }
}  // namespace

int monotonicity(const ArithExpr& e, const ArithExpr& v) {
  const ArithNode& n = nodeOf(e);
  if (!n.hasVars) return 0;
  switch (n.kind) {
    case ArithKind::Var: return e == v ? 1 : 0;
    case ArithKind::Sum:
    case ArithKind::Min:
    case ArithKind::Max: {
      int m = 0;
      for (const ArithExpr& o : n.ops) m = combineMono(m, monotonicity(o, v));
      return m;
    }
    case ArithKind::Prod: {
      int m = 0, sign = 1;
      for (const ArithExpr& o : n.ops) {
        int mo = monotonicity(o, v);
        if (mo != 0) {
          if (m != 0) return 2;  // v in two factors
          m = mo;
        } else if (nodeOf(o).lo >= 0) {
        } else if (nodeOf(o).hi <= 0) {
          sign = -sign;
        } else {
          sign = 0;
        }
      }
      if (m == 0) return 0;
      if (sign == 0) return 2;
      return sign > 0 ? m : flipMono(m);
    }
    case ArithKind::FloorDiv: {
      if (monotonicity(n.ops[1], v) != 0) return 2;
      int m = monotonicity(n.ops[0], v);
      if (m == 0) return 0;
      if (nodeOf(n.ops[1]).lo >= 1) return m;
      if (nodeOf(n.ops[1]).hi <= -1) return flipMono(m);
      return 2;
    }
    case ArithKind::FloorMod:
      return (monotonicity(n.ops[0], v) != 0 || monotonicity(n.ops[1], v) != 0) ? 2 : 0;
    default: return 0;
  }
}

// ---------------------------------------------------------------- symbolic bounds
namespace {

ArithExpr constBound(const ArithExpr& e, bool upper) {
  const ArithNode& n = nodeOf(e);
  if (upper) return n.hi == kPosInf ? ArithExpr::posInf() : ArithExpr(n.hi);
  return n.lo == kNegInf ? ArithExpr::negInf() : ArithExpr(n.lo);
}
bool badInf(const ArithExpr& b, bool upper) {
  return b.kind() == (upper ? ArithKind::PosInf : ArithKind::NegInf);
}
ArithExpr infFor(bool upper) { return upper ? ArithExpr::posInf() : ArithExpr::negInf(); }

ArithExpr boundOf(const ArithExpr& e, bool upper);

ArithExpr structuralBound(const ArithExpr& e, bool upper) {
  const ArithNode& n = nodeOf(e);
  auto B = [](const ArithExpr& x, bool up) { return boundOf(x, up); };
  switch (n.kind) {
    case ArithKind::Var: {
      ArithExpr t = upper ? e.varHi() : e.varLo();
      if (t.isInfinite()) return e;  // no finite bound: the variable bounds itself
      return B(upper ? t - 1 : t, upper);
    }
    case ArithKind::Sum: {
      ArithExpr s = 0;
      for (const ArithExpr& o : n.ops) {
        ArithExpr b = B(o, upper);
        if (b.isInfinite()) return infFor(upper);
        s = s + b;
      }
      return s;
    }
    case ArithKind::Prod: {
      LinTerm t = splitCoef(e);
      if (t.coef != 1) {
        ArithExpr b = B(t.mono, t.coef > 0 ? upper : !upper);
        if (b.isInfinite()) return infFor(upper);
        return ArithExpr(t.coef) * b;
      }
      ArithExpr p = 1;
      for (const ArithExpr& o : n.ops) {
        if (nodeOf(o).lo < 0) return constBound(e, upper);
        ArithExpr b = B(o, upper);
        if (b.isInfinite()) return infFor(upper);
        p = p * b;
      }
      return p;
    }
    case ArithKind::FloorDiv: {
      const ArithExpr& a = n.ops[0];
      const ArithExpr& d = n.ops[1];
      if (auto c = d.constant(); c && *c > 0) {
        ArithExpr b = B(a, upper);
        return b.isInfinite() ? b : b / d;
      }
      if (nodeOf(d).lo < 1) break;
      if (nodeOf(a).lo >= 0) {
        // 0 <= a: a / d is largest for the largest a and the smallest d, and vice versa.
        ArithExpr ba = B(a, upper), bd = B(d, !upper);
        if (ba.isInfinite()) return ba;
        if (bd.isInfinite()) return upper ? infFor(true) : ArithExpr(0);
        return ba / bd;
      }
      if (!upper) {  // a / d >= lb(a) / lb(d) when lb(a) <= 0 and d >= lb(d) >= 1
        ArithExpr ba = B(a, false), bd = B(d, false);
        if (!ba.isInfinite() && !bd.isInfinite() && nodeOf(ba).hi <= 0) return ba / bd;
      }
      break;
    }
    case ArithKind::FloorMod: {
      const ArithExpr& a = n.ops[0];
      const ArithExpr& d = n.ops[1];
      if (nodeOf(d).lo < 1) break;
      if (!upper) return 0;
      ArithExpr bd = B(d, true);
      ArithExpr r = bd.isInfinite() ? bd : bd - 1;
      if (nodeOf(a).lo >= 0) {
        ArithExpr ba = B(a, true);
        if (r.isInfinite()) return ba;
        if (!ba.isInfinite()) return min(ba, r);
      }
      return r;
    }
    case ArithKind::Min:
    case ArithKind::Max: {
      ArithExpr x = B(n.ops[0], upper), y = B(n.ops[1], upper);
      bool isMin = n.kind == ArithKind::Min;
      // An infinite bound either dominates (returned) or is dominated (the other one wins).
      if (x.isInfinite() || y.isInfinite()) {
        bool dominates = isMin != upper;  // min of lower bounds, max of upper bounds
        if (badInf(x, upper) || badInf(y, upper)) {
          if (dominates) return infFor(upper);
          return badInf(x, upper) ? y : x;
        }
      }
      return isMin ? min(x, y) : max(x, y);
    }
    default: break;
  }
  return constBound(e, upper);
}

// Eliminates variables, most dependent first (a loop index before the size it ranges over),
// replacing each by the end of its range that bounds the expression, while the expression is
// monotone in it; what remains is bounded structurally.
ArithExpr eliminate(const ArithExpr& e, bool upper) {
  ArithExpr cur = e;
  for (int iter = 0; iter < 32; ++iter) {
    std::vector<ArithExpr> vars = cur.freeVars();
    std::sort(vars.begin(), vars.end(), [](const ArithExpr& a, const ArithExpr& b) {
      if (nodeOf(a).level != nodeOf(b).level) return nodeOf(a).level > nodeOf(b).level;
      return a.varId() > b.varId();
    });
    bool progressed = false;
    for (const ArithExpr& v : vars) {
      int m = monotonicity(cur, v);
      if (m != 1 && m != -1) continue;
      bool wantHi = (m == 1) == upper;
      ArithExpr t = wantHi ? v.varHi() : v.varLo();
      if (t.isInfinite()) continue;
      cur = cur.substitute({{v.varId(), wantHi ? t - 1 : t}});
      progressed = true;
      break;
    }
    if (!progressed) break;
  }
  if (!nodeOf(cur).hasVars || cur.isVar()) return cur;
  return structuralBound(cur, upper);
}

ArithExpr computeBound(const ArithExpr& e, bool upper) {
  const ArithNode& n = nodeOf(e);
  if (n.kind == ArithKind::Const || e.isInfinite()) return e;
  if (!n.hasVars) return constBound(e, upper);
  RuleScope scope;
  if (!scope.ok()) return constBound(e, upper);
  ArithExpr b;
  try {
    b = e.isVar() ? structuralBound(e, upper) : eliminate(e, upper);
  } catch (const ArithError&) {  // overflow while folding a bound: fall back
    return constBound(e, upper);
  }
  // Keep the tighter of the symbolic result and the constant interval when both are constants.
  const ArithNode& bn = nodeOf(b);
  if (b.isInfinite() || (bn.kind == ArithKind::Const && (upper ? n.hi < bn.value : n.lo > bn.value))) {
    ArithExpr c = constBound(e, upper);
    if (!c.isInfinite() || b.isInfinite()) return c;
  }
  return b;
}

ArithExpr boundOf(const ArithExpr& e, bool upper) {
  const ArithNode& n = nodeOf(e);
  if (n.kind == ArithKind::Const || e.isInfinite()) return e;
  std::atomic<const ArithNode*>& slot = upper ? n.ubCache : n.lbCache;
  if (const ArithNode* c = slot.load(std::memory_order_acquire)) {
    if (c == &n) return e;
    return ArithAccess::share(c);
  }
  uint64_t hits = arithStats().budgetHits;
  ArithExpr b = computeBound(e, upper);
  if (arithStats().budgetHits != hits) return b;  // weaker than usual: do not remember it
  // A node that bounds itself is stored as a pointer to itself without a reference (no cycle).
  const ArithNode* store = b == e ? &n : ArithAccess::retain(b);
  const ArithNode* expected = nullptr;
  if (!slot.compare_exchange_strong(expected, store, std::memory_order_acq_rel) && store != &n)
    releaseNode(store);
  return b;
}

}  // namespace

ArithExpr ArithExpr::lowerBound() const { return boundOf(*this, false); }
ArithExpr ArithExpr::upperBound() const { return boundOf(*this, true); }

// ---------------------------------------------------------------- provers
bool provablyNonNegative(const ArithExpr& a) {
  const ArithNode& n = nodeOf(a);
  if (a.isInfinite()) return a.kind() == ArithKind::PosInf;
  if (n.lo >= 0) return true;
  if (n.hi < 0 || !n.hasVars) return false;
  ArithExpr lb = a.lowerBound();
  return !lb.isInfinite() && nodeOf(lb).lo >= 0;
}

bool provablyLessEq(const ArithExpr& a, const ArithExpr& b) {
  if (a == b) return true;
  try {
    return provablyNonNegative(b - a);
  } catch (const ArithError&) {
    return false;
  }
}

bool provablyLess(const ArithExpr& a, const ArithExpr& b) {
  try {
    return provablyNonNegative(b - a - 1);
  } catch (const ArithError&) {
    return false;
  }
}

bool provablyPositive(const ArithExpr& a) {
  if (nodeOf(a).lo >= 1) return true;
  try {
    return provablyNonNegative(a - 1);
  } catch (const ArithError&) {
    return false;
  }
}

bool provablyNonZero(const ArithExpr& a) {
  const ArithNode& n = nodeOf(a);
  if (n.lo >= 1 || n.hi <= -1) return true;
  if (n.kind == ArithKind::Const) return n.value != 0;
  try {
    return provablyPositive(a) || provablyPositive(-a);
  } catch (const ArithError&) {
    return false;
  }
}

bool provablyDivisible(const ArithExpr& a, const ArithExpr& b) {
  if (auto c = b.constant()) {
    if (*c == 0) return a.constant() == 0;
    int64_t f = a.knownFactor();
    return f == 0 || f % *c == 0;
  }
  if (a.constant() == 0) return true;
  try {
    return (a % b).constant() == 0;
  } catch (const ArithError&) {
    return false;
  }
}

}  // namespace fftc::ir
