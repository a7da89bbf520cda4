// Runtime values of the reference interpreter.
#include "ir/value.h"

#include <cstdio>
#include <ostream>

#include "ir/diagnostic.h"

namespace fftc::ir {

Value Value::ofInt(int64_t v) {
  Value r;
  r.kind_ = ValueKind::Int;
  r.i_ = v;
  return r;
}
Value Value::ofFloat(float v) {
  Value r;
  r.kind_ = ValueKind::Float;
  r.re_ = v;
  return r;
}
Value Value::ofDouble(double v) {
  Value r;
  r.kind_ = ValueKind::Double;
  r.re_ = v;
  return r;
}
Value Value::ofReal(double v, ScalarKind precision) {
  return precision == ScalarKind::Float ? ofFloat(static_cast<float>(v)) : ofDouble(v);
}
Value Value::ofComplex(std::complex<double> v, ScalarKind precision) {
  Value r;
  if (precision == ScalarKind::Float) {
    r.kind_ = ValueKind::ComplexFloat;
    r.re_ = static_cast<float>(v.real());
    r.im_ = static_cast<float>(v.imag());
  } else {
    r.kind_ = ValueKind::ComplexDouble;
    r.re_ = v.real();
    r.im_ = v.imag();
  }
  return r;
}
Value Value::tuple(std::vector<Value> components) {
  Value r;
  r.kind_ = ValueKind::Tuple;
  r.elems_ = std::make_shared<const std::vector<Value>>(std::move(components));
  return r;
}
Value Value::array(std::vector<Value> elements) {
  Value r;
  r.kind_ = ValueKind::Array;
  r.elems_ = std::make_shared<const std::vector<Value>>(std::move(elements));
  return r;
}

namespace {
template <class T, class Make>
Value shaped(std::span<const T> data, std::vector<int64_t> shape, Make make) {
  if (shape.empty()) shape = {static_cast<int64_t>(data.size())};
  int64_t total = 1;
  for (auto s : shape) total *= s;
  if (total != static_cast<int64_t>(data.size()))
    throw InterpreterError("host array of " + std::to_string(data.size()) +
                           " elements does not have the given shape");
  // Build innermost rows first, then group them.
  std::vector<Value> level;
  level.reserve(data.size());
  for (const auto& x : data) level.push_back(make(x));
  for (size_t d = shape.size(); d-- > 0;) {
    std::vector<Value> next;
    size_t n = static_cast<size_t>(shape[d]);
    for (size_t i = 0; i < level.size(); i += n)
      next.push_back(Value::array(std::vector<Value>(level.begin() + static_cast<ptrdiff_t>(i),
                                                     level.begin() + static_cast<ptrdiff_t>(i + n))));
    if (n == 0) next.push_back(Value::array({}));
    level = std::move(next);
  }
  return level.at(0);
}

template <class Leaf>
void flatten(const Value& v, Leaf&& leaf) {
  if (v.isArray()) {
    for (const auto& e : v.elems()) flatten(e, leaf);
  } else {
    leaf(v);
  }
}
}  // namespace

Value Value::complexArray(std::span<const std::complex<double>> data, ScalarKind precision,
                          std::vector<int64_t> shape) {
  return shaped(data, std::move(shape),
                [&](const std::complex<double>& c) { return ofComplex(c, precision); });
}

Value Value::realArray(std::span<const double> data, ScalarKind precision,
                       std::vector<int64_t> shape) {
  return shaped(data, std::move(shape), [&](double x) { return ofReal(x, precision); });
}

std::vector<std::complex<double>> Value::toComplexVector() const {
  std::vector<std::complex<double>> out;
  flatten(*this, [&](const Value& v) {
    if (v.isComplex()) {
      out.push_back(v.asComplex());
    } else if (v.isTuple() && v.size() == 2 && !v[0].isTuple() && !v[0].isArray() &&
               !v[0].isComplex() && !v[1].isComplex() && !v[1].isTuple() && !v[1].isArray()) {
      out.emplace_back(v[0].asReal(), v[1].asReal());
    } else {
      throw InterpreterError("toComplexVector: element " + v.str() + " is not complex");
    }
  });
  return out;
}

std::vector<double> Value::toRealVector() const {
  std::vector<double> out;
  flatten(*this, [&](const Value& v) {
    if (v.isArray() || v.isTuple() || v.isComplex())
      throw InterpreterError("toRealVector: element " + v.str() + " is not a real");
    out.push_back(v.asReal());
  });
  return out;
}

double Value::asReal() const {
  if (kind_ == ValueKind::Int) return static_cast<double>(i_);
  if (isArray() || isTuple()) throw InterpreterError("expected a scalar, got " + str());
  return re_;
}

std::complex<double> Value::asComplex() const {
  if (isComplex()) return {re_, im_};
  return {asReal(), 0.0};
}

const std::vector<Value>& Value::elems() const {
  if (!elems_) throw InterpreterError("expected a tuple or an array, got " + str());
  return *elems_;
}

size_t Value::size() const { return elems_ ? elems_->size() : 0; }

bool Value::operator==(const Value& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case ValueKind::Int: return i_ == o.i_;
    case ValueKind::Float:
    case ValueKind::Double: return re_ == o.re_;
    case ValueKind::ComplexFloat:
    case ValueKind::ComplexDouble: return re_ == o.re_ && im_ == o.im_;
    case ValueKind::Tuple:
    case ValueKind::Array: return elems_ == o.elems_ || *elems_ == *o.elems_;
  }
  return false;
}

namespace {
std::string num(double v, bool isFloat) {
  char buf[48];
  std::snprintf(buf, sizeof buf, isFloat ? "%.9g" : "%.17g", v);
  return std::string(buf) + (isFloat ? "f" : "");
}
}  // namespace

std::string Value::str() const {
  switch (kind_) {
    case ValueKind::Int: return std::to_string(i_);
    case ValueKind::Float: return num(re_, true);
    case ValueKind::Double: return num(re_, false);
    case ValueKind::ComplexFloat:
    case ValueKind::ComplexDouble: {
      bool f = kind_ == ValueKind::ComplexFloat;
      return "{" + num(re_, f) + ", " + num(im_, f) + "}";
    }
    case ValueKind::Tuple:
    case ValueKind::Array: {
      bool t = kind_ == ValueKind::Tuple;
      std::string s = t ? "(" : "[";
      for (size_t i = 0; i < elems_->size(); ++i) {
        if (i == 16 && elems_->size() > 20) {
          s += ", ... (" + std::to_string(elems_->size()) + " elements)";
          break;
        }
        s += (i ? ", " : "") + (*elems_)[i].str();
      }
      return s + (t ? ")" : "]");
    }
  }
  return "?";
}

std::ostream& operator<<(std::ostream& os, const Value& v) { return os << v.str(); }

}  // namespace fftc::ir
