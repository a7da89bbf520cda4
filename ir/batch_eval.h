// The reference interpreter's semantics evaluated a whole array at a time: a closed expression
// (rewrites::foldClosed's tables, such as Bluestein's chirp spectrum) on flat typed arrays.
#pragma once

#include <complex>
#include <optional>
#include <vector>

#include "ir/expr.h"

namespace fftc::ir {

// The value of a closed, typed expression (no free Params) whose value is an array of reals or
// complex numbers, flattened row-major (reals with imaginary part 0): bit for bit what
// interpret(e, {}) gives, so a table folded either way is the same.
//
// How: the body of map(f) is evaluated once for all the elements, with f's parameter bound to
// the whole array (its leading dimensions are *batch* dimensions: the elements of all the
// enclosing maps), so every scalar operation runs as one loop over flat arrays instead of one
// walk of the expression tree per element; split, join and transpose are views (shapes and
// strides), a value read inside more maps than it was made in is broadcast, and reduce folds
// its slices in the interpreter's order. Scalars are those of the interpreter's operations
// (interp_scalar.h), generators its compiled element programs (scalar_program.h).
//
// nullopt when the expression uses what this evaluator does not do (integer arrays, pad,
// slide, userfuns, a generator whose element function is not a scalar formula, symbolic
// sizes): the caller then interprets it. Throws InterpreterError where the interpreter would.
// `use`: the precision the caller rounds the values to (InterpreterOptions::use).
std::optional<std::vector<std::complex<double>>> evaluateBatched(
    const ExprPtr& typedExpr, ScalarKind use = ScalarKind::Double);

}  // namespace fftc::ir
