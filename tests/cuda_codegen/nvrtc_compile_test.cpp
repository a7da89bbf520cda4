// The compiler's CUDA target without a GPU: every example and a spread of FFT library programs
// go through the pipeline with the CUDA dialect, then NVRTC for sm_90, and must give a CUBIN,
// so that CUDA C the printer gets wrong never lands. On failure the NVRTC log and the source
// are printed.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "backends/cuda/nvrtc_api.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "compiler/exec/cuda_exec.h"
#include "compiler/exec/exec.h"
#include "tests/cuda_codegen/cuda_codegen_support.h"

namespace fftc::cuda_codegen_test {
namespace {

namespace cu = backends::cuda;
namespace ex = compiler::exec;

// Compiles every kernel of `p` for CUDA and NVRTC sm_90 (uncached: the test checks NVRTC).
void compilesToCubin(const Program& p) {
  fe::Program program;
  try {
    program = elaborate(p);
  } catch (const std::exception& e) {
    FAIL() << p.file << ": " << describeError(e);
  }
  auto kernels = kernelsOf(program, p);
  ASSERT_FALSE(kernels.empty()) << p.file << " has no kernel " << p.kernel;
  cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
  for (const fe::Kernel* k : kernels) {
    SCOPED_TRACE(p.file + ": kernel " + k->name);
    std::optional<pl::Built> maybeBuilt;
    try {
      maybeBuilt.emplace(pl::build(*k, p.strategy, pl::Target::Cuda, codegenOptions(p)));
    } catch (const std::exception& e) {
      FAIL() << "the pipeline failed: " << describeError(e);
    }
    const pl::Built& built = *maybeBuilt;
    EXPECT_EQ(built.compiled.target, "cuda");
    EXPECT_NE(built.compiled.source.find("__global__"), std::string::npos);
    cu::CompileRequest request;
    request.source = built.compiled.source;
    request.programName = built.compiled.name + ".cu";
    request.arch = std::string(cu::kDefaultArch);
    // As fftc compiles it (-minimal: docs/performance.md), and the same CUBIN without it.
    request.fastOptions = cu::fastCompileOptions();
    try {
      cu::CompiledProgram out = nvrtc.compile(request);
      EXPECT_FALSE(nvrtc.fastOptionsRejected());
      cu::CompileRequest plain = request;
      plain.fastOptions.clear();
      EXPECT_TRUE(nvrtc.compile(plain).binary == out.binary) << "-minimal changed the CUBIN";
      EXPECT_EQ(out.kind, cu::BinaryKind::Cubin);
      EXPECT_FALSE(out.binary.empty());
      // The ELF magic of a CUBIN.
      EXPECT_EQ(out.binary.substr(0, 4), std::string("\x7f" "ELF"));
      // Every stage's kernel is in it by its plain name (extern "C").
      for (const auto& s : built.compiled.stages)
        EXPECT_NE(out.binary.find(s.kernel), std::string::npos) << s.kernel;
    } catch (const cu::CompileError& e) {
      ADD_FAILURE() << "NVRTC rejected the generated CUDA: " << e.what() << "\n--- NVRTC log\n"
                    << e.log() << "\n--- source\n"
                    << built.compiled.source;
    }
  }
}

class CudaExamples : public ::testing::TestWithParam<Program> {};
TEST_P(CudaExamples, CompileWithNvrtc) { compilesToCubin(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, CudaExamples, ::testing::ValuesIn(examplePrograms()),
                         [](const auto& param) { return param.param.label; });

class CudaFftPrograms : public ::testing::TestWithParam<Program> {};
TEST_P(CudaFftPrograms, CompileWithNvrtc) { compilesToCubin(GetParam()); }
INSTANTIATE_TEST_SUITE_P(All, CudaFftPrograms, ::testing::ValuesIn(fftPrograms()),
                         [](const auto& param) { return param.param.label; });

// Every examples/*.fdl is compiled above (a new example without bindings fails here).
TEST(CudaExamples, EveryFileIsListed) {
  std::set<std::string> listed;
  // every row, those with fft/ifft too (examplePrograms leaves them to tests/fftplan)
  for (const auto& r : ::fftc::testing::exampleBindings()) listed.insert(r.file);
  for (const auto& e : fs::directory_iterator(sourceRoot() / "examples")) {
    if (e.path().extension() != ".fdl") continue;
    EXPECT_TRUE(listed.count(e.path().filename().string()))
        << e.path().filename() << " has no row in tests/support/example_bindings.h";
  }
}

// compileCuda refuses a kernel compiled for OpenCL, and compiles one for CUDA.
TEST(CudaExec, CompileCudaChecksTheTarget) {
  Program p = examplePrograms().front();
  fe::Program program = elaborate(p);
  const fe::Kernel& k = program.kernels.front();
  auto opencl = pl::build(k, "", pl::Target::OpenCL, {});
  EXPECT_THROW((void)ex::compileCuda(opencl.compiled), backends::UserError);
  auto cuda = pl::build(k, "", pl::Target::Cuda, {});
  EXPECT_FALSE(ex::compileCuda(cuda.compiled).binary.empty());
}

// FFTC_NVRTC_OPTIONS reaches NVRTC (a source that compiles only with its macros), split at white
// space; an architecture among them is the user's error, an option NVRTC rejects a one-line
// DeviceError, and unset there are none.
TEST(CudaExec, NvrtcOptionsFromTheEnvironment) {
  struct Restore {
    ~Restore() { unsetenv("FFTC_NVRTC_OPTIONS"); }
  } restore;
  compiler::codegen::CompiledKernel k;
  k.name = "nvrtc_options";
  k.target = "cuda";
  k.source =
      "#if !defined(FFTC_SEEN) || FFTC_SEEN != 1 || FFTC_TWO != 2\n#error options not passed\n"
      "#endif\nextern \"C\" __global__ void nvrtc_options(float* x) { x[0] = 1.0f; }\n";
  setenv("FFTC_NVRTC_OPTIONS", "  -DFFTC_SEEN=1 \t -DFFTC_TWO=2 ", 1);
  EXPECT_EQ(cu::nvrtcOptionsFromEnvironment(),
            (std::vector<std::string>{"-DFFTC_SEEN=1", "-DFFTC_TWO=2"}));
  EXPECT_FALSE(ex::compileCuda(k).binary.empty());
  setenv("FFTC_NVRTC_OPTIONS", "--gpu-architecture=sm_80", 1);
  EXPECT_THROW((void)ex::compileCuda(k), backends::UserError);
  setenv("FFTC_NVRTC_OPTIONS", "--no-such-nvrtc-option", 1);
  try {
    (void)ex::compileCuda(k);
    ADD_FAILURE() << "an option NVRTC does not know compiled";
  } catch (const backends::DeviceError& e) {
    EXPECT_EQ(std::string(e.what()).find('\n'), std::string::npos) << e.what();
  }
  unsetenv("FFTC_NVRTC_OPTIONS");
  EXPECT_TRUE(cu::nvrtcOptionsFromEnvironment().empty());
  EXPECT_THROW((void)ex::compileCuda(k), cu::CompileError);
}

// fftc's compiles pass the fast options (-minimal) before FFTC_NVRTC_OPTIONS; a source of its
// own (a nonce) so that no cached CUBIN answers.
TEST(CudaExec, FastOptionsReachNvrtc) {
  compiler::codegen::CompiledKernel k;
  k.name = "fast_options";
  k.target = "cuda";
  k.source = "// " + std::to_string(std::random_device{}()) + "_" +
             std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
             "\nextern \"C\" __global__ void fast_options(float* x) { x[0] = 1.0f; }\n";
  const cu::CompiledProgram program = ex::compileCuda(k);
  ASSERT_FALSE(program.fromCache);
  ASSERT_FALSE(program.options.empty());
  EXPECT_EQ(program.options.front(), "-minimal");
  EXPECT_EQ(program.options.back(), "--gpu-architecture=sm_90");
}

// The launch geometry: the block is the local size or whole warps up to 256 along x; the grid
// covers the global size, rounded up (the kernels' loops make the extra threads idle).
TEST(CudaExec, LaunchConfigFromWorkSizes) {
  compiler::codegen::StageInfo info;
  info.kernel = "k";
  ex::PreparedStage s;
  s.info = &info;
  s.global = {1000};
  auto c = ex::cudaLaunchConfig(s);
  EXPECT_EQ(c.block.x, 256U);
  EXPECT_EQ(c.grid.x, 4U);
  EXPECT_EQ(c.grid.y * c.grid.z * c.block.y * c.block.z, 1U);
  s.global = {5};
  c = ex::cudaLaunchConfig(s);
  EXPECT_EQ(c.block.x, 32U);
  EXPECT_EQ(c.grid.x, 1U);
  s.global = {12, 8};
  s.local = {4, 4};
  c = ex::cudaLaunchConfig(s);
  EXPECT_EQ(c.block.x, 4U);
  EXPECT_EQ(c.block.y, 4U);
  EXPECT_EQ(c.grid.x, 3U);
  EXPECT_EQ(c.grid.y, 2U);
  s.global = {10, 1, 1};
  s.local = {4, 1, 1};
  c = ex::cudaLaunchConfig(s);
  EXPECT_EQ(c.grid.x, 3U);
  EXPECT_EQ(c.sharedMemoryBytes, 0U);
}

}  // namespace
}  // namespace fftc::cuda_codegen_test

namespace fftc::cuda_codegen_test {
namespace {

// Issue 20: a loop whose bound an int cannot reach gets a 64-bit variable in CUDA too (start
// and stride computed in 64 bits), and NVRTC accepts it; a view index past 2^31 likewise.
TEST(CudaWideIndex, LoopsPast2To31CompileWithNvrtc) {
  const std::string text =
      "kernel big(x: [float]2147483656) = mapGlobal(fun a => a) <<: x\n"
      "kernel view(x: [float]10) = mapGlobal(fun a => a) <<: join <<: slide(1, 536870913) <<: "
      "pad(2147483648, 2147483648, clamp) <<: x\n";
  fe::Program program = fe::compileSource(text, "wide.fdl");
  cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
  for (const auto& k : program.kernels) {
    SCOPED_TRACE(k.name);
    compiler::codegen::CodegenOptions o;
    o.format = false;  // the printer's own lines, as checked below
    pl::Built built = pl::build(k, "", pl::Target::Cuda, o);
    const std::string& src = built.compiled.source;
    if (k.name == "big") {
      EXPECT_NE(src.find("for (long long gid = ((long long)blockIdx.x * blockDim.x + "
                         "threadIdx.x); gid < 2147483656L; gid += ((long long)gridDim.x * "
                         "blockDim.x))"),
                std::string::npos)
          << src;
    } else {
      EXPECT_NE(src.find("max(0L, 536870913 * ((long)gid) - 2147483648L)"), std::string::npos)
          << src;
    }
    cu::CompileRequest request;
    request.source = src;
    request.programName = k.name + ".cu";
    request.arch = std::string(cu::kDefaultArch);
    // As fftc compiles it (-minimal: docs/performance.md), and the same CUBIN without it.
    request.fastOptions = cu::fastCompileOptions();
    try {
      cu::CompiledProgram out = nvrtc.compile(request);
      EXPECT_FALSE(nvrtc.fastOptionsRejected());
      cu::CompileRequest plain = request;
      plain.fastOptions.clear();
      EXPECT_TRUE(nvrtc.compile(plain).binary == out.binary) << "-minimal changed the CUBIN";
      EXPECT_EQ(out.kind, cu::BinaryKind::Cubin);
    } catch (const cu::CompileError& e) {
      ADD_FAILURE() << "NVRTC rejected the generated CUDA: " << e.what() << "\n" << e.log()
                    << "\n" << src;
    }
  }
}

}  // namespace
}  // namespace fftc::cuda_codegen_test
