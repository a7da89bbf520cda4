// The clang helpers of a build without LLVM (FFTC_WITH_CLANG=OFF): kernels keep the printer's
// layout and userfun bodies are left to the device compiler to check.
#include "compiler/clang/clang_helpers.h"

namespace fftc::compiler::clang_helpers {

bool clangHelpersAvailable() { return false; }

std::string clangHelpersStatus() {
  return "clang helpers unavailable: fftc was built with FFTC_WITH_CLANG=OFF";
}

std::string clangPluginIdentity() { return "none"; }

std::string formatSource(std::string_view source, Dialect /*dialect*/) {
  return std::string(source);
}

std::vector<BodyDiagnostic> checkUserFunBody(std::string_view /*prelude*/,
                                             std::string_view /*signature*/,
                                             std::string_view /*body*/, Dialect /*dialect*/) {
  return {};
}

CProgram lowerUserFunBody(std::string_view /*prelude*/, std::string_view /*signature*/,
                          std::string_view /*body*/, Dialect /*dialect*/) {
  CProgram none;
  none.error = "the interpreter runs userfun bodies through clang, and " + clangHelpersStatus();
  return none;
}

}  // namespace fftc::compiler::clang_helpers
