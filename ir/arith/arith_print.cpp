// Printing: str() for people (floor semantics implied) and toC() for generated kernels, which
// lowers floor division/modulo to C operators only where that is provably the same.
#include <fmt/format.h>

#include <algorithm>

#include "ir/arith/arith_expr.h"
#include "ir/arith/arith_node.h"

namespace fftc::ir {
namespace {

struct Printer {
  bool c = false;     // C output
  bool wide = false;  // C output evaluated in 64 bits
  std::vector<std::string>* helpers = nullptr;  // cHelpers(): the helper calls printed

  // |v| as text, without overflow for INT64_MIN.
  static std::string magnitude(int64_t v) {
    uint64_t m = v < 0 ? 0 - static_cast<uint64_t>(v) : static_cast<uint64_t>(v);
    return std::to_string(m);
  }

  std::string constant(int64_t v) const {
    if (v == INT64_MIN) return c ? "(-9223372036854775807L - 1L)" : "-9223372036854775808";
    std::string s = std::to_string(v);
    if (c && (v > INT32_MAX || v < INT32_MIN)) s += "L";
    return s;
  }

  // Prints e as an operand of `*` (sums need parentheses; everything else is atomic).
  std::string factor(const ArithExpr& e) const {
    if (e.kind() == ArithKind::Sum) return "(" + print(e) + ")";
    if (e.kind() == ArithKind::Const && *e.constant() < 0) return "(" + print(e) + ")";
    return print(e);
  }

  std::string product(const ArithExpr& e) const {
    std::string s;
    for (const ArithExpr& o : e.operands()) s += (s.empty() ? "" : " * ") + factor(o);
    return s;
  }

  // |coef| * mono; the caller prints the sign.
  std::string term(const LinTerm& t) const {
    std::string m = t.mono.kind() == ArithKind::Prod ? product(t.mono) : factor(t.mono);
    if (t.coef == 1 || t.coef == -1) return m;
    std::string k = magnitude(t.coef);
    if (c && (t.coef > INT32_MAX || t.coef < -static_cast<int64_t>(INT32_MAX))) k += "L";
    return k + " * " + m;
  }

  std::string sum(const ArithExpr& e) const {
    std::string s;
    for (const ArithExpr& o : e.operands()) {
      if (auto v = o.constant()) {
        if (s.empty()) {
          s = constant(*v);
        } else {
          s += (*v < 0 ? " - " : " + ") + magnitude(*v) + (c && (*v > INT32_MAX || *v < -static_cast<int64_t>(INT32_MAX)) ? "L" : "");
        }
        continue;
      }
      LinTerm t = splitCoef(o);
      if (s.empty()) {
        s = (t.coef < 0 ? "-" : "") + term(t);
      } else {
        s += (t.coef < 0 ? " - " : " + ") + term(t);
      }
    }
    return s;
  }

  static int log2Exact(const ArithExpr& b) {
    auto v = b.constant();
    if (!v || *v < 2 || (*v & (*v - 1)) != 0) return -1;
    return __builtin_ctzll(static_cast<unsigned long long>(*v));
  }

  std::string divMod(const ArithExpr& e, bool isDiv) const {
    const ArithExpr& a = e.operands()[0];
    const ArithExpr& b = e.operands()[1];
    const char* op = isDiv ? " / " : " % ";
    std::string as = factor(a);  // a sum numerator needs parentheses: (a + b) / c
    std::string bs = b.kind() == ArithKind::Prod ? "(" + print(b) + ")" : factor(b);
    if (!c) return "(" + as + op + bs + ")";
    bool plain = provablyNonNegative(a) && provablyPositive(b);
    if (plain) {
      if (int k = log2Exact(b); k > 0) {
        if (isDiv) return "(" + as + " >> " + std::to_string(k) + ")";
        return "(" + as + " & " + constant(*b.constant() - 1) + ")";
      }
      return "(" + as + op + bs + ")";
    }
    std::string fn = isDiv ? "fftc_floordiv" : "fftc_floormod";
    if (wide) fn += "64";
    if (helpers && std::find(helpers->begin(), helpers->end(), fn) == helpers->end())
      helpers->push_back(fn);
    return fn + "(" + print(a) + ", " + print(b) + ")";
  }

  std::string print(const ArithExpr& e) const {
    switch (e.kind()) {
      case ArithKind::Const: return constant(*e.constant());
      case ArithKind::Var: return c && wide ? "((long)" + e.varName() + ")" : e.varName();
      case ArithKind::Sum: return sum(e);
      case ArithKind::Prod: {
        LinTerm t = splitCoef(e);
        if (t.coef == -1) return "-" + (t.mono.kind() == ArithKind::Prod ? product(t.mono) : factor(t.mono));
        return product(e);
      }
      case ArithKind::FloorDiv: return divMod(e, true);
      case ArithKind::FloorMod: return divMod(e, false);
      case ArithKind::Min:
      case ArithKind::Max: {
        // In 64-bit output the other operand is a long (its variables are cast), and
        // min(int, long) is ambiguous in OpenCL C: constants get the L suffix too.
        auto operand = [&](const ArithExpr& o) {
          std::string t = print(o);
          return c && wide && o.isConstant() && t.back() != 'L' && t.back() != ')' ? t + "L" : t;
        };
        return fmt::format("{}({}, {})", e.kind() == ArithKind::Min ? "min" : "max",
                           operand(e.operands()[0]), operand(e.operands()[1]));
      }
      case ArithKind::PosInf: return "+inf";
      case ArithKind::NegInf: return "-inf";
    }
    return "?";
  }
};

}  // namespace

std::string ArithExpr::str() const { return Printer{}.print(*this); }

std::string ArithExpr::toC() const {
  if (isInfinite()) throw ArithError("toC: an infinity has no C form");
  Printer p;
  p.c = true;
  p.wide = !fitsInt32();
  return p.print(*this);
}

std::vector<std::string> ArithExpr::cHelpers() const {
  std::vector<std::string> out;
  if (isInfinite()) return out;
  Printer p;
  p.c = true;
  p.wide = !fitsInt32();
  p.helpers = &out;
  p.print(*this);  // the same decisions as toC(); the text is not needed
  return out;
}

}  // namespace fftc::ir
