// Search techniques over a SearchSpace, ask/tell style: the tuner asks for the next
// configuration index and tells the technique its result. All randomness comes from a
// std::mt19937_64 seeded by initialize(), so a run is reproducible from its seed.
#pragma once

#include "tuner/cost_function.h"
#include "tuner/search_space.h"

#include <deque>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace fftc::tuner {

class SearchTechnique {
 public:
  virtual ~SearchTechnique() = default;
  virtual std::string name() const = 0;
  // Starts a new search (forgetting any earlier one).
  virtual void initialize(const SearchSpace& space, std::uint64_t seed) = 0;
  // The next configuration to evaluate; nullopt when the technique has nothing left.
  virtual std::optional<std::uint64_t> next() = 0;
  // The result of the configuration that next() returned last.
  virtual void report(std::uint64_t index, const Result& result) = 0;
};

using TechniquePtr = std::unique_ptr<SearchTechnique>;

// Configurations 0, 1, 2, ... (declaration order, first parameter slowest).
class Exhaustive : public SearchTechnique {
 public:
  std::string name() const override { return "exhaustive"; }
  void initialize(const SearchSpace& space, std::uint64_t seed) override;
  std::optional<std::uint64_t> next() override;
  void report(std::uint64_t, const Result&) override {}

 private:
  std::uint64_t size_ = 0, next_ = 0;
};

// Uniform over the valid configurations, without repetition: a lazily materialized
// Fisher-Yates shuffle of 0 .. size-1 (O(1) memory per draw).
class RandomSearch : public SearchTechnique {
 public:
  std::string name() const override { return "random"; }
  void initialize(const SearchSpace& space, std::uint64_t seed) override;
  std::optional<std::uint64_t> next() override;
  void report(std::uint64_t, const Result&) override {}

 private:
  std::mt19937_64 rng_;
  std::uint64_t size_ = 0, drawn_ = 0;
  std::unordered_map<std::uint64_t, std::uint64_t> swapped_;
};

enum class Neighbourhood {
  Parameter,  // one parameter moves to a neighbouring value (GroupTree::neighbour)
  Index,      // the index moves by a log-uniform random offset of up to `indexRadius`
};

struct AnnealingOptions {
  Neighbourhood neighbourhood = Neighbourhood::Parameter;
  std::uint64_t indexRadius = 0;  // 0: max(1, size / 8)
  // A move that is worse by a fraction d of the current cost is accepted with probability
  // exp(-d / T); T starts at `initialTemperature` and is multiplied by `cooling` each step.
  double initialTemperature = 0.1;
  double cooling = 0.97;
  double minTemperature = 1e-4;
  // Restart from a random configuration (and reheat) after this many steps without a better
  // cost than the best of the current descent.
  std::uint64_t restartAfter = 60;
};

class SimulatedAnnealing : public SearchTechnique {
 public:
  explicit SimulatedAnnealing(AnnealingOptions o = {}) : o_(o) {}
  std::string name() const override;
  void initialize(const SearchSpace& space, std::uint64_t seed) override;
  std::optional<std::uint64_t> next() override;
  void report(std::uint64_t index, const Result& result) override;

 private:
  std::uint64_t neighbour(std::uint64_t index);

  AnnealingOptions o_;
  const SearchSpace* space_ = nullptr;
  std::mt19937_64 rng_;
  std::optional<std::uint64_t> current_;
  double currentCost_ = 0, descentBest_ = 0, temperature_ = 0;
  std::uint64_t stale_ = 0;
};

// OpenTuner's AUC bandit meta-technique: each step picks the technique with the best
// area-under-the-curve score of its recent improvements (sliding window) plus an exploration
// bonus c * sqrt(2 log2(uses of all) / uses of it), ties broken at random.
class AucBandit : public SearchTechnique {
 public:
  explicit AucBandit(std::vector<TechniquePtr> techniques, double c = 0.05,
                     std::size_t window = 500);
  std::string name() const override;
  void initialize(const SearchSpace& space, std::uint64_t seed) override;
  std::optional<std::uint64_t> next() override;
  void report(std::uint64_t index, const Result& result) override;
  // How often each technique was asked so far (for reports and tests).
  std::vector<std::uint64_t> uses() const;

 private:
  double score(std::size_t t) const;

  std::vector<TechniquePtr> techniques_;
  double c_;
  std::size_t window_;
  std::mt19937_64 rng_;
  std::vector<bool> exhausted_;
  std::size_t current_ = 0;
  double best_ = std::numeric_limits<double>::infinity();
  struct Use {
    std::size_t technique;
    bool improved;
  };
  std::deque<Use> history_;
  std::vector<std::uint64_t> windowUses_, rawAuc_, decay_, totalUses_;
};

// An AUC bandit over simulated annealing (both neighbourhoods) and random search.
TechniquePtr makeDefaultTechnique();
// "exhaustive", "random", "annealing", "annealing-index", "bandit" (the default technique);
// throws TunerError on another name.
TechniquePtr makeTechnique(const std::string& name);

}  // namespace fftc::tuner
