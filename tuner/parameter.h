// Tuning parameters: a name, a range of values, and constraints that may read earlier
// parameters. Ranges are fixed lists or generators computed from earlier parameters.
#pragma once

#include "tuner/configuration.h"

#include <functional>
#include <string>
#include <vector>

namespace fftc::tuner {

// The values a parameter may take. A fixed range is known before the space is built; a
// generated range is computed for each partial configuration of the parameters it depends on
// (e.g. "radix sequences with product N" depends on N).
class Range {
 public:
  using Generator = std::function<std::vector<Value>(const Configuration& partial)>;

  static Range fixed(std::vector<Value> values, std::string description);
  static Range generated(std::vector<std::string> dependencies, Generator generator,
                         std::string description);

  bool isFixed() const { return !generator_; }
  const std::vector<std::string>& dependencies() const { return dependencies_; }
  const std::vector<Value>& fixedValues() const { return values_; }  // empty when generated
  const std::string& description() const { return description_; }

  // The values for this partial configuration; throws TunerError on a duplicate value.
  std::vector<Value> valuesFor(const Configuration& partial) const;

 private:
  std::vector<Value> values_;
  std::vector<std::string> dependencies_;
  Generator generator_;
  std::string description_;
};

Range interval(std::int64_t lo, std::int64_t hi, std::int64_t step = 1);  // lo, lo+step, .. <= hi
Range powersOfTwo(std::int64_t lo, std::int64_t hi);                      // 2^k in [lo, hi]
Range intSet(std::vector<std::int64_t> values);
Range stringSet(std::vector<std::string> values);
Range listSet(std::vector<IntList> values);
Range generator(std::vector<std::string> dependencies, Range::Generator generator,
                std::string description);

// Helpers for generators.
std::vector<std::int64_t> divisorsOf(std::int64_t n);  // ascending; n >= 1
// Ordered factorizations of n into factors from `factors` (each used any number of times),
// at most maxLength long: the radix sequences of an n-point FFT, e.g.
// orderedFactorizations(16, {2,4}, 3) = [4,4], [2,2,4], [2,4,2], [4,2,2].
std::vector<IntList> orderedFactorizations(std::int64_t n, const IntList& factors,
                                           std::size_t maxLength);
std::vector<Value> asValues(const std::vector<std::int64_t>& xs);
std::vector<Value> asValues(const std::vector<IntList>& xs);

// An integer operand of a constraint: a constant or the value of an earlier parameter.
class Operand {
 public:
  Operand(int constant) : constant_(constant) {}             // NOLINT(google-explicit-constructor)
  Operand(long constant) : constant_(constant) {}            // NOLINT
  Operand(long long constant) : constant_(constant) {}       // NOLINT
  Operand(const char* parameter) : parameter_(parameter) {}  // NOLINT
  Operand(std::string parameter) : parameter_(std::move(parameter)) {}  // NOLINT

  bool isParameter() const { return !parameter_.empty(); }
  const std::string& parameter() const { return parameter_; }
  std::int64_t evaluate(const Configuration& partial) const;
  std::string toString() const;

 private:
  std::string parameter_;
  std::int64_t constant_ = 0;
};

// A constraint on one parameter's value `self`. It sees the partial configuration in which
// the parameter itself and its dependencies are set; a dependency must be declared earlier.
class Constraint {
 public:
  using Check = std::function<bool(const Value& self, const Configuration& partial)>;
  using Predicate = std::function<bool(const Configuration& partial)>;

  Constraint(std::vector<std::string> dependencies, Check check, std::string description);

  const std::vector<std::string>& dependencies() const { return dependencies_; }
  const std::string& description() const { return description_; }
  bool holds(const Value& self, const Configuration& partial) const {
    return check_(self, partial);
  }

 private:
  std::vector<std::string> dependencies_;
  Check check_;
  std::string description_;
};

// divides("N") on parameter WG means N % WG == 0; operands are constants or earlier parameters.
Constraint divides(Operand n);     // n % self == 0 (self > 0)
Constraint multipleOf(Operand m);  // self % m == 0 (m > 0)
Constraint lessThan(Operand m);    // self < m
Constraint lessEqual(Operand m);   // self <= m
// An arbitrary predicate over the partial configuration (which includes the parameter itself);
// `dependencies` names every other parameter it reads.
Constraint predicate(std::vector<std::string> dependencies, Constraint::Predicate fn,
                     std::string description = "predicate");

class Parameter {
 public:
  Parameter(std::string name, Range range, std::vector<Constraint> constraints = {});

  Parameter& where(Constraint c) &;
  Parameter&& where(Constraint c) &&;

  const std::string& name() const { return name_; }
  const Range& range() const { return range_; }
  const std::vector<Constraint>& constraints() const { return constraints_; }
  // The other parameters that the range and the constraints read (no duplicates).
  std::vector<std::string> dependencies() const;
  // True if every constraint holds for value v given the partial configuration (in which
  // this parameter is already set to v).
  bool admits(const Value& v, const Configuration& partial) const;

 private:
  std::string name_;
  Range range_;
  std::vector<Constraint> constraints_;
};

}  // namespace fftc::tuner
