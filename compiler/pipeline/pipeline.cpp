// The compiler pipeline: lowering by strategy, then code generation.
#include "compiler/pipeline/pipeline.h"

#include "backends/common/cuda_dialect.h"
#include "backends/common/opencl_dialect.h"
#include "compiler/pipeline/phase_times.h"
#include "ir/traversal.h"
#include "ir/view_predicates.h"
#include "rewrites/named_strategies.h"
#include "rewrites/strategy_parser.h"

namespace fftc::compiler::pipeline {

std::string targetName(Target t) { return t == Target::Cuda ? "cuda" : "opencl"; }

// A high-level reduce or a map that computes (not a view) has no code of its own.
bool needsLowering(const ir::LambdaPtr& kernel) {
  return ir::containsFun(kernel->body(), [](const ir::FunDecl& f) {
    return f.is<ir::Reduce>() || (f.is<ir::Map>() && !ir::isView(f));
  });
}

Lowered lower(const frontend::Kernel& kernel, std::string_view strategy) {
  Lowered out{kernel, false, {}};
  if (strategy.empty() && !needsLowering(kernel.lambda)) return out;
  PhaseTimer timer("rewriting");
  rewrites::Strategy s =
      strategy.empty() ? rewrites::lowerDefault() : rewrites::parseStrategy(strategy);
  out.kernel.lambda = rewrites::rewriteKernel(kernel.lambda, s, {}, &out.info);
  out.rewritten = true;
  // A strategy that failed leaves the program as it was: say so here, where code generation
  // would only say that a map is not low-level.
  if (!out.info.success && needsLowering(out.kernel.lambda))
    throw ir::CompileError(
        kernel.loc,
        "kernel " + kernel.name + ": the strategy '" +
            (strategy.empty() ? s.str() : std::string(strategy)) + "' failed (" +
            (strategy.empty() ? std::string("the default lowering left a pattern it has no rule for")
                              : std::string("a rule in it did not apply: a tile, split or chunk "
                                            "size that does not divide the array's size, or a "
                                            "position that does not match")) +
            "), so the kernel is still high-level; " + std::to_string(out.info.log.size()) +
            " rewrite(s) done" +
            (out.info.log.empty() ? std::string() : ", the last " + out.info.log.back()));
  return out;
}

codegen::CodegenOptions codegenOptions(Target target) {
  codegen::CodegenOptions o;
  if (target == Target::Cuda)
    o.dialect = std::make_shared<backends::CudaDialect>();
  else
    o.dialect = std::make_shared<backends::OpenCLDialect>();
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
