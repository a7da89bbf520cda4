// Canonical sums and products: flattening, constant folding, like-term collection, sorting,
// distribution of products over sums, and the sum rules (div/mod recombination).
#include <fmt/format.h>

#include <algorithm>
#include <unordered_map>

#include "ir/arith/arith_expr.h"
#include "ir/arith/arith_node.h"
#include "ir/arith/arith_overflow.h"

namespace fftc::ir {
namespace {

[[noreturn]] void overflow(const char* what) {
  throw ArithOverflow(fmt::format("integer overflow while folding constants ({})", what));
}

std::vector<ArithExpr> atomsOf(const ArithExpr& mono) {
  if (mono.constant() == 1) return {};
  if (mono.kind() == ArithKind::Prod) return mono.operands();
  return {mono};
}

bool lessExpr(const ArithExpr& a, const ArithExpr& b) { return compareExpr(a, b) < 0; }

ArithExpr monoFromAtoms(std::vector<ArithExpr> atoms) {
  if (atoms.empty()) return 1;
  if (atoms.size() == 1) return atoms[0];
  std::sort(atoms.begin(), atoms.end(), lessExpr);
  return makeRaw(ArithKind::Prod, std::move(atoms));
}

ArithExpr mulMono(const ArithExpr& a, const ArithExpr& b) {
  std::vector<ArithExpr> atoms = atomsOf(a);
  for (const ArithExpr& x : atomsOf(b)) atoms.push_back(x);
  return monoFromAtoms(std::move(atoms));
}

// coef * mono as a canonical node (no rules).
ArithExpr termNode(int64_t coef, const ArithExpr& mono) {
  if (mono.constant() == 1) return coef;
  if (coef == 1) return mono;
  std::vector<ArithExpr> ops{ArithExpr(coef)};
  for (const ArithExpr& x : atomsOf(mono)) ops.push_back(x);
  return makeRaw(ArithKind::Prod, std::move(ops));
}

// Coefficient map keyed by monomial; insertion order kept for determinism before sorting.
struct Acc {
  std::vector<LinTerm> terms;
  std::unordered_map<const ArithNode*, size_t> index;
  int64_t constant = 0;

  void add(int64_t coef, const ArithExpr& mono) {
    if (mono.constant() == 1) {
      auto s = checkedAdd(constant, coef);
      if (!s) overflow("+");
      constant = *s;
      return;
    }
    auto [it, fresh] = index.emplace(mono.node(), terms.size());
    if (fresh) {
      terms.push_back({coef, mono});
      return;
    }
    auto s = checkedAdd(terms[it->second].coef, coef);
    if (!s) overflow("+");
    terms[it->second].coef = *s;
  }
  void addScaled(const ArithExpr& e, int64_t scale, const ArithExpr& mono) {
    Linear l = toLinear(e);
    for (const LinTerm& t : l.terms) {
      auto c = checkedMul(t.coef, scale);
      if (!c) overflow("*");
      add(*c, mulMono(t.mono, mono));
    }
    if (l.constant != 0) {
      auto c = checkedMul(l.constant, scale);
      if (!c) overflow("*");
      add(*c, mono);
    }
  }
  Linear linear() const {
    Linear l;
    for (const LinTerm& t : terms)
      if (t.coef != 0) l.terms.push_back(t);
    std::sort(l.terms.begin(), l.terms.end(),
              [](const LinTerm& a, const LinTerm& b) { return lessExpr(a.mono, b.mono); });
    l.constant = constant;
    return l;
  }
};

Acc accOf(const Linear& l) {
  Acc a;
  for (const LinTerm& t : l.terms) a.add(t.coef, t.mono);
  a.constant = l.constant;
  return a;
}

// (terms with a division or modulo factor, number of terms).
std::pair<size_t, size_t> measure(const Linear& l) {
  size_t divMod = 0;
  for (const LinTerm& t : l.terms) {
    for (const ArithExpr& f : atomsOf(t.mono)) {
      if (f.kind() == ArithKind::FloorDiv || f.kind() == ArithKind::FloorMod) {
        ++divMod;
        break;
      }
    }
  }
  return {divMod, l.terms.size() + (l.constant != 0 ? 1 : 0)};
}

// ---------------------------------------------------------------- sum rules
// Recombination of floor division and modulo, from  x == a * (x / a) + x % a  (floor
// semantics, any a != 0). A term g * (x % a) may be replaced by g*x - g*a*(x / a), and a term
// g*a*(x / a) by g*x - g*(x % a); a replacement is kept only if the sum gets fewer terms
// or loses a whole div/mod pair, e.g.
//   (x / 4) * 4 + x % 4              -> x
//   x - (x / 4) * 4                  -> x % 4
//   (x / 8) * 8 + ((x / 2) % 4) * 2 + x % 2 -> (x / 2) * 2 + x % 2 -> x
std::optional<Linear> tryRecombine(const Linear& l) {
  for (size_t i = 0; i < l.terms.size(); ++i) {
    const LinTerm& t = l.terms[i];
    std::vector<ArithExpr> atoms = atomsOf(t.mono);
    for (size_t k = 0; k < atoms.size(); ++k) {
      ArithKind kind = atoms[k].kind();
      if (kind != ArithKind::FloorDiv && kind != ArithKind::FloorMod) continue;
      const ArithExpr& x = atoms[k].operands()[0];
      const ArithExpr& a = atoms[k].operands()[1];
      std::vector<ArithExpr> rest = atoms;
      rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(k));
      // Split the divisor into coefficient and monomial.
      LinTerm da = a.constant() ? LinTerm{*a.constant(), ArithExpr(1)} : splitCoef(a);
      if (a.kind() == ArithKind::Sum || da.coef == 0) continue;
      try {
        Acc acc = accOf(l);
        if (kind == ArithKind::FloorMod) {
          ArithExpr g = monoFromAtoms(rest);
          acc.add(-t.coef, t.mono);
          acc.addScaled(x, t.coef, g);
          auto c = checkedMul(t.coef, -da.coef);
          if (!c) continue;
          acc.addScaled(makeDiv(x, a), *c, mulMono(g, da.mono));
        } else {
          if (t.coef % da.coef != 0) continue;
          // rest must contain the divisor's monomial.
          std::vector<ArithExpr> g = rest;
          bool found = true;
          for (const ArithExpr& f : atomsOf(da.mono)) {
            auto it = std::find(g.begin(), g.end(), f);
            if (it == g.end()) {
              found = false;
              break;
            }
            g.erase(it);
          }
          if (!found) continue;
          int64_t c = t.coef / da.coef;
          ArithExpr gm = monoFromAtoms(g);
          acc.add(-t.coef, t.mono);
          acc.addScaled(x, c, gm);
          acc.addScaled(makeMod(x, a), -c, gm);
        }
        Linear cand = acc.linear();
        auto [dc, tc] = measure(cand);
        auto [dl, tl] = measure(l);
        // Fewer terms, or a whole div/mod pair gone; the sum of both counts drops each time,
        // so the rule terminates. (Trading x % a for x - a*(x / a) alone is no gain.)
        if ((tc < tl && dc <= dl) || (tc <= tl && dc + 2 <= dl)) return cand;
      } catch (const ArithError&) {
        continue;  // overflow while trying: the rule does not apply
      }
    }
  }
  return std::nullopt;
}

ArithExpr buildSum(const Linear& l) {
  std::vector<ArithExpr> ops;
  for (const LinTerm& t : l.terms) ops.push_back(termNode(t.coef, t.mono));
  if (l.constant != 0) ops.push_back(l.constant);
  if (ops.empty()) return 0;
  if (ops.size() == 1) return ops[0];
  return makeRaw(ArithKind::Sum, std::move(ops));
}

}  // namespace

LinTerm splitCoef(const ArithExpr& term) {
  if (auto c = term.constant()) return {*c, ArithExpr(1)};
  if (term.kind() == ArithKind::Prod) {
    const auto& ops = term.operands();
    if (auto c = ops[0].constant()) {
      std::vector<ArithExpr> rest(ops.begin() + 1, ops.end());
      return {*c, rest.size() == 1 ? rest[0] : makeRaw(ArithKind::Prod, std::move(rest))};
    }
  }
  return {1, term};
}

Linear toLinear(const ArithExpr& e) {
  Linear l;
  auto one = [&l](const ArithExpr& t) {
    if (auto c = t.constant()) {
      l.constant = *c;
      return;
    }
    l.terms.push_back(splitCoef(t));
  };
  if (e.kind() == ArithKind::Sum) {
    for (const ArithExpr& t : e.operands()) one(t);
  } else {
    one(e);
  }
  return l;
}

ArithExpr fromLinear(const Linear& l) {
  std::vector<ArithExpr> ops;
  for (const LinTerm& t : l.terms) ops.push_back(termNode(t.coef, t.mono));
  ops.push_back(l.constant);
  return makeSum(std::move(ops));
}

ArithExpr makeSum(std::vector<ArithExpr> terms) {
  Acc acc;
  for (const ArithExpr& t : terms) acc.addScaled(t, 1, ArithExpr(1));
  Linear l = acc.linear();
  RuleScope scope;
  if (scope.ok()) {
    for (int iter = 0; iter < 64; ++iter) {
      std::optional<Linear> r = tryRecombine(l);
      if (!r) break;
      noteRule();
      l = std::move(*r);
    }
  }
  return buildSum(l);
}

ArithExpr makeProd(std::vector<ArithExpr> factors) {
  int64_t c = 1;
  std::vector<ArithExpr> atoms, sums;
  std::vector<ArithExpr> work = std::move(factors);
  for (size_t i = 0; i < work.size(); ++i) {
    const ArithExpr f = work[i];
    if (auto v = f.constant()) {
      auto p = checkedMul(c, *v);
      if (!p) overflow("*");
      c = *p;
    } else if (f.kind() == ArithKind::Prod) {
      for (const ArithExpr& o : f.operands()) work.push_back(o);
    } else if (f.kind() == ArithKind::Sum) {
      sums.push_back(f);
    } else {
      atoms.push_back(f);
    }
  }
  if (c == 0) return 0;
  ArithExpr mono = monoFromAtoms(atoms);
  if (sums.empty()) return termNode(c, mono);
  size_t expanded = 1;
  for (const ArithExpr& s : sums) expanded *= s.operands().size();
  if (sums.size() == 1 || expanded <= arithBudget().maxExpandTerms) {
    // Distribute: c * mono * (s1) * (s2) ... as a sum of monomials.
    std::vector<LinTerm> acc{{c, mono}};
    for (const ArithExpr& s : sums) {
      Linear l = toLinear(s);
      std::vector<LinTerm> next;
      for (const LinTerm& a : acc) {
        for (const LinTerm& b : l.terms) {
          auto p = checkedMul(a.coef, b.coef);
          if (!p) overflow("*");
          next.push_back({*p, mulMono(a.mono, b.mono)});
        }
        if (l.constant != 0) {
          auto p = checkedMul(a.coef, l.constant);
          if (!p) overflow("*");
          next.push_back({*p, a.mono});
        }
      }
      acc = std::move(next);
    }
    std::vector<ArithExpr> ts;
    for (const LinTerm& t : acc) ts.push_back(termNode(t.coef, t.mono));
    return makeSum(std::move(ts));
  }
  for (const ArithExpr& s : sums) atoms.push_back(s);  // too large to expand: keep factored
  return termNode(c, monoFromAtoms(atoms));
}

}  // namespace fftc::ir
