// The stages pass (compiler/codegen/stages.h): launch geometry and address-space inference
// (compiler/codegen/address_space.h), each from a hand-made stage.
#include "compiler/codegen/address_space.h"
#include "compiler/codegen/stages.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

using backends::MemSpace;

std::vector<std::string> strs(const std::vector<ir::ArithExpr>& v) {
  std::vector<std::string> out;
  for (const auto& e : v) out.push_back(e.str());
  return out;
}

TEST(StageGeometry, WorkgroupsTimesTheLongestRowLoop) {
  cg::StageDraft st;
  st.parallel = true;
  st.dims = 2;
  st.groups[0] = ir::ArithExpr(16);
  st.local[0] = 64;
  st.local[1] = 4;
  cg::StageInfo si;
  cg::stageGeometry(st, options(), si);
  EXPECT_EQ(strs(si.global), (std::vector<std::string>{"1024", "4"}));
  EXPECT_EQ(strs(si.local), (std::vector<std::string>{"64", "4"}));
  st.barrierRows[0] = 8;  // a barrier inside a row loop of 8: every work-item runs it once
  cg::StageInfo rows;
  cg::stageGeometry(st, options(), rows);
  EXPECT_EQ(strs(rows.global), (std::vector<std::string>{"128", "4"}));
  EXPECT_EQ(strs(rows.local), (std::vector<std::string>{"8", "4"}));
  // A caller's shape (an FFT plan's) must keep a barrier's row loop: another size would leave
  // work-items out of the barrier (or run the loop twice across it).
  cg::StageInfo bad;
  EXPECT_THROW(cg::stageGeometry(st, options(), bad, {2}), ir::CompileError);
  cg::StageInfo kept;
  cg::stageGeometry(st, options(), kept, {8});
  EXPECT_EQ(strs(kept.local), (std::vector<std::string>{"8", "4"}));
  // Without a barrier in a row loop it resizes the 16 work-groups of dimension 0 and leaves
  // dimension 1, which it does not name.
  st.barrierRows[0] = 0;
  cg::StageInfo shaped;
  cg::stageGeometry(st, options(), shaped, {2});
  EXPECT_EQ(strs(shaped.global), (std::vector<std::string>{"32", "4"}));
  EXPECT_EQ(strs(shaped.local), (std::vector<std::string>{"2", "4"}));
}

TEST(StageGeometry, GlobalLoopsAndSequentialStages) {
  cg::StageDraft st;
  st.parallel = true;
  st.global[0] = ir::ArithExpr(1000);
  cg::StageInfo si;
  cg::stageGeometry(st, options(), si);
  EXPECT_EQ(strs(si.global), (std::vector<std::string>{"1000"}));
  EXPECT_TRUE(si.local.empty());  // the driver chooses
  cg::CodegenOptions o = options();
  o.defaultLocalSize = 64;
  cg::StageInfo rounded;
  cg::stageGeometry(st, o, rounded);
  EXPECT_EQ(strs(rounded.global), (std::vector<std::string>{"1024"}));
  EXPECT_EQ(strs(rounded.local), (std::vector<std::string>{"64"}));
  cg::StageDraft seq;
  cg::StageInfo one;
  cg::stageGeometry(seq, options(), one);
  EXPECT_EQ(strs(one.global), (std::vector<std::string>{"1"}));
  EXPECT_EQ(strs(one.local), (std::vector<std::string>{"1"}));
}

TEST(AddressSpace, InferredFromLoopsAndSize) {
  const auto o = options();
  const ir::Type f = ir::Type::real(ir::ScalarKind::Float);
  const ir::Type small = ir::Type::array(f, 64), big = ir::Type::array(f, 65);
  const ir::Type symbolic = ir::Type::array(f, ir::ArithExpr::sizeVar("N"));
  EXPECT_EQ(cg::inferAddressSpace(small, std::nullopt, false, o), MemSpace::Global);
  EXPECT_EQ(cg::inferAddressSpace(small, std::nullopt, true, o), MemSpace::Private);
  EXPECT_EQ(cg::inferAddressSpace(big, std::nullopt, true, o), MemSpace::Global);
  EXPECT_EQ(cg::inferAddressSpace(symbolic, std::nullopt, true, o), MemSpace::Global);
  EXPECT_EQ(cg::inferAddressSpace(big, MemSpace::Local, true, o), MemSpace::Local);
  // a scalar inside a loop is a private variable whatever toX says
  EXPECT_EQ(cg::inferAddressSpace(f, MemSpace::Global, true, o), MemSpace::Private);
  EXPECT_EQ(cg::inferAddressSpace(f, std::nullopt, false, o), MemSpace::Global);
  EXPECT_EQ(cg::memSpaceOf(ir::AddressSpace::Local), MemSpace::Local);
}

}  // namespace
}  // namespace fftc::codegen_test
