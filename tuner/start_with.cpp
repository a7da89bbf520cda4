#include "tuner/start_with.h"

#include <algorithm>

namespace fftc::tuner {

StartWith::StartWith(std::vector<std::uint64_t> first, TechniquePtr inner)
    : first_(std::move(first)), inner_(std::move(inner)) {
  if (!inner_) throw TunerError("StartWith needs a technique to hand over to");
}

std::string StartWith::name() const { return inner_->name(); }

void StartWith::initialize(const SearchSpace& space, std::uint64_t seed) {
  first_.erase(std::remove_if(first_.begin(), first_.end(),
                              [&](std::uint64_t k) { return k >= space.size(); }),
               first_.end());
  position_ = 0;
  lastWasFirst_ = false;
  inner_->initialize(space, seed);
}

std::optional<std::uint64_t> StartWith::next() {
  lastWasFirst_ = position_ < first_.size();
  if (lastWasFirst_) return first_[position_++];
  return inner_->next();
}

void StartWith::report(std::uint64_t index, const Result& result) {
  if (!lastWasFirst_) inner_->report(index, result);
}

}  // namespace fftc::tuner
