// The one traversal of the expression IR: a mutator that rebuilds only what changed (a node
// that nothing changed comes back as the same pointer, as Halide's IRMutator) and a visitor.
#pragma once

#include <algorithm>
#include <functional>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/expr.h"

namespace fftc::ir {

// The children of a node in the traversal's one order: a FunCall's callee, then its arguments;
// a FunDecl's funChildren(), then exprChildren(); a Param or Literal has none. The visitor and
// the bottom-up fold go through forEachChild; a walk over two trees in lockstep (alpha
// equality) compares childrenOf() lists.
template <class OnFun, class OnExpr>
void forEachChild(const ExprPtr& e, OnFun&& onFun, OnExpr&& onExpr) {
  const auto* c = e->as<FunCall>();
  if (!c) return;
  onFun(c->f());
  for (const auto& a : c->args()) onExpr(a);
}
template <class OnFun, class OnExpr>
void forEachChild(const FunPtr& f, OnFun&& onFun, OnExpr&& onExpr) {
  for (const auto& c : f->funChildren()) onFun(c);
  for (const auto& c : f->exprChildren()) onExpr(c);
}
struct Children {
  std::vector<FunPtr> funs;
  std::vector<ExprPtr> exprs;
};
Children childrenOf(const ExprPtr& e);
Children childrenOf(const FunPtr& f);

// A function with the type of the call that applies it (type inference's unit of work).
struct TypedFun {
  FunPtr f;     // the (typed) function
  Type result;  // the type of f(args)
};

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
  // The FunCall step of a mutator that types as it goes (type inference): the arguments first,
  // each through mutate, then mutateCallee, which sees them (and their types), may convert
  // them in place and returns the callee with the call's type. The call is rebuilt only if
  // something changed. mutateChildren keeps the callee-first order every other walk uses.
  ExprPtr mutateChildrenTyped(const ExprPtr& e);
  // By default: the callee through mutate, the call's type kept.
  virtual TypedFun mutateCallee(const FunCall& c, std::vector<ExprPtr>& args);
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

// A bottom-up analysis on the visitor: a node's value is computed from its children's values
// (in forEachChild's order), once for each distinct node (the IR is a DAG), and remembered for
// later queries on the same IRFold (the nodes are kept alive, so an address is never reused).
// Subclasses give the value of a leaf (Param, Literal), of a FunCall and of a FunDecl.
template <class T>
class IRFold : private IRVisitor {
 public:
  const T& of(const ExprPtr& e) {
    visit(e);
    return *last_;
  }
  const T& of(const FunPtr& f) {
    visit(f);
    return *last_;
  }

 protected:
  virtual T leaf(const ExprPtr& e) = 0;
  // children: the callee's value, then the arguments'.
  virtual T call(const FunCall& c, const std::vector<const T*>& children) = 0;
  // children: the values of funChildren(), then of exprChildren().
  virtual T fun(const FunDecl& f, const std::vector<const T*>& children) = 0;

 private:
  template <class Node>
  struct Entry {
    Node node;
    T value;
  };
  void visit(const ExprPtr& e) override {
    auto it = exprs_.find(e.get());
    if (it == exprs_.end()) {
      T v = e->is<FunCall>() ? call(*e->as<FunCall>(), childValues(e)) : leaf(e);
      it = exprs_.emplace(e.get(), Entry<ExprPtr>{e, std::move(v)}).first;
    }
    done(&it->second.value);
  }
  void visit(const FunPtr& f) override {
    auto it = funs_.find(f.get());
    if (it == funs_.end()) {
      T v = fun(*f, childValues(f));
      it = funs_.emplace(f.get(), Entry<FunPtr>{f, std::move(v)}).first;
    }
    done(&it->second.value);
  }
  // The children's values, collected as each child's visit ends (done). Pointers into the
  // maps stay valid: unordered_map never moves its elements.
  template <class Node>
  std::vector<const T*> childValues(const Node& n) {
    frames_.emplace_back();
    visitChildren(n);
    std::vector<const T*> vs = std::move(frames_.back());
    frames_.pop_back();
    return vs;
  }
  void done(const T* v) {
    last_ = v;
    if (!frames_.empty()) frames_.back().push_back(v);
  }
  std::unordered_map<const Expr*, Entry<ExprPtr>> exprs_;
  std::unordered_map<const FunDecl*, Entry<FunPtr>> funs_;
  std::vector<std::vector<const T*>> frames_;
  const T* last_ = nullptr;
};

// How deeply a program nests: a Param or Literal is 1 deep, a FunCall or FunDecl one more than
// its deepest child (a FunDecl with no children is 1). The front end bounds it.
class NestingDepth : public IRFold<int> {
 protected:
  int leaf(const ExprPtr&) override { return 1; }
  int call(const FunCall&, const std::vector<const int*>& cs) override { return 1 + deepest(cs); }
  int fun(const FunDecl&, const std::vector<const int*>& cs) override { return 1 + deepest(cs); }

 private:
  static int deepest(const std::vector<const int*>& cs) {
    int d = 0;
    for (const int* c : cs) d = std::max(d, *c);
    return d;
  }
};

// Some FunDecl in e or f (callees, nested functions, functions inside nested expressions, at
// any depth; f itself included) satisfies pred.
bool containsFun(const ExprPtr& e, const std::function<bool(const FunDecl&)>& pred);
bool containsFun(const FunPtr& f, const std::function<bool(const FunDecl&)>& pred);

}  // namespace fftc::ir
