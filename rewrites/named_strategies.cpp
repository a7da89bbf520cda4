// The named strategies: lowerDefault (any program -> runnable low-level program), lowerFft (the
// paper's section 4), and the passes they are built from.
#include "rewrites/named_strategies.h"

#include <algorithm>

#include "rewrites/fold_closed.h"
#include "rewrites/rules.h"

namespace fftc::rewrites {

using namespace ir;

namespace {

// s, except at a high-level map whose function only rearranges data: such maps are views
// (listing 3 keeps them as `map`), not loops.
Strategy computingOnly(Strategy s) {
  return Strategy(s.str(), [s](Engine& e, const Path& p) {
    ExprPtr x = exprAt(e.root(), p);
    const auto* c = x ? x->as<FunCall>() : nullptr;
    if (c && c->f()->kind() == FunKind::Map && isViewFun(c->f()->as<ir::Map>()->f())) return false;
    return s(e, p);
  });
}

// s, only at a mapSeq/reduceSeq over a constant size of at most `limit` elements.
Strategy smallLoopsOnly(Strategy s, int64_t limit) {
  return Strategy(s.str(), [s, limit](Engine& e, const Path& p) {
    ExprPtr x = exprAt(e.root(), p);
    const auto* c = x ? x->as<FunCall>() : nullptr;
    if (!c || (c->f()->kind() != FunKind::MapSeq && c->f()->kind() != FunKind::ReduceSeq))
      return false;
    const Type& t = c->args().back()->type();
    auto n = t.isArray() ? t.size().constant() : std::nullopt;
    if (!n || *n > limit) return false;
    return s(e, p);
  });
}

bool isLoweredLoop(const FunDecl& f) {
  return (f.is<AbstractMap>() || f.is<AbstractReduce>()) && f.isLowLevel();
}

// A view function an output can be written through: join, split, transpose, id and maps of
// such functions, applied to the Lambda's own Param.
bool writableViewFun(const FunPtr& f);
bool writableViewExpr(const ExprPtr& e, const Param* p) {
  if (e.get() == p) return true;
  const auto* c = e->as<FunCall>();
  if (!c || c->args().size() != 1) return false;
  switch (c->f()->kind()) {
    case FunKind::Join:
    case FunKind::Split:
    case FunKind::Transpose:
    case FunKind::Id:
      return writableViewExpr(c->arg(0), p);
    case FunKind::Map:
      return writableViewFun(c->f()->as<ir::Map>()->f()) && writableViewExpr(c->arg(0), p);
    default:
      return false;
  }
}
bool writableViewFun(const FunPtr& f) {
  switch (f->kind()) {
    case FunKind::Join:
    case FunKind::Split:
    case FunKind::Transpose:
    case FunKind::Id:
      return true;
    default:
      break;
  }
  const auto* l = f->as<Lambda>();
  return l && l->arity() == 1 && writableViewExpr(l->body(), l->params()[0].get());
}

// The value of e is produced by code (a loop, a scalar operation) that can write it to a
// destination, possibly through writable views.
bool outputComputed(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  const FunPtr& f = c->f();
  switch (f->kind()) {
    case FunKind::Join:
    case FunKind::Split:
    case FunKind::Transpose:
    case FunKind::Id:
      return outputComputed(c->arg(0));
    case FunKind::Map:
      if (isViewFun(f->as<ir::Map>()->f()))
        return writableViewFun(f->as<ir::Map>()->f()) && outputComputed(c->arg(0));
      return true;
    case FunKind::Lambda:
      return outputComputed(f->as<Lambda>()->body());
    default:
      return !f->isDataLayout();
  }
}

// mapSeq(fun x => copy(x)) nests down to the scalars of `t`.
ExprPtr copyOf(const ExprPtr& e, const Type& t) {
  if (!t.isArray()) return e;
  Type elem = t.element();
  FunPtr f = lambda1("x", [&](const ExprPtr& x) { return copyOf(x, elem); });
  return FunCall::make(MapSeq::make(f), {e});
}

class Materializer {
 public:
  ExprPtr expr(const ExprPtr& e) {
    const auto* c = e->as<FunCall>();
    if (!c) return e;
    FunPtr f = fun(c->f());
    if (const auto* m = f->as<AbstractMap>(); m && m->isLowLevel()) {
      if (const auto* l = m->f()->as<Lambda>();
          l && l->body()->type().isArray() && !outputComputed(l->body())) {
        FunPtr nl = Lambda::make(l->params(), copyOf(l->body(), l->body()->type()), l->loc());
        f = m->withChildren({nl}, {});
      }
    }
    std::vector<ExprPtr> args;
    for (const auto& a : c->args()) args.push_back(expr(a));
    return c->rebuild(std::move(f), std::move(args), c->type());
  }
  FunPtr fun(const FunPtr& f) {
    auto fcs = f->funChildren();
    auto ecs = f->exprChildren();
    if (fcs.empty() && ecs.empty()) return f;
    std::vector<FunPtr> nf;
    for (const auto& x : fcs) nf.push_back(fun(x));
    std::vector<ExprPtr> ne;
    for (const auto& x : ecs) ne.push_back(expr(x));
    return f->withChildren(std::move(nf), std::move(ne));
  }
};

ExprPtr materialize(const ExprPtr& root) {
  Materializer m;
  ExprPtr r = m.expr(root);
  if (r->type().isArray() && !outputComputed(r)) {
    Type elem = r->type().element();
    FunPtr f = lambda1("x", [&](const ExprPtr& x) { return copyOf(x, elem); });
    r = FunCall::make(MapGlobal::make(0, f), {r});
  }
  return r;
}

// Memory placement (see insertMemory in the header).
enum class Level { Top, WorkGroup, WorkItem };


class MemoryPlacer {
 public:
  ExprPtr expr(const ExprPtr& e, bool out, Level lvl) {
    const auto* c = e->as<FunCall>();
    if (!c) return e;
    const FunPtr& f = c->f();
    std::vector<ExprPtr> args;
    auto visitArgs = [&](bool argOut) {
      for (const auto& a : c->args()) args.push_back(expr(a, argOut, lvl));
    };
    if (isLoweredLoop(*f)) {
      FunPtr nf = loop(f, lvl);
      visitArgs(false);
      ExprPtr call = c->rebuild(nf, args, c->type());
      FunPtr wrapped;
      if (lvl == Level::Top)
        wrapped = ToGlobal::make(nf);
      else if (!out && lvl == Level::WorkGroup)
        wrapped = ToLocal::make(nf);
      else if (!out)
        wrapped = ToPrivate::make(nf);
      if (!wrapped) return call;
      return FunCall::make(wrapped, args, c->loc(), c->type());
    }
    if (const auto* t = f->as<AbstractTo>()) {
      FunPtr nf =
          isLoweredLoop(*t->f()) ? t->withChildren({loop(t->f(), lvl)}, {}) : generic(f, lvl);
      visitArgs(false);
      return c->rebuild(nf, args, c->type());
    }
    bool writable = f->kind() == FunKind::Join || f->kind() == FunKind::Split ||
                    f->kind() == FunKind::Transpose || f->kind() == FunKind::Id ||
                    (f->kind() == FunKind::Map && writableViewFun(f->as<ir::Map>()->f()));
    FunPtr nf = f;
    if (const auto* l = f->as<Lambda>()) {
      nf = l->withChildren({}, {expr(l->body(), out, lvl)});
    } else {
      nf = generic(f, lvl);
    }
    visitArgs(out && writable);
    return c->rebuild(nf, args, c->type());
  }

 private:
  // The function of a lowered map/reduce: its body writes into the loop's output.
  FunPtr loop(const FunPtr& f, Level lvl) {
    Level inner = lvl;
    switch (f->kind()) {
      case FunKind::MapGlobal:
        inner = Level::WorkItem;
        break;
      case FunKind::MapLocal:
        // A mapLocal over rows whose function has mapLocal loops of its own (F rows of a
        // work-group, each spread over dimension 0) still shares its arrays in the group.
        inner = Level::WorkItem;
        for (const auto& c : f->funChildren())
          if (containsFun(c, [](const FunDecl& g) { return g.kind() == FunKind::MapLocal; }))
            inner = Level::WorkGroup;
        break;
      case FunKind::MapWorkgroup:
        inner = Level::WorkGroup;
        break;
      // sequential code outside any parallel map runs in one work-item
      default:
        inner = lvl == Level::Top ? Level::WorkItem : lvl;
        break;
    }
    std::vector<FunPtr> nf;
    for (const auto& x : f->funChildren()) nf.push_back(body(x, inner));
    std::vector<ExprPtr> ne;
    for (const auto& x : f->exprChildren()) ne.push_back(expr(x, false, lvl));
    return f->withChildren(std::move(nf), std::move(ne));
  }
  FunPtr body(const FunPtr& f, Level lvl) {
    if (const auto* l = f->as<Lambda>()) return l->withChildren({}, {expr(l->body(), true, lvl)});
    return generic(f, lvl);
  }
  FunPtr generic(const FunPtr& f, Level lvl) {
    auto fcs = f->funChildren();
    auto ecs = f->exprChildren();
    if (fcs.empty() && ecs.empty()) return f;
    std::vector<FunPtr> nf;
    for (const auto& x : fcs) nf.push_back(body(x, lvl));
    std::vector<ExprPtr> ne;
    for (const auto& x : ecs) ne.push_back(expr(x, false, lvl));
    return f->withChildren(std::move(nf), std::move(ne));
  }
};

}  // namespace

Strategy prepare() {
  return programPass("prepare", [](const ExprPtr& e, Engine&) { return betaEta(e); });
}

// s under a name (what Strategy::str and the logs show).
Strategy named(std::string name, Strategy s) {
  return Strategy(std::move(name), [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy fuseMaps() {
  return named("fuseMaps", normalize(rules::mapFusion()));
}
Strategy fuseReduceMaps() {
  return named("fuseReduceMaps", normalize(rules::reduceMapFusion()));
}

Strategy simplifyLayout() {
  return named("simplifyLayout",
               normalize(lChoice(rules::transposeTransposeId(),
                                 lChoice(rules::joinSplitId(), rules::splitJoinId()))));
}

Strategy lowerGlobal() {
  // Outermost computing maps: mapGlobal(0) at the top, mapLocal(0) inside a mapWorkgroup
  // (mapLocal(1) where dimension 0 is taken there: the rows of a tile on dimension 0, each
  // row's elements on dimension 1); deeper ones mapSeq.
  Strategy maps = computingOnly(lChoice(
      rules::mapGlobal(0),
      lChoice(rules::mapLocal(0), lChoice(rules::mapLocal(1), rules::mapSeq()))));
  Strategy s = normalize(lChoice(maps, rules::reduceSeq()));
  return Strategy("lowerGlobal", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy unrollSmall() {
  Strategy s = normalize(smallLoopsOnly(lChoice(rules::mapSeqUnroll(), rules::reduceSeqUnroll()),
                                        kUnrollLimit));
  return Strategy("unrollSmall", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy lowerSequential() {
  Strategy s = normalize(lChoice(computingOnly(rules::mapSeq()), rules::reduceSeq()));
  return Strategy("lowerSequential", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy materializeViews() {
  return programPass("materializeViews", [](const ExprPtr& e, Engine&) { return materialize(e); });
}

Strategy insertMemory() {
  return programPass("insertMemory", [](const ExprPtr& e, Engine&) {
    MemoryPlacer m;
    return m.expr(e, true, Level::Top);
  });
}

Strategy lowerDefault() {
  Strategy s = seq({tryStrategy(prepare()), tryStrategy(foldClosedPass()), lowerGlobal(),
                    tryStrategy(materializeViews()), tryStrategy(insertMemory())});
  return Strategy("lowerDefault", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy lowerFft() {
  Strategy s = seq({tryStrategy(prepare()), tryStrategy(foldClosedPass()),
                    normalize(rules::mapZipFlattenViews()),
                    fuseReduceMaps(), lowerGlobal(), tryStrategy(unrollSmall()),
                    tryStrategy(materializeViews()), tryStrategy(insertMemory())});
  return Strategy("lowerFft", [s](Engine& e, const Path& p) { return s(e, p); });
}

const std::vector<NamedStrategyInfo>& namedStrategies() {
  static const std::vector<NamedStrategyInfo> all = {
      {"prepare", "eta-expand pattern arguments, beta-reduce applied lambdas", prepare},
      {"foldClosed", "closed array sub-expressions that compute -> tables (compile time)",
       [] { return foldClosedPass(); }},
      {"fuseMaps", "normalize(mapFusion)", fuseMaps},
      {"fuseReduceMaps", "normalize(reduceMapFusion)", fuseReduceMaps},
      {"simplifyLayout", "normalize(transposeTransposeId <+ joinSplitId <+ splitJoinId)",
       simplifyLayout},
      {"lowerGlobal",
       "outermost computing maps -> mapGlobal(0), other maps -> mapSeq, "
       "reduce -> reduceSeq (view maps stay map)",
       lowerGlobal},
      {"lowerSequential", "every computing map -> mapSeq, reduce -> reduceSeq", lowerSequential},
      {"materializeViews", "copy array results that are only views", materializeViews},
      {"insertMemory", "toGlobal on stages, toPrivate/toLocal on intermediate arrays",
       insertMemory},
      {"lowerDefault", "prepare; foldClosed; lowerGlobal; materializeViews; insertMemory",
       lowerDefault},
      {"unrollSmall", "normalize: mapSeq/reduceSeq over at most 16 elements -> mapSeqUnroll/"
                      "reduceSeqUnroll",
       unrollSmall},
      {"lowerFft",
       "prepare; foldClosed; normalize(mapZipFlattenViews); fuseReduceMaps; lowerGlobal; "
       "unrollSmall; materializeViews; insertMemory",
       lowerFft},
  };
  return all;
}

std::optional<Strategy> namedStrategy(std::string_view name) {
  for (const auto& s : namedStrategies())
    if (s.name == name) return s.make();
  return std::nullopt;
}

}  // namespace fftc::rewrites
