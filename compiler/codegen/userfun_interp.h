// The interpreter's implementations of userfuns, from their C bodies: clang translates each body
// (with the prelude a kernel gives it) and compiler/clang/c_program_eval.cpp runs it.
#pragma once

#include "backends/common/c_printer.h"
#include "ir/expr.h"
#include "ir/interpreter.h"

namespace fftc::compiler::codegen {

// What clang parses for a userfun in `dialect`: the complex helpers and the tuple structs its
// signature names, the signature, and the body (an expression body becomes `return BODY;`;
// `shift` is the columns that adds on line 1).
struct UserFunSource {
  std::string prelude, signature, body;
  int shift = 0;
};
UserFunSource userFunSource(const ir::UserFun& u, const backends::CDialect& dialect);

// Registers in `options` an implementation of every userfun called in `fun` that has none yet.
// A body is translated when first called; one the interpreter cannot run (not C clang accepts,
// pointers, arrays, or no clang plugin) throws ir::CompileError at the userfun's location, with
// the position in the body, when it is called.
void addUserFunBodies(const ir::FunPtr& fun, ir::InterpreterOptions& options,
                      const backends::CDialect& dialect);
// The same in the OpenCL dialect ("cuda": CUDA's), for callers that hold only a target name.
void addUserFunBodies(const ir::FunPtr& fun, ir::InterpreterOptions& options,
                      const std::string& target = "opencl");

}  // namespace fftc::compiler::codegen
