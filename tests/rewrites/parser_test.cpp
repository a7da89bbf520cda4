// The textual strategy language: what parses to what, and the errors for what does not.
#include <gtest/gtest.h>

#include <random>

#include "ir/builders.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "rewrites/strategy_parser.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using namespace ir;

TEST(StrategyParser, GoodInputs) {
  struct Row {
    const char* text;
    const char* printed;
  };
  const Row rows[] = {
      {"mapFusion", "mapFusion"},
      {"topDown(mapFusion); lowerGlobal", "topDown(mapFusion); lowerGlobal"},
      {"repeat(lChoice(mapFusion, reduceMapFusion))",
       "repeat(lChoice(mapFusion, reduceMapFusion))"},
      {"splitJoin(4)", "splitJoin(4)"},
      {" normalize ( splitJoin( 8 ) )<+id ", "lChoice(normalize(splitJoin(8)), id)"},
      {"at([0, 1], mapSeq)", "at([0.1], mapSeq)"},
      {"try(mapGlobal(1))", "try(mapGlobal(1))"},
      {"mapGlobal", "mapGlobal(0)"},
      {"seq(mapFusion; mapSeq, id)", "mapFusion; mapSeq; id"},
      {"(mapFusion <+ mapFission); (id)", "lChoice(mapFusion, mapFission); id"},
      {"lChoice(mapFusion, mapFission, id)", "lChoice(mapFusion, lChoice(mapFission, id))"},
      {"lowerFft", "lowerFft"},
      {"outer(mapZipFlatten); allTopDown(reduceSeq)",
       "outer(mapZipFlatten); allTopDown(reduceSeq)"},
      {"bottomUp(all(some(one(fail))))", "bottomUp(all(some(one(fail))))"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.text);
    Strategy s = parseStrategy(row.text);
    EXPECT_EQ(s.str(), row.printed);
  }
  for (const auto& n : namedStrategies()) EXPECT_EQ(parseStrategy(n.name).str(), n.name);
  for (const auto& r : ruleCatalog())
    if (r.minParams == 0) {
      EXPECT_NO_THROW(parseStrategy(r.name)) << r.name;
    }
}

TEST(StrategyParser, ParsedStrategiesRun) {
  auto x = param("x", Type::array(Type::intType(), 8));
  ExprPtr p = map(fun([](ExprPtr a) { return a + lit(1); }))
              << map(fun([](ExprPtr a) { return a * lit(2); })) << ExprPtr(x);
  RewriteResult r = rewrite(p, parseStrategy("topDown(mapFusion); lowerGlobal"));
  EXPECT_TRUE(r.success);
  EXPECT_EQ(testing::countKind(r.program, FunKind::MapGlobal), 1);
  EXPECT_EQ(testing::countKind(r.program, FunKind::Map), 0);
  RewriteResult s =
      rewrite(p, parseStrategy("topDown(splitJoin(4)); topDown(mapGlobal); topDown(mapSeq)"));
  EXPECT_TRUE(s.success);
  EXPECT_EQ(s.log.size(), 3u);
}

struct Bad {
  const char* text;
  size_t column;
  const char* contains;
};

TEST(StrategyParser, BadInputs) {
  const Bad rows[] = {
      {"", 1, "empty strategy"},
      {"   ", 4, "empty strategy"},
      {"mapFuzion", 1, "did you mean 'mapFusion'"},
      {"frobnicate", 1, "known rules: mapFusion"},
      {"topDown(frobnicate)", 9, "named strategies: prepare"},
      {"topDown(mapFusion", 18, "expected ')'"},
      {"topDown()", 1, "topDown takes 1 argument(s), got 0"},
      {"repeat(a, b)", 8, "unknown rule or strategy 'a'"},
      {"repeat(mapFusion, mapFission)", 1, "repeat takes 1 argument(s), got 2"},
      {"splitJoin", 1, "splitJoin(k) takes 1 integer parameter(s), got 0"},
      {"splitJoin(0)", 1, "k must be positive"},
      {"stageLocalVector(0)", 1, "stageLocalVector(k): k must be positive, got 0"},
      {"vectorize(3)", 1, "vectorize(n): the width n must be 2 or 4, got 3"},
      {"vectorizeOperand(8)", 1, "the width n must be 2 or 4, got 8"},
      {"splitJoin(mapFusion)", 11, "takes integer parameters"},
      {"mapGlobal(3)", 1, "dimension d must be 0, 1 or 2"},
      {"mapFusion(2)", 1, "takes 0 integer parameter(s), got 1"},
      {"lowerFft(2)", 1, "takes no arguments"},
      {"mapFusion;", 11, "expected a strategy, found the end"},
      {"mapFusion <+", 13, "expected a strategy"},
      {"mapFusion mapFission", 11, "unexpected 'm'"},
      {"at(mapSeq, mapSeq)", 4, "first argument is a path"},
      {"at([0, x], mapSeq)", 8, "expected an integer"},
      {"at([-1], mapSeq)", 5, "path index"},
      {"topDown(4)", 9, "must be a strategy"},
      {"splitJoin(99999999999999999999)", 11, "integer too large"},
      {"#", 1, "expected a rule or strategy name"},
      {"lChoice(mapFusion)", 1, "lChoice takes 2 or more"},
  };
  for (const auto& row : rows) {
    SCOPED_TRACE(row.text);
    try {
      parseStrategy(row.text);
      ADD_FAILURE() << "accepted";
    } catch (const StrategyParseError& e) {
      EXPECT_EQ(e.column(), row.column) << e.what();
      EXPECT_NE(std::string(e.what()).find(row.contains), std::string::npos) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("strategy:1:", 0), 0u) << e.what();
    }
  }
}

TEST(StrategyParser, MalformedTextNeverCrashes) {
  EXPECT_THROW(parseStrategy(std::string(100000, '(')), StrategyParseError);
  std::string deep;
  for (int i = 0; i < 5000; ++i) deep += "try(";
  EXPECT_THROW(parseStrategy(deep + "id" + std::string(5000, ')')), StrategyParseError);
  std::string ok;
  for (int i = 0; i < 100; ++i) ok += "try(";
  EXPECT_NO_THROW(parseStrategy(ok + "id" + std::string(100, ')')));
  const std::string alphabet = "ab(),;<+[]0-9 mapFusionsplitJoin";
  std::mt19937_64 rng(1);
  int parsed = 0, rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string t;
    size_t len = rng() % 24;
    for (size_t j = 0; j < len; ++j) t += alphabet[rng() % alphabet.size()];
    try {
      parseStrategy(t);
      ++parsed;
    } catch (const StrategyParseError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 0);
}

TEST(StrategyParser, UnknownNamesListEveryKnownName) {
  try {
    parseStrategy("zzzz");
    FAIL();
  } catch (const StrategyParseError& e) {
    std::string w = e.what();
    for (const auto& r : ruleCatalog()) EXPECT_NE(w.find(r.signature), std::string::npos) << r.name;
    for (const auto& s : namedStrategies()) EXPECT_NE(w.find(s.name), std::string::npos) << s.name;
    EXPECT_NE(w.find("topDown"), std::string::npos);
    EXPECT_EQ(w.find("did you mean"), std::string::npos);
  }
}

}  // namespace
}  // namespace fftc::rewrites
