// libFuzzer target for the whole compile pipeline: arbitrary bytes through what `fftc compile`
// does with a .fdl file (parse, elaborate, infer, lowerDefault, codegen), with the CLI's
// budgets (compiler/pipeline/fuzz.h). A one-line user error is fine; a crash, a hang, an
// exception the CLI would report as an internal error (exit 4) or a multi-line message is a
// finding. `import "common.fdl"` and the other FFT library files resolve to the embedded
// fftlib/*.fdl, so library-style programs reach the rewrites and codegen.
#include <cstddef>
#include <cstdint>

#include "compiler/pipeline/fuzz.h"
#include "fftlib/plan/library_sources.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Inputs past 16 KiB only slow the fuzzer down (the largest example is 4 KiB).
  if (size > (16u << 10)) return 0;
  static const auto imports = fftc::fftlib::libraryImportReader();
  fftc::compiler::pipeline::fuzzOneInput(data, size, imports);
  return 0;
}
