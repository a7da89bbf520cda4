// Compile-time conditions and the conditional `if c then a else b`: comparisons of
// compile-time integers, && || ! on their results, and the choice of one branch.
#include <optional>

#include <fmt/format.h>

#include "compiler/frontend/elaborator.h"

namespace fftc::compiler::frontend {

namespace {

// a < b, a <= b, a == b for compile-time integers that may be symbolic in size variables
// (`N >= 1` holds for every size). Empty when the ranges of the variables do not decide it.
std::optional<bool> decide(ast::CmpOp op, const ir::ArithExpr& a, const ir::ArithExpr& b) {
  using ast::CmpOp;
  const auto less = [](const ir::ArithExpr& x, const ir::ArithExpr& y) -> std::optional<bool> {
    if (ir::provablyLess(x, y)) return true;
    if (ir::provablyLessEq(y, x)) return false;
    return std::nullopt;
  };
  const auto lessEq = [](const ir::ArithExpr& x, const ir::ArithExpr& y) -> std::optional<bool> {
    if (ir::provablyLessEq(x, y)) return true;
    if (ir::provablyLess(y, x)) return false;
    return std::nullopt;
  };
  const auto equal = [](const ir::ArithExpr& x, const ir::ArithExpr& y) -> std::optional<bool> {
    if (x == y || (x - y).constant() == 0) return true;  // hash-consed: equal forms are one node
    if (ir::provablyLess(x, y) || ir::provablyLess(y, x)) return false;
    return std::nullopt;
  };
  switch (op) {
    case CmpOp::Lt:
      return less(a, b);
    case CmpOp::Le:
      return lessEq(a, b);
    case CmpOp::Gt:
      return less(b, a);
    case CmpOp::Ge:
      return lessEq(b, a);
    case CmpOp::Eq:
      return equal(a, b);
    case CmpOp::Ne:
      if (auto eq = equal(a, b)) return !*eq;
      return std::nullopt;
  }
  return std::nullopt;
}

// An integer literal that became a runtime value is still a compile-time integer (as toInt
// takes it).
Value compileTimeInt(Value v) {
  if (v.kind != ValueKind::Expr) return v;
  const auto* lit = v.expr->as<ir::Literal>();
  if (lit && lit->litKind() == ir::LiteralKind::Int) return Value::ofInt(lit->intValue());
  return v;
}

}  // namespace

// Only the chosen branch is evaluated: the other may be ill-formed for these values (a
// Bluestein branch indexing radices a Stockham dimension does not have).
Value Elaborator::evalIf(const ast::Expr& e, const Env& env) {
  const bool c = condition(e.elems[0]->loc, eval(*e.elems[0], env), "the condition of 'if'");
  return eval(*e.elems[c ? 1 : 2], env);
}

Value Elaborator::evalCompare(const ast::Expr& e, const Env& env) {
  const char* op = ast::cmpOpSpelling(e.cmp);
  ir::ArithExpr sides[2];
  for (size_t i = 0; i < 2; ++i) {
    Value v = compileTimeInt(eval(*e.elems[i], env));
    if (v.kind != ValueKind::Int) {
      fail(e.elems[i]->loc,
           fmt::format("'{}' compares compile-time integers, but its {} operand is {}", op,
                       i == 0 ? "left" : "right",
                       v.kind == ValueKind::Expr ? "a runtime value" : describe(v)));
    }
    sides[i] = v.i;
  }
  std::optional<bool> r = decide(e.cmp, sides[0], sides[1]);
  if (!r) {
    fail(e.loc, fmt::format("cannot decide '{} {} {}' at compile time: it depends on the sizes' "
                            "values (bind them with -D)",
                            sides[0].str(), op, sides[1].str()));
  }
  return Value::ofBool(*r);
}

// a && b, a || b: b is evaluated only when a does not decide (so `j < len(ns) && ns[j] > 1`
// never indexes out of range).
Value Elaborator::evalLogic(const ast::Expr& e, const Env& env) {
  const bool isAnd = e.kind == ast::ExprKind::And;
  const char* op = isAnd ? "&&" : "||";
  const bool a = condition(e.elems[0]->loc, eval(*e.elems[0], env),
                           fmt::format("the left operand of '{}'", op));
  if (a != isAnd) return Value::ofBool(a);
  return Value::ofBool(condition(e.elems[1]->loc, eval(*e.elems[1], env),
                                 fmt::format("the right operand of '{}'", op)));
}

// The integers 0 and 1 are conditions too: the planner's -D flags (`plane`, `even`) are
// integers. Any other integer is an error rather than C's "non-zero is true", which would
// take a size (`if n then`) for a flag.
bool Elaborator::condition(const Loc& loc, const Value& given, const std::string& what) {
  const Value v = compileTimeInt(given);
  switch (v.kind) {
    case ValueKind::Bool:
      return v.truth;
    case ValueKind::Int: {
      auto c = v.i.constant();
      if (!c) {
        fail(loc, fmt::format("{} must be known at compile time, but it is the symbolic size {} "
                              "(bind it with -D, or compare it)",
                              what, v.i.str()));
      }
      if (*c != 0 && *c != 1) {
        fail(loc, fmt::format("{} is the integer {}: a condition is a boolean (a comparison such "
                              "as 'n > 1') or the integer 0 or 1",
                              what, *c));
      }
      return *c == 1;
    }
    case ValueKind::Expr:
      // A real or complex literal is known, but it is no condition.
      if (const auto* lit = v.expr->as<ir::Literal>()) {
        fail(loc,
             fmt::format("{} must be a boolean or the integer 0 or 1, but it is a {} literal", what,
                         lit->litKind() == ir::LiteralKind::Complex ? "complex" : "real"));
      }
      fail(loc, fmt::format("{} must be known at compile time, but it is a runtime value", what));
    default:
      fail(loc, fmt::format("{} must be a boolean or the integer 0 or 1, but it is {}", what,
                            describe(v)));
  }
}

}  // namespace fftc::compiler::frontend
