// mapCluster (docs/language.md, "Thread-block clusters"): the interpreter's meaning (a map), the
// type rules for nesting, the one-line error of the OpenCL target, and the CUDA C of a kernel
// whose local array is distributed over the blocks of a cluster (NVRTC compiles it in
// tests/cuda_codegen through examples/cluster.fdl; a GPU runs it in the GPU label).
#include <gtest/gtest.h>

#include <string>

#include "backends/common/cuda_dialect.h"
#include "ir/interpreter.h"
#include "ir/printer.h"
#include "rewrites/equality.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

// Each row through a local array distributed over a cluster of C work-groups, then read as the
// stride permutation join o transpose o split(2): output i is row[(i % (N/2)) * 2 + i / (N/2)].
const char* kPerm = R"(
kernel perm(x: [[float]N]B) =
  mapCluster(C, λ(row =>
    toGlobal(mapLocal(id)) <<: join <<: transpose <<: split(2) <<: toLocal(mapLocal(id)) <<: row))
  <<: x
)";

cg::CodegenOptions cudaOptions() {
  cg::CodegenOptions o;
  o.dialect = std::make_shared<backends::CudaDialect>();
  o.format = false;
  return o;
}

TEST(Cluster, InterpreterIsAMapOverTheRows) {
  fe::ElaborateOptions eo;
  eo.defines["N"] = 8;
  eo.defines["B"] = 2;
  eo.defines["C"] = 2;
  fe::Program p = fe::compileSource(kPerm, "perm.fdl", eo);
  std::vector<ir::Value> rows;
  for (int b = 0; b < 2; ++b) {
    std::vector<ir::Value> row;
    for (int i = 0; i < 8; ++i) row.push_back(ir::Value::ofFloat(static_cast<float>(10 * b + i)));
    rows.push_back(ir::Value::array(row));
  }
  ir::Value out = ir::interpretCall(p.kernel("perm")->lambda, {ir::Value::array(rows)});
  ASSERT_EQ(out.size(), 2u);
  for (size_t b = 0; b < 2; ++b)
    for (size_t i = 0; i < 8; ++i)  // hand-checked: 0 2 4 6 1 3 5 7
      EXPECT_EQ(out[b][i].asReal(), static_cast<double>(10 * b + (i % 4) * 2 + i / 4)) << i;
}

TEST(Cluster, PrintsAsWritten) {
  fe::ElaborateOptions eo;
  eo.defines["C"] = 4;
  fe::Program p = fe::compileSource(kPerm, "perm.fdl", eo);
  const std::string text = ir::print(ir::FunPtr(p.kernel("perm")->lambda));
  EXPECT_NE(text.find("mapCluster(4, "), std::string::npos) << text;
  // a plain mapWorkgroup is not a cluster of one, and the two are different functions
  auto one = ir::MapWorkgroup::makeCluster(1, ir::Id::make());
  EXPECT_EQ(ir::print(ir::FunPtr(one)), "mapWorkgroup(0, id)");
  // the cluster's size is part of the pattern: rewriting keeps it, equality tells them apart
  const ir::FunPtr two = ir::MapWorkgroup::makeCluster(2, ir::Id::make());
  const ir::FunPtr four = ir::MapWorkgroup::makeCluster(4, ir::Id::make());
  EXPECT_TRUE(rewrites::alphaEqual(two, ir::MapWorkgroup::makeCluster(2, ir::Id::make())));
  EXPECT_FALSE(rewrites::alphaEqual(two, four));
  EXPECT_FALSE(rewrites::alphaEqual(two, ir::FunPtr(ir::MapWorkgroup::make(0, ir::Id::make()))));
  const ir::FunPtr rebuilt = two->withChildren({ir::Id::make()}, {});
  EXPECT_EQ(rebuilt->as<ir::MapWorkgroup>()->cluster(), 2);
}

TEST(Cluster, NestingAndSizeErrors) {
  auto error = [](const std::string& text, const std::map<std::string, int64_t>& d = {}) {
    try {
      (void)compileText(text, "k", d, cudaOptions());
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("kernel k(x: [[float]8]2) = mapCluster(9, mapLocal(id)) <<: x")
                .find("mapCluster: a cluster of 9 work-groups (1 to 8)"),
            std::string::npos);
  EXPECT_NE(
      error("kernel k(x: [[[float]8]2]2) = mapCluster(2, mapWorkgroup(0, mapLocal(id))) <<: x")
          .find("a thread-block cluster is the only work-group level"),
      std::string::npos);
  EXPECT_NE(
      error("kernel k(x: [[[float]8]2]2) = mapWorkgroup(1, mapCluster(2, mapLocal(id))) <<: x")
          .find("a thread-block cluster is the only work-group level"),
      std::string::npos);
  // 3 blocks do not share 8 elements evenly
  EXPECT_NE(error("kernel k(x: [[float]8]2) = mapCluster(3, λ(r => toGlobal(mapLocal(id)) <<: "
                  "toLocal(mapLocal(id)) <<: r)) <<: x")
                .find("their number must divide its size"),
            std::string::npos);
}

TEST(Cluster, OpenCLHasNone) {
  try {
    (void)compileText(kPerm, "perm", {{"N", 64}, {"B", 2}, {"C", 2}});
    FAIL() << "compiled for OpenCL";
  } catch (const ir::CompileError& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("mapCluster needs thread-block clusters, which the opencl target does not "
                     "have"),
              std::string::npos)
        << m;
    EXPECT_EQ(m.find('\n'), std::string::npos) << m;
  }
}

TEST(Cluster, CudaDistributesTheLocalArray) {
  cg::CompiledKernel ck =
      compileText(kPerm, "perm", {{"N", 2048}, {"B", 3}, {"C", 2}}, cudaOptions());
  const std::string& s = ck.source;
  ASSERT_EQ(ck.stages.size(), 1u);
  const cg::StageInfo& st = ck.stages[0];
  EXPECT_EQ(st.clusterBlocks, 2);
  // 3 rows, 2 blocks each, of 1024 work-items (the loops' 2048 over the cluster)
  ASSERT_EQ(st.local.size(), 1u);
  EXPECT_EQ(st.local[0].str(), "1024");
  EXPECT_EQ(st.global[0].str(), std::to_string(3 * 2 * 1024));
  // each block holds half of the 2048 floats: 4 KiB, static
  EXPECT_EQ(st.localMemoryBytes, 1024 * 4);
  EXPECT_NE(s.find("__launch_bounds__(1024) __cluster_dims__(2, 1, 1)"), std::string::npos) << s;
  EXPECT_NE(s.find("__shared__ float l[1024]"), std::string::npos) << s;
  // the write is to the work-item's own element; the read of output i is element
  // (i % 1024) * 2 + i / 1024, in block ((i >> 9) & 1)
  EXPECT_NE(s.find("fftc_cluster_array(l, (lid >> 10))[(lid & 1023)] = "), std::string::npos) << s;
  EXPECT_NE(s.find("fftc_cluster_array(l, ((lid_1 >> 9) & 1))[(lid_1 >> 10) + 2 * (lid_1 & 511)]"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("mapa.u64"), std::string::npos) << s;
  EXPECT_NE(s.find("barrier.cluster.arrive"), std::string::npos) << s;
  EXPECT_EQ(s.find("__syncthreads"), std::string::npos) << s;
  // the row loop over clusters and the work-item loop over the cluster's work-items
  EXPECT_NE(s.find("for (int wg = (int)blockIdx.x / 2; wg < 3; wg += (int)gridDim.x / 2)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("for (int lid = (((int)blockIdx.x % 2) * (int)blockDim.x) + (int)threadIdx.x; "
                   "lid < 2048; lid += (int)blockDim.x * 2)"),
            std::string::npos)
      << s;
  // start, the write/read barrier, the end of a row (the next row overwrites the array), end
  size_t syncs = 0;
  for (size_t at = s.find("fftc_cluster_sync();"); at != std::string::npos;
       at = s.find("fftc_cluster_sync();", at + 1))
    ++syncs;
  EXPECT_EQ(syncs, 4u) << s;
}

// mapBlock: each row through a distributed array (block k loads its half, its own), then block
// k gathers the elements k + 2m (the other block's half remote), keeps them in its own local
// array and writes them out as the stride permutation of its half: output k N/2 + i is
// row[k + 2 ((i % (N/4)) * 2 + i / (N/4))].
const char* kBlocks = R"(
kernel blocks(x: [[float]N]B) =
  mapCluster(2, λ(row =>
    join <<: mapBlock(λ(r =>
      toGlobal(mapLocal(id)) <<: join <<: transpose <<: split(2) <<: toLocal(mapLocal(id)) <<: r))
    <<: transpose <<: split(2) <<: join <<: toLocal(mapBlock(mapLocal(id))) <<: split(N / 2) <<: row))
  <<: x
)";

TEST(Cluster, BlocksInterpreterIsTheirMap) {
  fe::ElaborateOptions eo;
  eo.defines["N"] = 8;
  eo.defines["B"] = 1;
  fe::Program p = fe::compileSource(kBlocks, "blocks.fdl", eo);
  std::vector<ir::Value> row;
  for (int i = 0; i < 8; ++i) row.push_back(ir::Value::ofFloat(static_cast<float>(i)));
  ir::Value out = ir::interpretCall(p.kernel("blocks")->lambda, {ir::Value::array({ir::Value::array(row)})});
  ASSERT_EQ(out.size(), 1u);
  // hand-checked: block 0 gathers 0 2 4 6 and writes 0 4 2 6; block 1: 1 3 5 7 -> 1 5 3 7
  const double expected[] = {0, 4, 2, 6, 1, 5, 3, 7};
  for (size_t i = 0; i < 8; ++i) EXPECT_EQ(out[0][i].asReal(), expected[i]) << i;
}

TEST(Cluster, CudaBlocksOwnArraysAndBarriers) {
  cg::CompiledKernel ck = compileText(kBlocks, "blocks", {{"N", 2048}, {"B", 3}}, cudaOptions());
  const std::string& s = ck.source;
  ASSERT_EQ(ck.stages.size(), 1u);
  EXPECT_EQ(ck.stages[0].clusterBlocks, 2);
  // a block's loops are its own: 1024 work-items, the distributed array's share (1024 floats,
  // dense) and the block's own array (1024, padded by one in 16: CodegenOptions::localPadding)
  EXPECT_EQ(ck.stages[0].local[0].str(), "1024");
  EXPECT_EQ(ck.stages[0].localMemoryBytes, (1024 + 1024 + 1023 / 16) * 4);
  EXPECT_NE(s.find("for (int blk = (int)blockIdx.x % 2; blk < 2; blk += 2)"), std::string::npos) << s;
  // the load into the block's own share: a plain store; the gather: through mapa
  EXPECT_NE(s.find("  l[lid] = "), std::string::npos) << s;
  EXPECT_EQ(s.find("fftc_cluster_array(l, blk"), std::string::npos) << s;
  EXPECT_NE(s.find("fftc_cluster_array(l, "), std::string::npos) << s;
  // the block's own array: the block's barrier; the distributed one: the cluster's
  EXPECT_NE(s.find("__syncthreads()"), std::string::npos) << s;
  const size_t gather = s.find("fftc_cluster_array(l, ");
  ASSERT_NE(gather, std::string::npos);
  EXPECT_LT(s.rfind("fftc_cluster_sync();", gather), gather) << s;
  EXPECT_GT(s.rfind("fftc_cluster_sync();", gather), s.find("  l[lid] = ")) << s;
}

TEST(Cluster, BlocksNestingErrors) {
  auto error = [](const std::string& text) {
    try {
      (void)compileText(text, "k", {}, cudaOptions());
    } catch (const std::exception& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("kernel k(x: [[float]8]2) = mapWorkgroup(λ(r => join <<: mapBlock(mapLocal(id)) "
                  "<<: split(4) <<: r)) <<: x")
                .find("mapBlock must be nested inside a mapCluster"),
            std::string::npos);
  EXPECT_NE(error("kernel k(x: [[float]8]2) = mapCluster(2, λ(r => join <<: mapBlock(mapLocal(id)) "
                  "<<: split(2) <<: r)) <<: x")
                .find("mapBlock over 4 rows in a cluster of 2 work-groups: a row a block"),
            std::string::npos);
  // a loop between the cluster and its blocks: each block's row must be the cluster's own
  EXPECT_NE(error("kernel k(x: [[float]8]2) = mapCluster(2, λ(r => join <<: mapSeq(λ(q => join "
                  "<<: mapBlock(mapLocal(id)) <<: split(2) <<: q)) <<: split(4) <<: r)) <<: x")
                .find("mapBlock must be directly inside a mapCluster (no loop between)"),
            std::string::npos);
}

}  // namespace
}  // namespace fftc::codegen_test
