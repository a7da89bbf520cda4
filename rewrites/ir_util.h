// Positions (paths) in a program and the questions rule side conditions ask of them; the
// traversal, substitution and beta-eta form they build on are the IR's own (ir/).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/beta_reduce.h"
#include "ir/expr.h"
#include "ir/substitute.h"
#include "ir/traversal.h"
#include "ir/view_predicates.h"

namespace fftc::rewrites {

using ir::ExprPtr;
using ir::FunPtr;
using ir::LambdaPtr;
using ir::ParamPtr;

// A position in a program: child indices from the root. The children of an expression are, in
// this order: the expressions nested in the callee of a FunCall (lambda bodies, reduce inits,
// pad constants; depth first through function children), then the FunCall's arguments.
// Params and Literals have none. Only expressions are positions: a function is rewritten by
// rewriting the FunCall that applies it (programs are kept eta-expanded for this; see
// ir::betaEta).
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

// ---- building blocks of rule results
// fun x => body(x), with a fresh Param.
LambdaPtr lambda1(const std::string& name, const std::function<ExprPtr(const ExprPtr&)>& body);

}  // namespace fftc::rewrites
