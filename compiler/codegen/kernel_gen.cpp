// The kernel-AST generator (kernel_gen.h): expressions, functions and patterns.
#include "compiler/codegen/kernel_gen.h"

#include <algorithm>

#include "compiler/clang/clang_helpers.h"
#include "compiler/codegen/address_space.h"
#include "ir/diagnostic.h"
#include "ir/infer.h"
#include "ir/view_predicates.h"

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CType;
using backends::MemSpace;
using ir::ArithExpr;
using ir::FunKind;
using ir::Type;
using ir::FunPtr;

namespace {
[[noreturn]] void fail(const ir::SourceLoc& loc, const std::string& msg) {
  throw ir::CompileError(loc, msg);
}
const Type& argType(const ir::ExprPtr& e, const ViewPtr& v) { return e ? e->type() : v->type; }

// The local dimensions of the mapLocal (of mapLocals) that computes a reduction's initial
// value: a work-group reduction's accumulator spread over the work-items (rewrites'
// stageLocal); empty for any other initial value.
std::vector<int> spreadDimsOf(const ir::ExprPtr& init) {
  std::vector<int> dims;
  ir::ExprPtr e = init;
  while (const auto* c = e->as<ir::FunCall>()) {
    const auto* m = c->f()->as<ir::AbstractMap>();
    if (!m || m->kind() != FunKind::MapLocal || dims.size() == 3 ||
        std::find(dims.begin(), dims.end(), m->dim()) != dims.end())
      break;
    dims.push_back(m->dim());
    const auto* l = m->f()->as<ir::Lambda>();
    if (!l) break;
    e = l->body();
  }
  return dims;
}
}  // namespace

KernelGen::KernelGen(const CodegenOptions& options, std::string name)
    : opt_(options), name_(std::move(name)) {
  resolver_.generator = [this](const ir::ArrayGen& g, const std::vector<ArithExpr>& idx,
                               const Type& elem) { return generatorElement(g, idx, elem); };
  resolver_.onAccess = [this](const Memory& m, const ArithExpr& index) { onAccess(m, index); };
  resolver_.onSpreadIndex = [this](const Memory& m, size_t d, const ArithExpr& index) {
    onSpreadIndex(m, d, index);
  };
  // the mapBlock's variable, give or take loop variables of one value (a block's one row)
  resolver_.isOwnBlock = [this](const ArithExpr& block) {
    for (auto l = loops_.rbegin(); l != loops_.rend(); ++l) {
      if (!l->clusterBlocks) continue;
      const ArithExpr d = block - l->var;
      return d.constLowerBound() == 0 && d.constUpperBound() == 0;
    }
    return false;
  };
}

// ---------------------------------------------------------------------------------------------
// Expressions

KernelGen::Result KernelGen::gen(const ir::ExprPtr& e, const ViewPtr& dest) {
  if (const auto* p = e->as<ir::Param>()) {
    auto it = env_.find(p);
    if (it == env_.end()) fail(p->loc(), "code generation: unbound parameter " + p->name());
    return {it->second, false};
  }
  if (const auto* l = e->as<ir::Literal>()) {
    ScalarVal v = literalValue(*l);
    return {scalarView(v.e, v.t), false};
  }
  const auto* call = e->as<ir::FunCall>();
  if (!prefetched_.empty())
    if (auto it = prefetched_.find(call); it != prefetched_.end()) return {it->second, false};
  std::vector<Arg> args;
  for (const auto& a : call->args()) args.push_back(Arg{a, nullptr});
  // The trace's events carry the innermost call with a location, for the errors of the passes.
  const bool located = call->loc().known();
  if (located) callLocs_.push_back(call->loc());
  try {
    Result r = apply(*call->f(), args, call->type(), dest);
    if (located) callLocs_.pop_back();
    return r;
  } catch (const ir::CompileError& err) {
    if (located) callLocs_.pop_back();
    if (err.loc().known() || !located) throw;
    throw ir::CompileError(call->loc(), err.message());
  }
}

KernelGen::Result KernelGen::evalArg(const Arg& a, const ViewPtr& dest) {
  if (a.view) return {a.view, false};
  return gen(a.expr, dest);
}

KernelGen::Result KernelGen::apply(const ir::FunDecl& f, const std::vector<Arg>& args,
                                   const Type& result, const ViewPtr& dest) {
  switch (f.kind()) {
    case FunKind::Lambda: return applyLambda(*f.as<ir::Lambda>(), args, dest);
    case FunKind::UserFun:
    case FunKind::Builtin: return applyScalar(f, args, result, dest);
    case FunKind::Map:
    case FunKind::MapGlobal:
    case FunKind::MapWorkgroup:
    case FunKind::MapLocal:
    case FunKind::MapSeq:
    case FunKind::MapSeqUnroll: return applyMap(*f.as<ir::AbstractMap>(), args.at(0), result, dest);
    case FunKind::Reduce:
    case FunKind::ReduceSeq:
    case FunKind::ReduceSeqUnroll:
      return applyReduce(*f.as<ir::AbstractReduce>(), args.at(0), result, dest);
    case FunKind::ToGlobal:
    case FunKind::ToLocal:
    case FunKind::ToPrivate: return applyTo(*f.as<ir::AbstractTo>(), args, result, dest);
    case FunKind::Iterate: {
      const auto& it = *f.as<ir::Iterate>();
      if (it.count() == 0) return evalArg(args.at(0), dest);
      spend(iterateSteps_, it.count(), opt_.maxIterateSteps, it.loc(), "iterate steps");
      Result r = evalArg(args.at(0), nullptr);
      for (int64_t k = 0; k < it.count(); ++k) {
        ir::TypedFun tf = ir::inferCall(it.f(), {r.view->type});
        r = apply(*tf.f, {Arg{nullptr, r.view}}, tf.result, k + 1 == it.count() ? dest : nullptr);
      }
      return r;
    }
    case FunKind::ArrayGen: return {generatorView(f.as<ir::ArrayGen>(), result), false};
    case FunKind::Table: return {tableView(*f.as<ir::Table>()), false};
    case FunKind::Id: return evalArg(args.at(0), dest);
    default: return applyLayoutPattern(f, args, result, dest);
  }
}

// Iterate and unrolled loops copy their bodies: the budget is checked before the copies are
// made, so a huge count is an error at once rather than a long run or a stack overflow.
void KernelGen::spend(int64_t& used, int64_t n, int64_t budget, const ir::SourceLoc& loc,
                      const std::string& what) {
  if (n > budget - used)
    fail(loc, "code generation: " + std::to_string(n) + " " + what + " here, " +
                  std::to_string(used) + " before, exceed the budget of " +
                  std::to_string(budget) + " per kernel");
  used += n;
}

KernelGen::Result KernelGen::applyLambda(const ir::Lambda& f, const std::vector<Arg>& args,
                                         const ViewPtr& dest) {
  const auto& ps = f.params();
  if (ps.size() == args.size()) {
    std::vector<ViewPtr> vs;
    for (const auto& a : args) vs.push_back(evalArg(a, nullptr).view);
    for (size_t i = 0; i < ps.size(); ++i) env_[ps[i].get()] = vs[i];
  } else if (args.size() == 1 && ps.size() > 1) {
    ViewPtr v = evalArg(args[0], nullptr).view;
    for (size_t i = 0; i < ps.size(); ++i) env_[ps[i].get()] = getView(v, i);
  } else {
    fail(f.loc(), "code generation: a function of " + std::to_string(ps.size()) +
                      " parameters applied to " + std::to_string(args.size()) + " arguments");
  }
  return gen(f.body(), dest);
}

// ---------------------------------------------------------------------------------------------
// Data-layout patterns: views, no code.

ViewPtr KernelGen::layoutView(const ir::FunDecl& f, const std::vector<ViewPtr>& a,
                              const Type& result) {
  switch (f.kind()) {
    case FunKind::Split:
      return splitView(a.at(0), f.as<ir::Split>()->chunk(), f.as<ir::Split>()->vector());
    case FunKind::Join: return joinView(a.at(0));
    case FunKind::Transpose: return transposeView(a.at(0));
    case FunKind::Zip: return zipView(a);
    case FunKind::Get: return getView(a.at(0), f.as<ir::Get>()->index());
    case FunKind::Slide: {
      const auto* s = f.as<ir::Slide>();
      return slideView(a.at(0), s->size(), s->step());
    }
    case FunKind::Pad: {
      const auto* p = f.as<ir::Pad>();
      ViewPtr value;
      if (p->value()) value = gen(p->value(), nullptr).view;
      return padView(a.at(0), p->left(), p->right(), p->boundary(), value);
    }
    case FunKind::Crop: {
      const auto* c = f.as<ir::Crop>();
      return cropView(a.at(0), c->left(), c->right());
    }
    case FunKind::Id: return a.at(0);
    case FunKind::Gather: return gatherOf(a.at(0), f.as<ir::Gather>()->indices());
    case FunKind::Map: {
      FunPtr fn = f.as<ir::Map>()->f();
      Type elem = result.element();
      return mapView(a.at(0), result, [this, fn, elem](const ViewPtr& x) {
        return apply(*fn, {Arg{nullptr, x}}, elem, nullptr).view;
      });
    }
    default: fail(f.loc(), "code generation: unsupported pattern " + f.name());
  }
}

KernelGen::Result KernelGen::applyLayoutPattern(const ir::FunDecl& f, const std::vector<Arg>& args,
                                                const Type& result, const ViewPtr& dest) {
  if (f.kind() == FunKind::Map && !ir::isView(f))
    fail(f.loc(), "map(f) with code is not low-level: lower it first (--rewrite)");
  if (dest && args.size() == 1 && ir::isWritableView(f)) {
    Result r = evalArg(args[0], inverseDest(f, argType(args[0].expr, args[0].view), dest));
    if (r.written) return {dest, true};
    return {layoutView(f, {r.view}, result), false};
  }
  std::vector<ViewPtr> vs;
  for (const auto& a : args) vs.push_back(evalArg(a, nullptr).view);
  return {layoutView(f, vs, result), false};
}

ViewPtr KernelGen::inverseDest(const ir::FunDecl& f, const Type& at, const ViewPtr& dest) {
  switch (f.kind()) {
    case FunKind::Split: return joinView(dest);
    case FunKind::Join: return splitView(dest, at.element().size(), at.element().isVector());
    case FunKind::Transpose: return transposeView(dest);
    case FunKind::Id: return dest;
    case FunKind::Gather: return gatherOf(dest, f.as<ir::Gather>()->inverse());
    case FunKind::Crop: {
      const auto* c = f.as<ir::Crop>();
      return uncropView(dest, c->left(), c->right());
    }
    case FunKind::Map: {
      FunPtr fn = f.as<ir::Map>()->f();
      Type elemArg = at.element();
      return mapView(dest, at, [this, fn, elemArg](const ViewPtr& d) {
        return inverseDest(*fn, elemArg, d);
      });
    }
    case FunKind::Lambda: return invertBody(f.as<ir::Lambda>()->body(), dest);
    default: fail(f.loc(), "code generation: " + f.name() + " is not a writable view");
  }
}

// The body is a chain of writable views of one argument down to the Lambda's Param.
ViewPtr KernelGen::invertBody(const ir::ExprPtr& body, const ViewPtr& dest) {
  const auto* c = body->as<ir::FunCall>();
  if (!c) return dest;
  return invertBody(c->arg(0), inverseDest(*c->f(), c->arg(0)->type(), dest));
}

// ---------------------------------------------------------------------------------------------
// Maps and reductions: loops.

KernelGen::Result KernelGen::applyMap(const ir::AbstractMap& m, const Arg& arg, const Type& result,
                                      const ViewPtr& dest) {
  if (m.kind() == FunKind::Map) return applyLayoutPattern(m, {arg}, result, dest);
  LoopKind kind = LoopKind::Seq;
  std::string base = "i";
  switch (m.kind()) {
    case FunKind::MapGlobal: kind = LoopKind::Global; base = m.dim() ? "gid" + std::to_string(m.dim()) : "gid"; break;
    case FunKind::MapWorkgroup: kind = LoopKind::Workgroup; base = m.dim() ? "wg" + std::to_string(m.dim()) : "wg"; break;
    case FunKind::MapLocal: kind = LoopKind::Local; base = m.dim() ? "lid" + std::to_string(m.dim()) : "lid"; break;
    default: break;
  }
  const bool topParallel =
      atTopLevel() && (kind == LoopKind::Global || kind == LoopKind::Workgroup);
  if (!atTopLevel() && (kind == LoopKind::Workgroup) && workgroupDepth() >= 0 &&
      loops_[static_cast<size_t>(workgroupDepth())].dim == m.dim())
    fail(m.loc(), "mapWorkgroup nested in a mapWorkgroup of the same dimension");
  if (const auto* wg = m.as<ir::MapWorkgroup>(); wg && wg->cluster() > 1) {
    if (!opt_.dialect || !opt_.dialect->hasClusters())
      fail(m.loc(), "mapCluster needs thread-block clusters, which the " +
                        (opt_.dialect ? opt_.dialect->name() : std::string("opencl")) +
                        " target does not have (use --target cuda, sm_90 or newer)");
    if (!atTopLevel())
      fail(m.loc(), "mapCluster must be the kernel's outermost parallel loop");
  }
  const auto* blockMap = m.as<ir::MapWorkgroup>();
  if (blockMap && !blockMap->blocks()) blockMap = nullptr;
  if (blockMap && (clusterOf() <= 1 || loops_.back().kind != LoopKind::Workgroup))
    fail(m.loc(), "mapBlock must be directly inside a mapCluster (no loop between)");
  ViewPtr in = evalArg(arg, nullptr).view;
  if (topParallel) {
    if (cur_ >= 0) closeStage();
    openStage(true);
  } else if (atTopLevel() && cur_ < 0) {
    openStage(false);
  }
  ViewPtr out = dest ? dest : allocate(result, std::nullopt);
  const ArithExpr n = in->type.size();
  auto body = [&](const ArithExpr& i) {
    ViewPtr elemDest = accessView(out, i);
    Result r = apply(*m.f(), {Arg{nullptr, accessView(in, i)}}, result.element(), elemDest);
    if (r.written) return;
    // a staged copy of reduceSeqPrefetch, in halves: into its register, or out of it
    if (phase_ == PrefetchPhase::Load)
      copy(prefetchRegister(result.element()), r.view, result.element());
    else if (phase_ == PrefetchPhase::Store)
      copy(elemDest, prefetchRegister(result.element()), result.element());
    else
      copy(elemDest, r.view, result.element());
  };
  if (phase_ != PrefetchPhase::None && kind != LoopKind::Seq && kind != LoopKind::Local)
    fail(m.loc(), "reduceSeqPrefetch: its copies may have mapLocal and sequential loops only");
  if (phase_ != PrefetchPhase::None && kind == LoopKind::Seq && !n.constant())
    fail(m.loc(), "reduceSeqPrefetch: a sequential loop of " + n.str() +
                      " iterations in a copy it loads early: the registers need a constant count");
  if (m.kind() == FunKind::MapSeqUnroll) {
    auto c = n.constant();
    if (!c) fail(m.loc(), "mapSeqUnroll over a symbolic size " + n.str());
    spend(unrolledBodies_, *c, opt_.maxUnrolledBodies, m.loc(), "unrolled loop bodies");
    for (int64_t i = 0; i < *c; ++i) {
      if (phase_ != PrefetchPhase::None) phaseLoops_.push_back({ArithExpr(i), *c});
      body(ArithExpr(i));
      if (phase_ != PrefetchPhase::None) phaseLoops_.pop_back();
    }
  } else if (phase_ != PrefetchPhase::None) {
    // reduceSeqPrefetch's copies: every loop's iterations are the work-item's registers
    if (kind == LoopKind::Local) {
      const size_t blocks = blocks_.size();
      body(openCountedLocal(m.dim() < 0 ? 0 : m.dim(), n, base));
      blocks_.resize(blocks + 1);  // the loop's block (the guard's, if any, closed)
    } else {
      ArithExpr var;
      openLoop(kind, 0, n, base, var);
      phaseLoops_.push_back({var, *n.constant()});
      body(var);
    }
    phaseLoops_.pop_back();
    closeLoop();
  } else {
    ArithExpr var;
    // A mapBlock's one iteration a block has no next row to wait for: no trailing barrier.
    const bool rows = kind == LoopKind::Workgroup && !blockMap;
    if (rows) traceEvent(TraceEvent::Kind::WorkgroupOpen);
    const auto* wg = m.as<ir::MapWorkgroup>();
    pendingCluster_ = wg ? wg->cluster() : 1;
    if (blockMap) {
      if (n != ArithExpr(clusterOf()))
        fail(m.loc(), "mapBlock over " + n.str() + " rows in a cluster of " +
                          std::to_string(clusterOf()) + " work-groups: a row a block");
      pendingCluster_ = 1;
      pendingBlocks_ = clusterOf();
      base = "blk";
    }
    auto loop = openLoop(kind, m.dim() < 0 ? 0 : m.dim(), n, base, var);
    pendingCluster_ = 1;
    pendingBlocks_ = 0;
    body(var);
    // The barrier pass ends the loop's body with a barrier when the rows exchanged data.
    if (rows) traceEvent(TraceEvent::Kind::WorkgroupClose, loop);
    closeLoop();
  }
  if (topParallel) closeStage();
  return {out, dest != nullptr};
}

KernelGen::Result KernelGen::applyReduce(const ir::AbstractReduce& r, const Arg& arg,
                                         const Type& result, const ViewPtr& dest) {
  if (r.kind() == FunKind::Reduce)
    fail(r.loc(), "reduce is not low-level: lower it first (--rewrite), e.g. to reduceSeq");
  ViewPtr in = evalArg(arg, nullptr).view;
  if (atTopLevel() && cur_ < 0) openStage(false);
  const bool workgroupLevel =
      workgroupDepth() >= 0 && std::none_of(loops_.begin(), loops_.end(), [](const LoopFrame& l) {
        return l.kind == LoopKind::Local || l.kind == LoopKind::Global;
      });
  if (result.isArray() && workgroupLevel) {
    std::vector<int> dims = spreadDimsOf(r.init());
    if (!dims.empty()) return applySpreadReduce(r, in, result, dims);
  }
  ViewPtr init = gen(r.init(), nullptr).view;
  const Type accT = result;
  const ArithExpr n = in->type.size();
  // An unrolled reduction of reals or complex numbers from zero (+0 or -0) starts from its first
  // step's value: the first step reads the zero itself, and an addition of it is its other
  // operand (applyScalar). The unrolled butterflies of the FFT library are such sums; the device
  // compilers keep 0.0 + x (it is +0.0, not x, for x = -0.0), one add per output. Exact for -0;
  // for +0, only the sign of a zero result may differ from the interpreter's (+0 + -0 = +0).
  ViewPtr zeroView;
  if (r.kind() == FunKind::ReduceSeqUnroll && n.constant().value_or(0) >= 1 &&
      (accT.isReal() || accT.isComplex()) && !init->type.isTuple() && !init->type.isArray()) {
    backends::CExpr z = convert(readScalar(init), accT);
    if (auto l = literalOf(z); l && *l == std::complex<double>(0, 0))
      zeroView = scalarView(z, accT);
  }
  const bool zeroFirst = zeroView != nullptr;
  ViewPtr accView;
  if (accT.isArray()) {
    // A block of accumulators (rewrites' mapReduceInterchange: each work-item's r x c block of
    // a matrix product): a private array of constant size, which the device compiler keeps in
    // registers once its small loops are unrolled.
    if (atTopLevel())
      fail(r.loc(),
           "reduceSeq with an array accumulator outside every parallel map is not supported");
    int64_t count = 1;
    for (const auto& d : accT.shape()) count *= d.constant().value_or(opt_.privateMaxElements + 1);
    if (count > opt_.privateMaxElements)
      fail(r.loc(), "reduceSeq with an array accumulator " + accT.str() + " of more than " +
                        std::to_string(opt_.privateMaxElements) +
                        " elements (CodegenOptions::privateMaxElements): it is kept in private "
                        "memory; block it smaller");
    accView = allocate(accT, MemSpace::Private);
    copy(accView, init, accT);
  } else {
    std::string acc = fresh("acc");
    accView = scalarView(backends::cVar(acc, ctype(accT)), accT);
    if (zeroFirst) {
      emit(backends::sDecl(ctype(accT), acc, nullptr));
    } else if (accT.isTuple()) {
      emit(backends::sDecl(ctype(accT), acc, nullptr));
      copy(accView, init, accT);
    } else {
      emit(backends::sDecl(ctype(accT), acc, convert(readScalar(init), accT)));
    }
  }
  auto body = [&](const ArithExpr& i) {
    if (accT.isArray()) {
      // f may read any element of the accumulator while it writes another: the new value goes
      // to a second private array first, then back.
      ViewPtr next = allocate(accT, MemSpace::Private);
      Result x = apply(*r.f(), {Arg{nullptr, accView}, Arg{nullptr, accessView(in, i)}}, accT,
                       next);
      if (!x.written) copy(next, x.view, accT);
      copy(accView, next, accT);
      return;
    }
    const bool first = zeroFirst && i.constant() == std::optional<int64_t>(0);
    ViewPtr saved = zeroInit_;
    if (first) zeroInit_ = zeroView;
    Result x = apply(*r.f(), {Arg{nullptr, first ? zeroView : accView},
                              Arg{nullptr, accessView(in, i)}},
                     accT, accView);
    zeroInit_ = saved;
    if (x.written) return;
    if (accT.isTuple() && x.view->kind == ViewKind::Tuple) {
      // Components may read the accumulator: compute them all before assigning.
      std::vector<ViewPtr> parts;
      for (size_t c = 0; c < accT.components().size(); ++c)
        parts.push_back(bindTemp(readScalar(x.view->children[c]), "t"));
      copy(accView, tupleView(parts, accT), accT);
    } else {
      copy(accView, x.view, accT);
    }
  };
  if (r.kind() == FunKind::ReduceSeqUnroll) {
    auto c = n.constant();
    if (!c) fail(r.loc(), "reduceSeqUnroll over a symbolic size " + n.str());
    spend(unrolledBodies_, *c, opt_.maxUnrolledBodies, r.loc(), "unrolled loop bodies");
    for (int64_t i = 0; i < *c; ++i) body(ArithExpr(i));
  } else {
    ArithExpr var;
    openLoop(LoopKind::Seq, 0, n, "j", var);
    body(var);
    closeLoop();
  }
  if (atTopLevel()) {
    // Outside every loop, the result may be read by a later stage: keep it in global memory.
    ViewPtr mem = dest ? dest : allocate(accT, MemSpace::Global);
    copy(mem, accView, accT);
    return {mem, dest != nullptr};
  }
  return {accView, false};
}

// reduceSeq(f, mapLocal(d1, .. mapLocal(dk, g) ..) <<: x) at the work-group level: element
// (i1, .., ik) of the accumulator is work-item (i1, .., ik)'s, in its own private array (the
// register block of a GEMM tile, LIFT's private memory under mapLocal). The initial value and
// every step write it through mapLocal loops over those dimensions, each iteration one
// work-item's (onSpreadIndex checks the indices and fixes the work-group size to the extents).
// The loop's iterations reuse the local memory allocated in them (the staged tiles): the
// barrier pass ends the loop's body with a barrier when it needed one, as a work-group loop's.
KernelGen::Result KernelGen::applySpreadReduce(const ir::AbstractReduce& r, const ViewPtr& in,
                                               const Type& accT, const std::vector<int>& dims) {
  if (r.kind() == FunKind::ReduceSeqUnroll)
    fail(r.loc(), "reduceSeqUnroll with an accumulator spread over the work-items: use reduceSeq");
  Type inner = accT;
  for (size_t d = 0; d < dims.size(); ++d) {
    if (!inner.isArray() || !inner.size().isConstant())
      fail(r.loc(), "a work-group reduction's accumulator " + accT.str() +
                        " spread over mapLocal loops needs constant extents there");
    inner = inner.element();
  }
  if (!inner.isArray())
    fail(r.loc(), "a work-group reduction's accumulator " + accT.str() +
                      " spread over the work-items holds a scalar per work-item: block it "
                      "(registerBlock) so that each holds an array");
  int64_t count = 1;
  for (const auto& d : inner.shape()) count *= d.constant().value_or(opt_.privateMaxElements + 1);
  if (count > opt_.privateMaxElements)
    fail(r.loc(), "a work-group reduction's accumulator of " + inner.str() +
                      " a work-item, more than " + std::to_string(opt_.privateMaxElements) +
                      " elements (CodegenOptions::privateMaxElements): block it smaller");
  ViewPtr own = allocate(inner, MemSpace::Private);
  auto mem = std::const_pointer_cast<Memory>(own->mem);
  mem->type = accT;
  mem->spreadDims = dims;
  ViewPtr acc = memView(mem, accT);
  Result z = gen(r.init(), acc);
  if (!z.written) fail(r.loc(), "internal: a spread accumulator's initial value was not written");
  // reduceSeqPrefetch: the element's copies into local memory in two halves, the loads into
  // registers one step early (element 0's before the loop, element j+1's after step j's stores)
  const auto* seq = r.as<ir::ReduceSeq>();
  const auto* step = r.f()->as<ir::Lambda>();
  std::vector<const ir::FunCall*> copies;
  if (seq && seq->prefetch()) {
    if (phase_ != PrefetchPhase::None || !prefetchRegs_.empty())
      fail(r.loc(), "reduceSeqPrefetch inside another reduceSeqPrefetch");
    if (step) copies = ir::stagedElementCopies(*step);
    if (copies.empty())
      fail(r.loc(), "reduceSeqPrefetch: its function copies nothing of its element into local "
                    "memory (toLocal of a view of it, with mapLocal loops) to load a step early");
    prefetchDeclBlock_ = blocks_.back();
    prefetchDeclAt_ = prefetchDeclBlock_->body.size();
    loadStagedCopies(copies, step->params()[1].get(), in, ArithExpr(0));
  }
  const ArithExpr n = in->type.size();
  ArithExpr var;
  traceEvent(TraceEvent::Kind::WorkgroupOpen);
  auto loop = openLoop(LoopKind::Seq, 0, n, "j", var);
  loops_.back().sharedIterations = true;
  if (!copies.empty()) {
    // this step's element: from the registers into local memory
    env_[step->params()[1].get()] = accessView(in, var);
    phase_ = PrefetchPhase::Store;
    prefetchSite_ = 0;
    for (const ir::FunCall* c : copies) {
      ViewPtr local = allocate(c->type(), MemSpace::Local);
      ViewPtr src = gen(c->arg(0), nullptr).view;
      Result w = apply(*c->f()->as<ir::AbstractTo>()->f(), {Arg{nullptr, src}}, c->type(), local);
      if (!w.written) fail(r.loc(), "internal: reduceSeqPrefetch's copy was not stored");
      prefetched_[c] = local;
    }
    phase_ = PrefetchPhase::None;
    // the next element's loads, in flight while this step computes
    if (!(n == ArithExpr(1))) {
      const backends::CType intT = backends::CType::of(backends::CType::Kind::Int);
      auto s = backends::sIf(
          backends::cBinary("<", backends::cIndex(var + ArithExpr(1)), backends::cIndex(n), intT));
      emit(s);
      blocks_.push_back(s);
      loadStagedCopies(copies, step->params()[1].get(), in, var + ArithExpr(1));
      blocks_.pop_back();
    }
  }
  // Every work-item reads its own block and writes it back: no second array is needed.
  Result x = apply(*r.f(), {Arg{nullptr, acc}, Arg{nullptr, accessView(in, var)}}, accT, acc);
  if (!x.written)
    fail(r.loc(), "the function of a work-group reduction whose accumulator is spread over the "
                  "work-items must compute it with mapLocal loops over the same dimensions");
  traceEvent(TraceEvent::Kind::WorkgroupClose, loop);
  closeLoop();
  prefetched_.clear();
  prefetchRegs_.clear();
  return {acc, false};
}

void KernelGen::loadStagedCopies(const std::vector<const ir::FunCall*>& copies,
                                 const ir::Param* elem, const ViewPtr& in, const ArithExpr& i) {
  env_[elem] = accessView(in, i);
  phase_ = PrefetchPhase::Load;
  prefetchSite_ = 0;
  for (const ir::FunCall* c : copies) {
    // the copy's destination is never written in this half: a memory no statement names
    auto none = std::make_shared<Memory>();
    none->name = "unused";
    none->role = MemRole::Private;
    none->space = MemSpace::Private;
    none->type = c->type();
    none->element = c->type().innermost();
    none->elemC = ctype(none->element);
    const size_t before = prefetchSite_;
    ViewPtr src = gen(c->arg(0), nullptr).view;
    apply(*c->f()->as<ir::AbstractTo>()->f(), {Arg{nullptr, src}}, c->type(),
          memView(none, c->type()));
    if (prefetchSite_ == before)
      fail(c->loc(), "reduceSeqPrefetch: a copy into local memory without a loop to load early");
  }
  phase_ = PrefetchPhase::None;
}

// for (int t = 0; t < T; ++t), element lidb + L t of the mapLocal(dim) loop over E, lidb the
// work-item's local id, L the work-group's size in dim (fixed by the spread accumulator),
// T = ceil(E / L) (and `if (lidb + L t < E)` inside where L does not divide E): the
// work-item's iterations counted, so that its registers are indexed by constants once the
// device compiler unrolls the loop. The guard's block stays open: the caller closes it.
ArithExpr KernelGen::openCountedLocal(int dim, const ArithExpr& extent, const std::string& base) {
  const int64_t L = stages_.at(static_cast<size_t>(cur_)).barrierRows[dim];
  const auto E = extent.constant();
  if (L <= 0 || !E)
    fail({}, "reduceSeqPrefetch: a copy's mapLocal(" + std::to_string(dim) + ") loop of " +
                 extent.str() + " iterations, on work-groups whose size in that dimension is " +
                 (L > 0 ? std::to_string(L) : std::string("not fixed")) +
                 ": its loads are kept in registers, which needs both constant (the blocks' "
                 "accumulators fix the work-group's shape)");
  const std::string b = fresh(base + "b");
  emit(backends::sDecl(backends::CType::of(backends::CType::Kind::Int), b,
                       backends::cWorkItem(backends::WorkItemFn::LocalId, dim), true));
  ArithExpr unused;
  backends::StmtPtr s = openLoop(LoopKind::Local, dim, extent, base, unused);
  const int64_t T = (*E + L - 1) / L;
  s->init = backends::cIndex(0);
  s->step = nullptr;
  s->bound = ArithExpr(T);
  s->wide = false;
  ArithExpr t = ArithExpr::loopVar(s->name, ArithExpr(T));
  loops_.back().var = t;
  phaseLoops_.push_back({t, T});
  ArithExpr lid = ArithExpr::loopVar(b, ArithExpr(L)) + ArithExpr(L) * t;
  if (*E % L != 0) {
    const backends::CType intT = backends::CType::of(backends::CType::Kind::Int);
    auto guard = backends::sIf(
        backends::cBinary("<", backends::cIndex(lid), backends::cIndex(extent), intT));
    emit(guard);
    blocks_.push_back(guard);
  }
  return lid;
}

// The register of the element copy being generated: site k of the phase (the same in both
// halves), at the phase's loop indices.
ViewPtr KernelGen::prefetchRegister(const Type& elem) {
  ArithExpr slot(0);
  int64_t count = 1;
  for (const auto& l : phaseLoops_) {
    slot = slot * ArithExpr(l.extent) + l.var;
    count *= l.extent;
  }
  const size_t site = prefetchSite_++;
  if (phase_ == PrefetchPhase::Load && site == prefetchRegs_.size()) {
    // declared before the loop (this is element 0's load): they carry a step's loads to the next
    auto decls = backends::sBlock();
    blocks_.push_back(decls);
    prefetchRegs_.push_back(allocate(Type::array(elem, ArithExpr(count)), MemSpace::Private));
    blocks_.pop_back();
    auto& body = prefetchDeclBlock_->body;
    body.insert(body.begin() + static_cast<std::ptrdiff_t>(prefetchDeclAt_), decls->body.begin(),
                decls->body.end());
    prefetchDeclAt_ += decls->body.size();
  }
  if (site >= prefetchRegs_.size())
    fail({}, "internal: reduceSeqPrefetch's halves visit different copies");
  return accessView(prefetchRegs_[site], slot);
}

void KernelGen::onSpreadIndex(const Memory& m, size_t d, const ArithExpr& index) {
  const int dim = m.spreadDims.at(d);
  const auto extent = m.type.shape().at(d).constant();
  for (const auto& l : loops_) {
    if (l.kind != LoopKind::Local || l.dim != dim || !(l.var == index)) continue;
    if (!extent || !(l.extent == ArithExpr(*extent))) break;
    // the loop runs once per work-item: the work-group's size in `dim` is its extent
    int64_t& rows = stages_.at(static_cast<size_t>(cur_)).barrierRows[dim];
    if (rows != 0 && rows != *extent)
      fail({}, "code generation: mapLocal(" + std::to_string(dim) + ") loops of " +
                   std::to_string(rows) + " and " + std::to_string(*extent) +
                   " iterations hold a spread accumulator or a barrier: they need one extent");
    rows = *extent;
    return;
  }
  fail({}, "code generation: element " + index.str() + " of a work-group reduction's "
           "accumulator spread over the work-items (dimension " + std::to_string(d) +
           " of " + m.type.str() + ") is read or written outside the mapLocal(" +
           std::to_string(dim) + ") loop over it: each work-item holds only its own");
}

KernelGen::Result KernelGen::applyTo(const ir::AbstractTo& t, const std::vector<Arg>& args,
                                     const Type& result, const ViewPtr& dest) {
  // Arguments first, so that their own intermediates keep the default address space.
  std::vector<Arg> vs;
  for (const auto& a : args) vs.push_back(Arg{nullptr, evalArg(a, nullptr).view});
  if (dest) return apply(*t.f(), vs, result, dest);
  const MemSpace space = memSpaceOf(t.space());
  if (atTopLevel() && cur_ < 0 && space != MemSpace::Global) openStage(false);
  ViewPtr out = allocate(result, space);
  Result r = apply(*t.f(), vs, result, out);
  if (!r.written) copy(out, r.view, result);
  return {out, false};
}

// ---------------------------------------------------------------------------------------------
// Scalar functions.

KernelGen::Result KernelGen::applyScalar(const ir::FunDecl& f, const std::vector<Arg>& args,
                                         const Type& result, const ViewPtr& dest) {
  std::vector<ViewPtr> vs;
  for (const auto& a : args) vs.push_back(evalArg(a, nullptr).view);
  if (f.arity() > 1 && vs.size() == 1) {
    ViewPtr t = vs[0];
    vs.clear();
    for (size_t i = 0; i < f.arity(); ++i) vs.push_back(getView(t, i));
  }
  const auto* b = f.as<ir::Builtin>();
  if (b && b->op() == ir::BuiltinOp::MakeTuple) return {tupleView(vs, result), false};
  if (b && b->op() == ir::BuiltinOp::Add && zeroInit_ && vs.size() == 2 &&
      (vs[0] == zeroInit_ || vs[1] == zeroInit_) && (result.isReal() || result.isComplex())) {
    // A reduction's first step from zero (applyReduce): zero + x is x.
    const ViewPtr& other = vs[0] == zeroInit_ ? vs[1] : vs[0];
    if (other->type == result) {
      if (!dest) return {other, false};
      copy(dest, other, result);
      return {dest, true};
    }
  }
  if (atTopLevel() && cur_ < 0) openStage(false);
  std::vector<ScalarVal> xs;
  for (const auto& v : vs) xs.push_back(v->type.isTuple() ? readTuple(v) : readScalar(v));
  ScalarVal out;
  if (b) {
    out = scalarOp(b->op(), xs, result);
  } else {
    const auto* u = f.as<ir::UserFun>();
    bool known = std::any_of(module_.userFuns.begin(), module_.userFuns.end(),
                             [&](const backends::UserFunDef& d) { return d.name == u->name(); });
    if (!known) {
      backends::UserFunDef d;
      d.name = u->name();
      for (size_t i = 0; i < u->paramNames().size(); ++i)
        d.params.emplace_back(u->paramNames()[i], ctype(u->paramTypes()[i]));
      d.result = ctype(u->returnType());
      d.body = u->body();
      checkUserFun(*u, d);
      module_.userFuns.push_back(std::move(d));
    }
    std::vector<CExpr> cargs;
    for (size_t i = 0; i < xs.size(); ++i)
      cargs.push_back(u->paramTypes()[i].isTuple() ? xs[i].e : convert(xs[i], u->paramTypes()[i]));
    out = {backends::cCall(u->name(), cargs, ctype(u->returnType())), u->returnType()};
  }
  if (dest) {
    store(dest, dest->type.isTuple() ? out.e : convert(out, dest->type));
    return {dest, true};
  }
  if (atTopLevel() && !backends::isLiteral(out.e)) {
    // Outside every loop, a value may be read by a later stage: keep it in global memory.
    ViewPtr mem = allocate(result, MemSpace::Global);
    emit(backends::sAssign(lvalue(mem), result.isTuple() ? out.e : convert(out, result)));
    return {mem, false};
  }
  if (backends::isTrivial(out.e) || backends::isLiteral(out.e)) return {scalarView(out.e, out.t), false};
  return {bindTemp(out, "t"), false};
}

// A wrong userfun body is reported at the userfun, before any device compiler sees it.
void KernelGen::checkUserFun(const ir::UserFun& u, const backends::UserFunDef& d) {
  if (!opt_.checkUserFuns || !clang_helpers::clangHelpersAvailable() || !opt_.dialect) return;
  backends::CPrinter printer(*opt_.dialect);
  backends::Module m = module_;
  m.usesDouble = true;
  m.kernels.clear();
  m.userFuns.clear();
  std::string prelude = printer.helpers(m);
  for (const auto& s : m.structs) {
    prelude += "typedef struct {";
    for (size_t i = 0; i < s.fields.size(); ++i)
      prelude += " " + opt_.dialect->typeName(s.fields[i]) + " _" + std::to_string(i) + ";";
    prelude += " } " + s.name + ";\n";
  }
  std::string sig = opt_.dialect->functionPrefix() + " " + opt_.dialect->typeName(d.result) + " " +
                    d.name + "(";
  for (size_t i = 0; i < d.params.size(); ++i)
    sig += (i ? ", " : "") + opt_.dialect->typeName(d.params[i].second) + " " + d.params[i].first;
  sig += ")";
  std::string body = d.body;
  int shift = 0;
  if (body.find("return") == std::string::npos) {
    body = "return " + body + ";";
    shift = 7;
  }
  auto diags = clang_helpers::checkUserFunBody(
      prelude, sig, body,
      opt_.dialect->name() == "cuda" ? clang_helpers::Dialect::Cuda : clang_helpers::Dialect::OpenCL);
  if (diags.empty()) return;
  const auto& e = diags.front();
  std::string where = e.line > 0 ? "line " + std::to_string(e.line) + ", column " +
                                       std::to_string(e.line == 1 ? e.col - shift : e.col) + " of "
                                 : "";
  fail(u.loc(), "in " + where + "the body of userfun " + u.name() + ": " + e.message);
}

// ---------------------------------------------------------------------------------------------
// Values

ScalarVal KernelGen::readScalar(const ViewPtr& v) {
  if (v->type.isArray()) throw ir::CompileError({}, "code generation: an array used as a scalar");
  return {resolveView(v, resolver_), v->type};
}

// A whole tuple value (a userfun argument): the stored struct, or one built from its parts
// (a zipped element, a computed tuple) by a make_tupleK helper.
ScalarVal KernelGen::readTuple(const ViewPtr& v) {
  if (v->kind != ViewKind::Tuple) {
    try {
      return readScalar(v);
    } catch (const ir::CompileError&) {
      // not stored as a whole: build it
    }
  }
  CType ct = ctype(v->type);
  std::vector<CExpr> parts;
  const auto& comps = v->type.components();
  for (size_t c = 0; c < comps.size(); ++c) {
    ViewPtr part = getView(v, c);
    parts.push_back(comps[c].isTuple() ? readTuple(part).e : convert(readScalar(part), comps[c]));
  }
  const std::string fn = "make_" + ct.structName;
  bool known = std::any_of(module_.userFuns.begin(), module_.userFuns.end(),
                           [&](const backends::UserFunDef& d) { return d.name == fn; });
  if (!known) {
    backends::UserFunDef d;
    d.name = fn;
    d.result = ct;
    d.body = ct.structName + " t;";
    for (size_t c = 0; c < comps.size(); ++c) {
      std::string f = "_" + std::to_string(c);
      d.params.emplace_back(f, ctype(comps[c]));
      d.body += " t." + f + " = " + f + ";";
    }
    d.body += " return t;";
    module_.userFuns.push_back(std::move(d));
  }
  return {backends::cCall(fn, parts, ct), v->type};
}

CExpr KernelGen::lvalue(const ViewPtr& v, CExpr* storeGuard) {
  writing_ = true;
  CExpr e;
  try {
    e = resolveView(v, resolver_, storeGuard);
  } catch (...) {
    writing_ = false;
    throw;
  }
  writing_ = false;
  return e;
}

void KernelGen::store(const ViewPtr& dest, CExpr value) {
  CExpr guard;
  CExpr target = lvalue(dest, &guard);
  backends::StmtPtr s = backends::sAssign(std::move(target), std::move(value));
  if (guard) {
    backends::StmtPtr g = backends::sIf(std::move(guard));
    g->body.push_back(std::move(s));
    s = std::move(g);
  }
  emit(s);
}

// The n elements of vector view v as one vector access (cVector), when they are n consecutive
// elements of one global or local array starting at a multiple of n and read or written
// without a guard; null otherwise (a private array, padding, a gap, an unknown alignment).
CExpr KernelGen::vectorAccess(const ViewPtr& v, const Type& t, bool write) {
  const auto n = t.size().constant();
  if (!n) return nullptr;
  CExpr first;
  for (int64_t c = 0; c < *n; ++c) {
    ViewPtr part = accessView(v, ArithExpr(c));
    CExpr guard;
    CExpr e;
    try {
      e = write ? lvalue(part, &guard) : readScalar(part).e;
    } catch (const ir::CompileError&) {
      return nullptr;
    }
    if (guard || e->kind != backends::CExprKind::Subscript ||
        e->args[0]->kind != backends::CExprKind::Var)
      return nullptr;
    if (c == 0) {
      first = e;
      if (!ir::provablyDivisible(e->index, ArithExpr(*n)) || !vectorArray(e->args[0]->name))
        return nullptr;
    } else if (e->args[0]->name != first->args[0]->name ||
               !ir::sizesEqual(e->index - first->index, ArithExpr(c))) {
      return nullptr;
    }
  }
  return backends::cVector(first->args[0], first->index, static_cast<int>(*n), ctype(t.element()));
}

// Global buffers (aligned by their allocation) and local arrays (declared aligned in a kernel
// with vectors); private arrays are left to the compiler's registers.
bool KernelGen::vectorArray(const std::string& name) const {
  for (const auto& b : buffers_)
    if (b->name == name) return b->space == backends::MemSpace::Global && !b->layout;
  for (const auto& l : locals_)
    if (l->name == name) return l->padEvery == 0 && l->rowSkew == 0;
  return false;
}

// A vector copied as one load and one store where both sides allow it; else loaded as one
// vector into a temporary and stored element by element (a row of A into a transposed local
// tile), or read element by element and stored as one vector made of them (a block's row of
// C), else element by element.
bool KernelGen::copyVector(const ViewPtr& dest, const ViewPtr& src, const Type& t) {
  const int64_t n = *t.size().constant();
  CExpr from = vectorAccess(src, t, false);
  CExpr to = vectorAccess(dest, t, true);
  if (!from && !to) return false;
  const backends::CType vt = backends::vectorCType(ctype(t.element()), static_cast<int>(n));
  static const char* const kLanes[] = {"x", "y", "z", "w"};
  if (!from) {
    // Only the destination: the source's elements (registers, a strided or unaligned view)
    // read one by one, stored as one vector made of them (a register block's row of C).
    if (n > 4) return false;
    std::vector<backends::CExpr> parts;
    for (int64_t c = 0; c < n; ++c) parts.push_back(readScalar(accessView(src, ArithExpr(c))).e);
    emit(backends::sAssign(to, backends::cMakeVector(std::move(parts), vt)));
    return true;
  }
  if (from && to) {
    emit(backends::sAssign(to, from));
  } else {
    if (n > 4) return false;
    std::string name = fresh("v");
    emit(backends::sDecl(vt, name, from, true));
    for (int64_t c = 0; c < n; ++c)
      store(accessView(dest, ArithExpr(c)),
            backends::cMember(backends::cVar(name, vt), kLanes[c], ctype(t.element())));
  }
  return true;
}

void KernelGen::copy(const ViewPtr& dest, const ViewPtr& src, const Type& t) {
  if (dest == src) return;
  if (t.isVector() && copyVector(dest, src, t)) return;
  if (t.isArray()) {
    ArithExpr var;
    openLoop(LoopKind::Seq, 0, t.size(), "k", var);
    copy(accessView(dest, var), accessView(src, var), t.element());
    closeLoop();
    return;
  }
  if (t.isTuple()) {
    for (size_t c = 0; c < t.components().size(); ++c)
      copy(getView(dest, c), getView(src, c), t.components()[c]);
    return;
  }
  ScalarVal v = readScalar(src);
  store(dest, convert(v, t));
}

void KernelGen::copyTop(const ViewPtr& dest, const ViewPtr& src, const Type& t) {
  if (!t.isArray()) {
    // A scalar result: in the sequential stage that computed it, if it is still open.
    if (cur_ >= 0 && stages_[static_cast<size_t>(cur_)].parallel) closeStage();
    if (cur_ < 0) openStage(false);
    copy(dest, src, t);
    closeStage();
    return;
  }
  // A result that is only a view of the inputs: materialized by a parallel copy.
  if (cur_ >= 0) closeStage();
  openStage(true);
  ArithExpr var;
  openLoop(LoopKind::Global, 0, t.size(), "gid", var);
  copy(accessView(dest, var), accessView(src, var), t.element());
  closeLoop();
  closeStage();
}

ViewPtr KernelGen::bindTemp(const ScalarVal& v, const std::string& base) {
  if (backends::isTrivial(v.e) || backends::isLiteral(v.e)) return scalarView(v.e, v.t);
  // An index that may not fit in 32 bits stays symbolic: a temporary would be an int (it is
  // printed in 64 bits where it is used, as Bluestein's j * j mod 2N for N > 46340).
  if (v.e->kind == backends::CExprKind::Index && !v.e->index.fitsInt32())
    return scalarView(v.e, v.t);
  std::string name = fresh(base);
  CType ct = ctype(v.t);
  emit(backends::sDecl(ct, name, v.e, true));
  return scalarView(backends::cVar(name, ct), v.t);
}

}  // namespace fftc::compiler::codegen
