// Stencil tiling with halos (LIFT's overlapped tiling, Hagedorn et al., CGO'18): the windows
// of a slide regrouped into tiles of consecutive windows, each tile the slide of an overlapping
// chunk of the input (the chunk plus its halo), so that what a tile reads is one small array
// that a work-item keeps in registers or a work-group stages in local memory.
#include <optional>

#include "ir/builders.h"
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;
using detail::innerMap;
using detail::unary;

namespace {

// A function that applies the data-layout pattern of kind k to its argument: the bare
// pattern or its eta form fun y => p <<: y.
const FunDecl* layoutFun(const FunPtr& f, FunKind k) {
  if (f->kind() == k) return f.get();
  const auto* l = f->as<Lambda>();
  if (!l || l->arity() != 1) return nullptr;
  const auto* c = asCall(l->body());
  if (!c || c->args().size() != 1 || c->f()->kind() != k || c->arg(0) != l->params()[0])
    return nullptr;
  return c->f().get();
}

// slide(size, step)
FunPtr slideFun(const ArithExpr& size, const ArithExpr& step) {
  return Slide::make(size, step);
}

// map(fun y => slide(n, s) <<: y) <<: x: the slide of each row
ExprPtr slideRows(const ArithExpr& n, const ArithExpr& s, const ExprPtr& x) {
  FunPtr f = lambda1("z", [&](const ExprPtr& z) { return FunCall::make(slideFun(n, s), {z}); });
  return FunCall::make(ir::Map::make(f), {x});
}

// slide2 of x, as the language's examples write it: map(transpose) <<: slide(n1, s1) <<:
// map(slide(n2, s2)) <<: x, [[a]m2]m1 -> [[[[a]n2]n1]w2]w1.
ExprPtr slide2(const ArithExpr& n1, const ArithExpr& s1, const ArithExpr& n2, const ArithExpr& s2,
               const ExprPtr& x) {
  ExprPtr rows = FunCall::make(slideFun(n1, s1), {slideRows(n2, s2, x)});
  FunPtr tr = lambda1("y", [](const ExprPtr& y) { return FunCall::make(Transpose::make(), {y}); });
  return FunCall::make(ir::Map::make(tr), {rows});
}

// The size of a tile of r windows of slide(n, s) and the step between tiles:
// (r-1) s + n and r s.
ArithExpr tileSize(const ArithExpr& r, const ArithExpr& n, const ArithExpr& s) {
  return (r - ArithExpr(1)) * s + n;
}

// r > 0 divides the w windows of slide(n, s) over m elements provably, and the tiles
// slide((r-1)s+n, r s) over them are provably w/r (what type inference will compute).
bool tilesWindows(const ArithExpr& m, const ArithExpr& n, const ArithExpr& s, const ArithExpr& w,
                  const ArithExpr& r) {
  if (!provablyPositive(r) || !provablyDivisible(w, r)) return false;
  const ArithExpr v = r * s;
  return sizesEqual((m - tileSize(r, n, s) + v) / v * r, w);
}

// map(fun x => map(f) <<: x) <<: map(transpose) <<: slide(n1, s1) <<: map(slide(n2, s2)) <<: X
// (bare or eta-expanded maps and patterns): f as "f", X as "x", the slides' sizes and steps,
// and the windows w1 x w2.
std::optional<Match> matchMapOverSlide2(const ExprPtr& e) {
  const auto* outer = unary<ir::Map>(e);
  if (!outer) return std::nullopt;
  FunPtr inner = innerMap(outer->f(), FunKind::Map);
  if (!inner) return std::nullopt;
  const ExprPtr& a = arg0(e);
  const auto* trMap = unary<ir::Map>(a);
  if (!trMap || !layoutFun(trMap->f(), FunKind::Transpose)) return std::nullopt;
  const ExprPtr& b = arg0(a);
  const auto* rows = unary<Slide>(b);
  if (!rows) return std::nullopt;
  const ExprPtr& c = arg0(b);
  const auto* colMap = unary<ir::Map>(c);
  if (!colMap) return std::nullopt;
  const auto* cols = static_cast<const Slide*>(layoutFun(colMap->f(), FunKind::Slide));
  if (!cols) return std::nullopt;
  const Type& t = e->type();
  if (!t.isArray() || !t.element().isArray()) return std::nullopt;
  const Type& x = arg0(c)->type();
  if (!x.isArray() || !x.element().isArray()) return std::nullopt;
  Match m;
  m.funs = {{"f", inner->as<ir::Map>()->f()}};
  m.exprs = {{"x", arg0(c)}};
  m.sizes = {{"n1", rows->size()}, {"s1", rows->step()},      {"n2", cols->size()},
             {"s2", cols->step()}, {"m1", x.size()},          {"m2", x.element().size()},
             {"w1", t.size()},     {"w2", t.element().size()}};
  return m;
}

bool tiles2D(const Match& m, const ArithExpr& r, const ArithExpr& c) {
  return tilesWindows(m.n("m1"), m.n("n1"), m.n("s1"), m.n("w1"), r) &&
         tilesWindows(m.n("m2"), m.n("n2"), m.n("s2"), m.n("w2"), c) &&
         !(sizesEqual(m.n("w1"), r) && sizesEqual(m.n("w2"), c));
}

// K(1, fun tr => K(0, perTile) <<: tr) <<: tiles: the tiles on a 2D grid (mapGlobal,
// mapWorkgroup).
template <typename K>
ExprPtr gridOfTiles(const FunPtr& perTile, const ExprPtr& tiles) {
  FunPtr row =
      lambda1("tr", [&](const ExprPtr& tr) { return FunCall::make(K::make(0, perTile), {tr}); });
  return FunCall::make(K::make(1, row), {tiles});
}

// toLocal(fun t => mapLocal(1, fun row => mapLocal(0, fun v => v) <<: row) <<: t) <<: x: the
// work-group's copy of a tile into local memory, its rows on dimension 1 and their elements on
// dimension 0 (consecutive work-items, consecutive elements: coalesced).
ExprPtr localCopyOf(const ExprPtr& x) {
  FunPtr elem = lambda1("v", [](const ExprPtr& v) { return v; });
  FunPtr row =
      lambda1("row", [&](const ExprPtr& r) { return FunCall::make(MapLocal::make(0, elem), {r}); });
  FunPtr copy =
      lambda1("t", [&](const ExprPtr& t) { return FunCall::make(MapLocal::make(1, row), {t}); });
  return FunCall::make(ToLocal::make(copy), {x});
}

// The tiled form of matchMapOverSlide2's match: the tiles slide2((r-1)s1+n1, r s1, (c-1)s2+n2,
// c s2) of X, on each the original map of maps over slide2(n1, s1, n2, s2), mapped by `outer`
// (a map of maps: map, mapGlobal(1, .. mapGlobal(0, ..)) or the same of mapWorkgroup) with the
// tile's maps made by `tileMap` (map or mapSeqUnroll), or, `staged`, the tile read through
// its copy into local memory and its maps mapLocal(1, .. mapLocal(0, ..)); untiled by join o
// map(map(join) o transpose).
template <typename Outer, typename TileMap>
ExprPtr tiledSlide2(const Match& m, const ArithExpr& r, const ArithExpr& c, Outer outer,
                    TileMap tileMap, bool staged = false) {
  const ArithExpr &n1 = m.n("n1"), &s1 = m.n("s1"), &n2 = m.n("n2"), &s2 = m.n("s2");
  ExprPtr tiles = slide2(tileSize(r, n1, s1), r * s1, tileSize(c, n2, s2), c * s2, m.e("x"));
  FunPtr perTile = lambda1("t", [&](const ExprPtr& t) {
    FunPtr row =
        lambda1("x", [&](const ExprPtr& x) { return FunCall::make(tileMap(m.f("f")), {x}); });
    if (staged) {  // mapLocal(1, fun x => mapLocal(0, f) <<: x) over the staged tile
      FunPtr rowL = lambda1(
          "x", [&](const ExprPtr& x) { return FunCall::make(MapLocal::make(0, m.f("f")), {x}); });
      return FunCall::make(MapLocal::make(1, rowL), {slide2(n1, s1, n2, s2, localCopyOf(t))});
    }
    return FunCall::make(tileMap(row), {slide2(n1, s1, n2, s2, t)});
  });
  return detail::untile(outer(perTile, tiles));
}

FunPtr plainMap(const FunPtr& f) {
  return ir::Map::make(f);
}
FunPtr unrolledMap(const FunPtr& f) {
  return MapSeqUnroll::make(f);
}

ExprPtr mapOfMaps(const FunPtr& perTile, const ExprPtr& tiles) {
  FunPtr row =
      lambda1("tr", [&](const ExprPtr& tr) { return FunCall::make(ir::Map::make(perTile), {tr}); });
  return FunCall::make(ir::Map::make(row), {tiles});
}

// Every enclosing loop is a k (mapGlobal or mapWorkgroup) of dimension 2: the condition of
// mapGlobal2D and mapWorkgroup2D.
bool onGrid(const RuleContext& ctx, FunKind k) {
  return detail::onlyParallelOf(ctx, k, 0) && detail::onlyParallelOf(ctx, k, 1);
}

// The tiles of X have constant sizes and scalar elements (a local array of them).
// The copy's work-group is the tile with its halo, a work-item an element: at most 1024
// work-items (the devices' limit) and 48 KiB of local memory (the portable budget), so that a
// variant explore makes can launch.
bool stageable(const Match& m, const ArithExpr& r, const ArithExpr& c) {
  const Type& x = m.e("x")->type();
  if (!x.element().element().isScalar()) return false;
  const auto rows = tileSize(r, m.n("n1"), m.n("s1")).constant();
  const auto cols = tileSize(c, m.n("n2"), m.n("s2")).constant();
  if (!rows || !cols || *rows > 1024 || *cols > 1024) return false;
  const int64_t bytes = x.element().element().scalarKind() == ScalarKind::Double ? 8 : 4;
  return *rows * *cols <= 1024 && *rows * *cols * bytes <= 48 * 1024;
}

std::string named2(const char* name, const ArithExpr& r, const ArithExpr& c) {
  return std::string(name) + "(" + r.str() + ", " + c.str() + ")";
}

}  // namespace

// slide(n, s) <<: x -> join <<: map(fun t => slide(n, s) <<: t) <<: slide((r-1)s+n, r s) <<: x
// Window i*r + j of x is window j of tile i: the tile starts at i r s and window j of it at
// j s, so at (i r + j) s, with n elements each; the tiles hold (r-1)s+n elements (r windows
// and the halo that the next tile reads again) and step by r s. With w windows, r | w: x has
// (w-1)s + n (+ e, e < s, unused) elements, so slide((r-1)s+n, r s) gives w/r tiles.
Rule slideTile(ArithExpr r) {
  return Rule(
      {"slideTile(" + r.str() + ")", "algorithmic",
       "slide(n, s) -> join o map(slide(n, s)) o slide((r-1)s+n, r s)",
       "r > 0 provably divides the number w of windows, r != w",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* s = unary<Slide>(e);
         if (!s || !e->type().isArray() || !arg0(e)->type().isArray()) return std::nullopt;
         Match m;
         m.exprs = {{"x", arg0(e)}};
         m.sizes = {{"n", s->size()},
                    {"s", s->step()},
                    {"m", arg0(e)->type().size()},
                    {"w", e->type().size()}};
         return m;
       },
       [r](const Match& m, const RuleContext&) {
         return tilesWindows(m.n("m"), m.n("n"), m.n("s"), m.n("w"), r) && !sizesEqual(m.n("w"), r);
       },
       [r](const Match& m) -> ExprPtr {
         const ArithExpr &n = m.n("n"), &s = m.n("s");
         ExprPtr tiles = FunCall::make(slideFun(tileSize(r, n, s), r * s), {m.e("x")});
         FunPtr perTile =
             lambda1("t", [&](const ExprPtr& t) { return FunCall::make(slideFun(n, s), {t}); });
         return FunCall::make(Join::make(), {FunCall::make(ir::Map::make(perTile), {tiles})});
       }});
}

// map(fun x => map(f) <<: x) <<: slide2(n1, s1, n2, s2) <<: X
// -> join o map(map(join) o transpose)
//    <<: map(fun tr => map(fun t => map(fun x => map(f) <<: x) <<: slide2(n1, s1, n2, s2) <<: t)
//                      <<: tr)
//    <<: slide2((r-1)s1+n1, r s1, (c-1)s2+n2, c s2) <<: X
// slide2(n1, s1, n2, s2) = map(transpose) o slide(n1, s1) o map(slide(n2, s2)). Tile (i, j) is
// the block of X that the windows of rows i r .. i r + r-1 and columns j c .. j c + c-1 read
// (the r x c outputs' inputs with their halo); window (a, b) of the tile is window (i r + a, j c
// + b) of X, by slideTile in each dimension; the untiling is tile2D's.
Rule slideTile2D(ArithExpr r, ArithExpr c) {
  return Rule({named2("slideTile2D", r, c), "algorithmic",
               "map(map(f)) o slide2(n1, s1, n2, s2) -> join o map(map(join) o transpose) o "
               "map(map(fun t => map(map(f)) <<: slide2(n1, s1, n2, s2) <<: t)) o "
               "slide2((r-1)s1+n1, r s1, (c-1)s2+n2, c s2)",
               "slide2 written map(transpose) o slide o map(slide); r > 0 and c > 0 provably "
               "divide the w1 x w2 windows, not both r = w1 and c = w2",
               matchMapOverSlide2,
               [r, c](const Match& m, const RuleContext&) { return tiles2D(m, r, c); },
               [r, c](const Match& m) { return tiledSlide2(m, r, c, mapOfMaps, plainMap); }});
}

// slideTile2D(r, c), the tiles on mapGlobal2D (dimension 0 the tile columns), the maps inside
// a tile mapSeqUnroll: one work-item per r x c block of outputs, reading the block's
// ((r-1)s1+n1) x ((c-1)s2+n2) inputs as constant offsets from one base, so that each input is
// loaded once per work-item (the device compiler merges the loads of the same address: 3r+2
// for a 5-point cross on r x 1, against 5r). A macro rule, so that exploration reaches it in
// one step.
Rule slideTileRegisters(ArithExpr r, ArithExpr c) {
  return Rule(
      {named2("slideTileRegisters", r, c), "lowering",
       "slideTile2D(r, c), then mapGlobal2D on the tiles and mapSeqUnroll on a tile's "
       "maps",
       "those of slideTile2D(r, c) and mapGlobal2D (every enclosing loop a mapGlobal(2))",
       matchMapOverSlide2,
       [r, c](const Match& m, const RuleContext& ctx) {
         return tiles2D(m, r, c) && onGrid(ctx, FunKind::MapGlobal);
       },
       [r, c](const Match& m) { return tiledSlide2(m, r, c, gridOfTiles<MapGlobal>, unrolledMap); }});
}

// slideTile2D(r, c), the tiles on mapWorkgroup2D, each tile with its halo copied into local
// memory by the work-group (toLocal of mapLocal(1, mapLocal(0, id)): coalesced rows), the
// outputs on mapLocal2D reading the copy: LIFT's stencil tiles staged with toLocal (CGO'18).
// Each input is loaded from global memory ((r-1)s1+n1)((c-1)s2+n2) / (r c) times a point
// instead of n1 n2 (through the caches); the copy is the identity, so the value is the
// slideTile2D's.
Rule slideTileLocal(ArithExpr r, ArithExpr c) {
  return Rule({named2("slideTileLocal", r, c), "memory",
               "slideTile2D(r, c), then mapWorkgroup2D on the tiles, each tile copied into local "
               "memory (toLocal o mapLocal(1, mapLocal(0, id))) and its outputs on mapLocal2D",
               "those of slideTile2D(r, c) and mapWorkgroup2D (every enclosing loop a "
               "mapWorkgroup(2)); the tiles of constant size, their elements scalars",
               matchMapOverSlide2,
               [r, c](const Match& m, const RuleContext& ctx) {
                 return tiles2D(m, r, c) && stageable(m, r, c) &&
                        onGrid(ctx, FunKind::MapWorkgroup);
               },
               [r, c](const Match& m) {
                 return tiledSlide2(m, r, c, gridOfTiles<MapWorkgroup>, plainMap, true);
               }});
}

}  // namespace fftc::rewrites::rules
