// tile2D, tile2DStride, mapReduceInterchange and registerBlock on random matrix-product-like
// programs (random sizes, zip orders, reduction functions, maps between reduce and zip): the
// interpreter's result does not change, alone or composed into a register-blocked, lowered program;
// each rule succeeds iff it changes the program, also on the shared random-program pool.
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

namespace fe = compiler::frontend;
using testing::randomValue;
using testing::runProgram;
using testing::valuesClose;

struct Case {
  std::string text;
  ir::LambdaPtr kernel;  // typed params; body as elaborated
};

// A random "generalized matrix product": C[i][j] = fold of f over zip(rows of A, columns of
// B, and maybe a vector w) in a random order, with or without a map(g) before the fold.
Case randomCase(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const int m = 1 + pick(6), n = 1 + pick(6), k = 1 + pick(5);
  const bool third = pick(3) == 0;
  std::vector<std::string> args = {"x", "y"};
  if (third) args.push_back("w");
  std::shuffle(args.begin(), args.end(), rng);
  auto at = [&](const std::string& a) {
    return std::to_string(std::find(args.begin(), args.end(), a) - args.begin());
  };
  std::string zip = "zip(" + args[0];
  for (size_t i = 1; i < args.size(); ++i) zip += ", " + args[i];
  zip += ")";
  std::string fold;
  switch (pick(4)) {
    case 0:  // the dot product, through a map
      fold = third ? "reduce(add, 0.0f) <<: map(λ(p => p._" + at("x") + " * p._" + at("y") +
                         " - p._" + at("w") + ")) <<: "
                   : "reduce(add, 0.0f) <<: map(mult) <<: ";
      break;
    case 1:  // order-sensitive: a Horner-like fold
      fold = "reduce(λ((a, p) => a * 0.5f + p._" + at("x") + " - 2.0f * p._" + at("y") +
             "), 1.0f) <<: ";
      break;
    case 2:  // already sequential
      fold = "reduceSeq(λ((a, p) => a + p._" + at("x") + " * p._" + at("y") + "), 0.25f) <<: ";
      break;
    default:  // multiplicative, order-sensitive in rounding
      fold = "reduce(λ((a, p) => a * p._" + at("x") + " + p._" + at("y") + "), 1.0f) <<: ";
      break;
  }
  std::string text = "kernel k(A: [[float]" + std::to_string(k) + "]" + std::to_string(m) +
                     ", B: [[float]" + std::to_string(n) + "]" + std::to_string(k) +
                     ", w: [float]" + std::to_string(k) + ") =\n  map(λ(x => map(λ(y => " + fold +
                     zip + ")) <<: transpose <<: B)) <<: A\n";
  fe::Program p = fe::compileSource(text, "random.fdl", {});
  return {text, p.kernels.at(0).lambda};
}

ir::Value run(const ExprPtr& body, const ir::LambdaPtr& k, const std::vector<ir::Value>& in) {
  return runProgram(body, k->params(), in);
}

std::vector<ir::Value> inputs(const ir::LambdaPtr& k, std::mt19937_64& rng) {
  std::vector<ir::Value> in;
  for (const auto& p : k->params()) in.push_back(randomValue(p->type(), rng));
  return in;
}

// Every rule of `rules`, at every position where it applies, keeps the result.
void checkEveryApplication(const std::vector<Rule>& rules, int wantMatches) {
  std::mt19937_64 rng(26);
  int matched = 0;
  for (int i = 0; i < 120; ++i) {
    Case c = randomCase(rng);
    ExprPtr typed = ir::inferTypes(c.kernel->body());
    for (const Rule& rule : rules) {
      for (const Path& at : matchPositions(rule, typed)) {
        Applied a = applyAt(rule, typed, at);
        ASSERT_TRUE(a.changed);
        auto in = inputs(c.kernel, rng);
        std::string why;
        ASSERT_TRUE(valuesClose(run(typed, c.kernel, in), run(a.program, c.kernel, in), 1e-6, &why))
            << why << "\n"
            << rule.name() << " at " << pathStr(at) << " of\n"
            << c.text << "after:\n"
            << ir::print(a.program, {false, 2});
        ++matched;
      }
    }
  }
  EXPECT_GE(matched, wantMatches);
}

TEST(TilingRules, Tile2DKeepsTheResult) {
  checkEveryApplication(
      {rules::tile2D(1, 1), rules::tile2D(2, 3), rules::tile2D(3, 2), rules::tile2D(2, 2)}, 60);
}

TEST(TilingRules, Tile2DStrideKeepsTheResult) {
  checkEveryApplication({rules::tile2DStride(1, 1), rules::tile2DStride(2, 3),
                         rules::tile2DStride(3, 2), rules::tile2DStride(2, 2)},
                        60);
}

// The macro rule: the strided tiling and both interchanges in one step, exactly (no
// reassociation), wherever it applies.
TEST(TilingRules, RegisterBlockKeepsTheResultExactly) {
  checkEveryApplication({rules::registerBlock(1, 1), rules::registerBlock(2, 3),
                         rules::registerBlock(3, 2), rules::registerBlock(2, 2)},
                        60);
}

// The tiles' columns in groups of w adjacent ones (w = 1: tile2DStride), alone and register
// blocked; registerBlockVector's groups of 4 floats.
TEST(TilingRules, Tile2DStrideGroupsKeepsTheResult) {
  checkEveryApplication({rules::tile2DStrideGroups(1, 2, 2), rules::tile2DStrideGroups(2, 2, 2),
                         rules::tile2DStrideGroups(1, 4, 2), rules::tile2DStrideGroups(2, 3, 3),
                         rules::tile2DStrideGroups(3, 2, 1), rules::tile2DStrideGroups(1, 6, 3)},
                        60);
}

TEST(TilingRules, RegisterBlockGroupsKeepsTheResultExactly) {
  checkEveryApplication(
      {rules::registerBlockGroups(1, 2, 2), rules::registerBlockGroups(2, 2, 2),
       rules::registerBlockGroups(1, 4, 2), rules::registerBlockGroups(2, 3, 3),
       rules::registerBlockGroups(3, 2, 1), rules::registerBlockVector(1, 4),
       rules::registerBlockVector(2, 4)},
      60);
}

// Group widths that do not divide the block's columns: no change.
TEST(TilingRules, GroupsMustDivideTheBlock) {
  ExprPtr typed = ir::inferTypes(
      fe::compileSource("kernel k(A: [[float]4]4, B: [[float]8]4) =\n"
                        "  map(λ(x => map(λ(y => reduce(add, 0.0f) <<: map(mult) <<: zip(x, y)))"
                        " <<: transpose <<: B)) <<: A\n",
                        "g.fdl", {})
          .kernels.at(0)
          .lambda->body());
  EXPECT_FALSE(applyAt(rules::tile2DStrideGroups(2, 4, 3), typed, {}).changed);
  EXPECT_FALSE(applyAt(rules::registerBlockGroups(2, 2, 4), typed, {}).changed);
  EXPECT_FALSE(applyAt(rules::registerBlockVector(2, 2), typed, {}).changed);  // 4 floats
  EXPECT_TRUE(applyAt(rules::registerBlockVector(2, 4), typed, {}).changed);
  EXPECT_TRUE(applyAt(rules::registerBlockGroups(2, 4, 2), typed, {}).changed);
}

TEST(TilingRules, MapReduceInterchangeKeepsTheResultExactly) {
  // the inner map (over columns) matches in every case; the outer only after the inner
  checkEveryApplication({rules::mapReduceInterchange()}, 100);
}

// The zip-free form: map(fun x => reduce(f, z) <<: [map(g) <<:] x) <<: A becomes one reduction
// over the columns of A with an accumulator per row, for add, mult and a lambda, and lowered.
TEST(TilingRules, MapReduceInterchangeOfBareRowsKeepsTheResult) {
  std::mt19937_64 rng(261);
  const char* folds[] = {"reduce(add, 0.0f)", "reduce(mult, 1.0f)",
                         "reduce(λ((a, v) => a * 0.5f + v), 0.25f)"};
  int checked = 0;
  for (int i = 0; i < 30; ++i) {
    const int m = 1 + static_cast<int>(rng() % 5), k = 1 + static_cast<int>(rng() % 6);
    const bool g = rng() % 2 == 0;
    const std::string text = "kernel k(A: [[float]" + std::to_string(k) + "]" + std::to_string(m) +
                             ") = map(λ(x => " + folds[rng() % 3] +
                             (g ? " <<: map(λ(v => v * v + 1.0f))" : "") + " <<: x)) <<: A\n";
    fe::Program p = fe::compileSource(text, "bare.fdl", {});
    const ir::LambdaPtr kernel = p.kernels.at(0).lambda;
    ExprPtr typed = ir::inferTypes(kernel->body());
    Applied a = applyAt(rules::mapReduceInterchange(), typed, {});
    ASSERT_TRUE(a.changed) << text;
    ExprPtr low = rewrite(a.program, lowerDefault()).program;
    auto in = inputs(kernel, rng);
    std::string why;
    const ir::Value want = run(typed, kernel, in);
    ASSERT_TRUE(valuesClose(want, run(a.program, kernel, in), 1e-6, &why)) << why << "\n" << text;
    ASSERT_TRUE(valuesClose(want, run(low, kernel, in), 1e-6, &why)) << why << "\n" << text;
    ++checked;
  }
  EXPECT_EQ(checked, 30);
}

// tile2D, then both interchanges inside each tile (the register block), then lowerDefault:
// the same result, with one reduction per tile whose accumulator is the r x c block.
TEST(TilingRules, RegisterBlockedAndLoweredKeepsTheResult) {
  std::mt19937_64 rng(7);
  int blocked = 0;
  for (int i = 0; i < 80; ++i) {
    Case c = randomCase(rng);
    const auto& shape = c.kernel->params()[0]->type();
    const int64_t m = *shape.size().constant();
    const int64_t n = *c.kernel->params()[1]->type().element().size().constant();
    const int64_t r = m % 2 == 0 ? 2 : 1, cc = n % 3 == 0 ? 3 : (n % 2 == 0 ? 2 : 1);
    if (r == m && cc == n) continue;  // a single tile: tile2D does not apply
    const std::string s = "topDown(tile2D(" + std::to_string(r) + ", " + std::to_string(cc) +
                          ")); bottomUp(mapReduceInterchange); bottomUp(mapReduceInterchange)";
    ExprPtr typed = ir::inferTypes(c.kernel->body());
    RewriteResult res = rewrite(typed, parseStrategy(s));
    ASSERT_TRUE(res.success) << s << "\n" << c.text;
    RewriteResult low = rewrite(res.program, lowerDefault());
    ASSERT_TRUE(low.success);
    // one reduction per tile, over the K columns, with an [[float]cc]r accumulator
    int arrayAccumulators = 0;
    testing::forEachFun(low.program, [&](const ir::FunDecl& f, const auto&) {
      if (const auto* red = f.as<ir::AbstractReduce>())
        arrayAccumulators += red->init()->type().isArray();
    });
    EXPECT_EQ(arrayAccumulators, 1) << ir::print(low.program, {false, 2});
    for (int trial = 0; trial < 2; ++trial) {
      auto in = inputs(c.kernel, rng);
      std::string why;
      ASSERT_TRUE(valuesClose(run(typed, c.kernel, in), run(low.program, c.kernel, in), 1e-6, &why))
          << why << "\n"
          << s << " of\n"
          << c.text << "lowered:\n"
          << ir::print(low.program, {false, 2});
    }
    ++blocked;
  }
  EXPECT_GE(blocked, 60);
}

// registerBlock, then the tile rows on dimension 1 of the grid (the column groups take
// dimension 0) or a work-group per tile of a tile2D with the blocks on its work-items (one
// rule a dimension, or mapGlobal2D / mapWorkgroup2D / mapLocal2D), then
// lowerDefault: the interpreter's result, one reduction with an [[float]c]r accumulator, and
// the strided column reads (consecutive work-items, consecutive columns).
TEST(TilingRules, RegisterBlockedOnTheGridKeepsTheResult) {
  std::mt19937_64 rng(2611);
  int checked = 0;
  for (int i = 0; i < 40; ++i) {
    const int r = 1 + static_cast<int>(rng() % 3), c = 1 + static_cast<int>(rng() % 3);
    // a work-group's tile (half the rows) holds more than one block of rows
    const int m = 2 * r * (1 + (i % 2 == 1 ? 1 : static_cast<int>(rng() % 2))),
              n = 2 * c * (1 + static_cast<int>(rng() % 2)), k = 1 + static_cast<int>(rng() % 5);
    const std::string text = "kernel k(A: [[float]" + std::to_string(k) + "]" + std::to_string(m) +
                             ", B: [[float]" + std::to_string(n) + "]" + std::to_string(k) +
                             ") =\n  map(λ(x => map(λ(y => reduce(add, 0.0f) <<: map(mult) <<: "
                             "zip(x, y))) <<: transpose <<: B)) <<: A\n";
    const std::string block = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
    const std::string tile =
        "tile2D(" + std::to_string(m / 2) + ", " + std::to_string(n / 2) + "); ";
    const std::string s =
        i % 4 == 0   ? "registerBlock" + block + "; at([0, 1], mapGlobal(1)); lowerDefault"
        : i % 4 == 2 ? "registerBlock" + block + "; at([0, 1], mapGlobal2D); lowerDefault"
        : i % 4 == 1 ? tile +
                           "at([0, 1], mapWorkgroup(1)); at([0, 1, 0], mapWorkgroup(0)); "
                           "at([0, 1, 0, 0], registerBlock" +
                           block + "); at([0, 1, 0, 0, 0, 1], mapLocal(1)); lowerDefault"
                     : tile + "at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock" + block +
                           "); at([0, 1, 0, 0, 0, 1], mapLocal2D); lowerDefault";
    fe::Program p = fe::compileSource(text, "rb.fdl", {});
    const ir::LambdaPtr kernel = p.kernels.at(0).lambda;
    ExprPtr typed = ir::inferTypes(kernel->body());
    RewriteResult low = rewrite(typed, parseStrategy(s));
    ASSERT_TRUE(low.success) << s << "\n" << text;
    int arrayAccumulators = 0, local1 = 0;
    testing::forEachFun(low.program, [&](const ir::FunDecl& f, const auto&) {
      if (const auto* red = f.as<ir::AbstractReduce>())
        arrayAccumulators += red->init()->type().isArray();
      local1 += f.kind() == ir::FunKind::MapLocal || f.kind() == ir::FunKind::MapGlobal;
    });
    EXPECT_EQ(arrayAccumulators, 1) << s << "\n" << ir::print(low.program, {false, 2});
    EXPECT_EQ(local1, 2) << s << "\n" << ir::print(low.program, {false, 2});
    auto in = inputs(kernel, rng);
    std::string why;
    ASSERT_TRUE(valuesClose(run(typed, kernel, in), run(low.program, kernel, in), 1e-6, &why))
        << why << "\n"
        << s << " of\n"
        << text << "lowered:\n"
        << ir::print(low.program, {false, 2});
    ++checked;
  }
  EXPECT_EQ(checked, 40);
}

// stageLocal(k) on a work-group's register-blocked tile of random generalized matrix products
// (folds that are order-sensitive, zips in either order, the strided or the contiguous
// tiling): the chunked fold over local copies gives exactly the interpreter's result, as
// written and lowered; where K has no proper divisor k, or the tile is not in a work-group,
// it does not apply.
TEST(TilingRules, StageLocalKeepsTheResultExactly) {
  std::mt19937_64 rng(2612);
  const char* folds[] = {
      "reduce(add, 0.0f) <<: map(mult) <<: zip(x, y)",
      "reduce(λ((a, p) => a * 0.5f + p._0 - 2.0f * p._1), 1.0f) <<: zip(x, y)",
      "reduceSeq(λ((a, p) => a + p._1 * p._0), 0.25f) <<: zip(y, x)",
      "reduce(λ((a, p) => a * p._1 + p._0), 1.0f) <<: zip(y, x)"};
  int staged = 0, refused = 0;
  for (int i = 0; i < 40; ++i) {
    const int r = 1 + static_cast<int>(rng() % 3), c = 1 + static_cast<int>(rng() % 3);
    // a work-group's tile holds two blocks in a row, so that the blocks tile it properly
    const int m = 2 * r * (1 + static_cast<int>(rng() % 2)), n = 4 * c;
    const int k = 1 + static_cast<int>(rng() % 3), K = k * (1 + static_cast<int>(rng() % 3));
    const std::string text = "kernel k(A: [[float]" + std::to_string(K) + "]" + std::to_string(m) +
                             ", B: [[float]" + std::to_string(n) + "]" + std::to_string(K) +
                             ") =\n  map(λ(x => map(λ(y => " + folds[rng() % 4] +
                             ")) <<: transpose <<: B)) <<: A\n";
    const std::string block = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
    const std::string tiling = i % 2 == 0 ? "registerBlock" : "tile2D";  // strided, contiguous
    const std::string s = "tile2D(" + std::to_string(m / 2) + ", " + std::to_string(n / 2) +
                          "); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], " +
                          (i % 2 == 0 ? "registerBlock" + block
                                      : "tile2D" + block + "); at([0, 1, 0, 0, 0, 1, 0, 0, 0], "
                                                           "mapReduceInterchange); at([0, 1, 0, "
                                                           "0, 0, 1, 0, 0], mapReduceInterchange") +
                          ")";
    fe::Program p = fe::compileSource(text, "stage.fdl", {});
    const ir::LambdaPtr kernel = p.kernels.at(0).lambda;
    ExprPtr typed = ir::inferTypes(kernel->body());
    RewriteResult blocked = rewrite(typed, parseStrategy(s));
    ASSERT_TRUE(blocked.success) << s << "\n" << text;
    const Path at = {0, 1, 0, 0, 0, 1};
    Applied a = applyAt(rules::stageLocal(k), blocked.program, at);
    if (k == K) {  // one chunk: nothing to stage
      EXPECT_FALSE(a.changed);
      EXPECT_EQ(a.program, blocked.program);
      ++refused;
      continue;
    }
    ASSERT_TRUE(a.changed) << tiling << " " << s << "\n"
                           << text << ir::print(blocked.program, {false, 2});
    ASSERT_NE(a.program, blocked.program);
    // outside the work-group (the same blocks on the grid) it does not apply
    RewriteResult grid = rewrite(typed, parseStrategy("registerBlock" + block));
    ASSERT_TRUE(grid.success);
    EXPECT_FALSE(applyAt(rules::stageLocal(k), grid.program, {0, 1}).changed);
    RewriteResult low = rewrite(a.program, lowerDefault());
    ASSERT_TRUE(low.success);
    for (int trial = 0; trial < 2; ++trial) {
      auto in = inputs(kernel, rng);
      const ir::Value want = run(typed, kernel, in);
      std::string why;
      ASSERT_TRUE(valuesClose(want, run(a.program, kernel, in), 0.0, &why))
          << why << "\n" << s << "; stageLocal(" << k << ") of\n" << text;
      ASSERT_TRUE(valuesClose(want, run(low.program, kernel, in), 0.0, &why))
          << why << "\n" << s << "; stageLocal(" << k << "); lowerDefault of\n" << text
          << ir::print(low.program, {false, 2});
    }
    ++staged;
  }
  EXPECT_GE(staged, 20);
  EXPECT_GE(refused, 3);
}

TEST(TilingRules, SucceedIffTheyChangeTheProgram) {
  for (const Rule& rule : {rules::tile2D(2, 2), rules::mapReduceInterchange(),
                           rules::tile2DStride(2, 2), rules::registerBlock(2, 2),
                           rules::tile2DStrideGroups(2, 2, 2), rules::registerBlockGroups(2, 2, 2),
                           rules::registerBlockVector(2, 4),
                           rules::mapGlobal2D(), rules::mapWorkgroup2D(), rules::mapLocal2D(),
                           rules::stageLocal(2)})
    testing::applyEverywhere(rule, 1);
  // and on the matrix products, where they do apply
  std::mt19937_64 rng(3);
  for (int i = 0; i < 20; ++i) {
    ExprPtr typed = ir::inferTypes(randomCase(rng).kernel->body());
    const std::vector<Path> where = matchPositions(rules::mapReduceInterchange(), typed);
    ASSERT_EQ(where.size(), 1u) << ir::print(typed, {false, 2});  // the inner map only
    Applied a = applyAt(rules::mapReduceInterchange(), typed, where[0]);
    ASSERT_TRUE(a.changed);
    ASSERT_NE(a.program, typed);
  }
}

// What does not apply: a zipped row the inner map's array depends on (tile2D); the mapped
// element used outside the zip, or twice in it (mapReduceInterchange).
TEST(TilingRules, SideConditions) {
  auto body = [](const std::string& text) {
    return ir::inferTypes(fe::compileSource(text, "t.fdl", {}).kernels.at(0).lambda->body());
  };
  ExprPtr dependent =
      body("kernel k(A: [[float]4]4) = map(λ(x => map(λ(y => y * 2.0f)) <<: x)) <<: A\n");
  EXPECT_FALSE(applyAt(rules::tile2D(2, 2), dependent, {}).changed);
  ExprPtr odd = body(
      "kernel k(A: [[float]4]3, B: [float]4) = map(λ(x => map(λ(y => y * 2.0f)) <<: B)) <<: A\n");
  EXPECT_FALSE(applyAt(rules::tile2D(2, 2), odd, {}).changed);  // 2 does not divide 3
  EXPECT_TRUE(applyAt(rules::tile2D(3, 2), odd, {}).changed);
  ExprPtr twice = body(
      "kernel k(A: [[float]4]3) = map(λ(x => reduce(add, 0.0f) <<: map(mult) <<: zip(x, x))) <<: "
      "A\n");
  EXPECT_FALSE(applyAt(rules::mapReduceInterchange(), twice, {}).changed);
  ExprPtr initUses = body(
      "kernel k(A: [[float]4]3, v: [float]4) =\n"
      "  map(λ(x => reduce(add, 0.0f) <<: map(λ(p => p._0 * p._1 + (reduce(add, 0.0f) <<: x)))\n"
      "    <<: zip(x, v))) <<: A\n");
  EXPECT_FALSE(applyAt(rules::mapReduceInterchange(), initUses, {}).changed);
  ExprPtr ok = body(
      "kernel k(A: [[float]4]3, v: [float]4) =\n"
      "  map(λ(x => reduce(add, 0.0f) <<: map(mult) <<: zip(v, x))) <<: A\n");
  EXPECT_TRUE(applyAt(rules::mapReduceInterchange(), ok, {}).changed);
}

}  // namespace
}  // namespace fftc::rewrites
