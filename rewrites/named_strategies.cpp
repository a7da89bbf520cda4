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
    if (c && c->f()->kind() == FunKind::Map && ir::isView(*c->f())) return false;
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

// s, only at a high-level reduce o map whose map's function has no loop of its own (a scalar
// function): fusing it removes the mapped temporary and costs no parallelism, while fusing a
// map of reductions (the partial sums of a two-level reduction) would make one loop of two.
Strategy scalarReduceMapsOnly(Strategy s) {
  return Strategy(s.str(), [s](Engine& e, const Path& p) {
    ExprPtr x = exprAt(e.root(), p);
    const auto* c = x ? x->as<FunCall>() : nullptr;
    if (!c || c->f()->kind() != FunKind::Reduce || c->args().size() != 1) return false;
    const auto* m = c->arg(0)->as<FunCall>();
    if (!m || m->f()->kind() != FunKind::Map) return false;
    const auto* map = m->f()->as<AbstractMap>();
    const bool loops = ir::containsFun(map->f(), [](const FunDecl& g) {
      return g.is<AbstractMap>() || g.is<AbstractReduce>() || g.kind() == FunKind::Iterate;
    });
    if (loops) return false;
    return s(e, p);
  });
}

// The chunk of a two-level reduction of n elements: the largest divisor k of n with k*k <= n
// (n/k partial sums of k elements each); 0 when n is small or prime.
int64_t reductionChunk(int64_t n) {
  if (n < 64) return 0;
  int64_t best = 0;
  for (int64_t k = 2; k * k <= n; ++k)
    if (n % k == 0) best = k;
  return best;
}

bool isLoweredLoop(const FunDecl& f) {
  return (f.is<AbstractMap>() || f.is<AbstractReduce>()) && f.isLowLevel();
}

// The value of e is produced by code (a loop, a scalar operation) that can write it to a
// destination, possibly through writable views (ir::isWritableView).
bool outputComputed(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  const FunDecl& f = *c->f();
  if (const auto* l = f.as<Lambda>()) return outputComputed(l->body());
  if (ir::isView(f)) return ir::isWritableView(f) && outputComputed(c->arg(0));
  return !ir::isDataLayout(f);
}

// mapSeq(fun x => copy(x)) nests down to the scalars of `t` (or its vectors: code generation
// copies a vector whole, docs/codegen.md "Vectors").
ExprPtr copyOf(const ExprPtr& e, const Type& t) {
  if (!t.isArray() || t.isVector()) return e;
  Type elem = t.element();
  FunPtr f = lambda1("x", [&](const ExprPtr& x) { return copyOf(x, elem); });
  return FunCall::make(MapSeq::make(f), {e});
}

// A lowered map whose function yields only a view of an array gets a copy loop, so that the
// map has an output to write.
class Materializer : public ir::IRMutator {
 public:
  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr& e) override {
    ExprPtr r = mutateChildren(e);
    const auto* c = r->as<FunCall>();
    const auto* m = c ? c->f()->as<AbstractMap>() : nullptr;
    if (!m || !m->isLowLevel()) return r;
    const auto* l = m->f()->as<Lambda>();
    if (!l || !l->body()->type().isArray() || l->body()->type().isVector() ||
        outputComputed(l->body()))
      return r;
    FunPtr nl = Lambda::make(l->params(), copyOf(l->body(), l->body()->type()), l->loc());
    return c->rebuild(m->withChildren({nl}, {}), c->args(), c->type());
  }
};

ExprPtr materialize(const ExprPtr& root) {
  Materializer m;
  ExprPtr r = m.mutate(root);
  if (r->type().isArray() && !outputComputed(r)) {
    Type elem = r->type().element();
    FunPtr f = lambda1("x", [&](const ExprPtr& x) { return copyOf(x, elem); });
    r = FunCall::make(MapGlobal::make(0, f), {r});
  }
  return r;
}

// Memory placement (see insertMemory in the header).
enum class Level { Top, WorkGroup, WorkItem };

// A lowered reduction whose initial value is a mapLocal (rules::stageLocal): its accumulator is
// spread over the work-items, each holding its part in its own registers; neither it nor its
// initial value is an array of the work-group to place in local memory.
bool spreadAccumulator(const FunDecl& f) {
  const auto* r = f.as<AbstractReduce>();
  if (!r || !r->isLowLevel()) return false;
  const auto* c = r->init()->as<FunCall>();
  return c && c->f()->kind() == FunKind::MapLocal;
}


// The level the function children of a lowered loop run at, for a loop at `lvl`.
Level innerLevel(const FunDecl& f, Level lvl) {
  switch (f.kind()) {
    case FunKind::MapGlobal: return Level::WorkItem;
    case FunKind::MapLocal:
      // A mapLocal over rows whose function has mapLocal loops of its own (F rows of a
      // work-group, each spread over dimension 0) still shares its arrays in the group.
      for (const auto& c : f.funChildren())
        if (ir::containsFun(c, [](const FunDecl& g) { return g.kind() == FunKind::MapLocal; }))
          return Level::WorkGroup;
      return Level::WorkItem;
    case FunKind::MapWorkgroup: return Level::WorkGroup;
    // sequential code outside any parallel map runs in one work-item
    default: return lvl == Level::Top ? Level::WorkItem : lvl;
  }
}

// Sets a member for the extent of a scope.
template <class T>
class Scoped {
 public:
  Scoped(T& var, T value) : var_(var), saved_(var) { var_ = value; }
  ~Scoped() { var_ = saved_; }
  Scoped(const Scoped&) = delete;
  Scoped& operator=(const Scoped&) = delete;

 private:
  T& var_;
  T saved_;
};

// Walks with two facts about the current expression: out_, its value is (part of) the output
// of the enclosing loop or kernel; lvl_, the level its code runs at.
class MemoryPlacer : public ir::IRMutator {
 public:
  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr& e) override {
    const auto* c = e->as<FunCall>();
    if (!c) return e;
    const FunPtr& f = c->f();
    if (isLoweredLoop(*f)) {
      FunPtr nf = loop(f);
      std::vector<ExprPtr> args = mutateArgs(*c, false);
      ExprPtr call = c->rebuild(nf, args, c->type());
      FunPtr wrapped;
      if (lvl_ == Level::Top)
        wrapped = ToGlobal::make(nf);
      else if (spreadAccumulator(*f))
        wrapped = nullptr;
      else if (!out_ && lvl_ == Level::WorkGroup)
        wrapped = ToLocal::make(nf);
      else if (!out_)
        wrapped = ToPrivate::make(nf);
      if (!wrapped) return call;
      return FunCall::make(wrapped, args, c->loc(), c->type());
    }
    if (const auto* t = f->as<AbstractTo>()) {
      FunPtr nf = isLoweredLoop(*t->f()) ? t->withChildren({loop(t->f())}, {}) : mutate(f);
      return c->rebuild(nf, mutateArgs(*c, false), c->type());
    }
    // An applied Lambda's body is where the call's value comes from: same out_ and level.
    FunPtr nf = f->is<Lambda>() ? mutateChildren(f) : mutate(f);
    bool writable = !f->is<Lambda>() && ir::isWritableView(*f);
    return c->rebuild(nf, mutateArgs(*c, out_ && writable), c->type());
  }
  // A function child: a Lambda's body writes into the loop's output; a pattern's own
  // expressions (reduce's init, pad's constant) do not.
  FunPtr mutate(const FunPtr& f) override {
    Scoped<bool> o(out_, f->is<Lambda>());
    return mutateChildren(f);
  }

 protected:
  FunPtr mutateFunChild(const FunDecl& parent, const FunPtr& child) override {
    Scoped<Level> l(lvl_, &parent == loop_ ? innerLevel(parent, lvl_) : lvl_);
    return mutate(child);
  }

 private:
  // The function of a lowered map/reduce: its body writes into the loop's output, one level
  // down; its own expressions (reduce's init) run where the loop does.
  FunPtr loop(const FunPtr& f) {
    Scoped<const FunDecl*> s(loop_, f.get());
    Scoped<bool> o(out_, spreadAccumulator(*f));
    return mutateChildren(f);
  }
  std::vector<ExprPtr> mutateArgs(const FunCall& c, bool out) {
    Scoped<bool> o(out_, out);
    std::vector<ExprPtr> args;
    for (const auto& a : c.args()) args.push_back(mutate(a));
    return args;
  }
  bool out_ = true;
  Level lvl_ = Level::Top;
  const FunDecl* loop_ = nullptr;
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

Strategy fuseScalarReduceMaps() {
  return named("fuseScalarReduceMaps", normalize(scalarReduceMapsOnly(rules::reduceMapFusion())));
}

Strategy splitTopReduce() {
  return Strategy("splitTopReduce", [](Engine& e, const Path& p) {
    ExprPtr x = exprAt(e.root(), p);
    const auto* c = x ? x->as<FunCall>() : nullptr;
    if (!c || c->f()->kind() != FunKind::Reduce || c->args().size() != 1) return false;
    const Type& t = c->arg(0)->type();
    const auto n = t.isArray() ? t.size().constant() : std::nullopt;
    const int64_t k = n ? reductionChunk(*n) : 0;
    if (k == 0) return false;
    // reduce <<: map(reduce) <<: split(k) <<: map(g) <<: y: the map moves under the split and
    // joins the chunks' reductions (reduce <<: map(reduce o map(g)) <<: split(k) <<: y)
    const auto* m = c->arg(0)->as<FunCall>();
    const bool mapped = m && m->f()->kind() == FunKind::Map;
    Strategy split = Strategy(rules::splitReduce(k));
    if (!mapped) return split(e, p);
    return seq({split, topDown(rules::splitMap()), topDown(rules::mapFusion())})(e, p);
  });
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
    return m.mutate(e);
  });
}

Strategy lowerDefault() {
  Strategy s = seq({tryStrategy(prepare()), tryStrategy(foldClosedPass()),
                    tryStrategy(splitTopReduce()), tryStrategy(fuseScalarReduceMaps()),
                    lowerGlobal(), tryStrategy(materializeViews()), tryStrategy(insertMemory())});
  return Strategy("lowerDefault", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy lowerFft() {
  Strategy s = seq({tryStrategy(prepare()), tryStrategy(foldClosedPass()),
                    normalize(rules::mapZipFlattenViews()),
                    fuseReduceMaps(), lowerGlobal(), tryStrategy(unrollSmall()),
                    tryStrategy(materializeViews()), tryStrategy(insertMemory())});
  return Strategy("lowerFft", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy lowerFftFused() {
  Strategy s = seq({tryStrategy(prepare()), tryStrategy(foldClosedPass()),
                    normalize(rules::mapZipFlattenViews()), normalize(rules::mapIntoProducer()),
                    normalize(rules::mapZipFusion()),
                    fuseReduceMaps(), lowerGlobal(), tryStrategy(unrollSmall()),
                    tryStrategy(materializeViews()), tryStrategy(insertMemory())});
  return Strategy("lowerFftFused", [s](Engine& e, const Path& p) { return s(e, p); });
}

Strategy skipZeroRows() {
  Strategy s = seq(normalize(lChoice(lChoice(rules::padThroughMap(), rules::transposePad()),
                                     rules::cropTranspose())),
                   normalize(rules::padCropFusion()));
  return Strategy("skipZeroRows", [s](Engine& e, const Path& p) { return s(e, p); });
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
      {"fuseScalarReduceMaps",
       "normalize(reduceMapFusion) where the map is high-level and its function has no loop",
       fuseScalarReduceMaps},
      {"splitTopReduce",
       "the kernel's outermost reduce of n >= 64 elements (add or mult) -> two levels: "
       "splitReduce(k) (k the largest divisor with k*k <= n), a map before it moved under the "
       "split (splitMap) and fused with the chunks' reductions (mapFusion)",
       splitTopReduce},
      {"lowerDefault",
       "prepare; foldClosed; try(splitTopReduce); fuseScalarReduceMaps; lowerGlobal; "
       "materializeViews; insertMemory",
       lowerDefault},
      {"unrollSmall", "normalize: mapSeq/reduceSeq over at most 16 elements -> mapSeqUnroll/"
                      "reduceSeqUnroll",
       unrollSmall},
      {"lowerFft",
       "prepare; foldClosed; normalize(mapZipFlattenViews); fuseReduceMaps; lowerGlobal; "
       "unrollSmall; materializeViews; insertMemory",
       lowerFft},
      {"lowerFftFused",
       "lowerFft with normalize(mapIntoProducer); normalize(mapZipFusion) after the "
       "flattening: the pointwise work after a pass done in the pass, an FFT's last pass and "
       "the next one's first as one where the views between are the identity (the fft "
       "operations' kernels)",
       lowerFftFused},
      {"skipZeroRows",
       "normalize(padThroughMap <+ transposePad <+ cropTranspose); normalize(padCropFusion): "
       "the rows a pad of an outer dimension adds never transformed, the pad read by the "
       "columns' transforms (the fft operations' expansion, before the planner's forms)",
       skipZeroRows},
  };
  return all;
}

std::optional<Strategy> namedStrategy(std::string_view name) {
  for (const auto& s : namedStrategies())
    if (s.name == name) return s.make();
  return std::nullopt;
}

}  // namespace fftc::rewrites
