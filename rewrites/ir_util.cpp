// Positions, free Params, substitution, beta/eta: the generic IR machinery of the rewriter.
#include "rewrites/ir_util.h"

#include <algorithm>
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

void collect(const FunPtr& f, std::vector<FunPtr>& through, std::vector<Child>& out) {
  through.push_back(f);
  for (const auto& fc : f->funChildren()) collect(fc, through, out);
  for (const auto& ec : f->exprChildren()) out.push_back({ec, through});
  through.pop_back();
}

void collectExprs(const FunPtr& f, std::vector<ExprPtr>& out) {
  for (const auto& fc : f->funChildren()) collectExprs(fc, out);
  for (const auto& ec : f->exprChildren()) out.push_back(ec);
}

// children() without the enclosing functions: what navigation needs.
std::vector<ExprPtr> childExprs(const ExprPtr& e) {
  std::vector<ExprPtr> out;
  const auto* c = e->as<FunCall>();
  if (!c) return out;
  collectExprs(c->f(), out);
  out.insert(out.end(), c->args().begin(), c->args().end());
  return out;
}

FunPtr rebuildFun(const FunPtr& f, const std::vector<ExprPtr>& exprs, size_t& idx) {
  auto fcs = f->funChildren();
  auto ecs = f->exprChildren();
  if (fcs.empty() && ecs.empty()) return f;
  std::vector<FunPtr> nf;
  nf.reserve(fcs.size());
  for (const auto& c : fcs) nf.push_back(rebuildFun(c, exprs, idx));
  std::vector<ExprPtr> ne;
  ne.reserve(ecs.size());
  for (size_t i = 0; i < ecs.size(); ++i) ne.push_back(exprs.at(idx++));
  return f->withChildren(std::move(nf), std::move(ne));
}

// Rebuilds a FunDecl with each nested expression mapped through `fn` and each nested
// function through `ff` (identity-preserving).
FunPtr mapFun(const FunPtr& f, const std::function<FunPtr(const FunPtr&)>& ff,
              const std::function<ExprPtr(const ExprPtr&)>& fe) {
  auto fcs = f->funChildren();
  auto ecs = f->exprChildren();
  if (fcs.empty() && ecs.empty()) return f;
  std::vector<FunPtr> nf;
  for (const auto& c : fcs) nf.push_back(ff(c));
  std::vector<ExprPtr> ne;
  for (const auto& c : ecs) ne.push_back(fe(c));
  return f->withChildren(std::move(nf), std::move(ne));
}

}  // namespace

size_t childCount(const ExprPtr& e) {
  return childExprs(e).size();
}

std::vector<Child> children(const ExprPtr& e) {
  std::vector<Child> out;
  const auto* c = e->as<FunCall>();
  if (!c) return out;
  std::vector<FunPtr> through;
  collect(c->f(), through, out);
  for (const auto& a : c->args()) out.push_back({a, {}});
  return out;
}

namespace {
size_t countCalleeExprs(const FunPtr& f) {
  size_t n = f->exprChildren().size();
  for (const auto& fc : f->funChildren()) n += countCalleeExprs(fc);
  return n;
}
}  // namespace

ExprPtr replaceChild(const ExprPtr& e, size_t i, const ExprPtr& sub) {
  const auto* c = e->as<FunCall>();
  if (!c) return e;
  // An argument (the spine of a pipe): the callee stays as it is.
  if (size_t nCallee = countCalleeExprs(c->f()); i >= nCallee) {
    size_t a = i - nCallee;
    if (a >= c->args().size() || c->args()[a] == sub) return e;
    std::vector<ExprPtr> args = c->args();
    args[a] = sub;
    return c->rebuild(c->f(), std::move(args), c->type());
  }
  std::vector<ExprPtr> exprs = childExprs(e);
  if (i >= exprs.size() || exprs[i] == sub) return e;
  exprs[i] = sub;
  size_t nCallee = exprs.size() - c->args().size();
  size_t idx = 0;
  FunPtr f = rebuildFun(c->f(), exprs, idx);
  std::vector<ExprPtr> args(exprs.begin() + static_cast<std::ptrdiff_t>(nCallee), exprs.end());
  return c->rebuild(std::move(f), std::move(args), c->type());
}

namespace {
// The i-th expression child (childExprs' order) without building the list; i counts down.
ExprPtr nthInFun(const FunPtr& f, uint32_t& i) {
  for (const auto& fc : f->funChildren())
    if (ExprPtr r = nthInFun(fc, i)) return r;
  for (const auto& ec : f->exprChildren()) {
    if (i == 0) return ec;
    --i;
  }
  return nullptr;
}

ExprPtr childAt(const ExprPtr& e, uint32_t i) {
  const auto* c = e->as<FunCall>();
  if (!c) return nullptr;
  if (ExprPtr r = nthInFun(c->f(), i)) return r;
  return i < c->args().size() ? c->args()[i] : nullptr;
}

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

// ---- free Params

bool uses(const ExprPtr& e, const Param* p) {
  switch (e->kind()) {
    case ir::ExprKind::Param:
      return e.get() == p;
    case ir::ExprKind::Literal:
      return false;
    case ir::ExprKind::FunCall: {
      const auto* c = e->as<FunCall>();
      if (uses(c->f(), p)) return true;
      for (const auto& a : c->args())
        if (uses(a, p)) return true;
      return false;
    }
  }
  return false;
}

bool uses(const FunPtr& f, const Param* p) {
  for (const auto& c : f->funChildren())
    if (uses(c, p)) return true;
  for (const auto& c : f->exprChildren())
    if (uses(c, p)) return true;
  return false;
}

bool usesAny(const ExprPtr& e, const std::vector<ParamPtr>& ps) {
  for (const auto& p : ps)
    if (uses(e, p.get())) return true;
  return false;
}

bool usesAny(const FunPtr& f, const std::vector<ParamPtr>& ps) {
  for (const auto& p : ps)
    if (uses(f, p.get())) return true;
  return false;
}

namespace {
void countIn(const ExprPtr& e, const Param* p, bool under, UseCount& u);
void countInFun(const FunPtr& f, const Param* p, UseCount& u) {
  for (const auto& c : f->funChildren()) countInFun(c, p, u);
  for (const auto& c : f->exprChildren()) countIn(c, p, true, u);
}
void countIn(const ExprPtr& e, const Param* p, bool under, UseCount& u) {
  if (e.get() == p) {
    ++u.count;
    u.underFunction = u.underFunction || under;
    return;
  }
  if (const auto* c = e->as<FunCall>()) {
    // Everything nested in the callee (lambda bodies, but also reduce inits and pad constants)
    // counts as "under a function": conservative, a use there is never inlined unless cheap.
    countInFun(c->f(), p, u);
    for (const auto& a : c->args()) countIn(a, p, under, u);
  }
}
}  // namespace

UseCount countUses(const ExprPtr& e, const Param* p) {
  UseCount u;
  countIn(e, p, false, u);
  return u;
}

// ---- substitution

namespace {

class Freshener {
 public:
  ExprPtr expr(const ExprPtr& e) {
    if (const auto* p = e->as<Param>()) {
      auto it = ren_.find(p);
      return it == ren_.end() ? e : it->second;
    }
    const auto* c = e->as<FunCall>();
    if (!c) return e;
    FunPtr f = fun(c->f());
    std::vector<ExprPtr> args;
    for (const auto& a : c->args()) args.push_back(expr(a));
    return c->rebuild(std::move(f), std::move(args), c->type());
  }
  FunPtr fun(const FunPtr& f) {
    if (const auto* l = f->as<Lambda>()) {
      std::vector<ParamPtr> ps;
      for (const auto& p : l->params()) {
        ParamPtr q = p->withType(p->type());
        ren_[p.get()] = q;
        ps.push_back(q);
      }
      return Lambda::make(std::move(ps), expr(l->body()), l->loc());
    }
    return mapFun(
        f, [&](const FunPtr& x) { return fun(x); }, [&](const ExprPtr& x) { return expr(x); });
  }

 private:
  std::unordered_map<const Param*, ExprPtr> ren_;
};

bool containsLambda(const FunPtr& f);
bool containsLambda(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  if (containsLambda(c->f())) return true;
  for (const auto& a : c->args())
    if (containsLambda(a)) return true;
  return false;
}
bool containsLambda(const FunPtr& f) {
  if (f->is<Lambda>()) return true;
  for (const auto& c : f->funChildren())
    if (containsLambda(c)) return true;
  for (const auto& c : f->exprChildren())
    if (containsLambda(c)) return true;
  return false;
}

class Substituter {
 public:
  explicit Substituter(const std::unordered_map<const Param*, ExprPtr>& s) : s_(s) {}
  ExprPtr expr(const ExprPtr& e) {
    if (const auto* p = e->as<Param>()) {
      auto it = s_.find(p);
      if (it == s_.end()) return e;
      int n = seen_[p]++;
      if (n == 0 || !containsLambda(it->second)) return it->second;
      return freshen(it->second);
    }
    const auto* c = e->as<FunCall>();
    if (!c) return e;
    FunPtr f = fun(c->f());
    std::vector<ExprPtr> args;
    for (const auto& a : c->args()) args.push_back(expr(a));
    return c->rebuild(std::move(f), std::move(args), c->type());
  }
  FunPtr fun(const FunPtr& f) {
    return mapFun(
        f, [&](const FunPtr& x) { return fun(x); }, [&](const ExprPtr& x) { return expr(x); });
  }

 private:
  const std::unordered_map<const Param*, ExprPtr>& s_;
  std::unordered_map<const Param*, int> seen_;
};

}  // namespace

ExprPtr substitute(const ExprPtr& e, const std::unordered_map<const Param*, ExprPtr>& s) {
  if (s.empty()) return e;
  Substituter sub(s);
  return sub.expr(e);
}

ExprPtr freshen(const ExprPtr& e) {
  Freshener f;
  return f.expr(e);
}

// ---- building blocks

bool isCheap(const ExprPtr& e) {
  if (!e->is<FunCall>()) return true;
  const auto* c = e->as<FunCall>();
  if (!c->f()->isDataLayout()) return false;
  for (const auto& a : c->args())
    if (!isCheap(a)) return false;
  return true;
}

ExprPtr applyFun(const FunPtr& f, std::vector<ExprPtr> args) {
  const auto* l = f->as<Lambda>();
  if (!l) return FunCall::make(f, std::move(args));
  size_t k = l->arity();
  std::vector<ExprPtr> comps = args;
  if (k > 1 && args.size() == 1) {
    const auto* t = args[0]->as<FunCall>();
    const auto* b = t ? t->f()->as<ir::Builtin>() : nullptr;
    if (b && b->op() == ir::BuiltinOp::MakeTuple && t->args().size() == k) {
      comps = t->args();
    } else if (isCheap(args[0]) && (!args[0]->type() || args[0]->type().isTuple())) {
      comps.clear();
      for (size_t i = 0; i < k; ++i)
        comps.push_back(FunCall::make(ir::Get::make(i), {i == 0 ? args[0] : freshen(args[0])}));
    } else {
      return FunCall::make(f, std::move(args));
    }
  }
  if (comps.size() != k) return FunCall::make(f, std::move(args));
  std::unordered_map<const Param*, ExprPtr> s;
  for (size_t i = 0; i < k; ++i) {
    UseCount u = countUses(l->body(), l->params()[i].get());
    bool ok = isCheap(comps[i]) || u.count == 0 || (u.count == 1 && !u.underFunction);
    if (!ok) return FunCall::make(f, std::move(args));
    s[l->params()[i].get()] = comps[i];
  }
  return substitute(l->body(), s);
}

FunPtr etaFun(const FunPtr& f) {
  if (!f->isPattern() || f->arity() == 0) return f;
  std::vector<ParamPtr> ps;
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < f->arity(); ++i) {
    ps.push_back(Param::make(f->arity() == 1 ? "x" : "x" + std::to_string(i)));
    args.push_back(ps.back());
  }
  return Lambda::make(std::move(ps), FunCall::make(f, std::move(args)));
}

LambdaPtr lambda1(const std::string& name, const std::function<ExprPtr(const ExprPtr&)>& body) {
  ParamPtr p = Param::make(name);
  return Lambda::make({p}, body(p));
}

namespace {
// A data-layout pattern that is a view of its arguments (no code): not a generator or a table
// (they have no arguments; a generator's elements are computed) and not a pad with a constant
// (the constant is written). The code generator draws the same line (KernelGen::isLayoutOnly).
bool viewPattern(const FunDecl& f) {
  if (!f.isDataLayout() || f.kind() == FunKind::ArrayGen || f.kind() == FunKind::Table)
    return false;
  if (const auto* p = f.as<ir::Pad>()) return p->boundary() != ir::PadBoundary::Constant;
  return true;
}
}  // namespace

bool isViewExpr(const ExprPtr& e) {
  if (e->is<Param>()) return true;
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  const FunPtr& f = c->f();
  bool viewCallee =
      viewPattern(*f) || (f->kind() == FunKind::Map && isViewFun(f->as<ir::Map>()->f()));
  if (!viewCallee) return false;
  for (const auto& a : c->args())
    if (!isViewExpr(a)) return false;
  return true;
}

bool isViewFun(const FunPtr& f) {
  if (f->isDataLayout()) return viewPattern(*f);
  if (const auto* l = f->as<Lambda>()) return isViewExpr(l->body());
  if (f->kind() == FunKind::Map) return isViewFun(f->as<ir::Map>()->f());
  return false;
}

bool isComputingCall(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  const FunPtr& f = c->f();
  if (f->isDataLayout()) return false;
  if (f->kind() == FunKind::Map && isViewFun(f->as<ir::Map>()->f())) return false;
  return true;
}

namespace {
bool computesFun(const FunPtr& f);
}
bool computesAnything(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  if (isComputingCall(e) && !c->f()->is<Lambda>()) return true;
  if (computesFun(c->f())) return true;
  for (const auto& a : c->args())
    if (computesAnything(a)) return true;
  return false;
}
namespace {
bool computesFun(const FunPtr& f) {
  for (const auto& c : f->funChildren())
    if (computesFun(c)) return true;
  for (const auto& c : f->exprChildren())
    if (computesAnything(c)) return true;
  return false;
}
}  // namespace

bool containsFun(const FunPtr& f, const std::function<bool(const ir::FunDecl&)>& pred) {
  if (pred(*f)) return true;
  for (const auto& c : f->funChildren())
    if (containsFun(c, pred)) return true;
  for (const auto& e : f->exprChildren())
    if (containsFun(e, pred)) return true;
  return false;
}

bool containsFun(const ExprPtr& e, const std::function<bool(const ir::FunDecl&)>& pred) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  if (containsFun(c->f(), pred)) return true;
  for (const auto& a : c->args())
    if (containsFun(a, pred)) return true;
  return false;
}

// ---- betaEta

namespace {

bool etaChildOf(const FunDecl& parent) {
  return parent.is<ir::AbstractMap>() || parent.is<ir::AbstractReduce>() ||
         parent.kind() == FunKind::Iterate;
}

class Normalizer {
 public:
  ExprPtr expr(const ExprPtr& e) {
    const auto* c = e->as<FunCall>();
    if (!c) return e;
    FunPtr f = fun(c->f());
    std::vector<ExprPtr> args;
    for (const auto& a : c->args()) args.push_back(expr(a));
    if (f->is<Lambda>()) {
      ExprPtr r = applyFun(f, args);
      const auto* rc = r->as<FunCall>();
      if (!(rc && rc->f() == f && rc->args() == args)) return r;
    }
    return c->rebuild(std::move(f), std::move(args), c->type());
  }
  FunPtr fun(const FunPtr& f) {
    bool eta = etaChildOf(*f);
    return mapFun(
        f,
        [&](const FunPtr& x) {
          FunPtr g = fun(x);
          return eta ? etaFun(g) : g;
        },
        [&](const ExprPtr& x) { return expr(x); });
  }
};

}  // namespace

ExprPtr betaEta(const ExprPtr& e) {
  ExprPtr cur = e;
  for (int i = 0; i < 16; ++i) {
    Normalizer n;
    ExprPtr next = n.expr(cur);
    if (next == cur) break;
    cur = next;
  }
  return cur;
}

}  // namespace fftc::rewrites
