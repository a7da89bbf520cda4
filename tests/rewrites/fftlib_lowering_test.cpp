// Every kernel of the FFT library (fftlib/*.fdl) through lowerDefault and lowerFft: the lowered
// kernels compute what the high-level ones compute, and nothing computing is left high-level.
#include <gtest/gtest.h>

#include <filesystem>

#include "compiler/frontend/frontend.h"
#include "ir/printer.h"
#include "rewrites/named_strategies.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

namespace fs = std::filesystem;
using namespace ir;

using testing::fftlibDir;

void lowerEveryKernel(const std::string& file) {
  fs::path path = fftlibDir() / file;
  // A missing library file is a broken checkout or build layout, never a reason to pass.
  ASSERT_TRUE(fs::exists(path)) << path << " is missing: the FFT library was not found";
  compiler::frontend::ElaborateOptions opts;
  opts.precision = ScalarKind::Double;
  opts.defines["B"] = int64_t{2};
  auto prog = compiler::frontend::parseFile(path.string(), opts);
  ASSERT_FALSE(prog.kernels.empty());
  std::mt19937_64 rng(7);
  for (const auto& k : prog.kernels) {
    SCOPED_TRACE(file + ": " + k.name);
    std::vector<Value> args;
    for (const auto& p : k.lambda->params()) args.push_back(testing::randomValue(p->type(), rng));
    Value want = interpretCall(k.lambda, args);
    for (const char* name : {"lowerDefault", "lowerFft"}) {
      SCOPED_TRACE(name);
      RewriteResult info;
      LambdaPtr low = rewriteKernel(k.lambda, *namedStrategy(name), {}, &info);
      ASSERT_FALSE(info.budgetHit) << info.report();
      EXPECT_EQ(testing::countKind(low->body(), FunKind::Reduce), 0);
      testing::forEachFun(low->body(), [](const FunDecl& f, const auto&) {
        if (f.kind() == FunKind::Map) {
          EXPECT_TRUE(ir::isView(f));
        }
      });
      // the local-memory kernels are mapWorkgroups (one per level, or per pass of
      // bluesteinFourStep; stockhamCluster's and fourStepCluster's mapCluster is one); the others a mapGlobal per pass
      const bool local = k.name.find("Local") != std::string::npos ||
                         k.name == "bluesteinFourStep" || k.name.find("Cluster") != std::string::npos;
      EXPECT_GE(testing::countKind(low->body(), local ? FunKind::MapWorkgroup : FunKind::MapGlobal),
                1);
      // lowerFft on the batched radix kernels: one mapGlobal per pass over all butterflies of
      // all batch rows (the map-zip flattening applied at the kron level, then the batch
      // level), nothing but the accumulators private
      if (std::string(name) == "lowerFft" && (k.name == "stockham" || k.name == "cooleyTukey")) {
        EXPECT_EQ(testing::countKind(low->body(), FunKind::MapGlobal), 3) << print(low->body());
        EXPECT_EQ(testing::countKind(low->body(), FunKind::MapSeq) +
                      testing::countKind(low->body(), FunKind::MapSeqUnroll),
                  3);
        EXPECT_EQ(testing::countKind(low->body(), FunKind::ToPrivate), 0);
      }
      std::string why;
      EXPECT_TRUE(testing::valuesClose(want, interpretCall(low, args), 1e-9, &why)) << why;
    }
  }
}

TEST(FftlibLowering, RadixKernels) {
  lowerEveryKernel("fft.fdl");
}
TEST(FftlibLowering, HierarchicalKernels) {
  lowerEveryKernel("hierarchical.fdl");
}
TEST(FftlibLowering, ClusterKernel) {
  lowerEveryKernel("cluster.fdl");
}
TEST(FftlibLowering, BluesteinKernel) {
  lowerEveryKernel("bluestein.fdl");
}

}  // namespace
}  // namespace fftc::rewrites
