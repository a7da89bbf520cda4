// Synthetic spaces and cost functions shared by the tuner tests.
#pragma once

#include "tuner/tuner.h"

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <string>

namespace fftc::tuner::testing {

// x, y in 0..31 and a variant: 3072 configurations, no constraints (three groups).
inline SearchSpace quadraticSpace() {
  return SearchSpace({Parameter("x", interval(0, 31)), Parameter("y", interval(0, 31)),
                      Parameter("v", stringSet({"a", "b", "c"}))});
}

// A separable quadratic with its minimum 1 at x=11, y=23, v="b". Where 20 <= x <= 25 the
// "kernel" computes a wrong answer very fast (invalid, with a tempting time in extra), and
// where y % 7 == 3 and x % 5 == 0 it throws: neither may win.
inline Result quadraticCost(const Configuration& c) {
  auto x = c.getInt("x"), y = c.getInt("y");
  if (x >= 20 && x <= 25) return Result::invalid("wrong answer", boost::json::object{{"ms", 1e-6}});
  if (y % 7 == 3 && x % 5 == 0) throw std::runtime_error("launch failed");
  const auto& v = c.getString("v");
  double pv = v == "a" ? 5 : v == "b" ? 0 : 9;
  return Result::valid(static_cast<double>((x - 11) * (x - 11) + (y - 23) * (y - 23)) + pv + 1);
}

// A constrained space: x + y <= 100 and z dividing 256 with z <= x; minimum 1 at (40, 50, 16).
inline SearchSpace constrainedSpace() {
  return SearchSpace(
      {Parameter("x", interval(0, 63)),
       Parameter(
           "y", interval(0, 63),
           {predicate(
               {"x"}, [](const Configuration& c) { return c.getInt("x") + c.getInt("y") <= 100; },
               "x + y <= 100")}),
       Parameter("z", powersOfTwo(1, 512), {divides(256), lessEqual("x")})});
}

inline Result constrainedCost(const Configuration& c) {
  double x = static_cast<double>(c.getInt("x")), y = static_cast<double>(c.getInt("y"));
  double lz = std::log2(static_cast<double>(c.getInt("z")));
  return Result::valid((x - 40) * (x - 40) + 0.5 * (y - 50) * (y - 50) + 3 * (lz - 4) * (lz - 4) +
                       1);
}

inline std::filesystem::path tempPath(const std::string& name) {
  auto p = std::filesystem::temp_directory_path() /
           ("fftc_tuner_test_" + std::to_string(::getpid()) + "_" + name);
  std::filesystem::remove_all(p);
  return p;
}

}  // namespace fftc::tuner::testing
