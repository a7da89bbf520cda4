// Type nodes, structural equality and printing.
#include "ir/type.h"

#include <ostream>
#include <stdexcept>

namespace fftc::ir {

struct TypeNode {
  TypeKind kind;
  ScalarKind scalar = ScalarKind::Int;  // Scalar kind or Complex precision
  std::vector<Type> comps;              // Tuple components; Array: {element}
  ArithExpr size;                       // Array
  bool vector = false;                  // Array: a vector <t>n
};

Type Type::scalar(ScalarKind k) {
  static const Type kInt(std::make_shared<TypeNode>(TypeNode{TypeKind::Scalar, ScalarKind::Int}));
  static const Type kFloat(
      std::make_shared<TypeNode>(TypeNode{TypeKind::Scalar, ScalarKind::Float}));
  static const Type kDouble(
      std::make_shared<TypeNode>(TypeNode{TypeKind::Scalar, ScalarKind::Double}));
  switch (k) {
    case ScalarKind::Int: return kInt;
    case ScalarKind::Float: return kFloat;
    case ScalarKind::Double: return kDouble;
  }
  return kInt;
}

Type Type::complex(ScalarKind precision) {
  if (precision == ScalarKind::Int) throw std::invalid_argument("complex<int> is not a type");
  static const Type kF(std::make_shared<TypeNode>(TypeNode{TypeKind::Complex, ScalarKind::Float}));
  static const Type kD(
      std::make_shared<TypeNode>(TypeNode{TypeKind::Complex, ScalarKind::Double}));
  return precision == ScalarKind::Float ? kF : kD;
}

Type Type::tuple(std::vector<Type> components) {
  for (const auto& c : components)
    if (!c) throw std::invalid_argument("tuple of an unknown type");
  auto n = std::make_shared<TypeNode>();
  n->kind = TypeKind::Tuple;
  n->comps = std::move(components);
  return Type(std::move(n));
}

Type Type::array(Type element, ArithExpr size) {
  if (!element) throw std::invalid_argument("array of an unknown type");
  auto n = std::make_shared<TypeNode>();
  n->kind = TypeKind::Array;
  n->comps = {std::move(element)};
  n->size = std::move(size);
  return Type(std::move(n));
}

Type Type::vector(Type element, ArithExpr width) {
  if (!element || !element.isScalar())
    throw std::invalid_argument("a vector of a non-scalar type");
  auto n = std::make_shared<TypeNode>();
  n->kind = TypeKind::Array;
  n->comps = {std::move(element)};
  n->size = std::move(width);
  n->vector = true;
  return Type(std::move(n));
}

bool Type::isVector() const { return isArray() && node_->vector; }

Type Type::nestedArray(Type element, const std::vector<ArithExpr>& sizes) {
  Type t = std::move(element);
  for (size_t i = sizes.size(); i-- > 0;) t = array(t, sizes[i]);
  return t;
}

TypeKind Type::kind() const { return node_->kind; }
bool Type::isInt() const { return isScalar() && node_->scalar == ScalarKind::Int; }
bool Type::isReal() const { return isScalar() && node_->scalar != ScalarKind::Int; }
bool Type::isNumeric() const { return isScalar() || isComplex(); }
ScalarKind Type::scalarKind() const { return node_->scalar; }

const std::vector<Type>& Type::components() const {
  if (!isTuple()) throw std::logic_error("components() of a non-tuple type " + str());
  return node_->comps;
}
const Type& Type::element() const {
  if (!isArray()) throw std::logic_error("element() of a non-array type " + str());
  return node_->comps[0];
}
const ArithExpr& Type::size() const {
  if (!isArray()) throw std::logic_error("size() of a non-array type " + str());
  return node_->size;
}

Type Type::innermost() const {
  Type t = *this;
  while (t.isArray()) t = t.element();
  return t;
}

std::vector<ArithExpr> Type::shape() const {
  std::vector<ArithExpr> s;
  for (Type t = *this; t.isArray(); t = t.element()) s.push_back(t.size());
  return s;
}

Type Type::substitute(const std::unordered_map<uint64_t, ArithExpr>& byVarId) const {
  if (!node_) return *this;
  switch (kind()) {
    case TypeKind::Scalar:
    case TypeKind::Complex: return *this;
    case TypeKind::Tuple: {
      std::vector<Type> cs;
      for (const auto& c : components()) cs.push_back(c.substitute(byVarId));
      return tuple(std::move(cs));
    }
    case TypeKind::Array:
      return node_->vector ? vector(element(), size().substitute(byVarId))
                           : array(element().substitute(byVarId), size().substitute(byVarId));
  }
  return *this;
}

std::string scalarKindName(ScalarKind k) {
  switch (k) {
    case ScalarKind::Int: return "int";
    case ScalarKind::Float: return "float";
    case ScalarKind::Double: return "double";
  }
  return "?";
}

std::string Type::str() const {
  if (!node_) return "?";
  switch (kind()) {
    case TypeKind::Scalar: return scalarKindName(node_->scalar);
    case TypeKind::Complex: return "complex<" + scalarKindName(node_->scalar) + ">";
    case TypeKind::Tuple: {
      std::string s = "(";
      for (size_t i = 0; i < node_->comps.size(); ++i)
        s += (i ? ", " : "") + node_->comps[i].str();
      return s + ")";
    }
    case TypeKind::Array: {
      std::string n = node_->size.str();
      bool simple = node_->size.isConstant() || node_->size.isVar();
      if (node_->vector) return "<" + element().str() + ">" + (simple ? n : "(" + n + ")");
      return "[" + element().str() + "]" + (simple ? n : "(" + n + ")");
    }
  }
  return "?";
}

bool sizesEqual(const ArithExpr& a, const ArithExpr& b) {
  if (a == b) return true;
  auto d = (a - b).constant();
  return d && *d == 0;
}

bool Type::operator==(const Type& o) const {
  if (node_ == o.node_) return true;
  if (!node_ || !o.node_ || kind() != o.kind()) return false;
  switch (kind()) {
    case TypeKind::Scalar:
    case TypeKind::Complex: return node_->scalar == o.node_->scalar;
    case TypeKind::Tuple: return node_->comps == o.node_->comps;
    case TypeKind::Array:
      return node_->vector == o.node_->vector && sizesEqual(node_->size, o.node_->size) &&
             element() == o.element();
  }
  return false;
}

bool sameModuloSizes(const Type& a, const Type& b) {
  if (!a || !b || a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case TypeKind::Scalar:
    case TypeKind::Complex: return a.scalarKind() == b.scalarKind();
    case TypeKind::Tuple: {
      if (a.components().size() != b.components().size()) return false;
      for (size_t i = 0; i < a.components().size(); ++i)
        if (!sameModuloSizes(a.components()[i], b.components()[i])) return false;
      return true;
    }
    case TypeKind::Array:
      return a.isVector() == b.isVector() && sameModuloSizes(a.element(), b.element());
  }
  return false;
}

std::ostream& operator<<(std::ostream& os, const Type& t) { return os << t.str(); }

}  // namespace fftc::ir
