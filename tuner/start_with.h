// A search technique that first proposes given configurations (e.g. the planner's heuristic
// plan, so a tuned result is never worse than it), then hands over to another technique.
#pragma once

#include "tuner/search_technique.h"

#include <vector>

namespace fftc::tuner {

class StartWith : public SearchTechnique {
 public:
  // `first`: indices proposed in order before `inner` is asked; those outside the space are
  // skipped. The inner technique is told only the results of its own proposals.
  StartWith(std::vector<std::uint64_t> first, TechniquePtr inner);
  std::string name() const override;
  void initialize(const SearchSpace& space, std::uint64_t seed) override;
  std::optional<std::uint64_t> next() override;
  void report(std::uint64_t index, const Result& result) override;

 private:
  std::vector<std::uint64_t> first_;
  TechniquePtr inner_;
  std::size_t position_ = 0;
  bool lastWasFirst_ = false;
};

}  // namespace fftc::tuner
