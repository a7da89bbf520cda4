// The multi-pass form of a row map of fft operations (fft_ops_passes.h): the row function
// split into pointwise segments and transforms, each transform hierarchical.fdl's
// hierarchicalLocal or hierarchicalLocal3 with the segments in its first and last kernel.
#include "fftlib/plan/fft_ops_passes.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "fftlib/plan/library_sources.h"
#include "fftlib/plan/plan_choice.h"
#include "ir/builders.h"
#include "ir/fft_operation.h"
#include "ir/substitute.h"
#include "ir/view_predicates.h"

namespace fftc::fftlib::detail {
namespace {

using ir::containsFftOperation;
using ir::fftOperationSign;

// An input of a pointwise segment: an array of the transform's size n that the segment reads
// element by element. Per row (`source` [[T]n]B: row b is the leaf of row b) or the same
// array for every row (`broadcast`, [T]n).
struct Leaf {
  ir::ExprPtr expr;    // where it stands in the segment
  ir::ExprPtr source;  // per row: the rows; broadcast: the array
  bool perRow = false;
  // per row: pad(padLeft, padRight, padValue) <<: the row of `source` (a constant pad is no
  // view; read as the columns' pad in the tiles, the padding is never stored)
  const ir::Pad* pad = nullptr;
};

// A segment: `body` computes a row of n elements from its leaves, by maps and zips only.
struct Segment {
  ir::ExprPtr body;
  std::vector<Leaf> leaves;
};

// One transform of the chain and the segment after it (mid or post).
struct Link {
  FftOp op;
  Segment after;
};

// The row map's parts: pre, the transforms with the segments after them, post's crop.
struct Chain {
  Segment pre;
  std::vector<Link> links;                          // in the order they run
  std::optional<std::pair<int64_t, int64_t>> crop;  // post's crop(l, r), a view of the output
};

bool funHasOp(const ir::FunPtr& f) {
  return ir::containsFun(f, [](const ir::FunDecl& d) { return fftOperationSign(d) != 0; });
}

// The operation of e when e is an fft call, else 0.
int opSign(const ir::ExprPtr& e) {
  const auto* c = e->as<ir::FunCall>();
  return c && c->args().size() == 1 ? fftOperationSign(*c->f()) : 0;
}

bool arrayOfSize(const ir::Type& t, int64_t n) {
  return t.isArray() && t.size().constant() && *t.size().constant() == n;
}

// Splits a row function's body into a Chain. The row's Params are `rowParams`, read from
// `rows` (the row map's argument: a row of it binds them, a tuple over several Params).
class ChainBuilder {
 public:
  ChainBuilder(const ir::Lambda& g, ir::ExprPtr rows) : g_(g), rows_(std::move(rows)) {
    for (const auto& p : g.params()) rowParams_.push_back(p);
  }

  std::optional<Chain> build(int64_t n) {
    n_ = n;
    Chain chain;
    ir::ExprPtr e = g_.body();
    // post's crop: crop(l, r) under maps of one array (they commute with it)
    std::vector<ir::FunPtr> maps;
    ir::ExprPtr top = e;
    while (const auto* c = top->as<ir::FunCall>()) {
      const auto* m = c->f()->as<ir::Map>();
      if (!m || c->args().size() != 1 || opSign(top) || funHasOp(m->f()) ||
          usesAny(m->f(), rowParams_))
        break;
      maps.push_back(c->f());
      top = c->arg(0);
    }
    if (const auto* c = top->as<ir::FunCall>()) {
      if (const auto* crop = c->f()->as<ir::Crop>()) {
        auto l = crop->left().constant(), r = crop->right().constant();
        if (l && r) {
          chain.crop = {*l, *r};
          e = c->arg(0);
          for (auto it = maps.rbegin(); it != maps.rend(); ++it) e = ir::FunCall::make(*it, {e});
        }
      }
    }
    // from the outermost transform inwards
    std::vector<Link> links;
    while (true) {
      std::vector<ir::ExprPtr> found;
      if (!findOps(e, found)) return std::nullopt;
      if (found.empty()) break;
      if (std::any_of(found.begin(), found.end(), [&](const auto& f) { return f != found[0]; }))
        return std::nullopt;  // two transforms side by side
      const ir::ExprPtr opCall = found[0];
      auto hole = ir::Param::make("y");
      Link link;
      link.op = opOf(*opCall->as<ir::FunCall>(), opSign(opCall));
      if (link.op.n != n_) return std::nullopt;
      ir::ExprPtr body = replaceNode(e, opCall, hole);
      if (!segment(body, hole, link.after)) return std::nullopt;
      links.push_back(std::move(link));
      holes_.push_back(hole);
      e = opCall->as<ir::FunCall>()->arg(0);
    }
    if (links.empty() || !segment(e, nullptr, chain.pre)) return std::nullopt;
    chain.links.assign(links.rbegin(), links.rend());
    std::reverse(holes_.begin(), holes_.end());
    return chain;
  }

  // The hole of link i's segment (the transform's result).
  const ir::ParamPtr& hole(size_t i) const { return holes_.at(i); }

 private:
  // The fft calls at segment positions of e (reached through maps and zips); false when e
  // holds one elsewhere.
  bool findOps(const ir::ExprPtr& e, std::vector<ir::ExprPtr>& found) const {
    if (opSign(e)) {
      found.push_back(e);
      return true;
    }
    if (!containsFftOperation(e)) return true;
    const auto* c = e->as<ir::FunCall>();
    if (!c) return false;
    if (const auto* m = c->f()->as<ir::Map>()) {
      if (c->args().size() != 1 || funHasOp(m->f())) return false;
      return findOps(c->arg(0), found);
    }
    if (c->f()->as<ir::Zip>()) {
      for (const auto& a : c->args())
        if (!findOps(a, found)) return false;
      return true;
    }
    return false;
  }

  static ir::ExprPtr replaceNode(const ir::ExprPtr& e, const ir::ExprPtr& node,
                                 const ir::ExprPtr& with) {
    if (e == node) return with;
    const auto* c = e->as<ir::FunCall>();
    if (!c) return e;
    std::vector<ir::ExprPtr> args;
    bool changed = false;
    for (const auto& a : c->args()) {
      args.push_back(replaceNode(a, node, with));
      changed = changed || args.back() != a;
    }
    return changed ? ir::FunCall::make(c->f(), std::move(args), e->loc()) : e;
  }

  // Views, pads with a constant (read: the constant where the row is not) and crops of the
  // row's Params.
  static bool rowView(const ir::ExprPtr& e) {
    if (e->is<ir::Param>()) return true;
    const auto* c = e->as<ir::FunCall>();
    if (!c || !(ir::isView(*c->f()) || c->f()->is<ir::Pad>() || c->f()->is<ir::Crop>()))
      return false;
    return std::all_of(c->args().begin(), c->args().end(), rowView);
  }

  // A per-row leaf: a view of the row's Params (the row itself, a component of it, a pad of
  // either), of n elements; its rows are map(fun params => leaf) <<: rows.
  std::optional<Leaf> rowLeaf(const ir::ExprPtr& leaf) {
    if (!rowView(leaf) || !arrayOfSize(leaf->type(), n_)) return std::nullopt;
    const auto* c = leaf->as<ir::FunCall>();
    const auto* pad = c ? c->f()->as<ir::Pad>() : nullptr;
    if (pad && pad->boundary() == ir::PadBoundary::Constant && pad->left().constant() &&
        pad->right().constant() && ir::isViewExpr(c->arg(0))) {
      Leaf l = {leaf, rowSource(c->arg(0)), true, pad};
      if (!l.source) return std::nullopt;
      return l;
    }
    Leaf l = {leaf, rowSource(leaf), true};
    if (!l.source) return std::nullopt;
    return l;
  }

  // The rows of a per-row leaf: map(fun params => leaf) of the rows, or, when the rows are a
  // zip and the leaf reads one component, of that component's rows. Null when the rows it
  // reads are computed and another leaf reads them too (the form would compute them twice).
  ir::ExprPtr rowSource(const ir::ExprPtr& leaf) {
    std::vector<ir::ParamPtr> params = rowParams_;
    ir::ExprPtr rows = rows_;
    const auto* zip = rows_->as<ir::FunCall>();
    if (params.size() > 1 && zip && zip->f()->is<ir::Zip>()) {
      std::vector<size_t> read;
      for (size_t i = 0; i < params.size(); ++i)
        if (uses(leaf, params[i].get())) read.push_back(i);
      if (read.size() == 1) {
        params = {params[read[0]]};
        rows = zip->arg(read[0]);
      }
    }
    if (!ir::isViewExpr(rows) && sourcesRead_[rows.get()]++ > 0) return nullptr;
    if (params.size() == 1 && leaf == params[0]) return rows;
    std::vector<ir::ParamPtr> ps;
    ir::Substitution s;
    for (const auto& p : params) {
      ps.push_back(ir::Param::make(p->name()));
      s[p.get()] = ps.back();
    }
    return ir::FunCall::make(ir::Map::make(ir::Lambda::make(ps, ir::substitute(leaf, s))), {rows});
  }

  // e as a segment over `hole` (null: pre, whose row is the row map's Params): maps of
  // functions that read neither the row nor a transform, zips, and leaves.
  bool segment(const ir::ExprPtr& e, const ir::ParamPtr& hole, Segment& out) {
    out.body = e;
    return leaves(e, hole, out.leaves);
  }

  bool leaves(const ir::ExprPtr& e, const ir::ParamPtr& hole, std::vector<Leaf>& out) {
    if (hole && e == hole) return true;
    if (opSign(e)) return false;
    const bool readsRow = usesAny(e, rowParams_);
    const bool readsHole = hole && uses(e, hole.get());
    for (const auto& h : holes_)
      if (uses(e, h.get())) return false;  // an earlier transform's result
    if (!readsHole && !containsFftOperation(e)) {
      if (!readsRow) {
        if (!arrayOfSize(e->type(), n_)) return false;
        out.push_back({e, e, false});
        return true;
      }
      if (auto leaf = rowLeaf(e)) {
        out.push_back(*leaf);
        return true;
      }
    }
    const auto* c = e->as<ir::FunCall>();
    if (!c) return false;
    if (const auto* m = c->f()->as<ir::Map>()) {
      if (c->args().size() != 1 || funHasOp(m->f()) || usesAny(m->f(), rowParams_) ||
          (hole && uses(m->f(), hole.get())))
        return false;
      return leaves(c->arg(0), hole, out);
    }
    if (c->f()->as<ir::Zip>()) {
      for (const auto& a : c->args())
        if (!leaves(a, hole, out)) return false;
      return true;
    }
    return false;
  }

  const ir::Lambda& g_;
  ir::ExprPtr rows_;
  std::vector<ir::ParamPtr> rowParams_;
  std::vector<ir::ParamPtr> holes_;
  std::map<const ir::Expr*, int> sourcesRead_;  // computed rows: how many leaves read them
  int64_t n_ = 0;
};

using ir::operator<<;

// columns(m) = transpose o split(m): the m columns of a vector of n x m elements (hierarchical.fdl)
ir::ExprPtr columns(int64_t m, ir::ExprPtr v) {
  return ir::transpose() << (ir::split(m) << v);
}

// A padded leaf whose pad and row split into whole columns of m: the pad of each column.
bool columnPad(const Leaf& leaf, int64_t m) {
  if (!leaf.pad) return false;
  const int64_t l = *leaf.pad->left().constant(), r = *leaf.pad->right().constant();
  return l % m == 0 && r % m == 0;
}

// The B rows' leaves laid out as the tiles' rows of a kernel transforming the columns of the
// rows seen as n/m x m matrices: per row join(map(columns(m))), broadcast repeated B times. A
// padded row whose pad is whole columns: the columns of the row itself (tileValue pads them).
ir::ExprPtr tileRows(const Leaf& leaf, int64_t m, int64_t b) {
  if (leaf.perRow) {
    ir::ExprPtr rows = leaf.source;
    if (leaf.pad && !columnPad(leaf, m)) {  // the padded rows computed (a pass of their own)
      auto v = ir::param("v");
      rows = ir::map(ir::lambda({v}, ir::FunCall::make(leaf.pad->ptr(), {v}))) << rows;
    }
    auto v = ir::param("v");
    return ir::join() << (ir::map(ir::lambda({v}, columns(m, v))) << rows);
  }
  return ir::pad(0, (b - 1) * m, ir::PadBoundary::Wrap) << columns(m, leaf.source);
}

// What a tile reads for `leaf` from its row `column` (tileRows): padded where the pad is
// whole columns.
ir::ExprPtr tileValue(const Leaf& leaf, int64_t m, ir::ExprPtr column) {
  if (!leaf.perRow || !columnPad(leaf, m)) return column;
  const int64_t l = *leaf.pad->left().constant(), r = *leaf.pad->right().constant();
  return ir::FunCall::make(
      ir::Pad::make(l / m, r / m, ir::PadBoundary::Constant, leaf.pad->value()), {column});
}

// fun (l_1, ..., l_k) => segment with its leaves replaced (typed later, at the tile's size).
ir::LambdaPtr segmentFun(const Segment& s, const ir::ParamPtr& hole) {
  std::vector<ir::ParamPtr> ps;
  ir::ExprPtr body = s.body;
  if (hole) {
    ps.push_back(ir::param("y"));
    body = ir::substitute(body, {{hole.get(), ps.back()}});
  }
  for (const auto& l : s.leaves) {
    ps.push_back(ir::param("l"));
    // the leaf by identity: a per-row leaf may be a Param, a broadcast leaf any expression
    std::function<ir::ExprPtr(const ir::ExprPtr&)> swap = [&](const ir::ExprPtr& e) -> ir::ExprPtr {
      if (e == l.expr) return ps.back();
      const auto* c = e->as<ir::FunCall>();
      if (!c) return e;
      std::vector<ir::ExprPtr> args;
      bool changed = false;
      for (const auto& a : c->args()) {
        args.push_back(swap(a));
        changed = changed || args.back() != a;
      }
      return changed ? ir::FunCall::make(c->f(), std::move(args), e->loc()) : e;
    };
    body = swap(body);
  }
  return ir::lambda(ps, body);
}

// The twiddle matrix T^{n1·n2}_{n2} of hierarchical.fdl (element (j1, k2) = ω^{j1·k2}).
ir::ExprPtr twiddleMatrix(int64_t n1, int64_t n2, int sign, ir::ScalarKind precision) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = precision;
  opts.importReader = libraryImportReader();
  const std::string text = fmt::format(
      "import \"common.fdl\"\nkernel tw(x: [complex]1) = array2({0}, {1}, fun (j1, k2) => "
      "omega({2}, j1 * k2, {0} * {1}))\n",
      n1, n2, sign);
  return compiler::frontend::compileSource(text, "fft_op_twiddles.fdl", opts)
      .kernels.at(0)
      .lambda->body();
}

std::string radixList(const std::vector<int64_t>& rs);

// hierarchicalLocal3's middle kernel as a function of the first kernel's result (B·n
// elements: W[j1][k2][k3] of hierarchical.fdl) to the last kernel's rows (the size-n1 columns
// σ = k2·n3 + k3 of W, B·n2·n3 of them): the library's text, instantiated.
ir::FunPtr middleKernel3(const FftOp& op, const HierarchicalChoice& h, int64_t b) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = op.precision;
  opts.importReader = libraryImportReader();
  opts.defines = {{"rs1", h.levels[0]},
                  {"rs2", h.levels[1]},
                  {"rs3", h.levels[2]},
                  {"F2", h.columns[1]},
                  {"B", b},
                  {"dir", op.sign}};
  const std::string text = fmt::format(
      "import \"hierarchical.fdl\"\n"
      "kernel middle(y: [complex]{}) =\n"
      "  join <<: map(columns(n2 * n3)) <<: split(n1 * n2 * n3)\n"
      "  <<: toGlobal(fun tiles =>\n"
      "        join <<: map(join o join o map(transpose) o split(n3)) <<: split(n1 * n3)\n"
      "        <<: join <<: mapWorkgroup(0, twiddledTile(rs2, dir)) <<: tiles)\n"
      "  <<: split(F2) <<: zip(join <<: map(columns(n1 * n3)) <<: split(n1 * n2 * n3) <<: y,\n"
      "                        repeated(n1 * n3) <<: twiddleRows3(n1, n2, n3, dir))\n",
      b * op.n);
  opts.kernels = {"middle"};
  return compiler::frontend::compileSource(text, "fft_op_middle.fdl", opts).kernels.at(0).lambda;
}

std::string radixList(const std::vector<int64_t>& rs) {
  return fmt::format("[{}]", fmt::join(rs, ", "));
}

// The FFT of one level, D_{prod(rs)}, as a function [complex]n -> [complex]n; on w
// work-items a row (w > 0: a first kernel's tile, whose first pass takes a work-item's
// butterflies at once where it has more than w, as hierarchical.fdl's fftTileW).
ir::FunPtr levelFft(const FftOp& op, const Radices& rs, int64_t w = 0) {
  return libraryFft({op.sign, product(rs), op.precision},
                    w > 0 ? fmt::format("fftStockhamTwiddleRangeW({}, 0, {}, {}, {})",
                                        radixList(rs), rs.size(), op.sign, w)
                          : fmt::format("fftStockhamTwiddle({}, {})", radixList(rs), op.sign));
}

// h with its levels in the other order: the same transform (the four-step factorization holds
// for either order of n = n1·n2[·n3]), whose first kernel transforms the lines h's last kernel
// transforms (n1 elements n / n1 apart). Stage s of the result is stage k-1-s of h.
HierarchicalChoice reversedLevels(const HierarchicalChoice& h) {
  HierarchicalChoice r = h;
  std::reverse(r.levels.begin(), r.levels.end());
  std::reverse(r.columns.begin(), r.columns.end());
  return r;
}

// hierarchical.fdl's first-stage tile (twiddledTileWith: each row's FFT times its twiddles,
// stored transposed, the copy-out spread over the F x W work-items where W > F) with
// `rowFft` as the row FFT: the library's definition, given the C++-built row function by
// name (ElaborateOptions::functions). A function of a tile [F] of {row, twiddle row}.
ir::FunPtr twiddledTile(const FftOp& op, int64_t b, int64_t f, int64_t w, int64_t n,
                        const ir::FunPtr& rowFft) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = op.precision;
  opts.importReader = libraryImportReader();
  opts.defines = {{"B", b}};  // the library's defs name the batch (repeated)
  opts.functions = {{"fftOpsRowFft", rowFft}};
  opts.kernels = {"tile"};
  opts.typeCheck = false;  // the tile's element type is the program's; typed with it
  const std::string text = fmt::format(
      "import \"hierarchical.fdl\"\n"
      "kernel tile(t: [complex]1) = twiddledTileWith({}, {}, {}, fftOpsRowFft) <<: t\n",
      f, w, n);
  const ir::LambdaPtr k =
      compiler::frontend::compileSource(text, "fft_op_tile.fdl", opts).kernels.at(0).lambda;
  auto tile = ir::param("tile");
  return ir::lambda({tile}, ir::substitute(k->body(), {{k->params().at(0).get(), tile}}));
}

// Component j of a tile row over `count` arrays (zipped when more than one).
ir::ExprPtr component(const ir::ExprPtr& e, size_t j, size_t count) {
  return count == 1 ? e : ir::get(j, e);
}

// A transform's kernels before its last (hierarchical.fdl: hierarchicalLocal's first,
// hierarchicalLocal3's first two). The first kernel's tiles read `rows` (B·m1 rows of n_k
// elements, m1 = n / n_k, n_k the first kernel's size) beside the twiddle rows; a tile row e
// (one row of each: the row itself when there is one) is transformed as D_{n_k}(input(e)):
//   Y = ω^{j1·k2} (D_{n_k} input(e_{j1}))[k2], stored transposed
// in hierarchical.fdl's tile (twiddledTile above) on the planner's F x W work-items (`shape`).
// The result is the last kernel's columns: B·n/n1 rows of n1 (Y[•][k2], or the middle kernel's).
ir::ExprPtr firstKernels(const FftOp& op, const HierarchicalChoice& h, int64_t b,
                         const std::vector<int64_t>& shape, const std::vector<ir::ExprPtr>& rows,
                         const std::function<ir::ExprPtr(const ir::ParamPtr&)>& input) {
  const int64_t nFirst = product(h.levels.front()), nLast = product(h.levels.back());
  const int64_t m1 = op.n / nLast;
  const ir::ExprPtr twiddles = ir::pad(0, (b - 1) * m1, ir::PadBoundary::Wrap)
                               << twiddleMatrix(m1, nLast, op.sign, op.precision);
  auto e = ir::param("e");
  const ir::FunPtr rowFft =
      ir::lambda({e}, ir::FunCall::make(levelFft(op, h.levels.back(), shape.at(1)), {input(e)}));
  const ir::FunPtr tile = twiddledTile(op, b, h.columns[0], shape.at(1), nLast, rowFft);
  const ir::ExprPtr in = rows.size() == 1 ? rows[0] : ir::zip(rows);
  const ir::ExprPtr y =
      ir::join() << (ir::mapWorkgroup(0, tile) << (ir::split(h.columns[0]) << ir::zip(in, twiddles)));
  // Y's columns transposed (two levels), or the middle kernel's (three)
  return h.levels.size() == 2 ? ir::join() << (ir::map(ir::transpose()) << (ir::split(nFirst) << y))
                              : ir::FunCall::make(middleKernel3(op, h, b), {ir::join() << y});
}

// What h's last kernel computes of its tile row e: after(D_{n1}(column), leaves...), e the
// column alone (no leaves and !tuple) or (column, after's leaves..., anything further).
ir::ExprPtr lastKernelValue(const FftOp& op, const HierarchicalChoice& h, const Segment& after,
                            const ir::ParamPtr& hole, const ir::ParamPtr& e, bool tuple) {
  const int64_t mLast = op.n / product(h.levels.front());
  const ir::FunPtr fft = levelFft(op, h.levels.front());
  std::vector<ir::ExprPtr> args = {ir::FunCall::make(fft, {tuple ? ir::get(0, e) : e})};
  for (size_t i = 0; i < after.leaves.size(); ++i)
    args.push_back(tileValue(after.leaves[i], mLast, ir::get(i + 1, e)));
  return ir::FunCall::make(segmentFun(after, hole), args);
}

// after's leaves as the rows of the tiles of h's last kernel (B·n/n1 rows of n1).
std::vector<ir::ExprPtr> lastKernelLeafRows(const FftOp& op, const HierarchicalChoice& h,
                                            int64_t b, const Segment& after) {
  std::vector<ir::ExprPtr> rows;
  for (const auto& l : after.leaves) rows.push_back(tileRows(l, op.n / product(h.levels.front()), b));
  return rows;
}

// A transform's last kernel (hierarchical.fdl), tiles of F_k of the B·n/n1 columns:
//   X[k1·(n/n1) + k2] = after((D_{n1} column_{k2})[k1], leaves...), written through the views
ir::ExprPtr lastKernel(const FftOp& op, const HierarchicalChoice& h, int64_t b,
                       const ir::ExprPtr& columnsLast, const Segment& after,
                       const ir::ParamPtr& hole) {
  const int64_t mLast = op.n / product(h.levels.front());
  std::vector<ir::ExprPtr> in = {columnsLast};
  for (auto& r : lastKernelLeafRows(op, h, b, after)) in.push_back(std::move(r));
  auto e = ir::param("e");
  const ir::FunPtr rowFun = ir::lambda({e}, lastKernelValue(op, h, after, hole, e, in.size() > 1));
  const ir::ExprPtr tiles = ir::split(h.columns.back()) << (in.size() == 1 ? in[0] : ir::zip(in));
  const ir::ExprPtr z = ir::join() << (ir::mapWorkgroup(0, ir::mapLocal(0, rowFun)) << tiles);
  auto r = ir::param("r");
  return ir::map(ir::lambda({r}, ir::join() << (ir::transpose() << r))) << (ir::split(mLast) << z);
}

}  // namespace

// The chain's transforms as hierarchical.fdl lays them out (fft_ops_passes.h), each transform
// after the first fused with the one before it: transform i+1 takes its levels in the other
// order than transform i (reversedLevels), so that its first kernel transforms the lines
// transform i's last kernel does, and that kernel is one: D_{n1} of transform i, the segment
// between them, then transform i+1's first level and twiddles. A two-level convolution is
// 2 + 2 - 1 = 3 kernels, a three-level one 5.
ir::ExprPtr multiPassForm(const ir::FunCall& call, const FftRequest& limits, ExpandedFftOps& out) {
  const auto* map = call.f()->as<ir::Map>();
  const auto* g = map ? map->f()->as<ir::Lambda>() : nullptr;
  if (!g || call.args().size() != 1) return nullptr;
  const ir::ExprPtr& rows = call.arg(0);
  if (containsFftOperation(rows) || !rows->type().isArray() || !rows->type().size().constant() ||
      !containsFftOperation(g->body()))
    return nullptr;
  // the size: that of any transform (the chain checks they agree)
  std::optional<FftOp> first;
  std::function<void(const ir::ExprPtr&)> find = [&](const ir::ExprPtr& e) {
    if (first) return;
    if (int s = opSign(e)) first = opOf(*e->as<ir::FunCall>(), s);
    if (const auto* c = e->as<ir::FunCall>())
      for (const auto& a : c->args()) find(a);
  };
  find(g->body());
  if (!first || !plannedByRadices(first->n)) return nullptr;

  FftRequest r = limits;
  r.size = first->n;
  r.dims.clear();
  r.batch = *rows->type().size().constant();
  r.precision = first->precision == ir::ScalarKind::Double ? Precision::F64 : Precision::F32;
  r.direction = Direction::Forward;
  r.variant = Variant::Auto;
  r.radices.clear();
  r.real = false;
  r.levels = 0;
  r.levelSizes.clear();
  PlanChoice choice = choosePlan(withLimits(r, PlanLimits{}));
  const auto* local = choice.as<LocalChoice>();
  if (local && local->oneArray) {
    // one local array of a whole row (16384 f32 in an H100's 227 KiB) that the one-kernel form
    // declined (fft_ops.cpp oneArrayChain: transforms side by side, or a chain of three whose
    // radices differ), so the hierarchical plan of the row, when there is one, rather than a
    // pass over global memory per radix
    r.variant = Variant::Hierarchical;
    try {
      choice = choosePlan(withLimits(r, PlanLimits{}));
    } catch (const backends::UserError&) {
      return nullptr;
    }
  }
  if (choice.variant != Variant::Hierarchical) return nullptr;

  ChainBuilder builder(*g, rows);
  const std::optional<Chain> chain = builder.build(first->n);
  if (!chain || chain->pre.leaves.empty()) return nullptr;
  for (const Link& link : chain->links)
    if (link.op.precision != first->precision) return nullptr;
  out.localRowSkew = out.localRowSkew || choice.localRowSkew;
  out.localReuseInPass = out.localReuseInPass || choice.localReuseInPass;
  const int64_t b = r.batch;
  const size_t k = choice.as<HierarchicalChoice>()->levels.size();
  HierarchicalChoice h = *choice.as<HierarchicalChoice>();
  std::vector<std::vector<int64_t>> shapes = choice.stageLocal;  // h's, stage by stage
  ir::ExprPtr columnsLast;  // the last kernel's columns of the transform so far
  for (size_t i = 0; i < chain->links.size(); ++i) {
    const Link& link = chain->links[i];
    std::vector<ir::ExprPtr> in;
    std::function<ir::ExprPtr(const ir::ParamPtr&)> input;
    if (i == 0) {  // pre's leaves, read in the tile loads
      const int64_t m1 = link.op.n / product(h.levels.back());
      const Segment& pre = chain->pre;
      for (const auto& l : pre.leaves) in.push_back(tileRows(l, m1, b));
      input = [&pre, m1](const ir::ParamPtr& e) {
        std::vector<ir::ExprPtr> args;
        for (size_t j = 0; j < pre.leaves.size(); ++j)
          args.push_back(tileValue(pre.leaves[j], m1, component(e, j, pre.leaves.size())));
        return ir::FunCall::make(segmentFun(pre, nullptr), args);
      };
    } else {  // the last kernel of the transform before, then its segment, in this first kernel
      const Link& before = chain->links[i - 1];
      in = {columnsLast};
      for (auto& row : lastKernelLeafRows(before.op, h, b, before.after)) in.push_back(row);
      const bool tuple = in.size() > 1;
      input = [&before, &builder, h, i, tuple](const ir::ParamPtr& e) {
        return lastKernelValue(before.op, h, before.after, builder.hole(i - 1), e, tuple);
      };
      h = reversedLevels(h);
      std::reverse(shapes.begin(), shapes.end());
    }
    columnsLast = firstKernels(link.op, h, b, shapes.front(), in, input);
    std::vector<std::string> levels;  // in the order the kernels transform them
    for (auto it = h.levels.rbegin(); it != h.levels.rend(); ++it)
      levels.push_back(fmt::format("{}", fmt::join(*it, ", ")));
    std::vector<int64_t> columns(h.columns.begin(), h.columns.end());
    out.operations.push_back(fmt::format(
        "{} {} {}: hierarchical, radices {} ({} kernels of {} columns per group{})",
        link.op.sign < 0 ? "fft" : "ifft", link.op.n, precisionName(r.precision),
        fmt::join(levels, " | "), k, fmt::join(columns, ", "),
        i == 0 ? "" : ", the first one the last of the transform before"));
    // every kernel but the last: that one is the next transform's first, or comes below
    out.stageLocal.insert(out.stageLocal.end(), shapes.begin(), shapes.end() - 1);
  }
  out.stageLocal.push_back(shapes.back());
  const Link& last = chain->links.back();
  ir::ExprPtr e = lastKernel(last.op, h, b, columnsLast, last.after,
                             builder.hole(chain->links.size() - 1));
  if (chain->crop) e = ir::map(ir::crop(chain->crop->first, chain->crop->second)) << e;
  return e;
}

}  // namespace fftc::fftlib::detail
