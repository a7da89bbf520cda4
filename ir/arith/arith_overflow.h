// ArithOverflow: the ArithError of a constant past int64 while folding or evaluating, so that
// callers can tell "the program's sizes are too large" (a user error) from a bug.
#pragma once

#include "ir/arith/arith_expr.h"

namespace fftc::ir {

// Thrown where folding or evaluation leaves int64 (arith_canon.cpp, arith_simplify_div.cpp,
// ArithExpr::evaluate); type inference and codegen turn it into a CompileError at the program.
struct ArithOverflow : ArithError {
  using ArithError::ArithError;
};

}  // namespace fftc::ir
