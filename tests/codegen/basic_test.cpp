// The thinnest paths first: mapGlobal over an array, zip/split/join, nesting, reduction.
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

TEST(CodegenBasic, MapGlobalScalar) {
  auto c = checkText("kernel k(x: [float]64) = mapGlobal(fun a => a * 2.0f + 1.0f) <<: x", "k");
  EXPECT_MATCHES(c);
  EXPECT_EQ(c.compiled.stages.size(), 1u);
}

TEST(CodegenBasic, ZipMult) {
  auto c = checkText("kernel k(x: [float]32, y: [float]32) = mapGlobal(mult) <<: zip(x, y)", "k");
  EXPECT_MATCHES(c);
}

TEST(CodegenBasic, SplitJoinNested) {
  auto c = checkText(
      "kernel k(x: [float]64) = join <<: mapGlobal(mapSeq(fun a => a + 1.0f)) <<: split(8) <<: x",
      "k");
  EXPECT_MATCHES(c);
}

TEST(CodegenBasic, TransposeOnOutputScatters) {
  auto c = checkText(
      "kernel k(x: [[float]4]8) = transpose <<: mapGlobal(mapSeq(fun a => a * 3.0f)) <<: x", "k");
  EXPECT_MATCHES(c);
}

TEST(CodegenBasic, DotProduct) {
  auto c = checkText(
      "kernel k(x: [float]N, y: [float]N) = reduceSeq(fun (acc, p) => acc + p._0 * p._1, 0.0f) "
      "<<: zip(x, y)",
      "k", {}, {{"N", 100}});
  EXPECT_MATCHES(c);
}

}  // namespace
}  // namespace fftc::codegen_test
