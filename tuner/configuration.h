// Values of tuning parameters and (partial) configurations: the currency of the tuner.
// A configuration lists one value per parameter, in the order the parameters were declared.
#pragma once

#include <boost/json.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace fftc::tuner {

// Every error of the tuner (a bad space definition, a bad log or wisdom file) is a TunerError;
// file errors name the file and line in the message.
class TunerError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A parameter value: an integer, a name (a variant, an enum), or a list of integers
// (a radix sequence). Ordered and comparable so that ranges can be checked for duplicates.
using IntList = std::vector<std::int64_t>;
using Value = std::variant<std::int64_t, std::string, IntList>;

std::string toString(const Value& v);              // 16, "stockham" (quoted), [4,4,16]
boost::json::value toJson(const Value& v);         // 16, "stockham", [4,4,16]
Value valueFromJson(const boost::json::value& j);  // throws TunerError on other JSON

// The parameter names of one search space, shared by all its configurations.
using ParameterNames = std::shared_ptr<const std::vector<std::string>>;

// A configuration of a search space. While the space is being built, constraints and
// generators see a partial configuration: only the parameters before the one being decided
// (of the same independent group) are set, and reading any other parameter throws.
class Configuration {
 public:
  Configuration() = default;
  Configuration(ParameterNames names, std::vector<std::optional<Value>> values);

  std::size_t size() const { return values_.size(); }
  const std::vector<std::string>& names() const { return *names_; }
  const std::string& name(std::size_t i) const { return (*names_)[i]; }
  bool isSet(std::size_t i) const { return values_[i].has_value(); }
  bool isSet(std::string_view name) const;
  bool isComplete() const;

  const Value& value(std::size_t i) const;               // throws if unset
  const Value& operator[](std::string_view name) const;  // throws if unknown or unset
  std::int64_t getInt(std::string_view name) const;      // throws if not an integer
  const std::string& getString(std::string_view name) const;
  const IntList& getList(std::string_view name) const;

  // The set parameters as a JSON object in declaration order, e.g. {"R":[16,16],"WG":256}.
  boost::json::object toJson() const;
  // "R=[16,16] WG=256 variant=\"stockham\"" for messages and the progress line.
  std::string toString() const;

  friend bool operator==(const Configuration& a, const Configuration& b) {
    return a.names() == b.names() && a.values_ == b.values_;
  }

  // Used by the space builder only.
  void set(std::size_t i, Value v) { values_[i] = std::move(v); }
  void unset(std::size_t i) { values_[i].reset(); }

 private:
  std::size_t indexOf(std::string_view name) const;  // throws if unknown

  ParameterNames names_;
  std::vector<std::optional<Value>> values_;
};

}  // namespace fftc::tuner
