// The .fdl parser: recursive descent with precedence climbing over the lexer's tokens.
// Syntax errors throw ir::CompileError at the offending token.
#pragma once

#include <string>
#include <string_view>

#include "compiler/frontend/ast.h"

namespace fftc::compiler::frontend {

// Deepest expression or type nesting accepted; deeper input is an error, never a stack overflow.
inline constexpr int kMaxNestingDepth = 200;

ast::Module parse(std::string_view text, const std::string& fileName);

}  // namespace fftc::compiler::frontend
