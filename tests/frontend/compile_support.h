// Compiling a .fdl source in a frontend test: a compile error fails the test with the error
// shown on the source (FILE:LINE:COL and the line), then propagates.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"

namespace fftc::test {

inline compiler::frontend::Program compile(const std::string& src,
                                           compiler::frontend::ElaborateOptions opts = {}) {
  try {
    return compiler::frontend::compileSource(src, "e.fdl", opts);
  } catch (const ir::CompileError& e) {
    ADD_FAILURE() << compiler::frontend::formatError(e, src);
    throw;
  }
}

}  // namespace fftc::test
