// When a tuning run stops: evaluations, seconds, a fraction of the space, no improvement for
// K evaluations, a good enough cost; combined with || and &&.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace fftc::tuner {

// Where a tuning run stands. Evaluations count distinct configurations with a result in this
// run: measured now or replayed from the tuning log (repeated proposals are not counted).
struct TuningStatus {
  std::uint64_t evaluations = 0;
  std::uint64_t validEvaluations = 0;
  std::uint64_t sinceImprovement = 0;  // evaluations since the best cost last improved
  double elapsedSeconds = 0;
  std::uint64_t spaceSize = 0;
  std::optional<double> bestCost;
};

class AbortCondition {
 public:
  virtual ~AbortCondition() = default;
  virtual bool reached(const TuningStatus& s) const = 0;
  virtual std::string describe() const = 0;
  // Seconds left under this condition, for the progress line (nullopt: no time limit).
  virtual std::optional<double> secondsLeft(const TuningStatus&) const { return std::nullopt; }
};

using Abort = std::shared_ptr<const AbortCondition>;

Abort evaluations(std::uint64_t n);
Abort duration(double seconds);        // wall-clock seconds since the run started
Abort spaceFraction(double f);         // evaluations >= f * size (0 < f <= 1)
Abort noImprovement(std::uint64_t k);  // k evaluations in a row without a better cost
Abort costAtMost(double c);            // a valid cost <= c was found
Abort anyOf(Abort a, Abort b);
Abort allOf(Abort a, Abort b);
inline Abort operator||(Abort a, Abort b) {
  return anyOf(std::move(a), std::move(b));
}
inline Abort operator&&(Abort a, Abort b) {
  return allOf(std::move(a), std::move(b));
}

}  // namespace fftc::tuner
