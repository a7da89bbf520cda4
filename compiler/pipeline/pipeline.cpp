// The compiler pipeline: lowering by strategy, then code generation.
#include "compiler/pipeline/pipeline.h"

#include "backends/common/cuda_dialect.h"
#include "backends/opencl/opencl_printer.h"
#include "compiler/pipeline/phase_times.h"
#include "rewrites/ir_util.h"
#include "rewrites/named_strategies.h"
#include "rewrites/strategy_parser.h"

namespace fftc::compiler::pipeline {
namespace {

bool funNeedsLowering(const ir::FunPtr& f);

bool exprNeedsLowering(const ir::ExprPtr& e) {
  const auto* call = e->as<ir::FunCall>();
  if (!call) return false;
  if (funNeedsLowering(call->f())) return true;
  for (const auto& a : call->args())
    if (exprNeedsLowering(a)) return true;
  return false;
}

bool funNeedsLowering(const ir::FunPtr& f) {
  if (f->is<ir::Reduce>()) return true;
  if (f->is<ir::Map>() && !rewrites::isViewFun(f)) return true;
  for (const auto& child : f->funChildren())
    if (funNeedsLowering(child)) return true;
  for (const auto& child : f->exprChildren())
    if (exprNeedsLowering(child)) return true;
  return false;
}

}  // namespace

std::string targetName(Target t) { return t == Target::Cuda ? "cuda" : "opencl"; }

bool needsLowering(const ir::LambdaPtr& kernel) { return exprNeedsLowering(kernel->body()); }

Lowered lower(const frontend::Kernel& kernel, std::string_view strategy) {
  Lowered out{kernel, false, {}};
  if (strategy.empty() && !needsLowering(kernel.lambda)) return out;
  PhaseTimer timer("rewriting");
  rewrites::Strategy s =
      strategy.empty() ? rewrites::lowerDefault() : rewrites::parseStrategy(strategy);
  out.kernel.lambda = rewrites::rewriteKernel(kernel.lambda, s, {}, &out.info);
  out.rewritten = true;
  return out;
}

codegen::CodegenOptions codegenOptions(Target target) {
  codegen::CodegenOptions o;
  if (target == Target::Cuda)
    o.dialect = std::make_shared<backends::CudaDialect>();
  else
    o.dialect = std::make_shared<backends::opencl::OpenCLDialect>();
  return o;
}

Built build(const frontend::Kernel& kernel, std::string_view strategy, Target target,
            codegen::CodegenOptions options) {
  if (!options.dialect) options.dialect = codegenOptions(target).dialect;
  Built b{lower(kernel, strategy), {}};
  PhaseTimer timer("codegen: views, simplify, print");
  b.compiled = codegen::compileKernel(b.lowered.kernel, options);
  return b;
}

}  // namespace fftc::compiler::pipeline
