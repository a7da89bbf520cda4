// What a cost function returns: a valid cost (lower is better) or the reason a configuration
// is invalid. A configuration that fails to build, crashes or computes a wrong answer is
// invalid, never fast.
#pragma once

#include "tuner/configuration.h"

#include <functional>
#include <string>

namespace fftc::tuner {

class Result {
 public:
  static Result valid(double cost, boost::json::value extra = nullptr);
  static Result invalid(std::string reason, boost::json::value extra = nullptr);

  bool isValid() const { return valid_; }
  double cost() const;                                   // throws TunerError on an invalid result
  const std::string& reason() const { return reason_; }  // empty when valid
  const boost::json::value& extra() const { return extra_; }  // e.g. GB/s, error, stages

  // {"valid":true,"cost":0.5,"extra":{...}} / {"valid":false,"reason":"..."}: the fields that
  // a tuning log line and a wisdom entry carry.
  void writeTo(boost::json::object& o) const;
  static Result readFrom(const boost::json::object& o);  // throws TunerError

  friend bool operator==(const Result& a, const Result& b) {
    return a.valid_ == b.valid_ && a.cost_ == b.cost_ && a.reason_ == b.reason_ &&
           a.extra_ == b.extra_;
  }

 private:
  bool valid_ = false;
  double cost_ = 0;
  std::string reason_;
  boost::json::value extra_;
};

// A cost function measures one configuration. It may throw: the tuner records the exception's
// message as the reason of an invalid result.
using CostFunction = std::function<Result(const Configuration&)>;

// Calls f and turns anything it throws into Result::invalid("exception: ...").
Result evaluateSafely(const CostFunction& f, const Configuration& c);

}  // namespace fftc::tuner
