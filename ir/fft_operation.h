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

// The operation's value as the interpreter holds it, the DFT of values held in double rounded
// once to `precision` (a Float result is a float value held in a double), computed precisely
// enough for the precision of the value's final use, `use` (the lower of the two counts:
// foldClosed evaluates an f32 table in f64 and rounds it to f32 afterwards):
// - f64: exactDft (FFTW in long double), exact to about 1e-19 of the values;
// - f32: FFTW's DFT in double (no SIMD codelets: the same plan and bits on every host), at a
//   sixth of long double's time; its error, about 1e-16 of the row's largest value, 1e-8 of
//   that value's float rounding step, makes a float differ from the exact value correctly
//   rounded only where that lies this close to a rounding boundary (tests/ir/
//   fft_operation_test.cpp). Of scripts/emitted-snapshot's f32 tables, 65521's has 2 values of
//   262144 one step away (-4.78e-7 in a table reaching 518) and 1009's two exact zeros are
//   4e-18 and -7e-19 (of a table reaching 0.03); 999983's 4M values are those of long double.
std::vector<std::complex<double>> exactDftRounded(std::span<const std::complex<double>> x,
                                                  int64_t n, int sign, ScalarKind precision,
                                                  ScalarKind use = ScalarKind::Double);

}  // namespace fftc::ir
