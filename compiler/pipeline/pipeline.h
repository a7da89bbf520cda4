// The compiler pipeline shared by `fftc compile`, `fftc exec` and the FFT planner: a typed
// kernel from the front end is lowered by a rewrite strategy (the default lowering when it is
// still high-level and none is given) and compiled to a device module with its manifest.
#pragma once

#include <string>
#include <string_view>

#include "compiler/codegen/codegen.h"
#include "compiler/frontend/frontend.h"
#include "rewrites/strategy.h"

namespace fftc::compiler::pipeline {

enum class Target { OpenCL, Cuda };
std::string targetName(Target t);  // "opencl", "cuda"

// True when the kernel still holds a high-level map or reduce that computes something (a map
// whose function only rearranges data is a view and needs no lowering).
bool needsLowering(const ir::LambdaPtr& kernel);

struct Lowered {
  frontend::Kernel kernel;        // the kernel with its lowered (typed) body
  bool rewritten = false;         // a strategy ran
  rewrites::RewriteResult info;   // what it did (when rewritten)
};

// Applies `strategy` (strategy-language text; empty: `lowerDefault` when needsLowering, else
// nothing). Throws rewrites::StrategyParseError for a malformed strategy.
Lowered lower(const frontend::Kernel& kernel, std::string_view strategy);

// The dialect printer of a target.
codegen::CodegenOptions codegenOptions(Target target);

// lower + compileKernel.
struct Built {
  Lowered lowered;
  codegen::CompiledKernel compiled;
};
Built build(const frontend::Kernel& kernel, std::string_view strategy, Target target,
            codegen::CodegenOptions options);

}  // namespace fftc::compiler::pipeline
