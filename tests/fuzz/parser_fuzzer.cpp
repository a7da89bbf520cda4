// libFuzzer target for the front end: lexes, parses, elaborates and type-checks arbitrary bytes.
// Rejecting the input with a CompileError is fine; crashing, hanging or leaking any other
// exception is a bug. Build with clang -fsanitize=fuzzer,address,undefined; seeds in corpus/.
#include <cstddef>
#include <cstdint>

#include "compiler/frontend/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // Inputs past 64 KiB only slow the fuzzer down without reaching new code.
  if (size > (64u << 10)) return 0;
  fftc::compiler::frontend::fuzzOneInput(data, size);
  return 0;
}
