// The planner's thread-block cluster plan (FftRequest::clusterBlocks, fftc --cluster C; fft.fdl
// fourStepCluster where three arrays of N / C fit a block, else stockhamCluster, docs/fft-api.md
// "Thread-block clusters"): its radices, shape and arrays, the
// one-pass CUDA plan it compiles to, and the requests it refuses. The kernel's numbers are
// checked through the interpreter (tests/fftlib ClusterKernelIsTheDft) and on the GPU.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "fftlib/plan/plan_choice.h"
#include "fftlib/plan/planner.h"

namespace fftc::fftlib::test {
namespace {

constexpr int64_t kH200SharedMemory = 232448;  // a block's opt-in shared memory (sm_90)

FftRequest clusterRequest(int64_t n, int64_t c, int64_t batch = 4) {
  FftRequest r;
  r.size = n;
  r.batch = batch;
  r.clusterBlocks = c;
  r.target = compiler::pipeline::Target::Cuda;
  r.localMemoryBytes = kH200SharedMemory;
  r.format = false;
  return r;
}

// fourStepCluster: M = N / C's radices (the fewest passes of radix 16 at most with at most 1024
// butterflies each), then C; a block's work-items are the smallest radix's butterflies. 2^15
// over 4: M = 8192; over 8: 4096.
TEST(ClusterPlan, FourStepRadicesAndWorkItems) {
  struct Row {
    int64_t n, c;
    Radices rs;
    int64_t w;
    bool oneArray;  // where one array lets a multiprocessor hold more blocks (2 -> 3 at 2^15/8)
  };
  for (const Row& row :
       {Row{32768, 4, {16, 8, 8, 8, 4}, 1024, false}, Row{32768, 8, {16, 16, 16, 8}, 256, true},
        Row{65536, 8, {16, 8, 8, 8, 8}, 1024, false}}) {
    SCOPED_TRACE(std::to_string(row.n) + " over " + std::to_string(row.c));
    const PlanChoice p = choosePlan(clusterRequest(row.n, row.c));
    EXPECT_EQ(p.kernel, "fourStepCluster");
    EXPECT_EQ(p.radices, row.rs);
    EXPECT_EQ(std::get<int64_t>(p.defines.at("W")), row.w);
    ASSERT_EQ(p.stageLocal.size(), 1u);
    EXPECT_EQ(p.stageLocal[0], (std::vector<int64_t>{row.w, 1}));
    EXPECT_EQ(p.localReuseInPass, row.oneArray);
    const auto* local = p.as<LocalChoice>();
    ASSERT_TRUE(local);
    EXPECT_EQ(local->clusterBlocks, row.c);
  }
  // radices asked for: M's, then C (else stockhamCluster's)
  FftRequest given = clusterRequest(32768, 4);
  given.radices = {32, 16, 16, 4};
  const PlanChoice p = choosePlan(given);
  EXPECT_EQ(p.kernel, "fourStepCluster");
  EXPECT_EQ(std::get<int64_t>(p.defines.at("W")), 512);
}

// stockhamCluster where the four-step's three arrays of N / C do not fit a block.
TEST(ClusterPlan, RadicesShapeAndArrays) {
  struct Row {
    int64_t n, c;
    Radices rs;
    int64_t perBlock;
    bool oneArray;
  };
  // 2^15 over 2: [16, 16, 16, 8] would take 2048 work-items a block, so radix 32s, and the
  // 128 KiB share in one array; 2^17 over 8: radix 16 at least, 128 KiB a block
  for (const Row& row :
       {Row{32768, 2, {32, 32, 32}, 512, true}, Row{65536, 4, {16, 16, 16, 16}, 1024, true},
        Row{131072, 8, {32, 16, 16, 16}, 1024, true}}) {
    SCOPED_TRACE(std::to_string(row.n) + " over " + std::to_string(row.c));
    const PlanChoice p = choosePlan(clusterRequest(row.n, row.c));
    EXPECT_EQ(p.kernel, "stockhamCluster");
    EXPECT_EQ(p.radices, row.rs);
    EXPECT_EQ(std::get<int64_t>(p.defines.at("C")), row.c);
    ASSERT_EQ(p.stageLocal.size(), 1u);
    EXPECT_EQ(p.stageLocal[0], (std::vector<int64_t>{row.perBlock, 1}));
    EXPECT_EQ(p.localReuseInPass, row.oneArray);
    const auto* local = p.as<LocalChoice>();
    ASSERT_TRUE(local);
    EXPECT_EQ(local->clusterBlocks, row.c);
    EXPECT_EQ(local->loopedWorkItems, 0);  // W is stockhamLocal's, not stockhamCluster's
  }
}

// One stage over global memory, the kernel of clusters, each block its share of the arrays:
// 2^15 over 4 (fourStepCluster), the distributed array's share and the block's two arrays of
// 8192 complex floats (those padded by one element in 16: CodegenOptions::localPadding); 2^16 over 4 (stockhamCluster), one array of 16384 (the passes share it:
// code generation's in-pass reuse across the cluster).
TEST(ClusterPlan, CompilesToOnePass) {
  struct Row {
    int64_t n, c, localBytes;
  };
  for (const Row& row : {Row{32768, 4, (8192 + 2 * (8192 + 511)) * 8}, Row{65536, 4, 16384 * 8}}) {
    SCOPED_TRACE(row.n);
    auto plan = planFft(clusterRequest(row.n, row.c));
    EXPECT_EQ(plan->strategy, "lowerFft") << plan->fallbackReason;
    ASSERT_EQ(plan->compiled.stages.size(), 1u);
    const auto& st = plan->compiled.stages[0];
    EXPECT_EQ(st.clusterBlocks, row.c);
    EXPECT_EQ(st.localMemoryBytes, row.localBytes);
    EXPECT_EQ(plan->bytesMoved, 2 * row.n * 8 * 4);
    EXPECT_NE(plan->compiled.source.find("__cluster_dims__(" + std::to_string(row.c) + ", 1, 1)"),
              std::string::npos);
    EXPECT_NE(plan->describe().find("a thread-block cluster of " + std::to_string(row.c)),
              std::string::npos)
        << plan->describe();
  }
}

TEST(ClusterPlan, Refusals) {
  auto refused = [](FftRequest r, const std::string& what) {
    try {
      (void)choosePlan(r);
      ADD_FAILURE() << "planned: " << what;
    } catch (const backends::UserError& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  FftRequest opencl = clusterRequest(32768, 4);
  opencl.target = compiler::pipeline::Target::OpenCL;
  refused(opencl, "the OpenCL target has none");
  refused(clusterRequest(32768, 9), "a thread-block cluster of 2 to 8 blocks");
  refused(clusterRequest(32768, 1), "a thread-block cluster of 2 to 8 blocks");
  FftRequest hier = clusterRequest(32768, 4);
  hier.variant = Variant::Hierarchical;
  refused(hier, "not the hierarchical variant");
  // 2^18 f32 is 256 KiB a block of 8
  refused(clusterRequest(262144, 8), "more than the 232448 a work-group may take");
  FftRequest given = clusterRequest(32768, 2);
  given.radices = {16, 16, 16, 8};
  refused(given, "take 2048 work-items a block, more than 1024");
  FftRequest nd = clusterRequest(32768, 4);
  nd.dims = {128, 256};
  refused(nd, "not of N-D or real plans");
}

}  // namespace
}  // namespace fftc::fftlib::test
