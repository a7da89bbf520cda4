// A register-blocked matrix product (tile2D, then mapReduceInterchange twice): one reduction
// per tile whose accumulator is a private r x c array, generated and run on the device
// against the interpreter on the program as written.
#include <regex>

#include "compiler/pipeline/pipeline.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

const char* const kGemm =
    "def dot = λ((u, v) => reduce(add, 0.0f) <<: map(mult) <<: zip(u, v))\n"
    "kernel gemm(A: [[float]K]M, B: [[float]N]K) =\n"
    "  map(λ(rowA => map(λ(colB => dot(rowA, colB))) <<: transpose <<: B)) <<: A\n";

ex::CheckResult lowerAndRun(const std::string& strategy, const std::map<std::string, int64_t>& d,
                            std::string* source) {
  fe::ElaborateOptions eo;
  for (const auto& [k, v] : d) eo.defines[k] = v;
  fe::Program p = fe::compileSource(kGemm, "gemm.fdl", eo);
  const fe::Kernel* k = p.kernel("gemm");
  auto lowered = compiler::pipeline::lower(*k, strategy);
  cg::CodegenOptions o = options();
  o.sizes = d;
  cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, o);
  *source = ck.source;
  return ex::checkAgainstInterpreter(context(), k->lambda, ck, d, 5);
}

TEST(RegisterBlocking, ArrayAccumulatorsArePrivateAndMatchTheInterpreter) {
  const std::string blocked =
      "topDown(tile2D(2, 4)); bottomUp(mapReduceInterchange); bottomUp(mapReduceInterchange); ";
  // the tile map at [0, 1] (under untile's join and map); in a work-group, the maps of the
  // block's update stay sequential in each work-item (not mapLocal: the block is private)
  for (const char* finish :
       {"lowerDefault", "topDown(mapGlobal(1)); lowerDefault",
        "at([0, 1], mapWorkgroup(1)); lowerDefault",
        "at([0, 1], mapWorkgroup(1)); at([0, 1, 0], mapLocal(0)); lowerDefault"}) {
    std::string src;
    auto check = lowerAndRun(blocked + finish, {{"M", 6}, {"N", 8}, {"K", 5}}, &src);
    EXPECT_MATCHES(check);
    // the 2 x 4 block and the value of the next step: private arrays of 8
    const std::regex block(R"(float p(_\d+)?\[8\];)");
    EXPECT_GE(
        std::distance(std::sregex_iterator(src.begin(), src.end(), block), std::sregex_iterator()),
        2)
        << src;
  }
}

// stageLocal: each chunk of the reduction's rows and columns copied into local memory by the
// work-group, one barrier after the copies and one at the end of the chunk (before the next
// chunk's copies overwrite what others still read), the blocks' accumulators in their
// work-items' private arrays across the chunks; the work-group shape is the blocks' grid.
TEST(RegisterBlocking, StagedTilesInLocalMemoryMatchTheInterpreter) {
  struct Case {
    const char* strategy;
    std::map<std::string, int64_t> sizes;
  };
  for (const Case& c :
       {Case{"tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(4)); "
             "at([0, 1, 0, 0, 0, 1], stageLocal(4)); lowerDefault",
             {{"M", 32}, {"N", 48}, {"K", 12}}},
        Case{"tile2D(8, 16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(2, 4)); "
             "at([0, 1, 0, 0, 0, 1], stageLocal(3)); lowerDefault",
             {{"M", 24}, {"N", 32}, {"K", 9}}},
        Case{"tile2D(8); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(2, 1)); "
             "at([0, 1, 0, 0, 0, 1], stageLocal(2)); lowerDefault",
             {{"M", 16}, {"N", 8}, {"K", 6}}}}) {
    std::string src;
    auto check = lowerAndRun(c.strategy, c.sizes, &src);
    SCOPED_TRACE(c.strategy);
    EXPECT_MATCHES(check);
    auto count = [&](const std::string& re) {
      const std::regex r(re);
      return std::distance(std::sregex_iterator(src.begin(), src.end(), r),
                           std::sregex_iterator());
    };
    EXPECT_EQ(count(R"(barrier\(CLK_LOCAL_MEM_FENCE\))"), 2) << c.strategy << "\n" << src;
    EXPECT_EQ(count(R"(__local float l(_\d+)?\[)"), 2) << src;
    // the accumulators: one private block a work-item (declared outside the chunk loop)
    EXPECT_GE(count(R"(float p\[)"), 1) << src;
  }
}

// A spread accumulator is each work-item's own: its mapLocal loops must run once per
// work-item, so the blocks' grid is the work-group's shape, and a caller's other shape is
// refused.
TEST(RegisterBlocking, StagedTilesFixTheWorkGroupShape) {
  fe::ElaborateOptions eo;
  eo.defines = {{"M", int64_t{32}}, {"N", int64_t{32}}, {"K", int64_t{8}}};
  fe::Program p = fe::compileSource(kGemm, "gemm.fdl", eo);
  auto lowered = compiler::pipeline::lower(
      *p.kernel("gemm"),
      "tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(4)); "
      "at([0, 1, 0, 0, 0, 1], stageLocal(4)); lowerDefault");
  cg::CodegenOptions o = options();
  cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, o);
  ASSERT_EQ(ck.stages.size(), 1u);
  EXPECT_EQ(ck.stages[0].local.size(), 2u);
  EXPECT_EQ(ck.stages[0].local[0].str(), "4");
  EXPECT_EQ(ck.stages[0].local[1].str(), "4");
  o.stageLocal = {{8, 2}};
  try {
    cg::compileKernel(lowered.kernel, o);
    FAIL() << "expected an error";
  } catch (const ir::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("work-group size 8 in dimension 0"), std::string::npos)
        << e.what();
  }
}

TEST(RegisterBlocking, AnAccumulatorTooLargeForPrivateMemoryIsAnError) {
  // one interchange on the untiled product: a row of 128 accumulators per work-item
  fe::ElaborateOptions eo;
  eo.defines = {{"M", int64_t{4}}, {"N", int64_t{128}}, {"K", int64_t{4}}};
  fe::Program p = fe::compileSource(kGemm, "gemm.fdl", eo);
  auto lowered =
      compiler::pipeline::lower(*p.kernel("gemm"), "bottomUp(mapReduceInterchange); lowerDefault");
  try {
    cg::compileKernel(lowered.kernel, options());
    FAIL() << "expected an error";
  } catch (const ir::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("array accumulator [float]128 of more than 64"),
              std::string::npos)
        << e.what();
  }
}

TEST(RegisterBlocking, ArrayAccumulatorOutsideParallelMapsIsAnError) {
  // a row of sums as one reduction over the columns, at the kernel's top level
  const char* text =
      "kernel colSums(A: [[float]4]3) = reduce(λ((acc, row) => map(add) <<: zip(acc, row)),\n"
      "                                         map(λ(x => 0.0f)) <<: transpose <<: A) <<: A\n";
  fe::Program p = fe::compileSource(text, "t.fdl", {});
  auto lowered = compiler::pipeline::lower(*p.kernel("colSums"), "lowerSequential");
  try {
    cg::compileKernel(lowered.kernel, options());
    FAIL() << "expected an error";
  } catch (const ir::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("array accumulator outside every parallel map"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace fftc::codegen_test
