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
  LoweredRun run = lowerAndCheck(kGemm, "gemm", strategy, d, 5);
  *source = run.ck.source;
  return run.check;
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

// vectorize on stageLocal's two copies: B's chunk rows copied a float4 at a time (vload4 from
// global memory, vstore4 into the local array), A's rows loaded as float4 and stored column by
// column element by element; the local arrays unpadded and aligned; the same results. And
// stageLocalVector, which also reads the blocks' rows of A into registers as vectors.
TEST(RegisterBlocking, VectorizedStagedCopiesMatchTheInterpreter) {
  for (const char* strategy :
       {"tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(4)); "
        "at([0, 1, 0, 0, 0, 1], stageLocal(4)); normalize(vectorize(4)); lowerDefault",
        "tile2D(8, 16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(2, 4)); "
        "at([0, 1, 0, 0, 0, 1], stageLocal(8)); normalize(vectorize(2)); lowerDefault",
        "tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(4)); "
        "at([0, 1, 0, 0, 0, 1], stageLocalVector(4)); lowerDefault"}) {
    std::string src;
    auto check = lowerAndRun(strategy, {{"M", 32}, {"N", 48}, {"K", 24}}, &src);
    SCOPED_TRACE(strategy);
    EXPECT_MATCHES(check);
    const bool macro = std::string(strategy).find("stageLocalVector") != std::string::npos;
    const bool four = macro || std::string(strategy).find("vectorize(4)") != std::string::npos;
    // stageLocalVector: the blocks' 4 rows of A also read from local memory as one vector
    if (macro) {
      EXPECT_EQ(count(src, "vload4(0, l"), 1u) << src;
    }
    const std::string w = four ? "4" : "2";
    // B: one vector load and one vector store; A: one vector load, stored element by element
    EXPECT_EQ(count(src, "vload" + w + "(0, B + "), 1u) << src;
    EXPECT_EQ(count(src, "vload" + w + "(0, A + "), 1u) << src;
    EXPECT_EQ(count(src, "vstore" + w + "("), 1u) << src;
    EXPECT_EQ(count(src, "__attribute__((aligned(16)))"), 2u) << src;
    EXPECT_EQ(count(src, ">> 4"), 0u) << src;  // no padding
  }
}

// registerBlockVector's blocks staged by stageLocalVector: a block's 4 columns of B are
// adjacent in local memory, so a step of K reads them as one vector, as it reads A's 4 rows.
TEST(RegisterBlocking, GroupedBlockColumnsAreReadAsVectors) {
  for (const char* strategy :
       {"tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlockVector(4)); "
        "at([0, 1, 0, 0, 0, 1], stageLocalVector(4)); lowerDefault",
        "tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlockVector(2, 8)); "
        "at([0, 1, 0, 0, 0, 1], stageLocalVector(8)); lowerDefault"}) {
    std::string src;
    auto check = lowerAndRun(strategy, {{"M", 32}, {"N", 48}, {"K", 24}}, &src);
    SCOPED_TRACE(strategy);
    EXPECT_MATCHES(check);
    // B's columns (one vector a group) and, with 4 rows, A's rows
    const bool fourRows = std::string(strategy).find("(4)") != std::string::npos;
    EXPECT_EQ(count(src, "vload4(0, l"), fourRows ? 2u : 1u) << src;
    // C's rows: one vector store of 4 registers a group
    EXPECT_EQ(count(src, "vstore4((float4)(p"), 1u) << src;
  }
}

// prefetchChunks (reduceSeqPrefetch) on the staged tiles: each chunk's copies in two halves,
// the loads from global memory into the work-items' registers (chunk 0's before the chunk
// loop, chunk j+1's after chunk j's stores into local memory, under `if (j + 1 < n)`), the
// stores from the registers at the start of each chunk; still two barriers a chunk; the same
// results, with copies whose loops a work-item runs once, several times, and in part (a
// guard where the work-group's size does not divide them).
TEST(RegisterBlocking, PrefetchedChunksMatchTheInterpreter) {
  struct Case {
    const char* strategy;
    std::map<std::string, int64_t> sizes;
  };
  for (const Case& c :
       {Case{"tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(4)); "
             "at([0, 1, 0, 0, 0, 1], stageLocalVector(4)); topDown(prefetchChunks); lowerDefault",
             {{"M", 32}, {"N", 48}, {"K", 24}}},
        Case{"tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlockVector(4)); "
             "at([0, 1, 0, 0, 0, 1], stageLocalVector(8)); topDown(prefetchChunks); lowerDefault",
             {{"M", 32}, {"N", 48}, {"K", 24}}},
        Case{"tile2D(16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(4)); "
             "at([0, 1, 0, 0, 0, 1], stageLocal(4)); topDown(prefetchChunks); lowerDefault",
             {{"M", 32}, {"N", 48}, {"K", 12}}},
        Case{"tile2D(8, 16); at([0, 1], mapWorkgroup2D); at([0, 1, 0, 0], registerBlock(2, 4)); "
             "at([0, 1, 0, 0, 0, 1], stageLocal(3)); topDown(prefetchChunks); lowerDefault",
             {{"M", 24}, {"N", 32}, {"K", 9}}}}) {
    std::string src;
    auto check = lowerAndRun(c.strategy, c.sizes, &src);
    SCOPED_TRACE(c.strategy);
    EXPECT_MATCHES(check);
    auto matches = [&](const std::string& re) {
      const std::regex r(re);
      return std::distance(std::sregex_iterator(src.begin(), src.end(), r),
                           std::sregex_iterator());
    };
    EXPECT_EQ(matches(R"(barrier\(CLK_LOCAL_MEM_FENCE\))"), 2) << src;
    EXPECT_EQ(matches(R"(if \(\(j \+ 1\) < \d+\))"), 1) << src;
    // A and B read twice each: before the loop and one chunk ahead in it
    EXPECT_EQ(matches(R"([^a-zA-Z_]A\[|vload4\(0, A \+)"), 2) << src;
    EXPECT_EQ(matches(R"([^a-zA-Z_]B\[|vload4\(0, B \+)"), 2) << src;
    if (std::string(c.strategy).find("stageLocal(3)") != std::string::npos) {
      EXPECT_GE(matches(R"(if \(\(4 \* lid1?_\d+ \+ lid1?b)"), 1) << src;  // 3 of 4 work-items
    }
  }
}

// A vector copy where memory does not allow one access: a crop shifts the elements off the
// vector's alignment, so the copy reads element by element (and is still right) and stores
// the vector made of them into the aligned result as one; the same copy
// without the crop is one vector load and one vector store a work-item.
TEST(RegisterBlocking, UnalignedVectorsAreCopiedElementByElement) {
  const char* text =
      "kernel k(x: [float]N) = asScalar <<: mapGlobal(λ(v => v)) <<: asVector(4) <<: crop(1, 3) "
      "<<: x\n"
      "kernel c(x: [float]N) = asScalar <<: mapGlobal(λ(v => v)) <<: asVector(4) <<: x\n";
  auto shifted = checkText(text, "k", {{"N", 36}});
  EXPECT_MATCHES(shifted);
  EXPECT_EQ(count(shifted.compiled.source, "vload"), 0u) << shifted.compiled.source;
  // the result is aligned: one vector store of the vector made of the four reads
  EXPECT_EQ(count(shifted.compiled.source, "vstore4((float4)("), 1u) << shifted.compiled.source;
  auto aligned = checkText(text, "c", {{"N", 36}});
  EXPECT_MATCHES(aligned);
  EXPECT_EQ(count(aligned.compiled.source, "vload4(0, x + "), 1u) << aligned.compiled.source;
  EXPECT_EQ(count(aligned.compiled.source, "vstore4("), 1u) << aligned.compiled.source;
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
