// Positions in a program and the side-condition questions of the rewriter (ir_util.h).
#include "rewrites/ir_util.h"

#include <algorithm>
#include <cstdint>
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

std::vector<Child> children(const ExprPtr& e) {
  ChildCollector c;
  c.collect(e);
  return std::move(c.out);
}

namespace {
// The expression children in ChildCollector's order, counted, or the i-th of them, without
// building the list (navigation asks for one child at a time).
class ChildCounter : public ir::IRVisitor {
 public:
  explicit ChildCounter(size_t wanted = SIZE_MAX) : wanted_(wanted) {}
  using IRVisitor::visit;
  void visit(const ExprPtr& e) override {
    if (count_++ == wanted_) {
      found_ = e;
      stop_ = true;
    }
  }
  size_t inCallee(const FunCall& c) {
    visit(c.f());
    return count_;
  }
  ExprPtr nth(const ExprPtr& e) {
    visitChildren(e);
    return found_;
  }
  size_t all(const ExprPtr& e) {
    visitChildren(e);
    return count_;
  }

 private:
  size_t wanted_;
  size_t count_ = 0;
  ExprPtr found_;
};
}  // namespace

// Counted, not collected: the strategies' walks ask for it at every node and every step
// (issue 21: building the list, with each child's enclosing functions, was a quarter of 65521's
// rewriting).
size_t childCount(const ExprPtr& e) {
  return ChildCounter().all(e);
}

ExprPtr replaceChild(const ExprPtr& e, size_t i, const ExprPtr& sub) {
  const auto* c = e->as<FunCall>();
  if (!c) return e;
  // An argument (the spine of a pipe): the callee stays as it is.
  if (size_t nCallee = ChildCounter().inCallee(*c); i >= nCallee) {
    size_t a = i - nCallee;
    if (a >= c->args().size() || c->args()[a] == sub) return e;
    std::vector<ExprPtr> args = c->args();
    args[a] = sub;
    return c->rebuild(c->f(), std::move(args), c->type());
  }
  std::vector<ExprPtr> exprs = childExprs(e);
  if (i >= exprs.size() || exprs[i] == sub) return e;
  exprs[i] = sub;
  return ChildReplacer(exprs).replaceIn(e);
}

namespace {
ExprPtr childAt(const ExprPtr& e, uint32_t i) { return ChildCounter(i).nth(e); }

// Strategies ask for positions in traversal order, each near the one before (a child, a
// sibling): the nodes along the last path asked for are kept, so a call walks down only from
// the longest common prefix instead of from the root (a 2000-step pipe is 6000 levels deep,
// and walking from the root made normalize cubic in the program's length). Holding `root`
// keeps its address from being reused by another program. `tracked` is the TrackedPath whose
// buffer equals `path` (kept equal by its push and pop): a lookup of it costs O(1), with no
// comparison of the whole path.
struct PathCursor {
  ExprPtr root;
  Path path;
  std::vector<ExprPtr> nodes;  // nodes[k]: the node at path[0..k)
  const Path* tracked = nullptr;
  const TrackedPath* innermost = nullptr;  // the TrackedPath made last and still alive
};
thread_local PathCursor cursor;
}  // namespace

ExprPtr exprAt(const ExprPtr& root, const Path& path) {
  PathCursor& c = cursor;
  if (c.root == root && c.tracked == &path) return c.nodes.back();
  c.tracked = nullptr;
  if (c.root != root) {
    c.root = root;
    c.path.clear();
    c.nodes.assign(1, root);
  }
  size_t k = 0;
  const size_t common = std::min(c.path.size(), path.size());
  while (k < common && c.path[k] == path[k]) ++k;
  c.path.resize(k);
  c.nodes.resize(k + 1);
  for (; k < path.size(); ++k) {
    ExprPtr ch = childAt(c.nodes.back(), path[k]);
    if (!ch) return nullptr;
    c.path.push_back(path[k]);
    c.nodes.push_back(std::move(ch));
  }
  if (c.innermost && &c.innermost->path() == &path) c.tracked = &path;
  return c.nodes.back();
}

TrackedPath::TrackedPath(Path start) : path_(std::move(start)), outer_(cursor.innermost) {
  cursor.innermost = this;
}

TrackedPath::~TrackedPath() {
  if (cursor.tracked == &path_) cursor.tracked = nullptr;
  cursor.innermost = outer_;
}

void TrackedPath::push(uint32_t i) {
  path_.push_back(i);
  PathCursor& c = cursor;
  if (c.tracked != &path_) return;
  if (ExprPtr ch = childAt(c.nodes.back(), i)) {
    c.path.push_back(i);
    c.nodes.push_back(std::move(ch));
  } else {
    c.tracked = nullptr;  // a position that does not exist: exprAt answers nullptr
  }
}

void TrackedPath::pop() {
  path_.pop_back();
  PathCursor& c = cursor;
  if (c.tracked != &path_) return;
  c.path.pop_back();
  c.nodes.pop_back();
}

namespace {
ExprPtr replaceAtFrom(const ExprPtr& e, const Path& path, size_t k, const ExprPtr& sub) {
  if (k == path.size()) return sub;
  ExprPtr ch = childAt(e, path[k]);
  if (!ch) return e;
  ExprPtr nc = replaceAtFrom(ch, path, k + 1, sub);
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
