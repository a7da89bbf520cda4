// The one traversal of the expression IR: a mutator that rebuilds only what changed (a node
// that nothing changed comes back as the same pointer, as Halide's IRMutator) and a visitor.
#pragma once

#include <functional>
#include <unordered_map>

#include "ir/expr.h"

namespace fftc::ir {

// Rewrites a program bottom-up through overridable hooks. The children of a FunCall are its
// callee, then its arguments; those of a FunDecl are funChildren(), then exprChildren() (a
// Lambda's body, reduce's init, pad's constant). A Lambda's Params are not children: they are
// identities, rebound only by a subclass that means to (see freshen in substitute.h).
//
// A subclass that overrides one mutate overload writes `using IRMutator::mutate;` to keep the
// other. Contract: mutate returns its argument itself when no child changed, and a new node only when
// one did (FunCall::rebuild and FunDecl::withChildren keep this), so callers may test
// `result == input` for "nothing happened" and shared subtrees stay shared.
class IRMutator {
 public:
  virtual ~IRMutator() = default;
  virtual ExprPtr mutate(const ExprPtr& e) { return mutateChildren(e); }
  virtual FunPtr mutate(const FunPtr& f) { return mutateChildren(f); }

 protected:
  // The default step: every child through mutate (a FunDecl's through the two hooks below),
  // the node rebuilt only if a child changed. A rebuilt FunCall keeps its old type (callers
  // that change types re-infer).
  ExprPtr mutateChildren(const ExprPtr& e);
  FunPtr mutateChildren(const FunPtr& f);
  // A child of a FunDecl, for mutations that depend on the parent (eta-expanding the function
  // of a map, placing a loop body's memory one level down). By default: mutate(child).
  virtual FunPtr mutateFunChild(const FunDecl& parent, const FunPtr& child);
  virtual ExprPtr mutateExprChild(const FunDecl& parent, const ExprPtr& child);
};

// An IRMutator that maps each distinct node once (the IR is a DAG: the front end shares
// subtrees): a node reached twice gives the same result, so sharing survives and the cost is
// the number of distinct nodes, not of paths. Only for mutations that do not depend on where
// a node is reached from (so not with the parent hooks). Params are not memoized (a subclass
// may count their uses).
class IRGraphMutator : public IRMutator {
 public:
  ExprPtr mutate(const ExprPtr& e) override;
  FunPtr mutate(const FunPtr& f) override;

 protected:
  // What mutate does at a node not seen before: by default, the children.
  virtual ExprPtr mutateNew(const ExprPtr& e) { return mutateChildren(e); }
  virtual FunPtr mutateNew(const FunPtr& f) { return mutateChildren(f); }

 private:
  std::unordered_map<const Expr*, ExprPtr> exprs_;
  std::unordered_map<const FunDecl*, FunPtr> funs_;
};

// A read-only walk in the same order as IRMutator. Override visit and call visitChildren to go
// deeper; set stop_ to end the walk early (an `any` query).
class IRVisitor {
 public:
  virtual ~IRVisitor() = default;
  virtual void visit(const ExprPtr& e) { visitChildren(e); }
  virtual void visit(const FunPtr& f) { visitChildren(f); }

 protected:
  void visitChildren(const ExprPtr& e);
  void visitChildren(const FunPtr& f);
  bool stop_ = false;
};

// Some FunDecl in e or f (callees, nested functions, functions inside nested expressions, at
// any depth; f itself included) satisfies pred.
bool containsFun(const ExprPtr& e, const std::function<bool(const FunDecl&)>& pred);
bool containsFun(const FunPtr& f, const std::function<bool(const FunDecl&)>& pred);

}  // namespace fftc::ir
