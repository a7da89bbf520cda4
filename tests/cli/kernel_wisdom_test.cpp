// Wisdom for general kernels from the command line (issue 26, driver/kernel_wisdom.h):
// `fftc explore --record` records the fastest rewrite strategy explore finds (only when it beats
// lowerDefault; `fftc tune FILE.fdl`'s search is in kernel_tune_test.cpp), and `exec` and
// `compile --device` apply it without --rewrite; another device's entry, other -D bindings or an
// explicit --rewrite leave the kernel to lowerDefault.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>

#include "cli_helpers.h"

namespace {

using namespace fftc_cli_test;

boost::json::object jsonAfterNotes(const Result& r) {
  const size_t brace = r.out.find('{');
  EXPECT_NE(brace, std::string::npos) << r.out;
  return brace == std::string::npos ? boost::json::object{}
                                    : boost::json::parse(r.out.substr(brace)).as_object();
}

const std::string kGemm = kExamples + "gemm.fdl -D M=128 -D N=128 -D K=128";

TEST(KernelWisdom, ExploreRecordsWhatExecAndCompileApply) {
  const std::string w = (tempDir() / "kernel_wisdom.json").string();
  std::filesystem::remove(w);
  const std::string wisdom = " --wisdom " + w;
  // tile2D(8, 8) with the interchange is 3 - 8x faster than lowerDefault on PoCL
  auto tune = fftc("explore " + kGemm +
                   " --depth 2 --rules tile2D,mapReduceInterchange --params 8 --repeat 3 "
                   "--warmup 1 --record --json" +
                   wisdom);
  ASSERT_EQ(tune.status, 0) << tune.out;
  const auto t = jsonAfterNotes(tune);
  const double best = t.at("best_ms").to_number<double>();
  const double baseline = t.at("baseline_ms").to_number<double>();
  const std::string strategy(t.at("best_strategy").as_string());
  // recorded exactly when the fastest variant beats lowerDefault
  EXPECT_EQ(!t.at("recorded").is_null(), best < baseline) << tune.out;
  if (t.at("recorded").is_null()) GTEST_SKIP() << "no variant beat lowerDefault in this run";
  EXPECT_EQ(t.at("recorded").as_string(), w);
  EXPECT_NE(readFile(w).find(strategy), std::string::npos);

  auto exec = fftc("exec " + kGemm + " --check --json" + wisdom);
  ASSERT_EQ(exec.status, 0) << exec.out;
  EXPECT_TRUE(jsonAfterNotes(exec).at("wisdom").as_bool()) << exec.out;
  EXPECT_NE(exec.out.find("rewritten by '" + strategy + "'"), std::string::npos) << exec.out;
  // an explicit strategy, or other sizes: no wisdom
  for (const std::string& other :
       {kGemm + " --rewrite lowerDefault", kExamples + "gemm.fdl -D M=64 -D N=128 -D K=128"}) {
    auto e = fftc("exec " + other + " --check --json" + wisdom);
    ASSERT_EQ(e.status, 0) << e.out;
    EXPECT_FALSE(jsonAfterNotes(e).at("wisdom").as_bool()) << other << e.out;
  }

  // compile applies it for the device named, and only then
  const auto dir = tempDir() / "kernel_wisdom_compile";
  auto compiled = [&](const std::string& args, const std::string& sub) {
    auto c = fftc("compile " + kGemm + args + wisdom + " -o " + (dir / sub).string());
    EXPECT_EQ(c.status, 0) << c.out;
    return readFile(dir / sub / "gemm.cl");
  };
  const std::string tuned = compiled(" --device opencl:0:0", "tuned");
  const std::string plain = compiled("", "plain");
  EXPECT_NE(tuned, plain);
  EXPECT_EQ(compiled(" --device opencl:0:0 --rewrite lowerDefault", "explicit"), plain);

  // an entry of another device is not used, and exec says why
  std::string text = readFile(w);
  const std::string device = "\"device\":\"";
  const size_t at = text.find(device);
  ASSERT_NE(at, std::string::npos) << text;
  text.insert(at + device.size(), "Other ");
  std::ofstream(w) << text;
  auto elsewhere = fftc("exec " + kGemm + " --check --json" + wisdom);
  ASSERT_EQ(elsewhere.status, 0) << elsewhere.out;
  EXPECT_FALSE(jsonAfterNotes(elsewhere).at("wisdom").as_bool());
  EXPECT_NE(elsewhere.out.find("not used for kernel gemm"), std::string::npos) << elsewhere.out;

  // a recorded strategy that no longer applies: lowerDefault, and a note says why
  std::string stale = readFile(w);
  const size_t s0 = stale.find(strategy);
  ASSERT_NE(s0, std::string::npos);
  stale.replace(s0, strategy.size(), "at([7, 7, 7], mapGlobal(0)); lowerDefault");
  const size_t d0 = stale.find("Other ");
  ASSERT_NE(d0, std::string::npos);
  stale.erase(d0, 6);  // this device's entry again
  std::ofstream(w) << stale;
  auto fallback = fftc("exec " + kGemm + " --check --json" + wisdom);
  ASSERT_EQ(fallback.status, 0) << fallback.out;
  EXPECT_FALSE(jsonAfterNotes(fallback).at("wisdom").as_bool()) << fallback.out;
  EXPECT_NE(fallback.out.find("the wisdom's strategy failed"), std::string::npos) << fallback.out;

  // a malformed file: one line, exit 1
  std::ofstream(w) << "{";
  auto bad = fftc("exec " + kGemm + " --check" + wisdom);
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_EQ(lineCount(bad.out), 1) << bad.out;
}

// explore --record checks its wisdom file before exploring, as tune does: a malformed one is a
// one-line error, exit 1, with nothing of the exploration before it; without --record the file
// is not read.
TEST(KernelWisdom, ExploreRecordRefusesAMalformedFileFirst) {
  const std::string w = writeTemp("kernel_wisdom_corrupt.json", "{\"fftc_wisdom\": 1, \"entr");
  const std::string args = " --depth 1 --rules tile2D --params 8 --repeat 1 --warmup 0";
  auto bad = fftc("explore " + kGemm + args + " --record --wisdom " + w);
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_EQ(lineCount(bad.out), 1) << bad.out;
  EXPECT_NE(bad.out.find("kernel_wisdom_corrupt.json: not valid JSON"), std::string::npos)
      << bad.out;
  auto plain = fftc("explore " + kGemm + args + " --json --wisdom " + w);
  EXPECT_EQ(plain.status, 0) << plain.out;
  EXPECT_EQ(readFile(w), "{\"fftc_wisdom\": 1, \"entr");
  std::filesystem::remove(w);
}

}  // namespace
