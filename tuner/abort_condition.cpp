#include "tuner/abort_condition.h"

#include "tuner/configuration.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>

namespace fftc::tuner {

namespace {

class Simple : public AbortCondition {
 public:
  Simple(std::function<bool(const TuningStatus&)> f, std::string what)
      : f_(std::move(f)), what_(std::move(what)) {}
  bool reached(const TuningStatus& s) const override { return f_(s); }
  std::string describe() const override { return what_; }

 private:
  std::function<bool(const TuningStatus&)> f_;
  std::string what_;
};

class Seconds : public AbortCondition {
 public:
  explicit Seconds(double s) : s_(s) {}
  bool reached(const TuningStatus& st) const override { return st.elapsedSeconds >= s_; }
  std::string describe() const override { return fmt::format("{} s elapsed", s_); }
  std::optional<double> secondsLeft(const TuningStatus& st) const override {
    return std::max(0.0, s_ - st.elapsedSeconds);
  }

 private:
  double s_;
};

class Combined : public AbortCondition {
 public:
  Combined(Abort a, Abort b, bool all) : a_(std::move(a)), b_(std::move(b)), all_(all) {
    if (!a_ || !b_) throw TunerError("combining an empty abort condition");
  }
  bool reached(const TuningStatus& s) const override {
    return all_ ? a_->reached(s) && b_->reached(s) : a_->reached(s) || b_->reached(s);
  }
  std::string describe() const override {
    return fmt::format("({} {} {})", a_->describe(), all_ ? "and" : "or", b_->describe());
  }
  // Either limit ends an "or"; an "and" runs until the later one.
  std::optional<double> secondsLeft(const TuningStatus& s) const override {
    auto x = a_->secondsLeft(s), y = b_->secondsLeft(s);
    if (!x) return all_ ? std::nullopt : y;
    if (!y) return all_ ? std::nullopt : x;
    return all_ ? std::max(*x, *y) : std::min(*x, *y);
  }

 private:
  Abort a_, b_;
  bool all_;
};

}  // namespace

Abort evaluations(std::uint64_t n) {
  return std::make_shared<Simple>([n](const TuningStatus& s) { return s.evaluations >= n; },
                                  fmt::format("{} evaluations", n));
}

Abort duration(double s) {
  return std::make_shared<Seconds>(s);
}

Abort spaceFraction(double f) {
  if (!(f > 0 && f <= 1)) throw TunerError(fmt::format("spaceFraction({}): need 0 < f <= 1", f));
  return std::make_shared<Simple>(
      [f](const TuningStatus& s) {
        return static_cast<double>(s.evaluations) >= f * static_cast<double>(s.spaceSize);
      },
      fmt::format("{:g}% of the space evaluated", 100 * f));
}

Abort noImprovement(std::uint64_t k) {
  return std::make_shared<Simple>(
      [k](const TuningStatus& s) { return s.evaluations > 0 && s.sinceImprovement >= k; },
      fmt::format("{} evaluations without improvement", k));
}

Abort costAtMost(double c) {
  return std::make_shared<Simple>(
      [c](const TuningStatus& s) { return s.bestCost && *s.bestCost <= c; },
      fmt::format("a cost of at most {:g}", c));
}

Abort anyOf(Abort a, Abort b) {
  return std::make_shared<Combined>(std::move(a), std::move(b), false);
}
Abort allOf(Abort a, Abort b) {
  return std::make_shared<Combined>(std::move(a), std::move(b), true);
}

}  // namespace fftc::tuner
