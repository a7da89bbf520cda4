// The reference interpreter: evaluates any typed program (high- or low-level) on host values.
// It is the semantic oracle that rewrite rules and generated kernels are tested against.
#pragma once

#include <complex>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/value.h"

namespace fftc::ir {

// A C++ implementation of a userfun (the interpreter cannot run the C body); it receives the
// argument values (converted to the declared parameter types) and returns the result.
using UserFunImpl = std::function<Value(const std::vector<Value>&)>;

struct InterpreterOptions {
  std::unordered_map<std::string, UserFunImpl> userFuns;  // by userfun name
  // Size variable bindings by ArithExpr::varId(). interpretCall also binds a variable that is
  // a parameter's whole array size (the N of [T]N) from the argument value.
  std::unordered_map<uint64_t, int64_t> sizes;
};

// Semantics. Low-level patterns evaluate like their high-level forms (mapGlobal = map,
// reduceSeq = reduce, toX = identity). Reals are computed in the precision of the node's type:
// float programs round every operation to float (complex products as (ac - bd, ad + bc) in
// float, no fused multiply-add); cos/sin/exp/sqrt/cispi are evaluated in double (cispi with
// exact argument reduction) and rounded once. Ints are 64-bit, wrap on overflow, and divide
// with floor semantics. Errors (shape mismatch, unbound size, division by zero, unregistered
// userfun) throw InterpreterError.

// cos(pi x) + i sin(pi x) with exact argument reduction, evaluated in long double and rounded
// once; exact at multiples of 1/2. The interpreter and the code generator's constant folding
// (twiddle tables) both use it, so folded tables equal the interpreter's values.
std::complex<double> cisPi(double x);

// Evaluates a typed expression; its free Params are bound in `env`.
Value interpret(const ExprPtr& typedExpr, const std::unordered_map<const Param*, Value>& env,
                const InterpreterOptions& options = {});

// Applies a typed function (e.g. the kernel Lambda returned by inferTypes) to argument values,
// checking them against the parameter types.
Value interpretCall(const FunPtr& typedFun, const std::vector<Value>& args,
                    const InterpreterOptions& options = {});

}  // namespace fftc::ir
