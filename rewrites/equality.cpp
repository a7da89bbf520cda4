// Alpha-equivalence: bound Params are compared and hashed by their binding order. Both walk
// children in the traversal's order (ir/traversal.h); equality walks two trees in lockstep,
// which a one-tree visitor cannot, so it compares ir::childrenOf lists.
#include "rewrites/equality.h"

#include <functional>
#include <unordered_map>

#include "ir/traversal.h"

namespace fftc::rewrites {

using namespace ir;

namespace {

size_t mix(size_t h, size_t v) {
  return h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
}

// The attributes of a function declaration that are not children.
size_t attrHash(const FunDecl& f) {
  size_t h = static_cast<size_t>(f.kind()) * 131;
  switch (f.kind()) {
    case FunKind::Lambda:
      return mix(h, f.arity());
    case FunKind::UserFun:
      return mix(h, std::hash<std::string>()(f.name()));
    case FunKind::Builtin:
      return mix(mix(h, static_cast<size_t>(f.as<Builtin>()->op())), f.arity());
    case FunKind::Zip:
      return mix(h, f.arity());
    case FunKind::Split:
      return mix(mix(h, f.as<Split>()->chunk().hash()), f.as<Split>()->vector());
    case FunKind::Join:
      return mix(h, f.as<Join>()->scalar());
    case FunKind::ArrayGen: {
      for (const auto& s : f.as<ArrayGen>()->sizes()) h = mix(h, s.hash());
      return h;
    }
    case FunKind::Table:
      return mix(mix(h, std::hash<std::string>()(f.as<Table>()->type().str())),
                 f.as<Table>()->values().size());
    case FunKind::Pad: {
      const auto* p = f.as<Pad>();
      return mix(mix(mix(h, p->left().hash()), p->right().hash()),
                 static_cast<size_t>(p->boundary()));
    }
    case FunKind::Crop:
      return mix(mix(h, f.as<Crop>()->left().hash()), f.as<Crop>()->right().hash());
    case FunKind::Slide:
      return mix(mix(h, f.as<Slide>()->size().hash()), f.as<Slide>()->step().hash());
    case FunKind::Iterate:
      return mix(h, static_cast<size_t>(f.as<Iterate>()->count()));
    case FunKind::Get:
      return mix(h, f.as<Get>()->index());
    case FunKind::Gather: {
      for (int64_t j : f.as<Gather>()->indices()) h = mix(h, static_cast<size_t>(j));
      return h;
    }
    default:
      if (const auto* w = f.as<MapWorkgroup>())
        return mix(mix(h, static_cast<size_t>(w->dim() + 7)), static_cast<size_t>(w->cluster()));
      if (const auto* r = f.as<ReduceSeq>()) return mix(h, r->prefetch() ? 3 : 1);
      if (const auto* m = f.as<AbstractMap>()) return mix(h, static_cast<size_t>(m->dim() + 7));
      return h;
  }
}

bool attrEqual(const FunDecl& a, const FunDecl& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case FunKind::Lambda:
      return a.arity() == b.arity();
    case FunKind::UserFun:
      return &a == &b || a.name() == b.name();
    case FunKind::Builtin:
      return a.as<Builtin>()->op() == b.as<Builtin>()->op() && a.arity() == b.arity();
    case FunKind::Zip:
      return a.arity() == b.arity();
    case FunKind::Split:
      return a.as<Split>()->chunk() == b.as<Split>()->chunk() &&
             a.as<Split>()->vector() == b.as<Split>()->vector();
    case FunKind::Join:
      return a.as<Join>()->scalar() == b.as<Join>()->scalar();
    case FunKind::ArrayGen:
      return a.as<ArrayGen>()->sizes() == b.as<ArrayGen>()->sizes();
    case FunKind::Table:
      return a.as<Table>()->type() == b.as<Table>()->type() &&
             a.as<Table>()->values() == b.as<Table>()->values();
    case FunKind::Pad: {
      const auto *p = a.as<Pad>(), *q = b.as<Pad>();
      return p->left() == q->left() && p->right() == q->right() && p->boundary() == q->boundary();
    }
    case FunKind::Crop:
      return a.as<Crop>()->left() == b.as<Crop>()->left() &&
             a.as<Crop>()->right() == b.as<Crop>()->right();
    case FunKind::Slide:
      return a.as<Slide>()->size() == b.as<Slide>()->size() &&
             a.as<Slide>()->step() == b.as<Slide>()->step();
    case FunKind::Iterate:
      return a.as<Iterate>()->count() == b.as<Iterate>()->count();
    case FunKind::Get:
      return a.as<Get>()->index() == b.as<Get>()->index();
    case FunKind::Gather:
      return a.as<Gather>()->indices() == b.as<Gather>()->indices();
    default:
      if (const auto* w = a.as<MapWorkgroup>())
        return w->dim() == b.as<MapWorkgroup>()->dim() &&
               w->cluster() == b.as<MapWorkgroup>()->cluster();
      if (const auto* r = a.as<ReduceSeq>()) return r->prefetch() == b.as<ReduceSeq>()->prefetch();
      if (const auto* m = a.as<AbstractMap>()) return m->dim() == b.as<AbstractMap>()->dim();
      return true;
  }
}

bool literalEqual(const Literal& a, const Literal& b) {
  if (a.litKind() != b.litKind() || a.type() != b.type()) return false;
  if (a.litKind() == LiteralKind::Int) return a.intValue() == b.intValue();
  return a.re() == b.re() && a.im() == b.im();
}

class Eq {
 public:
  bool expr(const ExprPtr& a, const ExprPtr& b) {
    if (a == b && bound_ == 0) return true;
    if (a->kind() != b->kind()) return false;
    switch (a->kind()) {
      case ExprKind::Param: {
        auto ia = na_.find(a->as<Param>());
        auto ib = nb_.find(b->as<Param>());
        if (ia == na_.end() || ib == nb_.end()) return a == b && ia == na_.end() && ib == nb_.end();
        return ia->second == ib->second;
      }
      case ExprKind::Literal:
        return literalEqual(*a->as<Literal>(), *b->as<Literal>());
      case ExprKind::FunCall: return sameChildren(childrenOf(a), childrenOf(b));
    }
    return false;
  }
  bool fun(const FunPtr& a, const FunPtr& b) {
    if (!attrEqual(*a, *b)) return false;
    if (const auto* la = a->as<Lambda>()) {
      const auto* lb = b->as<Lambda>();
      for (size_t i = 0; i < la->arity(); ++i) {
        na_[la->params()[i].get()] = next_;
        nb_[lb->params()[i].get()] = next_++;
      }
      ++bound_;
      bool r = expr(la->body(), lb->body());
      --bound_;
      return r;
    }
    return sameChildren(childrenOf(a), childrenOf(b));
  }

 private:
  // Two nodes' children (ir::childrenOf: the traversal's order), pairwise.
  bool sameChildren(const Children& a, const Children& b) {
    if (a.funs.size() != b.funs.size() || a.exprs.size() != b.exprs.size()) return false;
    for (size_t i = 0; i < a.funs.size(); ++i)
      if (!fun(a.funs[i], b.funs[i])) return false;
    for (size_t i = 0; i < a.exprs.size(); ++i)
      if (!expr(a.exprs[i], b.exprs[i])) return false;
    return true;
  }
  std::unordered_map<const Param*, size_t> na_, nb_;
  size_t next_ = 0;
  int bound_ = 0;  // > 0 inside a Lambda: pointer-equal subtrees may still bind differently
};

class Hasher {
 public:
  size_t expr(const ExprPtr& e) {
    switch (e->kind()) {
      case ExprKind::Param: {
        auto it = num_.find(e->as<Param>());
        if (it != num_.end()) return mix(17, it->second);
        return mix(19, e->as<Param>()->id());
      }
      case ExprKind::Literal: {
        const auto* l = e->as<Literal>();
        size_t h = mix(23, static_cast<size_t>(l->litKind()));
        if (l->litKind() == LiteralKind::Int) return mix(h, l->intValue().hash());
        return mix(mix(h, std::hash<double>()(l->re())), std::hash<double>()(l->im()));
      }
      case ExprKind::FunCall: {
        size_t h = 29;  // the callee comes first
        forEachChild(
            e, [&](const FunPtr& f) { h = mix(h, fun(f)); },
            [&](const ExprPtr& a) { h = mix(h, expr(a)); });
        return h;
      }
    }
    return 0;
  }
  size_t fun(const FunPtr& f) {
    size_t h = attrHash(*f);
    if (const auto* l = f->as<Lambda>()) {
      for (const auto& p : l->params()) num_[p.get()] = next_++;
      return mix(h, expr(l->body()));
    }
    forEachChild(
        f, [&](const FunPtr& c) { h = mix(h, fun(c)); },
        [&](const ExprPtr& c) { h = mix(h, expr(c)); });
    return h;
  }

 private:
  std::unordered_map<const Param*, size_t> num_;
  size_t next_ = 0;
};

}  // namespace

bool alphaEqual(const ExprPtr& a, const ExprPtr& b) {
  Eq eq;
  return eq.expr(a, b);
}

bool alphaEqual(const FunPtr& a, const FunPtr& b) {
  Eq eq;
  return eq.fun(a, b);
}

size_t alphaHash(const ExprPtr& e) {
  Hasher h;
  return h.expr(e);
}

}  // namespace fftc::rewrites
