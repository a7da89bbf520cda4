// Types of fftc values: int, float, double, complex<float|double>, tuples and arrays [T]n whose
// sizes are symbolic ArithExprs. Immutable value handles; == is structural (sizes by ArithExpr ==).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/arith/arith_expr.h"

namespace fftc::ir {

// The scalar kinds; Float/Double also name the precision of reals and complex values.
enum class ScalarKind : uint8_t { Int, Float, Double };

enum class TypeKind : uint8_t { Scalar, Complex, Tuple, Array };

struct TypeNode;  // internal (type.cpp)

// A null Type (default-constructed, `!t`) means "not known yet": untyped Params before
// inference. Everything else is built with the static functions below.
class Type {
 public:
  Type() = default;

  static Type scalar(ScalarKind k);
  static Type intType() { return scalar(ScalarKind::Int); }
  static Type floatType() { return scalar(ScalarKind::Float); }
  static Type doubleType() { return scalar(ScalarKind::Double); }
  static Type real(ScalarKind precision) { return scalar(precision); }  // Float or Double
  static Type complex(ScalarKind precision);                           // Float or Double
  static Type tuple(std::vector<Type> components);
  static Type array(Type element, ArithExpr size);
  // <t>n: a vector of n scalars (asVector, docs/language.md). It is an array (isArray, element,
  // size as [t]n) whose copies code generation may emit as one vector load or store (float4);
  // it differs from [t]n in ==.
  static Type vector(Type element, ArithExpr width);
  // [[[elem]sizes[k-1]]...]sizes[0]: sizes listed outermost first, as in array2/array3.
  static Type nestedArray(Type element, const std::vector<ArithExpr>& sizes);

  explicit operator bool() const { return node_ != nullptr; }
  TypeKind kind() const;
  bool isScalar() const { return node_ && kind() == TypeKind::Scalar; }
  bool isInt() const;
  bool isReal() const;     // float or double
  bool isNumeric() const;  // int, real or complex
  bool isComplex() const { return node_ && kind() == TypeKind::Complex; }
  bool isTuple() const { return node_ && kind() == TypeKind::Tuple; }
  bool isArray() const { return node_ && kind() == TypeKind::Array; }
  bool isVector() const;  // an array made by vector()

  ScalarKind scalarKind() const;  // Scalar: its kind; Complex: its precision
  const std::vector<Type>& components() const;  // Tuple
  const Type& element() const;                   // Array
  const ArithExpr& size() const;                 // Array
  // Innermost non-array type and the sizes outermost first ({} for a non-array).
  Type innermost() const;
  std::vector<ArithExpr> shape() const;

  // Replaces size variables (e.g. kernel sizes fixed by -D) in every array size.
  Type substitute(const std::unordered_map<uint64_t, ArithExpr>& byVarId) const;

  // "int", "float", "complex<double>", "(int, float)", "[[complex<float>]4]N".
  std::string str() const;

  bool operator==(const Type& o) const;
  bool operator!=(const Type& o) const { return !(*this == o); }

 private:
  explicit Type(std::shared_ptr<const TypeNode> n) : node_(std::move(n)) {}
  std::shared_ptr<const TypeNode> node_;
};

// True when sizes a and b are provably equal (structurally after simplification, or a-b == 0).
bool sizesEqual(const ArithExpr& a, const ArithExpr& b);
// Same shape modulo array sizes: what iterate(k, f) requires of f.
bool sameModuloSizes(const Type& a, const Type& b);

std::string scalarKindName(ScalarKind k);  // "int", "float", "double"
std::ostream& operator<<(std::ostream& os, const Type& t);  // t.str()

}  // namespace fftc::ir
