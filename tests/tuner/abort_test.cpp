// Each abort condition ends a run where it should, alone and combined.
#include "common.h"

#include <gtest/gtest.h>

#include <thread>

using namespace fftc::tuner;
using namespace fftc::tuner::testing;

namespace {

// Exhaustive order on this space gives increasing costs: only the first evaluation improves.
Result increasing(const Configuration& c) {
  return Result::valid(static_cast<double>(c.getInt("x") * 1000 + c.getInt("y") * 3));
}

TuningResult runExhaustive(const SearchSpace& s, const CostFunction& f, Abort a) {
  Exhaustive t;
  TuneOptions o;
  o.abort = std::move(a);
  return tune(s, t, f, o);
}

}  // namespace

TEST(Abort, Evaluations) {
  auto r = runExhaustive(quadraticSpace(), quadraticCost, evaluations(10));
  EXPECT_EQ(r.evaluations.size(), 10u);
  EXPECT_EQ(r.stopReason, "reached 10 evaluations");
}

TEST(Abort, Duration) {
  auto slow = [](const Configuration& c) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    return quadraticCost(c);
  };
  auto r = runExhaustive(quadraticSpace(), slow, duration(0.05));
  EXPECT_GE(r.seconds, 0.05);
  EXPECT_LT(r.seconds, 2.0);
  EXPECT_GE(r.evaluations.size(), 5u);
  EXPECT_LE(r.evaluations.size(), 26u);
  EXPECT_EQ(r.stopReason, "reached 0.05 s elapsed");
}

TEST(Abort, SpaceFraction) {
  auto space = quadraticSpace();
  auto r = runExhaustive(space, quadraticCost, spaceFraction(0.25));
  EXPECT_EQ(r.evaluations.size(), space.size() / 4);
  EXPECT_THROW(spaceFraction(0), TunerError);
  EXPECT_THROW(spaceFraction(1.5), TunerError);
}

TEST(Abort, NoImprovement) {
  auto r = runExhaustive(quadraticSpace(), increasing, noImprovement(20));
  EXPECT_EQ(r.evaluations.size(), 21u);  // the first improves, then 20 do not
  EXPECT_EQ(r.stopReason, "reached 20 evaluations without improvement");
}

TEST(Abort, CostAtMost) {
  auto r = runExhaustive(quadraticSpace(), quadraticCost, costAtMost(1.0));
  EXPECT_EQ(r.best->config.toString(), "x=11 y=23 v=\"b\"");
  EXPECT_EQ(r.evaluations.back().index, r.best->index);  // stopped right there
}

TEST(Abort, Combined) {
  auto space = quadraticSpace();
  EXPECT_EQ(runExhaustive(space, increasing, evaluations(50) || duration(100)).evaluations.size(),
            50u);
  EXPECT_EQ(
      runExhaustive(space, increasing, evaluations(50) && noImprovement(100)).evaluations.size(),
      101u);
  EXPECT_EQ(
      runExhaustive(space, increasing, evaluations(200) && noImprovement(100)).evaluations.size(),
      200u);
  auto a = evaluations(5) || duration(10);
  TuningStatus st;
  st.elapsedSeconds = 4;
  EXPECT_DOUBLE_EQ(*a->secondsLeft(st), 6.0);
  EXPECT_EQ(a->describe(), "(5 evaluations or 10 s elapsed)");
}

TEST(Abort, WithoutConditionTheSpaceOrTechniqueEnds) {
  auto space = quadraticSpace();
  auto r = runExhaustive(space, quadraticCost, nullptr);
  EXPECT_EQ(r.evaluations.size(), space.size());
  // A technique stuck on configurations already evaluated is stopped too.
  struct Stuck : SearchTechnique {
    std::string name() const override { return "stuck"; }
    void initialize(const SearchSpace&, std::uint64_t) override {}
    std::optional<std::uint64_t> next() override { return 7; }
    void report(std::uint64_t, const Result&) override {}
  } stuck;
  TuneOptions o;
  o.maxRepeats = 100;
  auto r2 = tune(space, stuck, quadraticCost, o);
  EXPECT_EQ(r2.evaluations.size(), 1u);
  EXPECT_NE(r2.stopReason.find("already evaluated"), std::string::npos) << r2.stopReason;
}
