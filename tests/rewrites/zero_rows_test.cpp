// The zero-rows rules (rules_zero_rows.cpp) and skipZeroRows on random programs: a matrix padded
// with rows of one value, its rows mapped by a random row function (an fft, an ifft, a scaling,
// an offset, or a product with an input, which is not closed), maybe transposed and its columns
// transformed, maybe cropped: the interpreter's value does not change; each rule applies exactly
// where the case's formula says (an fft maps only a zero row to one value), and the row
// function then runs on the m rows of the input, not on the padded ones.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "ir/fft_operation.h"
#include "ir/printer.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using testing::kernelOf;
using testing::randomValue;
using testing::runProgram;
using testing::valuesClose;

ExprPtr typed(const ir::LambdaPtr& k) {
  return ir::inferTypes(k->body());
}

int count(const std::vector<std::string>& log, const std::string& rule) {
  int n = 0;
  for (const auto& line : log) n += line.rfind(rule + " @", 0) == 0;
  return n;
}

// The row counts of the arrays the program's maps whose function holds an fft operation map
// over, outermost map first: the rows that are transformed.
std::vector<int64_t> transformedRows(const ExprPtr& e) {
  std::vector<int64_t> rows;
  struct Walk : ir::IRVisitor {
    using IRVisitor::visit;
    std::vector<int64_t>* out = nullptr;
    void visit(const ExprPtr& x) override {
      const auto* c = x->as<ir::FunCall>();
      const auto* m = c && c->args().size() == 1 ? c->f()->as<ir::Map>() : nullptr;
      const auto* f = m && !ir::fftOperationSign(*m) ? m->f()->as<ir::Lambda>() : nullptr;
      if (m && (ir::fftOperationSign(*m->f()) || (f && ir::containsFftOperation(f->body()))))
        out->push_back(*c->arg(0)->type().size().constant());
      visitChildren(x);
    }
  } walk;
  walk.out = &rows;
  walk.visit(e);
  return rows;
}

struct Case {
  std::string text;
  int64_t m = 0, padded = 0;  // the input's rows, the padded matrix's
  bool uniform = false;       // the row function maps the pad's row to a row of one value
  bool transposed = false;    // the padded rows are transposed after the row function
  bool cropped = false;       // a crop of the transpose's rows
  bool fft = false;           // the row function is a transform
};

// kernel k(x: [[complex]n]m, y: [complex]n) = C <<: map(F) <<: pad(l, r, array(n, fun i => v))
// <<: x, F one of the row functions above, C nothing, transpose (with the columns' fft, and
// a crop of the rows after it).
Case randomCase(std::mt19937_64& rng) {
  auto pick = [&](int n) { return static_cast<int>(rng() % static_cast<uint64_t>(n)); };
  Case c;
  const int n = 2 + pick(7), l = pick(3), r = 1 + pick(3);
  c.m = 1 + pick(5);
  c.padded = c.m + l + r;
  const bool zero = pick(3) != 0;
  const std::string v = zero ? "{0.0f, 0.0f}" : "{1.5f, -0.5f}";
  const std::string pad = "pad(" + std::to_string(l) + ", " + std::to_string(r) + ", array(" +
                          std::to_string(n) + ", fun i => " + v + "))";
  std::string f;
  switch (pick(5)) {
    case 0:
      f = "fft", c.uniform = zero, c.fft = true;
      break;
    case 1:
      f = "ifft", c.uniform = zero, c.fft = true;
      break;
    case 2:
      f = "fun row => map(fun e => e * 2.0f) <<: row", c.uniform = true;
      break;
    case 3:
      f = "fun row => map(fun e => e + {1.0f, 0.0f}) <<: row", c.uniform = true;
      break;
    default:
      f = "fun row => map(mult) <<: zip(row, y)";
      break;  // reads y: not closed
  }
  std::string body = "map(" + f + ") <<: " + pad + " <<: x";
  if (pick(2) == 0) {
    c.transposed = true;
    body = "map(fft) <<: transpose <<: " + body;
    if (pick(2) == 0) {
      c.cropped = true;
      body = "crop(" + std::to_string(pick(2)) + ", 1) <<: transpose <<: " + body;
    }
  }
  c.text = "kernel k(x: [[complex]" + std::to_string(n) + "]" + std::to_string(c.m) +
           ", y: [complex]" + std::to_string(n) + ") = " + body + "\n";
  return c;
}

TEST(ZeroRows, RandomPaddedRowsKeepTheirValueAndAreNotMapped) {
  std::mt19937_64 rng(2417);
  int moved = 0, transposed = 0;
  for (int trial = 0; trial < 200; ++trial) {
    const Case c = randomCase(rng);
    SCOPED_TRACE(c.text);
    const ir::LambdaPtr k = kernelOf(c.text);
    const ExprPtr before = typed(k);
    const RewriteResult r = rewrite(before, skipZeroRows());
    SCOPED_TRACE(ir::print(r.program, {false, 2}));
    EXPECT_EQ(count(r.log, "padThroughMap"), c.uniform ? 1 : 0);
    // the padded rows' transpose is each column's pad only where they are rows of one value
    EXPECT_EQ(count(r.log, "transposePad"), c.uniform && c.transposed ? 1 : 0);
    EXPECT_EQ(count(r.log, "cropTranspose"), c.cropped ? 1 : 0);
    if (c.fft) {  // the row transforms run on the input's rows only where the rule applied
      const auto rows = transformedRows(r.program);
      ASSERT_FALSE(rows.empty());
      EXPECT_EQ(rows.back(), c.uniform ? c.m : c.padded);
    }
    moved += c.uniform;
    transposed += c.uniform && c.transposed;
    for (int input = 0; input < 2; ++input) {
      std::vector<ir::Value> args;
      for (const auto& p : k->params()) args.push_back(randomValue(p->type(), rng));
      std::string why;
      ASSERT_TRUE(valuesClose(runProgram(before, k->params(), args),
                              runProgram(r.program, k->params(), args), 1e-4, &why))
          << why;
    }
  }
  EXPECT_GE(moved, 80);
  EXPECT_GE(transposed, 30);
}

// conv2d_padded.fdl's order, pad then transform, becomes conv2d.fdl's: the rows of the image
// padded to 2N transformed (M rows, not 2M), each column padded to 2M in the columns' map, the
// crop of the rows written by the columns' map.
TEST(ZeroRows, ThePaddedConvolutionTakesConv2dsOrder) {
  const ir::LambdaPtr k = kernelOf(R"(
def zero = {0.0f, 0.0f}
kernel conv2d(x: [[complex]4]3, H: [[complex]8]6) =
  map(fun row => crop(0, 4) <<: ifft <<: row)
  <<: crop(0, 3) <<: transpose
  <<: map(fun (col, h) => ifft <<: map(mult) <<: zip(fft(col), h))
  <<: zip(transpose <<: map(fft) <<: pad(0, 3, array(8, fun i => zero)) <<: map(pad(0, 4, zero))
          <<: x, transpose <<: H)
)");
  const ExprPtr before = typed(k);
  const RewriteResult r = rewrite(before, skipZeroRows());
  const std::string after = ir::print(r.program, {false, 0});
  SCOPED_TRACE(after);
  EXPECT_EQ(count(r.log, "padThroughMap"), 1);
  EXPECT_EQ(count(r.log, "transposePad"), 1);
  EXPECT_EQ(count(r.log, "cropTranspose"), 1);
  // no pad of rows left: the rows' forward transforms 3 rows (6 before), the columns' map 8
  // columns (of 3 elements, padded to 6 inside the map, cropped to 3 there)
  EXPECT_EQ(after.find("array(8"), std::string::npos);
  EXPECT_EQ(transformedRows(before), (std::vector<int64_t>{3, 8, 6}));
  EXPECT_EQ(transformedRows(r.program), (std::vector<int64_t>{3, 8, 3}));
  std::mt19937_64 rng(3);
  std::vector<ir::Value> args;
  for (const auto& p : k->params()) args.push_back(randomValue(p->type(), rng));
  std::string why;
  EXPECT_TRUE(valuesClose(runProgram(before, k->params(), args),
                          runProgram(r.program, k->params(), args), 1e-4, &why))
      << why;
}

TEST(ZeroRows, RulesRefuseWhereTheSideConditionsFail) {
  auto refuses = [](const Rule& rule, const std::string& text) {
    SCOPED_TRACE(text);
    EXPECT_FALSE(rewrite(typed(kernelOf(text)), topDown(rule)).success);
  };
  // a row of two values: its fft is not one value, its transpose no constant pad of columns
  const std::string ramp = "pad(0, 2, array(4, fun i => {1.0f * i, 0.0f}))";
  refuses(rules::padThroughMap(), "kernel k(x: [[complex]4]3) = map(fft) <<: " + ramp + " <<: x\n");
  refuses(rules::transposePad(), "kernel k(x: [[complex]4]3) = transpose <<: " + ramp + " <<: x\n");
  // a pad of rows that reads the input (clamp): no value of its own
  refuses(rules::padThroughMap(),
          "kernel k(x: [[complex]4]3) = map(fft) <<: pad(0, 2, clamp) <<: x\n");
  // a row function that reads an input: f(v) is not known at compile time
  refuses(rules::padThroughMap(),
          "kernel k(x: [[complex]4]3, y: [complex]4) = map(fun r => map(mult) <<: zip(r, y)) "
          "<<: pad(0, 2, array(4, fun i => {0.0f, 0.0f})) <<: x\n");
  // a map of a computation after a map of a computation: mapFusion's, not this rule's
  refuses(rules::padCropFusion(), "kernel k(x: [[complex]4]3) = map(fft) <<: map(ifft) <<: x\n");
}

}  // namespace
}  // namespace fftc::rewrites
