// The FFT as an operation of the language, `fft(x)` and `ifft(x)` (docs/language.md): what the
// front end elaborates it to, how the stages after it recognize the operation, and its value.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include "ir/expr.h"

namespace fftc::ir {

// fft: [complex]n -> [complex]n, the unnormalized DFT with exponent sign `sign` (-1: `fft`,
// +1: `ifft`, as FFTW). Elaborated as map(U), U a userfun named "fft" or "ifft" that only
// marks the operation: type inference then gives it its size and precision as it types any
// map, with no new IR node. U has no C body. Its value (the interpreter, rewrites::foldClosed)
// is the exact DFT (exactDft). A closed operation (Bluestein's chirp spectrum) becomes a table
// (foldClosed); fftlib's expandFftOps (fftlib/plan/fft_ops.h) replaces the others by the FFT
// library's algorithm the planner chooses. A kernel whose operation was neither is refused
// before code generation.
FunPtr fftOperation(int sign, ScalarKind precision, const SourceLoc& loc = {});

// The sign of an fft operation (-1 fft, +1 ifft) when f is one (the map of fftOperation), else 0.
int fftOperationSign(const FunDecl& f);

// Whether f is the userfun that marks an operation (the f of fftOperation's map).
bool isFftOperationMarker(const FunDecl& f);

// Whether any fft operation is left in e.
bool containsFftOperation(const ExprPtr& e);

// The unnormalized DFTs of `batch` rows of n values, exponent sign `sign`, computed by FFTW in
// long double (fftwl): the value of the operation, exact to about 1e-19 relative (the tables
// made from it are rounded once to their precision).
std::vector<std::complex<long double>> exactDft(std::span<const std::complex<long double>> x,
                                                int64_t n, int64_t batch, int sign);

// The operation's value as the interpreter holds it: exactDft of values held in double, rounded
// once to `precision` (a Float result is a float value held in a double).
std::vector<std::complex<double>> exactDftRounded(std::span<const std::complex<double>> x,
                                                  int64_t n, int sign, ScalarKind precision);

}  // namespace fftc::ir
