// The default lowering of reductions: a dot product becomes a two-level reduction (n/k partial
// sums in parallel, then their sum) with no n-element temporary; a reduce of a map of scalars
// is one loop; a map of reductions is not fused into one work-item. Each kernel is checked
// against the interpreter on the program as written.
#include "compiler/pipeline/pipeline.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

// The largest temporary buffer of a compiled kernel, in elements (0: none).
int64_t largestTemp(const cg::CompiledKernel& ck) {
  int64_t most = 0;
  for (const auto& b : ck.buffers)
    if (b.role == "temp") most = std::max(most, b.count.constant().value_or(-1));
  return most;
}

LoweredRun lowerAndRun(const std::string& text, const std::string& name,
                       const std::map<std::string, int64_t>& defines,
                       const std::string& strategy = "lowerDefault") {
  return lowerAndCheck(text, name, strategy, defines, 11);
}

const char* const kDot =
    "kernel dot(x: [float]N, y: [float]N) = reduce(add, 0.0f) <<: map(mult) <<: zip(x, y)\n";

TEST(ReductionLowering, DotIsTwoLevelsWithoutAnNElementTemporary) {
  // 4096 = 64 chunks of 64: 64 partial sums in a mapGlobal stage, then their sum
  LoweredRun l = lowerAndRun(kDot, "dot", {{"N", 4096}});
  EXPECT_MATCHES(l.check);
  EXPECT_EQ(l.ck.stages.size(), 2u) << l.ck.source;
  EXPECT_EQ(largestTemp(l.ck), 64) << l.ck.source;
  ASSERT_FALSE(l.ck.stages.empty());
  EXPECT_EQ(l.ck.stages[0].global.at(0).constant().value_or(0), 64) << l.ck.source;
}

TEST(ReductionLowering, ChunksAreTheLargestDivisorUpToTheSquareRoot) {
  // 1000: chunks of 25 (40 partial sums); 4 * 41 = 164: chunks of 4
  EXPECT_EQ(largestTemp(lowerAndRun(kDot, "dot", {{"N", 1000}}).ck), 40);
  LoweredRun l = lowerAndRun(kDot, "dot", {{"N", 164}});
  EXPECT_MATCHES(l.check);
  EXPECT_EQ(largestTemp(l.ck), 41);
}

TEST(ReductionLowering, SmallAndPrimeSizesStayOneLoopWithoutATemporary) {
  // 37 is prime and 16 is small: one sequential loop over the fused map, nothing stored
  for (int64_t n : {37, 16}) {
    LoweredRun l = lowerAndRun(kDot, "dot", {{"N", n}});
    EXPECT_MATCHES(l.check);
    EXPECT_EQ(l.ck.stages.size(), 1u) << l.ck.source;
    EXPECT_EQ(largestTemp(l.ck), 0) << l.ck.source;
  }
}

TEST(ReductionLowering, RowReductionsFuseWithTheirMapsAndStayParallel) {
  // matvec: one work-item per row, each a fused loop (no private row temporary)
  const char* matvec =
      "kernel mv(m: [[float]K]N, v: [float]K) =\n"
      "  map(λ(row => reduce(add, 0.0f) <<: map(mult) <<: zip(row, v))) <<: m\n";
  LoweredRun l = lowerAndRun(matvec, "mv", {{"N", 8}, {"K", 16}});
  EXPECT_MATCHES(l.check);
  EXPECT_EQ(l.ck.stages.size(), 1u) << l.ck.source;
  EXPECT_EQ(l.ck.stages[0].global.at(0).constant().value_or(0), 8) << l.ck.source;
  EXPECT_EQ(l.ck.source.find("[16]"), std::string::npos) << "a private row temporary:\n"
                                                          << l.ck.source;
  // a written two-level sum keeps its parallel partial sums (the map has a loop: not fused)
  const char* twoLevel =
      "kernel s(x: [float]N) = reduce(add, 0.0f) <<: map(reduce(add, 0.0f)) <<: split(8) <<: x\n";
  LoweredRun t = lowerAndRun(twoLevel, "s", {{"N", 32}});
  EXPECT_MATCHES(t.check);
  EXPECT_EQ(t.ck.stages.size(), 2u) << t.ck.source;
  EXPECT_EQ(largestTemp(t.ck), 4) << t.ck.source;
}

// Issue 26, item 4: GEMM with a symbolic K lowers (its dot products fuse: no private [float]K),
// and a program that does need a private array of symbolic size gets a located, explained error.
TEST(ReductionLowering, SymbolicSizesLowerOrFailWithAnExplanation) {
  const char* gemm =
      "kernel gemm(a: [[float]K]M, b: [[float]N]K) =\n"
      "  map(λ(row => map(λ(col => reduce(add, 0.0f) <<: map(mult) <<: zip(row, col))) <<:\n"
      "    transpose(b))) <<: a\n";
  fe::ElaborateOptions eo;
  eo.defines = {{"M", int64_t{4}}, {"N", int64_t{6}}};
  fe::Program p = fe::compileSource(gemm, "gemm.fdl", eo);
  const fe::Kernel* k = p.kernel("gemm");
  auto lowered = compiler::pipeline::lower(*k, "lowerDefault");
  cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, options());
  EXPECT_MATCHES(ex::checkAgainstInterpreter(context(), k->lambda, ck, {{"K", 7}}, 3));

  const char* scaled =
      "kernel scaled(m: [[float]K]N) =\n"
      "  map(λ(row => reduce(add, 0.0f) <<:\n"
      "    map(λ(x => x * (reduce(add, 0.0f) <<: row))) <<: row)) <<: m\n";
  fe::Program q = fe::compileSource(scaled, "scaled.fdl", {});
  const fe::Kernel* s = q.kernel("scaled");
  auto ls = compiler::pipeline::lower(*s, "lowerDefault");
  try {
    (void)cg::compileKernel(ls.kernel, options());
    ADD_FAILURE() << "compiled a private array of symbolic size";
  } catch (const ir::CompileError& e) {
    EXPECT_TRUE(e.loc().known()) << e.what();
    EXPECT_NE(e.message().find("private array of symbolic size [float]K"), std::string::npos)
        << e.what();
    EXPECT_NE(e.message().find("fix the size with -D"), std::string::npos) << e.what();
  }
}

// Issue 26: LIFT's parallel reduction from the naive sum by rules. splitStrideReduce(64) makes
// 1024 partial sums of 64 elements 1024 apart; splitReduceMap(64) gives each work-group 64 of
// them; splitStrideReduce(8) sums the group's 64 partials as 8 of 8 (in local memory), and the
// group's result is the sum of those 8. Consecutive work-items read consecutive elements.
TEST(ReductionLowering, WorkGroupReductionByRulesReadsCoalesced) {
  const char* sum = "kernel sum(x: [float]N) = reduce(add, 0.0f) <<: x\n";
  LoweredRun l = lowerAndRun(sum, "sum", {{"N", 65536}},
                          "splitStrideReduce(64); splitReduceMap(64); at([1, 0], "
                          "splitStrideReduce(8)); at([1], mapWorkgroup(0)); lowerDefault");
  EXPECT_MATCHES(l.check);
  ASSERT_FALSE(l.ck.stages.empty());
  const auto& first = l.ck.stages[0];
  ASSERT_EQ(first.local.size(), 1u) << l.ck.source;
  EXPECT_EQ(first.local[0].constant().value_or(0), 64) << l.ck.source;
  EXPECT_EQ(first.global.at(0).constant().value_or(0), 16 * 64) << l.ck.source;
  // work-item lid of group wg, step j: element 64 wg + lid + 1024 j
  EXPECT_NE(l.ck.source.find("x[64 * wg + lid + 1024 * j]"), std::string::npos) << l.ck.source;
  EXPECT_EQ(largestTemp(l.ck), 16) << l.ck.source;  // one partial sum per work-group

  // each work-item's 64 elements as 4 sums of 16 (splitStrideReduce(16)), interchanged into one
  // loop of 16 steps with 4 accumulators: 4 independent loads a step, each still coalesced
  LoweredRun ilp = lowerAndRun(sum, "sum", {{"N", 65536}},
                            "splitStrideReduce(64); at([1, 0], splitStrideReduce(16)); "
                            "at([1, 0, 1], mapReduceInterchange); splitReduceMap(64); at([1, 0], "
                            "splitStrideReduce(8)); at([1], mapWorkgroup(0)); lowerDefault");
  EXPECT_MATCHES(ilp.check);
  EXPECT_NE(ilp.ck.source.find("x[64 * wg + lid + 4096 * j + 1024 * i_1]"), std::string::npos)
      << ilp.ck.source;
}

// splitStrideMap(4) on the columns of a 2D map: each work-item copies 4 elements 16 apart in its
// row, so consecutive work-items still touch consecutive elements at each step.
TEST(ReductionLowering, StridedCoarseningKeepsAccessesCoalesced) {
  const char* copy = "kernel copy(g: [[float]W]H) = map(map(λ(x => x * 2.0f))) <<: g\n";
  LoweredRun l = lowerAndRun(copy, "copy", {{"H", 8}, {"W", 64}},
                          "prepare; mapGlobal(1); at([0], splitStrideMap(4)); lowerDefault");
  EXPECT_MATCHES(l.check);
  ASSERT_EQ(l.ck.stages.size(), 1u) << l.ck.source;
  EXPECT_EQ(l.ck.stages[0].global.at(0).constant().value_or(0), 16) << l.ck.source;
  EXPECT_NE(l.ck.source.find("out[64 * gid1 + gid + 16 * i]"), std::string::npos) << l.ck.source;
  EXPECT_NE(l.ck.source.find("g[64 * gid1 + gid + 16 * i]"), std::string::npos) << l.ck.source;
}

}  // namespace
}  // namespace fftc::codegen_test
