// Positions in a program and the side-condition questions of the rewriter (ir_util.h).
#include "rewrites/ir_util.h"

#include <functional>

namespace fftc::rewrites {

using ir::FunCall;
using ir::FunDecl;
using ir::FunKind;
using ir::Lambda;
using ir::Param;

std::string pathStr(const Path& p) {
  if (p.empty()) return "root";
  std::string s;
  for (size_t i = 0; i < p.size(); ++i) s += (i ? "." : "") + std::to_string(p[i]);
  return s;
}

namespace {

// The expression children of a FunCall in the order of ir::IRVisitor (its callee's nested
// expressions, depth first through function children, then its arguments), each with the
// functions passed through on the way.
class ChildCollector : public ir::IRVisitor {
 public:
  using IRVisitor::visit;
  void visit(const ExprPtr& e) override { out.push_back({e, through_}); }
  void visit(const FunPtr& f) override {
    through_.push_back(f);
    visitChildren(f);
    through_.pop_back();
  }
  void collect(const ExprPtr& e) { visitChildren(e); }
  std::vector<Child> out;

 private:
  std::vector<FunPtr> through_;
};

// Replaces the expression children (in ChildCollector's order) by `exprs`, rebuilding only
// what changed.
class ChildReplacer : public ir::IRMutator {
 public:
  explicit ChildReplacer(const std::vector<ExprPtr>& exprs) : exprs_(exprs) {}
  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr&) override { return exprs_.at(next_++); }
  ExprPtr replaceIn(const ExprPtr& e) { return mutateChildren(e); }

 private:
  const std::vector<ExprPtr>& exprs_;
  size_t next_ = 0;
};

// children() without the enclosing functions: what navigation needs.
std::vector<ExprPtr> childExprs(const ExprPtr& e) {
  std::vector<ExprPtr> out;
  for (auto& c : children(e)) out.push_back(std::move(c.expr));
  return out;
}

}  // namespace

size_t childCount(const ExprPtr& e) {
  return childExprs(e).size();
}

std::vector<Child> children(const ExprPtr& e) {
  ChildCollector c;
  c.collect(e);
  return std::move(c.out);
}

ExprPtr replaceChild(const ExprPtr& e, size_t i, const ExprPtr& sub) {
  if (!e->is<FunCall>()) return e;
  std::vector<ExprPtr> exprs = childExprs(e);
  if (i >= exprs.size() || exprs[i] == sub) return e;
  exprs[i] = sub;
  return ChildReplacer(exprs).replaceIn(e);
}

ExprPtr exprAt(const ExprPtr& root, const Path& path) {
  ExprPtr e = root;
  for (uint32_t i : path) {
    auto ch = childExprs(e);
    if (i >= ch.size()) return nullptr;
    e = ch[i];
  }
  return e;
}

namespace {
ExprPtr replaceAtFrom(const ExprPtr& e, const Path& path, size_t k, const ExprPtr& sub) {
  if (k == path.size()) return sub;
  auto ch = childExprs(e);
  if (path[k] >= ch.size()) return e;
  ExprPtr nc = replaceAtFrom(ch[path[k]], path, k + 1, sub);
  return replaceChild(e, path[k], nc);
}
}  // namespace

ExprPtr replaceAt(const ExprPtr& root, const Path& path, const ExprPtr& sub) {
  return replaceAtFrom(root, path, 0, sub);
}

std::vector<FunPtr> enclosingAt(const ExprPtr& root, const Path& path) {
  std::vector<FunPtr> out;
  ExprPtr e = root;
  for (uint32_t i : path) {
    auto ch = children(e);
    if (i >= ch.size()) break;
    out.insert(out.end(), ch[i].through.begin(), ch[i].through.end());
    e = ch[i].expr;
  }
  return out;
}

std::vector<Path> allPaths(const ExprPtr& root) {
  std::vector<Path> out;
  Path cur;
  std::function<void(const ExprPtr&)> rec = [&](const ExprPtr& e) {
    out.push_back(cur);
    auto ch = childExprs(e);
    for (uint32_t i = 0; i < ch.size(); ++i) {
      cur.push_back(i);
      rec(ch[i]);
      cur.pop_back();
    }
  };
  rec(root);
  return out;
}

size_t nodeCount(const ExprPtr& root) {
  size_t n = 1;
  for (const auto& c : childExprs(root)) n += nodeCount(c);
  return n;
}

// ---- building blocks

LambdaPtr lambda1(const std::string& name, const std::function<ExprPtr(const ExprPtr&)>& body) {
  ParamPtr p = Param::make(name);
  return Lambda::make({p}, body(p));
}

}  // namespace fftc::rewrites
