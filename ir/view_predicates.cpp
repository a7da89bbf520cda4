// The view predicates (view_predicates.h).
#include "ir/view_predicates.h"

#include <algorithm>

#include "ir/substitute.h"

namespace fftc::ir {

namespace {
bool isWritablePattern(FunKind k) {
  return k == FunKind::Join || k == FunKind::Split || k == FunKind::Transpose || k == FunKind::Id ||
         k == FunKind::Crop;
}

// body is a chain of writable views, each of one argument, down to p.
bool writableChain(const ExprPtr& body, const Param* p) {
  if (body.get() == p) return true;
  const auto* c = body->as<FunCall>();
  if (!c || c->args().size() != 1) return false;
  return isWritableView(*c->f()) && writableChain(c->arg(0), p);
}
}  // namespace

bool isDataLayout(const FunDecl& f) {
  switch (f.kind()) {
    case FunKind::Zip:
    case FunKind::Split:
    case FunKind::Join:
    case FunKind::Transpose:
    case FunKind::ArrayGen:
    case FunKind::Table:
    case FunKind::Pad:
    case FunKind::Crop:
    case FunKind::Slide:
    case FunKind::Id:
    case FunKind::Get:
    case FunKind::Gather: return true;
    default: return false;
  }
}

bool isView(const FunDecl& f) {
  switch (f.kind()) {
    case FunKind::ArrayGen:
    case FunKind::Table: return false;
    case FunKind::Pad: return f.as<Pad>()->boundary() != PadBoundary::Constant;
    case FunKind::Map: return isView(*f.as<Map>()->f());
    case FunKind::Lambda: return isViewExpr(f.as<Lambda>()->body());
    default: return isDataLayout(f);
  }
}

bool isViewExpr(const ExprPtr& e) {
  if (e->is<Param>()) return true;
  const auto* c = e->as<FunCall>();
  if (!c || !isView(*c->f())) return false;
  for (const auto& a : c->args())
    if (!isViewExpr(a)) return false;
  return true;
}

bool isWritableView(const FunDecl& f) {
  if (isWritablePattern(f.kind())) return true;
  // a permutation is written through its inverse
  if (const auto* g = f.as<Gather>()) return !g->inverse().empty();
  if (const auto* m = f.as<Map>()) return isWritableView(*m->f());
  const auto* l = f.as<Lambda>();
  return l && l->arity() == 1 && writableChain(l->body(), l->params()[0].get());
}

namespace {
bool copyExpr(const ExprPtr& e);
// A function that only copies: a view, or a Lambda of one Param whose body copies it through
// views and maps of such functions.
bool copyFun(const FunDecl& f) {
  if (isView(f)) return true;
  const auto* l = f.as<Lambda>();
  return l && l->arity() == 1 && copyExpr(l->body());
}
bool copyExpr(const ExprPtr& e) {
  if (e->is<Param>()) return true;
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  const auto* m = c->f()->as<AbstractMap>();
  if (!isView(*c->f()) && !(m && copyFun(*m->f()))) return false;
  for (const auto& a : c->args())
    if (!copyExpr(a)) return false;
  return true;
}

// `inner`: the parameters of the Lambdas around e inside the step, unbound where the copy is
// issued early (before the loop, or under the previous step's guard): a copy naming one stays.
void collectStagedCopies(const ExprPtr& e, const Param* acc, const Param* elem,
                         std::vector<const Param*>& inner, std::vector<const FunCall*>& out) {
  const auto* c = e->as<FunCall>();
  if (!c) return;
  const auto* to = c->f()->as<AbstractTo>();
  if (to && to->kind() == FunKind::ToLocal && c->args().size() == 1 && isViewExpr(c->arg(0)) &&
      uses(c->arg(0), elem) && !uses(c->arg(0), acc) && !isView(*to->f()) && copyFun(*to->f()) &&
      std::none_of(inner.begin(), inner.end(),
                   [&](const Param* p) { return uses(c->arg(0), p); })) {
    out.push_back(c);
    return;
  }
  if (const auto* l = c->f()->as<Lambda>()) {
    const size_t before = inner.size();
    for (const auto& p : l->params()) inner.push_back(p.get());
    collectStagedCopies(l->body(), acc, elem, inner, out);
    inner.resize(before);
  }
  for (const auto& a : c->args()) collectStagedCopies(a, acc, elem, inner, out);
}
}  // namespace

std::vector<const FunCall*> stagedElementCopies(const Lambda& step) {
  std::vector<const FunCall*> out;
  if (step.arity() != 2) return out;
  std::vector<const Param*> inner;
  collectStagedCopies(step.body(), step.params()[0].get(), step.params()[1].get(), inner, out);
  return out;
}

}  // namespace fftc::ir
