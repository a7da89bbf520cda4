// Local-memory staging of a work-group's tiles (LIFT's GEMM, CGO'17): the register-blocked
// tile of a matrix product reads its rows and columns in chunks of k along the reduction, each
// chunk copied once into local memory by the whole work-group, the blocks' accumulators kept in
// the work-items' registers across the chunks.
#include "ir/builders.h"
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
};
std::optional<RowView> rowView(const ExprPtr& e) {
  if (const auto* s = unary<Split>(e)) {
    ArithExpr r = s->chunk();
    return RowView{arg0(e), [r](const ExprPtr& x) { return FunCall::make(Split::make(r), {x}); }};
  }
  if (unary<Transpose>(e)) {
    if (const auto* s = unary<Split>(arg0(e))) {
      ArithExpr g = s->chunk();
      return RowView{arg0(arg0(e)), [g](const ExprPtr& x) {
                       return FunCall::make(Transpose::make(),
                                            {FunCall::make(Split::make(g), {x})});
                     }};
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
FunPtr localCopy(bool transposed) {
  FunPtr elem = fun1("v", [](const ExprPtr& v) { return v; });
  FunPtr row = fun1("row", [&](const ExprPtr& r) {
    return FunCall::make(MapLocal::make(0, elem), {r});
  });
  FunPtr copy = fun1("t", [&](const ExprPtr& t) {
    ExprPtr c = FunCall::make(MapLocal::make(1, row), {t});
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
       [](const ExprPtr& e) -> std::optional<Match> {
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
       },
       [k](const Match& m, const RuleContext& ctx) {
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
       },
       [k](const Match& m) -> ExprPtr {
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
         ExprPtr la = FunCall::make(localCopy(true), {get(0, ch)});
         ExprPtr lb = FunCall::make(localCopy(false),
                                    {FunCall::make(Transpose::make(), {get(1, ch)})});
         ExprPtr xrows = xv->view(FunCall::make(Transpose::make(), {la}));
         ExprPtr yrows = yv->view(FunCall::make(Transpose::make(), {lb}));
         // the staged columns bound outside the blocks' loops (copied once a chunk, not once a
         // row of blocks)
         ParamPtr ycols = Param::make("ly");
         const size_t xAt = m.index;
         FunPtr perRow = fun1("q", [&](const ExprPtr& q) {
           ExprPtr xrow = get(1, q);
           FunPtr perBlock = fun1("s", [&](const ExprPtr& s) {
             ExprPtr tx = FunCall::make(Transpose::make(), {xrow});
             ExprPtr ty = FunCall::make(Transpose::make(), {get(1, s)});
             ExprPtr zipped = FunCall::make(Zip::make(2), {xAt == 0 ? tx : ty, xAt == 0 ? ty : tx});
             return FunCall::make(m.f("reduce")->withChildren({m.f("f")}, {get(0, s)}), {zipped});
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
         ExprPtr folded = FunCall::make(ReduceSeq::make(stepF, init), {chunks});
         // the blocks written out by the work-items that hold them
         FunPtr outRow = fun1("ar", [](const ExprPtr& ar) {
           FunPtr same = fun1("a", [](const ExprPtr& a) { return a; });
           return FunCall::make(MapLocal::make(0, same), {ar});
         });
         return FunCall::make(MapLocal::make(1, outRow), {folded});
       }});
}

}  // namespace fftc::rewrites::rules
