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

// Removes the constant tables no kernel reads: a table is made when its view is (a gather's
// index table), and an unrolled loop that reads it only at constant indices reads the values
// instead (dropZeroTerms' gather in an unrolled stencil).
void dropUnreadTables(backends::Module& module);

// Kernel `index` of `module` alone, as a module of its own: its structs and userfuns, the
// constant tables it reads (by name) and, recorded anew, the helpers and precision it needs.
// Printed, it is a translation unit that a device compiler builds apart from the other stages
// (plans build their stages concurrently: StageInfo::source).
backends::Module stageModule(const backends::Module& module, size_t index);

}  // namespace fftc::compiler::codegen
