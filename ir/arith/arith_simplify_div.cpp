// Rules for floor division and floor modulo, as two tables tried in order; the first rule
// that returns a result wins (a rule returns a value if and only if it changed something).
// Semantics: a / b = floor(a / b), a % b = a - b * (a / b) (sign of b). Derivations of the
// non-obvious rules are next to them and in docs/arith.md.
#include <fmt/format.h>

#include <algorithm>

#include "ir/arith/arith_expr.h"
#include "ir/arith/arith_node.h"
#include "ir/arith/arith_overflow.h"

namespace fftc::ir {
namespace {

struct DivCtx {
  ArithExpr a, b;
  Linear la;
  std::optional<int64_t> d;  // the divisor when it is a constant
};
using RuleFn = std::optional<ArithExpr> (*)(const DivCtx&);
struct Rule {
  const char* name;
  RuleFn apply;
};

std::vector<ArithExpr> atomsOf(const ArithExpr& mono) {
  if (mono.constant() == 1) return {};
  if (mono.kind() == ArithKind::Prod) return mono.operands();
  return {mono};
}

// a with every coefficient (and the constant) divided exactly by g.
ArithExpr divideExact(const Linear& l, int64_t g) {
  Linear r = l;
  for (LinTerm& t : r.terms) t.coef /= g;
  r.constant /= g;
  return fromLinear(r);
}

int64_t gcdOfLinear(const Linear& l, int64_t g) {
  for (const LinTerm& t : l.terms) g = gcd64(g, t.coef);
  return gcd64(g, l.constant);
}

// Splits a = b*q + r by matching multiples of b's leading term (b symbolic). A multiple is
// taken only if removing it shrinks the remainder, so (M*j + 2*j + i) / (M + 2) gives q = j
// but (M*j + i) / (M + 2) gives nothing.
std::optional<std::pair<ArithExpr, ArithExpr>> extractMultiples(const DivCtx& c) {
  Linear lb = toLinear(c.b);
  if (lb.terms.empty()) return std::nullopt;
  const LinTerm lead = lb.terms[0];
  std::vector<ArithExpr> leadAtoms = atomsOf(lead.mono);
  ArithExpr q = 0, r = c.a;
  bool any = false;
  for (int iter = 0; iter < 16; ++iter) {
    Linear lr = toLinear(r);
    bool progressed = false;
    for (const LinTerm& t : lr.terms) {
      if (t.coef % lead.coef != 0) continue;
      std::vector<ArithExpr> m = atomsOf(t.mono);
      bool contains = true;
      for (const ArithExpr& f : leadAtoms) {
        auto it = std::find(m.begin(), m.end(), f);
        if (it == m.end()) {
          contains = false;
          break;
        }
        m.erase(it);
      }
      if (!contains) continue;
      ArithExpr k = ArithExpr(t.coef / lead.coef) * makeProd(std::vector<ArithExpr>(m.begin(), m.end()));
      ArithExpr nr = r - c.b * k;
      Linear lnr = toLinear(nr);
      size_t before = lr.terms.size() + (lr.constant != 0), after = lnr.terms.size() + (lnr.constant != 0);
      if (after >= before) continue;
      q = q + k, r = nr, any = progressed = true;
      break;
    }
    if (!progressed) break;
  }
  if (!any) return std::nullopt;
  // b*q exactly, with b possibly zero: keep the division node (y / y is not 1 + 0 / y).
  if (r.constant() == 0 && !provablyNonZero(c.b)) return std::nullopt;
  return std::make_pair(q, r);
}

// For a constant divisor d: the largest g | d such that a = g*main + s with 0 <= s < g
// provable (s: the terms whose coefficient g does not divide, plus the constant mod g).
//   floor((g*m + s) / (g*d')) = floor(m / d')           for 0 <= s < g
//   (g*m + s) % (g*d')       = g * (m % d') + s
// Proof: m = d'*q + r, 0 <= r < d'; then g*m + s = g*d'*q + (g*r + s) with
// 0 <= g*r + s <= g*(d'-1) + g-1 < g*d'.
struct Split {
  int64_t g;
  ArithExpr main;  // m, already divided by g
  ArithExpr s;
};
std::optional<Split> smallRemainderSplit(const DivCtx& c) {
  std::vector<int64_t> cands;
  for (const LinTerm& t : c.la.terms) {
    int64_t g = gcd64(*c.d, t.coef);
    if (g > 1 && std::find(cands.begin(), cands.end(), g) == cands.end()) cands.push_back(g);
  }
  std::sort(cands.rbegin(), cands.rend());
  for (int64_t g : cands) {
    Linear main, small;
    for (const LinTerm& t : c.la.terms) (t.coef % g == 0 ? main : small).terms.push_back(t);
    if (small.terms.empty() && *checkedFloorMod(c.la.constant, g) == 0) continue;  // gcd rule
    small.constant = *checkedFloorMod(c.la.constant, g);
    main.constant = c.la.constant - small.constant;
    ArithExpr s = fromLinear(small);
    if (!provablyNonNegative(s) || !provablyLess(s, g)) continue;
    return Split{g, divideExact(main, g), s};
  }
  return std::nullopt;
}

// ---------------------------------------------------------------- division rules
const Rule kDivRules[] = {
    {"div-by-unit",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.d == 1) return c.a;
       if (c.d == -1) return -c.a;
       return std::nullopt;
     }},
    // floor(a / b) = floor(-a / -b): divisors are kept positive.
    {"div-negative-divisor",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.d ? *c.d < 0 && *c.d != INT64_MIN : nodeOf(c.b).hi <= -1) return (-c.a) / (-c.b);
       return std::nullopt;
     }},
    {"div-self",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.a == c.b && provablyNonZero(c.b)) return ArithExpr(1);
       if (c.a.constant() == 0 && provablyNonZero(c.b)) return ArithExpr(0);
       return std::nullopt;
     }},
    // All values of a in one interval [k*d, (k+1)*d): the quotient is k.
    {"div-range",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       const ArithNode& n = nodeOf(c.a);
       if (c.d && *c.d > 0 && n.lo != kNegInf && n.hi != kPosInf) {
         int64_t k = *checkedFloorDiv(n.lo, *c.d);
         if (k == *checkedFloorDiv(n.hi, *c.d)) return ArithExpr(k);
       }
       // 0 <= a < b (or -b <= a < 0) already implies b > 0.
       if (!c.d) {
         if (provablyNonNegative(c.a) && provablyLess(c.a, c.b)) return ArithExpr(0);
         if (provablyLess(c.a, 0) && provablyLessEq(-c.b, c.a)) return ArithExpr(-1);
       }
       return std::nullopt;
     }},
    // floor(floor(x / a) / b) = floor(x / (a*b)) for a, b > 0.
    {"div-of-div",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.a.kind() != ArithKind::FloorDiv) return std::nullopt;
       const ArithExpr& x = c.a.operands()[0];
       const ArithExpr& a = c.a.operands()[1];
       if (!provablyPositive(a) || !provablyPositive(c.b)) return std::nullopt;
       if (a.constant() && c.d && !checkedMul(*a.constant(), *c.d)) return std::nullopt;
       return x / (a * c.b);
     }},
    // (x % (a*b)) / a = (x / a) % b for a, b > 0: with x = a*b*q + r, 0 <= r < a*b,
    // x / a = b*q + r / a and 0 <= r / a < b.
    {"div-of-mod",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.a.kind() != ArithKind::FloorMod) return std::nullopt;
       const ArithExpr& x = c.a.operands()[0];
       const ArithExpr& m = c.a.operands()[1];
       if (!provablyPositive(m) || !provablyPositive(c.b) || !provablyDivisible(m, c.b)) return std::nullopt;
       return (x / c.b) % (m / c.b);
     }},
    // (d*q + r) / d = q + r / d: every term whose coefficient is a multiple of d, and
    // floor(c / d) of the constant, leave the division (exact for floor and any d != 0).
    {"div-extract-multiples",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (!c.d) {
         auto qr = extractMultiples(c);
         if (!qr) return std::nullopt;
         return qr->first + qr->second / c.b;
       }
       Linear q, r;
       for (const LinTerm& t : c.la.terms) {
         if (t.coef % *c.d == 0) {
           q.terms.push_back({t.coef / *c.d, t.mono});
         } else {
           r.terms.push_back(t);
         }
       }
       q.constant = *checkedFloorDiv(c.la.constant, *c.d);
       r.constant = *checkedFloorMod(c.la.constant, *c.d);
       if (q.terms.empty() && q.constant == 0) return std::nullopt;
       return fromLinear(q) + fromLinear(r) / c.b;
     }},
    // floor(g*a' / (g*b')) = floor(a' / b') for g > 0.
    {"div-cancel-gcd",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       Linear lb = toLinear(c.b);
       int64_t g = gcdOfLinear(c.la, gcdOfLinear(lb, 0));
       if (g <= 1) return std::nullopt;
       return divideExact(c.la, g) / divideExact(lb, g);
     }},
    {"div-small-remainder",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (!c.d || *c.d <= 1) return std::nullopt;
       auto sp = smallRemainderSplit(c);
       if (!sp) return std::nullopt;
       return sp->main / ArithExpr(*c.d / sp->g);
     }},
};

// ---------------------------------------------------------------- modulo rules
const Rule kModRules[] = {
    {"mod-by-unit",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.d == 1 || c.d == -1) return ArithExpr(0);
       return std::nullopt;
     }},
    // a % b = a - b*floor(a/b) = -((-a) - (-b)*floor(-a/-b)) = -((-a) % (-b)).
    {"mod-negative-divisor",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.d ? *c.d < 0 && *c.d != INT64_MIN : nodeOf(c.b).hi <= -1) return -((-c.a) % (-c.b));
       return std::nullopt;
     }},
    {"mod-self",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if ((c.a == c.b || c.a.constant() == 0) && provablyNonZero(c.b)) return ArithExpr(0);
       return std::nullopt;
     }},
    // All values of a in [k*d, (k+1)*d): a % d = a - k*d.
    {"mod-range",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       const ArithNode& n = nodeOf(c.a);
       if (c.d && *c.d > 0 && n.lo != kNegInf && n.hi != kPosInf) {
         int64_t k = *checkedFloorDiv(n.lo, *c.d);
         if (k == *checkedFloorDiv(n.hi, *c.d)) {
           auto kd = checkedMul(k, *c.d);
           if (kd) return c.a - ArithExpr(*kd);
         }
       }
       if (!c.d) {
         if (provablyNonNegative(c.a) && provablyLess(c.a, c.b)) return c.a;
         if (provablyLess(c.a, 0) && provablyLessEq(-c.b, c.a)) return c.a + c.b;
       }
       return std::nullopt;
     }},
    // (x % m) % b = x % b when b | m and b, m > 0.
    {"mod-of-mod",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (c.a.kind() != ArithKind::FloorMod) return std::nullopt;
       const ArithExpr& x = c.a.operands()[0];
       const ArithExpr& m = c.a.operands()[1];
       if (!provablyPositive(m) || !provablyPositive(c.b) || !provablyDivisible(m, c.b)) return std::nullopt;
       return x % c.b;
     }},
    // (d*q + r) % d = r % d; the constant is reduced into [0, d), coefficients modulo d.
    {"mod-drop-multiples",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (!c.d) {
         auto qr = extractMultiples(c);
         if (!qr) return std::nullopt;
         return qr->second % c.b;
       }
       Linear r;
       bool changed = false;
       for (const LinTerm& t : c.la.terms) {
         // A coefficient becomes its residue in [0, d) only if that is smaller in magnitude:
         // 5*x % 4 -> x % 4 and -2*x % 3 -> x % 3, while -x % 4 stays (3*x % 4 is no simpler).
         int64_t k = *checkedFloorMod(t.coef, *c.d);
         if (t.coef < 0 && k >= -t.coef) k = t.coef;
         changed = changed || k != t.coef;
         if (k != 0) r.terms.push_back({k, t.mono});
       }
       r.constant = *checkedFloorMod(c.la.constant, *c.d);
       changed = changed || r.constant != c.la.constant;
       if (!changed) return std::nullopt;
       return fromLinear(r) % c.b;
     }},
    // (g*a') % (g*b') = g * (a' % b') for g > 0.
    {"mod-cancel-gcd",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       Linear lb = toLinear(c.b);
       int64_t g = gcdOfLinear(c.la, gcdOfLinear(lb, 0));
       if (g <= 1) return std::nullopt;
       return ArithExpr(g) * (divideExact(c.la, g) % divideExact(lb, g));
     }},
    {"mod-small-remainder",
     [](const DivCtx& c) -> std::optional<ArithExpr> {
       if (!c.d || *c.d <= 1) return std::nullopt;
       auto sp = smallRemainderSplit(c);
       if (!sp) return std::nullopt;
       return ArithExpr(sp->g) * (sp->main % ArithExpr(*c.d / sp->g)) + sp->s;
     }},
};

ArithExpr applyRules(const Rule* begin, const Rule* end, ArithKind kind, const ArithExpr& a,
                     const ArithExpr& b) {
  const char* op = kind == ArithKind::FloorDiv ? "/" : "%";
  if (b.constant() == 0)
    throw ArithError(fmt::format("division by zero: ({}) {} 0", a.str(), op));
  if (a.constant() && b.constant()) {
    auto r = kind == ArithKind::FloorDiv ? checkedFloorDiv(*a.constant(), *b.constant())
                                         : checkedFloorMod(*a.constant(), *b.constant());
    if (!r) throw ArithOverflow(fmt::format("integer overflow while folding {} {} {}", *a.constant(), op, *b.constant()));
    return *r;
  }
  RuleScope scope;
  if (scope.ok()) {
    DivCtx c{a, b, toLinear(a), b.constant()};
    for (const Rule* r = begin; r != end; ++r) {
      std::optional<ArithExpr> out;
      try {
        out = r->apply(c);
      } catch (const ArithError&) {  // overflow inside a rule: the rule does not apply
        continue;
      }
      if (out) {
        noteRule();
        return *out;
      }
    }
  }
  return makeRaw(kind, {a, b});
}

}  // namespace

ArithExpr makeDiv(const ArithExpr& a, const ArithExpr& b) {
  return applyRules(std::begin(kDivRules), std::end(kDivRules), ArithKind::FloorDiv, a, b);
}

ArithExpr makeMod(const ArithExpr& a, const ArithExpr& b) {
  return applyRules(std::begin(kModRules), std::end(kModRules), ArithKind::FloorMod, a, b);
}

}  // namespace fftc::ir
