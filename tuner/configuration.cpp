#include "tuner/configuration.h"

#include <fmt/format.h>

namespace fftc::tuner {

namespace json = boost::json;

std::string toString(const Value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&v)) return json::serialize(json::value(*s));
  return fmt::format("[{}]", fmt::join(std::get<IntList>(v), ","));
}

json::value toJson(const Value& v) {
  if (const auto* i = std::get_if<std::int64_t>(&v)) return *i;
  if (const auto* s = std::get_if<std::string>(&v)) return json::string(*s);
  json::array a;
  for (auto x : std::get<IntList>(v)) a.emplace_back(x);
  return a;
}

static std::int64_t intFromJson(const json::value& j) {
  if (j.is_int64()) return j.get_int64();
  if (j.is_uint64() && j.get_uint64() <= static_cast<std::uint64_t>(INT64_MAX))
    return static_cast<std::int64_t>(j.get_uint64());
  throw TunerError(fmt::format("expected an integer parameter value, got {}", json::serialize(j)));
}

Value valueFromJson(const json::value& j) {
  if (j.is_string()) return std::string(j.get_string());
  if (j.is_array()) {
    IntList list;
    for (const auto& x : j.get_array()) list.push_back(intFromJson(x));
    return list;
  }
  return intFromJson(j);
}

Configuration::Configuration(ParameterNames names, std::vector<std::optional<Value>> values)
    : names_(std::move(names)), values_(std::move(values)) {
  if (!names_ || names_->size() != values_.size())
    throw TunerError("configuration: one value (or none) per parameter expected");
}

std::size_t Configuration::indexOf(std::string_view name) const {
  // Spaces have a handful of parameters: a linear scan beats a hash map here.
  for (std::size_t i = 0; i < values_.size(); ++i)
    if ((*names_)[i] == name) return i;
  throw TunerError(fmt::format("unknown tuning parameter '{}'", name));
}

bool Configuration::isSet(std::string_view name) const {
  return isSet(indexOf(name));
}

bool Configuration::isComplete() const {
  for (const auto& v : values_)
    if (!v) return false;
  return true;
}

const Value& Configuration::value(std::size_t i) const {
  if (!values_.at(i))
    throw TunerError(fmt::format(
        "tuning parameter '{}' is not set here: a constraint or generator that reads it must "
        "name it among its dependencies, and it must be declared earlier",
        (*names_)[i]));
  return *values_[i];
}

const Value& Configuration::operator[](std::string_view name) const {
  return value(indexOf(name));
}

template <class T>
static const T& getAs(const Configuration& c, std::string_view name, const char* what) {
  const Value& v = c[name];
  if (const auto* p = std::get_if<T>(&v)) return *p;
  throw TunerError(fmt::format("tuning parameter '{}' holds {}, not {}", name, toString(v), what));
}

std::int64_t Configuration::getInt(std::string_view name) const {
  return getAs<std::int64_t>(*this, name, "an integer");
}
const std::string& Configuration::getString(std::string_view name) const {
  return getAs<std::string>(*this, name, "a string");
}
const IntList& Configuration::getList(std::string_view name) const {
  return getAs<IntList>(*this, name, "a list of integers");
}

json::object Configuration::toJson() const {
  json::object o;
  for (std::size_t i = 0; i < values_.size(); ++i)
    if (values_[i]) o[(*names_)[i]] = tuner::toJson(*values_[i]);
  return o;
}

std::string Configuration::toString() const {
  std::string s;
  for (std::size_t i = 0; i < values_.size(); ++i) {
    if (!values_[i]) continue;
    if (!s.empty()) s += ' ';
    s += (*names_)[i] + '=' + tuner::toString(*values_[i]);
  }
  return s;
}

}  // namespace fftc::tuner
