// compileKernel: code generation as a sequence of passes over the lowered IR and the kernel AST
// (generate, local memory, barriers, stages, facts), then printing.
#include "compiler/codegen/codegen.h"

#include "compiler/clang/clang_helpers.h"
#include "compiler/codegen/barriers.h"
#include "compiler/codegen/kernel_facts.h"
#include "compiler/codegen/kernel_gen.h"
#include "compiler/codegen/local_memory.h"
#include "compiler/codegen/stages.h"
#include "ir/arith/arith_overflow.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

using ir::ArithExpr;

const BufferInfo* CompiledKernel::buffer(const std::string& n) const {
  for (const auto& b : buffers)
    if (b.name == n) return &b;
  return nullptr;
}

namespace {

CompiledKernel compileImpl(const ir::LambdaPtr& lambda, const std::string& name,
                           const std::vector<std::string>& paramNames,
                           const std::vector<ArithExpr>& sizeVars, const CodegenOptions& options) {
  if (!options.dialect) throw std::invalid_argument("CodegenOptions::dialect is not set");
  // The passes, in order (docs/codegen.md has the table of what each records).
  GeneratedKernel g = KernelGen(options, name).run(lambda, paramNames, sizeVars);
  stageShapes(g.stages, options);
  allocateLocalMemory(
      g.locals,
      reusePlan(localLives(g.locals, g.trace), options.localReuseInPass ? &g.stages : nullptr),
      g.stages);
  placeBarriers(g.trace, g.stages);
  recordAccesses(g);
  CompiledKernel ck = assembleStages(g, options);
  dropUnreadTables(ck.module);
  recordKernelFacts(ck.module);
  ck.usesDouble = ck.module.usesDouble;
  ck.precision = ck.usesDouble ? "f64" : "f32";
  const backends::CPrinter printer(*options.dialect);
  std::string src = printer.module(ck.module);
  if (ck.module.kernels.size() > 1)
    for (size_t i = 0; i < ck.module.kernels.size(); ++i)
      for (auto& s : ck.stages)
        if (s.kernel == ck.module.kernels[i].name) s.source = printer.module(stageModule(ck.module, i));
  if (options.format)
    src = clang_helpers::formatSource(src, options.dialect->name() == "cuda"
                                               ? clang_helpers::Dialect::Cuda
                                               : clang_helpers::Dialect::OpenCL);
  ck.source = std::move(src);
  return ck;
}

}  // namespace

CompiledKernel compileKernel(const frontend::Kernel& kernel, const CodegenOptions& options) {
  if (!kernel.lambda || !kernel.resultType)
    throw ir::CompileError(kernel.loc, "code generation needs a type-checked kernel");
  try {
    return compileImpl(kernel.lambda, options.name.empty() ? kernel.name : options.name,
                       kernel.paramNames, kernel.sizeVars, options);
  } catch (const ir::CompileError& e) {
    // Errors of the code generator's inner steps (views, buffers) carry no location: blame the
    // kernel, so the CLI prints FILE:LINE:COL like every other user error.
    if (e.loc().known()) throw;
    throw ir::CompileError(kernel.loc, "kernel " + kernel.name + ": " + e.message());
  } catch (const ir::ArithOverflow& e) {
    // Buffer sizes and indices folded from the program's sizes (a slide of 2^63 - 1 elements
    // on a symbolic N): too large for the kernel, a user error at the kernel.
    throw ir::CompileError(kernel.loc, "kernel " + kernel.name +
                                           ": a buffer size or index overflows 64-bit integers (" +
                                           e.what() + ")");
  }
}

CompiledKernel compileLambda(const ir::LambdaPtr& typedKernel, const std::string& name,
                             const std::vector<std::string>& paramNames,
                             const std::vector<ArithExpr>& sizeVars, const CodegenOptions& options) {
  return compileImpl(typedKernel, options.name.empty() ? name : options.name, paramNames,
                     sizeVars, options);
}

}  // namespace fftc::compiler::codegen
