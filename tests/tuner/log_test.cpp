// The tuning log: resuming an interrupted run, a truncated last line, lines of another key.
#include "common.h"

#include <gtest/gtest.h>

#include <fstream>
#include <set>

using namespace fftc::tuner;
using namespace fftc::tuner::testing;

namespace {

LogKey keyFor(const SearchSpace& s, std::string device = "Test GPU") {
  return {std::move(device), "driver 1.0", "quadratic 32x32x3", *s.names()};
}

std::size_t lineCount(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::size_t n = 0;
  for (std::string line; std::getline(in, line);) n += !line.empty();
  return n;
}

}  // namespace

TEST(TuningLog, ResumedRunMatchesAnUninterruptedOne) {
  auto space = quadraticSpace();
  for (const char* technique : {"annealing", "bandit", "random"}) {
    SCOPED_TRACE(technique);
    // Uninterrupted: 300 evaluations.
    auto t0 = makeTechnique(technique);
    TuneOptions o;
    o.seed = 11;
    o.abort = evaluations(300);
    auto full = tune(space, *t0, quadraticCost, o);

    // Interrupted after 120, then resumed from the log to 300.
    auto path = tempPath(std::string("resume_") + technique + ".jsonl");
    std::set<std::string> measured;
    auto counting = [&](const Configuration& c) {
      EXPECT_TRUE(measured.insert(c.toString()).second) << "re-evaluated " << c.toString();
      return quadraticCost(c);
    };
    {
      TuningLog log(path, keyFor(space));
      auto t1 = makeTechnique(technique);
      o.log = &log;
      o.abort = evaluations(120);
      auto first = tune(space, *t1, counting, o);
      EXPECT_EQ(first.measured, 120u);
    }
    EXPECT_EQ(lineCount(path), 120u);
    TuningLog log(path, keyFor(space));
    EXPECT_EQ(log.entries().size(), 120u);
    auto t2 = makeTechnique(technique);
    o.log = &log;
    o.abort = evaluations(300);
    auto resumed = tune(space, *t2, counting, o);
    EXPECT_EQ(resumed.replayed, 120u);
    EXPECT_EQ(resumed.measured, 180u);
    EXPECT_EQ(measured.size(), 300u);
    EXPECT_EQ(lineCount(path), 300u);
    ASSERT_TRUE(full.best && resumed.best);
    EXPECT_EQ(resumed.best->config, full.best->config);
    EXPECT_EQ(resumed.best->result.cost(), full.best->result.cost());
    // The same search: the same configurations in the same order.
    ASSERT_EQ(resumed.evaluations.size(), full.evaluations.size());
    for (std::size_t i = 0; i < full.evaluations.size(); ++i)
      ASSERT_EQ(resumed.evaluations[i].index, full.evaluations[i].index) << i;
    std::filesystem::remove(path);
  }
}

TEST(TuningLog, InvalidResultsAreReplayedAsInvalid) {
  auto space = quadraticSpace();
  auto path = tempPath("invalid.jsonl");
  Exhaustive t;
  TuneOptions o;
  o.abort = evaluations(100);
  {
    TuningLog log(path, keyFor(space));
    o.log = &log;
    tune(space, t, quadraticCost, o);
  }
  TuningLog log(path, keyFor(space));
  o.log = &log;
  int calls = 0;
  auto r = tune(
      space, t,
      [&](const Configuration& c) {
        ++calls;
        return quadraticCost(c);
      },
      o);
  EXPECT_EQ(calls, 0);
  EXPECT_EQ(r.replayed, 100u);
  // x=0: y in {3,10,17,24,31} threw; the reason survives the round trip.
  ASSERT_EQ(r.evaluations[9].config.toString(), "x=0 y=3 v=\"a\"");
  ASSERT_FALSE(r.evaluations[9].result.isValid());
  EXPECT_EQ(r.evaluations[9].result.reason(), "exception: launch failed");
  std::filesystem::remove(path);
}

TEST(TuningLog, TruncatedLastLineIsIgnoredWithAWarning) {
  auto space = quadraticSpace();
  auto path = tempPath("truncated.jsonl");
  {
    TuningLog log(path, keyFor(space));
    log.append(space.at(0), Result::valid(2.5), 0.1);
    log.append(space.at(1), Result::invalid("wrong answer"), 0.1);
  }
  {
    std::ofstream out(path, std::ios::app);
    out << R"({"device":"Test GPU","driver":"driver 1.0","problem":"quadr)";  // killed here
  }
  TuningLog log(path, keyFor(space));
  ASSERT_EQ(log.entries().size(), 2u);
  ASSERT_EQ(log.warnings().size(), 1u);
  EXPECT_NE(log.warnings()[0].find(":3: ignoring a truncated last line"), std::string::npos)
      << log.warnings()[0];
  EXPECT_EQ(log.entries()[0].result.cost(), 2.5);
  EXPECT_EQ(log.entries()[1].result.reason(), "wrong answer");
  // Appending after the cut starts on a fresh line, and the file reads back whole.
  log.append(space.at(2), Result::valid(1.5), 0.1);
  TuningLog again(path, keyFor(space));
  EXPECT_EQ(again.entries().size(), 3u);
  EXPECT_TRUE(again.warnings().empty());
  std::filesystem::remove(path);
}

TEST(TuningLog, ACompleteLastLineWithoutNewlineIsKept) {
  auto space = quadraticSpace();
  auto path = tempPath("nonewline.jsonl");
  {
    TuningLog log(path, keyFor(space));
    log.append(space.at(0), Result::valid(2.5), 0.1);
  }
  std::filesystem::resize_file(path, std::filesystem::file_size(path) - 1);  // drop '\n'
  {
    TuningLog log(path, keyFor(space));
    EXPECT_EQ(log.entries().size(), 1u);
    log.append(space.at(1), Result::valid(3.5), 0.1);
  }
  EXPECT_EQ(TuningLog(path, keyFor(space)).entries().size(), 2u);
  std::filesystem::remove(path);
}

TEST(TuningLog, LinesOfAnotherKeyAreRefused) {
  auto space = quadraticSpace();
  auto path = tempPath("key.jsonl");
  {
    TuningLog log(path, keyFor(space));
    log.append(space.at(0), Result::valid(2.5), 0.1);
  }
  try {
    TuningLog log(path, keyFor(space, "Other GPU"));
    FAIL() << "a log of another device was accepted";
  } catch (const TunerError& e) {
    std::string m = e.what();
    EXPECT_NE(m.find(":1: this log line was recorded for device 'Test GPU', but this run is for "
                     "device 'Other GPU'"),
              std::string::npos)
        << m;
  }
  LogKey otherProblem = keyFor(space);
  otherProblem.problem = "quadratic 64x64";
  EXPECT_THROW(TuningLog(path, otherProblem), TunerError);
  LogKey otherOrder = keyFor(space);
  std::swap(otherOrder.parameters[0], otherOrder.parameters[1]);
  try {
    TuningLog log(path, otherOrder);
    FAIL() << "a log of another parameter order was accepted";
  } catch (const TunerError& e) {
    EXPECT_NE(std::string(e.what()).find("parameters (x, y, v) differ from this run's (y, x, v)"),
              std::string::npos)
        << e.what();
  }
  // A corrupt line in the middle is an error, not a warning.
  {
    std::ofstream out(path, std::ios::app);
    out << "{not json\n";
  }
  EXPECT_THROW(TuningLog(path, keyFor(space)), TunerError);
  std::filesystem::remove(path);
}

TEST(TuningLog, LinesOutsideTheSpaceAreWarnedAbout) {
  auto space = quadraticSpace();
  auto path = tempPath("outside.jsonl");
  {
    std::ofstream out(path);
    out << R"({"device":"Test GPU","driver":"driver 1.0","problem":"quadratic 32x32x3",)"
        << R"("config":{"x":99,"y":1,"v":"a"},"valid":true,"cost":0.5,"seconds":0})" << '\n';
  }
  TuningLog log(path, keyFor(space));
  Exhaustive t;
  TuneOptions o;
  o.log = &log;
  o.abort = evaluations(3);
  auto r = tune(space, t, quadraticCost, o);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_NE(r.warnings[0].find("is not in the search space"), std::string::npos) << r.warnings[0];
  EXPECT_GT(r.best->result.cost(), 0.5);  // the foreign line is not the best
  std::filesystem::remove(path);
}
