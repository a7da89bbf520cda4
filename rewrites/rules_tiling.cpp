// Rules that block a two-level map for locality: 2D tiling (tiles of r x c results, one per
// parallel work-item or work-group) and the map-reduce interchange, which turns the r x c
// reductions of a tile into one reduction over a block of accumulators (register blocking).
#include <optional>

#include "ir/builders.h"
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;
using detail::etaCallOf;
using detail::unary;

namespace {

// map(fun x => map(f) <<: y) <<: xs with x not free in y (tile2D's and tile2DStride's form):
// the inner map's function as "inner", x, and the arrays xs and y.
std::optional<Match> matchMapOfClosedMap(const ExprPtr& e) {
  const auto* outer = unary<ir::Map>(e);
  if (!outer) return std::nullopt;
  const auto* l = outer->f()->as<Lambda>();
  if (!l || l->arity() != 1) return std::nullopt;
  const auto* inner = unary<ir::Map>(l->body());
  if (!inner) return std::nullopt;
  const ExprPtr& y = arg0(l->body());
  if (uses(y, l->params()[0].get())) return std::nullopt;
  Match m;
  m.funs = {{"inner", asCall(l->body())->f()}};
  m.params = {l->params()[0]};
  m.exprs = {{"xs", arg0(e)}, {"y", y}};
  return m;
}

// r x c tiles of the match's m x n results: r and c positive and provably dividing m and n; one
// tile of everything (r = m and c = n) would only add layout.
bool tilesProperly(const Match& m, const ArithExpr& r, const ArithExpr& c) {
  const Type& xs = m.e("xs")->type();
  const Type& y = m.e("y")->type();
  return xs.isArray() && y.isArray() && provablyPositive(r) && provablyPositive(c) &&
         provablyDivisible(xs.size(), r) && provablyDivisible(y.size(), c) &&
         !(sizesEqual(xs.size(), r) && sizesEqual(y.size(), c));
}

}  // namespace

// map(fun x => map(f) <<: y) <<: xs            xs: [a]m, y: [b]n, x not free in y
// -> join o map(map(join) o transpose)
//    <<: map(fun xt => map(fun yt => map(fun x => map(f) <<: yt) <<: xt) <<: split(c) <<: y)
//    <<: split(r) <<: xs
// Tile (i, j) holds the results of rows i*r .. i*r+r-1 and columns j*c .. j*c+c-1: an
// [[o]c]r block. Over the tile columns that is [[[o]c]r](n/c); transpose and map(join) make it
// the r full rows [[o]n]r; join over the tile rows gives [[o]n]m, the original result. f may
// mention x: the tile's map rebinds the same x.
Rule tile2D(ArithExpr r, ArithExpr c) {
  std::string name = "tile2D(" + r.str() + ", " + c.str() + ")";
  return Rule(
      {name, "algorithmic",
       "map(fun x => map(f) <<: y) -> join o map(map(join) o transpose) o map(fun xt => "
       "map(fun yt => map(fun x => map(f) <<: yt) <<: xt) <<: split(c) <<: y) o split(r)",
       "x not free in y; r > 0 and c > 0 divide the sizes m of xs and n of y (provably); not both "
       "r = m and c = n",
       matchMapOfClosedMap,
       [r, c](const Match& m, const RuleContext&) { return tilesProperly(m, r, c); },
       [r, c](const Match& m) -> ExprPtr {
         const ParamPtr& x = m.params[0];
         FunPtr perTile = lambda1("xt", [&](const ExprPtr& xt) {
           FunPtr perColumnTile = lambda1("yt", [&](const ExprPtr& yt) {
             LambdaPtr row = Lambda::make({x}, FunCall::make(m.f("inner"), {yt}));
             return FunCall::make(ir::Map::make(row), {xt});
           });
           ExprPtr columnTiles = FunCall::make(Split::make(c), {m.e("y")});
           return FunCall::make(ir::Map::make(perColumnTile), {columnTiles});
         });
         ExprPtr tiles =
             FunCall::make(ir::Map::make(perTile), {FunCall::make(Split::make(r), {m.e("xs")})});
         return detail::untile(tiles);
       }});
}

namespace {

// tile2DStride's result (w absent) and tile2DStrideGroups' (the columns in groups of w
// adjacent ones): the tiles' rows of column groups n/c apart, each row's results put back at
// their columns.
ExprPtr stridedTiles(const Match& m, const ArithExpr& r, const ArithExpr& c,
                     const std::optional<ArithExpr>& w) {
  const ParamPtr& x = m.params[0];
  const ArithExpr groups = m.e("y")->type().size() / c;
  FunPtr perTile = lambda1("xt", [&](const ExprPtr& xt) {
    FunPtr perColumnGroup = lambda1("yt", [&](const ExprPtr& yt) {
      LambdaPtr row = Lambda::make({x}, FunCall::make(m.f("inner"), {yt}));
      return FunCall::make(ir::Map::make(row), {xt});
    });
    ExprPtr columns = w ? FunCall::make(Split::make(*w), {m.e("y")}) : m.e("y");
    ExprPtr strided =
        FunCall::make(Transpose::make(), {FunCall::make(Split::make(groups), {columns})});
    if (w) strided = FunCall::make(ir::Map::make(etaCallOf(Join::make())), {strided});
    return FunCall::make(ir::Map::make(perColumnGroup), {strided});
  });
  ExprPtr tiles =
      FunCall::make(ir::Map::make(perTile), {FunCall::make(Split::make(r), {m.e("xs")})});
  FunPtr untileRow = lambda1("t", [&w](const ExprPtr& t) {
    FunPtr row = lambda1("u", [&w](const ExprPtr& u) {
      if (!w) return FunCall::make(Join::make(), {FunCall::make(Transpose::make(), {u})});
      ExprPtr g = FunCall::make(ir::Map::make(etaCallOf(Split::make(*w))), {u});
      ExprPtr tr = FunCall::make(Transpose::make(), {g});
      return FunCall::make(Join::make(), {FunCall::make(Join::make(), {tr})});
    });
    return FunCall::make(ir::Map::make(row), {FunCall::make(Transpose::make(), {t})});
  });
  return FunCall::make(Join::make(), {FunCall::make(ir::Map::make(untileRow), {tiles})});
}

}  // namespace

// map(fun x => map(f) <<: y) <<: xs            xs: [a]m, y: [b]n, x not free in y
// -> join o map(map(join o transpose) o transpose)
//    <<: map(fun xt => map(fun yt => map(fun x => map(f) <<: yt) <<: xt)
//                      <<: transpose(split(n/c) <<: y))
//    <<: split(r) <<: xs
// As tile2D, but tile (i, j) holds the columns j, j + n/c, ..., j + (c-1) n/c (LIFT's
// reorderBothSidesWithStride): over a row of tiles the results are [[[o]c]r](n/c), element
// [j][a][b] the result at row a and column j + b n/c; transpose makes it r rows of
// [[o]c](n/c), and join o transpose puts column b n/c + j at b n/c + j. With the tiles of a
// row on consecutive work-items, work-item j reads column j + b n/c of y at step b:
// consecutive work-items read consecutive elements (coalesced), where tile2D's puts them c
// apart.
Rule tile2DStride(ArithExpr r, ArithExpr c) {
  std::string name = "tile2DStride(" + r.str() + ", " + c.str() + ")";
  return Rule(
      {name, "algorithmic",
       "map(fun x => map(f) <<: y) -> join o map(map(join o transpose) o transpose) o "
       "map(fun xt => map(fun yt => map(fun x => map(f) <<: yt) <<: xt) <<: transpose(split(n/c) "
       "<<: y)) o split(r)",
       "as tile2D(r, c)",
       matchMapOfClosedMap,
       [r, c](const Match& m, const RuleContext&) { return tilesProperly(m, r, c); },
       [r, c](const Match& m) { return stridedTiles(m, r, c, std::nullopt); }});
}

// map(fun x => map(f) <<: y) <<: xs            xs: [a]m, y: [b]n, x not free in y
// -> join o map(map(join o join o transpose o map(split(w))) o transpose)
//    <<: map(fun xt => map(fun yt => map(fun x => map(f) <<: yt) <<: xt)
//                      <<: map(join) <<: transpose(split(n/c) <<: split(w) <<: y))
//    <<: split(r) <<: xs
// As tile2DStride, but the tile's c columns come in c/w groups of w adjacent columns, the
// groups n/c groups of w apart: tile j holds columns (g n/c + j) w + e, g < c/w, e < w. With
// w the 16-byte vector width a work-item's columns of a row are c/w aligned vectors (one
// vector load each from local memory), while consecutive work-items still read consecutive
// vectors. Element [j][b] of a row of tiles' results (b = g w + e) is that column's; the row's
// map(split(w)) gives [j][g][e], transpose [g][j][e], and the two joins put it at
// (g n/c + j) w + e, where it belongs. w = 1 is tile2DStride.
Rule tile2DStrideGroups(ArithExpr r, ArithExpr c, ArithExpr w) {
  std::string name = "tile2DStrideGroups(" + r.str() + ", " + c.str() + ", " + w.str() + ")";
  return Rule(
      {name, "algorithmic",
       "map(fun x => map(f) <<: y) -> join o map(map(join o join o transpose o map(split(w))) o "
       "transpose) o map(fun xt => map(fun yt => map(fun x => map(f) <<: yt) <<: xt) <<: "
       "map(join) <<: transpose(split(n/c) <<: split(w) <<: y)) o split(r)",
       "as tile2D(r, c); w > 0 provably divides c",
       matchMapOfClosedMap,
       [r, c, w](const Match& m, const RuleContext&) {
         return tilesProperly(m, r, c) && provablyPositive(w) && provablyDivisible(c, w);
       },
       [r, c, w](const Match& m) { return stridedTiles(m, r, c, w); }});
}

namespace {

bool interchangeableReduce(FunKind k) {
  return k == FunKind::Reduce || k == FunKind::ReduceSeq || k == FunKind::ReduceSeqUnroll;
}

// Match::index of mapReduceInterchange when the row is reduced itself, not zipped.
constexpr size_t kBareRow = static_cast<size_t>(-1);

// map(fun x => reduce(f, z) <<: [map(g) <<:] x) <<: xs
// -> reduce(fun (acc, p) => map(fun q => f(q._0, [g](q._1))) <<: zip(acc, p),
//           map(fun x => z) <<: xs) <<: transpose(xs)
// The zip-free form: n independent accumulators, each step reads one column of xs. After
// splitStrideReduce inside a work-item it gives the work-item several sums in flight at once.
ExprPtr interchangeBare(const Match& m) {
  const auto g = m.funs.find("g");
  ParamPtr acc = Param::make("acc"), p = Param::make("p");
  FunPtr step = lambda1("q", [&](const ExprPtr& q) {
    ExprPtr elem = get(1, q);
    if (g != m.funs.end()) elem = applyFun(g->second, {elem});
    return applyFun(m.f("f"), {get(0, q), elem});
  });
  ExprPtr accs = FunCall::make(Zip::make(2), {acc, p});
  LambdaPtr f = Lambda::make({acc, p}, FunCall::make(ir::Map::make(step), {accs}));
  FunPtr initRow = lambda1("x", [&](const ExprPtr&) { return m.e("z"); });
  ExprPtr init = FunCall::make(ir::Map::make(initRow), {m.e("xs")});
  ExprPtr columns = FunCall::make(Transpose::make(), {m.e("xs")});
  return FunCall::make(m.f("reduce")->withChildren({f}, {init}), {columns});
}

}  // namespace

// map(fun x => reduce(f, z) <<: [map(g) <<:] zip(u0, .., x, .., uk)) <<: xs
//   xs: [[a]K]n; x not free in f, g, z or the other u
// -> reduce(fun (acc, p) => map(fun q => f(q._0, g({p._0, .., q._1, .., p._k})))
//                             <<: zip(acc, p._i),
//           map(fun x => z) <<: xs)
//    <<: zip(u0, .., transpose(xs), .., uk)
// Row i's reduction folds f over (xs[i][k], u0[k], ...) for k = 0 .. K-1; so does element i of
// the accumulator block, in the same order: step k reads column k of xs (transpose(xs)[k]) and
// updates every row's accumulator. No reassociation: the result is exactly the same, for any f.
// The reduce keeps its kind (reduce, reduceSeq or reduceSeqUnroll).
Rule mapReduceInterchange() {
  return Rule({"mapReduceInterchange", "algorithmic",
               "map(fun x => reduce(f, z) <<: zip(.., x, ..)) <<: xs -> reduce(fun (acc, p) => "
               "map(fun q => f(q._0, {.., q._1, ..})) <<: zip(acc, p._i), map(fun x => z) <<: xs) "
               "<<: zip(.., transpose(xs), ..)",
               "x not free in f, z, the other zipped arrays, or a map(g) between reduce and zip",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* m = unary<ir::Map>(e);
                 if (!m) return std::nullopt;
                 const auto* l = m->f()->as<Lambda>();
                 if (!l || l->arity() != 1) return std::nullopt;
                 const Param* x = l->params()[0].get();
                 const auto* red = unary<AbstractReduce>(l->body());
                 if (!red || !interchangeableReduce(red->kind())) return std::nullopt;
                 ExprPtr zipped = arg0(l->body());
                 Match out;
                 if (const auto* g = unary<AbstractMap>(zipped)) {
                   if (g->kind() != FunKind::Map && g->kind() != FunKind::MapSeq)
                     return std::nullopt;
                   if (uses(g->f(), x)) return std::nullopt;
                   out.funs["g"] = g->f();
                   zipped = arg0(zipped);
                 }
                 if (zipped.get() == x) {  // reduce(f, z) <<: [map(g) <<:] x: no zip
                   if (uses(red->f(), x) || uses(red->init(), x)) return std::nullopt;
                   out.index = kBareRow;
                   out.funs["reduce"] = red->ptr();
                   out.funs["f"] = red->f();
                   out.exprs = {{"xs", arg0(e)}, {"z", red->init()}, {"zip", zipped}};
                   return out;
                 }
                 const auto* z = asCall(zipped);
                 if (!z || !z->f()->is<Zip>()) return std::nullopt;
                 size_t found = 0;
                 for (size_t i = 0; i < z->args().size(); ++i) {
                   if (z->arg(i).get() == x) {
                     ++found;
                     out.index = i;
                   } else if (uses(z->arg(i), x)) {
                     return std::nullopt;
                   }
                 }
                 if (found != 1 || uses(red->f(), x) || uses(red->init(), x)) return std::nullopt;
                 out.funs["reduce"] = red->ptr();
                 out.funs["f"] = red->f();
                 out.exprs = {{"xs", arg0(e)}, {"z", red->init()}, {"zip", zipped}};
                 return out;
               },
               [](const Match& m, const RuleContext&) {
                 const Type& t = m.e("xs")->type();
                 return t.isArray() && t.element().isArray();
               },
               [](const Match& m) -> ExprPtr {
                 if (m.index == kBareRow) return interchangeBare(m);
                 const auto* z = m.e("zip")->as<FunCall>();
                 const size_t at = m.index;
                 std::vector<ExprPtr> args = z->args();
                 args[at] = FunCall::make(Transpose::make(), {m.e("xs")});
                 ExprPtr columns = FunCall::make(z->f(), args);
                 const auto g = m.funs.find("g");
                 ParamPtr acc = Param::make("acc"), p = Param::make("p");
                 FunPtr step = lambda1("q", [&](const ExprPtr& q) {
                   std::vector<ExprPtr> parts;
                   for (size_t i = 0; i < args.size(); ++i)
                     parts.push_back(i == at ? get(1, q) : get(i, p));
                   ExprPtr elem = tuple(parts);
                   if (g != m.funs.end()) elem = applyFun(g->second, {elem});
                   return applyFun(m.f("f"), {get(0, q), elem});
                 });
                 ExprPtr accs = FunCall::make(Zip::make(2), {acc, get(at, p)});
                 LambdaPtr f = Lambda::make({acc, p}, FunCall::make(ir::Map::make(step), {accs}));
                 FunPtr initRow = lambda1("x", [&](const ExprPtr&) { return m.e("z"); });
                 ExprPtr init = FunCall::make(ir::Map::make(initRow), {m.e("xs")});
                 return FunCall::make(m.f("reduce")->withChildren({f}, {init}), {columns});
               }});
}

namespace {

// A tiling rule (tile2DStride's or tile2DStrideGroups' result), then mapReduceInterchange on
// the map over a tile's columns and on the map over its rows: one macro rule.
// `tile` gives the tiling rule for the matched expression (nullopt: none applies).
Rule blockedBy(std::string name, std::string rhs,
               std::function<std::optional<Rule>(const ExprPtr&)> tile) {
  Rule interchange = mapReduceInterchange();
  return Rule({std::move(name),
               "algorithmic",
               "map(fun x => map(fun y => reduce(f, z) <<: zip(.., x, .., y, ..)) <<: ys) <<: xs "
               "-> " + std::move(rhs) + ", then mapReduceInterchange on the tile's column map and "
               "on its row map",
               "as tile2D(r, c); the inner map's function a reduction mapReduceInterchange "
               "applies to, twice",
               [tile, interchange](const ExprPtr& e) -> std::optional<Match> {
                 // cheap rejections first: the map of a map of a reduction
                 const auto* outer = unary<ir::Map>(e);
                 if (!outer) return std::nullopt;
                 const auto* l = outer->f()->as<Lambda>();
                 if (!l || l->arity() != 1 || !unary<ir::Map>(l->body())) return std::nullopt;
                 const std::optional<Rule> tiling = tile(e);
                 if (!tiling) return std::nullopt;
                 Applied t = applyAt(*tiling, e, {});
                 if (!t.changed) return std::nullopt;
                 // the column map of a tile row's tile, then the row map (rules_tiling's
                 // tile2DStride result: join <<: map(untile) <<: map(perTile) <<: split)
                 Applied cols = applyAt(interchange, t.program, {0, 1, 0, 0, 0});
                 if (!cols.changed) return std::nullopt;
                 Applied rows = applyAt(interchange, cols.program, {0, 1, 0, 0});
                 if (!rows.changed) return std::nullopt;
                 Match m;
                 m.exprs = {{"result", rows.program}};
                 return m;
               },
               {},
               [](const Match& m) -> ExprPtr { return m.e("result"); }});
}

}  // namespace

// LIFT's apply2DRegisterBlocking as one macro rule: tile2DStride(r, c), then
// mapReduceInterchange on the map over a tile's columns and on the map over its rows. Each
// work-item's r x c dot products become one reduction over K whose accumulator is the r x c
// block (private, constant size: registers once unrolled); each step reads r elements of the
// rows and c of the columns (coalesced across the work-items) for r*c applications of f. One
// step instead of three, so that exploration reaches it (and what follows) at a low depth; it
// applies iff the three steps do.
Rule registerBlock(ArithExpr r, ArithExpr c) {
  Rule tile = tile2DStride(r, c);
  return blockedBy("registerBlock(" + r.str() + ", " + c.str() + ")", "tile2DStride(r, c)",
                   [tile](const ExprPtr&) { return tile; });
}

// registerBlock with tile2DStrideGroups(r, c, w): a block's c columns in c/w groups of w
// adjacent ones.
Rule registerBlockGroups(ArithExpr r, ArithExpr c, ArithExpr w) {
  Rule tile = tile2DStrideGroups(r, c, w);
  return blockedBy("registerBlockGroups(" + r.str() + ", " + c.str() + ", " + w.str() + ")",
                   "tile2DStrideGroups(r, c, w)", [tile](const ExprPtr&) { return tile; });
}

// registerBlockGroups(r, c, w), w the 16-byte vector width of the elements (4 floats, 2
// doubles): what stageLocalVector then reads as vectors.
Rule registerBlockVector(ArithExpr r, ArithExpr c) {
  return blockedBy("registerBlockVector(" + r.str() + ", " + c.str() + ")",
                   "tile2DStrideGroups(r, c, w), w = 16 bytes of the elements",
                   [r, c](const ExprPtr& e) -> std::optional<Rule> {
                     // the scalars of y's elements (columns of B: [[t]K]n)
                     Type t = arg0(asCall(e)->f()->as<ir::Map>()->f()->as<Lambda>()->body())
                                  ->type();
                     while (t && t.isArray() && !t.isVector()) t = t.element();
                     if (!t || !t.isScalar()) return std::nullopt;
                     const int64_t w = t.scalarKind() == ScalarKind::Double ? 2 : 4;
                     return tile2DStrideGroups(r, c, ArithExpr(w));
                   });
}

}  // namespace fftc::rewrites::rules
