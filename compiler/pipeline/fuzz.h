// The whole-pipeline fuzz entry (tests/fuzz/pipeline_fuzzer.cpp and the regression tests): .fdl
// text through what `fftc compile` does with it (parse, infer, lowerDefault, codegen).
// The budgets are the CLI's: ElaborateOptions' defaults, lower() with no strategy, the target's
// codegenOptions(); only imports differ (never the disk). A user error must come back as a
// CompileError or a UserError with a one-line message; anything else escapes as a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"

namespace fftc::compiler::pipeline {

struct FuzzOutcome {
  int kernels = 0;    // kernels the front end produced
  int compiled = 0;   // of them, compiled to device code
  std::string error;  // the one-line user error that stopped it, empty if none
};

// What `fftc compile FILE --target T` does, on `text`: every kernel is lowered and compiled.
// `imports` serves `import "..."` (null: every import is an error). Throws std::logic_error
// when a user error's message is empty or spans several lines; lets every exception that the
// CLI would report as an internal error (exit status 4) escape.
FuzzOutcome compileLikeTheCli(std::string_view text, Target target,
                              const frontend::ImportReader& imports);

// One typed kernel through `fftc compile`'s steps after the front end: lower() with no strategy
// (lowerDefault when it is high-level), then codegen for `target`. Exceptions as above, unfiltered.
codegen::CompiledKernel compileKernelLikeTheCli(const frontend::Kernel& kernel, Target target);

// compileLikeTheCli on fuzzer bytes: the target is CUDA for odd sizes, OpenCL for even ones
// (deterministic for a given input, so a crash reproduces from its file alone).
FuzzOutcome fuzzOneInput(const uint8_t* data, size_t size, const frontend::ImportReader& imports);

}  // namespace fftc::compiler::pipeline
