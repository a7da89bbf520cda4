// Every kernel of every examples/*.fdl runs on the OpenCL device and matches the interpreter on
// random inputs. A file missing from the table fails the test (skip none silently). Programs
// written with high-level patterns are lowered by the default strategy first (the pipeline of
// `fftc exec`), and are compared with the interpreter run on the program as written.
#include <cstdlib>
#include <filesystem>
#include <set>

#include "compiler/pipeline/pipeline.h"
#include "tests/codegen/codegen_support.h"
#include "tests/support/example_bindings.h"

namespace fftc::codegen_test {
namespace {

using ExampleRow = ::fftc::testing::ExampleBinding;
const std::vector<ExampleRow>& examples() { return ::fftc::testing::exampleBindings(); }
// The rows this suite compiles itself: not those with fft/ifft (ExampleBinding::fftOps).
std::vector<ExampleRow> compiledHere() {
  std::vector<ExampleRow> out;
  for (const auto& r : examples())
    if (!r.fftOps && !r.cudaOnly) out.push_back(r);
  return out;
}

TEST(Examples, EveryFileHasARow) {
  std::set<std::string> listed;
  for (const auto& r : examples()) listed.insert(r.file);
  for (const auto& e : std::filesystem::directory_iterator(sourceRoot() + "/examples")) {
    if (e.path().extension() != ".fdl") continue;
    EXPECT_TRUE(listed.count(e.path().filename().string()))
        << e.path().filename() << " has no row in tests/support/example_bindings.h";
  }
}

class ExampleTest : public ::testing::TestWithParam<ExampleRow> {};

TEST_P(ExampleTest, RunsAndMatchesInterpreter) {
  const ExampleRow& row = GetParam();
  std::string text = readFile(sourceRoot() + "/examples/" + row.file);
  fe::ElaborateOptions eo;
  for (const auto& [k, v] : row.defines) eo.defines[k] = v;
  fe::Program p = fe::compileSource(text, row.file, eo);
  ASSERT_FALSE(p.kernels.empty());
  for (const auto& k : p.kernels) {
    SCOPED_TRACE(row.file + ": kernel " + k.name);
    cg::CodegenOptions o = options();
    o.sizes = row.defines;
    auto lowered = compiler::pipeline::lower(k, "");
    EXPECT_EQ(lowered.rewritten, row.highLevel.count(k.name) == 1);
    if (lowered.rewritten) {
      try {
        (void)cg::compileKernel(k, o);
        ADD_FAILURE() << "the high-level program compiled without lowering";
      } catch (const ir::CompileError& e) {
        EXPECT_NE(std::string(e.what()).find("not low-level"), std::string::npos) << e.what();
      }
    }
    cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, o);
    auto c = ex::checkAgainstInterpreter(context(), k.lambda, ck, row.defines, 7);
    EXPECT_MATCHES(c);
    if (std::getenv("FFTC_DUMP_EXAMPLES"))
      std::cout << ck.source.substr(ck.source.find("__kernel")) << cg::manifestText(ck);
  }
}

// The paper's Stockham FFT lowered as section 4 says: one stage (device kernel) per pass, each
// doing work; the twiddle generators became constant tables and leave no empty stage behind.
TEST(Examples, StockhamLowersToOneStagePerPass) {
  std::string text = readFile(sourceRoot() + "/examples/stockham.fdl");
  for (const auto& [rs, passes] : {std::pair{std::vector<int64_t>{4, 4, 4}, 3u},
                                   std::pair{std::vector<int64_t>{8, 8}, 2u}}) {
    fe::ElaborateOptions eo;
    eo.defines["rs"] = rs;
    fe::Program p = fe::compileSource(text, "stockham.fdl", eo);
    for (const char* strategy : {"lowerFft", "lowerDefault"}) {
      SCOPED_TRACE(strategy);
      auto lowered = compiler::pipeline::lower(*p.kernel("fft"), strategy);
      cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, options());
      EXPECT_EQ(ck.stages.size(), passes) << ck.source;
      for (size_t i = 0; i < ck.stages.size(); ++i) {
        EXPECT_EQ(ck.stages[i].kernel, "fft_stage" + std::to_string(i));
        EXPECT_FALSE(ck.stages[i].args.empty()) << ck.stages[i].kernel << " does nothing";
      }
      auto c = ex::checkAgainstInterpreter(context(), p.kernel("fft")->lambda, ck, {}, 3);
      EXPECT_MATCHES(c);
    }
  }
}

// Issue 5's golden test: the paper's high-level pass (listing 2's shape), lowered by the FFT
// strategy, has listing 3's single parallel loop and listing 4's indices (r = 2, L = 4096,
// n = 2^24): at most one division and one modulo each, as shift and mask.
TEST(Examples, LowerFftGivesListing4Indices) {
  std::string text = readFile(sourceRoot() + "/examples/stockham_pass.fdl");
  fe::ElaborateOptions eo;
  eo.defines["N"] = int64_t{1} << 24;
  fe::Program p = fe::compileSource(text, "stockham_pass.fdl", eo);
  // lowerFft without its unrolling (listing 4 keeps the butterfly's loops)
  auto lowered = compiler::pipeline::lower(
      *p.kernel("pass"),
      "try(prepare); normalize(mapZipFlattenViews); fuseReduceMaps; lowerGlobal; "
      "try(materializeViews); try(insertMemory)");
  cg::CompiledKernel ck = cg::compileKernel(lowered.kernel, options());
  ASSERT_EQ(ck.stages.size(), 1u);
  EXPECT_EQ(ck.stages[0].global.at(0).str(), "8388608");
  const std::string& src = ck.source;
  // lowerFft itself unrolls the r = 2 butterfly: the same indices with j = 0, 1
  auto unrolled = cg::compileKernel(
      compiler::pipeline::lower(*p.kernel("pass"), "lowerFft").kernel, options());
  EXPECT_NE(unrolled.source.find("x[(gid >> 11) + 8192 * (gid & 2047) + 4096]"),
            std::string::npos)
      << unrolled.source;
  EXPECT_NE(src.find("x[4096 * j + (gid >> 11) + 8192 * (gid & 2047)]"), std::string::npos) << src;
  EXPECT_NE(src.find("out[8388608 * i + (gid >> 11) + 4096 * (gid & 2047)] = acc;"),
            std::string::npos)
      << src;
  EXPECT_EQ(src.find('%'), std::string::npos) << src;
}

INSTANTIATE_TEST_SUITE_P(All, ExampleTest, ::testing::ValuesIn(compiledHere()),
                         [](const auto& param) {
                           std::string n = param.param.file.substr(0, param.param.file.size() - 4);
                           for (auto& ch : n)
                             if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
                           return n;
                         });

}  // namespace
}  // namespace fftc::codegen_test
