// fft(x) / ifft(x) inside a program -> the FFT library's algorithm, chosen by the planner
// (fft_ops.h).
#include "fftlib/plan/fft_ops.h"

#include <algorithm>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "compiler/frontend/fft_op.h"
#include "fftlib/plan/library_sources.h"
#include "fftlib/plan/plan_choice.h"
#include "ir/infer.h"
#include "ir/traversal.h"

namespace fftc::fftlib {
namespace {

using backends::UserError;
using compiler::frontend::fftOperationSign;

struct Op {
  int sign = -1;
  int64_t n = 1;
  ir::ScalarKind precision = ir::ScalarKind::Float;
};

// The operation a call applies, read from its typed argument ([complex]n, n constant).
Op opOf(const ir::FunCall& c, int sign) {
  const ir::Type& t = c.arg(0)->type();
  const char* name = sign < 0 ? "fft" : "ifft";
  if (!t.isArray() || !t.element().isComplex())
    throw UserError(fmt::format("{}: expects a [complex]n, got {}", name, t.str()));
  auto n = t.size().constant();
  if (!n)
    throw UserError(fmt::format("{} of a {}: the size of a transform must be known at compile "
                                "time (give it with -D)",
                                name, t.str()));
  return {sign, *n, t.element().scalarKind()};
}

// The library's FFT of op.n as a typed function [complex]n -> [complex]n: `algorithm` is a
// common.fdl call taking the radix list and the sign, e.g. "fftStockhamTwiddle({}, {})".
ir::FunPtr libraryFft(const Op& op, const std::string& call) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = op.precision;
  opts.importReader = libraryImportReader();
  const std::string text =
      fmt::format("import \"common.fdl\"\nkernel op(x: [complex]{}) = {} <<: x\n", op.n, call);
  auto program = compiler::frontend::compileSource(text, "fft_op.fdl", opts);
  return program.kernels.at(0).lambda;
}

std::string radixList(const std::vector<int64_t>& rs) { return fmt::format("[{}]", fmt::join(rs, ", ")); }

// Each operation of e replaced by replacement(op) applied to its argument (types kept where
// nothing changed; the caller re-infers).
class ReplaceOps : public ir::IRMutator {
 public:
  using IRMutator::mutate;
  explicit ReplaceOps(std::function<ir::FunPtr(const Op&)> replacement)
      : replacement_(std::move(replacement)) {}
  ir::ExprPtr mutate(const ir::ExprPtr& e) override {
    const auto* c = e->as<ir::FunCall>();
    const int sign = c && c->args().size() == 1 ? fftOperationSign(*c->f()) : 0;
    if (!sign) return mutateChildren(e);
    const Op op = opOf(*c, sign);
    return ir::FunCall::make(replacement_(op), {mutate(c->arg(0))}, e->loc());
  }

 private:
  std::function<ir::FunPtr(const Op&)> replacement_;
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
  if (plannedByRadices(op.n)) {
    const auto rs = chooseRadices(op.n);
    lines.push_back(fmt::format("{} {} {}: radices {} (passes over global memory)", name, op.n,
                                prec, fmt::join(rs, ", ")));
    return fmt::format("fftStockhamTwiddle({}, {})", radixList(rs), op.sign);
  }
  const Precision p = op.precision == ir::ScalarKind::Double ? Precision::F64 : Precision::F32;
  const auto rsM = chooseRadices(bluesteinSize(op.n, p));
  lines.push_back(fmt::format("{} {} {}: Bluestein, M = {}, radices {} (passes over global memory)",
                              name, op.n, prec, product(rsM), fmt::join(rsM, ", ")));
  return fmt::format("fftBluesteinRange({}, {}, 0, {}, {})", op.n, radixList(rsM), rsM.size(),
                     op.sign);
}

}  // namespace

bool hasFftOps(const compiler::frontend::Kernel& kernel) {
  return compiler::frontend::containsFftOperation(kernel.lambda->body());
}

namespace {

// The kernel with every operation a call (EtaOps), typed.
compiler::frontend::Kernel etaOps(const compiler::frontend::Kernel& k) {
  EtaOps eta;
  const ir::ExprPtr body = eta.mutate(k.lambda->body());
  return body == k.lambda->body() ? k : withBody(k, body);
}

}  // namespace

ExpandedFftOps expandFftOps(const compiler::frontend::Kernel& original, const FftRequest& limits) {
  ExpandedFftOps out;
  const compiler::frontend::Kernel kernel = etaOps(original);
  const ir::ExprPtr body = kernel.lambda->body();
  // The one-kernel form: body = map(g) <<: rows, every operation in g, all of one size n.
  const auto* top = body->as<ir::FunCall>();
  const auto* map = top ? top->f()->as<ir::Map>() : nullptr;
  if (map && top->args().size() == 1 && !compiler::frontend::containsFftOperation(top->arg(0)) &&
      top->arg(0)->type().isArray() && top->arg(0)->type().size().constant()) {
    const auto* g = map->f()->as<ir::Lambda>();
    const std::vector<Op> ops = g ? collectOps(g->body()) : std::vector<Op>{};
    const bool oneSize = !ops.empty() && std::all_of(ops.begin(), ops.end(), [&](const Op& o) {
      return o.n == ops[0].n && o.precision == ops[0].precision;
    });
    if (oneSize && plannedByRadices(ops[0].n)) {
      FftRequest r = limits;
      r.size = ops[0].n;
      r.dims.clear();
      r.batch = *top->arg(0)->type().size().constant();
      r.precision = ops[0].precision == ir::ScalarKind::Double ? Precision::F64 : Precision::F32;
      r.direction = Direction::Forward;
      r.variant = Variant::Auto;
      r.radices.clear();
      r.real = false;
      const PlanChoice choice = choosePlan(withLimits(r, PlanLimits{}));
      const auto* local = choice.as<LocalChoice>();
      if (choice.kernel == "stockhamLocal" && local && !local->oneArray) {
        const int64_t f = local->shape.fftsPerGroup, b = r.batch;
        const std::string rs = radixList(local->radices);
        ReplaceOps replace([&](const Op& op) {
          out.operations.push_back(fmt::format(
              "{} {} {}: radices {} (one kernel, {} work-items x {} rows per group)",
              op.sign < 0 ? "fft" : "ifft", op.n, precisionName(r.precision),
              fmt::join(local->radices, ", "), local->shape.workgroupSize, f));
          return libraryFft(op, fmt::format("fftStockhamTwiddle({}, {})", rs, op.sign));
        });
        // rowsInGroups(F, B, mapWorkgroup(0, mapLocal(1, g))) <<: rows (common.fdl)
        ir::FunPtr rowFun = replace.mutate(map->f());
        ir::FunPtr perGroup = ir::MapWorkgroup::make(0, ir::MapLocal::make(1, rowFun));
        ir::ExprPtr rows = top->arg(0);
        const int64_t extra = b % f == 0 ? 0 : f - b % f;
        if (extra) rows = ir::FunCall::make(ir::Pad::make(0, extra, ir::PadBoundary::Clamp), {rows});
        ir::ExprPtr e = ir::FunCall::make(ir::Split::make(f), {rows});
        e = ir::FunCall::make(ir::Join::make(), {ir::FunCall::make(perGroup, {e})});
        if (extra) e = ir::FunCall::make(ir::Crop::make(0, extra), {e});
        out.kernel = withBody(kernel, e);
        out.oneKernel = true;
        out.stageLocal = choice.stageLocal;
        return out;
      }
    }
  }
  ReplaceOps replace([&](const Op& op) { return libraryFft(op, globalCall(op, out.operations)); });
  out.kernel = withBody(kernel, replace.mutate(body));
  return out;
}

compiler::pipeline::Built buildExpanded(const ExpandedFftOps& expanded, std::string_view strategy,
                                        compiler::pipeline::Target target,
                                        compiler::codegen::CodegenOptions options) {
  options.constantTableMaxBytes = 0;
  const std::string_view s = strategy.empty() ? "lowerFft" : strategy;
  // the shapes are those of lowerFft's kernel (the planner drops them for another strategy)
  if (s == "lowerFft") options.stageLocal = expanded.stageLocal;
  return compiler::pipeline::build(expanded.kernel, s, target, std::move(options));
}

compiler::frontend::Kernel referenceFftOps(const compiler::frontend::Kernel& original) {
  const compiler::frontend::Kernel kernel = etaOps(original);
  ReplaceOps replace([](const Op& op) {
    return libraryFft(op, fmt::format("fftStockham({}, {})", radixList(chooseRadices(op.n)), op.sign));
  });
  return withBody(kernel, replace.mutate(kernel.lambda->body()));
}

}  // namespace fftc::fftlib
