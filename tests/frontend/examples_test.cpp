// Every program in examples/ parses, elaborates and type-checks.
#include <gtest/gtest.h>

#include <filesystem>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "ir/printer.h"
#include "tests/frontend/test_paths.h"

namespace fe = fftc::compiler::frontend;
namespace fs = std::filesystem;


TEST(Examples, AllTypeCheck) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(fftc::test::examplesDir())) {
    if (entry.path().extension() != ".fdl") continue;
    ++count;
    SCOPED_TRACE(entry.path().string());
    for (auto precision : {fftc::ir::ScalarKind::Float, fftc::ir::ScalarKind::Double}) {
      fe::ElaborateOptions opts;
      opts.precision = precision;
      try {
        fe::Program p = fe::parseFile(entry.path().string(), opts);
        EXPECT_FALSE(p.kernels.empty());
        for (const auto& k : p.kernels) {
          ASSERT_TRUE(k.lambda);
          EXPECT_TRUE(k.resultType) << k.name;
        }
      } catch (const fftc::ir::CompileError& e) {
        ADD_FAILURE() << fe::formatError(e);
      }
    }
  }
  EXPECT_GE(count, 3);
}
