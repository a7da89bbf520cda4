// Generic IR machinery the rewrite system is built on: positions (paths) in a program, free
// Params, capture-free substitution, beta reduction where it costs nothing, eta expansion.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"

namespace fftc::rewrites {

using ir::ExprPtr;
using ir::FunPtr;
using ir::LambdaPtr;
using ir::ParamPtr;

// A position in a program: child indices from the root. The children of an expression are, in
// this order: the expressions nested in the callee of a FunCall (lambda bodies, reduce inits,
// pad constants; depth first through function children), then the FunCall's arguments.
// Params and Literals have none. Only expressions are positions: a function is rewritten by
// rewriting the FunCall that applies it (programs are kept eta-expanded for this; see betaEta).
using Path = std::vector<uint32_t>;
std::string pathStr(const Path& p);  // "0.2.1", "root" for {}

struct Child {
  ExprPtr expr;
  // The functions passed through on the way from the parent to this child, outermost first:
  // for map(fun x => b)(a), b is reached through {map, fun}; a through {}.
  std::vector<FunPtr> through;
};
std::vector<Child> children(const ExprPtr& e);
size_t childCount(const ExprPtr& e);
// e with child i replaced (e itself when c is already that child).
ExprPtr replaceChild(const ExprPtr& e, size_t i, const ExprPtr& c);

// nullptr when the path leads nowhere. Walks down from the longest prefix `path` shares with
// the previous lookup (positions of a traversal are near one another).
ExprPtr exprAt(const ExprPtr& root, const Path& path);

// The Path buffer of a traversal that moves by push and pop (topDown and its kin): exprAt at
// its current position costs O(1) while no other lookup came in between, where a plain Path
// costs a comparison with the previous one and a copy per child (both O(depth): quadratic
// per traversal of a program thousands of levels deep). Stack-scoped: the most recent one
// alive is the one exprAt keeps track of.
class TrackedPath {
 public:
  explicit TrackedPath(Path start);
  ~TrackedPath();
  TrackedPath(const TrackedPath&) = delete;
  TrackedPath& operator=(const TrackedPath&) = delete;
  const Path& path() const { return path_; }
  void push(uint32_t i);
  void pop();

 private:
  Path path_;
  const TrackedPath* outer_;
};
ExprPtr replaceAt(const ExprPtr& root, const Path& path, const ExprPtr& sub);
// The functions enclosing the position (outermost first): what lowering side conditions see.
std::vector<FunPtr> enclosingAt(const ExprPtr& root, const Path& path);
// Every position of the program, in pre-order (a parent before its children).
std::vector<Path> allPaths(const ExprPtr& root);
size_t nodeCount(const ExprPtr& root);

// ---- free Params
bool uses(const ExprPtr& e, const ir::Param* p);
bool uses(const FunPtr& f, const ir::Param* p);
bool usesAny(const ExprPtr& e, const std::vector<ParamPtr>& ps);
bool usesAny(const FunPtr& f, const std::vector<ParamPtr>& ps);
struct UseCount {
  int count = 0;
  bool underFunction = false;  // some use lies inside a function child (a loop body)
};
UseCount countUses(const ExprPtr& e, const ir::Param* p);

// Replaces Params by expressions (no capture is possible: Params are identities). A
// replacement used more than once is copied with fresh Params for every further use, so a
// Lambda never binds the same Param at two places of a program.
ExprPtr substitute(const ExprPtr& e, const std::unordered_map<const ir::Param*, ExprPtr>& s);
// A copy of e in which every Lambda binds new Params (same names and types).
ExprPtr freshen(const ExprPtr& e);

// ---- building blocks of rule results
// f applied to args, beta-reduced when that neither duplicates nor moves work into a loop:
// every argument is cheap (isCheap) or its Param is used at most once and not inside a function
// child. A k-ary Lambda applied to one tuple is reduced through the tuple's components.
ExprPtr applyFun(const FunPtr& f, std::vector<ExprPtr> args);
// A function usable as a pattern's function child in eta-expanded form: a pattern p becomes
// fun x => p(x); Lambdas, Builtins and UserFuns are returned as they are.
FunPtr etaFun(const FunPtr& f);
// fun x => body(x), with a fresh Param.
LambdaPtr lambda1(const std::string& name, const std::function<ExprPtr(const ExprPtr&)>& body);

// Params, Literals and data-layout patterns over cheap expressions: no work is duplicated by
// copying them (generators evaluate an element where it is read).
bool isCheap(const ExprPtr& e);
// A function that only rearranges data: a data-layout pattern other than a generator or a
// constant pad, or a Lambda whose body is made of such patterns and high-level maps of view
// functions over Params (what the code generator treats as views, not loops).
bool isViewFun(const FunPtr& f);
bool isViewExpr(const ExprPtr& e);
// The FunCall computes values (a map/reduce variant that is not a view, a user function, a
// builtin, a toX wrapper, iterate, or an applied Lambda).
bool isComputingCall(const ExprPtr& e);
// Some map/reduce/iterate/userfun/builtin occurs anywhere in e.
bool computesAnything(const ExprPtr& e);
// Some function inside f (f itself, its function children, the functions of its expression
// children, at any depth) satisfies pred.
bool containsFun(const FunPtr& f, const std::function<bool(const ir::FunDecl&)>& pred);
bool containsFun(const ExprPtr& e, const std::function<bool(const ir::FunDecl&)>& pred);

// The normal form every strategy starts from: the function children of patterns are
// eta-expanded (map(map(f)) becomes map(fun x => map(f)(x))) so that every pattern application
// is a FunCall, and applied Lambdas are beta-reduced where applyFun allows. Returns e itself
// when it is already in this form. The result is untyped where it changed (re-infer).
ExprPtr betaEta(const ExprPtr& e);

}  // namespace fftc::rewrites
