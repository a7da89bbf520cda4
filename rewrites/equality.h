// Structural equality and hashing of programs modulo the identity of bound Params
// (alpha-equivalence): what exploration deduplicates variants by.
#pragma once

#include <cstddef>

#include "ir/expr.h"

namespace fftc::rewrites {

// True when a and b are the same program up to renaming of Lambda Params. Free Params (kernel
// inputs) must be the same nodes. Types are not compared: they follow from the structure.
bool alphaEqual(const ir::ExprPtr& a, const ir::ExprPtr& b);
bool alphaEqual(const ir::FunPtr& a, const ir::FunPtr& b);
// Consistent with alphaEqual: alphaEqual(a, b) implies alphaHash(a) == alphaHash(b).
size_t alphaHash(const ir::ExprPtr& e);

}  // namespace fftc::rewrites
