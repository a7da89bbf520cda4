// The search space of a kernel's fft operations (fftlib/tune/fft_ops_space.h): its contents for
// a small convolution against a hand count, the planner's configuration in it and expanding as
// the default does, column tiles without rows per group, the planner's veto of a plan that is
// not the one-kernel form, and a configuration's JSON read back.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>

#include "backends/common/device_error.h"
#include "compiler/frontend/frontend.h"
#include "fftlib/plan/fft_ops.h"
#include "fftlib/tune/fft_ops_space.h"

namespace fftc::fftlib::tune {
namespace {

using Radices = std::vector<int64_t>;

compiler::frontend::Kernel kernelOf(const std::string& text,
                                    std::map<std::string, compiler::frontend::DefineValue> d) {
  compiler::frontend::ElaborateOptions o;
  o.defines = std::move(d);
  return compiler::frontend::compileSource(text, "ops.fdl", o).kernels.at(0);
}

// examples/convolution.fdl
constexpr const char* kConv = R"(
kernel conv(x: [[complex]N]B, H: [complex]N) =
  map(fun row => map(fun y => y * (1.0 / N)) <<: ifft <<: map(mult) <<: zip(fft(row), H)) <<: x
)";

// 64 points, 2 rows, radices of {2, 4, 8, 16, 32}: the fewest passes are 2, the space's
// sequences have 2 or 3 (FftSpaceOptions::extraPasses 1). Two passes: [2, 32], [32, 2], [4, 16],
// [16, 4], [8, 8]. Three: the orders of 2·2·16 ([2, 2, 16], [2, 16, 2], [16, 2, 2]) and
// [4, 4, 4]; those of 2·4·8 are pruned (2 · 4 = 8: one pass of 8 does the work of the two). A
// shape has at most 2 rows per group (the batch) and at most 64 / r work-items per row, r the
// smallest radix (its pass's butterflies), at least 64 / (4 R), R the largest (FftSpace's
// workgroupCandidates): [32, 2] every power of two 1 .. 32, 1 or 2 rows. With the planner's
// shape [0, 0] per sequence: [2, 32], [32, 2] and the three of 2·2·16, 6 widths x 2 + 1 = 13
// each; [4, 16], [16, 4] 5 x 2 + 1 = 11 each (1 .. 16); [8, 8] 3 x 2 + 1 = 7 (2 .. 8); [4, 4,
// 4] 3 x 2 + 1 = 7 (4 .. 16); the planner's plan 1: 5 x 13 + 2 x 11 + 7 + 7 + 1 = 102.
TEST(FftOpsSpace, ASmallConvolutionsPlansCountedByHand) {
  const auto k = kernelOf(kConv, {{"N", 64}, {"B", 2}});
  const ExpandedFftOps heuristic = expandFftOps(k);
  ASSERT_EQ(heuristic.formRequests.size(), 1U);
  const FftOpsSpace space(heuristic);
  ASSERT_EQ(space.forms(), 1U);
  std::set<Radices> radices;
  std::map<Radices, std::set<std::pair<int64_t, int64_t>>> shapes;
  for (const auto& f : space.candidates(0)) {
    radices.insert(f.radices);
    shapes[f.radices].insert({f.workgroupSize, f.fftsPerGroup});
  }
  EXPECT_EQ(radices, (std::set<Radices>{{},
                                        {2, 32},
                                        {32, 2},
                                        {4, 16},
                                        {16, 4},
                                        {8, 8},
                                        {2, 2, 16},
                                        {2, 16, 2},
                                        {16, 2, 2},
                                        {4, 4, 4}}));
  EXPECT_EQ(shapes.at({}), (std::set<std::pair<int64_t, int64_t>>{{0, 0}}));
  std::set<std::pair<int64_t, int64_t>> all{{0, 0}};
  for (int64_t w = 1; w <= 32; w *= 2) all.insert({{w, 1}, {w, 2}});
  EXPECT_EQ(shapes.at({32, 2}), all);
  for (const auto& [rs, ss] : shapes)
    for (const auto& [w, f] : ss) {
      EXPECT_LE(f, 2);
      if (!rs.empty()) {
        EXPECT_LE(w, 64 / *std::min_element(rs.begin(), rs.end()));
      }
    }
  // the space: one configuration per candidate
  EXPECT_EQ(space.space().size(), space.candidates(0).size());
  EXPECT_EQ(space.space().size(), 102U);
  // the planner's configuration is in it and expands as the default options do
  const auto h = space.space().indexOf(space.heuristicConfig());
  ASSERT_TRUE(h.has_value());
  const ExpandedFftOps again = expandFftOps(k, {}, space.options(space.space().at(*h)));
  EXPECT_EQ(again.operations, heuristic.operations);
  EXPECT_EQ(again.stageLocal, heuristic.stageLocal);
  // a candidate's plan is the one the expansion takes: its radices, forward then reversed
  const FftOpsOptions o = fftOpsOptionsFromJson(
      boost::json::parse(R"({"form0.radices": [32, 2], "form0.shape": [32, 2]})").as_object());
  const ExpandedFftOps e = expandFftOps(k, {}, o);
  ASSERT_EQ(e.operations.size(), 2U);
  EXPECT_NE(e.operations[0].find("radices 32, 2 (one kernel, 32 work-items x 2 rows"),
            std::string::npos)
      << e.operations[0];
  EXPECT_NE(e.operations[1].find("radices 2, 32"), std::string::npos) << e.operations[1];
}

// conv2d's three row maps: rows, a tile of adjacent columns (whose columns per group are
// columnTileLines', so no candidate names them), rows.
TEST(FftOpsSpace, ColumnTilesChooseNoRowsPerGroup) {
  const auto k = kernelOf(R"(
def zero = {0.0, 0.0}
kernel conv2d(x: [[complex]N]M, H: [[complex](2 * N)](2 * M)) =
  map(fun row => crop(0, N) <<: ifft <<: row)
  <<: transpose <<: map(fun (col, h) =>
        crop(0, M) <<: ifft <<: map(mult) <<: zip(fft <<: pad(0, M, zero) <<: col, h))
  <<: zip(transpose <<: map(fft o pad(0, N, zero)) <<: x, transpose <<: H)
)",
                          {{"M", 16}, {"N", 32}});
  const ExpandedFftOps heuristic = expandFftOps(k);
  ASSERT_EQ(heuristic.formRequests.size(), 3U);
  EXPECT_EQ(heuristic.formColumns, (std::vector<bool>{false, true, false}));
  const FftOpsSpace space(heuristic);
  for (const auto& f : space.candidates(1)) EXPECT_EQ(f.fftsPerGroup, 0);
  EXPECT_GT(space.candidates(1).size(), 1U);
  EXPECT_GT(space.candidates(0).size(), 1U);
}

TEST(FftOpsSpace, ThePlannersVetoAndBadConfigurations) {
  const auto k = kernelOf(kConv, {{"N", 64}, {"B", 2}});
  // 2048 work-items a row: the planner refuses the shape (more than 1024 work-items), and the
  // message says which row map
  FftOpsOptions o;
  o.forms = {FftOpsForm{{8, 8}, 2048, 1}};
  try {
    (void)expandFftOps(k, {}, o);
    ADD_FAILURE() << "no veto";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("row map 0 (2 x 64 f32): work-group size 2048"),
              std::string::npos)
        << e.what();
  }
  // radices whose product is not the size
  o.forms = {FftOpsForm{{8, 4}, 0, 0}};
  EXPECT_THROW((void)expandFftOps(k, {}, o), backends::UserError);
  auto bad = [](const std::string& json) {
    SCOPED_TRACE(json);
    EXPECT_THROW((void)fftOpsOptionsFromJson(boost::json::parse(json).as_object()),
                 backends::UserError);
  };
  bad(R"({"form0.radix": [8, 8]})");
  bad(R"({"formx.radices": [8, 8]})");
  bad(R"({"form0.shape": [8]})");
  bad(R"({"form0.radices": "8,8"})");
  bad(R"({"minBlocksPerSm": -1})");
  const FftOpsOptions read = fftOpsOptionsFromJson(
      boost::json::parse(R"({"form1.radices": [4, 16], "minBlocksPerSm": 2})").as_object());
  ASSERT_EQ(read.forms.size(), 2U);
  EXPECT_TRUE(read.forms[0].isDefault());
  EXPECT_EQ(read.forms[1].radices, (Radices{4, 16}));
  EXPECT_EQ(read.minBlocksPerSm, 2);
}

}  // namespace
}  // namespace fftc::fftlib::tune
