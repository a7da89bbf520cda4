// The C entry point of the clang plugin (libfftc_clang_plugin.so). The plugin holds LLVM/Clang
// 14; it is loaded with dlopen(RTLD_LOCAL | RTLD_DEEPBIND) so that its clang symbols never meet
// those of an OpenCL driver's own LLVM in the same process (PoCL links clang 15: with clang 14
// linked into the executable, PoCL's kernel compiler crashes).
#pragma once

#include "compiler/clang/clang_helpers.h"

namespace fftc::compiler::clang_helpers {

inline constexpr int kPluginApiVersion = 2;

struct PluginApi {
  int version;
  std::string (*formatSource)(std::string_view source, Dialect dialect);
  std::vector<BodyDiagnostic> (*checkUserFunBody)(std::string_view prelude,
                                                  std::string_view signature,
                                                  std::string_view body, Dialect dialect);
  CProgram (*lowerUserFunBody)(std::string_view prelude, std::string_view signature,
                               std::string_view body, Dialect dialect);
};

}  // namespace fftc::compiler::clang_helpers

// Returns the plugin's function table (same toolchain and libstdc++ on both sides).
extern "C" const fftc::compiler::clang_helpers::PluginApi* fftc_clang_plugin_api();
