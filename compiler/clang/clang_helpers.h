// The LLVM/Clang 14 helpers of the code generator: clang-format layout of emitted kernels, and
// early checks of userfun C bodies whose errors point into the body (hence into the .fdl file).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "compiler/clang/c_program.h"

// Not `fftc::compiler::clang`: that name would hide the global `clang` namespace of LLVM.
namespace fftc::compiler::clang_helpers {

enum class Dialect { OpenCL, Cuda };

// True when fftc was built with LLVM/Clang (FFTC_WITH_CLANG=ON) and its plugin loaded;
// otherwise formatSource returns its input and checkUserFunBody checks nothing (the device
// compiler will report errors). clangHelpersStatus() says which, and why.
bool clangHelpersAvailable();
std::string clangHelpersStatus();
// Which plugin formatSource would use, without loading it: its path, size and modification
// time ("none" without one). Part of the disk plan cache's key (fftlib/plan/plan_cache.h):
// loading the plugin takes longer than loading a cached plan.
std::string clangPluginIdentity();

// Re-lays out C source (OpenCL C or CUDA C) with clang-format's library in the house style
// (Google base, 100 columns, set in code so no .clang-format file is read). On any failure the
// input comes back unchanged; never throws.
std::string formatSource(std::string_view source, Dialect dialect);

// An error inside a userfun body. line and col are 1-based within the body text (col counts
// bytes). Errors that are not in the body (in the prelude or the signature, or without a
// location) have line == 0 and col == 0, and their message says where they are.
struct BodyDiagnostic {
  int line = 0;
  int col = 0;
  std::string message;
};

// Checks a userfun's C body by parsing `PRELUDE  SIGNATURE { BODY }` with clang:
//   - OpenCL: OpenCL C 1.2 (spir64), with the OpenCL built-in types (float2, uint, ...) and
//     built-in functions (native_cos, mad, ...) that an OpenCL compiler provides;
//   - CUDA: C++17, with a small stand-in for what NVRTC provides (__device__ and friends as
//     empty macros, float2/float4/double2/double4 as plain structs with make_*, math functions).
// The prelude is what the kernel file declares before the userfun (complex helpers, typedefs),
// not the compiler's built-ins. Only errors are returned (warnings are ignored), sorted by
// position; an empty vector means the body is fine (or, without clang, was not checked).
std::vector<BodyDiagnostic> checkUserFunBody(std::string_view prelude, std::string_view signature,
                                             std::string_view body, Dialect dialect);

// Translates a userfun body (the same translation unit as checkUserFunBody) into a CProgram
// that runCProgram evaluates: how the interpreter runs userfuns. Without the plugin, or when the
// body is not C clang accepts or uses what the evaluator does not run, the result's `error` says
// why (with the body position where there is one).
CProgram lowerUserFunBody(std::string_view prelude, std::string_view signature,
                          std::string_view body, Dialect dialect);

}  // namespace fftc::compiler::clang_helpers
