// What the plugin's two clang passes over a userfun share (inside libfftc_clang_plugin.so only):
// the translation unit around a body, positions within the body, and one parse of it by clang.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/SourceLocation.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Frontend/FrontendAction.h>

#include "compiler/clang/clang_helpers.h"

namespace fftc::compiler::clang_helpers {

// Where the parts sit in the translation unit handed to clang.
struct Layout {
  std::string text;
  size_t preludeBegin = 0;
  size_t signatureBegin = 0;
  size_t bodyBegin = 0;
  size_t bodyEnd = 0;  // past the body's last non-blank character
};

Layout buildTranslationUnit(std::string_view prelude, std::string_view signature,
                            std::string_view body, Dialect dialect);

// `message` placed at `loc`: a body line and column, or 0:0 and the message saying which part
// of the translation unit (built-in declarations, prelude, signature) holds it.
BodyDiagnostic locateInBody(const Layout& layout, const clang::SourceManager& sm,
                            clang::SourceLocation loc, std::string message);

// Parses the layout's text with `action` (clang's arguments for the dialect); returns the errors,
// sorted by position. `ok` is false when clang could not even be set up (then nothing is checked).
std::vector<BodyDiagnostic> parseWithClang(const Layout& layout, Dialect dialect,
                                           clang::FrontendAction& action, bool* ok = nullptr);

// The plugin's entry for the interpreter (c_program.h): the userfun and the prelude functions
// it calls, translated from clang's AST.
CProgram lowerUserFunBodyImpl(std::string_view prelude, std::string_view signature,
                              std::string_view body, Dialect dialect);

}  // namespace fftc::compiler::clang_helpers
