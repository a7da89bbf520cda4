// Compile-time evaluation of closed sub-expressions. An expression that reads no kernel input
// and no variable bound outside it (a *closed* expression) has the same value in every
// work-item and every launch; when it computes an array (Bluestein's chirp spectrum D_M b, a
// product of twiddle matrices), evaluating it once at compile time and reading the result from
// a table is exact and saves computing it at run time.
//
//   ExprPtr folded = foldClosed(typedProgram);   // or the strategy foldClosed()
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <vector>

#include "ir/expr.h"
#include "rewrites/strategy.h"

namespace fftc::rewrites {

struct FoldOptions {
  // Tables larger than this (elements) are not made: the expression is computed at run time.
  int64_t maxElements = int64_t{1} << 20;
  // The same for an expression that reduces (an FFT: Bluestein's chirp spectrum D_M b), which
  // computed at run time costs passes over global memory of its own, not an inline element
  // function: 2^22 holds the spectrum of every N up to 2^20 (M <= 2^21), which at 2^20 took six
  // more passes at every run (bluesteinFourStep's three became nine for 999983).
  int64_t maxReducingElements = int64_t{1} << 22;
  // The same for an expression with an fft operation (ir/fft_operation.h), which has no form
  // but its table: 2^25 holds Bluestein's chirp spectrum for every N up to 2^24.
  int64_t maxFftElements = int64_t{1} << 25;
};

// Replaces every maximal closed sub-expression that computes (contains a map, a reduce or an
// iterate: a bare generator is left to the code generator, which tabulates or inlines it) and
// whose value is an array of reals or complex numbers with constant sizes, at most
// maxElements in all, by an ir::Table of its value, computed with the reference interpreter's
// semantics in the expression's own precision, except that an f32 expression is computed in f64
// and rounded once (a compile-time table as accurate as f32 holds it; its fft operations by
// FFTW in double rather than long double, ir::exactDftRounded's `use`): a whole array at a time
// (ir::evaluateBatched, the same bits) where it can, else by the interpreter itself. An expression
// the interpreter cannot evaluate (a userfun, which has no C++ implementation) stays as it is.
// Returns the program untyped where it changed (re-type it), else `typed` itself.
ir::ExprPtr foldClosed(const ir::ExprPtr& typed, const FoldOptions& options = {});

// The value of `typed`, flattened (row-major), when it is closed (no free parameter) and an
// array of reals or complex numbers of constant sizes, at most maxElements in all, that the
// interpreter can evaluate (no userfun): computed as foldClosed computes a table's (an f32
// expression in f64, rounded once). nullopt otherwise.
std::optional<std::vector<std::complex<double>>> closedValue(const ir::ExprPtr& typed,
                                                             int64_t maxElements);

// foldClosed as a program pass ("foldClosed"; part of lowerDefault and lowerFft).
Strategy foldClosedPass(FoldOptions options = {});

}  // namespace fftc::rewrites
