// Local-memory staging of a work-group's tiles (LIFT's GEMM, CGO'17): the register-blocked
// tile of a matrix product reads its rows and columns in chunks of k along the reduction, each
// chunk copied once into local memory by the whole work-group, the blocks' accumulators kept in
// the work-items' registers across the chunks.
#include "ir/beta_reduce.h"
#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/view_predicates.h"
#include "rewrites/ir_util.h"
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;
using detail::unary;

namespace {

bool sameParam(const ExprPtr& e, const ParamPtr& p) { return e.get() == p.get(); }

// transpose <<: p
bool isTransposeOf(const ExprPtr& e, const ParamPtr& p) {
  const auto* t = unary<Transpose>(e);
  return t && sameParam(arg0(e), p);
}

// The views registerBlock and tile2D put over the tile's rows: split(r) <<: xs, or
// transpose <<: split(g) <<: xs (the strided columns); "leaf" is xs, "view" rebuilds the view
// over another array of rows (the same rows, shorter along the reduction).
struct RowView {
  ExprPtr leaf;
  std::function<ExprPtr(const ExprPtr&)> view;
  ArithExpr rows;  // of a block (r, or m/g of the leaf's m rows)
};
std::optional<RowView> rowView(const ExprPtr& e) {
  if (const auto* s = unary<Split>(e)) {
    ArithExpr r = s->chunk();
    return RowView{arg0(e), [r](const ExprPtr& x) { return FunCall::make(Split::make(r), {x}); },
                   r};
  }
  // map(join) <<: transpose <<: split(g) <<: split(w) <<: xs (tile2DStrideGroups' columns)
  if (const auto* mj = unary<ir::Map>(e)) {
    const auto* l = mj->f()->as<Lambda>();
    const bool joins = l && l->arity() == 1 && unary<Join>(l->body()) &&
                       sameParam(arg0(l->body()), l->params()[0]);
    const ExprPtr& t = arg0(e);
    if (joins && unary<Transpose>(t) && unary<Split>(arg0(t)) && unary<Split>(arg0(arg0(t)))) {
      const ExprPtr& grouped = arg0(arg0(t));
      ArithExpr g = unary<Split>(arg0(t))->chunk();
      ArithExpr w = unary<Split>(grouped)->chunk();
      const ExprPtr& leaf = arg0(grouped);
      return RowView{leaf,
                     [g, w](const ExprPtr& x) {
                       ExprPtr s = FunCall::make(
                           Split::make(g), {FunCall::make(Split::make(w), {x})});
                       return FunCall::make(ir::Map::make(lambda1("x", [](const ExprPtr& v) {
                                              return FunCall::make(Join::make(), {v});
                                            })),
                                            {FunCall::make(Transpose::make(), {s})});
                     },
                     leaf->type() ? leaf->type().size() / g : ArithExpr(0)};
    }
    return std::nullopt;
  }
  if (unary<Transpose>(e)) {
    if (const auto* s = unary<Split>(arg0(e))) {
      ArithExpr g = s->chunk();
      return RowView{arg0(arg0(e)), [g](const ExprPtr& x) {
                       return FunCall::make(Transpose::make(),
                                            {FunCall::make(Split::make(g), {x})});
                     },
                     arg0(arg0(e))->type() ? arg0(arg0(e))->type().size() / g : ArithExpr(0)};
    }
  }
  return std::nullopt;
}

bool insideReduceFun(const RuleContext& ctx) {
  for (const auto& f : ctx.enclosing())
    if (f->is<AbstractReduce>()) return true;
  return false;
}

// fun x => body(x), one Param
LambdaPtr fun1(const std::string& name, const std::function<ExprPtr(const ExprPtr&)>& body) {
  return lambda1(name, body);
}

// toLocal(fun t => [transpose <<:] mapLocal(1, fun row => mapLocal(0, fun v => v) <<: row) <<: t):
// a copy into local memory spread over a 2D work-group, its rows on dimension 1 and their
// elements on dimension 0 (consecutive work-items, consecutive elements of a row);
// `transposed` stores it column by column (written through the transpose).
// With w > 0 the rows are copied w elements at a time (vectorize(w)); with flat > 0 the
// copy's rows are the tile's rows of `row` elements regrouped into rows of `flat` (split(flat)
// o join, undone after the copy): a tile of short rows (A's chunk, k elements) spread over the
// whole work-group instead of w-th of its dimension 0.
FunPtr localCopy(bool transposed, int64_t w, int64_t flat = 0, int64_t rowLen = 0) {
  FunPtr elem = fun1("v", [](const ExprPtr& v) { return v; });
  FunPtr row = fun1("row", [&](const ExprPtr& r) {
    if (w > 0)
      return FunCall::make(
          Join::makeScalar(),
          {FunCall::make(MapLocal::make(0, elem), {FunCall::make(Split::makeVector(w), {r})})});
    return FunCall::make(MapLocal::make(0, elem), {r});
  });
  FunPtr copy = fun1("t", [&](const ExprPtr& t) {
    ExprPtr in = t;
    if (flat > 0)
      in = FunCall::make(Split::make(flat), {FunCall::make(Join::make(), {in})});
    ExprPtr c = FunCall::make(MapLocal::make(1, row), {in});
    if (flat > 0) c = FunCall::make(Split::make(rowLen), {FunCall::make(Join::make(), {c})});
    return transposed ? FunCall::make(Transpose::make(), {c}) : c;
  });
  return ToLocal::make(copy);
}

// transpose <<: map(split(k)) <<: rows: [[[t]k]m](K/k), chunk c the k columns c*k .. of every row
ExprPtr chunksOf(const ExprPtr& rows, const ArithExpr& k) {
  FunPtr splitRow = fun1("r", [&](const ExprPtr& r) { return FunCall::make(Split::make(k), {r}); });
  return FunCall::make(Transpose::make(), {FunCall::make(ir::Map::make(splitRow), {rows})});
}

}  // namespace

namespace {

// stageLocal's pattern, side condition and result (stageLocalVector builds on them).
std::optional<Match> stageMatch(const ExprPtr& e) {
  const auto* outer = unary<ir::Map>(e);
  if (!outer) return std::nullopt;
  const auto* lx = outer->f()->as<Lambda>();
  if (!lx || lx->arity() != 1) return std::nullopt;
  const auto* inner = unary<ir::Map>(lx->body());
  if (!inner) return std::nullopt;
  const auto* ly = inner->f()->as<Lambda>();
  if (!ly || ly->arity() != 1) return std::nullopt;
  const ParamPtr& xb = lx->params()[0];
  const ParamPtr& yb = ly->params()[0];
  const auto* red = unary<AbstractReduce>(ly->body());
  if (!red || red->kind() == FunKind::ReduceSeqUnroll) return std::nullopt;
  const auto* z = asCall(arg0(ly->body()));
  if (!z || !z->f()->is<Zip>() || z->args().size() != 2) return std::nullopt;
  size_t xAt = 0;
  if (isTransposeOf(z->arg(0), xb) && isTransposeOf(z->arg(1), yb))
    xAt = 0;
  else if (isTransposeOf(z->arg(0), yb) && isTransposeOf(z->arg(1), xb))
    xAt = 1;
  else
    return std::nullopt;
  if (uses(red->f(), xb.get()) || uses(red->f(), yb.get())) return std::nullopt;
  const ExprPtr& ys = arg0(lx->body());
  if (uses(ys, xb.get())) return std::nullopt;
  auto xv = rowView(arg0(e));
  auto yv = rowView(ys);
  if (!xv || !yv) return std::nullopt;
  Match m;
  m.params = {xb, yb};
  m.index = xAt;
  m.funs = {{"reduce", red->ptr()}, {"f", red->f()}};
  m.exprs = {{"z", red->init()}, {"xs", xv->leaf}, {"ys", yv->leaf}, {"X", arg0(e)},
             {"Y", ys}};
  return m;
}

bool stageCondition(const Match& m, const RuleContext& ctx, const ArithExpr& k) {
  const Type& xs = m.e("xs")->type();
  const Type& ys = m.e("ys")->type();
  if (!xs.isArray() || !xs.element().isArray() || !ys.isArray() ||
      !ys.element().isArray())
    return false;
  const ArithExpr K = xs.element().size();
  if (!sizesEqual(K, ys.element().size()) || !provablyPositive(k) ||
      !provablyDivisible(K, k) || sizesEqual(K, k))
    return false;
  return ctx.inside(FunKind::MapWorkgroup) && !ctx.inside(FunKind::MapLocal) &&
         !ctx.inside(FunKind::MapGlobal) && !ctx.inside(FunKind::Map) &&
         !insideReduceFun(ctx);
}

// (vectorizeOperand's pieces, below)
std::vector<size_t> vectorOperands(const Lambda& f, const std::vector<Type>& comps,
                                   const ArithExpr& n);
FunPtr vectorizedStep(const Lambda& f, const std::vector<size_t>& which, const ArithExpr& n);
ExprPtr vectorCopy(const ExprPtr& x, const ArithExpr& n);

// stageLocal's result; with w > 0, its copies and the blocks' operands vectorized (w of the
// element type: stageLocalVector).
ExprPtr stageResult(const Match& m, const ArithExpr& k, int64_t w = 0, bool prefetch = false) {
  auto xv = rowView(m.e("X"));
  auto yv = rowView(m.e("Y"));
  const ParamPtr& xb = m.params[0];
  const ParamPtr& yb = m.params[1];
  // the blocks' accumulators, spread over the work-items
  LambdaPtr initCol = Lambda::make({yb}, m.e("z"));
  LambdaPtr initRow =
      Lambda::make({xb}, FunCall::make(MapLocal::make(0, initCol), {m.e("Y")}));
  ExprPtr init = FunCall::make(MapLocal::make(1, initRow), {m.e("X")});
  // one chunk: copies to local memory, then every block's fold over the chunk
  ParamPtr acc = Param::make("acc"), ch = Param::make("ch");
  // A's chunk [[t]k]m: with vectors, rows of k/w vectors would leave most of dimension 0 idle
  // (4 of 16 work-items at k = 16), so its m k elements are copied as rows of W w, W the
  // work-group's extent in dimension 0 (the blocks' columns), when that divides them
  int64_t flat = 0;
  const int64_t kc = k.constant().value_or(0);
  const int64_t W = m.e("Y")->type() ? m.e("Y")->type().size().constant().value_or(0) : 0;
  const int64_t rows = m.e("xs")->type().size().constant().value_or(0);
  if (w > 0 && kc > 0 && W > 0 && rows > 0 && kc % w == 0 && (rows * kc) % (W * w) == 0 &&
      W * w > kc)
    flat = W * w;
  ExprPtr la = FunCall::make(localCopy(true, w, flat, kc), {get(0, ch)});
  ExprPtr lb = FunCall::make(localCopy(false, w),
                             {FunCall::make(Transpose::make(), {get(1, ch)})});
  ExprPtr xrows = xv->view(FunCall::make(Transpose::make(), {la}));
  ExprPtr yrows = yv->view(FunCall::make(Transpose::make(), {lb}));
  // the staged columns bound outside the blocks' loops (copied once a chunk, not once a
  // row of blocks)
  ParamPtr ycols = Param::make("ly");
  const size_t xAt = m.index;
  FunPtr stepFun = m.f("f");
  if (w > 0) {
    const Type t = m.e("xs")->type().element().element();
    std::vector<Type> comps = {Type::array(t, xv->rows), Type::array(t, yv->rows)};
    if (xAt == 1) std::swap(comps[0], comps[1]);
    const auto* f = stepFun->as<Lambda>();
    if (f && f->arity() == 2) {
      auto which = vectorOperands(*f, comps, ArithExpr(w));
      if (!which.empty()) stepFun = vectorizedStep(*f, which, ArithExpr(w));
    }
  }
  FunPtr perRow = fun1("q", [&](const ExprPtr& q) {
    ExprPtr xrow = get(1, q);
    FunPtr perBlock = fun1("s", [&](const ExprPtr& s) {
      ExprPtr tx = FunCall::make(Transpose::make(), {xrow});
      ExprPtr ty = FunCall::make(Transpose::make(), {get(1, s)});
      ExprPtr zipped = FunCall::make(Zip::make(2), {xAt == 0 ? tx : ty, xAt == 0 ? ty : tx});
      return FunCall::make(m.f("reduce")->withChildren({stepFun}, {get(0, s)}), {zipped});
    });
    return FunCall::make(MapLocal::make(0, perBlock),
                         {FunCall::make(Zip::make(2), {get(0, q), ycols})});
  });
  ExprPtr blocks = FunCall::make(MapLocal::make(1, perRow),
                                 {FunCall::make(Zip::make(2), {acc, xrows})});
  ExprPtr step = FunCall::make(Lambda::make({ycols}, blocks), {yrows});
  LambdaPtr stepF = Lambda::make({acc, ch}, step);
  ExprPtr chunks = FunCall::make(
      Zip::make(2), {chunksOf(m.e("xs"), k), chunksOf(m.e("ys"), k)});
  ExprPtr folded = FunCall::make(
      prefetch ? ReduceSeq::makePrefetch(stepF, init) : ReduceSeq::make(stepF, init), {chunks});
  // the blocks written out by the work-items that hold them; with vectors, a block's rows
  // copied w elements at a time where w divides them (one vector store each where the row's
  // columns are adjacent in the result: registerBlockVector's groups)
  const bool vectorRows = w > 0 && provablyDivisible(yv->rows, ArithExpr(w));
  FunPtr outRow = fun1("ar", [&](const ExprPtr& ar) {
    FunPtr same = fun1("a", [&](const ExprPtr& a) -> ExprPtr {
      if (!vectorRows) return a;
      FunPtr row = fun1("row", [&](const ExprPtr& r) { return vectorCopy(r, ArithExpr(w)); });
      return FunCall::make(MapSeq::make(row), {a});
    });
    return FunCall::make(MapLocal::make(0, same), {ar});
  });
  return FunCall::make(MapLocal::make(1, outRow), {folded});
}

}  // namespace

// At the map over a work-group tile's register blocks (registerBlock's result, before mapLocal2D):
//   map(fun xb => map(fun yb => reduce(f, z) <<: zip(transpose(xb), transpose(yb))) <<: Y(ys))
//     <<: X(xs)                     xs: [[t]K]m rows, ys: [[t]K]n columns, X, Y row views
// -> mapLocal(1, fun ar => mapLocal(0, fun a => a) <<: ar)
//    <<: reduceSeq(fun (acc, ch) =>
//          (fun ly => mapLocal(1, fun (ar, xb) => mapLocal(0, fun (a, yb) =>
//              reduce(f, a) <<: zip(transpose(xb), transpose(yb))) <<: zip(ar, ly))
//           <<: zip(acc, X(transpose(la))))(Y(transpose(lb))),
//        mapLocal(1, fun xb => mapLocal(0, fun yb => z) <<: Y(ys)) <<: X(xs))
//    <<: zip(transpose <<: map(split(k)) <<: xs, transpose <<: map(split(k)) <<: ys)
//   la = toLocal(transpose o mapLocal(1, mapLocal(0, id))) <<: ch._0        ([[t]m]k)
//   lb = toLocal(mapLocal(1, mapLocal(0, id))) <<: transpose <<: ch._1      ([[t]n]k)
// Why it holds: a fold over K elements is the fold over the K/k chunks of the folds over each
// chunk, started from the previous one's result (no reassociation: exact for any f); the
// blocks' folds over the same chunks run in lockstep, their accumulators one array (the
// map-reduce interchange at the work-group level); chunk c of X(xs)'s rows is X of chunk c of
// xs's rows (X and Y only regroup rows); la and lb are copies (the identity), stored column by
// column so that a block's rows of a chunk column are adjacent. The copies read xs along its
// rows and ys across them on dimension 0 (coalesced for the row-major A and B of C = A B).
// Lowered by the rule itself (LIFT's local-memory step): the copies toLocal o mapLocal2D, the
// blocks on mapLocal2D as mapLocal2D would put them, the accumulators of the blocks spread
// over the work-items (codegen keeps work-item (i, j)'s block in its own registers), and the
// result copied out by the same work-items.
Rule stageLocal(ArithExpr k) {
  std::string name = "stageLocal(" + k.str() + ")";
  return Rule(
      {name, "memory",
       "map(fun xb => map(fun yb => reduce(f, z) <<: zip(transpose(xb), transpose(yb))) <<: "
       "Y(ys)) <<: X(xs) -> mapLocal2D(id) <<: reduceSeq(fun (acc, ch) => mapLocal2D(reduce(f, "
       "a) of the chunk's blocks, read from toLocal copies of ch), mapLocal2D(z)) <<: "
       "zip(chunks of k of xs, of ys)",
       "inside a mapWorkgroup, not inside a mapLocal, mapGlobal, map or reduction; X, Y split(r) "
       "or transpose o split(g) of rows of K; f does not mention xb, yb; 0 < k < K, k provably "
       "divides K",
       stageMatch, [k](const Match& m, const RuleContext& ctx) { return stageCondition(m, ctx, k); },
       [k](const Match& m) { return stageResult(m, k); }});
}

namespace {

// A copy: fun v => v, or id.
bool isCopyFun(const FunPtr& f) {
  if (f->is<Id>()) return true;
  const auto* l = f->as<Lambda>();
  return l && l->arity() == 1 && sameParam(l->body(), l->params()[0]);
}

// The vector width of 16 bytes for scalars of type t (float4, double2), 0 for other types.
int64_t vectorWidth(const Type& t) {
  if (!t.isScalar()) return 0;
  return t.scalarKind() == ScalarKind::Double ? 2 : 4;
}

// Whether an array of type t may be read as vectors of n: t = [s]m with s a scalar, n 2 or 4,
// n elements of s at most 16 bytes (float4, double2), n provably dividing m.
bool vectorizable(const Type& t, const ArithExpr& n) {
  const auto w = n.constant();
  if (!w || (*w != 2 && *w != 4) || !t.isArray() || t.isVector() || !t.element().isScalar())
    return false;
  return *w <= vectorWidth(t.element()) && provablyDivisible(t.size(), n);
}

// asScalar <<: mapSeq(fun v => v) <<: asVector(n) <<: x
ExprPtr vectorCopy(const ExprPtr& x, const ArithExpr& n) {
  FunPtr copy = fun1("v", [](const ExprPtr& v) { return v; });
  ExprPtr vecs = FunCall::make(Split::makeVector(n), {x});
  return FunCall::make(Join::makeScalar(), {FunCall::make(MapSeq::make(copy), {vecs})});
}

// get(i, p) in e
bool isGetOf(const ExprPtr& e, const Param* p, size_t i) {
  const auto* g = unary<Get>(e);
  return g && g->index() == i && arg0(e).get() == p;
}
// Whether e reads get(i, p) other than as asVector's argument (a copy vectorizeOperand made:
// reading it again would copy it again, and normalize would never settle).
bool usesGet(const ExprPtr& e, const Param* p, size_t i) {
  if (isGetOf(e, p, i)) return true;
  if (const auto* c = e->as<FunCall>()) {
    const auto* split = c->f()->as<Split>();
    if (split && split->vector() && c->args().size() == 1 && isGetOf(c->arg(0), p, i))
      return false;
  }
  for (const auto& c : children(e))
    if (usesGet(c.expr, p, i)) return true;
  return false;
}
// e with every get(i, p) replaced by q
ExprPtr replaceGets(const ExprPtr& e, const Param* p, size_t i, const ExprPtr& q) {
  if (isGetOf(e, p, i)) return q;
  ExprPtr out = e;
  const std::vector<Child> cs = children(e);
  for (size_t c = 0; c < cs.size(); ++c) {
    ExprPtr r = replaceGets(cs[c].expr, p, i, q);
    if (r != cs[c].expr) out = replaceChild(out, c, r);
  }
  return out;
}

// The components of a reduction's tuple elements (types comps) that vectorizeOperand(n)
// copies: arrays of scalars whose size n divides, read by the step f as p._i.
std::vector<size_t> vectorOperands(const Lambda& f, const std::vector<Type>& comps,
                                   const ArithExpr& n) {
  std::vector<size_t> out;
  const Param* p = f.params()[1].get();
  for (size_t i = 0; i < comps.size(); ++i)
    if (vectorizable(comps[i], n) && usesGet(f.body(), p, i)) out.push_back(i);
  return out;
}

// fun (acc, p) => (fun q => e[p._i := q])(asScalar <<: mapSeq(id) <<: asVector(n) <<: p._i),
// for each i of `which`
FunPtr vectorizedStep(const Lambda& f, const std::vector<size_t>& which, const ArithExpr& n) {
  const ParamPtr& p = f.params()[1];
  ExprPtr body = f.body();
  for (size_t i : which) {
    ParamPtr q = Param::make("q");
    body = applyFun(Lambda::make({q}, replaceGets(body, p.get(), i, q)),
                    {vectorCopy(get(i, p), n)});
  }
  return Lambda::make(f.params(), body);
}

}  // namespace

// mapK(fun v => v) <<: x -> asScalar <<: mapK(fun v => v) <<: asVector(n) <<: x
// Why it holds: asVector(n) is split(n) (its chunks typed as vectors) and asScalar is join, so
// the right side is join o map(id) o split(n) = join o split(n) = id = map(id) (n divides the
// size); exact for any element type. The map keeps its kind and dimension, so a lowered copy
// stays where it was, now one work-item (or iteration) per n elements.
Rule vectorize(ArithExpr n) {
  std::string name = "vectorize(" + n.str() + ")";
  return Rule(
      {name, "memory", "mapK(id) <<: x -> asScalar <<: mapK(id) <<: asVector(n) <<: x",
       "x: [t]m, t a scalar, n in {2, 4} provably divides m, n elements of t at most 16 bytes "
       "(float4, double2); mapK a map, mapGlobal, mapWorkgroup, mapLocal, mapSeq or mapSeqUnroll",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* m = unary<AbstractMap>(e);
         if (!m || !isCopyFun(m->f())) return std::nullopt;
         Match out;
         out.funs = {{"map", m->ptr()}};
         out.exprs = {{"x", arg0(e)}};
         return out;
       },
       [n](const Match& m, const RuleContext&) { return vectorizable(m.e("x")->type(), n); },
       [n](const Match& m) -> ExprPtr {
         FunPtr copy = fun1("v", [](const ExprPtr& v) { return v; });
         FunPtr map = m.f("map")->withChildren({copy}, {});
         ExprPtr vecs = FunCall::make(Split::makeVector(n), {m.e("x")});
         return FunCall::make(Join::makeScalar(), {FunCall::make(map, {vecs})});
       }});
}

// reduceK(fun (acc, p) => e, z) <<: xs, xs: [(.., [t]m, ..)]K
// -> reduceK(fun (acc, p) => (fun q => e[p._i := q])(asScalar <<: mapSeq(fun v => v) <<:
//      asVector(n) <<: p._i), z) <<: xs         for every such component i that e reads
// Why it holds: the copy is the identity (vectorize), and binding it to q and reading q where e
// read p._i is beta reduction backwards. What it is for: the step's operand (a register
// block's column of A, read from local memory) is read into private memory n elements at a
// time, each one vector load where it is contiguous and aligned (docs/codegen.md, "Vectors").
Rule vectorizeOperand(ArithExpr n) {
  std::string name = "vectorizeOperand(" + n.str() + ")";
  return Rule(
      {name, "memory",
       "reduce(fun (acc, p) => e, z) -> reduce(fun (acc, p) => (fun q => e[p._i := q])("
       "asScalar <<: mapSeq(id) <<: asVector(n) <<: p._i), z)",
       "the elements are tuples; for each component i an array of scalars [t]m that e reads as "
       "p._i, n in {2, 4} provably divides m, n elements of t at most 16 bytes; at least one",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* r = unary<AbstractReduce>(e);
         if (!r) return std::nullopt;
         const auto* f = r->f()->as<Lambda>();
         if (!f || f->arity() != 2) return std::nullopt;
         Match out;
         out.funs = {{"reduce", r->ptr()}, {"f", r->f()}};
         out.exprs = {{"z", r->init()}, {"xs", arg0(e)}};
         return out;
       },
       [n](const Match& m, const RuleContext&) {
         const Type& xs = m.e("xs")->type();
         return xs.isArray() && xs.element().isTuple() &&
                !vectorOperands(*m.f("f")->as<Lambda>(), xs.element().components(), n).empty();
       },
       [n](const Match& m) -> ExprPtr {
         const auto& f = *m.f("f")->as<Lambda>();
         FunPtr g = vectorizedStep(
             f, vectorOperands(f, m.e("xs")->type().element().components(), n), n);
         return FunCall::make(m.f("reduce")->withChildren({g}, {m.e("z")}), {m.e("xs")});
       }});
}

namespace {
bool stageVectorCondition(const Match& m, const RuleContext& ctx, const ArithExpr& k) {
  if (!stageCondition(m, ctx, k)) return false;
  const Type& ys = m.e("ys")->type();
  const int64_t w = vectorWidth(ys.element().element());
  return w > 0 && provablyDivisible(k, ArithExpr(w)) && provablyDivisible(ys.size(), ArithExpr(w));
}
}  // namespace

// stageLocal(k), then in its result vectorize(w) on the two copies into local memory and
// vectorizeOperand(w) on the blocks' reduction, w = 16 bytes of the element type (float4,
// double2): LIFT's macro-rule style (registerBlock), so that exploration finds the vectorized
// staging at stageLocal's depth. Applies iff stageLocal(k) does and w divides both copies'
// rows (k and the tile's widths).
Rule stageLocalVector(ArithExpr k) {
  std::string name = "stageLocalVector(" + k.str() + ")";
  return Rule(
      {name, "memory",
       "stageLocal(k) with vectorize(w) at its two copies and vectorizeOperand(w) at the "
       "blocks' reduction (w: 16 bytes of elements)",
       "those of stageLocal(k); the elements scalars; their 16-byte vector width w (float4, "
       "double2) divides k and the tile's columns (the copied rows)",
       stageMatch,
       [k](const Match& m, const RuleContext& ctx) { return stageVectorCondition(m, ctx, k); },
       [k](const Match& m) {
         return stageResult(m, k, vectorWidth(m.e("ys")->type().element().element()));
       }});
}

// stageLocalVector(k), its reduction over the chunks a reduceSeqPrefetch (prefetchChunks): the
// macro that puts the software-pipelined staging at stageLocal's depth for exploration.
Rule stageLocalPrefetch(ArithExpr k) {
  std::string name = "stageLocalPrefetch(" + k.str() + ")";
  return Rule(
      {name, "memory", "stageLocalVector(k), then prefetchChunks at its reduction over the chunks",
       "those of stageLocalVector(k)", stageMatch,
       [k](const Match& m, const RuleContext& ctx) { return stageVectorCondition(m, ctx, k); },
       [k](const Match& m) {
         return stageResult(m, k, vectorWidth(m.e("ys")->type().element().element()), true);
       }});
}

// reduceSeq(f, z) <<: chunks -> reduceSeqPrefetch(f, z) <<: chunks
// at stageLocal's work-group reduction: f = fun (acc, ch) => e copies views of its chunk ch into
// local memory (toLocal), z a mapLocal (the blocks' accumulators spread over the work-items).
// Why it holds: reduceSeqPrefetch means reduceSeq (the interpreter runs it so); only the
// schedule changes: code generation loads chunk i+1's copies into each work-item's registers
// before step i computes and stores them into local memory at the start of step i+1 (software
// pipelining: the global loads' latency overlaps the chunk's multiply-adds).
Rule prefetchChunks() {
  return Rule(
      {"prefetchChunks", "memory", "reduceSeq(f, z) <<: xs -> reduceSeqPrefetch(f, z) <<: xs",
       "inside a mapWorkgroup, not inside a mapLocal or mapGlobal; z a mapLocal (an accumulator "
       "spread over the work-items); f = fun (acc, ch) => e, e copies views of ch into local "
       "memory (toLocal) once a step",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* c = asCall(e);
         if (!c || c->args().size() != 1) return std::nullopt;
         const auto* r = c->f()->as<ReduceSeq>();
         if (!r || r->prefetch()) return std::nullopt;
         const auto* f = r->f()->as<Lambda>();
         const auto* z = asCall(r->init());
         if (!f || f->arity() != 2 || !z || z->f()->kind() != FunKind::MapLocal ||
             stagedElementCopies(*f).empty())
           return std::nullopt;
         Match m;
         m.funs = {{"f", r->f()}};
         m.exprs = {{"z", r->init()}, {"xs", arg0(e)}};
         return m;
       },
       [](const Match&, const RuleContext& ctx) {
         return ctx.inside(FunKind::MapWorkgroup) && !ctx.inside(FunKind::MapLocal) &&
                !ctx.inside(FunKind::MapGlobal) && !insideReduceFun(ctx);
       },
       [](const Match& m) -> ExprPtr {
         return FunCall::make(ReduceSeq::makePrefetch(m.f("f"), m.e("z")), {m.e("xs")});
       }});
}

}  // namespace fftc::rewrites::rules
