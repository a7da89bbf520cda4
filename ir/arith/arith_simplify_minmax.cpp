// Rules for min and max: constant folding, decision by proof (min(a, b) = a when a <= b is
// provable for all values in the ranges), absorption, and a canonical operand order.
#include <algorithm>

#include "ir/arith/arith_expr.h"
#include "ir/arith/arith_node.h"

namespace fftc::ir {
namespace {

bool hasOperand(const ArithExpr& e, ArithKind kind, const ArithExpr& x) {
  if (e.kind() != kind) return false;
  return e.operands()[0] == x || e.operands()[1] == x;
}

ArithExpr makeMinMax(ArithKind kind, const ArithExpr& a, const ArithExpr& b) {
  bool isMin = kind == ArithKind::Min;
  ArithKind dual = isMin ? ArithKind::Max : ArithKind::Min;
  if (a.constant() && b.constant())
    return isMin ? std::min(*a.constant(), *b.constant()) : std::max(*a.constant(), *b.constant());
  if (a == b) return a;
  RuleScope scope;
  if (scope.ok()) {
    // min(a, b) = a if a <= b everywhere; max(a, b) = b then.
    if (provablyLessEq(a, b)) return noteRule(), isMin ? a : b;
    if (provablyLessEq(b, a)) return noteRule(), isMin ? b : a;
    // min(a, min(a, c)) = min(a, c);  min(a, max(a, c)) = a  (and the duals).
    if (hasOperand(b, kind, a)) return noteRule(), b;
    if (hasOperand(a, kind, b)) return noteRule(), a;
    if (hasOperand(b, dual, a)) return noteRule(), a;
    if (hasOperand(a, dual, b)) return noteRule(), b;
  }
  if (compareExpr(a, b) <= 0) return makeRaw(kind, {a, b});
  return makeRaw(kind, {b, a});
}

}  // namespace

ArithExpr makeMin(const ArithExpr& a, const ArithExpr& b) { return makeMinMax(ArithKind::Min, a, b); }
ArithExpr makeMax(const ArithExpr& a, const ArithExpr& b) { return makeMinMax(ArithKind::Max, a, b); }

}  // namespace fftc::ir
