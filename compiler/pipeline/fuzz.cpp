// The whole-pipeline fuzz entry: the CLI's compile path with its budgets, and the rule that a
// user error is one line.
#include "compiler/pipeline/fuzz.h"

#include <stdexcept>

#include "backends/common/device_error.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::pipeline {
namespace {

// The CLI prints a user error as one line (and, for a CompileError, the source line and a
// caret): a message with a line break or none at all is a bug of the stage that raised it.
std::string checkedMessage(const std::string& message, const char* kind) {
  if (message.empty()) throw std::logic_error(std::string(kind) + " with an empty message");
  if (message.find('\n') != std::string::npos)
    throw std::logic_error(std::string(kind) + " message spans several lines: " + message);
  return message;
}

}  // namespace

codegen::CompiledKernel compileKernelLikeTheCli(const frontend::Kernel& kernel, Target target) {
  Lowered lowered = lower(kernel, "");
  return codegen::compileKernel(lowered.kernel, codegenOptions(target));
}

FuzzOutcome compileLikeTheCli(std::string_view text, Target target,
                              const frontend::ImportReader& imports) {
  FuzzOutcome out;
  frontend::ElaborateOptions elaborate;  // the CLI's budgets: the defaults (cmd_compile.cpp)
  elaborate.importReader =
      imports ? imports : frontend::rejectImports("imports are not read while fuzzing");
  try {
    frontend::Program program = frontend::compileSource(text, "fuzz.fdl", elaborate);
    out.kernels = static_cast<int>(program.kernels.size());
    for (const auto& kernel : program.kernels) {
      static_cast<void>(compileKernelLikeTheCli(kernel, target));
      ++out.compiled;
    }
  } catch (const ir::CompileError& e) {
    out.error = checkedMessage(e.message(), "CompileError");
  } catch (const backends::UserError& e) {
    out.error = checkedMessage(e.what(), "UserError");
  }
  return out;
}

FuzzOutcome fuzzOneInput(const uint8_t* data, size_t size, const frontend::ImportReader& imports) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  return compileLikeTheCli(text, size % 2 ? Target::Cuda : Target::OpenCL, imports);
}

}  // namespace fftc::compiler::pipeline
