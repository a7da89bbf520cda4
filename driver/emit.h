// Writing a compiled kernel's files (CLI.md "What compile and fft write to DIR"): NAME.cl or
// NAME.cu, the manifest NAME.json with its table files, and the header NAME.hpp. Shared by
// `fftc compile` and `fftc fft`.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <string_view>

#include "compiler/codegen/codegen.h"

namespace fftc::driver {

// Writes `bytes` to `path`; UserError when it cannot.
void writeFile(const std::filesystem::path& path, std::string_view bytes);

// Creates `dir` and writes the files named in `emit` ("source", "manifest", "header"; other
// kinds are ignored). The manifest's tables go next to it, named by their `data` file.
void emitFiles(const compiler::codegen::CompiledKernel& k, const std::set<std::string>& emit,
               const std::filesystem::path& dir, bool cuda);

}  // namespace fftc::driver
