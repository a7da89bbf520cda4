// Runtime values of the reference interpreter: scalars inline, tuples and arrays as shared
// immutable vectors (copies are cheap; split/transpose only copy handles).
#pragma once

#include <complex>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "ir/type.h"

namespace fftc::ir {

// Float and ComplexFloat values hold exactly representable float values (stored as double);
// arithmetic on them is done in float by the interpreter.
enum class ValueKind : uint8_t { Int, Float, Double, ComplexFloat, ComplexDouble, Tuple, Array };

class Value {
 public:
  Value() = default;  // the int 0
  static Value ofInt(int64_t v);
  static Value ofFloat(float v);
  static Value ofDouble(double v);
  static Value ofReal(double v, ScalarKind precision);  // rounds to float for Float
  static Value ofComplex(std::complex<double> v, ScalarKind precision);
  static Value tuple(std::vector<Value> components);
  static Value array(std::vector<Value> elements);

  // Host arrays, flat and row-major, shaped by `shape` (outermost first; {n} for a vector).
  static Value complexArray(std::span<const std::complex<double>> data, ScalarKind precision,
                            std::vector<int64_t> shape = {});
  static Value realArray(std::span<const double> data, ScalarKind precision,
                         std::vector<int64_t> shape = {});
  // Flattens nested arrays (row-major) of complex (or of (re, im) tuples of reals) / of reals;
  // throws InterpreterError on other element kinds.
  std::vector<std::complex<double>> toComplexVector() const;
  std::vector<double> toRealVector() const;

  ValueKind kind() const { return kind_; }
  bool isArray() const { return kind_ == ValueKind::Array; }
  bool isTuple() const { return kind_ == ValueKind::Tuple; }
  bool isComplex() const {
    return kind_ == ValueKind::ComplexFloat || kind_ == ValueKind::ComplexDouble;
  }
  int64_t asInt() const { return i_; }             // Int
  double asReal() const;                           // Int, Float, Double (converted)
  std::complex<double> asComplex() const;          // any scalar (reals get im = 0)
  const std::vector<Value>& elems() const;         // Tuple and Array
  size_t size() const;                             // number of elems (0 for scalars)
  const Value& operator[](size_t i) const { return elems()[i]; }

  // Exact structural equality (same kinds, same bits up to +-0).
  bool operator==(const Value& o) const;
  std::string str() const;  // "[1, 2]", "(1, 2.5f)", "{1, -0.5}"

 private:
  ValueKind kind_ = ValueKind::Int;
  int64_t i_ = 0;
  double re_ = 0, im_ = 0;
  std::shared_ptr<const std::vector<Value>> elems_;
};

std::ostream& operator<<(std::ostream& os, const Value& v);  // v.str()

}  // namespace fftc::ir
