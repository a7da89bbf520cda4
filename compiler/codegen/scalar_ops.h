// Scalar operations of generated code with compile-time folding: integer arithmetic stays
// symbolic (ArithExpr) so indices simplify; reals and complex values fold when their operands
// are literals (cispi(-2.0 * k / n) with constant k, n is a literal); multiplications by 1, -1,
// i and -i become copies, negations and swaps.
#pragma once

#include <complex>
#include <optional>
#include <span>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "ir/expr.h"
#include "ir/interp_scalar.h"

namespace fftc::compiler::codegen {

// A scalar value in generated code: a C expression and its IR type (int, real, complex).
struct ScalarVal {
  backends::CExpr e;
  ir::Type t;
};

backends::CType scalarCType(const ir::Type& t);  // int/float/double/complex only

// The value converted to `to` (int -> real, real -> complex, float <-> double).
backends::CExpr convert(const ScalarVal& v, const ir::Type& to);

// op(args) with result type `result` (the FunCall's inferred type). MakeTuple is not handled
// here (tuples are views).
ScalarVal scalarOp(ir::BuiltinOp op, const std::vector<ScalarVal>& args, const ir::Type& result);

// The literal of an IR literal.
ScalarVal literalValue(const ir::Literal& lit);

// op folded on literal operands (ints as reals), rounded to the precision of `result` after
// every operation as the interpreter does; nullopt where it does not fold (a real division by
// zero, mod, makeTuple). The memo, when given, remembers cispi's values (table folding).
std::optional<std::complex<double>> foldScalar(ir::BuiltinOp op,
                                               std::span<const std::complex<double>> operands,
                                               const ir::Type& result,
                                               ir::interp::CisPiMemo* memo = nullptr);

// Literal values of folded expressions (nullopt when not a literal).
std::optional<std::complex<double>> literalOf(const backends::CExpr& e);

}  // namespace fftc::compiler::codegen
