// Stencils tiled with halos (rewrites' slideTileRegisters and slideTile2D): the Jacobi step of
// bench/kernels/jacobi5.fdl and a 3 x 3 box filter with steps, generated and run on the
// device against the interpreter on the program as written; sizes the tiles do not divide are
// refused with a message that says the strategy failed.
#include "compiler/pipeline/pipeline.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

ex::CheckResult lowerAndRun(const std::string& text, const std::string& kernel,
                            const std::string& strategy, const std::map<std::string, int64_t>& d,
                            std::string* source) {
  LoweredRun run = lowerAndCheck(text, kernel, strategy, d, 5);
  *source = run.ck.source;
  return run.check;
}

std::string jacobi() {
  return readFile(sourceRoot() + "/bench/kernels/jacobi5.fdl");
}

// A work-item per column of r outputs: r stores, unrolled, on a 2D grid of W x H/r.
TEST(StencilTiling, RegisterColumnsMatchTheInterpreter) {
  for (int r : {1, 4, 8}) {
    for (auto [h, w] : {std::pair<int64_t, int64_t>{24, 40}, {64, 96}, {8, 8}}) {
      const std::string s = "prepare; slideTileRegisters(" + std::to_string(r) +
                            "); topDown(reduceSeqUnroll); lowerDefault";
      SCOPED_TRACE(s + " at " + std::to_string(h) + " x " + std::to_string(w));
      std::string src;
      auto check = lowerAndRun(jacobi(), "jacobi", s, {{"H", h}, {"W", w}}, &src);
      EXPECT_MATCHES(check);
      EXPECT_EQ(count(src, "out["), static_cast<size_t>(r)) << src;
      EXPECT_NE(src.find("get_global_id(1)"), std::string::npos) << src;
    }
  }
}

// Blocks of 2 x 4 outputs, and tiles staged nowhere but mapped by hand onto work-groups.
TEST(StencilTiling, BlocksAndWorkGroupsMatchTheInterpreter) {
  const std::string box =
      "kernel box(g: [[float]W]H) = map(map(λ(nbh => reduce(λ((a, v) => a * 0.5f + v), 0.0f) "
      "<<: join <<: nbh)))\n"
      "  <<: map(transpose) <<: slide(3, 2) <<: map(slide(3, 1))\n"
      "  <<: transpose <<: map(pad(1, 1, mirror)) <<: transpose <<: map(pad(1, 1, mirror)) "
      "<<: g\n";
  // H + 2 rows, windows (H + 2 - 3 + 2) / 2 = 8 at H = 15; W = 12 windows
  for (const char* s : {"prepare; slideTileRegisters(2, 4); lowerDefault",
                        "prepare; slideTileLocal(2, 4); lowerDefault",
                        "prepare; slideTileLocal(4, 12); lowerDefault",
                        "prepare; slideTile2D(4, 6); at([0, 1], mapWorkgroup2D); lowerDefault",
                        "prepare; slideTile2D(2, 3); at([0, 1], mapGlobal2D); lowerDefault"}) {
    SCOPED_TRACE(s);
    std::string src;
    EXPECT_MATCHES(lowerAndRun(box, "box", s, {{"H", 15}, {"W", 12}}, &src));
  }
}

// A work-group per tile of r x c outputs: the tile and its halo copied into local memory once
// (one barrier after the copy, one before the next tile's copy), five reads of it a point.
TEST(StencilTiling, LocalTilesMatchTheInterpreter) {
  for (auto [r, c] : {std::pair<int, int>{4, 8}, {8, 32}, {1, 8}}) {
    for (auto [h, w] : {std::pair<int64_t, int64_t>{24, 64}, {64, 96}, {16, 32}}) {
      const std::string s = "prepare; slideTileLocal(" + std::to_string(r) + ", " +
                            std::to_string(c) + "); topDown(reduceSeqUnroll); lowerDefault";
      SCOPED_TRACE(s + " at " + std::to_string(h) + " x " + std::to_string(w));
      std::string src;
      auto check = lowerAndRun(jacobi(), "jacobi", s, {{"H", h}, {"W", w}}, &src);
      EXPECT_MATCHES(check);
      EXPECT_EQ(count(src, "barrier(CLK_LOCAL_MEM_FENCE)"), 2u) << src;
      EXPECT_EQ(count(src, "__local float"), 1u) << src;
    }
  }
}

TEST(StencilTiling, SizesTheTilesDoNotDivideAreRefused) {
  fe::ElaborateOptions eo;
  eo.defines["H"] = 100;
  eo.defines["W"] = 64;
  fe::Program p = fe::compileSource(jacobi(), "jacobi5.fdl", eo);
  try {
    compiler::pipeline::lower(*p.kernel("jacobi"),
                              "prepare; slideTileRegisters(8); topDown(reduceSeqUnroll); "
                              "lowerDefault");
    FAIL() << "8 does not divide 100 rows";
  } catch (const ir::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("the strategy 'prepare; slideTileRegisters(8)"),
              std::string::npos)
        << e.what();
    EXPECT_NE(std::string(e.what()).find("does not divide"), std::string::npos) << e.what();
  }
}

// examples/stencil2d.fdl's 5-point cross as weights of the 3 x 3 window (corners 0): with
// dropZeroTerms before the unrolled lowering, five products a point, no product with a zero
// weight, and no constant table (the gather of the non-zero weights is read at constant
// indices); without it, nine products, four of them by 0.0f. Both match the interpreter.
TEST(StencilTiling, ZeroWeightsDroppedFromTheUnrolledCross) {
  const std::string text = readFile(sourceRoot() + "/examples/stencil2d.fdl");
  const std::map<std::string, int64_t> d{{"H", 9}, {"W", 20}};  // W > 16: a loop, not unrolled
  std::string dropped, kept;
  EXPECT_MATCHES(lowerAndRun(text, "stencil2dCross",
                             "prepare; topDown(dropZeroTerms); lowerDefault; unrollSmall", d,
                             &dropped));
  EXPECT_MATCHES(lowerAndRun(text, "stencil2dCross", "lowerDefault; unrollSmall", d, &kept));
  EXPECT_EQ(count(dropped, "0.2f * "), 5u) << dropped;
  EXPECT_EQ(count(dropped, "0.0f * "), 0u) << dropped;
  EXPECT_EQ(count(dropped, "__constant"), 0u) << dropped;
  EXPECT_EQ(count(kept, "0.2f * "), 5u) << kept;
  EXPECT_EQ(count(kept, "0.0f * "), 4u) << kept;
}

}  // namespace
}  // namespace fftc::codegen_test
