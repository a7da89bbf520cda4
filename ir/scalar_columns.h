// A generator's element program (scalar_program.h) evaluated for a whole table at once: each
// operation one loop over a block of elements, with the interpreter's bits.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/interp_scalar.h"
#include "ir/scalar_program.h"

namespace fftc::ir {

struct ScalarTable {
  ValueKind kind = ValueKind::Double;        // Float, Double, ComplexFloat or ComplexDouble
  std::vector<std::complex<double>> values;  // row-major; reals with im 0
};

// The values of `program` (of 2k arguments: k indices, then the k sizes) at every index of an
// array of `sizes`, row-major: for each element the same bits as ScalarEvaluator::run, which
// walks the program once per element; here each node is one loop over a block of elements
// (integer arithmetic, real and complex +, -, *, /, cispi typed; the other builtins through
// interp::scalarBuiltin). nullopt when the values are ints or of more than one kind. Throws
// InterpreterError where the interpreter would.
std::optional<ScalarTable> evaluateTable(const ScalarProgram& program,
                                         std::span<const int64_t> sizes, interp::CisPiMemo& memo);

}  // namespace fftc::ir
