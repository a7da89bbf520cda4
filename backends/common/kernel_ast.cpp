// Constructors of the kernel AST (kernel_ast.h).
#include "backends/common/kernel_ast.h"

namespace fftc::backends {

namespace {
std::shared_ptr<CExprNode> node(CExprKind k, CType t) {
  auto n = std::make_shared<CExprNode>();
  n->kind = k;
  n->type = std::move(t);
  return n;
}
}  // namespace

CExpr cVar(std::string name, CType type) {
  auto n = node(CExprKind::Var, std::move(type));
  n->name = std::move(name);
  return n;
}
CExpr cIndex(ir::ArithExpr e) {
  auto n = node(CExprKind::Index, CType::of(CType::Kind::Int));
  n->index = std::move(e);
  return n;
}
CExpr cReal(double v, CType type) {
  auto n = node(CExprKind::RealLit, std::move(type));
  n->re = v;
  return n;
}
CExpr cComplex(double re, double im, CType type) {
  auto n = node(CExprKind::ComplexLit, std::move(type));
  n->re = re;
  n->im = im;
  return n;
}
CExpr cUnary(std::string op, CExpr a, CType type) {
  auto n = node(CExprKind::Unary, std::move(type));
  n->name = std::move(op);
  n->args = {std::move(a)};
  return n;
}
CExpr cBinary(std::string op, CExpr a, CExpr b, CType type) {
  auto n = node(CExprKind::Binary, std::move(type));
  n->name = std::move(op);
  n->args = {std::move(a), std::move(b)};
  return n;
}
CExpr cCompare(ir::ArithExpr a, std::string op, ir::ArithExpr b) {
  auto n = node(CExprKind::Compare, CType::of(CType::Kind::Bool));
  n->name = std::move(op);
  n->index = std::move(a);
  n->index2 = std::move(b);
  return n;
}
CExpr cAnd(CExpr a, CExpr b) {
  if (!a) return b;
  if (!b) return a;
  return cBinary("&&", std::move(a), std::move(b), CType::of(CType::Kind::Bool));
}
CExpr cCall(std::string name, std::vector<CExpr> args, CType type) {
  auto n = node(CExprKind::Call, std::move(type));
  n->name = std::move(name);
  n->args = std::move(args);
  return n;
}
CExpr cMember(CExpr a, std::string field, CType type) {
  auto n = node(CExprKind::Member, std::move(type));
  n->name = std::move(field);
  n->args = {std::move(a)};
  return n;
}
CExpr cSubscript(CExpr base, ir::ArithExpr index, CType type) {
  auto n = node(CExprKind::Subscript, std::move(type));
  n->index = std::move(index);
  n->args = {std::move(base)};
  return n;
}
CExpr cSelect(CExpr c, CExpr a, CExpr b, CType type) {
  auto n = node(CExprKind::Select, std::move(type));
  n->args = {std::move(c), std::move(a), std::move(b)};
  return n;
}
CExpr cCast(CType type, CExpr a) {
  auto n = node(CExprKind::Cast, std::move(type));
  n->args = {std::move(a)};
  return n;
}
CExpr cMakeComplex(CExpr re, CExpr im, CType type) {
  auto n = node(CExprKind::MakeComplex, std::move(type));
  n->args = {std::move(re), std::move(im)};
  return n;
}
CExpr cMakeVector(std::vector<CExpr> parts, CType type) {
  auto n = node(CExprKind::MakeComplex, std::move(type));
  n->args = std::move(parts);
  return n;
}
CExpr cWorkItem(WorkItemFn fn, int dim) {
  auto n = node(CExprKind::WorkItem, CType::of(CType::Kind::Int));
  n->fn = fn;
  n->dim = dim;
  return n;
}

CExpr cVector(CExpr array, ir::ArithExpr index, int width, CType elem) {
  auto n = node(CExprKind::Vector, std::move(elem));
  n->args = {std::move(array)};
  n->index = std::move(index);
  n->dim = width;
  return n;
}
CType vectorCType(const CType& elem, int width) {
  return CType::structType((elem.kind == CType::Kind::Double ? "double" : elem.kind == CType::Kind::Int ? "int" : "float") + std::to_string(width));
}

bool isTrivial(const CExpr& e) {
  switch (e->kind) {
    case CExprKind::Var:
    case CExprKind::RealLit:
    case CExprKind::ComplexLit:
    case CExprKind::WorkItem: return true;
    case CExprKind::Index: return e->index.nodeCount() <= 3;
    case CExprKind::Member: return isTrivial(e->args[0]);
    case CExprKind::Cast: return isTrivial(e->args[0]);
    default: return false;
  }
}

bool isLiteral(const CExpr& e) {
  return e->kind == CExprKind::RealLit || e->kind == CExprKind::ComplexLit ||
         (e->kind == CExprKind::Index && e->index.isConstant());
}

namespace {
StmtPtr stmt(StmtKind k) {
  auto s = std::make_shared<Stmt>();
  s->kind = k;
  return s;
}
}  // namespace

StmtPtr sBlock() { return stmt(StmtKind::Block); }
StmtPtr sDecl(CType type, std::string name, CExpr init, bool isConst) {
  auto s = stmt(StmtKind::Decl);
  s->type = std::move(type);
  s->name = std::move(name);
  s->init = std::move(init);
  s->isConst = isConst;
  return s;
}
StmtPtr sArrayDecl(CType type, std::string name, int64_t count, MemSpace space) {
  auto s = stmt(StmtKind::Decl);
  s->type = std::move(type);
  s->name = std::move(name);
  s->arrayCount = count;
  s->space = space;
  return s;
}
StmtPtr sAssign(CExpr lhs, CExpr rhs) {
  auto s = stmt(StmtKind::Assign);
  s->lhs = std::move(lhs);
  s->rhs = std::move(rhs);
  return s;
}
StmtPtr sFor(std::string var, CExpr start, ir::ArithExpr bound, CExpr step) {
  auto s = stmt(StmtKind::For);
  s->name = std::move(var);
  s->init = std::move(start);
  s->wide = loopNeedsWide(bound, step != nullptr);
  s->bound = std::move(bound);
  s->step = std::move(step);
  return s;
}

bool loopNeedsWide(const ir::ArithExpr& bound, bool strided) {
  auto hi = bound.constUpperBound();
  if (!hi) return false;
  return strided ? *hi > (int64_t{1} << 30) : *hi >= (int64_t{1} << 31);
}
StmtPtr sIf(CExpr cond) {
  auto s = stmt(StmtKind::If);
  s->cond = std::move(cond);
  return s;
}
StmtPtr sBarrier(bool localFence, bool globalFence) {
  auto s = stmt(StmtKind::Barrier);
  s->localFence = localFence;
  s->globalFence = globalFence;
  return s;
}
StmtPtr sComment(std::string text) {
  auto s = stmt(StmtKind::Comment);
  s->name = std::move(text);
  return s;
}

}  // namespace fftc::backends
