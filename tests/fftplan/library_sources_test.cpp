// The FFT library files embedded in the planner (fftlib/plan/library_sources.h): every
// fftlib/*.fdl is in, and they import one another through libraryImportReader, never the disk.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/frontend/frontend.h"
#include "fftlib/plan/library_sources.h"
#include "fftlib/plan/planner.h"
#include "ir/diagnostic.h"
#include "ir/printer.h"
#include "tests/fftlib/fftlib_support.h"

namespace fftc::fftlib::test {
namespace {

namespace fe = compiler::frontend;
namespace fs = std::filesystem;

TEST(LibrarySources, EveryFdlFileIsEmbedded) {
  std::vector<std::string> onDisk;
  for (const auto& e : fs::directory_iterator(fftlibDir())) {
    if (e.path().extension() == ".fdl") onDisk.push_back(e.path().filename().string());
  }
  std::sort(onDisk.begin(), onDisk.end());
  std::vector<std::string> embedded;
  for (std::string_view f : libraryFiles()) embedded.emplace_back(f);
  EXPECT_EQ(embedded, onDisk) << "re-run CMake (the embedded files are globbed at configure time)";
  for (const auto& f : onDisk) {
    std::ifstream in(fftlibDir() / f, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    EXPECT_EQ(librarySource(f), ss.str()) << f << " changed since the build: rebuild";
  }
  EXPECT_THROW(librarySource("nope.fdl"), std::invalid_argument);
}

TEST(LibrarySources, EmbeddedFilesImportOneAnother) {
  fe::ElaborateOptions opts;
  opts.importReader = libraryImportReader();
  const std::string kernel = "\nkernel mine(x: [complex]N) = fftStockham(rs, dir) <<: x\n";
  fe::Program inlined = fe::compileSource(std::string(librarySource("fft.fdl")) + kernel,
                                          "inlined.fdl", opts);
  fe::Program imported = fe::compileSource("import \"fft.fdl\"" + kernel, "mine.fdl", opts);
  ASSERT_EQ(imported.kernels.size(), 1u);  // fft.fdl's kernels are not imported
  EXPECT_EQ(ir::print(imported.kernel("mine")->lambda), ir::print(inlined.kernel("mine")->lambda));
  EXPECT_EQ(imported.importedFiles.front(), "fft.fdl");
  // compileLibraryFile compiles an embedded file with the same reader.
  fe::Program fft = compileLibraryFile("fft.fdl", opts);
  EXPECT_NE(fft.kernel("stockham"), nullptr);
  // Only embedded files can be imported.
  try {
    fe::compileSource("import \"no_such_library_file.fdl\"\n", "mine.fdl", opts);
    FAIL();
  } catch (const ir::CompileError& e) {
    EXPECT_EQ(e.message().rfind("cannot read import \"no_such_library_file.fdl\": no such file "
                                "among the FFT library's embedded files (",
                                0),
              0u)
        << e.message();
    EXPECT_NE(e.message().find("fft.fdl"), std::string::npos);
  }
}

}  // namespace
}  // namespace fftc::fftlib::test
