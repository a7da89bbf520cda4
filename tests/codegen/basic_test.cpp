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

namespace fftc::codegen_test {
namespace {

TEST(CodegenBasic, TuplesInMemoryAreStructs) {
  auto c = checkText(
      "kernel k(x: [(float, int)]8) = mapGlobal(fun p => {p._0 * 2.0f, p._1 + 1}) <<: x", "k");
  EXPECT_MATCHES(c);
  EXPECT_NE(c.compiled.source.find("typedef struct {\n  float _0;\n  int _1;\n} tuple0;"),
            std::string::npos)
      << c.compiled.source;
}

TEST(CodegenBasic, SymbolicSizesAreKernelArguments) {
  auto c = checkText(readFile(sourceRoot() + "/examples/gemm_naive.fdl"), "gemm", {},
                     {{"M", 5}, {"K", 7}, {"N", 3}});
  EXPECT_MATCHES(c);
  EXPECT_EQ(c.compiled.sizeVarNames.size(), 3u);
  EXPECT_EQ(c.compiled.stages.at(0).global.size(), 2u);
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

TEST(CodegenBasic, UserFunOverZippedPairs) {
  fe::ElaborateOptions eo;
  fe::Program p = fe::compileSource(
      "userfun madd(p: (float, float), c: float): float = \"return p._0 * p._1 + c;\"\n"
      "kernel k(x: [float]16, y: [float]16) = mapGlobal(fun q => madd(q, 0.5f)) <<: zip(x, y)",
      "test.fdl", eo);
  cg::CompiledKernel ck = cg::compileKernel(*p.kernel("k"), options());
  ir::InterpreterOptions io;
  io.userFuns["madd"] = [](const std::vector<ir::Value>& a) {
    return ir::Value::ofFloat(static_cast<float>(a[0][0].asReal() * a[0][1].asReal()) +
                              static_cast<float>(a[1].asReal()));
  };
  auto c = ex::checkAgainstInterpreter(context(), p.kernel("k")->lambda, ck, {}, 3, io);
  EXPECT_MATCHES(c);
  EXPECT_NE(ck.source.find("madd(make_tuple0(x[gid], y[gid]), 0.5f)"), std::string::npos)
      << ck.source;
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

// An unrolled reduction from zero starts from its first step: no addition of the zero (which
// the device compilers keep, since +0 + -0 is +0), the interpreter's values.
TEST(CodegenBasic, UnrolledSumFromZeroStartsFromItsFirstElement) {
  auto c = checkText("kernel k(x: [[complex]4]16) = mapGlobal(reduceSeqUnroll(add, {0, 0})) <<: x",
                     "k");
  EXPECT_MATCHES(c);
  const std::string& src = c.compiled.source;
  EXPECT_EQ(src.find("make_float2(0.0f, 0.0f)"), std::string::npos) << src;
  EXPECT_EQ(count(src, "fftc_cadd_f("), 3u + 1u) << src;  // three additions and the helper
}

TEST(CodegenBasic, UnrolledDotFromZeroStartsFromTheFirstProduct) {
  auto c = checkText(
      "kernel k(x: [[float]3]8, y: [[float]3]8) = mapGlobal(fun r => reduceSeqUnroll(fun (acc, "
      "p) => acc + p._0 * p._1, -0.0f) <<: zip(r._0, r._1)) <<: zip(x, y)",
      "k");
  EXPECT_MATCHES(c);
  const std::string& src = c.compiled.source;
  EXPECT_EQ(src.find("0.0f"), std::string::npos) << src;
  EXPECT_EQ(count(src, "acc + "), 2u) << src;
}

// Any other start, and a first step that is not an addition, keep the initial value.
TEST(CodegenBasic, UnrolledReductionsFromOtherValuesKeepThem) {
  auto one = checkText("kernel k(x: [[float]4]16) = mapGlobal(reduceSeqUnroll(add, 1.0f)) <<: x",
                       "k");
  EXPECT_MATCHES(one);
  EXPECT_NE(one.compiled.source.find("= 1.0f;"), std::string::npos) << one.compiled.source;
  auto sub = checkText(
      "kernel k(x: [[float]4]16) = mapGlobal(reduceSeqUnroll(fun (a, b) => a - b, 0.0f)) <<: x",
      "k");
  EXPECT_MATCHES(sub);
  EXPECT_NE(sub.compiled.source.find("0.0f - "), std::string::npos) << sub.compiled.source;
}

}  // namespace
}  // namespace fftc::codegen_test
