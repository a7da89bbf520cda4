#include "tuner/search_technique.h"

namespace fftc::tuner {

void Exhaustive::initialize(const SearchSpace& space, std::uint64_t) {
  size_ = space.size();
  next_ = 0;
}

std::optional<std::uint64_t> Exhaustive::next() {
  if (next_ >= size_) return std::nullopt;
  return next_++;
}

void RandomSearch::initialize(const SearchSpace& space, std::uint64_t seed) {
  rng_.seed(seed);
  size_ = space.size();
  drawn_ = 0;
  swapped_.clear();
}

// Fisher-Yates over a virtual array a[i] = i: step d swaps a[d] with a random a[j], j >= d,
// and returns the new a[d]. Only the entries that moved are stored.
std::optional<std::uint64_t> RandomSearch::next() {
  if (drawn_ >= size_) return std::nullopt;
  auto at = [&](std::uint64_t i) {
    auto it = swapped_.find(i);
    return it == swapped_.end() ? i : it->second;
  };
  std::uint64_t j = std::uniform_int_distribution<std::uint64_t>(drawn_, size_ - 1)(rng_);
  std::uint64_t pick = at(j);
  swapped_[j] = at(drawn_);
  swapped_.erase(drawn_);
  ++drawn_;
  return pick;
}

TechniquePtr makeDefaultTechnique() {
  std::vector<TechniquePtr> ts;
  ts.push_back(std::make_unique<SimulatedAnnealing>());
  ts.push_back(std::make_unique<SimulatedAnnealing>(
      AnnealingOptions{.neighbourhood = Neighbourhood::Index}));
  ts.push_back(std::make_unique<RandomSearch>());
  return std::make_unique<AucBandit>(std::move(ts));
}

TechniquePtr makeTechnique(const std::string& name) {
  if (name == "exhaustive") return std::make_unique<Exhaustive>();
  if (name == "random") return std::make_unique<RandomSearch>();
  if (name == "annealing") return std::make_unique<SimulatedAnnealing>();
  if (name == "annealing-index")
    return std::make_unique<SimulatedAnnealing>(
        AnnealingOptions{.neighbourhood = Neighbourhood::Index});
  if (name == "bandit") return makeDefaultTechnique();
  throw TunerError("unknown search technique '" + name +
                   "' (exhaustive, random, annealing, annealing-index, bandit)");
}

}  // namespace fftc::tuner
