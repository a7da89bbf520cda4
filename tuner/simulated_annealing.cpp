#include "tuner/search_technique.h"

#include <algorithm>
#include <cmath>

namespace fftc::tuner {

std::string SimulatedAnnealing::name() const {
  return o_.neighbourhood == Neighbourhood::Parameter ? "annealing" : "annealing-index";
}

void SimulatedAnnealing::initialize(const SearchSpace& space, std::uint64_t seed) {
  space_ = &space;
  rng_.seed(seed);
  current_.reset();
  temperature_ = o_.initialTemperature;
  stale_ = 0;
}

std::uint64_t SimulatedAnnealing::neighbour(std::uint64_t index) {
  const std::uint64_t n = space_->size();
  if (o_.neighbourhood == Neighbourhood::Parameter) return space_->neighbour(index, rng_);
  if (n == 1) return index;
  std::uint64_t r = o_.indexRadius ? o_.indexRadius : std::max<std::uint64_t>(1, n / 8);
  r = std::min(r, n - 1);
  // Log-uniform offsets: in the mixed-radix index, small offsets move the fastest
  // parameters and large ones the slowest, so each scale gets its share of the moves.
  double u = std::uniform_real_distribution<double>(0, std::log(static_cast<double>(r) + 1))(rng_);
  std::uint64_t d = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::exp(u)), 1, r);
  bool up = std::uniform_int_distribution<int>(0, 1)(rng_) == 1;
  // Reflect at the ends of the index range.
  if (up && index + d >= n) up = false;
  if (!up && index < d) up = true;
  if (up) return std::min(index + d, n - 1);
  return index - d;
}

std::optional<std::uint64_t> SimulatedAnnealing::next() {
  if (!space_ || space_->empty()) return std::nullopt;
  if (!current_) return std::uniform_int_distribution<std::uint64_t>(0, space_->size() - 1)(rng_);
  return neighbour(*current_);
}

void SimulatedAnnealing::report(std::uint64_t index, const Result& result) {
  const double cost = result.isValid() ? result.cost() : std::numeric_limits<double>::infinity();
  if (!current_) {
    current_ = index;
    currentCost_ = descentBest_ = cost;
    stale_ = 0;
    return;
  }
  // Moves between invalid configurations (inf <= inf) are accepted: a random walk out of an
  // invalid region. A valid configuration is never left for an invalid one.
  bool accept = cost <= currentCost_;
  if (!accept && std::isfinite(cost) && std::isfinite(currentCost_)) {
    double worse = (cost - currentCost_) / std::max(std::abs(currentCost_), 1e-300);
    accept = std::uniform_real_distribution<double>(0, 1)(rng_) < std::exp(-worse / temperature_);
  }
  if (accept) {
    current_ = index;
    currentCost_ = cost;
  }
  if (cost < descentBest_) {
    descentBest_ = cost;
    stale_ = 0;
  } else {
    ++stale_;
  }
  temperature_ = std::max(o_.minTemperature, temperature_ * o_.cooling);
  if (stale_ >= o_.restartAfter) {
    current_.reset();
    temperature_ = o_.initialTemperature;
  }
}

}  // namespace fftc::tuner
