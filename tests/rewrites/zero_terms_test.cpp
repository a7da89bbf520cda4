// dropZeroTerms on random weighted sums (random sizes, zero positions, zip orders, contexts):
// the interpreter's result does not change, the rewritten sum has exactly as many terms as the
// weights have non-zero elements (counted from the formula, not by the rule), and the rule
// refuses where its side conditions fail.
#include <gtest/gtest.h>

#include <random>
#include <set>
#include <string>

#include "compiler/frontend/frontend.h"
#include "ir/printer.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using testing::randomValue;
using testing::runProgram;
using testing::valuesClose;

using testing::kernelOf;

ExprPtr typed(const ir::LambdaPtr& k) {
  return ir::inferTypes(k->body());
}

// The sizes of the arrays zipped under the program's reductions, innermost first.
std::vector<int64_t> zippedSizes(const ExprPtr& e) {
  std::vector<int64_t> sizes;
  struct Walk : ir::IRVisitor {
    using IRVisitor::visit;
    std::vector<int64_t>* out = nullptr;
    void visit(const ExprPtr& x) override {
      if (const auto* c = x->as<ir::FunCall>(); c && c->f()->is<ir::Zip>())
        out->push_back(*x->type().size().constant());
      visitChildren(x);
    }
  } walk;
  walk.out = &sizes;
  walk.visit(e);
  return sizes;
}

struct Case {
  std::string text;
  int64_t nonZero;  // the weights' non-zero elements, from the roots of their formula
};

// A random weighted sum: weights w(i) = s (i + 1) (i - a) (i - b) ..., zero exactly at the
// roots inside 0 .. n-1; summed against the rows of a matrix, or against a sliding window of a
// clamped vector (a 1D stencil); the zip in either order.
Case randomCase(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  const int n = 2 + pick(9), roots = 1 + pick(3);
  std::set<int> zeros;
  std::string formula = "0.5f * (i + 1)";
  for (int r = 0; r < roots; ++r) {
    const int a = pick(n + 2);  // n and n + 1 are no element's index
    if (a < n) zeros.insert(a);
    formula += " * (i - " + std::to_string(a) + ")";
  }
  std::string w = "array(" + std::to_string(n) + ", fun i => " + formula + ")";
  const bool swap = pick(2) == 0;
  auto sum = [&](const std::string& y) {
    return "reduce(add, 0.0f) <<: map(mult) <<: zip(" + (swap ? y + ", " + w : w + ", " + y) + ")";
  };
  std::string text;
  if (pick(2) == 0) {
    const int m = 1 + pick(5);
    text = "kernel k(X: [[float]" + std::to_string(n) + "]" + std::to_string(m) +
           ") = map(λ(row => " + sum("row") + ")) <<: X\n";
  } else {
    const int len = 1 + pick(8), l = pick(n), r = n - 1 - l;
    text = "kernel k(x: [float]" + std::to_string(len) + ") = map(λ(win => " + sum("win") +
           ")) <<: slide(" + std::to_string(n) + ", 1) <<: pad(" + std::to_string(l) + ", " +
           std::to_string(r) + ", clamp) <<: x\n";
  }
  return {text, n - static_cast<int64_t>(zeros.size())};
}

TEST(DropZeroTerms, RandomWeightedSumsKeepTheirValue) {
  std::mt19937_64 rng(2611);
  int changed = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const Case c = randomCase(rng);
    SCOPED_TRACE(c.text);
    const ir::LambdaPtr k = kernelOf(c.text);
    const ExprPtr before = typed(k);
    const RewriteResult r = rewrite(before, topDown(rules::dropZeroTerms()));
    const std::vector<int64_t> sizes = zippedSizes(r.program);
    ASSERT_EQ(sizes.size(), 1u);
    if (c.nonZero == 0) {  // every weight zero: the rule leaves the sum alone
      EXPECT_FALSE(r.success);
      continue;
    }
    ASSERT_EQ(r.success, c.nonZero < *zippedSizes(before).begin());
    EXPECT_EQ(sizes[0], c.nonZero) << ir::print(r.program, {false, 2});
    changed += r.success ? 1 : 0;
    // applied once, the weights have no zero left: the rule does not apply again
    EXPECT_FALSE(rewrite(r.program, topDown(rules::dropZeroTerms())).success);
    // finite inputs: the same sums, up to rounding (the terms are added in the same order)
    const ExprPtr lowered = rewrite(r.program, seq(lowerDefault(), unrollSmall())).program;
    for (int input = 0; input < 2; ++input) {
      std::vector<ir::Value> args;
      for (const auto& p : k->params()) args.push_back(randomValue(p->type(), rng));
      const ir::Value want = runProgram(before, k->params(), args);
      std::string why;
      ASSERT_TRUE(valuesClose(want, runProgram(r.program, k->params(), args), 1e-5, &why)) << why;
      ASSERT_TRUE(valuesClose(want, runProgram(lowered, k->params(), args), 1e-5, &why)) << why;
    }
  }
  EXPECT_GE(changed, 150);
}

TEST(DropZeroTerms, TheFivePointCrossOfAThreeByThreeWindow) {
  // the weights of examples/stencil2d.fdl's stencil2dCross: 0 at the four corners
  const ir::LambdaPtr k = kernelOf(R"(
def pad2(l, r, b) = λ(m => transpose <<: map(pad(l, r, b)) <<: transpose <<: map(pad(l, r, b)) <<: m)
def slide2(s, t) = λ(m => map(transpose) <<: slide(s, t) <<: map(slide(s, t)) <<: m)
def cross = array2(3, 3, fun (i, j) => 0.2f * (1 - (i - 1) * (i - 1) * (j - 1) * (j - 1)))
kernel k(g: [[float]7]5) = map(map(λ(nbh => reduce(add, 0.0f) <<: map(mult)
    <<: zip(join(cross), join(nbh))))) <<: slide2(3, 1) <<: pad2(1, 1, clamp) <<: g
)");
  const ExprPtr before = typed(k);
  const RewriteResult r = rewrite(before, topDown(rules::dropZeroTerms()));
  ASSERT_TRUE(r.success);
  EXPECT_EQ(zippedSizes(r.program), std::vector<int64_t>{5});
  std::mt19937_64 rng(5);
  std::vector<ir::Value> args{randomValue(k->params()[0]->type(), rng)};
  std::string why;
  EXPECT_TRUE(valuesClose(runProgram(before, k->params(), args),
                          runProgram(r.program, k->params(), args), 1e-6, &why))
      << why;
}

TEST(DropZeroTerms, RefusesWhereTheSideConditionsFail) {
  auto refuses = [](const std::string& text) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(rewrite(typed(kernelOf(text)), topDown(rules::dropZeroTerms())).success);
  };
  const std::string w = "array(4, fun i => 1.0f * (i - 2))";  // zero at i = 2
  // the weights are an input, not a constant
  refuses("kernel k(w: [float]4, y: [float]4) = reduce(add, 0.0f) <<: map(mult) <<: zip(w, y)\n");
  // not a sum: a product of the terms is 0 whenever one term is
  refuses("kernel k(y: [float]4) = reduce(mult, 1.0f) <<: map(mult) <<: zip(" + w + ", y)\n");
  // not products: w(i) + y(i) is y(i) at a zero weight, not 0
  refuses("kernel k(y: [float]4) = reduce(add, 0.0f) <<: map(add) <<: zip(" + w + ", y)\n");
  // no zero weight
  refuses("kernel k(y: [float]4) = reduce(add, 0.0f) <<: map(mult) <<: zip(array(4, fun i => "
          "1.0f * (i + 1)), y)\n");
  // every weight zero (the sum is z; the rule keeps at least one term)
  refuses("kernel k(y: [float]4) = reduce(add, 0.0f) <<: map(mult) <<: zip(array(4, fun i => "
          "0.0f * i), y)\n");
  // the weights read the input: not closed
  refuses("kernel k(y: [float]4) = reduce(add, 0.0f) <<: map(mult) <<: zip(map(λ(v => v * "
          "0.0f)) <<: y, y)\n");
}

}  // namespace
}  // namespace fftc::rewrites
