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
  // The precision the caller rounds the result to (rewrites::foldClosed evaluates an f32
  // expression in f64, then rounds it to f32): fft operations are computed precisely enough
  // for it (ir::exactDftRounded's `use`).
  ScalarKind use = ScalarKind::Double;
};

// Semantics. Low-level patterns evaluate like their high-level forms (mapGlobal = map,
// reduceSeq = reduce, toX = identity). Reals are computed in the precision of the node's type:
// float programs round every operation to float (complex products as (ac - bd, ad + bc) in
// float, no fused multiply-add); cos/sin/exp/sqrt are evaluated in double and rounded; cispi
// and cispiRatio are evaluated in long double with exact argument reduction and rounded once.
// Ints are 64-bit, wrap on overflow, and divide with floor semantics. Errors (shape mismatch,
// unbound size, division by zero, unregistered userfun) throw InterpreterError.

// e^{iπx} rounded once to double and, separately, once to float (never through double).
struct CisPiRounded {
  std::complex<double> d;
  std::complex<float> f;
  // the value in `kind`'s precision (Float: f, exactly representable in a double)
  std::complex<double> in(ScalarKind kind) const;
};

// cos(πx) + i sin(πx) with exact argument reduction (to an angle of at most π/4 and the
// symmetries of the quadrants), evaluated in long double and rounded once; exact at multiples
// of 1/2. The interpreter and the code generator's constant folding (twiddle tables) both use
// it, so folded tables equal the interpreter's values.
CisPiRounded cisPiRounded(double x);
std::complex<double> cisPi(double x);  // cisPiRounded(x).d

// cispi(p/q) for integers p, q (q != 0) with the reduction done in integers: p mod 2q, its
// quadrant and the complement within it, so that the angle is never rounded before the sine and
// cosine (ω_n^k = cisPiRatio(2k, n) is exact to the last bit whatever n).
CisPiRounded cisPiRatio(int64_t p, int64_t q);

// The first quadrant of cisPiRatio: e^{i(π/2)·num/den} for 0 <= num < den, the value cisPiRatio
// turns by its quadrant (exactly: a swap and signs), so CisPiMemo keeps these and turns them.
CisPiRounded cisPiQuarter(int64_t num, int64_t den);

// Evaluates a typed expression; its free Params are bound in `env`.
Value interpret(const ExprPtr& typedExpr, const std::unordered_map<const Param*, Value>& env,
                const InterpreterOptions& options = {});

// Applies a typed function (e.g. the kernel Lambda returned by inferTypes) to argument values,
// checking them against the parameter types.
Value interpretCall(const FunPtr& typedFun, const std::vector<Value>& args,
                    const InterpreterOptions& options = {});

}  // namespace fftc::ir
