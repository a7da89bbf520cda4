// The progress callback and the one-line terminal renderer.
#include "common.h"

#include <gtest/gtest.h>

#include <cstdio>

using namespace fftc::tuner;
using namespace fftc::tuner::testing;

namespace {
std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}
}  // namespace

TEST(Progress, CallbackSeesEveryEvaluation) {
  auto space = quadraticSpace();
  Exhaustive t;
  std::vector<Progress> seen;
  TuneOptions o;
  o.abort = evaluations(40) || duration(1000);
  o.progress = [&](const Progress& p) { seen.push_back(p); };
  tune(space, t, quadraticCost, o);
  ASSERT_EQ(seen.size(), 41u);  // one per evaluation, one at the end
  for (std::size_t i = 0; i < 40; ++i) {
    EXPECT_EQ(seen[i].evaluations, i + 1);
    EXPECT_FALSE(seen[i].finished);
  }
  EXPECT_TRUE(seen.back().finished);
  EXPECT_EQ(seen.back().spaceSize, space.size());
  EXPECT_EQ(*seen.back().bestCost, 227.0);  // x=0 y=13 v="a": 121 + 100 + 5 + 1
  ASSERT_TRUE(seen.back().secondsLeft);
  EXPECT_GT(*seen.back().secondsLeft, 990.0);
}

TEST(Progress, TerminalRendererDrawsOnlyOnATerminal) {
  Progress p;
  p.evaluations = 37;
  p.spaceSize = 1234;
  p.replayed = 5;
  p.invalid = 3;
  p.bestCost = 0.1234;
  p.bestConfiguration = "R=[16,16] WG=256";
  p.elapsedSeconds = 12.3;
  p.secondsLeft = 47.7;
  EXPECT_EQ(formatProgress(p),
            "37/1234 evaluated (5 replayed, 3 invalid)  best 0.1234 "
            "[R=[16,16] WG=256]  12.3 s, 47.7 s left");
  std::FILE* file = std::tmpfile();
  TerminalProgress notTty(file);  // a file is no terminal
  EXPECT_FALSE(notTty.enabled());
  notTty(p);
  EXPECT_EQ(contents(file), "");

  TerminalProgress forced(file, true, 0.5);
  forced(p);
  p.elapsedSeconds = 12.4;  // within 0.5 s: not redrawn
  forced(p);
  p.finished = true;  // the last one always is, and ends the line
  forced(p);
  std::string out = contents(file);
  EXPECT_EQ(out,
            "\r" +
                formatProgress({37, 0, 5, 3, 1234, 0.1234, "R=[16,16] WG=256", 12.3, 47.7, false}) +
                "\x1b[K" + "\r" + formatProgress(p) + "\x1b[K\n");
  std::fclose(file);
}
