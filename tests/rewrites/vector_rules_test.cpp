// vectorize(n) and the vector patterns asVector/asScalar: on random copies (random shapes,
// views around the copy, a computation after it) every application keeps the interpreter's
// result exactly, as written and lowered; it applies iff n divides the copied size. On the
// staged GEMM (stageLocal's two local copies) it vectorizes both copies and keeps the result.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compiler/frontend/frontend.h"
#include "ir/infer.h"
#include "ir/printer.h"
#include "rewrites/equality.h"
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

using testing::kernelOf;

size_t occurrences(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

bool isCopy(const FunPtr& f) {
  if (f->is<ir::Id>()) return true;
  const auto* l = f->as<ir::Lambda>();
  return l && l->arity() == 1 && l->body().get() == l->params()[0].get();
}

std::vector<ir::Value> inputs(const ir::LambdaPtr& k, std::mt19937_64& rng) {
  std::vector<ir::Value> in;
  for (const auto& p : k->params()) in.push_back(randomValue(p->type(), rng));
  return in;
}

// A generalized matrix product of A: [[float]K]m and B: [[float]n]K whose dot product is one
// of four folds, order-sensitive ones and both zip orders among them, drawn from rng.
std::string randomMatrixProduct(int m, int n, int K, std::mt19937_64& rng) {
  static const char* const folds[] = {
      "reduce(add, 0.0f) <<: map(mult) <<: zip(x, y)",
      "reduce(λ((a, p) => a * 0.5f + p._0 - 2.0f * p._1), 1.0f) <<: zip(x, y)",
      "reduceSeq(λ((a, p) => a + p._1 * p._0), 0.25f) <<: zip(y, x)",
      "reduce(λ((a, p) => a * p._1 + p._0), 1.0f) <<: zip(y, x)"};
  return "kernel k(A: [[float]" + std::to_string(K) + "]" + std::to_string(m) + ", B: [[float]" +
         std::to_string(n) + "]" + std::to_string(K) + ") =\n  map(λ(x => map(λ(y => " +
         folds[rng() % 4] + ")) <<: transpose <<: B)) <<: A\n";
}

// A random program with copies (map(λ(v => v)) or map(id)) of rows, columns or flattened
// arrays of x: [[float]c]r, maybe followed by a computation.
std::string randomCopy(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const int r = 1 + pick(6), c = 1 + pick(8);
  const std::string copy = pick(2) ? "map(λ(v => v))" : "map(id)";
  std::string body;
  switch (pick(5)) {
    case 0:
      body = "map(λ(row => " + copy + " <<: row)) <<: x";
      break;
    case 1:
      body = copy + " <<: join <<: x";
      break;
    case 2:
      body = "map(λ(col => " + copy + " <<: col)) <<: transpose <<: x";
      break;
    case 3:
      body = "map(λ(row => map(λ(v => v * 2.0f - 1.0f)) <<: " + copy + " <<: row)) <<: x";
      break;
    default:
      body = "split(" + std::to_string(c) + ") <<: " + copy + " <<: join <<: x";
      break;
  }
  return "kernel k(x: [[float]" + std::to_string(c) + "]" + std::to_string(r) + ") =\n  " + body +
         "\n";
}

TEST(VectorRules, VectorizeKeepsTheResultExactlyAndAppliesIffTheWidthDivides) {
  std::mt19937_64 rng(2626);
  int applied = 0, refused = 0;
  for (int i = 0; i < 150; ++i) {
    const std::string text = randomCopy(rng);
    const ir::LambdaPtr k = kernelOf(text);
    ExprPtr typed = ir::inferTypes(k->body());
    for (int n : {2, 4}) {
      const Rule rule = rules::vectorize(n);
      for (const Path& at : allPaths(typed)) {
        Applied a = applyAt(rule, typed, at);
        const ExprPtr here = exprAt(typed, at);
        const auto* call = here->as<ir::FunCall>();
        const bool copyMap = call && call->f()->as<ir::AbstractMap>() && here->type().isArray() &&
                             here->type().element().isScalar();
        if (!a.changed) {
          ASSERT_EQ(a.program, typed);
          if (copyMap && isCopy(call->f()->as<ir::AbstractMap>()->f())) {
            // a copy it refuses: n does not divide its size
            EXPECT_NE(*here->type().size().constant() % n, 0) << text << pathStr(at);
            ++refused;
          }
          continue;
        }
        ASSERT_TRUE(copyMap) << text << pathStr(at);
        EXPECT_EQ(*here->type().size().constant() % n, 0);
        // the vectors are typed as such, and the whole program keeps its type
        const std::string printed = ir::print(a.program, {false, 2});
        EXPECT_NE(printed.find("asVector(" + std::to_string(n) + ")"), std::string::npos)
            << printed;
        EXPECT_NE(printed.find("asScalar"), std::string::npos) << printed;
        EXPECT_EQ(a.program->type(), typed->type());
        RewriteResult low = rewrite(a.program, lowerDefault());
        ASSERT_TRUE(low.success);
        for (int trial = 0; trial < 2; ++trial) {
          auto in = inputs(k, rng);
          const ir::Value want = runProgram(typed, k->params(), in);
          std::string why;
          ASSERT_TRUE(valuesClose(want, runProgram(a.program, k->params(), in), 0.0, &why))
              << why << "\nvectorize(" << n << ") at " << pathStr(at) << " of\n"
              << text;
          ASSERT_TRUE(valuesClose(want, runProgram(low.program, k->params(), in), 0.0, &why))
              << why << "\nvectorize(" << n << ") at " << pathStr(at) << "; lowerDefault of\n"
              << text << ir::print(low.program, {false, 2});
        }
        ++applied;
      }
    }
  }
  EXPECT_GE(applied, 60);
  EXPECT_GE(refused, 30);
}

TEST(VectorRules, SucceedIffTheyChangeTheProgram) {
  for (const Rule& rule : {rules::vectorize(2), rules::vectorize(4), rules::vectorizeOperand(2),
                           rules::vectorizeOperand(4), rules::stageLocalVector(2),
                           rules::prefetchChunks(), rules::stageLocalPrefetch(4)})
    testing::applyEverywhere(rule, 7);
  // the random programs hold copies of arrays (map(id)) that vectorize applies to
  EXPECT_GT(testing::applyEverywhere(rules::vectorize(2), 7), 0) << "vectorize(2) never applied";
}

// The vector patterns in the language: asVector(n) is split(n) typed as vectors, asScalar
// joins vectors only; widths beyond 16 bytes and joins that mix them up are type errors.
TEST(VectorRules, TheVectorTypesAreChecked) {
  const ir::LambdaPtr k =
      kernelOf("kernel k(x: [float]8) = asScalar <<: map(λ(v => v)) <<: asVector(4) <<: x\n");
  ExprPtr typed = ir::inferTypes(k->body());
  EXPECT_EQ(typed->type().str(), "[float]8");
  const auto* outer = typed->as<ir::FunCall>();
  ASSERT_TRUE(outer);
  EXPECT_EQ(outer->arg(0)->type().str(), "[<float>4]2");
  EXPECT_TRUE(outer->arg(0)->type().element().isVector());
  auto error = [](const std::string& text) {
    try {
      ir::inferTypes(kernelOf(text)->body());
    } catch (const ir::CompileError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("kernel k(x: [float]8) = join <<: asVector(4) <<: x\n").find("asScalar"),
            std::string::npos);
  EXPECT_NE(error("kernel k(x: [[float]4]2) = asScalar <<: x\n").find("array of vectors"),
            std::string::npos);
  EXPECT_NE(error("kernel k(x: [double]8) = asVector(4) <<: x\n").find("16 bytes"),
            std::string::npos);
  EXPECT_NE(error("kernel k(x: [float]6) = asVector(4) <<: x\n").find("does not divide"),
            std::string::npos);
  EXPECT_NE(error("kernel k(x: [float]24) = asVector(3) <<: x\n").find("2 or 4"),
            std::string::npos);
  EXPECT_NE(error("kernel k(x: [[float]4]2) = asVector(2) <<: x\n").find("array of scalars"),
            std::string::npos);
}

// stageLocal's two copies into local memory (B's chunk row by row, A's stored transposed),
// vectorized one by one: exactly the interpreter's result, as written and lowered.
TEST(VectorRules, VectorizedStagedTilesKeepTheResultExactly) {
  std::mt19937_64 rng(2627);
  const std::string text =
      "kernel k(A: [[float]8]16, B: [[float]16]8) =\n"
      "  map(λ(x => map(λ(y => reduce(λ((a, p) => a * 0.5f + p._0 * p._1), 1.0f) <<: zip(x, y)))"
      " <<: transpose <<: B)) <<: A\n";
  const ir::LambdaPtr k = kernelOf(text);
  ExprPtr typed = ir::inferTypes(k->body());
  RewriteResult staged =
      rewrite(typed, parseStrategy("tile2D(8); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], "
                                   "registerBlock(2)); at([0, 1, 0, 0, 0, 1], stageLocal(4))"));
  ASSERT_TRUE(staged.success);
  for (int n : {2, 4}) {
    const std::vector<Path> copies = matchPositions(rules::vectorize(n), staged.program);
    ASSERT_EQ(copies.size(), 2u) << ir::print(staged.program, {false, 2});
    ExprPtr p = staged.program;
    // apply at the deeper position first, so that the other path stays valid
    for (size_t i = copies.size(); i-- > 0;) {
      Applied a = applyAt(rules::vectorize(n), p, copies[i]);
      ASSERT_TRUE(a.changed);
      p = a.program;
    }
    EXPECT_TRUE(matchPositions(rules::vectorize(n), p).empty());
    RewriteResult low = rewrite(p, lowerDefault());
    ASSERT_TRUE(low.success);
    for (int trial = 0; trial < 3; ++trial) {
      auto in = inputs(k, rng);
      const ir::Value want = runProgram(typed, k->params(), in);
      std::string why;
      ASSERT_TRUE(valuesClose(want, runProgram(p, k->params(), in), 0.0, &why)) << why;
      ASSERT_TRUE(valuesClose(want, runProgram(low.program, k->params(), in), 0.0, &why))
          << why << ir::print(low.program, {false, 2});
    }
  }
}

// A random generalized matrix product (order-sensitive folds, both zip orders), register
// blocked in work-groups: vectorizeOperand at every reduction where it applies, and
// stageLocalVector(k) where stageLocal(k) applies and 4 divides the copied rows, keep the
// interpreter's result exactly, as written and lowered.
TEST(VectorRules, VectorizedOperandsAndStagingKeepTheResultExactly) {
  std::mt19937_64 rng(2628);
  int operands = 0, staged = 0, refused = 0;
  for (int i = 0; i < 30; ++i) {
    const int r = 2 * (1 + static_cast<int>(rng() % 2)), c = 2 * (1 + static_cast<int>(rng() % 2));
    const int m = 2 * r * 2, n = 4 * c;
    const int kk = 2 * (1 + static_cast<int>(rng() % 3)),
              K = kk * (1 + static_cast<int>(rng() % 3));
    const std::string text = randomMatrixProduct(m, n, K, rng);
    const std::string block = "(" + std::to_string(r) + ", " + std::to_string(c) + ")";
    const std::string s = "tile2D(" + std::to_string(m / 2) + ", " + std::to_string(n / 2) +
                          "); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock" + block +
                          ")";
    const ir::LambdaPtr k = kernelOf(text);
    ExprPtr typed = ir::inferTypes(k->body());
    RewriteResult blocked = rewrite(typed, parseStrategy(s));
    ASSERT_TRUE(blocked.success) << s << "\n" << text;
    std::vector<ExprPtr> variants;
    for (int w : {2, 4})
      for (const Path& at : matchPositions(rules::vectorizeOperand(w), blocked.program)) {
        Applied a = applyAt(rules::vectorizeOperand(w), blocked.program, at);
        ASSERT_TRUE(a.changed);
        // its copies are read through asVector only: not copied again (normalize settles)
        EXPECT_FALSE(applyAt(rules::vectorizeOperand(w), a.program, at).changed) << text;
        variants.push_back(a.program);
        ++operands;
      }
    const Path at = {0, 1, 0, 0, 0, 1};
    Applied plain = applyAt(rules::stageLocal(kk), blocked.program, at);
    Applied vec = applyAt(rules::stageLocalVector(kk), blocked.program, at);
    // the copies' rows: A's chunk rows of kk, B's of the tile's n / 2 columns
    const bool fits = kk % 4 == 0 && (n / 2) % 4 == 0;
    EXPECT_EQ(vec.changed, plain.changed && fits) << s << "; stageLocalVector(" << kk << ")\n"
                                                  << text;
    if (vec.changed) {
      const std::string printed = ir::print(vec.program, {false, 2});
      // the two copies, the blocks' columns of A and B where 4 divides them, and where 4
      // divides a block's row, its copy into the result
      EXPECT_EQ(occurrences(printed, "asVector(4)"), 2u + (r % 4 == 0) + 2 * (c % 4 == 0))
          << printed;
      variants.push_back(vec.program);
      ++staged;
    } else {
      ++refused;
    }
    for (const ExprPtr& v : variants) {
      RewriteResult low = rewrite(v, lowerDefault());
      ASSERT_TRUE(low.success);
      auto in = inputs(k, rng);
      const ir::Value want = runProgram(typed, k->params(), in);
      std::string why;
      ASSERT_TRUE(valuesClose(want, runProgram(v, k->params(), in), 0.0, &why))
          << why << "\n"
          << s << "\n"
          << text << ir::print(v, {false, 2});
      ASSERT_TRUE(valuesClose(want, runProgram(low.program, k->params(), in), 0.0, &why))
          << why << "\n"
          << s << "; lowerDefault\n"
          << text << ir::print(low.program, {false, 2});
    }
  }
  EXPECT_GE(operands, 30);
  EXPECT_GE(staged, 5);
  EXPECT_GE(refused, 3);
}

// registerBlockVector's blocks (their columns in groups of 4 adjacent ones), staged with
// stageLocalVector(k): the blocks' columns of B are read as vectors too (as over registerBlock's
// strided columns, whose vectors codegen reads element by element), and the blocks' rows are
// written to the result 4 at a time (asVector(4): the copies, B's and A's columns, C's rows);
// exact, as written and lowered, for order-sensitive folds in both zip orders.
TEST(VectorRules, GroupedBlocksStagedAsVectorsKeepTheResultExactly) {
  std::mt19937_64 rng(2619);
  int staged = 0;
  for (int i = 0; i < 16; ++i) {
    const int r = 2 * (1 + static_cast<int>(rng() % 2)), c = 4 * (1 + static_cast<int>(rng() % 2));
    const int m = 2 * r * 2, n = 4 * c;
    const int kk = 4, K = kk * (2 + static_cast<int>(rng() % 2));
    const std::string text = randomMatrixProduct(m, n, K, rng);
    const std::string s = "tile2D(" + std::to_string(m / 2) + ", " + std::to_string(n / 2) +
                          "); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlockVector(" +
                          std::to_string(r) + ", " + std::to_string(c) + "))";
    const ir::LambdaPtr k = kernelOf(text);
    ExprPtr typed = ir::inferTypes(k->body());
    RewriteResult blocked = rewrite(typed, parseStrategy(s));
    ASSERT_TRUE(blocked.success) << s << "\n" << text;
    const Path at = {0, 1, 0, 0, 0, 1};
    for (bool vector : {false, true}) {
      Applied a = applyAt(vector ? rules::stageLocalVector(kk) : rules::stageLocal(kk),
                          blocked.program, at);
      ASSERT_TRUE(a.changed) << s << "\n" << text << ir::print(blocked.program, {false, 2});
      if (vector) {
        const std::string printed = ir::print(a.program, {false, 2});
        EXPECT_EQ(occurrences(printed, "asVector(4)"), 4u + (r % 4 == 0)) << printed;
      }
      RewriteResult low = rewrite(a.program, lowerDefault());
      ASSERT_TRUE(low.success);
      auto in = inputs(k, rng);
      const ir::Value want = runProgram(typed, k->params(), in);
      std::string why;
      ASSERT_TRUE(valuesClose(want, runProgram(a.program, k->params(), in), 0.0, &why))
          << why << "\n" << s << "\n" << text << ir::print(a.program, {false, 2});
      ASSERT_TRUE(valuesClose(want, runProgram(low.program, k->params(), in), 0.0, &why))
          << why << "\n" << s << "; lowerDefault\n" << text << ir::print(low.program, {false, 2});
      ++staged;
    }
  }
  EXPECT_EQ(staged, 32);
}

// prefetchChunks on stageLocal's and stageLocalVector's reduction over the chunks (random
// generalized matrix products: order-sensitive folds, both zip orders): it applies at exactly
// that reduction, once (reduceSeqPrefetch is not rewritten again), nowhere before the staging,
// and the result is the interpreter's exactly, as written and lowered.
TEST(VectorRules, PrefetchedChunksKeepTheResultExactly) {
  std::mt19937_64 rng(2629);
  int prefetched = 0;
  for (int i = 0; i < 16; ++i) {
    const int r = 2 * (1 + static_cast<int>(rng() % 2)), c = 4 * (1 + static_cast<int>(rng() % 2));
    const int m = 2 * r * 2, n = 4 * c;
    const int kk = 4, K = kk * (2 + static_cast<int>(rng() % 2));
    const std::string text = randomMatrixProduct(m, n, K, rng);
    const std::string block = rng() % 2 ? "registerBlock" : "registerBlockVector";
    const std::string s = "tile2D(" + std::to_string(m / 2) + ", " + std::to_string(n / 2) +
                          "); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], " + block + "(" +
                          std::to_string(r) + ", " + std::to_string(c) + "))";
    const ir::LambdaPtr k = kernelOf(text);
    ExprPtr typed = ir::inferTypes(k->body());
    RewriteResult blocked = rewrite(typed, parseStrategy(s));
    ASSERT_TRUE(blocked.success) << s << "\n" << text;
    EXPECT_TRUE(matchPositions(rules::prefetchChunks(), blocked.program).empty());
    for (bool vector : {false, true}) {
      Applied staged = applyAt(vector ? rules::stageLocalVector(kk) : rules::stageLocal(kk),
                               blocked.program, {0, 1, 0, 0, 0, 1});
      ASSERT_TRUE(staged.changed) << s << "\n" << text;
      const std::vector<Path> at = matchPositions(rules::prefetchChunks(), staged.program);
      ASSERT_EQ(at.size(), 1u) << ir::print(staged.program, {false, 2});
      // the reduction over the chunks, under the copy of the blocks into the result
      EXPECT_EQ(at[0], (Path{0, 1, 0, 0, 0, 1, 1}));
      Applied a = applyAt(rules::prefetchChunks(), staged.program, at[0]);
      ASSERT_TRUE(a.changed);
      // the macro: stageLocalVector and prefetchChunks in one step
      if (vector) {
        Applied macro = applyAt(rules::stageLocalPrefetch(kk), blocked.program, {0, 1, 0, 0, 0, 1});
        ASSERT_TRUE(macro.changed);
        EXPECT_TRUE(alphaEqual(macro.program, a.program))
            << ir::print(macro.program, {false, 2}) << ir::print(a.program, {false, 2});
        EXPECT_FALSE(alphaEqual(macro.program, staged.program));  // the flag counts
      }
      const std::string printed = ir::print(a.program, {false, 2});
      EXPECT_EQ(occurrences(printed, "reduceSeqPrefetch("), 1u) << printed;
      EXPECT_FALSE(applyAt(rules::prefetchChunks(), a.program, at[0]).changed);
      RewriteResult low = rewrite(a.program, lowerDefault());
      ASSERT_TRUE(low.success);
      EXPECT_EQ(occurrences(ir::print(low.program, {false, 2}), "reduceSeqPrefetch("), 1u);
      auto in = inputs(k, rng);
      const ir::Value want = runProgram(typed, k->params(), in);
      std::string why;
      ASSERT_TRUE(valuesClose(want, runProgram(a.program, k->params(), in), 0.0, &why))
          << why << "\n" << s << "\n" << text << printed;
      ASSERT_TRUE(valuesClose(want, runProgram(low.program, k->params(), in), 0.0, &why))
          << why << "\n" << s << "; lowerDefault\n" << text << ir::print(low.program, {false, 2});
      ++prefetched;
    }
  }
  EXPECT_EQ(prefetched, 32);
}

// reduceSeqPrefetch in the language: reduceSeq's meaning and type (the interpreter runs it as
// reduceSeq), printed under its own name; prefetchChunks leaves a reduction that stages no copy
// of its element alone.
TEST(VectorRules, ReduceSeqPrefetchIsReduceSeq) {
  const ir::LambdaPtr k = kernelOf(
      "kernel k(x: [float]8) = reduceSeqPrefetch(λ((a, v) => a * 0.5f + v), 1.0f) <<: x\n");
  ExprPtr typed = ir::inferTypes(k->body());
  EXPECT_EQ(typed->type().str(), "float");
  EXPECT_NE(ir::print(typed, {false, 2}).find("reduceSeqPrefetch("), std::string::npos);
  std::mt19937_64 rng(31);
  auto in = inputs(k, rng);
  const ir::LambdaPtr plain =
      kernelOf("kernel k(x: [float]8) = reduceSeq(λ((a, v) => a * 0.5f + v), 1.0f) <<: x\n");
  std::string why;
  EXPECT_TRUE(valuesClose(runProgram(ir::inferTypes(plain->body()), plain->params(), in),
                          runProgram(typed, k->params(), in), 0.0, &why))
      << why;
  EXPECT_TRUE(matchPositions(rules::prefetchChunks(), typed).empty());
}

}  // namespace
}  // namespace fftc::rewrites
