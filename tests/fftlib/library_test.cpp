// The library files themselves: every kernel compiles with its defaults in both precisions, and
// the shared definitions repeated in hierarchical.fdl and bluestein.fdl (no `import` yet) are
// the same text as in fft.fdl.
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

const char* const kBegin = "// ---- shared:";
const char* const kEnd = "// ---- end of the shared definitions";

std::string sharedBlock(const std::string& file) {
  std::string text = readLibraryFile(file);
  size_t a = text.find(kBegin), b = text.find(kEnd);
  if (a == std::string::npos || b == std::string::npos || b < a) return "";
  return text.substr(a, b - a);
}

TEST(FftLibrary, SharedDefinitionsAreTheSameInEveryFile) {
  std::string master = sharedBlock("fft.fdl");
  ASSERT_FALSE(master.empty());
  for (const char* f : {"hierarchical.fdl", "bluestein.fdl"}) {
    EXPECT_EQ(sharedBlock(f), master) << f << " has drifted from fft.fdl: copy the block again";
  }
}

TEST(FftLibrary, EveryKernelCompilesWithItsDefaults) {
  const std::map<std::string, std::vector<std::string>> kernels = {
      {"fft.fdl", {"stockham", "stockhamTwiddle", "cooleyTukey"}},
      {"hierarchical.fdl", {"hierarchical", "hierarchical3"}},
      {"bluestein.fdl", {"bluestein"}}};
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

// Defaults, as documented in docs/fftlib.md: fft.fdl 64 = [4, 4, 4]; hierarchical 16 x 8 and
// 16 x 8 x 4; bluestein N = 17 with M = 35.
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
        Default{"bluestein.fdl", "bluestein", 17}}) {
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
