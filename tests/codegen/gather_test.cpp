// gather(idx), the view with a compile-time index list (Rader's permutations, fftlib/rader.fdl):
// read through an int table where the index is not a constant, folded where it is, written
// through the inverse permutation, each on PoCL against the interpreter.
#include <gtest/gtest.h>

#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

TEST(Gather, ReadThroughAnIndexTable) {
  const std::string text =
      "kernel k(x: [float]5) = mapGlobal(fun v => v * 2.0f) <<: gather([3, 0, 4, 1, 2]) <<: x";
  auto c = checkText(text, "k");
  EXPECT_MATCHES(c);
  // the index of x is the table's entry: x[tab[gid]]
  EXPECT_NE(c.compiled.source.find("x[tab[gid]]"), std::string::npos) << c.compiled.source;
  EXPECT_NE(c.compiled.source.find("int tab[5]"), std::string::npos) << c.compiled.source;
}

TEST(Gather, ConstantIndicesNeedNoTable) {
  const std::string text =
      "kernel k(x: [[float]4]8) = mapGlobal(λ(r => mapSeqUnroll(fun v => v + 1.0f)"
      " <<: gather([2, 3, 0, 1]) <<: r)) <<: x";
  auto c = checkText(text, "k");
  EXPECT_MATCHES(c);
  // (the table is still declared: gatherOf makes it with the view)
  EXPECT_EQ(count(c.compiled.source, "x[tab"), 0u) << c.compiled.source;
  EXPECT_NE(c.compiled.source.find("x[4 * gid + 2]"), std::string::npos) << c.compiled.source;
}

TEST(Gather, APermutationIsWrittenThroughItsInverse) {
  // out[k] = 3 x[idx[k]]: the map's element j is stored at inverse(idx)[j]
  const std::string text =
      "kernel k(x: [float]6) = gather([1, 2, 0, 5, 3, 4]) <<: mapGlobal(fun v => v * 3.0f) <<: x";
  auto c = checkText(text, "k");
  EXPECT_MATCHES(c);
  EXPECT_NE(c.compiled.source.find("out[tab[gid]] ="), std::string::npos) << c.compiled.source;
}

TEST(Gather, RepeatedIndicesAreReadNotWritten) {
  const std::string text =
      "kernel k(x: [float]3) = gather([0, 0, 2, 1]) <<: mapGlobal(fun v => v + 1.0f) <<: x";
  EXPECT_MATCHES(checkText(text, "k"));
}

TEST(Gather, AnIndexBeyondTheArrayIsAnError) {
  EXPECT_THROW(compileText("kernel k(x: [float]5) = gather([0, 5]) <<: x", "k"), ir::CompileError);
  EXPECT_THROW(compileText("kernel k(x: [float]5) = gather([0, -1]) <<: x", "k"),
               ir::CompileError);
}

}  // namespace
}  // namespace fftc::codegen_test
