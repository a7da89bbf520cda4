// NVRTC compilation without a GPU: CUBIN and PTX for sm_90, compile errors and their logs,
// architecture and option checks.
#include "backends/cuda/nvrtc_compiler.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "backends/cuda/dynamic_library.h"
#include "backends/cuda/nvrtc_api.h"
#include "tests/cuda/test_support.h"

namespace fftc::backends::cuda {
namespace {

using testing::kVectorAddSource;

NvrtcCompiler uncachedCompiler() {
  return NvrtcCompiler(NvrtcApi::get(), std::nullopt);
}

TEST(NvrtcApi, LoadsAndReportsVersionAndArchs) {
  const NvrtcApi& api = NvrtcApi::get();
  EXPECT_GE(api.versionMajor(), 12);
  EXPECT_FALSE(api.libraryPath().empty());
  const std::vector<int>& archs = api.supportedArchs();
  ASSERT_FALSE(archs.empty());
  EXPECT_NE(std::find(archs.begin(), archs.end(), 90), archs.end()) << "sm_90 not supported";
}

TEST(NvrtcApi, MissingLibraryIsADeviceErrorNamingIt) {
  try {
    static_cast<void>(NvrtcApi::load({"libnvrtc-fftc-missing.so.13"}));
    FAIL() << "loading a missing NVRTC succeeded";
  } catch (const DeviceError& error) {
    EXPECT_EQ(std::string(error.what()),
              "NVRTC not found (libnvrtc-fftc-missing.so.13): install the CUDA toolkit or set "
              "CUDA_HOME");
  }
}

TEST(DynamicLibrary, ToolkitCandidatesTryTheLoaderThenTheToolkitByAbsolutePath) {
  const std::vector<std::string> candidates =
      toolkitLibraryCandidates({"libnvrtc.so.13", "libnvrtc.so"});
  ASSERT_GE(candidates.size(), 6U);
  EXPECT_EQ(candidates.front(), "libnvrtc.so.13");
  const auto at = [&](const std::string& path) {
    return std::find(candidates.begin(), candidates.end(), path) - candidates.begin();
  };
  EXPECT_LT(at("/usr/local/cuda/lib64/libnvrtc.so.13"), at("libnvrtc.so"));
  EXPECT_LT(at("libnvrtc.so"), static_cast<long>(candidates.size()));
  // /usr/local/cuda/lib64 is often not on the loader path: opening by absolute path works.
  if (std::filesystem::exists("/usr/local/cuda/lib64/libnvrtc.so.13")) {
    const DynamicLibrary library = DynamicLibrary::open({"/usr/local/cuda/lib64/libnvrtc.so.13"});
    EXPECT_TRUE(library.loaded()) << library.error();
    EXPECT_NE(library.symbol("nvrtcCompileProgram"), nullptr);
    EXPECT_EQ(library.symbol("no_such_symbol"), nullptr);
  }
  const DynamicLibrary missing = DynamicLibrary::open({"/nonexistent/libfoo.so"});
  EXPECT_FALSE(missing.loaded());
  EXPECT_NE(missing.error().find("/nonexistent/libfoo.so"), std::string::npos);
}

TEST(NvrtcCompiler, CompilesCubinForSm90) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  const CompiledProgram program = compiler.compile(request);
  EXPECT_EQ(program.arch, "sm_90");
  EXPECT_EQ(program.kind, BinaryKind::Cubin);
  ASSERT_GT(program.binary.size(), 4U);
  EXPECT_EQ(program.binary.substr(0, 4), std::string("\x7f"
                                                     "ELF"));  // a CUBIN is an ELF image
  EXPECT_NE(program.binary.find("vector_add"), std::string::npos);
  EXPECT_FALSE(program.fromCache);
  EXPECT_EQ(compiler.compilations(), 1U);
}

TEST(NvrtcCompiler, CompilesPtxForAVirtualArch) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.arch = "compute_90";
  request.options = {"-DUNUSED=1", "-lineinfo"};
  const CompiledProgram program = compiler.compile(request);
  EXPECT_EQ(program.kind, BinaryKind::Ptx);
  EXPECT_NE(program.binary.find(".target sm_90"), std::string::npos);
  EXPECT_NE(program.binary.find(".entry vector_add"), std::string::npos);
  EXPECT_EQ(program.binary.find('\0'), std::string::npos);
}

TEST(NvrtcCompiler, SyntaxErrorIsACompileErrorWithTheLineInItsLog) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.programName = "broken.cu";
  request.source =
      "extern \"C\" __global__ void k(float* x) {\n"
      "  x[0] = 1.0f;\n"
      "  x[1] = 2.0f\n"  // line 3: missing ';'
      "}\n";
  try {
    static_cast<void>(compiler.compile(request));
    FAIL() << "a syntax error compiled";
  } catch (const CompileError& error) {
    const std::string what = error.what();
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
    EXPECT_NE(what.find("broken.cu(4): error"), std::string::npos) << what;
    EXPECT_NE(what.find("sm_90"), std::string::npos) << what;
    EXPECT_NE(error.log().find("broken.cu(4)"), std::string::npos) << error.log();
    EXPECT_NE(error.log().find("expected a \";\""), std::string::npos) << error.log();
  }
  EXPECT_EQ(compiler.compilations(), 0U);
}

TEST(NvrtcCompiler, CompileErrorIsADeviceError) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = "__global__ void k() { undeclared_name = 1; }";
  EXPECT_THROW(static_cast<void>(compiler.compile(request)), DeviceError);
}

TEST(NvrtcCompiler, RejectsMalformedArchitectures) {
  NvrtcCompiler compiler = uncachedCompiler();
  for (const char* arch : {"", "sm90", "sm_", "sm_9", "sm_90x", "gfx90a", "compute_"}) {
    CompileRequest request;
    request.source = kVectorAddSource;
    request.arch = arch;
    EXPECT_THROW(static_cast<void>(compiler.compile(request)), UserError) << arch;
  }
}

TEST(NvrtcCompiler, UnsupportedArchitectureIsADeviceError) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.arch = "sm_20";  // Fermi: long gone from NVRTC
  try {
    static_cast<void>(compiler.compile(request));
    FAIL() << "compiled for sm_20";
  } catch (const DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find("cannot compile for sm_20"), std::string::npos)
        << error.what();
  }
}

TEST(NvrtcCompiler, ArchitectureOptionsAreRefused) {
  NvrtcCompiler compiler = uncachedCompiler();
  for (const char* option : {"-arch=sm_80", "--gpu-architecture=sm_80", "-arch"}) {
    CompileRequest request;
    request.source = kVectorAddSource;
    request.options = {option};
    EXPECT_THROW(static_cast<void>(compiler.compile(request)), UserError) << option;
  }
}

TEST(NvrtcCompiler, InvalidOptionIsADeviceErrorNamingTheCall) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.options = {"--no-such-nvrtc-option"};
  try {
    static_cast<void>(compiler.compile(request));
    FAIL() << "an invalid option was accepted";
  } catch (const CompileError& error) {
    FAIL() << "an invalid option is not a compile error: " << error.what();
  } catch (const DeviceError& error) {
    EXPECT_NE(std::string(error.what()).find("nvrtcCompileProgram: NVRTC_ERROR_INVALID_OPTION"),
              std::string::npos)
        << error.what();
  }
}

// The fast options go to NVRTC before the request's own, the architecture last; they leave the
// cache key alone (the CUBIN is the same with them).
TEST(NvrtcCompiler, FastOptionsArePassedFirstAndLeaveTheKeyAlone) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.options = {"-DUNUSED=1"};
  const std::string keyWithout = compiler.cacheKey(request);
  request.fastOptions = {"-minimal"};
  EXPECT_EQ(compiler.cacheKey(request), keyWithout);
  const CompiledProgram program = compiler.compile(request);
  EXPECT_EQ(program.options,
            (std::vector<std::string>{"-minimal", "-DUNUSED=1", "--gpu-architecture=sm_90"}));
  EXPECT_FALSE(compiler.fastOptionsRejected());
  request.fastOptions.clear();
  EXPECT_EQ(compiler.compile(request).binary, program.binary);  // -minimal: the same CUBIN
}

// An NVRTC that rejects a fast option (one without it) compiles the source without them, and the
// compiler passes none from then on; the request's own options still reach it.
TEST(NvrtcCompiler, RejectedFastOptionIsDroppedAndTheSourceStillCompiles) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.options = {"-DUNUSED=1"};
  request.fastOptions = {"--no-such-fast-option", "-minimal"};
  const CompiledProgram first = compiler.compile(request);
  EXPECT_NE(first.binary.find("vector_add"), std::string::npos);
  EXPECT_EQ(first.options, (std::vector<std::string>{"-DUNUSED=1", "--gpu-architecture=sm_90"}));
  EXPECT_TRUE(compiler.fastOptionsRejected());
  const CompiledProgram second = compiler.compile(request);
  EXPECT_EQ(second.options, first.options);
  EXPECT_EQ(compiler.compilations(), 2U);
}

// A request's own invalid option is still the one-line DeviceError of NVRTC_ERROR_INVALID_OPTION
// with fast options beside it, and a source that does not compile is a CompileError, not a
// retry without the fast options (which stay on).
TEST(NvrtcCompiler, FastOptionsDoNotHideTheRequestsErrors) {
  NvrtcCompiler compiler = uncachedCompiler();
  CompileRequest request;
  request.source = kVectorAddSource;
  request.options = {"--no-such-nvrtc-option"};
  request.fastOptions = {"-minimal"};
  try {
    static_cast<void>(compiler.compile(request));
    FAIL() << "an invalid option was accepted";
  } catch (const DeviceError& error) {
    const std::string what = error.what();
    EXPECT_NE(what.find("NVRTC_ERROR_INVALID_OPTION"), std::string::npos) << what;
    EXPECT_EQ(what.find('\n'), std::string::npos) << what;
  }
  request.options.clear();
  request.source = "extern \"C\" __global__ void k(float* x) { x[0] = undeclared; }\n";
  EXPECT_THROW(static_cast<void>(compiler.compile(request)), CompileError);
  EXPECT_FALSE(compiler.fastOptionsRejected());
  EXPECT_EQ(compiler.compilations(), 0U);
}

// fftc's own compiles pass -minimal unless FFTC_NVRTC_MINIMAL=0.
TEST(NvrtcCompiler, FastCompileOptionsFromTheEnvironment) {
  struct Restore {
    ~Restore() { unsetenv("FFTC_NVRTC_MINIMAL"); }
  } restore;
  unsetenv("FFTC_NVRTC_MINIMAL");
  EXPECT_EQ(fastCompileOptions(), std::vector<std::string>{"-minimal"});
  setenv("FFTC_NVRTC_MINIMAL", "0", 1);
  EXPECT_TRUE(fastCompileOptions().empty());
  setenv("FFTC_NVRTC_MINIMAL", "1", 1);
  EXPECT_EQ(fastCompileOptions(), std::vector<std::string>{"-minimal"});
}

TEST(NvrtcCompiler, ArchForComputeCapability) {
  EXPECT_EQ(archForComputeCapability(9, 0), "sm_90");
  EXPECT_EQ(archForComputeCapability(10, 0), "sm_100");
  EXPECT_EQ(archForComputeCapability(8, 6), "sm_86");
}

}  // namespace
}  // namespace fftc::backends::cuda
