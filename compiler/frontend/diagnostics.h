// Turns any ir::CompileError (from the lexer, parser, elaborator or type inference) into the
// user-facing text: "FILE:LINE:COL: error: MESSAGE", the source line, and a caret line.
#pragma once

#include <string>
#include <string_view>

#include "ir/diagnostic.h"

namespace fftc::compiler::frontend {

// `source` is the text of the file the error points into. The source and caret lines are left
// out when the location is unknown or outside `source`. Always ends with a newline.
std::string formatError(const ir::CompileError& err, std::string_view source);

// As above, reading the source from err.loc().file (no snippet if it cannot be read).
std::string formatError(const ir::CompileError& err);

}  // namespace fftc::compiler::frontend
