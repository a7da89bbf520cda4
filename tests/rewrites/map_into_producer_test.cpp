// mapIntoProducer (rewrites/rules_producer.cpp) on the shapes it exists for: a pointwise map,
// alone or over a zip with arrays of the same length, after a permutation view of a computing
// map; the result is the interpreter's, the map is gone from the top, the zipped array is read
// through the inverse view. And the programs it must leave alone.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "compiler/frontend/frontend.h"
#include "ir/infer.h"
#include "ir/interpreter.h"
#include "ir/printer.h"
#include "rewrites/rules.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using testing::kernelOf;

// The rule at the kernel's body: applied, same values on random inputs, the top no longer a map
// over computed values (it is the views' outermost call, or the producer over its input).
void expectMovedIn(const std::string& text) {
  SCOPED_TRACE(text);
  const ir::LambdaPtr k = kernelOf(text);
  const Applied a = applyAt(rules::mapIntoProducer(), k->body(), {});
  ASSERT_TRUE(a.changed);
  const auto* top = a.program->as<ir::FunCall>();
  ASSERT_NE(top, nullptr);
  EXPECT_FALSE(top->f()->kind() == ir::FunKind::Map && top->arg(0)->is<ir::FunCall>())
      << ir::print(a.program, {false, 2});
  const ir::LambdaPtr after = ir::Lambda::make(k->params(), a.program);
  std::mt19937_64 rng(24);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<ir::Value> args;
    for (const auto& p : k->params()) args.push_back(testing::randomValue(p->type(), rng));
    const ir::Value want = ir::interpretCall(k, args);
    const ir::Value got = ir::interpretCall(ir::inferTypes(after), args);
    EXPECT_EQ(want.str(), got.str()) << ir::print(a.program, {false, 2});
  }
}

TEST(MapIntoProducer, PointwiseMapAfterViewsOfAMapMovesIn) {
  // an FFT pass's output layout: join o transpose of rows computed by a map
  expectMovedIn(
      "kernel k(X: [[float]4]8) = map(fun y => y * 3.0) <<: join <<: transpose <<: "
      "map(fun r => map(fun v => v + 1.0) <<: r) <<: X\n");
  // no views at all: fusion
  expectMovedIn("kernel k(X: [float]8) = map(fun y => y * 3.0) <<: map(fun v => v + 1.0) <<: X\n");
}

TEST(MapIntoProducer, AZippedArrayIsReadThroughTheInverseViews) {
  // H's element j meets the result's element j: read as split o transpose of H in the map
  expectMovedIn(
      "kernel k(X: [[float]4]8, H: [float]32) = map(mult) <<: zip(join <<: transpose <<: "
      "map(fun r => map(fun v => v + 1.0) <<: r) <<: X, H)\n");
  // the producer second in the zip, a map of views between, and a split
  expectMovedIn(
      "kernel k(X: [[float]4]8, H: [float]32) = map(sub) <<: zip(H, join <<: map(fun c => join "
      "<<: transpose <<: c) <<: split(2) <<: map(fun r => map(fun v => v * v) <<: r) <<: X)\n");
}

TEST(MapIntoProducer, LeavesOtherProgramsAlone) {
  for (const std::string text : {
           // a map over rows (its elements arrays): the next FFT pass, not pointwise work
           "kernel k(X: [[float]4]8) = map(fun r => map(fun v => v * 2.0) <<: r) <<: transpose "
           "<<: map(fun r => map(fun v => v + 1.0) <<: r) <<: X\n",
           // a view before the map, not a computation
           "kernel k(X: [[float]4]8) = map(fun y => y * 3.0) <<: join <<: X\n",
           // a pad is not a permutation
           "kernel k(X: [float]8) = map(fun y => y * 3.0) <<: pad(0, 2, wrap) <<: "
           "map(fun v => v + 1.0) <<: X\n",
       }) {
    SCOPED_TRACE(text);
    const ir::LambdaPtr k = kernelOf(text);
    const Applied a = applyAt(rules::mapIntoProducer(), k->body(), {});
    EXPECT_FALSE(a.changed) << ir::print(a.program, {false, 2});
  }
}

// mapZipFusion: views between a map of rows and the map over them (with a zipped array) that
// compose to the identity (an FFT's last pass and the next FFT's first of the same radix):
// one map
void expectFused(const std::string& text, bool fused) {
  SCOPED_TRACE(text);
  const ir::LambdaPtr k = kernelOf(text);
  const Applied a = applyAt(rules::mapZipFusion(), k->body(), {});
  ASSERT_EQ(a.changed, fused) << ir::print(a.program, {false, 2});
  if (!fused) return;
  const auto* top = a.program->as<ir::FunCall>();
  ASSERT_NE(top, nullptr);
  EXPECT_EQ(top->f()->kind(), ir::FunKind::Map);
  const ir::LambdaPtr after = ir::Lambda::make(k->params(), a.program);
  std::mt19937_64 rng(25);
  for (int trial = 0; trial < 3; ++trial) {
    std::vector<ir::Value> args;
    for (const auto& p : k->params()) args.push_back(testing::randomValue(p->type(), rng));
    EXPECT_EQ(ir::interpretCall(k, args).str(),
              ir::interpretCall(ir::inferTypes(after), args).str());
  }
}

TEST(MapZipFusion, ViewsComposingToTheIdentityAreFusedThrough) {
  const std::string rows = "map(fun r => map(fun v => v * v) <<: r) <<: X";
  expectFused(
      "kernel k(X: [[float]4]4, T: [[float]4]4) = map(fun (r, t) => map(add) <<: zip(r, "
      "t)) <<: zip(transpose <<: transpose <<: " +
          rows + ", T)\n",
      true);
  expectFused(
      "kernel k(X: [[float]4]4, T: [[float]4]4) = map(fun (r, t) => map(add) <<: zip(r, "
      "t)) <<: zip(split(4) <<: join <<: " +
          rows + ", T)\n",
      true);
  // a transpose alone permutes the rows' elements: not the identity
  expectFused(
      "kernel k(X: [[float]4]4, T: [[float]4]4) = map(fun (r, t) => map(add) <<: zip(r, "
      "t)) <<: zip(transpose <<: " +
          rows + ", T)\n",
      false);
}

}  // namespace
}  // namespace fftc::rewrites
