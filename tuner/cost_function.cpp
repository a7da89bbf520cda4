#include "tuner/cost_function.h"

#include <fmt/format.h>

#include <cmath>

namespace fftc::tuner {

namespace json = boost::json;

Result Result::valid(double cost, json::value extra) {
  // NaN or infinity is no measurement: record it as invalid rather than as a cost that
  // compares oddly (NaN) or wins nothing (inf).
  if (!std::isfinite(cost))
    return invalid(fmt::format("cost function returned a non-finite cost ({})", cost),
                   std::move(extra));
  Result r;
  r.valid_ = true;
  r.cost_ = cost;
  r.extra_ = std::move(extra);
  return r;
}

Result Result::invalid(std::string reason, json::value extra) {
  Result r;
  r.reason_ = reason.empty() ? "invalid" : std::move(reason);
  r.extra_ = std::move(extra);
  return r;
}

double Result::cost() const {
  if (!valid_) throw TunerError("the cost of an invalid result (" + reason_ + ") was read");
  return cost_;
}

void Result::writeTo(json::object& o) const {
  o["valid"] = valid_;
  if (valid_)
    o["cost"] = cost_;
  else
    o["reason"] = reason_;
  if (!extra_.is_null()) o["extra"] = extra_;
}

Result Result::readFrom(const json::object& o) {
  const auto* valid = o.if_contains("valid");
  if (!valid || !valid->is_bool()) throw TunerError("result without a boolean \"valid\"");
  json::value extra = o.contains("extra") ? o.at("extra") : json::value(nullptr);
  if (valid->get_bool()) {
    const auto* cost = o.if_contains("cost");
    if (!cost || !cost->is_number()) throw TunerError("valid result without a numeric \"cost\"");
    return Result::valid(cost->to_number<double>(), std::move(extra));
  }
  const auto* reason = o.if_contains("reason");
  return Result::invalid(reason && reason->is_string() ? std::string(reason->get_string()) : "",
                         std::move(extra));
}

Result evaluateSafely(const CostFunction& f, const Configuration& c) {
  try {
    return f(c);
  } catch (const std::exception& e) {
    return Result::invalid(std::string("exception: ") + e.what());
  } catch (...) {
    return Result::invalid("exception: (not a std::exception)");
  }
}

}  // namespace fftc::tuner
