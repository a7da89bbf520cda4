// Writing a command's output files all or nothing (CLI.md "What compile and fft write to DIR"):
// NAME.cl or NAME.cu, the manifest NAME.json with its table files, and the header NAME.hpp.
// Shared by `fftc compile` and `fftc fft`.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/codegen/codegen.h"

namespace fftc::driver {

// Creates `dir` when missing and checks that it is a writable directory, so that a bad -o fails
// before any compiling; UserError when it is not.
void prepareOutputDir(const std::filesystem::path& dir);

// Checks that the file `path` can be written (its folder made, nothing in the way), for an
// output written only at the end of a long run; UserError "OPTION PATH: why" when it cannot.
void prepareOutputFile(const std::filesystem::path& path, const char* option);

// The files of one command, written together: commit() writes each to a temporary name in the
// target directory (".NAME.fftc-tmp.PID") and renames them into place only when all are
// written. A failure removes the temporaries and leaves the previous files as they were; a kill
// while writing leaves at most a temporary behind, never a half-written NAME. (A kill between
// two renames can still mix old and new files: renames are quick, but there are several.)
class OutputSet {
 public:
  explicit OutputSet(std::filesystem::path dir) : dir_(std::move(dir)) {}

  // Adds (or replaces) the file `name` in the target directory.
  void add(const std::string& name, std::string bytes);
  // Adds the files named in `emit` ("source", "manifest", "header"; other kinds are ignored)
  // of a compiled kernel. The manifest's tables go next to it, named by their `data` file. A
  // CUDA header embeds PTX compiled by NVRTC (compute_75); where NVRTC is missing it is left out
  // with a warning on stderr, and the result is false (the other files are added).
  bool addKernel(const compiler::codegen::CompiledKernel& k, const std::set<std::string>& emit,
                 bool cuda);
  bool empty() const { return files_.empty(); }

  // Writes the set (UserError when a file cannot be written; nothing is renamed then).
  void commit();

 private:
  std::filesystem::path dir_;
  std::vector<std::pair<std::string, std::string>> files_;  // name, bytes (in order of adding)
};

}  // namespace fftc::driver
