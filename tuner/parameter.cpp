#include "tuner/parameter.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

namespace fftc::tuner {

static void checkNoDuplicates(const std::vector<Value>& values, const std::string& what) {
  std::set<Value> seen;
  for (const auto& v : values)
    if (!seen.insert(v).second)
      throw TunerError(fmt::format("range {} holds the value {} twice", what, toString(v)));
}

Range Range::fixed(std::vector<Value> values, std::string description) {
  checkNoDuplicates(values, description);
  Range r;
  r.values_ = std::move(values);
  r.description_ = std::move(description);
  return r;
}

Range Range::generated(std::vector<std::string> dependencies, Generator generator,
                       std::string description) {
  if (!generator) throw TunerError("generated range " + description + " has no generator");
  Range r;
  r.dependencies_ = std::move(dependencies);
  r.generator_ = std::move(generator);
  r.description_ = std::move(description);
  return r;
}

std::vector<Value> Range::valuesFor(const Configuration& partial) const {
  if (!generator_) return values_;
  std::vector<Value> vs = generator_(partial);
  checkNoDuplicates(vs, description_);
  return vs;
}

Range interval(std::int64_t lo, std::int64_t hi, std::int64_t step) {
  if (step <= 0)
    throw TunerError(fmt::format("interval({}, {}, {}): step must be positive", lo, hi, step));
  std::vector<Value> vs;
  for (std::int64_t x = lo; x <= hi; x += step) {
    vs.emplace_back(x);
    if (x > INT64_MAX - step) break;
  }
  return Range::fixed(std::move(vs), fmt::format("interval({}, {}, {})", lo, hi, step));
}

Range powersOfTwo(std::int64_t lo, std::int64_t hi) {
  std::vector<Value> vs;
  for (std::int64_t x = 1; x > 0 && x <= hi; x *= 2) {
    if (x >= lo) vs.emplace_back(x);
    if (x > INT64_MAX / 2) break;
  }
  return Range::fixed(std::move(vs), fmt::format("powersOfTwo({}, {})", lo, hi));
}

std::vector<Value> asValues(const std::vector<std::int64_t>& xs) {
  return {xs.begin(), xs.end()};
}
std::vector<Value> asValues(const std::vector<IntList>& xs) {
  return {xs.begin(), xs.end()};
}

Range intSet(std::vector<std::int64_t> values) {
  return Range::fixed(asValues(values), fmt::format("{{{}}}", fmt::join(values, ", ")));
}

Range stringSet(std::vector<std::string> values) {
  return Range::fixed({values.begin(), values.end()},
                      fmt::format("{{{}}}", fmt::join(values, ", ")));
}

Range listSet(std::vector<IntList> values) {
  return Range::fixed(asValues(values), fmt::format("{} lists", values.size()));
}

Range generator(std::vector<std::string> dependencies, Range::Generator gen,
                std::string description) {
  return Range::generated(std::move(dependencies), std::move(gen), std::move(description));
}

std::vector<std::int64_t> divisorsOf(std::int64_t n) {
  if (n < 1) throw TunerError(fmt::format("divisorsOf({}): n must be positive", n));
  std::vector<std::int64_t> small, large;
  for (std::int64_t d = 1; d * d <= n; ++d)
    if (n % d == 0) {
      small.push_back(d);
      if (d != n / d) large.push_back(n / d);
    }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

static void factorize(std::int64_t n, const IntList& factors, std::size_t maxLength,
                      IntList& prefix, std::vector<IntList>& out) {
  if (n == 1) {
    if (!prefix.empty()) out.push_back(prefix);
    return;
  }
  if (prefix.size() == maxLength) return;
  for (auto f : factors) {
    if (f < 2 || n % f != 0) continue;
    prefix.push_back(f);
    factorize(n / f, factors, maxLength, prefix, out);
    prefix.pop_back();
  }
}

std::vector<IntList> orderedFactorizations(std::int64_t n, const IntList& factors,
                                           std::size_t maxLength) {
  if (n < 1) throw TunerError(fmt::format("orderedFactorizations({}): n must be positive", n));
  std::vector<IntList> out;
  IntList prefix;
  factorize(n, factors, maxLength, prefix, out);
  // Shortest sequences first (fewest passes), then lexicographically descending radices.
  std::stable_sort(out.begin(), out.end(), [](const IntList& a, const IntList& b) {
    return a.size() != b.size() ? a.size() < b.size() : a > b;
  });
  return out;
}

std::int64_t Operand::evaluate(const Configuration& partial) const {
  return isParameter() ? partial.getInt(parameter_) : constant_;
}

std::string Operand::toString() const {
  return isParameter() ? parameter_ : std::to_string(constant_);
}

Constraint::Constraint(std::vector<std::string> dependencies, Check check, std::string description)
    : dependencies_(std::move(dependencies)),
      check_(std::move(check)),
      description_(std::move(description)) {
  if (!check_) throw TunerError("constraint " + description_ + " has no check");
}

static std::vector<std::string> depsOf(const Operand& o) {
  if (o.isParameter()) return {o.parameter()};
  return {};
}

static std::int64_t selfInt(const Value& self, const std::string& what) {
  if (const auto* i = std::get_if<std::int64_t>(&self)) return *i;
  throw TunerError(
      fmt::format("constraint {} needs an integer value, got {}", what, toString(self)));
}

// Each builder: the constraint's meaning, then its name in messages.
Constraint divides(Operand n) {
  auto what = "divides(" + n.toString() + ")";
  return {depsOf(n),
          [n, what](const Value& self, const Configuration& c) {
            std::int64_t d = selfInt(self, what);
            return d > 0 && n.evaluate(c) % d == 0;
          },
          what};
}

Constraint multipleOf(Operand m) {
  auto what = "multipleOf(" + m.toString() + ")";
  return {depsOf(m),
          [m, what](const Value& self, const Configuration& c) {
            std::int64_t k = m.evaluate(c);
            return k > 0 && selfInt(self, what) % k == 0;
          },
          what};
}

Constraint lessThan(Operand m) {
  auto what = "lessThan(" + m.toString() + ")";
  return {depsOf(m),
          [m, what](const Value& self, const Configuration& c) {
            return selfInt(self, what) < m.evaluate(c);
          },
          what};
}

Constraint lessEqual(Operand m) {
  auto what = "lessEqual(" + m.toString() + ")";
  return {depsOf(m),
          [m, what](const Value& self, const Configuration& c) {
            return selfInt(self, what) <= m.evaluate(c);
          },
          what};
}

Constraint predicate(std::vector<std::string> dependencies, Constraint::Predicate fn,
                     std::string description) {
  if (!fn) throw TunerError("predicate " + description + " has no function");
  return {std::move(dependencies),
          [fn = std::move(fn)](const Value&, const Configuration& c) { return fn(c); },
          std::move(description)};
}

Parameter::Parameter(std::string name, Range range, std::vector<Constraint> constraints)
    : name_(std::move(name)), range_(std::move(range)), constraints_(std::move(constraints)) {
  if (name_.empty()) throw TunerError("a tuning parameter needs a name");
}

Parameter& Parameter::where(Constraint c) & {
  constraints_.push_back(std::move(c));
  return *this;
}

Parameter&& Parameter::where(Constraint c) && {
  constraints_.push_back(std::move(c));
  return std::move(*this);
}

std::vector<std::string> Parameter::dependencies() const {
  std::vector<std::string> deps;
  auto add = [&](const std::vector<std::string>& ds) {
    for (const auto& d : ds)
      if (d != name_ && std::find(deps.begin(), deps.end(), d) == deps.end()) deps.push_back(d);
  };
  add(range_.dependencies());
  for (const auto& c : constraints_) add(c.dependencies());
  return deps;
}

bool Parameter::admits(const Value& v, const Configuration& partial) const {
  return std::all_of(constraints_.begin(), constraints_.end(),
                     [&](const Constraint& c) { return c.holds(v, partial); });
}

}  // namespace fftc::tuner
