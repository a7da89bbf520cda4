// fft(x) / ifft(x) inside a program -> the FFT library's algorithm, chosen by the planner
// (fft_ops.h).
#include "fftlib/plan/fft_ops.h"

#include <algorithm>
#include <functional>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "fftlib/plan/fft_ops_passes.h"
#include "ir/fft_operation.h"
#include "fftlib/plan/library_sources.h"
#include "fftlib/plan/plan_choice.h"
#include "ir/infer.h"
#include "ir/traversal.h"
#include "ir/view_predicates.h"
#include "rewrites/named_strategies.h"

namespace fftc::fftlib {
namespace {

using backends::UserError;
using ir::fftOperationSign;

using Op = detail::FftOp;

using detail::libraryFft;
using detail::opOf;

std::string radixList(const std::vector<int64_t>& rs) { return fmt::format("[{}]", fmt::join(rs, ", ")); }

// The transforms applied one after another to reach e's value, along its longest chain: 0 when
// e holds no operation, 1 + that of the argument for an operation's call, else the most of its
// parts (a call's arguments and the functions it applies).
int transformDepth(const ir::ExprPtr& e) {
  const auto* c = e->as<ir::FunCall>();
  if (!c) return 0;
  if (c->args().size() == 1 && fftOperationSign(*c->f())) return 1 + transformDepth(c->arg(0));
  int d = 0;
  for (const auto& a : c->args()) d = std::max(d, transformDepth(a));
  std::function<void(const ir::FunDecl&)> inFun = [&](const ir::FunDecl& f) {
    for (const auto& x : f.exprChildren()) d = std::max(d, transformDepth(x));
    for (const auto& g : f.funChildren()) inFun(*g);
  };
  inFun(*c->f());
  return d;
}

// Each operation of e replaced by replacement(op, depth) applied to its argument, depth the
// transforms before it (transformDepth of its argument; types kept where nothing changed; the
// caller re-infers).
class ReplaceOps : public ir::IRMutator {
 public:
  using IRMutator::mutate;
  explicit ReplaceOps(std::function<ir::FunPtr(const Op&)> replacement)
      : replacement_([r = std::move(replacement)](const Op& op, int) { return r(op); }) {}
  explicit ReplaceOps(std::function<ir::FunPtr(const Op&, int)> replacement)
      : replacement_(std::move(replacement)) {}
  ir::ExprPtr mutate(const ir::ExprPtr& e) override {
    const auto* c = e->as<ir::FunCall>();
    const int sign = c && c->args().size() == 1 ? fftOperationSign(*c->f()) : 0;
    if (!sign) return mutateChildren(e);
    const Op op = opOf(*c, sign);
    return ir::FunCall::make(replacement_(op, transformDepth(c->arg(0))), {mutate(c->arg(0))},
                             e->loc());
  }

 private:
  std::function<ir::FunPtr(const Op&, int)> replacement_;
};

// The operations of e, outermost first.
std::vector<Op> collectOps(const ir::ExprPtr& e) {
  std::vector<Op> ops;
  ReplaceOps collect([&](const Op& op) {
    ops.push_back(op);
    return ir::Id::make();
  });
  collect.mutate(e);
  return ops;
}

// An operation passed as a function (`map(fft)`, `iterate(2, fft)`) as fun v => fft(v), so that
// every operation is a call whose argument's type gives its size.
class EtaOps : public ir::IRMutator {
 public:
  using IRMutator::mutate;
  ir::FunPtr mutateFunChild(const ir::FunDecl& parent, const ir::FunPtr& child) override {
    if (!fftOperationSign(*child)) return IRMutator::mutateFunChild(parent, child);
    auto v = ir::Param::make("v", {}, child->loc());
    return ir::Lambda::make({v}, ir::FunCall::make(child, {v}, child->loc()), child->loc());
  }
};

compiler::frontend::Kernel withBody(const compiler::frontend::Kernel& k, ir::ExprPtr body) {
  compiler::frontend::Kernel out = k;
  out.lambda = ir::inferTypes(ir::Lambda::make(k.lambda->params(), std::move(body), k.loc));
  return out;
}

// The radices of an operation outside the one-kernel form, and the library call.
std::string globalCall(const Op& op, std::vector<std::string>& lines) {
  const char* name = op.sign < 0 ? "fft" : "ifft";
  const char* prec = op.precision == ir::ScalarKind::Double ? "f64" : "f32";
  const Precision p = op.precision == ir::ScalarKind::Double ? Precision::F64 : Precision::F32;
  if (plannedByRadices(op.n, p)) {
    const auto rs = chooseRadices(op.n);
    lines.push_back(fmt::format("{} {} {}: radices {} (passes over global memory)", name, op.n,
                                prec, fmt::join(rs, ", ")));
    return fmt::format("fftStockhamTwiddle({}, {})", radixList(rs), op.sign);
  }
  const auto rsM = chooseRadices(bluesteinSize(op.n, p));
  lines.push_back(fmt::format("{} {} {}: Bluestein, M = {}, radices {} (passes over global memory)",
                              name, op.n, prec, product(rsM), fmt::join(rsM, ", ")));
  return fmt::format("fftBluesteinRange({}, {}, 0, {}, {})", op.n, radixList(rsM), rsM.size(),
                     op.sign);
}

}  // namespace

namespace detail {

// The operation a call applies, read from its typed argument ([complex]n, n constant).
FftOp opOf(const ir::FunCall& c, int sign) {
  const ir::Type& t = c.arg(0)->type();
  const char* name = sign < 0 ? "fft" : "ifft";
  if (!t.isArray() || !t.element().isComplex())
    throw backends::UserError(fmt::format("{}: expects a [complex]n, got {}", name, t.str()));
  auto n = t.size().constant();
  if (!n)
    throw backends::UserError(
        fmt::format("{} of a {}: the size of a transform must be known at compile "
                    "time (give it with -D)",
                    name, t.str()));
  return {sign, *n, t.element().scalarKind()};
}

ir::FunPtr libraryFft(const FftOp& op, const std::string& call) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = op.precision;
  opts.importReader = libraryImportReader();
  const std::string text =
      fmt::format("import \"common.fdl\"\nkernel op(x: [complex]{}) = {} <<: x\n", op.n, call);
  auto program = compiler::frontend::compileSource(text, "fft_op.fdl", opts);
  return program.kernels.at(0).lambda;
}

}  // namespace detail

bool hasFftOps(const compiler::frontend::Kernel& kernel) {
  return ir::containsFftOperation(kernel.lambda->body());
}

namespace {

// The kernel with every operation a call (EtaOps), typed.
compiler::frontend::Kernel etaOps(const compiler::frontend::Kernel& k) {
  EtaOps eta;
  const ir::ExprPtr body = eta.mutate(k.lambda->body());
  return body == k.lambda->body() ? k : withBody(k, body);
}

}  // namespace

namespace {

// The radices of the first of a row's transforms in one local array (LocalChoice::oneArray:
// the planner's where two arrays take more than half of the budget or do not fit), `rs` the
// planner's (oneArrayRadices), false where the row has no such form. Every pass from local
// memory to local memory must keep the work-group's n / q work-items busy, each reading its
// elements, waiting, writing (CodegenOptions::localReuseInPass); only the first pass (from
// global memory) and the last (to it) may loop over their butterflies. One transform takes rs;
// a transform of another's result (depth 2, the convolution) shares its first pass with the
// other's last (mapZipFusion), a pass between local arrays: the first transform takes the
// order of rs whose passes after the first have one radix, the second the reverse (8192 f32
// [16, 16, 16, 2]: [2, 16, 16, 16], then [16, 16, 16, 2]); a longer chain, one radix. Not for
// transforms side by side (the multi-pass form's hierarchical plan, or passes over global
// memory).
bool oneArrayChain(size_t transforms, const ir::ExprPtr& body, Radices& rs) {
  const int depth = transformDepth(body);
  if (static_cast<size_t>(depth) != transforms) return false;
  if (depth == 1) return true;
  auto uniformTail = [](const Radices& c) {
    return std::all_of(c.begin() + 1, c.end(), [&](int64_t q) { return q == c[1]; });
  };
  if (!uniformTail(rs)) std::reverse(rs.begin(), rs.end());
  return uniformTail(rs) && (depth == 2 || rs.front() == rs[1]);
}

// Whether x is stored in the order its type says (row-major): a kernel parameter or a computed
// value, seen through joins and splits only (views that keep the elements' order).
bool rowMajor(const ir::ExprPtr& x) {
  if (x->is<ir::Param>()) return true;
  const auto* c = x->as<ir::FunCall>();
  if (!c) return false;
  if (c->f()->is<ir::Join>() || c->f()->is<ir::Split>())
    return c->args().size() == 1 && rowMajor(c->arg(0));
  return !ir::isView(*c->f());
}

// Whether the rows are the columns of row-major arrays, transpose <<: X (row r's element i at
// i·B + r) or a zip of such: adjacent rows adjacent in memory, a row's elements B apart.
bool columnsOfArrays(const ir::ExprPtr& rows) {
  const auto* c = rows->as<ir::FunCall>();
  if (!c) return false;
  if (c->f()->is<ir::Zip>())
    return std::all_of(c->args().begin(), c->args().end(), columnsOfArrays);
  return c->f()->is<ir::Transpose>() && c->args().size() == 1 && rowMajor(c->arg(0));
}

// The rows a work-group of a transform of another's result (the convolution's one kernel): at
// most kChainGroupWorkItems work-items, where the planner's plain FFT takes 256 (rowsPerGroup).
// The chain's kernel has both transforms' barriers; smaller groups let more of them share an
// SM, so that one group's wait at a barrier is another's work. On an H200 (conv, 2^24
// elements f32, pipeline_bench --fft-ops;
// bench/results/2026-11-30-nvidia-h200-session23-conv_shapes.csv): 512 [64, 4] 0.0884 ->
// [64, 2] 0.0856 ms, 1024 [128, 2] 0.0968 -> [128, 1] 0.0862 ms; 256 [16, 8] keeps its 128;
// 2048 and up are one row a group already.
constexpr int64_t kChainGroupWorkItems = 128;

// The plan of r with the given radices where the chain's one kernel can take it: stockhamLocal
// in one kernel (a LocalChoice, no looped passes), one local array only where the chain's
// passes allow it (oneArrayChain), and `accept` of its LocalChoice; nullopt where the planner
// vetoes the radices or any of these fails (the caller keeps the planner's plan). For both of
// the chain's radix rules: the wider radices (chainRadices) and the even passes
// (chainEvenPasses).
std::optional<PlanChoice> tryChainRadices(FftRequest r, const Radices& radices, size_t transforms,
                                          const ir::ExprPtr& body,
                                          const std::function<bool(const LocalChoice&)>& accept) {
  r.radices = radices;
  try {
    PlanChoice c = choosePlan(withLimits(r, PlanLimits{}));
    const auto* l = c.as<LocalChoice>();
    Radices order = radices;
    if (c.kernel == "stockhamLocal" && l && l->loopedWorkItems == 0 && accept(*l) &&
        (!l->oneArray || oneArrayChain(transforms, body, order)))
      return std::optional<PlanChoice>(std::move(c));
  } catch (const UserError&) {
    // no such plan
  }
  return std::nullopt;
}

// A transform of another's result (the convolution's one kernel) in one local array whose
// planner radices end in a pass of a radix below 8 (8192 f32: [16, 16, 16, 2] on 512
// work-items, the radix-2 pass 8 butterflies a work-item) takes as many passes of radix 8 and
// one of 16 on n / 8 work-items instead ([8, 8, 8, 16] on 1024, the radix-8 passes one
// butterfly a work-item): same passes and barriers, twice the warps to wait at them. On an
// H200 (conv 8192, 2^24 elements f32, pipeline_bench --fft-ops '{"form0.radices":
// [8,8,8,16],"form0.shape":[1024,1]}' against the planner's, the same process;
// bench/results/2026-11-30-nvidia-h200-session24-conv.csv): 0.1669 / 0.1668 -> 0.1634 ms
// (1.37 -> 1.40x cuFFT's pipeline); session 23's tuner found the same, 0.1659 -> 0.1620
// (bench/results/2026-11-30-nvidia-h200-session23-conv_tuned.csv). Only f32 and n / 8 of
// 512 .. 1024 work-items (8192 among the powers of two the one kernel takes: [8, .., 8, 16]
// must multiply to n); other sizes and f64 keep the planner's (not measured).
void chainEvenPasses(FftRequest r, PlanChoice& choice, size_t transforms,
                     const ir::ExprPtr& body) {
  const auto* l = choice.as<LocalChoice>();
  if (r.precision != Precision::F32 || choice.kernel != "stockhamLocal" || !l || !l->oneArray ||
      l->loopedWorkItems > 0 || !l->raderPass.empty() ||
      std::none_of(l->radices.begin(), l->radices.end(), [](int64_t q) { return q < 8; }))
    return;
  Radices even(l->radices.size() - 1, 8);
  even.push_back(16);
  int64_t product = 1;
  for (const int64_t q : even) product *= q;
  const int64_t w = r.size / 8;
  if (product != r.size || w < 512 || w > 1024) return;
  r.variant = Variant::Local;
  r.workgroupSize = w;
  r.fftsPerGroup = 1;
  if (auto c = tryChainRadices(r, even, transforms, body, [&](const LocalChoice& cl) {
        return cl.oneArray && cl.raderPass.empty() && cl.shape.workgroupSize == w;
      }))
    choice = std::move(*c);
}

void chainGroupRows(FftRequest r, PlanChoice& choice) {
  const auto* l = choice.as<LocalChoice>();
  if (choice.kernel != "stockhamLocal" || !l || l->oneArray ||
      l->loopedWorkItems > 0 || !l->raderPass.empty())
    return;
  const int64_t w = l->shape.workgroupSize, rowsNow = l->shape.fftsPerGroup;
  const int64_t rowsChain = std::max<int64_t>(1, kChainGroupWorkItems / w);
  if (rowsNow <= rowsChain) return;
  r.variant = Variant::Local;
  r.radices = l->radices;
  r.workgroupSize = w;
  r.fftsPerGroup = rowsChain;
  try {
    PlanChoice c = choosePlan(withLimits(r, PlanLimits{}));
    const auto* cl = c.as<LocalChoice>();
    if (c.kernel == choice.kernel && cl && cl->radices == l->radices && !cl->oneArray)
      choice = std::move(c);
  } catch (const UserError&) {
    // the planner's rows
  }
}

// The one-kernel form of a row map (fft_ops.h): map(g) <<: rows, every operation in g, all of
// one size n, rows of a constant count B, when the planner plans B transforms of n as
// stockhamLocal: rowsInGroups(F, B, mapWorkgroup(0, mapLocal(1, g'))) <<: rows (common.fdl),
// g' with the planner's radices. Null otherwise.
//
// Rows that are the columns of row-major arrays (columnsOfArrays: conv2d's second pass, the
// columns of the rows' spectra and of H) are a tile instead, as hierarchical.fdl's column
// stages and nd.fdl's strided passes take them: F adjacent columns on local dimension 0,
// mapWorkgroup(0, mapLocal(0, g')), each column's butterflies on dimension 1 (lowerFft), F by
// columnTileLines (64 bytes of elements, else 32). A warp then loads and stores whole sectors
// where a column a work-group read one element of 32 rows apiece. When the caller transposes
// the result back (`transposedInto`, conv2d's transpose <<: map(g) <<: columns) and F divides
// B, the form writes through that transpose, toGlobal(fun t => transpose <<: join <<: perGroup
// <<: t) <<: split(F) <<: rows, so that the stores are the columns' too and the next pass reads
// rows (*transposedInto = true: the caller drops its transpose).
ir::ExprPtr oneKernelForm(const ir::FunCall& call, const FftRequest& limits,
                          const FftOpsOptions& choices, ExpandedFftOps& out,
                          bool* transposedInto = nullptr) {
  const auto* map = call.f()->as<ir::Map>();
  const auto* g = map ? map->f()->as<ir::Lambda>() : nullptr;
  if (!g || call.args().size() != 1) return nullptr;
  const ir::ExprPtr& rows = call.arg(0);
  if (ir::containsFftOperation(rows) || !rows->type().isArray() ||
      !rows->type().size().constant())
    return nullptr;
  const std::vector<Op> ops = collectOps(g->body());
  if (ops.empty() ||
      !plannedByRadices(ops[0].n, ops[0].precision == ir::ScalarKind::Double ? Precision::F64
                                                                               : Precision::F32) ||
      !std::all_of(ops.begin(), ops.end(), [&](const Op& o) {
        return o.n == ops[0].n && o.precision == ops[0].precision;
      }))
    return nullptr;
  FftRequest r = limits;
  r.size = ops[0].n;
  r.dims.clear();
  r.batch = *rows->type().size().constant();
  r.precision = ops[0].precision == ir::ScalarKind::Double ? Precision::F64 : Precision::F32;
  r.direction = Direction::Forward;
  r.variant = Variant::Auto;
  // a row that the 1D planner gives one work-item (rowInOneWorkItem: stockhamLocalCopy, whose
  // copies this form has not) keeps its radices through local memory here, as before
  const Radices several = chooseRadices(r.size);
  r.radices = localRadices(r.size, r.precision) != several ? several : Radices{};
  r.real = false;
  // the tuner's plan for this row map, where it gave one (FftOpsOptions::forms)
  const size_t formIndex = out.formRequests.size();
  out.formRequests.push_back(r);
  out.formColumns.push_back(columnsOfArrays(rows));
  const FftOpsForm* form = formIndex < choices.forms.size() && !choices.forms[formIndex].isDefault()
                               ? &choices.forms[formIndex]
                               : nullptr;
  auto refuse = [&](const std::string& why) {
    throw UserError(fmt::format("fft operations' row map {} ({} x {} {}): {}", formIndex, r.batch,
                                r.size, precisionName(r.precision), why));
  };
  if (form) {
    r.variant = Variant::Local;
    if (!form->radices.empty()) r.radices = form->radices;
    r.workgroupSize = form->workgroupSize;
    r.fftsPerGroup = out.formColumns.back() ? 0 : form->fftsPerGroup;
  }
  PlanChoice choice;
  try {
    choice = choosePlan(withLimits(r, PlanLimits{}));
  } catch (const UserError& e) {
    if (form) refuse(e.what());  // the planner's veto of the caller's plan, said where
    throw;
  }
  bool wider = false;
  // a transform of another's result in rows (the convolution's one kernel), the planner's plan
  // not overridden by the tuner's
  const bool chain = !form && transformDepth(g->body()) >= 2 && !columnsOfArrays(rows);
  // A transform of another's result (the convolution) with fewer, wider radices
  // (chainRadices): a pass fewer is a local exchange and a barrier fewer in each transform.
  // Taken where the planner plans them in one kernel too (LocalChoice, no looped passes) and
  // the widest butterfly stays in the registers of that plan's work-group
  // (butterflyInRegisters, as the planner's one-array rule checks).
  if (chain) {
    const Radices wide = chainRadices(r.size, choices.chainRadix);
    if (wide != several && wide.size() < several.size()) {
      if (auto c = tryChainRadices(r, wide, ops.size(), g->body(), [&](const LocalChoice& l) {
            return !choices.chainRegisterBound ||
                   butterflyInRegisters(*std::max_element(wide.begin(), wide.end()),
                                        l.shape.workgroupSize * l.shape.fftsPerGroup, r.precision);
          })) {
        choice = std::move(*c);
        wider = true;
      }
    }
  }
  if (chain && !wider) chainEvenPasses(r, choice, ops.size(), g->body());
  if (chain) chainGroupRows(r, choice);
  const auto* local = choice.as<LocalChoice>();
  // (a one array whose passes loop over the work-items, fft.fdl's W: not fftStockhamTwiddle's
  // passes, which the row map below takes)
  if (choice.kernel != "stockhamLocal" || !local || local->loopedWorkItems > 0 ||
      !local->raderPass.empty()) {
    if (form) refuse(fmt::format("the plan is {}, not the one-kernel form", choice.kernel));
    return nullptr;
  }
  const int64_t b = r.batch, w = local->shape.workgroupSize;
  // columns of arrays: a tile of adjacent columns where the row keeps two local arrays
  // (columnTileLines' bytes); in one array, the multi-pass form's hierarchical column tiles,
  // not a column per row of work-items (strided loads)
  const bool columns = columnsOfArrays(rows);
  if (columns && local->oneArray) {
    if (form) refuse("a column tile in one local array");
    return nullptr;
  }
  const int64_t tile = columns ? columnTileLines(r.size, w, b, r) : 0;
  const int64_t f = tile > 0 ? tile : local->shape.fftsPerGroup;
  // A transform of another's result takes the radices in the other order: its first pass then
  // has the radix of the other's last, the two butterflies read and write the same elements
  // ({j + k·n/r}), and lowerFftFused's mapZipFusion makes them one pass, the work between
  // them (a product with a spectrum) in registers: no local exchange, no barrier between.
  Radices first = local->radices;
  if (local->oneArray && !oneArrayChain(ops.size(), g->body(), first)) {
    if (form) refuse("radices " + listText(first) + " in one local array, whose passes after "
                     "the first need one radix");
    return nullptr;
  }
  const Radices reversed(first.rbegin(), first.rend());
  ReplaceOps replace([&](const Op& op, int depth) {
    const Radices& rs = depth % 2 ? reversed : first;
    out.operations.push_back(fmt::format(
        "{} {} {}: radices {} (one kernel, {} work-items x {} {} per group)",
        op.sign < 0 ? "fft" : "ifft", op.n, precisionName(r.precision), fmt::join(rs, ", "), w,
        f, tile > 0 ? "adjacent columns" : "rows"));
    return libraryFft(op, fmt::format("fftStockhamTwiddle({}, {})", radixList(rs), op.sign));
  });
  ir::FunPtr rowFun = replace.mutate(call.f()->as<ir::Map>()->f());
  if (tile > 0) {
    out.localRowSkew = true;  // the F columns' rows meet in other banks (CodegenOptions)
    out.columnTiles = true;
    out.stageLocal.push_back({f, w});
  } else {
    out.stageLocal.insert(out.stageLocal.end(), choice.stageLocal.begin(), choice.stageLocal.end());
  }
  out.oneArray = out.oneArray || local->oneArray;
  // (not for the wider radices: their registers bound the blocks an SM before two arrays do,
  // 1024 [32, 32] 6 blocks with 34.8 KB, so one array would only add a barrier a pass)
  out.chainInOneArray =
      out.chainInOneArray || (tile == 0 && !wider && transformDepth(g->body()) >= 2);
  out.localPaddings.push_back(tile > 0 ? 0 : choice.localPadding);
  ir::FunPtr perGroup = ir::MapWorkgroup::make(0, ir::MapLocal::make(tile > 0 ? 0 : 1, rowFun));
  if (tile > 0 && transposedInto && b % f == 0) {
    auto t = ir::Param::make("t");
    const ir::ExprPtr written = ir::FunCall::make(
        ir::Transpose::make(),
        {ir::FunCall::make(ir::Join::make(), {ir::FunCall::make(perGroup, {t})})});
    *transposedInto = true;
    return ir::FunCall::make(ir::ToGlobal::make(ir::Lambda::make({t}, written)),
                             {ir::FunCall::make(ir::Split::make(f), {rows})});
  }
  ir::ExprPtr in = rows;
  const int64_t extra = b % f == 0 ? 0 : f - b % f;
  if (extra) in = ir::FunCall::make(ir::Pad::make(0, extra, ir::PadBoundary::Clamp), {in});
  ir::ExprPtr e = ir::FunCall::make(ir::Split::make(f), {in});
  e = ir::FunCall::make(ir::Join::make(), {ir::FunCall::make(perGroup, {e})});
  if (extra) e = ir::FunCall::make(ir::Crop::make(0, extra), {e});
  return e;
}

// The row maps of the kernel's data flow (the body and, recursively, the arguments of its
// calls, never inside a function: a work-group cannot nest in a loop) in their one-kernel
// form, arguments first (so stageLocal lists the shapes in the order the stages run).
ir::ExprPtr oneKernelForms(const ir::ExprPtr& e, const FftRequest& limits,
                           const FftOpsOptions& choices, ExpandedFftOps& out, bool& changed,
                           bool* transposedInto = nullptr) {
  const auto* c = e->as<ir::FunCall>();
  if (!c) return e;
  std::vector<ir::ExprPtr> args;
  bool argsChanged = false;
  const bool transpose = c->f()->is<ir::Transpose>() && c->args().size() == 1;
  for (const auto& a : c->args()) {
    bool written = false;
    args.push_back(
        oneKernelForms(a, limits, choices, out, argsChanged, transpose ? &written : nullptr));
    if (written) {  // the form of the argument writes through this transpose
      changed = true;
      const auto* form = args.back()->as<ir::FunCall>();
      return ir::FunCall::make(form->f(), form->args(), e->loc(), e->type());
    }
    argsChanged = argsChanged || args.back() != a;
  }
  changed = changed || argsChanged;
  // typed arguments (a rebuilt one keeps its type: FunCall::rebuild)
  const ir::ExprPtr call = argsChanged ? c->rebuild(c->f(), args, e->type()) : e;
  if (ir::ExprPtr form =
          oneKernelForm(*call->as<ir::FunCall>(), limits, choices, out, transposedInto)) {
    changed = true;
    return form;
  }
  if (ir::ExprPtr form = detail::multiPassForm(*call->as<ir::FunCall>(), limits, out)) {
    out.multiPass = true;
    return form;
  }
  return call;
}

}  // namespace

ExpandedFftOps expandFftOps(const compiler::frontend::Kernel& original, const FftRequest& limits,
                            const FftOpsOptions& choices) {
  ExpandedFftOps out;
  compiler::frontend::Kernel kernel = etaOps(original);
  if (choices.skipZeroRows) {
    // the rows a zero pad adds to an outer dimension past the transforms of the rows, and
    // into the columns' transforms as their pad (before the forms below are chosen)
    rewrites::RewriteResult info;
    ir::LambdaPtr rewritten = rewrites::rewriteKernel(kernel.lambda, rewrites::skipZeroRows(),
                                                      {}, &info);
    if (!info.log.empty()) {
      kernel.lambda = std::move(rewritten);
      out.rewrites = std::move(info.log);
    }
  }
  bool changed = false;
  ir::ExprPtr body = oneKernelForms(kernel.lambda->body(), limits, choices, out, changed);
  out.oneKernel = changed;
  out.minBlocksPerSm = choices.minBlocksPerSm;
  // the operations left: passes over global memory
  ReplaceOps replace([&](const Op& op) { return libraryFft(op, globalCall(op, out.operations)); });
  out.kernel = withBody(kernel, replace.mutate(body));
  return out;
}

void fftOpsOptions(const ExpandedFftOps& expanded, std::string_view strategy,
                   compiler::codegen::CodegenOptions& options) {
  options.constantTableMaxBytes = 0;
  const std::string_view s = strategy.empty() ? kFftOpsStrategy : strategy;
  // the shapes are those of lowerFft's kernel (the planner drops them for another strategy)
  if (fftOpsShapesApply(s)) options.stageLocal = expanded.stageLocal;
  if (!expanded.oneKernel || expanded.columnTiles)
    options.localRowSkew = options.localRowSkew || expanded.localRowSkew;
  // a column tile's rows spread over the banks (CodegenOptions::localRowSkewSpread)
  if (expanded.columnTiles) options.localRowSkewSpread = true;
  if (!expanded.oneKernel) {
    options.localReuseInPass = options.localReuseInPass || expanded.localReuseInPass;
  }
  // a one-kernel form in one local array: its passes share it as the plain FFT's do
  if (expanded.oneArray || expanded.chainInOneArray) options.localReuseInPass = true;
  if (expanded.minBlocksPerSm > 0) options.minBlocksPerMultiprocessor = expanded.minBlocksPerSm;
  // the row forms' padding for their radices (localPaddingFor) where they all ask for it (the
  // planner checked each form's arrays padded so against the budget)
  const auto& pads = expanded.localPaddings;
  if (expanded.oneKernel && !expanded.multiPass && !pads.empty() && pads.front() > 0 &&
      std::all_of(pads.begin(), pads.end(), [&](int64_t p) { return p == pads.front(); }))
    options.localPadding = pads.front();
}

compiler::pipeline::Built buildExpanded(const ExpandedFftOps& expanded, std::string_view strategy,
                                        compiler::pipeline::Target target,
                                        compiler::codegen::CodegenOptions options) {
  fftOpsOptions(expanded, strategy, options);
  const std::string_view s = strategy.empty() ? kFftOpsStrategy : strategy;
  return compiler::pipeline::build(expanded.kernel, s, target, std::move(options));
}

}  // namespace fftc::fftlib
