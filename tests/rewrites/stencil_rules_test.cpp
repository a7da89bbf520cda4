// slideTile, slideTile2D, slideTileRegisters and slideTileLocal (LIFT's overlapped tiling of
// stencils) on random stencil programs: 1D and 2D, random sizes, windows, steps, padding (clamp,
// wrap, mirror, a constant) and order-sensitive functions of the neighbourhood. Each application
// keeps the interpreter's result exactly (the rules only regroup windows: views), as written
// and lowered; each applies iff the tile count divides the windows.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compiler/frontend/frontend.h"
#include "ir/printer.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "rewrites/strategy_parser.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using testing::randomValue;
using testing::runProgram;
using testing::valuesClose;

struct Case {
  std::string text;
  ir::LambdaPtr kernel;
};

Case compile(const std::string& text) {
  return {text, testing::kernelOf(text)};
}

std::string padKind(std::mt19937_64& rng) {
  switch (rng() % 4) {
    case 0:
      return "clamp";
    case 1:
      return "wrap";
    case 2:
      return "mirror";
    default:
      return "0.5f";
  }
}

// An order-sensitive fold of a window's elements (a Horner-like fold, or a weighted sum of
// picked elements through gather when the window has at least two).
std::string fold(std::mt19937_64& rng, int elements) {
  if (elements >= 2 && rng() % 2 == 0)
    return "reduce(add, 0.0f) <<: map(λ(v => v * 0.75f)) <<: gather([0, " +
           std::to_string(elements - 1) + "]) <<: ";
  return "reduce(λ((a, v) => a * 0.5f + v), 1.0f) <<: ";
}

// 1D: map(fold) <<: slide(n, s) <<: pad(l, r, kind) <<: x, the pad maybe left out.
Case random1D(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const int n = 1 + pick(4), s = 1 + pick(3), m = n + pick(12);
  const bool padded = pick(3) != 0;
  const int l = padded ? pick(3) : 0, r = padded ? pick(3) : 0;
  std::string input = padded ? "pad(" + std::to_string(l) + ", " + std::to_string(r) + ", " +
                                   padKind(rng) + ") <<: x"
                             : "x";
  return compile("kernel k(x: [float]" + std::to_string(m) + ") =\n  map(λ(w => " + fold(rng, n) +
                 "w)) <<: slide(" + std::to_string(n) + ", " + std::to_string(s) +
                 ") <<: " + input + "\n");
}

// 2D: map(map(fun nbh => fold(join(nbh)))) <<: slide2 <<: pad2, the slides' sizes and steps
// different in the two dimensions.
Case random2D(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const int n1 = 1 + pick(3), s1 = 1 + pick(2), n2 = 1 + pick(3), s2 = 1 + pick(2);
  const int h = n1 + pick(8), w = n2 + pick(8), p = pick(2);
  const std::string kind = padKind(rng);
  const std::string pad = "pad(" + std::to_string(p) + ", " + std::to_string(p) + ", " + kind + ")";
  return compile("kernel k(g: [[float]" + std::to_string(w) + "]" + std::to_string(h) + ") =\n" +
                 "  map(map(λ(nbh => " + fold(rng, n1 * n2) + "join <<: nbh)))\n" +
                 "  <<: map(transpose) <<: slide(" + std::to_string(n1) + ", " +
                 std::to_string(s1) + ") <<: map(slide(" + std::to_string(n2) + ", " +
                 std::to_string(s2) + "))\n" + "  <<: transpose <<: map(" + pad +
                 ") <<: transpose <<: map(" + pad + ") <<: g\n");
}

std::vector<ir::Value> inputs(const ir::LambdaPtr& k, std::mt19937_64& rng) {
  std::vector<ir::Value> in;
  for (const auto& p : k->params()) in.push_back(randomValue(p->type(), rng));
  return in;
}

// Every rule of `rules` at every position of `cases` random programs where it applies keeps
// the result exactly, and again after `finish`; returns how many applications there were.
int checkEveryApplication(const std::vector<Rule>& rules, Case (*gen)(std::mt19937_64&),
                          uint64_t seed, const std::string& finish = "lowerDefault") {
  std::mt19937_64 rng(seed);
  const Strategy lower = parseStrategy(finish);
  int matched = 0;
  for (int i = 0; i < 150; ++i) {
    Case c = gen(rng);
    ExprPtr typed = ir::inferTypes(c.kernel->body());
    for (const Rule& rule : rules) {
      for (const Path& at : matchPositions(rule, typed)) {
        Applied a = applyAt(rule, typed, at);
        EXPECT_TRUE(a.changed);
        if (!a.changed) continue;
        auto in = inputs(c.kernel, rng);
        const ir::Value want = runProgram(typed, c.kernel->params(), in);
        std::string why;
        EXPECT_TRUE(valuesClose(want, runProgram(a.program, c.kernel->params(), in), 0, &why))
            << why << "\n"
            << rule.name() << " at " << pathStr(at) << " of\n"
            << c.text << "after:\n"
            << ir::print(a.program, {false, 2});
        RewriteResult lowered = rewrite(a.program, lower);
        EXPECT_TRUE(valuesClose(want, runProgram(lowered.program, c.kernel->params(), in), 0, &why))
            << why << "\n"
            << rule.name() << "; " << finish << " at " << pathStr(at) << " of\n"
            << c.text << "lowered:\n"
            << ir::print(lowered.program, {false, 2});
        ++matched;
      }
    }
  }
  return matched;
}

TEST(StencilRules, SlideTileKeepsTheResultExactly) {
  const int n = checkEveryApplication(
      {rules::slideTile(1), rules::slideTile(2), rules::slideTile(3), rules::slideTile(4)},
      random1D, 21);
  EXPECT_GE(n, 100);
  // and on the 2D programs: the slide of the rows and the slides of each row
  EXPECT_GE(checkEveryApplication({rules::slideTile(2), rules::slideTile(3)}, random2D, 22), 40);
}

TEST(StencilRules, SlideTile2DKeepsTheResultExactly) {
  const int n = checkEveryApplication(
      {rules::slideTile2D(1, 1), rules::slideTile2D(2, 1), rules::slideTile2D(1, 2),
       rules::slideTile2D(2, 3), rules::slideTile2D(3, 2), rules::slideTile2D(4, 4)},
      random2D, 23);
  EXPECT_GE(n, 100);
}

// The macro lowers as it goes: the tiles on mapGlobal2D, unrolled maps inside; lowerDefault
// lowers the rest.
TEST(StencilRules, SlideTileRegistersKeepsTheResultExactly) {
  const int n =
      checkEveryApplication({rules::slideTileRegisters(1, 1), rules::slideTileRegisters(2, 1),
                             rules::slideTileRegisters(3, 1), rules::slideTileRegisters(2, 2)},
                            random2D, 24, "topDown(reduceSeqUnroll) <+ id; lowerDefault");
  EXPECT_GE(n, 60);
}

// The tiles on work-groups, each copied into local memory with its halo (the copy is the
// identity), the outputs on mapLocal2D.
TEST(StencilRules, SlideTileLocalKeepsTheResultExactly) {
  const int n = checkEveryApplication({rules::slideTileLocal(1, 1), rules::slideTileLocal(2, 1),
                                       rules::slideTileLocal(2, 3), rules::slideTileLocal(1, 2)},
                                      random2D, 25);
  EXPECT_GE(n, 60);
}

// It applies iff the tiles divide the windows, in both dimensions; not inside a loop that is
// not a mapGlobal of dimension 2.
TEST(StencilRules, TilesMustDivideTheWindows) {
  // 10 rows padded to 12, slide(3, 1): 10 windows; 14 columns, slide(3, 2) of 16: 7 windows
  Case c = compile(
      "kernel k(g: [[float]14]10) = map(map(λ(nbh => reduce(add, 0.0f) <<: join <<: nbh)))\n"
      "  <<: map(transpose) <<: slide(3, 1) <<: map(slide(3, 2))\n"
      "  <<: transpose <<: map(pad(1, 1, clamp)) <<: transpose <<: map(pad(1, 1, clamp)) <<: g\n");
  ExprPtr typed = ir::inferTypes(c.kernel->body());
  EXPECT_TRUE(applyAt(rules::slideTile2D(5, 7), typed, {}).changed);
  EXPECT_TRUE(applyAt(rules::slideTile2D(2, 1), typed, {}).changed);
  EXPECT_FALSE(applyAt(rules::slideTile2D(4, 1), typed, {}).changed);   // 4 does not divide 10
  EXPECT_FALSE(applyAt(rules::slideTile2D(2, 2), typed, {}).changed);   // 2 does not divide 7
  EXPECT_FALSE(applyAt(rules::slideTile2D(10, 7), typed, {}).changed);  // one tile of all
  EXPECT_FALSE(applyAt(rules::slideTileRegisters(10, 7), typed, {}).changed);
  EXPECT_TRUE(applyAt(rules::slideTileRegisters(5, 1), typed, {}).changed);
  EXPECT_FALSE(applyAt(rules::slideTileRegisters(3, 1), typed, {}).changed);
  // the row slide: 10 windows of 3 over 12 rows
  const std::vector<Path> slides = matchPositions(rules::slideTile(5), typed);
  ASSERT_EQ(slides.size(), 1u) << ir::print(typed, {false, 2});
  EXPECT_TRUE(matchPositions(rules::slideTile(4), typed).empty());
  EXPECT_TRUE(matchPositions(rules::slideTile(10), typed).empty());
  // a tile map inside a sequential map is not on the grid
  Case nested = compile(
      "kernel k(g: [[[float]8]8]2) = mapSeq(λ(p => map(map(λ(nbh => reduce(add, 0.0f) <<: join "
      "<<: nbh))) <<: map(transpose) <<: slide(3, 1) <<: map(slide(3, 1)) <<: p)) <<: g\n");
  ExprPtr t2 = ir::inferTypes(nested.kernel->body());
  EXPECT_FALSE(matchPositions(rules::slideTile2D(2, 2), t2).empty());
  EXPECT_TRUE(matchPositions(rules::slideTileRegisters(2, 2), t2).empty());
  EXPECT_TRUE(matchPositions(rules::slideTileLocal(2, 2), t2).empty());
  // a work-group's copy of the tile with its halo: at most 1024 work-items (and 48 KiB)
  Case big = compile(
      "kernel k(g: [[float]64]64) = map(map(λ(nbh => reduce(add, 0.0f) <<: join <<: nbh)))\n"
      "  <<: map(transpose) <<: slide(3, 1) <<: map(slide(3, 1))\n"
      "  <<: transpose <<: map(pad(1, 1, clamp)) <<: transpose <<: map(pad(1, 1, clamp)) <<: g\n");
  ExprPtr tb = ir::inferTypes(big.kernel->body());
  EXPECT_TRUE(applyAt(rules::slideTileLocal(16, 32), tb, {}).changed);    // 18 x 34 = 612
  EXPECT_FALSE(applyAt(rules::slideTileLocal(32, 32), tb, {}).changed);   // 34 x 34 = 1156
  EXPECT_TRUE(applyAt(rules::slideTileRegisters(32, 32), tb, {}).changed);  // no work-group
}

TEST(StencilRules, SucceedIffTheyChangeTheProgram) {
  for (const Rule& rule :
       {rules::slideTile(2), rules::slideTile2D(2, 2), rules::slideTileRegisters(2, 1)})
    testing::applyEverywhere(rule, 1);
}

// The rules by name, with their defaults: slideTile2D(r) is r x r, slideTileRegisters(r) is
// r x 1 (a column of r outputs a work-item).
TEST(StencilRules, NamedWithTheirDefaults) {
  EXPECT_EQ(makeRule("slideTile2D", {4})->name(), "slideTile2D(4, 4)");
  EXPECT_EQ(makeRule("slideTileRegisters", {8})->name(), "slideTileRegisters(8, 1)");
  EXPECT_EQ(makeRule("slideTile", {3})->name(), "slideTile(3)");
  EXPECT_EQ(makeRule("slideTileLocal", {8})->name(), "slideTileLocal(8, 32)");
  std::string error;
  EXPECT_FALSE(makeRule("slideTileRegisters", {0}, &error));
  EXPECT_NE(error.find("must be positive"), std::string::npos) << error;
  EXPECT_FALSE(makeRule("slideTile", {0}, &error));
}

}  // namespace
}  // namespace fftc::rewrites
