// The compiler's CUDA target on a GPU (label gpu; run on the device machine, skipped where
// there is no CUDA device): every example and the FFT library spread run on CUDA and match the
// reference interpreter; the examples also run on NVIDIA's OpenCL (`opencl:NVIDIA`) when that
// platform is registered (scripts/register-nvidia-opencl).
#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <optional>

#include "backends/cuda/context.h"
#include "backends/cuda/device.h"
#include "backends/cuda/driver_api.h"
#include "backends/opencl/runtime.h"
#include "compiler/clang/clang_helpers.h"
#include "compiler/exec/cuda_exec.h"
#include "compiler/exec/exec.h"
#include "tests/support/cuda_device.h"
#include "tests/cuda_codegen/cuda_codegen_support.h"

namespace fftc::cuda_codegen_test {
namespace {

namespace cu = backends::cuda;
namespace ex = compiler::exec;


// NVIDIA's OpenCL platform, or nullptr with the reason.
const backends::opencl::Context* nvidiaOpenCl(std::string* why) {
  static std::string reason;
  static std::unique_ptr<backends::opencl::Context> context =
      []() -> std::unique_ptr<backends::opencl::Context> {
    try {
      auto c = std::make_unique<backends::opencl::Context>(
          backends::opencl::Context::fromSelector("opencl:NVIDIA"));
      c->setCache(nullptr);
      std::cerr << "OpenCL device: " << c->device().name << " (" << c->device().platformName
                << ")\n";
      return c;
    } catch (const std::exception& e) {
      reason = e.what();
      return nullptr;
    }
  }();
  *why = reason;
  return context.get();
}

// Builds every kernel of `p` for `target` and checks it on the device against the interpreter
// (the program as written: the check covers the rewrites too).
template <typename Context>
void runsAndMatches(const Context& context, const Program& p, pl::Target target) {
  fe::Program program;
  try {
    program = elaborate(p);
  } catch (const std::exception& e) {
    FAIL() << p.file << ": " << describeError(e);
  }
  // The interpreter runs userfun bodies through the clang helpers, which the GPU machine's
  // build leaves out (scripts/device-build): no reference to check such a program against.
  if (!program.userFuns.empty() && !compiler::clang_helpers::clangHelpersAvailable())
    GTEST_SKIP() << p.file << ": userfun bodies need the interpreter's clang helpers ("
                 << compiler::clang_helpers::clangHelpersStatus() << ")";
  auto kernels = kernelsOf(program, p);
  ASSERT_FALSE(kernels.empty()) << p.file << " has no kernel " << p.kernel;
  const auto sizes = sizeBindings(p);
  for (const fe::Kernel* k : kernels) {
    SCOPED_TRACE(p.file + ": kernel " + k->name);
    try {
      pl::Built built = pl::build(*k, p.strategy, target, codegenOptions(p));
      ex::CheckResult c = ex::checkAgainstInterpreter(context, k->lambda, built.compiled, sizes, 7);
      EXPECT_TRUE(c.comparison.ok) << c.comparison.firstMismatch << " (max error "
                                   << c.comparison.maxError << ", " << c.comparison.elements
                                   << " elements)";
      EXPECT_GT(c.comparison.elements, 0U);
      EXPECT_EQ(c.run.stageMs.size(), built.compiled.stages.size());
      EXPECT_GE(c.run.totalMs, 0.0);
    } catch (const backends::DeviceError& e) {
      ADD_FAILURE() << "device error: " << e.what() << "\n" << e.log();
    } catch (const std::exception& e) {
      ADD_FAILURE() << describeError(e);
    }
  }
}


class GpuCudaExamples : public ::testing::TestWithParam<Program> {};
TEST_P(GpuCudaExamples, MatchInterpreter) {
  REQUIRE_CUDA(context);
  runsAndMatches(*context, GetParam(), pl::Target::Cuda);
}
INSTANTIATE_TEST_SUITE_P(All, GpuCudaExamples, ::testing::ValuesIn(examplePrograms()),
                         [](const auto& param) { return param.param.label; });

class GpuCudaFftPrograms : public ::testing::TestWithParam<Program> {};
TEST_P(GpuCudaFftPrograms, MatchInterpreter) {
  REQUIRE_CUDA(context);
  runsAndMatches(*context, GetParam(), pl::Target::Cuda);
}
INSTANTIATE_TEST_SUITE_P(All, GpuCudaFftPrograms, ::testing::ValuesIn(fftPrograms()),
                         [](const auto& param) { return param.param.label; });

class GpuNvidiaOpenClExamples : public ::testing::TestWithParam<Program> {};
TEST_P(GpuNvidiaOpenClExamples, MatchInterpreter) {
  std::string why;
  const backends::opencl::Context* context = nvidiaOpenCl(&why);
  if (!context) GTEST_SKIP() << "no NVIDIA OpenCL platform: " << why;
  if (GetParam().cudaOnly) GTEST_SKIP() << GetParam().file << ": CUDA only (mapCluster)";
  runsAndMatches(*context, GetParam(), pl::Target::OpenCL);
}
INSTANTIATE_TEST_SUITE_P(All, GpuNvidiaOpenClExamples, ::testing::ValuesIn(examplePrograms()),
                         [](const auto& param) { return param.param.label; });

// A kernel compiled for OpenCL is refused on CUDA (UserError), not launched.
TEST(GpuCudaExec, RefusesAnOpenClKernel) {
  REQUIRE_CUDA(context);
  Program p = examplePrograms().front();
  fe::Program program = elaborate(p);
  const fe::Kernel& k = program.kernels.front();
  auto built = pl::build(k, "", pl::Target::OpenCL, {});
  EXPECT_THROW((void)ex::checkAgainstInterpreter(*context, k.lambda, built.compiled,
                                                 sizeBindings(p), 1),
               backends::UserError);
}

}  // namespace
}  // namespace fftc::cuda_codegen_test
