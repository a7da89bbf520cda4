// The pieces of a standalone NAME.hpp (header.cpp): the fixed runtime text every header carries
// (errors, OpenCL or CUDA driver helpers) and the per-kernel Kernel class of each target.
#pragma once

#include <string>
#include <vector>

#include "compiler/codegen/codegen.h"

namespace fftc::compiler::codegen::header {

// The helpers every header of a target carries, each block behind its own include guard
// (FFTC_GENERATED_*_V1), so that a program may include several headers: fftc_generated::Error
// and, per target, fftc_generated::opencl_v1 or fftc_generated::cuda_v1.
std::string errorPrelude();
std::string openclPrelude();
std::string cudaPrelude();

// What the Kernel classes of both targets share.
std::string cxx(const ir::ArithExpr& e);                    // a size expression as C++
std::string joined(const std::vector<std::string>& v);      // "a, b, c"
std::string sizeParams(const CompiledKernel& k);            // "int N, int M"
std::string sizeArgs(const CompiledKernel& k);              // "N, M"
bool isIo(const BufferInfo& b);                             // an input or the output
// "[[maybe_unused]] int N = OWNERN_;" lines: the size variables in scope for the expressions
// (not const: CUDA launches take their addresses as void*).
std::string sizeLocals(const CompiledKernel& k, const std::string& indent,
                       const std::string& owner = "");
// The byte count of a buffer as C++ over the size variables (at least 1: allocations of 0
// bytes are errors in both APIs).
std::string bytesExpr(const CompiledKernel& k, const BufferInfo& b);

// Comment lines on what run() takes: each input's and the output's count and element.
std::string ioDoc(const CompiledKernel& k);

// `class Kernel` for each target.
std::string openclKernelClass(const CompiledKernel& k);
std::string cudaKernelClass(const CompiledKernel& k);

}  // namespace fftc::compiler::codegen::header
