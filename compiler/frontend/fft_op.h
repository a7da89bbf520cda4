// The FFT as an operation of the language, `fft(x)` and `ifft(x)` (docs/language.md): what the
// front end elaborates it to, and how the stages after it recognize the operation.
#pragma once

#include "ir/expr.h"

namespace fftc::compiler::frontend {

// fft: [complex]n -> [complex]n, the unnormalized DFT with exponent sign `sign` (-1: `fft`,
// +1: `ifft`, as FFTW). Elaborated as map(U), U a userfun named "fft" or "ifft" that only
// marks the operation: type inference then gives it its size and precision as it types any
// map, with no new IR node, and fftlib's expandFftOps (fftlib/plan/fft_ops.h) replaces it by
// the FFT library's algorithm the planner chooses for that size. U has no C body: a kernel whose
// operation was not expanded is refused before code generation (checkNoFftOps).
ir::FunPtr fftOperation(int sign, ir::ScalarKind precision, const ir::SourceLoc& loc = {});

// The sign of an fft operation (-1 fft, +1 ifft) when f is one (the map of fftOperation), else 0.
int fftOperationSign(const ir::FunDecl& f);

// Whether any fft operation is left in e.
bool containsFftOperation(const ir::ExprPtr& e);

}  // namespace fftc::compiler::frontend
