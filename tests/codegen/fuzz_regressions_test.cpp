// Every input that once crashed, hung or escaped as an internal error (tests/fuzz/regressions/,
// found by tests/fuzz/pipeline_fuzzer.cpp or the random-program drivers) goes through the
// compile pipeline as `fftc compile` runs it, for OpenCL and CUDA, and gets the outcome its
// first line states:
//   // expect: compiles
//   // expect: error LINE:COL MESSAGE-PART   (a one-line user error at fuzz.fdl:LINE:COL whose
//                                            message contains MESSAGE-PART; 0:0: no location)
// The same files seed the fuzzer (scripts/test stage 3). `import` reads fftlib/*.fdl.
#include <filesystem>
#include <map>
#include <regex>

#include "backends/common/device_error.h"
#include "compiler/pipeline/fuzz.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

namespace fs = std::filesystem;
namespace pl = compiler::pipeline;

struct Expectation {
  bool compiles = false;
  int line = 0, col = 0;
  std::string words;
};

// Parses the first line; a file without a valid one fails the test.
std::optional<Expectation> expectation(const std::string& text) {
  const std::string first = text.substr(0, text.find('\n'));
  if (first == "// expect: compiles") return Expectation{true, 0, 0, {}};
  std::smatch m;
  static const std::regex error(R"(// expect: error (\d+):(\d+) (.+))");
  if (!std::regex_match(first, m, error)) return std::nullopt;
  return Expectation{false, std::stoi(m[1]), std::stoi(m[2]), m[3]};
}

fe::ImportReader libraryFiles() {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(sourceRoot() + "/fftlib"))
    if (e.path().extension() == ".fdl") files[e.path().filename().string()] = readFile(e.path());
  return fe::importFromMemory(std::move(files));
}

void expectStatedOutcome(const std::string& text, const fe::ImportReader& imports) {
  const auto want = expectation(text);
  ASSERT_TRUE(want) << "the first line states no outcome";
  for (pl::Target target : {pl::Target::OpenCL, pl::Target::Cuda}) {
    SCOPED_TRACE(pl::targetName(target));
    try {
      const pl::FuzzOutcome got = pl::compileLikeTheCli(text, target, imports);
      if (want->compiles) {
        EXPECT_EQ(got.error, "");
        EXPECT_GT(got.compiled, 0);
        EXPECT_EQ(got.compiled, got.kernels);
      } else {
        EXPECT_NE(got.error.find(want->words), std::string::npos) << got.error;
      }
    } catch (const ir::CompileError& e) {
      FAIL() << "compileLikeTheCli let a CompileError escape: " << e.what();
    }
  }
  // The location: compileLikeTheCli keeps only the message, so ask the front end and pipeline
  // again for the error itself.
  if (!want->compiles) {
    try {
      fe::ElaborateOptions eo;
      eo.importReader = imports;
      for (const auto& k : fe::compileSource(text, "fuzz.fdl", eo).kernels)
        static_cast<void>(pl::compileKernelLikeTheCli(k, pl::Target::OpenCL));
      ADD_FAILURE() << "no error";
    } catch (const ir::CompileError& e) {
      EXPECT_EQ(e.loc().file, "fuzz.fdl");
      EXPECT_EQ(e.loc().line, want->line) << e.what();
      EXPECT_EQ(e.loc().col, want->col) << e.what();
    } catch (const backends::UserError& e) {  // an error without a location: stated as 0:0
      EXPECT_EQ(want->line, 0) << e.what();
      EXPECT_EQ(want->col, 0) << e.what();
    }
  }
}

// One test for the folder (not one per file): the files are listed when it runs, from the
// source tree, which test discovery at build time does not see.
TEST(FuzzRegression, EveryFileGivesItsStatedOutcome) {
  const fs::path dir = sourceRoot() + "/tests/fuzz/regressions";
  ASSERT_TRUE(fs::is_directory(dir)) << dir << " is missing";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".fdl") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_FALSE(files.empty()) << dir << " holds no .fdl file";
  const fe::ImportReader imports = libraryFiles();
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    expectStatedOutcome(readFile(f.string()), imports);
  }
}

}  // namespace
}  // namespace fftc::codegen_test
