// Named strategies: the lowerings fftc applies by default and the FFT lowering of the LIFT FFT
// paper, plus the small building blocks they are made of. Usable by name in the strategy
// language (`fftc compile --rewrite lowerFft`).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rewrites/strategy.h"

namespace fftc::rewrites {

// Eta-expands pattern arguments and beta-reduces applied Lambdas (betaEta in ir_util.h).
Strategy prepare();
// normalize(mapFusion), normalize(reduceMapFusion), layout identities.
Strategy fuseMaps();
Strategy fuseReduceMaps();
Strategy simplifyLayout();
// normalize(reduceMapFusion) only where a high-level reduce meets a high-level map whose
// function has no loop (no map, reduce or iterate): the mapped temporary goes, no parallelism
// does (a reduce of a map of partial reductions stays two loops).
Strategy fuseScalarReduceMaps();
// At the position (lowerDefault: the kernel body) a high-level reduce of add or mult over a
// constant n >= 64 elements becomes two levels, reduce <<: map(reduce) <<: split(k) with k the
// largest divisor of n with k*k <= n; a map feeding it moves under the split and fuses into the
// chunks (lowerGlobal then makes the chunks a mapGlobal: n/k partial results, not n).
Strategy splitTopReduce();
// Maps and reduces only: maps not nested in a loop body -> mapGlobal(0), or mapLocal(0) inside
// a mapWorkgroup (when dimension 0 is free there); other maps -> mapSeq; reduce ->
// reduceSeq. Maps whose function only rearranges data (views) stay `map`.
Strategy lowerGlobal();
// Sequential loops over constant sizes of at most kUnrollLimit elements -> mapSeqUnroll /
// reduceSeqUnroll: a butterfly's loops become straight-line code whose constant DFT entries
// and twiddles fold, and whose private arrays become registers.
inline constexpr int64_t kUnrollLimit = 16;
Strategy unrollSmall();
// All maps -> mapSeq, all reduces -> reduceSeq: one work-item runs everything.
Strategy lowerSequential();
// Copies (mapSeq(fun x => x) nests) where a lowered map's function or the program produces an
// array that is only a view of other data, so that every array result has a writer.
Strategy materializeViews();
// toGlobal around every stage (mapGlobal/mapWorkgroup not nested in a loop, or a top-level
// sequential map/reduce); toPrivate around arrays computed and consumed inside a work-item
// (toLocal for those of a mapLocal inside a mapWorkgroup).
Strategy insertMemory();
// The default lowering: prepare; foldClosed (fold_closed.h); try(splitTopReduce);
// fuseScalarReduceMaps; lowerGlobal; materializeViews; insertMemory. Makes any well-typed
// high-level program runnable by the code generator.
Strategy lowerDefault();
// Section 4 of the LIFT FFT paper: prepare; foldClosed; map-zip flattening wherever the row
// function after the inner map is a view (one map over all butterflies of a pass, the twiddles
// repeated by pad(.., wrap, ..); applied again at a batch level, one map over the butterflies
// of all rows); reduce-map fusion;
// then lowerGlobal, which makes the flattened map the pass's single mapGlobal (mapLocal inside
// a mapWorkgroup) with mapSeq and reduceSeq inside (listing 3); unrollSmall; materializeViews;
// insertMemory.
Strategy lowerFft();
// lowerFft with normalize(mapIntoProducer); normalize(mapZipFusion) after the flattening: a
// map after a pass (a product with a spectrum, a scaling) is computed where the pass computes
// its outputs instead of in a loop of its own through local memory, and an FFT's last pass and
// the next FFT's first pass are one where the views between them are the identity. What the fft operations of a program are lowered by
// (fftlib/plan/fft_ops.h); the library's own kernels keep lowerFft.
Strategy lowerFftFused();

// normalize(padThroughMap <+ transposePad <+ cropTranspose); normalize(padCropFusion): zero
// rows a pad adds to an outer dimension moved past the row function that maps them to zeros
// (an fft), turned into the columns' pads by a transpose, and those pads (and the crops of the
// columns after a transpose) read and written by the maps around them. expandFftOps applies it
// before choosing the row maps' forms (fftlib/plan/fft_ops.h): a program that pads a matrix in
// both dimensions and then transforms its rows and columns transforms only the non-zero rows.
Strategy skipZeroRows();

struct NamedStrategyInfo {
  std::string name;
  std::string description;
  std::function<Strategy()> make;
};
const std::vector<NamedStrategyInfo>& namedStrategies();
std::optional<Strategy> namedStrategy(std::string_view name);

}  // namespace fftc::rewrites
