// The library files themselves: every kernel compiles with its defaults in both precisions and
// computes the DFT with them; common.fdl, which the others import, has no kernels.
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

TEST(FftLibrary, EveryKernelCompilesWithItsDefaults) {
  const std::map<std::string, std::vector<std::string>> kernels = {
      {"fft.fdl",
       {"stockham", "stockhamTwiddle", "cooleyTukey", "stockhamLocal", "stockhamCluster",
        "stockhamLocalCopy"}},
      {"cluster.fdl", {"fourStepCluster"}},
      {"hierarchical.fdl",
       {"hierarchical", "hierarchical3", "hierarchicalLocal", "hierarchicalLocal3"}},
      {"bluestein.fdl", {"bluestein", "bluesteinLocal", "bluesteinFourStep", "bluesteinGlobal"}},
      {"common.fdl", {}}};
  for (const auto& [file, names] : kernels) {
    for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
      fe::ElaborateOptions opts;
      opts.precision = p;
      fe::Program prog;
      try {
        prog = fe::parseFile((fftlibDir() / file).string(), opts);
      } catch (const ir::CompileError& e) {
        FAIL() << fe::formatError(e);
      }
      ASSERT_EQ(prog.kernels.size(), names.size()) << file;
      for (const auto& name : names) {
        const fe::Kernel* k = prog.kernel(name);
        ASSERT_TRUE(k) << file << ": " << name;
        // [[complex]N]B -> [[complex]N]B in the chosen precision
        EXPECT_EQ(k->resultType, k->paramTypes[0]) << name;
        EXPECT_EQ(k->paramTypes[0].innermost(), ir::Type::complex(p)) << name;
      }
    }
  }
}

// stockhamCluster (a row over a thread-block cluster, docs/language.md) is the DFT: its meaning,
// through the interpreter, against FFTW in long double; 2^15 f32 is the size issue 22 plans with
// it on the GPU (tests/cuda_codegen compiles it with NVRTC).
TEST(FftLibrary, ClusterKernelIsTheDft) {
  expectAccurate("cluster", FftCase{.file = "fft.fdl",
                                    .kernel = "stockhamCluster",
                                    .defines = {{"rs", Radices{16, 8, 16}}, {"C", int64_t{2}}},
                                    .n = 2048});
  expectAccurate("cluster", FftCase{.file = "fft.fdl",
                                    .kernel = "stockhamCluster",
                                    .defines = {{"rs", Radices{8, 8, 8}}, {"C", int64_t{4}}},
                                    .n = 512,
                                    .precision = ir::ScalarKind::Double,
                                    .direction = Direction::Inverse,
                                    .scaled = true});
  expectAccurate("cluster", FftCase{.file = "fft.fdl",
                                    .kernel = "stockhamCluster",
                                    .defines = {{"rs", Radices{16, 16, 16, 8}}, {"C", int64_t{4}}},
                                    .n = 32768,
                                    .batch = 1});
}

// fourStepCluster (the four-step FFT over a cluster's blocks, mapBlock) is the DFT: through the
// interpreter against FFTW in long double; the planner's radices (rs: M's, then C) and work-items
// for 2^15 over 2 and 4 and 2^16 over 4 (f32), and a small f64 inverse, scaled, over 4 blocks
// whose last step takes fewer work-items (M / C = 32) than the block has (W = 64).
TEST(FftLibrary, FourStepClusterIsTheDft) {
  struct Row {
    Radices rs;
    int64_t w, n;
  };
  for (const Row& row : {Row{{32, 16, 16, 4}, 512, 32768}, Row{{32, 32, 16, 2}, 1024, 32768},
                         Row{{32, 32, 16, 4}, 1024, 65536}}) {
    SCOPED_TRACE(row.n);
    expectAccurate("fourStepCluster",
                   FftCase{.file = "cluster.fdl",
                           .kernel = "fourStepCluster",
                           .defines = {{"rs", row.rs}, {"W", row.w}},
                           .n = row.n,
                           .batch = 1});
  }
  expectAccurate("fourStepCluster", FftCase{.file = "cluster.fdl",
                                            .kernel = "fourStepCluster",
                                            .defines = {{"rs", Radices{4, 8, 4, 4}}, {"W", int64_t{64}}},
                                            .n = 512,
                                            .precision = ir::ScalarKind::Double,
                                            .direction = Direction::Inverse,
                                            .scaled = true});
}

// nd.fdl's defaults: an 8 x 6 complex FFT, and the real transforms of 8 x 12 reals
// (8 x 7 complex values).
TEST(FftLibrary, NdKernelsCompileWithTheirDefaults) {
  for (auto p : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
    fe::ElaborateOptions opts;
    opts.precision = p;
    fe::Program prog;
    try {
      prog = fe::parseFile((fftlibDir() / "nd.fdl").string(), opts);
    } catch (const ir::CompileError& e) {
      FAIL() << fe::formatError(e);
    }
    ASSERT_EQ(prog.kernels.size(), 6u);  // nd, ndLocal, r2cLocal, c2rLocal, r2c, c2r
    auto sized = [](const ir::Type& t) {
      return t.element().str() + "/" + t.element().element().str();
    };
    const fe::Kernel* nd = prog.kernel("nd");
    const fe::Kernel* ndLocal = prog.kernel("ndLocal");
    const fe::Kernel* r2c = prog.kernel("r2c");
    const fe::Kernel* c2r = prog.kernel("c2r");
    ASSERT_TRUE(nd && ndLocal && r2c && c2r);
    for (const char* local : {"r2cLocal", "c2rLocal"}) {
      const fe::Kernel* k = prog.kernel(local);
      ASSERT_TRUE(k) << local;
      const fe::Kernel* global = std::string(local) == "r2cLocal" ? r2c : c2r;
      EXPECT_EQ(k->paramTypes[0].str(), global->paramTypes[0].str()) << local;
      EXPECT_EQ(k->resultType.str(), global->resultType.str()) << local;
    }
    EXPECT_EQ(nd->resultType, nd->paramTypes[0]);
    // (each kernel has its own size variable B: compared as text)
    EXPECT_EQ(ndLocal->resultType.str(), nd->paramTypes[0].str());
    EXPECT_EQ(ndLocal->paramTypes[0].str(), nd->paramTypes[0].str());
    EXPECT_EQ(nd->paramTypes[0].element().size().constant(), 48);
    EXPECT_EQ(r2c->paramTypes[0].element().size().constant(), 96) << sized(r2c->paramTypes[0]);
    EXPECT_EQ(r2c->resultType.element().size().constant(), 56) << sized(r2c->resultType);
    EXPECT_EQ(r2c->resultType.innermost(), ir::Type::complex(p));
    // (each kernel has a size variable B of its own: compare the printed types)
    EXPECT_EQ(c2r->paramTypes[0].str(), r2c->resultType.str());
    EXPECT_EQ(c2r->resultType.str(), r2c->paramTypes[0].str());
  }
}

// Defaults, as documented in docs/fftlib.md: fft.fdl 64 = [4, 4, 4]; hierarchical and
// hierarchicalLocal 16 x 8, hierarchical3 and hierarchicalLocal3 16 x 8 x 4; bluestein,
// bluesteinLocal, bluesteinFourStep (M = 5 x 7) and bluesteinGlobal N = 17 with M = 35.
TEST(FftLibrary, DefaultsRunCorrectly) {
  struct Default {
    const char* file;
    const char* kernel;
    int64_t n;
  };
  for (const Default& d :
       {Default{"fft.fdl", "stockham", 64}, Default{"fft.fdl", "cooleyTukey", 64},
        Default{"hierarchical.fdl", "hierarchical", 128},
        Default{"hierarchical.fdl", "hierarchical3", 512},
        Default{"hierarchical.fdl", "hierarchicalLocal", 128},
        Default{"hierarchical.fdl", "hierarchicalLocal3", 512},
        Default{"bluestein.fdl", "bluestein", 17},
        Default{"bluestein.fdl", "bluesteinLocal", 17},
        Default{"bluestein.fdl", "bluesteinFourStep", 17},
        Default{"bluestein.fdl", "bluesteinGlobal", 17}}) {
    FftCase c{.file = d.file,
              .kernel = d.kernel,
              .n = d.n,
              .batch = 2,
              .precision = ir::ScalarKind::Double};
    expectAccurate("defaults", c);
  }
}

}  // namespace
}  // namespace fftc::fftlib::test
