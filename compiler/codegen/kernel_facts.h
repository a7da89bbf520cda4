// The facts pass: what a finished kernel AST needs from its printer (the precision, the helper
// functions it calls), recorded on the module, so that no step ever searches printed text.
#pragma once

#include "backends/common/kernel_ast.h"

namespace fftc::compiler::codegen {

// Sets module.usesDouble (some value, declaration, parameter, struct field, table or userfun
// signature has a double C type) and module.helpers (the fftc_ helper functions called by
// name, and the floor division/modulo helpers that the index expressions print with:
// ir::ArithExpr::cHelpers). Userfun bodies are the user's C text and are not read: they may
// call the C and dialect math functions, not fftc's internal helpers.
void recordKernelFacts(backends::Module& module);

}  // namespace fftc::compiler::codegen
