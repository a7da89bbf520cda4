// `fftc tune FILE.fdl` (issue 26, driver/kernel_space.h): the rewrite choice and the numeric
// parameters of a general kernel in one ATF space, its size and constraints counted by hand on
// small GEMMs; a search on PoCL whose winner equals the interpreter and whose wisdom `compile`
// applies; an invalid configuration; bad input.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli_helpers.h"

namespace {

using namespace fftc_cli_test;

// The JSON object: the last line that starts with '{' (notes and the space come before it).
boost::json::object jsonOf(const Result& r) {
  const size_t nl = r.out.rfind("\n{");
  const size_t at = nl != std::string::npos ? nl + 1 : r.out.rfind('{', 0) == 0 ? 0 : r.out.size();
  EXPECT_LT(at, r.out.size()) << r.out;
  return at < r.out.size() ? boost::json::parse(r.out.substr(at)).as_object()
                           : boost::json::object{};
}

std::string gemm(int m, int n, int k) {
  return kExamples + "gemm.fdl -D M=" + std::to_string(m) + " -D N=" + std::to_string(n) +
         " -D K=" + std::to_string(k);
}

// The configurations of each skeleton, by its text.
std::map<std::string, int64_t> perSkeleton(const boost::json::object& o) {
  std::map<std::string, int64_t> out;
  for (const auto& s : o.at("skeletons").as_array())
    out[std::string(s.at("skeleton").as_string())] = s.at("configurations").to_number<int64_t>();
  return out;
}

std::set<std::string> strategies(const boost::json::object& o) {
  std::set<std::string> out;
  for (const auto& s : o.at("strategies").as_array()) out.insert(std::string(s.as_string()));
  return out;
}

// tile2D(r, c)'s side condition by hand: r | M, c | N, not both the whole matrix.
std::set<std::string> tilesByHand(int m, int n, const std::vector<int>& values, int maxItems,
                                  const std::string& rest) {
  std::set<std::string> out;
  for (int r : values)
    for (int c : values)
      if (m % r == 0 && n % c == 0 && !(r == m && c == n) && r * c <= maxItems)
        out.insert("tile2D(" + std::to_string(r) + ", " + std::to_string(c) + "); " + rest +
                   "lowerDefault");
  return out;
}

TEST(KernelTune, SpaceCountedByHand) {
  // depth 1: lowerDefault, tile2D(s1, s2) at the root, the interchange at the map of columns;
  // the slots' values are the divisors above 1 of the -D sizes: {2, 4, 8, 16}
  auto r = fftc("tune " + gemm(16, 16, 16) +
                " --depth 1 --rules tile2D,mapReduceInterchange --dry-run --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto o = jsonOf(r);
  const auto tiles = tilesByHand(16, 16, {2, 4, 8, 16}, 1 << 30, "");
  EXPECT_EQ(tiles.size(), 15u);  // 4 x 4 pairs, not (16, 16)
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 1 + 15 + 1) << r.out;
  EXPECT_EQ(perSkeleton(o)["tile2D(s1, s2); lowerDefault"], 15) << r.out;
  EXPECT_EQ(perSkeleton(o)["at([0], mapReduceInterchange); lowerDefault"], 1) << r.out;
  std::set<std::string> want = tiles;
  want.insert("lowerDefault");
  want.insert("at([0], mapReduceInterchange); lowerDefault");
  EXPECT_EQ(strategies(o), want) << r.out;

  // a non-square GEMM: r | 16 (4 values), c | 8 (3 values), not (16, 8)
  r = fftc("tune " + gemm(16, 8, 4) + " --depth 1 --rules tile2D --dry-run --json");
  ASSERT_EQ(r.status, 0) << r.out;
  o = jsonOf(r);
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 1 + 11) << r.out;
  want = tilesByHand(16, 8, {2, 4, 8, 16}, 1 << 30, "");
  want.insert("lowerDefault");
  EXPECT_EQ(strategies(o), want) << r.out;

  // the work-group limit: a work-group per tile (its r x c work-items) at most 16
  for (int limit : {16, 4096}) {
    r = fftc("tune " + gemm(16, 16, 16) + " --depth 2 --rules tile2D,mapWorkgroup2D --dry-run " +
             "--json --max-work-group " + std::to_string(limit));
    ASSERT_EQ(r.status, 0) << r.out;
    o = jsonOf(r);
    const std::string grouped = "tile2D(s1, s2); at([0, 1], mapWorkgroup2D); lowerDefault";
    const auto byHand = tilesByHand(16, 16, {2, 4, 8, 16}, limit, "at([0, 1], mapWorkgroup2D); ");
    EXPECT_EQ(perSkeleton(o)[grouped], static_cast<int64_t>(byHand.size())) << limit << r.out;
    EXPECT_EQ(byHand.size(), limit == 16 ? 6u : 15u);
    const auto all = strategies(o);
    for (const auto& s : byHand) EXPECT_TRUE(all.count(s)) << s;
  }

  // the work-group of the staged GEMM (LIFT's): (TM / RM) x (TN / RN) work-items, at most 256;
  // by hand: the per-dimension counts {16, 8, 32, 16} for TM in {64, 128}, RM in {4, 8} give 11
  // pairs with a product <= 256, times KC in {8, 16}
  r = fftc("tune " + gemm(256, 256, 64) +
           " --skeleton 'tile2D(TM, TN); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], "
           "registerBlock(RM, RN)); at([0, 1, 0, 0, 0, 1], stageLocal(KC))' --range TM=64,128 "
           "--range TN=64,128 --range RM=4,8 --range RN=4,8 --range KC=8,16 --max-work-group 256 "
           "--dry-run --json");
  ASSERT_EQ(r.status, 0) << r.out;
  o = jsonOf(r);
  int byHand = 0;
  for (int tm : {64, 128})
    for (int tn : {64, 128})
      for (int rm : {4, 8})
        for (int rn : {4, 8}) byHand += (tm / rm) * (tn / rn) <= 256 ? 2 : 0;
  EXPECT_EQ(byHand, 22);
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 1 + byHand) << r.out;

  // a skeleton of the user's, one slot twice (square tiles), values of its own
  r = fftc(
      "tune " + gemm(16, 16, 16) +
      " --skeleton 'tile2D(T, T); at([0, 1, 0, 0, 0], mapReduceInterchange)' --dry-run --json");
  ASSERT_EQ(r.status, 0) << r.out;
  o = jsonOf(r);
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 1 + 3) << r.out;  // T = 2, 4, 8 (not 16)
  r = fftc("tune " + gemm(16, 16, 16) +
           " --skeleton 'tile2D(R, C)' --range R=4,8,32 --values 2 --dry-run --json");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(jsonOf(r).at("space_size").to_number<int64_t>(), 1 + 2) << r.out;  // R = 4, 8; C = 2
}

TEST(KernelTune, WinnerCheckedAndItsWisdomApplied) {
  const auto dir = tempDir() / "kernel_tune";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string w = (dir / "wisdom.json").string();
  const std::string g = gemm(32, 32, 32);
  // every configuration: lowerDefault and 4 tilings with the interchange (tile2D(8, 8) with
  // it is 3 - 8x faster than lowerDefault on PoCL)
  auto r =
      fftc("tune " + g +
           " --skeleton 'tile2D(R, C); at([0, 1, 0, 0, 0], mapReduceInterchange)' --values 4,8 "
           "--technique exhaustive --repeat 3 --warmup 1 --json --wisdom " +
           w);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto o = jsonOf(r);
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 5);
  EXPECT_EQ(o.at("evaluations").to_number<int64_t>(), 5);
  EXPECT_EQ(o.at("invalid").to_number<int64_t>(), 0);
  EXPECT_EQ(o.at("evaluated").as_array()[0].at("strategy").as_string(), "lowerDefault");
  const std::string best(o.at("best_strategy").as_string());
  double fastest = 1e30;
  for (const auto& e : o.at("evaluated").as_array())
    fastest = std::min(fastest, e.at("ms").to_number<double>());
  EXPECT_EQ(o.at("best_ms").to_number<double>(), fastest);

  // the winner, built again from its strategy, equals the interpreter
  auto check = fftc("exec " + g + " --rewrite '" + best + "' --check --json");
  ASSERT_EQ(check.status, 0) << check.out;
  EXPECT_TRUE(jsonOf(check).at("ok").as_bool());

  if (o.at("recorded").is_null()) {
    EXPECT_GE(o.at("best_ms").to_number<double>(), o.at("baseline_ms").to_number<double>());
    GTEST_SKIP() << "no configuration beat lowerDefault in this run";
  }
  EXPECT_EQ(o.at("recorded").as_string(), w);
  const std::string text = readFile(w);
  EXPECT_NE(text.find("\"skeleton\":\"tile2D(R, C); at([0, 1, 0, 0, 0], mapReduceInterchange); "
                      "lowerDefault\""),
            std::string::npos)
      << text;
  // compile --device applies it: the kernel is the one the winner's strategy gives
  auto compiled = [&](const std::string& args, const std::string& sub) {
    auto c = fftc("compile " + g + args + " --wisdom " + w + " -o " + (dir / sub).string());
    EXPECT_EQ(c.status, 0) << c.out;
    return readFile(dir / sub / "gemm.cl");
  };
  const std::string tuned = compiled(" --device opencl:0:0", "tuned");
  EXPECT_EQ(tuned, compiled(" --rewrite '" + best + "'", "strategy"));
  EXPECT_NE(tuned, compiled("", "plain"));
  std::filesystem::remove_all(dir);
}

TEST(KernelTune, InvalidConfigurationsAreNeverBest) {
  // registerBlock(16, 16) applies (16 | 32) but its 256 accumulators are more than code
  // generation keeps in private memory: invalid, with the reason
  const std::string w = (tempDir() / "kernel_tune_invalid.json").string();
  auto r = fftc("tune " + gemm(32, 32, 4) +
                " --skeleton 'registerBlock(R, R)' --range R=4,16 --technique exhaustive "
                "--repeat 1 --warmup 0 --json --wisdom " +
                w);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto o = jsonOf(r);
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 3);
  EXPECT_EQ(o.at("invalid").to_number<int64_t>(), 1);
  bool seen = false;
  for (const auto& e : o.at("evaluated").as_array())
    if (e.at("strategy").as_string() == "registerBlock(16, 16); lowerDefault") {
      seen = true;
      EXPECT_TRUE(e.at("ms").is_null());
      EXPECT_NE(std::string(e.at("error").as_string()).find("accumulator"), std::string::npos);
    }
  EXPECT_TRUE(seen) << r.out;
  EXPECT_NE(o.at("best_strategy").as_string(), "registerBlock(16, 16); lowerDefault");
  std::filesystem::remove(w);
}

TEST(KernelTune, ALoggedRunIsReplayed) {
  const auto dir = tempDir() / "kernel_tune_log";
  std::filesystem::remove_all(dir);
  const std::string args =
      " --depth 1 --rules tile2D --values 4,8 --technique exhaustive "
      "--repeat 1 --warmup 0 --json --wisdom " +
      (dir / "w.json").string() + " --log " + (dir / "log.jsonl").string();
  auto first = fftc("tune " + gemm(16, 16, 16) + args);
  ASSERT_EQ(first.status, 0) << first.out;
  const auto a = jsonOf(first);
  EXPECT_EQ(a.at("space_size").to_number<int64_t>(), 5);  // lowerDefault, tile2D of {4, 8}^2
  EXPECT_EQ(a.at("measured").to_number<int64_t>(), 5);
  // the rerun measures nothing: every configuration comes from the log, with its time
  auto again = fftc("tune " + gemm(16, 16, 16) + args);
  ASSERT_EQ(again.status, 0) << again.out;
  const auto b = jsonOf(again);
  EXPECT_EQ(b.at("measured").to_number<int64_t>(), 0);
  EXPECT_EQ(b.at("replayed").to_number<int64_t>(), 5);
  EXPECT_EQ(b.at("best_strategy"), a.at("best_strategy"));
  EXPECT_EQ(b.at("best_ms"), a.at("best_ms"));
  // the log of another problem is refused before any measurement (after the space's report):
  // exit 1, the error one line
  auto other = fftc("tune " + gemm(16, 16, 8) + args);
  EXPECT_EQ(other.status, 1) << other.out;
  const size_t error = other.out.find("fftc: error: ");
  ASSERT_NE(error, std::string::npos) << other.out;
  EXPECT_EQ(lineCount(other.out.substr(error)), 1) << other.out;
  EXPECT_NE(other.out.find("use another tuning log"), std::string::npos) << other.out;
  EXPECT_EQ(other.out.find("\"measured\""), std::string::npos) << other.out;
  std::filesystem::remove_all(dir);
}

// A configuration that differed from the interpreter fails a rerun that replays it from the
// log as well (its "check_failed" is kept in the log line): exit 3, nothing recorded.
TEST(KernelTune, AReplayedCheckFailureStillFails) {
  const auto dir = tempDir() / "kernel_tune_replayed_check";
  std::filesystem::remove_all(dir);
  const auto wisdom = dir / "w.json", logPath = dir / "log.jsonl";
  const std::string args =
      " --depth 1 --rules tile2D --values 4,8 --technique exhaustive --repeat 1 --warmup 0 "
      "--json --wisdom " +
      wisdom.string() + " --log " + logPath.string();
  auto first = fftc("tune " + gemm(16, 16, 16) + args);
  ASSERT_EQ(first.status, 0) << first.out;
  // no rule is known to be wrong: the last logged tiling is marked as the cost marks a
  // configuration whose result differs from the interpreter's
  std::istringstream in(readFile(logPath));
  std::vector<boost::json::object> lines;
  for (std::string l; std::getline(in, l);)
    if (!l.empty()) lines.push_back(boost::json::parse(l).as_object());
  ASSERT_EQ(lines.size(), 5u);
  boost::json::object& bad = lines.back();
  ASSERT_NE(bad.at("config").at("skeleton").as_string(), "lowerDefault");
  bad["valid"] = false;
  bad.erase("cost");
  bad["reason"] = "differs from the interpreter";
  bad.at("extra").as_object()["check_failed"] = true;
  {
    std::ofstream out(logPath, std::ios::trunc);
    for (const auto& o : lines) out << boost::json::serialize(o) << "\n";
  }
  std::filesystem::remove(wisdom);
  auto again = fftc("tune " + gemm(16, 16, 16) + args);
  EXPECT_EQ(again.status, 3) << again.out;
  const auto o = jsonOf(again);
  EXPECT_EQ(o.at("measured").to_number<int64_t>(), 0) << again.out;
  EXPECT_EQ(o.at("replayed").to_number<int64_t>(), 5) << again.out;
  EXPECT_TRUE(o.at("recorded").is_null()) << again.out;
  EXPECT_FALSE(std::filesystem::exists(wisdom));
  EXPECT_NE(again.out.find("1 configuration(s) differ from the interpreter"), std::string::npos)
      << again.out;
  std::filesystem::remove_all(dir);
}

// A wisdom file that does not parse is refused before the space is built and the search run
// (review of session 22: it used to throw when the winner was recorded, taking the report away).
TEST(KernelTune, AMalformedWisdomFileFailsBeforeTheSearch) {
  const auto corrupt = writeTemp("kernel_tune_corrupt.json", "{\"fftc_wisdom\": 1, \"entr");
  auto r = fftc("tune " + gemm(16, 16, 16) +
                " --depth 1 --rules tile2D --values 4,8 --technique exhaustive --repeat 1 "
                "--warmup 0 --json --wisdom " +
                corrupt);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(lineCount(r.out), 1) << r.out;  // nothing of the space or the search before it
  EXPECT_NE(r.out.find("fftc: error: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("kernel_tune_corrupt.json: not valid JSON"), std::string::npos) << r.out;
  EXPECT_EQ(readFile(corrupt), "{\"fftc_wisdom\": 1, \"entr");
  std::filesystem::remove(corrupt);
}

TEST(KernelTune, CheckedAtOtherSizesTimedAtItsOwn) {
  // --check-at: each configuration checked against the interpreter at M = N = 16, timed at -D's
  // 64 x 64; tile2D(32, 8) fits 64 but not 16, so it cannot be checked and is invalid
  const std::string w = (tempDir() / "kernel_tune_check_at.json").string();
  const std::string log = (tempDir() / "kernel_tune_check_at.log").string();
  std::filesystem::remove(w);
  std::filesystem::remove(log);
  auto r = fftc("tune " + gemm(64, 64, 4) +
                " --check-at M=16 --check-at N=16 --skeleton 'tile2D(R, C)' --range R=8,32 "
                "--range C=8 --technique exhaustive --repeat 1 --warmup 0 --json --log " +
                log + " --wisdom " + w);
  ASSERT_EQ(r.status, 0) << r.out;
  const auto o = jsonOf(r);
  EXPECT_EQ(o.at("space_size").to_number<int64_t>(), 3);  // lowerDefault, (8, 8), (32, 8)
  EXPECT_EQ(o.at("check_at"), (boost::json::array{"M=16", "N=16", "K=4"}));
  EXPECT_EQ(o.at("invalid").to_number<int64_t>(), 1);
  std::map<std::string, bool> timed;
  for (const auto& e : o.at("evaluated").as_array())
    timed[std::string(e.at("strategy").as_string())] = !e.at("ms").is_null();
  EXPECT_TRUE(timed.at("tile2D(8, 8); lowerDefault")) << r.out;
  EXPECT_FALSE(timed.at("tile2D(32, 8); lowerDefault")) << r.out;
  // the log's problem is the timed one (-D's sizes) checked at the others: a log of a run
  // without --check-at, whose configurations were checked at -D's sizes, is another problem
  std::ifstream in(log);
  std::string first;
  std::getline(in, first);
  EXPECT_NE(first.find("-D K=4,M=64,N=64 check-at M=16,N=16,K=4 skeletons#"), std::string::npos)
      << first;
  std::filesystem::remove(w);
  std::filesystem::remove(log);
}

TEST(KernelTune, BadInputIsOneLine) {
  const std::string g = gemm(16, 16, 16) + " --dry-run";
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {"--rules tile2D,nope", "unknown rule 'nope'"},
           {"--skeleton 'tile2D(R, C)' --range R=", "the slot R needs one or more positive values"},
           {"--skeleton 'tile2D(R, C)' --range X=4", "no skeleton has a slot X"},
           {"--values 0,2", "--values 0,2: the values must be positive"},
           {"--skeleton 'nope(R)'", "unknown rule 'nope'"},
           {"--skeleton 'tile2D(R, C'", "unbalanced"},
           {"--skeleton 'tile2D(R, 2*C)'", "neither an integer nor a slot name"},
           {"--technique nope", "unknown search technique"},
           {"--depth 1 --rules tile2D --max-checks 3", "more than 3 rewrites and compilations"},
           {"--values a", "expected integers"},
           {"--check-at Q=3", "--check-at Q=3: Q is not a size given with -D"},
           {"--check-at M=0", "--check-at M=0: expected NAME=V, V positive"}}) {
    auto r = fftc("tune " + g + " " + args);
    EXPECT_EQ(r.status, 1) << args << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << args << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << args << r.out;
  }
  // no values for a slot: a size without divisors above 1 and no --values
  auto r = fftc("tune " + kExamples +
                "gemm.fdl -D M=1 -D N=1 -D K=1 --skeleton 'tile2D(R, C)' --dry-run");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(lineCount(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("slot R of the skeleton 'tile2D(R, C); lowerDefault' has no values"),
            std::string::npos)
      << r.out;
}

}  // namespace
