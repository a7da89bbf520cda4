// The rule library, grouped as LIFT groups it (docs/rewrites.md gives each equation and side
// condition), and a catalog by name for the strategy language.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rewrites/rule.h"

namespace fftc::rewrites {

namespace rules {

// ---- algorithmic
Rule mapFusion();                 // map(f) o map(g) -> map(f o g)
Rule mapFission();                // map(fun x => f(e)) -> map(f) o map(fun x => e), x not free in f
Rule splitJoin(ir::ArithExpr k);  // map(f) -> join o map(map(f)) o split(k), k | n
Rule joinSplit();                 // join o map(map(f)) o split(k) -> map(f)
Rule transposeTransposeId();      // transpose o transpose -> id
Rule joinSplitId();               // join o split(k) -> id
Rule splitJoinId();               // split(k) o join -> id, inner size k
Rule mapMapInterchange();         // map(map(f)) -> transpose o map(map(f)) o transpose
Rule reduceMapFusion();           // reduce(f, z) o map(g) -> reduceSeq(fun (a, x) => f(a, g(x)), z)
Rule mapZipFlatten();  // the FFT paper's map-zip flattening with pad(0, (n-1)*m, wrap, y)
// The same, only where g only rearranges data (join o transpose in the FFT): then the flattened
// map is the pass's only loop; with a computing g (a reduction) flattening would split one
// stage into two.
Rule mapZipFlattenViews();
// ---- (rules_producer.cpp)
// map(f) o [zip(..,] V(mapK(g)(X)) [, a)] -> V(mapK(fun (x, y) => map^{d-1}(f)(g(x), y))(zip(X,
// V^-1(a)))): V join/split/transpose and maps of them, mapK a computing map of any sequential
// kind. The pointwise work after a pass done where the pass computes (lowerFftFused).
Rule mapIntoProducer();
// map(f) o zip(.., U(mapK(g)(X)), .., a) -> map(fun (x, y) => f(g(x), y)) o zip(X, a): U
// permutation views composing to the identity on mapK's result (checked on its cells): an FFT's
// last pass and the next FFT's first pass of the same radix as one pass (lowerFftFused).
Rule mapZipFusion();
// ---- reductions (rules_reduction.cpp)
// reduce(f, z) -> reduce(f, z) o map(reduce(f, e)) o split(k): f add or mult (e its neutral
// element) on a scalar element type equal to the accumulator's; k > 1 divides n, k != n.
Rule splitReduce(ir::ArithExpr k);
Rule splitMap();  // split(k) o map(g) -> map(map(g)) o split(k)
// reduce(f, z) -> reduce(f, z) o map(reduce(f, e)) o transpose o split(n/k): n/k partials of k
// elements each, partial i reducing x[i], x[i + n/k], ... (coalesced once the map is parallel).
Rule splitStrideReduce(ir::ArithExpr k);
// reduce(f, z) o map(g) -> reduce(f, z) o map(reduce(f, e) o map(g)) o split(k): splitReduce,
// splitMap and mapFusion in one step (the work-group level of a parallel reduction).
Rule splitReduceMap(ir::ArithExpr k);
// map(f) -> join o transpose o map(map(f)) o transpose o split(n/k): n/k work-items of k
// elements each, strided by n/k (coarsening that keeps accesses coalesced).
Rule splitStrideMap(ir::ArithExpr k);
// reduce(add, z) o map(mult) o zip(w, y) -> the same over w's non-zero elements only (w and y
// read through gather(K)): w closed and constant; exact for finite y (a stencil's zero weights
// dropped from its unrolled code).
Rule dropZeroTerms();
// ---- zero padding of an outer dimension (rules_zero_rows.cpp; issue 24's zero rows)
// map(f) o pad(l, r, v) -> pad(l, r, u) o map(f): v and f closed, u = f(v) an array of one
// value (an fft of a zero row is a zero row), so the padded rows are never computed.
Rule padThroughMap();
// transpose o pad(l, r, v) -> map(pad(l, r, c)) o transpose: v closed, a row of one value c.
Rule transposePad();
// crop(l, r) o transpose -> transpose o map(crop(l, r)).
Rule cropTranspose();
// map(f) o map(g) -> map(f o g) and map(f) o zip(.., map(g)(a), ..) -> map(fun (.., x, ..) =>
// f(.., g(x), ..)) o zip(.., a, ..), g a pad or crop (or f a crop in the first form).
Rule padCropFusion();
// ---- tiling and register blocking (rules_tiling.cpp)
// map(fun x => map(f) <<: y) <<: xs -> untile o (tiles of r x c results) o split(r), x not free
// in y; untile = join o map(map(join) o transpose).
Rule tile2D(ir::ArithExpr r, ir::ArithExpr c);
// map(fun x => reduce(f, z) <<: zip(.., x, ..)) <<: xs -> one reduction over zip(..,
// transpose(xs), ..) whose accumulator is the array of the rows' accumulators.
Rule mapReduceInterchange();
// tile2D(r, c) with the tile's c columns n/c apart (LIFT's reorderBothSidesWithStride):
// untile = join o map(map(join o transpose) o transpose).
Rule tile2DStride(ir::ArithExpr r, ir::ArithExpr c);
// tile2DStride(r, c), then mapReduceInterchange on the tile's column map and row map: the
// r x c block of a work-item's results accumulated in one reduction (LIFT's macro rule
// apply2DRegisterBlocking).
Rule registerBlock(ir::ArithExpr r, ir::ArithExpr c);
// tile2DStride(r, c) with the tile's columns in c/w groups of w adjacent ones, the groups
// strided: tile j holds columns (g n/c + j) w + e (w = 1: tile2DStride).
Rule tile2DStrideGroups(ir::ArithExpr r, ir::ArithExpr c, ir::ArithExpr w);
// registerBlock with tile2DStrideGroups(r, c, w): a work-item's columns of B at a step are
// c/w groups of w adjacent elements (vector reads once staged in local memory).
Rule registerBlockGroups(ir::ArithExpr r, ir::ArithExpr c, ir::ArithExpr w);
// registerBlockGroups(r, c, w), w = 16 bytes of the elements (4 floats, 2 doubles).
Rule registerBlockVector(ir::ArithExpr r, ir::ArithExpr c);
// ---- local-memory staging (rules_staging.cpp)
// At the map over a work-group tile's register blocks (registerBlock's result): the reduction
// split into chunks of k, each chunk's rows and columns copied into local memory by the
// work-group (toLocal o mapLocal2D, stored column by column), the blocks on mapLocal2D with
// their accumulators kept by their work-items across the chunks (LIFT's GEMM, CGO'17).
Rule stageLocal(ir::ArithExpr k);
// mapK(id) <<: x -> asScalar <<: mapK(id) <<: asVector(n) <<: x, x an array of scalars: a copy
// done n elements at a time, one vector load (and store) each where memory allows (LIFT's
// asVector/asScalar rewriting of a copy). n of at most 16 bytes (float4, double2).
Rule vectorize(ir::ArithExpr n);
// A reduction's step reads its array operands p._i (n | their size) through a copy into
// private memory made n elements at a time: reduce(fun (acc, p) => e, z) -> reduce(fun (acc,
// p) => (fun q => e[p._i := q])(asScalar <<: mapSeq(id) <<: asVector(n) <<: p._i), z).
Rule vectorizeOperand(ir::ArithExpr n);
// stageLocal(k) with its copies and the blocks' operands vectorized (16-byte vectors).
Rule stageLocalVector(ir::ArithExpr k);
// stageLocal's reduction over the chunks as reduceSeqPrefetch: the same value, its chunks'
// copies into local memory loaded one step early into registers (software pipelining).
Rule prefetchChunks();
// stageLocalVector(k) with prefetchChunks at its reduction over the chunks (a macro: explore
// finds the pipelined staging at stageLocal's depth).
Rule stageLocalPrefetch(ir::ArithExpr k);
// ---- stencil tiling with halos (rules_stencil.cpp; LIFT's overlapped tiling, CGO'18)
// slide(n, s) -> join o map(slide(n, s)) o slide((r-1)s+n, r s): tiles of r windows, each
// the slide of an overlapping chunk (r | the windows).
Rule slideTile(ir::ArithExpr r);
// map(map(f)) o slide2(n1, s1, n2, s2) -> untile o map(map(fun t => map(map(f)) <<:
// slide2(n1, s1, n2, s2) <<: t)) o slide2((r-1)s1+n1, r s1, (c-1)s2+n2, c s2), slide2 =
// map(transpose) o slide o map(slide): r x c blocks of outputs, each from its tile of the input
// with the halo; untile = join o map(map(join) o transpose).
Rule slideTile2D(ir::ArithExpr r, ir::ArithExpr c);
// slideTile2D(r, c) with the tiles on mapGlobal2D and a tile's maps mapSeqUnroll: a work-item
// per r x c block, its inputs loaded once (the register sliding window).
Rule slideTileRegisters(ir::ArithExpr r, ir::ArithExpr c);
// slideTile2D(r, c) with the tiles on mapWorkgroup2D, each tile with its halo copied into local
// memory by the work-group and its r x c outputs on mapLocal2D (LIFT's toLocal staging).
Rule slideTileLocal(ir::ArithExpr r, ir::ArithExpr c);

// ---- lowering
Rule mapGlobal(int dim = 0);
Rule mapWorkgroup(int dim = 0);
Rule mapLocal(int dim = 0);
Rule mapWorkgroupLocal(int dim = 0);  // map(map(f)) -> mapWorkgroup(d, mapLocal(d, f))
// map(fun x => map(f) <<: y) -> K(1, fun x => K(0, f) <<: y), K mapGlobal, mapWorkgroup or
// mapLocal: a 2D mapping, the inner map on dimension 0 (consecutive work-items, consecutive
// elements of y), with the side conditions of both.
Rule mapGlobal2D();
Rule mapWorkgroup2D();
Rule mapLocal2D();
Rule mapSeq();
Rule mapSeqUnroll();
Rule reduceSeq();
Rule reduceSeqUnroll();

// ---- memory
Rule toGlobal();
Rule toLocal();
Rule toPrivate();

}  // namespace rules

// A rule the strategy language can name, with its integer parameters.
struct RuleInfo {
  std::string name;       // "splitJoin"
  std::string signature;  // "splitJoin(k)"
  std::string group;
  size_t minParams = 0, maxParams = 0;
  std::vector<int64_t> defaults;  // for the optional parameters (maxParams - minParams of them)
  std::function<Rule(const std::vector<int64_t>&)> make;
};
const std::vector<RuleInfo>& ruleCatalog();
const RuleInfo* findRule(std::string_view name);
// The rule `name` with `params`; nullopt and a message in *error on an unknown name or bad
// parameters.
std::optional<Rule> makeRule(std::string_view name, const std::vector<int64_t>& params,
                             std::string* error = nullptr);
// Every rule of the catalog, parametric ones instantiated with each value of `paramValues`
// that they accept (splitJoin(k) for k in paramValues, mapGlobal(d) for d in {0, 1, 2} ∩ ...).
std::vector<Rule> instantiateRules(const std::vector<std::string>& names,
                                   const std::vector<int64_t>& paramValues);

}  // namespace fftc::rewrites
