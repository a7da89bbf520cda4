// Lowering rules: high-level map and reduce become the OpenCL-specific patterns. The side
// conditions encode where each kind of parallelism may sit (what inference's nesting check
// would otherwise reject), seen from the enclosing functions of the position.
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;
using detail::innerMap;
using detail::unary;

using detail::onlyParallelOf;

namespace {

std::optional<Match> highLevelMap(const ExprPtr& e) {
  const auto* m = unary<ir::Map>(e);
  if (!m) return std::nullopt;
  Match out;
  out.funs = {{"f", m->f()}};
  out.exprs = {{"x", arg0(e)}};
  return out;
}

std::string withDim(const char* name, int dim) {
  return std::string(name) + "(" + std::to_string(dim) + ")";
}

bool constantSize(const ExprPtr& x) {
  return x->type().isArray() && x->type().size().isConstant();
}

}  // namespace

Rule mapGlobal(int dim) {
  return Rule({withDim("mapGlobal", dim), "lowering", "map(f) -> mapGlobal(d, f)",
               "0 <= d <= 2; every enclosing loop is a mapGlobal of another dimension",
               highLevelMap,
               [dim](const Match&, const RuleContext& ctx) {
                 return dim >= 0 && dim <= 2 && onlyParallelOf(ctx, FunKind::MapGlobal, dim);
               },
               [dim](const Match& m) -> ExprPtr {
                 return FunCall::make(MapGlobal::make(dim, m.f("f")), {m.e("x")});
               }});
}

Rule mapWorkgroup(int dim) {
  return Rule({withDim("mapWorkgroup", dim), "lowering", "map(f) -> mapWorkgroup(d, f)",
               "0 <= d <= 2; every enclosing loop is a mapWorkgroup of another dimension",
               highLevelMap,
               [dim](const Match&, const RuleContext& ctx) {
                 return dim >= 0 && dim <= 2 && onlyParallelOf(ctx, FunKind::MapWorkgroup, dim);
               },
               [dim](const Match& m) -> ExprPtr {
                 return FunCall::make(MapWorkgroup::make(dim, m.f("f")), {m.e("x")});
               }});
}

namespace {
// Inside the function or the initial value of a reduction: the accumulator is one work-item's
// own (private) state, which a map spread over the work-items of a group would update in
// parts, each work-item only its own.
bool insideReduce(const RuleContext& ctx) {
  for (const auto& f : ctx.enclosing())
    if (f->is<AbstractReduce>()) return true;
  return false;
}
}  // namespace

Rule mapLocal(int dim) {
  return Rule({withDim("mapLocal", dim), "lowering", "map(f) -> mapLocal(d, f)",
               "inside a mapWorkgroup, not inside a mapLocal(d), a mapGlobal, a map or a reduction",
               highLevelMap,
               [dim](const Match&, const RuleContext& ctx) {
                 return dim >= 0 && dim <= 2 && ctx.inside(FunKind::MapWorkgroup) &&
                        !ctx.inside(FunKind::MapLocal, dim) && !ctx.inside(FunKind::MapGlobal) &&
                        !ctx.inside(FunKind::Map) && !insideReduce(ctx);
               },
               [dim](const Match& m) -> ExprPtr {
                 return FunCall::make(MapLocal::make(dim, m.f("f")), {m.e("x")});
               }});
}

Rule mapWorkgroupLocal(int dim) {
  return Rule({withDim("mapWorkgroupLocal", dim), "lowering",
               "map(map(f)) -> mapWorkgroup(d, mapLocal(d, f))",
               "as mapWorkgroup(d); f does not mention the outer parameter",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* m = unary<ir::Map>(e);
                 if (!m) return std::nullopt;
                 FunPtr inner = innerMap(m->f(), FunKind::Map);
                 if (!inner) return std::nullopt;
                 Match out;
                 out.funs = {{"f", inner->as<AbstractMap>()->f()}};
                 out.exprs = {{"x", arg0(e)}};
                 return out;
               },
               [dim](const Match&, const RuleContext& ctx) {
                 return dim >= 0 && dim <= 2 && onlyParallelOf(ctx, FunKind::MapWorkgroup, dim);
               },
               [dim](const Match& m) -> ExprPtr {
                 FunPtr f = m.f("f");
                 FunPtr local = lambda1("r", [&](const ExprPtr& r) {
                   return FunCall::make(MapLocal::make(dim, f), {r});
                 });
                 return FunCall::make(MapWorkgroup::make(dim, local), {m.e("x")});
               }});
}

namespace {
// map(fun x => map(f) <<: y) <<: xs: the two maps of a 2D mapping. Maps that only rearrange
// data (the untiling after tile2D) are left to the code generator, which makes them views: on
// work-items they would be a copy stage, which exploration need not enumerate.
std::optional<Match> nestedMaps(const ExprPtr& e) {
  const auto* m = unary<ir::Map>(e);
  if (!m || ir::isView(*m)) return std::nullopt;
  const auto* l = m->f()->as<Lambda>();
  if (!l || l->arity() != 1) return std::nullopt;
  const auto* inner = unary<ir::Map>(l->body());
  if (!inner) return std::nullopt;
  Match out;
  out.funs = {{"f", inner->f()}};
  out.params = {l->params()[0]};
  out.exprs = {{"x", arg0(e)}, {"y", arg0(l->body())}};
  return out;
}

template <typename K>
ExprPtr mapped2D(const Match& m) {
  LambdaPtr row = Lambda::make({m.params[0]}, FunCall::make(K::make(0, m.f("f")), {m.e("y")}));
  return FunCall::make(K::make(1, row), {m.e("x")});
}
}  // namespace

Rule mapGlobal2D() {
  return Rule({"mapGlobal2D", "lowering",
               "map(fun x => map(f) <<: y) -> mapGlobal(1, fun x => mapGlobal(0, f) <<: y)",
               "as mapGlobal(1) and mapGlobal(0) (every enclosing loop a mapGlobal(2)); the maps "
               "compute (not only data layout)", nestedMaps,
               [](const Match&, const RuleContext& ctx) {
                 return onlyParallelOf(ctx, FunKind::MapGlobal, 0) &&
                        onlyParallelOf(ctx, FunKind::MapGlobal, 1);
               },
               mapped2D<MapGlobal>});
}

Rule mapWorkgroup2D() {
  return Rule({"mapWorkgroup2D", "lowering",
               "map(fun x => map(f) <<: y) -> mapWorkgroup(1, fun x => mapWorkgroup(0, f) <<: y)",
               "as mapWorkgroup(1) and mapWorkgroup(0) (every enclosing loop a mapWorkgroup(2)); "
               "the maps compute",
               nestedMaps,
               [](const Match&, const RuleContext& ctx) {
                 return onlyParallelOf(ctx, FunKind::MapWorkgroup, 0) &&
                        onlyParallelOf(ctx, FunKind::MapWorkgroup, 1);
               },
               mapped2D<MapWorkgroup>});
}

Rule mapLocal2D() {
  return Rule({"mapLocal2D", "lowering",
               "map(fun x => map(f) <<: y) -> mapLocal(1, fun x => mapLocal(0, f) <<: y)",
               "as mapLocal(1) and mapLocal(0): inside a mapWorkgroup, not inside a mapLocal, a "
               "mapGlobal, a map or a reduction; the maps compute",
               nestedMaps,
               [](const Match&, const RuleContext& ctx) {
                 return ctx.inside(FunKind::MapWorkgroup) && !ctx.inside(FunKind::MapLocal) &&
                        !ctx.inside(FunKind::MapGlobal) && !ctx.inside(FunKind::Map) &&
                        !insideReduce(ctx);
               },
               mapped2D<MapLocal>});
}

Rule mapSeq() {
  return Rule({"mapSeq", "lowering", "map(f) -> mapSeq(f)", "", highLevelMap, nullptr,
               [](const Match& m) -> ExprPtr {
                 return FunCall::make(MapSeq::make(m.f("f")), {m.e("x")});
               }});
}

Rule mapSeqUnroll() {
  return Rule({"mapSeqUnroll", "lowering", "map(f) | mapSeq(f) -> mapSeqUnroll(f)",
               "the array size is a constant",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* m = unary<AbstractMap>(e);
                 if (!m || (m->kind() != FunKind::Map && m->kind() != FunKind::MapSeq))
                   return std::nullopt;
                 Match out;
                 out.funs = {{"f", m->f()}};
                 out.exprs = {{"x", arg0(e)}};
                 return out;
               },
               [](const Match& m, const RuleContext&) { return constantSize(m.e("x")); },
               [](const Match& m) -> ExprPtr {
                 return FunCall::make(MapSeqUnroll::make(m.f("f")), {m.e("x")});
               }});
}

Rule reduceSeq() {
  return Rule({"reduceSeq", "lowering", "reduce(f, z) -> reduceSeq(f, z)", "",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* r = unary<ir::Reduce>(e);
                 if (!r) return std::nullopt;
                 Match out;
                 out.funs = {{"f", r->f()}};
                 out.exprs = {{"z", r->init()}, {"x", arg0(e)}};
                 return out;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 return FunCall::make(ReduceSeq::make(m.f("f"), m.e("z")), {m.e("x")});
               }});
}

Rule reduceSeqUnroll() {
  return Rule({"reduceSeqUnroll", "lowering",
               "reduce(f, z) | reduceSeq(f, z) -> reduceSeqUnroll(f, z)",
               "the array size is a constant",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* r = unary<AbstractReduce>(e);
                 if (!r || r->kind() == FunKind::ReduceSeqUnroll) return std::nullopt;
                 // a reduceSeqPrefetch's chunks stay a loop (its loads issued a step early)
                 if (const auto* seq = dynamic_cast<const ReduceSeq*>(r); seq && seq->prefetch())
                   return std::nullopt;
                 Match out;
                 out.funs = {{"f", r->f()}};
                 out.exprs = {{"z", r->init()}, {"x", arg0(e)}};
                 return out;
               },
               [](const Match& m, const RuleContext&) { return constantSize(m.e("x")); },
               [](const Match& m) -> ExprPtr {
                 return FunCall::make(ReduceSeqUnroll::make(m.f("f"), m.e("z")), {m.e("x")});
               }});
}

// ---- memory: where the result of a lowered map or reduce is stored

namespace {

std::optional<Match> lowered(const ExprPtr& e) {
  const auto* c = asCall(e);
  if (!c) return std::nullopt;
  const FunPtr& f = c->f();
  bool ok = (f->is<AbstractMap>() || f->is<AbstractReduce>()) && f->isLowLevel();
  if (!ok) return std::nullopt;
  Match out;
  out.funs = {{"f", f}};
  out.exprs = {{"x", e}};
  return out;
}

ExprPtr wrapCallee(const Match& m, FunPtr to) {
  const auto* c = m.root->as<FunCall>();
  return FunCall::make(std::move(to), c->args());
}

}  // namespace

Rule toGlobal() {
  return Rule({"toGlobal", "memory", "m -> toGlobal(m)",
               "m is a lowered map or reduce not wrapped yet", lowered, nullptr,
               [](const Match& m) { return wrapCallee(m, ToGlobal::make(m.f("f"))); }});
}

Rule toLocal() {
  return Rule(
      {"toLocal", "memory", "m -> toLocal(m)", "m is a lowered map or reduce inside a mapWorkgroup",
       lowered,
       [](const Match&, const RuleContext& ctx) { return ctx.inside(FunKind::MapWorkgroup); },
       [](const Match& m) { return wrapCallee(m, ToLocal::make(m.f("f"))); }});
}

Rule toPrivate() {
  return Rule(
      {"toPrivate", "memory", "m -> toPrivate(m)",
       "m is a lowered map or reduce (not a mapWorkgroup)", lowered,
       [](const Match& m, const RuleContext&) { return m.f("f")->kind() != FunKind::MapWorkgroup; },
       [](const Match& m) { return wrapCallee(m, ToPrivate::make(m.f("f"))); }});
}

}  // namespace fftc::rewrites::rules
