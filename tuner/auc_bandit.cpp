#include "tuner/search_technique.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace fftc::tuner {

AucBandit::AucBandit(std::vector<TechniquePtr> techniques, double c, std::size_t window)
    : techniques_(std::move(techniques)), c_(c), window_(window) {
  if (techniques_.empty()) throw TunerError("an AUC bandit needs at least one technique");
  if (window_ == 0) throw TunerError("an AUC bandit needs a window of at least one step");
}

std::string AucBandit::name() const {
  std::string s = "bandit(";
  for (std::size_t t = 0; t < techniques_.size(); ++t) s += (t ? "," : "") + techniques_[t]->name();
  return s + ")";
}

void AucBandit::initialize(const SearchSpace& space, std::uint64_t seed) {
  rng_.seed(seed);
  // Each technique gets its own stream, derived from the seed.
  for (auto& t : techniques_) t->initialize(space, rng_());
  const std::size_t n = techniques_.size();
  exhausted_.assign(n, false);
  windowUses_.assign(n, 0);
  rawAuc_.assign(n, 0);
  decay_.assign(n, 0);
  totalUses_.assign(n, 0);
  history_.clear();
  best_ = std::numeric_limits<double>::infinity();
  current_ = 0;
}

// AUC of technique t over the window: its uses in order, i = 1..u, each improvement at use i
// adds i; normalised by u(u+1)/2, so a technique whose recent uses improve scores near 1.
double AucBandit::score(std::size_t t) const {
  if (windowUses_[t] == 0) return std::numeric_limits<double>::infinity();
  const double u = static_cast<double>(windowUses_[t]);
  const double auc = static_cast<double>(rawAuc_[t]) * 2.0 / (u * (u + 1.0));
  const double explore = std::sqrt(2.0 * std::log2(static_cast<double>(history_.size())) / u);
  return auc + c_ * explore;
}

std::optional<std::uint64_t> AucBandit::next() {
  for (;;) {
    std::vector<std::size_t> live;
    for (std::size_t t = 0; t < techniques_.size(); ++t)
      if (!exhausted_[t]) live.push_back(t);
    if (live.empty()) return std::nullopt;
    std::shuffle(live.begin(), live.end(), rng_);  // random tie-breaking
    current_ = live[0];
    for (auto t : live)
      if (score(t) > score(current_)) current_ = t;
    if (auto k = techniques_[current_]->next()) {
      ++totalUses_[current_];
      return k;
    }
    exhausted_[current_] = true;
  }
}

void AucBandit::report(std::uint64_t index, const Result& result) {
  techniques_[current_]->report(index, result);
  const bool improved = result.isValid() && result.cost() < best_;
  if (improved) best_ = result.cost();
  if (history_.size() == window_) {
    // Dropping the oldest use shifts the positions of t's other uses down by one.
    const Use old = history_.front();
    history_.pop_front();
    --windowUses_[old.technique];
    rawAuc_[old.technique] -= decay_[old.technique];
    if (old.improved) --decay_[old.technique];
  }
  ++windowUses_[current_];
  if (improved) {
    rawAuc_[current_] += windowUses_[current_];
    ++decay_[current_];
  }
  history_.push_back({current_, improved});
}

std::vector<std::uint64_t> AucBandit::uses() const {
  return totalUses_;
}

}  // namespace fftc::tuner
