// Printing the syntax tree back as concrete syntax (fully parenthesized), for tests and dumps.
#include "compiler/frontend/ast.h"

#include <fmt/format.h>

namespace fftc::compiler::frontend::ast {

const char* binOpSpelling(BinOp op) {
  switch (op) {
    case BinOp::Add: return "+";
    case BinOp::Sub: return "-";
    case BinOp::Mul: return "*";
    case BinOp::Div: return "/";
    case BinOp::Mod: return "%";
  }
  return "?";
}

const char* cmpOpSpelling(CmpOp op) {
  switch (op) {
    case CmpOp::Eq: return "==";
    case CmpOp::Ne: return "!=";
    case CmpOp::Lt: return "<";
    case CmpOp::Le: return "<=";
    case CmpOp::Gt: return ">";
    case CmpOp::Ge: return ">=";
  }
  return "?";
}

namespace {
std::string joinShown(const std::vector<ExprPtr>& elems, size_t from) {
  std::string out;
  for (size_t i = from; i < elems.size(); ++i) {
    if (i > from) out += ", ";
    out += show(*elems[i]);
  }
  return out;
}
std::string paramList(const std::vector<Param>& ps) {
  std::string out;
  for (size_t i = 0; i < ps.size(); ++i) out += (i ? ", " : "") + ps[i].name;
  return out;
}
}  // namespace

std::string show(const Expr& e) {
  switch (e.kind) {
    case ExprKind::Var: return e.name;
    case ExprKind::Int: return std::to_string(e.intValue);
    case ExprKind::Real: return e.name;
    case ExprKind::Tuple: return "{" + joinShown(e.elems, 0) + "}";
    case ExprKind::List: return "[" + joinShown(e.elems, 0) + "]";
    case ExprKind::Lambda:
      return e.params.size() == 1 ? fmt::format("(fun {} => {})", e.params[0].name, show(*e.elems[0]))
                                  : fmt::format("(fun ({}) => {})", paramList(e.params), show(*e.elems[0]));
    case ExprKind::Call: return show(*e.elems[0]) + "(" + joinShown(e.elems, 1) + ")";
    case ExprKind::Apply: return fmt::format("({} <<: {})", show(*e.elems[0]), show(*e.elems[1]));
    case ExprKind::Compose: return fmt::format("({} o {})", show(*e.elems[0]), show(*e.elems[1]));
    case ExprKind::Binary:
      return fmt::format("({} {} {})", show(*e.elems[0]), binOpSpelling(e.op), show(*e.elems[1]));
    case ExprKind::Neg: return fmt::format("(-{})", show(*e.elems[0]));
    case ExprKind::Field: return fmt::format("{}._{}", show(*e.elems[0]), e.intValue);
    case ExprKind::Index: return fmt::format("{}[{}]", show(*e.elems[0]), show(*e.elems[1]));
    case ExprKind::Pipe:
      return fmt::format("(pipe({} in {} .. {}) {})", e.params[0].name, show(*e.elems[0]),
                         show(*e.elems[1]), show(*e.elems[2]));
    case ExprKind::OpRef: return fmt::format("({})", binOpSpelling(e.op));
    case ExprKind::Compare:
      return fmt::format("({} {} {})", show(*e.elems[0]), cmpOpSpelling(e.cmp), show(*e.elems[1]));
    case ExprKind::And: return fmt::format("({} && {})", show(*e.elems[0]), show(*e.elems[1]));
    case ExprKind::Or: return fmt::format("({} || {})", show(*e.elems[0]), show(*e.elems[1]));
    case ExprKind::Not: return fmt::format("(!{})", show(*e.elems[0]));
    case ExprKind::If:
      return fmt::format("(if {} then {} else {})", show(*e.elems[0]), show(*e.elems[1]),
                         show(*e.elems[2]));
  }
  return "?";
}

std::string show(const Type& t) {
  switch (t.kind) {
    case TypeKind::Int: return "int";
    case TypeKind::Float: return "float";
    case TypeKind::Double: return "double";
    case TypeKind::Real: return "real";
    case TypeKind::Complex: return "complex";
    case TypeKind::Tuple: {
      std::string out = "(";
      for (size_t i = 0; i < t.elems.size(); ++i) out += (i ? ", " : "") + show(*t.elems[i]);
      return out + ")";
    }
    case TypeKind::Array: return "[" + show(*t.elems[0]) + "]" + show(*t.size);
  }
  return "?";
}

}  // namespace fftc::compiler::frontend::ast
