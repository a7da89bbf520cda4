// Feeds the fuzz entry point (the body of tests/fuzz/parser_fuzzer.cpp) thousands of random and
// mutated inputs derived from the examples and the fuzz corpus, with a fixed seed: none may
// crash, hang or throw anything but a CompileError (which fuzzOneInput turns into 1). The
// front end only, with small budgets; tests/fuzz/pipeline_fuzzer.cpp and tests/codegen/
// fuzz_regressions_test.cpp cover the whole pipeline with the CLI's.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "compiler/frontend/frontend.h"
#include "tests/frontend/test_paths.h"

namespace fe = fftc::compiler::frontend;

namespace {

struct Seed {
  std::string text;
  bool example = false;  // from examples/: must compile
};

std::vector<Seed> seeds() {
  std::vector<Seed> out;
  const auto examples = fftc::test::examplesDir();
  for (const auto& dir : {examples, examples.parent_path() / "tests" / "fuzz" / "corpus"}) {
    EXPECT_TRUE(std::filesystem::is_directory(dir)) << dir << " is missing";
    if (!std::filesystem::is_directory(dir)) continue;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
      if (e.path().extension() != ".fdl") continue;
      std::ifstream in(e.path(), std::ios::binary);
      std::stringstream ss;
      ss << in.rdbuf();
      out.push_back({ss.str(), dir == examples});
    }
  }
  return out;
}

// Byte-level and token-level mutations in the style of libFuzzer's.
std::string mutate(std::string s, std::mt19937& rng, const std::vector<std::string>& pool) {
  static const std::string tokens[] = {"(", ")", "[", "]", "{", "}", ",", "<<:", " o ", "=>", "fun ",
                                 "λ", "pipe(q in 0 .. 3) ", "def ", "kernel ", "userfun ", "\"",
                                 "/*", "*/", "//", "._0", "..", "99999999999999999999", "1e999",
                                 "-", "*", "/", "%", "0", "rs[q]", "prod(rs)", "len(rs)", "split(",
                                 "map(", "zip(", "\xff", std::string("\0", 1), "\n", "π",
                                 "array3(2, 2, 2, ", "reduce(add, {0, 0})", "x", "N", ":", "=",
                                 "import \"a.fdl\"\n", "import \"cycle.fdl\" ", "import ",
                                 "fromA", "twice(", "\"lib.fdl\""};
  std::uniform_int_distribution<int> op(0, 7);
  int rounds = 1 + static_cast<int>(rng() % 4);
  for (int r = 0; r < rounds; ++r) {
    size_t pos = s.empty() ? 0 : rng() % (s.size() + 1);
    switch (op(rng)) {
      case 0:  // flip a byte
        if (!s.empty()) s[pos % s.size()] = static_cast<char>(rng());
        break;
      case 1:  // delete a span
        if (!s.empty()) s.erase(pos % s.size(), 1 + rng() % 16);
        break;
      case 2:  // insert a token
        s.insert(pos, tokens[rng() % std::size(tokens)]);
        break;
      case 3: {  // duplicate a span
        if (s.empty()) break;
        size_t from = rng() % s.size();
        s.insert(pos, s.substr(from, 1 + rng() % 32));
        break;
      }
      case 4: {  // splice with another seed
        const std::string& o = pool[rng() % pool.size()];
        if (o.empty()) break;
        size_t from = rng() % o.size();
        s = s.substr(0, pos) + o.substr(from, rng() % 200);
        break;
      }
      case 5:  // truncate
        s.resize(pos);
        break;
      case 6: {  // swap two bytes
        if (s.size() < 2) break;
        std::swap(s[pos % s.size()], s[rng() % s.size()]);
        break;
      }
      default: {  // replace a digit run with another number
        size_t d = s.find_first_of("0123456789", pos);
        if (d != std::string::npos) s.replace(d, 1, std::to_string(rng() % 70000));
        break;
      }
    }
  }
  return s;
}

}  // namespace

TEST(FuzzSmoke, MutatedExamplesNeverCrash) {
  const std::vector<Seed> seedFiles = seeds();
  std::vector<std::string> pool;
  for (const auto& seed : seedFiles) pool.push_back(seed.text);
  ASSERT_GE(pool.size(), 10u);
  std::mt19937 rng(20191);  // deterministic
  int accepted = 0, rejected = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string input = mutate(pool[static_cast<size_t>(i) % pool.size()], rng, pool);
    int r = fe::fuzzOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    ASSERT_TRUE(r == 0 || r == 1) << input;
    (r == 0 ? accepted : rejected)++;
  }
  // Pure random bytes too.
  for (int i = 0; i < 1000; ++i) {
    std::string input(rng() % 300, '\0');
    for (auto& c : input) c = static_cast<char>(rng());
    int r = fe::fuzzOneInput(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    ASSERT_TRUE(r == 0 || r == 1);
  }
  EXPECT_GT(accepted, 0);  // some mutants still compile: the mutator reaches the elaborator
  EXPECT_GT(rejected, 0);
  // The seeds themselves: every example compiles under the fuzz budgets (or the mutants above
  // start from programs the front end rejects), and no corpus file crashes.
  for (const auto& seed : seedFiles) {
    int r = fe::fuzzOneInput(reinterpret_cast<const uint8_t*>(seed.text.data()), seed.text.size());
    if (seed.example) {
      EXPECT_EQ(r, 0) << seed.text;
    } else {
      EXPECT_TRUE(r == 0 || r == 1) << seed.text;
    }
  }
}
