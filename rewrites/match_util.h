// Small matchers shared by the rule files (internal to rewrites/).
#pragma once

#include "ir/expr.h"
#include "rewrites/ir_util.h"
#include "rewrites/rule.h"

namespace fftc::rewrites::detail {

inline const ir::FunCall* asCall(const ExprPtr& e) {
  return e ? e->as<ir::FunCall>() : nullptr;
}

// The callee of e as a T when e is a one-argument FunCall of a T.
template <class T>
const T* unary(const ExprPtr& e) {
  const auto* c = asCall(e);
  if (!c || c->args().size() != 1) return nullptr;
  return c->f()->as<T>();
}

inline const ExprPtr& arg0(const ExprPtr& e) {
  return asCall(e)->arg(0);
}

// e is a one-argument FunCall of exactly kind k.
inline bool isCallOf(const ExprPtr& e, ir::FunKind k) {
  const auto* c = asCall(e);
  return c && c->args().size() == 1 && c->f()->kind() == k;
}

// The inner map of a function that maps over its argument: fun r => m(r) with m a map of kind
// `k` not mentioning r, or a bare map of kind k. nullptr otherwise.
inline FunPtr innerMap(const FunPtr& f, ir::FunKind k) {
  if (f->kind() == k) return f;
  const auto* l = f->as<ir::Lambda>();
  if (!l || l->arity() != 1) return nullptr;
  const auto* c = asCall(l->body());
  if (!c || c->args().size() != 1 || c->f()->kind() != k) return nullptr;
  if (c->arg(0) != l->params()[0] || uses(c->f(), l->params()[0].get())) return nullptr;
  return c->f();
}

// fun x => m(x)
inline FunPtr etaCallOf(const FunPtr& m) {
  return lambda1("x", [&](const ExprPtr& x) { return ir::FunCall::make(m, {x}); });
}

// Every enclosing loop is a parallel map of kind k on another dimension than `dim` (the
// condition of mapGlobal(dim), mapWorkgroup(dim); both dimensions: of the 2D mappings).
inline bool onlyParallelOf(const RuleContext& ctx, ir::FunKind k, int dim) {
  for (const auto& f : ctx.enclosing()) {
    if (f->is<ir::Lambda>() || f->kind() == ir::FunKind::Iterate || f->is<ir::AbstractTo>())
      continue;
    if (f->kind() != k) return false;
    if (f->as<ir::AbstractMap>()->dim() == dim) return false;
  }
  return true;
}
// join <<: map(fun t => map(join) <<: transpose <<: t) <<: tiles: rows of tiles of r x c
// results back to the rows of results (tile2D's untile; the stencil tiles').
inline ExprPtr untile(const ExprPtr& tiles) {
  FunPtr untileRow = lambda1("t", [](const ExprPtr& t) {
    ExprPtr rows = ir::FunCall::make(ir::Transpose::make(), {t});
    return ir::FunCall::make(ir::Map::make(etaCallOf(ir::Join::make())), {rows});
  });
  return ir::FunCall::make(ir::Join::make(), {ir::FunCall::make(ir::Map::make(untileRow), {tiles})});
}
// map(f) <<: x with the map as "map" and its argument as "x" (splitJoin, splitStrideMap).
inline std::optional<Match> matchMapCall(const ExprPtr& e) {
  if (!unary<ir::Map>(e)) return std::nullopt;
  Match m;
  m.exprs = {{"x", arg0(e)}};
  m.funs = {{"map", asCall(e)->f()}};
  return m;
}

}  // namespace fftc::rewrites::detail
