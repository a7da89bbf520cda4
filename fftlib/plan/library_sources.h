// The FFT library's .fdl files (fftlib/*.fdl), embedded at build time by
// fftlib/plan/library_sources.cpp.in: every .fdl file of fftlib/ is in, so a new file (one
// that the others `import`) needs no build change beyond re-running CMake, which the glob does.
// librarySource (planner.h) returns one file's text.
#pragma once

#include <string_view>
#include <vector>

#include "compiler/frontend/frontend.h"

namespace fftc::fftlib {

// The names of the embedded files ("bluestein.fdl", "fft.fdl", ...), sorted.
std::vector<std::string_view> libraryFiles();

// Serves the embedded files to `import`: in a library file, `import "common.fdl"` reads the
// embedded fftlib/common.fdl, never the disk. For compiling a library file from its text:
//   compiler::frontend::ElaborateOptions opts;  // precision, -D bindings, ...
//   opts.importReader = libraryImportReader();
//   auto program = compiler::frontend::compileSource(librarySource(file), std::string(file), opts);
// which is what compileLibraryFile does.
compiler::frontend::ImportReader libraryImportReader();

// compileSource of the embedded `file` with options.importReader = libraryImportReader().
compiler::frontend::Program compileLibraryFile(std::string_view file,
                                               compiler::frontend::ElaborateOptions options = {});

}  // namespace fftc::fftlib
