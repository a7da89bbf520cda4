// IRMutator, IRGraphMutator and IRVisitor (traversal.h): the child order and the
// identity-preserving rebuild every walk of the IR shares.
#include "ir/traversal.h"

namespace fftc::ir {

Children childrenOf(const ExprPtr& e) {
  Children out;
  forEachChild(
      e, [&](const FunPtr& f) { out.funs.push_back(f); },
      [&](const ExprPtr& x) { out.exprs.push_back(x); });
  return out;
}

Children childrenOf(const FunPtr& f) { return {f->funChildren(), f->exprChildren()}; }

ExprPtr IRMutator::mutateChildren(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return e;
  FunPtr f = mutate(c->f());
  std::vector<ExprPtr> args;
  args.reserve(c->args().size());
  for (const auto& a : c->args()) args.push_back(mutate(a));
  return c->rebuild(std::move(f), std::move(args), c->type());
}

ExprPtr IRMutator::mutateChildrenTyped(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return e;
  std::vector<ExprPtr> args;
  args.reserve(c->args().size());
  for (const auto& a : c->args()) args.push_back(mutate(a));
  TypedFun callee = mutateCallee(*c, args);
  return c->rebuild(std::move(callee.f), std::move(args), std::move(callee.result));
}

TypedFun IRMutator::mutateCallee(const FunCall& c, std::vector<ExprPtr>&) {
  return {mutate(c.f()), c.type()};
}

FunPtr IRMutator::mutateChildren(const FunPtr& f) {
  auto fcs = f->funChildren();
  auto ecs = f->exprChildren();
  if (fcs.empty() && ecs.empty()) return f;
  std::vector<FunPtr> nf;
  nf.reserve(fcs.size());
  for (const auto& c : fcs) nf.push_back(mutateFunChild(*f, c));
  std::vector<ExprPtr> ne;
  ne.reserve(ecs.size());
  for (const auto& c : ecs) ne.push_back(mutateExprChild(*f, c));
  return f->withChildren(std::move(nf), std::move(ne));
}

FunPtr IRMutator::mutateFunChild(const FunDecl&, const FunPtr& child) { return mutate(child); }
ExprPtr IRMutator::mutateExprChild(const FunDecl&, const ExprPtr& child) { return mutate(child); }

ExprPtr IRGraphMutator::mutate(const ExprPtr& e) {
  if (!e->is<FunCall>()) return mutateNew(e);
  if (auto it = exprs_.find(e.get()); it != exprs_.end()) return it->second;
  ExprPtr r = mutateNew(e);
  exprs_.emplace(e.get(), r);
  return r;
}

FunPtr IRGraphMutator::mutate(const FunPtr& f) {
  if (auto it = funs_.find(f.get()); it != funs_.end()) return it->second;
  FunPtr r = mutateNew(f);
  funs_.emplace(f.get(), r);
  return r;
}

// A child is visited only while the walk has not stopped.
void IRVisitor::visitChildren(const ExprPtr& e) {
  forEachChild(
      e, [this](const FunPtr& f) { if (!stop_) visit(f); },
      [this](const ExprPtr& x) { if (!stop_) visit(x); });
}

void IRVisitor::visitChildren(const FunPtr& f) {
  forEachChild(
      f, [this](const FunPtr& c) { if (!stop_) visit(c); },
      [this](const ExprPtr& x) { if (!stop_) visit(x); });
}

namespace {
class FunFinder : public IRVisitor {
 public:
  explicit FunFinder(const std::function<bool(const FunDecl&)>& pred) : pred_(pred) {}
  using IRVisitor::visit;
  void visit(const FunPtr& f) override {
    if (pred_(*f)) {
      stop_ = true;
      return;
    }
    visitChildren(f);
  }
  bool found() const { return stop_; }

 private:
  const std::function<bool(const FunDecl&)>& pred_;
};
}  // namespace

bool containsFun(const ExprPtr& e, const std::function<bool(const FunDecl&)>& pred) {
  FunFinder v(pred);
  v.visit(e);
  return v.found();
}

bool containsFun(const FunPtr& f, const std::function<bool(const FunDecl&)>& pred) {
  FunFinder v(pred);
  v.visit(f);
  return v.found();
}

}  // namespace fftc::ir
