// The fftc executable as a user meets it: each failure gives a one-line reason (or a compile
// error with its source line and caret) and the exit status CLI.md documents.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "cli_helpers.h"

namespace {

using namespace fftc_cli_test;

TEST(Cli, HelpAndVersionSucceed) {
  EXPECT_EQ(fftc("--help").status, 0);
  EXPECT_EQ(fftc("compile --help").status, 0);
  auto v = fftc("--version");
  EXPECT_EQ(v.status, 0);
  EXPECT_EQ(v.out.rfind("fftc ", 0), 0u) << v.out;
}

TEST(Cli, UserErrorsExitOneWithOneLine) {
  for (const std::string& args : std::vector<std::string>{"", "bogus", "compile", "compile " + kExamples + "dot.fdl --emit nonsense",
        "compile " + kExamples + "dot.fdl --precision f16",
        "compile " + kExamples + "dot.fdl --no-such-option",
        "compile " + kExamples + "dot.fdl -D N", "compile /no/such/file.fdl",
        "compile " + kExamples + "dot.fdl --kernel nope",
        "exec " + kExamples + "stockham.fdl", "compile " + kExamples + "stockham.fdl --rewrite 'mapFusin'"}) {
    SCOPED_TRACE(args);
    auto r = fftc(args);
    EXPECT_EQ(r.status, 1) << r.out;
    if (args.empty()) continue;  // the usage text
    if (args.find("--rewrite") != std::string::npos) {
      EXPECT_NE(r.out.find("error:"), std::string::npos) << r.out;
      continue;  // the strategy text and a caret follow the message
    }
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
}

TEST(Cli, CompileErrorsPointIntoTheSource) {
  auto path = writeTemp("bad.fdl", "kernel k(x: [float]8) =\n  map(fun y => y +) <<: x\n");
  auto r = fftc("compile " + path);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("bad.fdl:2:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("^"), std::string::npos) << r.out;  // the caret line
  EXPECT_EQ(lineCount(r.out), 3) << r.out;
}

// The compile-time conditional's errors (tests/frontend/if_test.cpp has them all): a runtime
// condition, a condition that is no boolean or 0/1 integer, a missing then or else.
TEST(Cli, ConditionalErrorsExitOneAtTheirLocation) {
  struct Case {
    const char* file;
    const char* source;
    const char* header;  // after the path
  };
  const Case cases[] = {
      {"if_runtime.fdl", "kernel k(x: [float]4) =\n  map(fun v => if v then v else v) <<: x\n",
       ":2:19: error: the condition of 'if' must be known at compile time, but it is a runtime "
       "value"},
      {"if_list.fdl", "def rs = [2, 2]\nkernel k(x: [float]4) = split(if rs then 1 else 2) <<: x\n",
       ":2:34: error: the condition of 'if' must be a boolean or the integer 0 or 1, but it is a "
       "list"},
      {"if_then.fdl", "def f = if 1 id else neg\n",
       ":1:14: error: expected 'then' after the condition of 'if', found identifier 'id'"},
      {"if_else.fdl", "def f = if 1 then id\nkernel k(x: [float]4) = f <<: x\n",
       ":2:1: error: expected 'else' after the 'then' branch (an 'if' needs both branches), "
       "found 'kernel'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.file);
    const std::string path = writeTemp(c.file, c.source);
    auto r = fftc("compile " + path + " -o " + std::filesystem::temp_directory_path().string());
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(r.out.rfind(path + c.header + "\n", 0), 0u) << r.out;
    EXPECT_EQ(lineCount(r.out), 3) << r.out;  // the message, the source line, the caret
  }
}

TEST(Cli, MalformedUserfunBodyPointsIntoTheFdlFile) {
  auto path = writeTemp("uf.fdl",
                        "userfun twice(a: float): float = \"return a +* 2.0f;\"\n"
                        "kernel k(x: [float]8) = mapGlobal(twice) <<: x\n");
  auto r = fftc("compile " + path + " -o " + std::filesystem::temp_directory_path().string());
  if (FFTC_CLI_HAS_CLANG) {
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("uf.fdl:1:"), std::string::npos) << r.out;
  } else {
    // A build without the clang helpers leaves the body to the device compiler.
    EXPECT_EQ(r.status, 0) << r.out;
  }
}

// Without the clang helpers the body reaches the OpenCL compiler: a device error (exit 2) whose
// first line names the failure, with the build log after it.
TEST(Cli, OpenClBuildFailureIsADeviceError) {
  auto path = writeTemp("uf2.fdl",
                        "userfun twice(a: float): float = \"return a +* 2.0f;\"\n"
                        "kernel k(x: [float]8) = mapGlobal(twice) <<: x\n");
  auto r = fftc("exec " + path, "FFTC_CLANG_PLUGIN=off FFTC_NO_CACHE=1");
  EXPECT_EQ(r.status, 2) << r.out;
  // (PoCL's own compiler may print "1 error generated." before it.)
  EXPECT_NE(r.out.find("fftc: device error: OpenCL build failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("indirection requires pointer operand"), std::string::npos) << r.out;
}

TEST(Cli, MissingOpenClPlatformIsADeviceError) {
  auto r = fftc("exec " + kExamples + "dot_lowlevel.fdl -D N=64", "OCL_ICD_VENDORS=/nonexistent");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_NE(r.out.find("no OpenCL platform"), std::string::npos) << r.out;
  EXPECT_EQ(lineCount(r.out), 1) << r.out;
}

// What `fftc devices --json` says of CUDA: listed at all, the backend built in, a device there.
struct CudaState {
  bool listed = false, built = false, available = false;
};
CudaState cudaState() {
  auto devices = fftc("devices --json");
  CudaState st;
  const size_t cudaKey = devices.status == 0 ? devices.out.find("\"cuda\":") : std::string::npos;
  if (cudaKey == std::string::npos) return st;
  st.listed = true;
  st.available = devices.out.find("\"available\":true", cudaKey) != std::string::npos;
  st.built = devices.out.find("built without the CUDA backend") == std::string::npos;
  return st;
}

// CUDA through the same command: without a driver a device error (exit 2) saying so, with one
// a checked run.
TEST(Cli, ExecOnCudaRunsOrSaysWhyNot) {
  const CudaState state = cudaState();
  ASSERT_TRUE(state.listed) << "fftc devices --json lists no \"cuda\" entry";
  const bool cuda = state.available, built = state.built;
  auto r = fftc("exec " + kExamples + "dot_lowlevel.fdl -D N=64 --target cuda --check --json");
  if (!built) {
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("built without CUDA"), std::string::npos) << r.out;
  } else if (cuda) {
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  } else {
    EXPECT_EQ(r.status, 2) << r.out;
    // One line, as run says it (the loader's own message adds nothing: issue 20).
    EXPECT_EQ(r.out.rfind("fftc: device error: CUDA driver not found", 0), 0u) << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
}

// fftc run --target cuda: without a driver a device error on one line (exit 2); with one an FFT
// run on the GPU and checked against FFTW.
TEST(Cli, RunOnCudaRunsOrSaysWhyNot) {
  const CudaState state = cudaState();
  ASSERT_TRUE(state.listed) << "fftc devices --json lists no \"cuda\" entry";
  const bool cuda = state.available, built = state.built;
  auto r = fftc("run --size 1000 --batch 4 --target cuda --check --json --repeat 3");
  if (!built) {
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("built without CUDA"), std::string::npos) << r.out;
  } else if (cuda) {
    EXPECT_EQ(r.status, 0) << r.out;
    EXPECT_NE(r.out.find("\"target\":\"cuda\""), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("\"linf_error\":"), std::string::npos) << r.out;
    // the report describes the plan that ran: CudaPlan's, with the device's shared memory
    // (4096 f32 in one kernel wherever a block may opt into 70 KB)
    auto big = fftc("run --size 4096 --batch 2 --target cuda --check --json --repeat 1");
    ASSERT_EQ(big.status, 0) << big.out;
    const auto j = boost::json::parse(big.out).as_object();
    if (j.at("local_memory_bytes").as_int64() >= 69632) {
      EXPECT_EQ(j.at("variant"), "local") << big.out;
      EXPECT_EQ(j.at("stages").as_int64(), 1) << big.out;
    }
    // wisdom tuned on CUDA is accepted by run: both plan with the device's shared memory
    const auto wisdom = std::filesystem::temp_directory_path() / "fftc_cli_test" / "cuda_wisdom.json";
    std::filesystem::remove(wisdom);
    auto tune = fftc("tune --size 4096 --batch 2 --target cuda --evaluations 2 --no-log --wisdom " +
                     wisdom.string());
    ASSERT_EQ(tune.status, 0) << tune.out;
    auto tuned = fftc("run --size 4096 --batch 2 --target cuda --check --json --repeat 1 --wisdom " +
                      wisdom.string());
    ASSERT_EQ(tuned.status, 0) << tuned.out;
    // (the wisdom's note comes first, on stderr)
    const auto brace = tuned.out.find('{');
    ASSERT_NE(brace, std::string::npos) << tuned.out;
    EXPECT_TRUE(boost::json::parse(tuned.out.substr(brace)).as_object().at("wisdom").as_bool())
        << tuned.out;
  } else {
    EXPECT_EQ(r.status, 2) << r.out;
    EXPECT_EQ(r.out.rfind("fftc: device error: CUDA driver not found", 0), 0u) << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
  // A selector of the other runtime is a user error, driver or not.
  EXPECT_EQ(fftc("run --size 8 --target cuda --device opencl:0:0").status, 1);
}

// fftc fft --target cuda writes the CUDA kernels, the manifest and a standalone header that
// carries the kernels as PTX (NVRTC at write time, no driver needed); where this fftc has no
// NVRTC, the header is left out with a warning and the rest written.
// --min-blocks K: __launch_bounds__' second argument in every CUDA kernel (issue 22: two
// blocks of the one-array 8192 f32 kernel per SM); a negative count is refused.
TEST(Cli, FftMinBlocksBoundsTheCudaKernel) {
  auto dir = std::filesystem::temp_directory_path() / "fftc_cli_test" / "fft_min_blocks";
  std::filesystem::remove_all(dir);
  auto r = fftc("fft --size 8192 --target cuda --radices 16,16,32 --local-memory 115000 "
                "--min-blocks 2 -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  std::ifstream in(dir / "fft_8192_f32.cu");
  const std::string cu(std::istreambuf_iterator<char>(in), {});
  EXPECT_NE(cu.find("__launch_bounds__(512, 2)"), std::string::npos) << cu.substr(0, 3000);
  auto bad = fftc("fft --size 64 --target cuda --min-blocks -1 -o " + dir.string());
  EXPECT_EQ(bad.status, 1);
  EXPECT_NE(bad.out.find("--min-blocks -1"), std::string::npos) << bad.out;
  // more blocks than an SM holds, and the OpenCL target (no __launch_bounds__): refused
  auto many = fftc("fft --size 64 --target cuda --min-blocks 33 -o " + dir.string());
  EXPECT_EQ(many.status, 1);
  EXPECT_NE(many.out.find("expected 1 to 32"), std::string::npos) << many.out;
  auto opencl = fftc("fft --size 64 --min-blocks 2 -o " + dir.string());
  EXPECT_EQ(opencl.status, 1);
  EXPECT_NE(opencl.out.find("the OpenCL target has none"), std::string::npos) << opencl.out;
}

TEST(Cli, FftForCudaWritesKernelsManifestAndCudaHeader) {
  auto dir = std::filesystem::temp_directory_path() / "fftc_cli_test" / "fft_cuda";
  std::filesystem::remove_all(dir);
  auto r = fftc("fft --size 64 --batch 4 --target cuda -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  auto read = [&](const char* f) {
    std::ifstream in(dir / f);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string cu = read("fft_64_f32.cu"), json = read("fft_64_f32.json"),
                    hpp = read("fft_64_f32.hpp");
  // 8 work-items per FFT (64 / radix 8) x the 4 FFTs of the batch: the block it is launched
  // with, and the bound NVRTC allocates registers for (clang-format may break the line there)
  EXPECT_NE(cu.find("extern \"C\" __global__ void __launch_bounds__(32)"), std::string::npos)
      << cu;
  EXPECT_NE(cu.find("fft_64_f32_stage0("), std::string::npos) << cu;
  EXPECT_NE(json.find("\"target\": \"cuda\""), std::string::npos) << json;
  if (FFTC_CLI_HAS_CUDA) {
    EXPECT_NE(hpp.find("#include <cuda.h>"), std::string::npos) << hpp.substr(0, 2000);
    // The PTX of compute_75 (its .target reads sm_75), which the driver compiles for any GPU from 7.5.
    EXPECT_NE(hpp.find("\n.target sm_75\n"), std::string::npos);
    EXPECT_NE(hpp.find("cuModuleGetFunction(&state_->functions[0], state_->module, "
                       "\"fft_64_f32_stage0\")"),
              std::string::npos);
    EXPECT_NE(r.out.find("wrote fft_64_f32.cu, .json, .hpp"), std::string::npos) << r.out;
  } else {
    EXPECT_TRUE(hpp.empty());
    EXPECT_NE(r.out.find("fftc: warning: no fft_64_f32.hpp"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("wrote fft_64_f32.cu, .json in"), std::string::npos) << r.out;
  }
  EXPECT_EQ(hpp.find("opencl"), std::string::npos);
  EXPECT_EQ(hpp.find("fftc::"), std::string::npos);  // nothing of fftc's libraries
  EXPECT_FALSE(std::filesystem::exists(dir / "fft_64_f32.cl"));
  // The OpenCL header: the OpenCL API only.
  auto rc = fftc("fft --size 64 --batch 4 -o " + dir.string());
  ASSERT_EQ(rc.status, 0) << rc.out;
  const std::string hcl = read("fft_64_f32.hpp");
  EXPECT_NE(hcl.find("#include <CL/cl.h>"), std::string::npos) << hcl.substr(0, 2000);
  EXPECT_EQ(hcl.find("cuda"), std::string::npos);
  EXPECT_EQ(hcl.find("fftc::"), std::string::npos);
}

TEST(Cli, ExecChecksAgainstTheInterpreter) {
  auto r = fftc("exec " + kExamples + "stockham.fdl --kernel fft -D rs=4,4 --check --json");
  EXPECT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
}

// exec --repeat/--warmup (issue 25: one cold run is not a kernel's time): the report says how it
// timed, keeps the cold run's total apart, and every stage has a time; without them time_ms is
// the cold run itself. Bad counts are exit 1 with one line.
TEST(Cli, ExecRepeatsAndReportsTheColdRunApart) {
  const std::string base = "exec " + kExamples + "dot.fdl -D N=4096 --check --json";
  auto once = fftc(base);
  ASSERT_EQ(once.status, 0) << once.out;
  const auto o = boost::json::parse(once.out).as_object();
  EXPECT_EQ(o.at("repeat").as_int64(), 1);
  EXPECT_EQ(o.at("warmup").as_int64(), 0);
  EXPECT_EQ(o.at("time_ms").as_double(), o.at("cold_ms").as_double());

  auto rep = fftc(base + " --repeat 3 --warmup 1");
  ASSERT_EQ(rep.status, 0) << rep.out;
  const auto r = boost::json::parse(rep.out).as_object();
  EXPECT_EQ(r.at("repeat").as_int64(), 3);
  EXPECT_EQ(r.at("warmup").as_int64(), 1);
  EXPECT_TRUE(r.at("ok").as_bool());
  EXPECT_GT(r.at("cold_ms").as_double(), 0.0);
  EXPECT_GT(r.at("time_ms").as_double(), 0.0);
  for (const auto& st : r.at("stages").as_array())
    EXPECT_GT(st.as_object().at("ms").as_double(), 0.0) << rep.out;

  for (const char* bad : {" --repeat 0", " --warmup -1"}) {
    auto e = fftc(base + bad);
    EXPECT_EQ(e.status, 1) << bad;
    EXPECT_NE(e.out.find("--repeat must be at least 1 and --warmup at least 0"),
              std::string::npos) << e.out;
  }
}

// --emit ir,lowered,views: stdout without -o (nothing written), files NAME.ir, NAME.lowered.ir,
// NAME.views.txt in DIR with it (issue 25: they wrote nothing and said nothing), the same text.
TEST(Cli, CompileEmitsTheIrToStdoutOrIntoDir) {
  const std::string base =
      "compile " + kExamples + "stockham.fdl --kernel fft -D rs=4,4 --emit ir,lowered,views";
  auto out = fftc(base);
  ASSERT_EQ(out.status, 0) << out.out;
  EXPECT_EQ(out.out.rfind("// kernel fft: ", 0), 0u) << out.out;
  EXPECT_NE(out.out.find("// kernel fft lowered by lowerDefault:"), std::string::npos) << out.out;
  EXPECT_FALSE(std::filesystem::exists("fft.ir"));

  auto dir = std::filesystem::temp_directory_path() / "fftc_cli_test" / "emit_ir";
  std::filesystem::remove_all(dir);
  auto files = fftc(base + " -o " + dir.string());
  ASSERT_EQ(files.status, 0) << files.out;
  EXPECT_EQ(files.out, "");
  auto read = [&](const char* name) {
    std::ifstream in(dir / name);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  const std::string ir = read("fft.ir"), lowered = read("fft.lowered.ir"),
                    views = read("fft.views.txt");
  EXPECT_EQ(ir.rfind("// kernel fft: ", 0), 0u) << ir;
  EXPECT_EQ(lowered.rfind("// kernel fft lowered by lowerDefault:", 0), 0u) << lowered;
  EXPECT_NE(views.find("write "), std::string::npos) << views;
  for (const std::string* text : {&ir, &lowered, &views})
    EXPECT_NE(out.out.find(*text), std::string::npos) << "the file differs from stdout:\n" << *text;
}

TEST(Cli, CompileWritesKernelsManifestAndHeader) {
  auto dir = std::filesystem::temp_directory_path() / "fftc_cli_test" / "out";
  std::filesystem::remove_all(dir);
  auto r = fftc("compile " + kExamples + "dot_lowlevel.fdl -D N=64 -o " + dir.string());
  EXPECT_EQ(r.status, 0) << r.out;
  for (const char* f : {"dotLow.cl", "dotLow.json", "dotLow.hpp"})
    EXPECT_TRUE(std::filesystem::exists(dir / f)) << f;
}

}  // namespace

namespace {

using namespace fftc_cli_test;

// `fftc run --check` with FFTW's advanced layouts (issue 7): FFTW's plan_many on the same
// buffers is the reference, and the output's holes must keep their values.
TEST(Cli, RunChecksAdvancedLayouts) {
  for (const std::string& args : std::vector<std::string>{
           "--size 16 --batch 3 --istride 2 --idist 40 --ostride 3 --odist 1",
           "--size 8x6 --batch 2 --inembed 9,7 --onembed 10,8",
           "--size 8x6 --batch 2 --real --inembed 8,8 --in-place",
           "--size 15 --batch 3 --real --direction inverse --idist 9 --onembed 16",
           "--size 1000 --batch 4 --istride 4 --idist 1 --ostride 4 --odist 1 --in-place"}) {
    SCOPED_TRACE(args);
    auto r = fftc("run " + args + " --check --json --repeat 1 --warmup 0");
    EXPECT_EQ(r.status, 0) << r.out;
    // holes_written: reported with an output layout
    const bool outputLayout = args.find(" --o") != std::string::npos;
    EXPECT_EQ(r.out.find("\"holes_written\":0") != std::string::npos, outputLayout) << r.out;
    EXPECT_NE(r.out.find("\"linf_error\""), std::string::npos) << r.out;
  }
}

// --check-elements: FFTW checks the batch's first transforms holding at most E elements
// (1000 / 64 = 15 of 100), at least one; with a strided layout, all of them.
TEST(Cli, RunChecksTheFirstTransformsWithCheckElements) {
  for (const auto& [args, checked] : std::vector<std::pair<std::string, int>>{
           {"--size 64 --batch 100 --check-elements 1000", 15},
           {"--size 64 --batch 100 --check-elements 6400", 100},
           {"--size 64 --batch 100 --check-elements 10", 1},
           {"--size 64 --batch 100 --check-elements 1000 --istride 2 --idist 128", 100}}) {
    SCOPED_TRACE(args);
    auto r = fftc("run " + args + " --check --json --repeat 1 --warmup 0");
    ASSERT_EQ(r.status, 0) << r.out;
    const auto j = boost::json::parse(r.out).as_object();
    EXPECT_EQ(j.at("checked_batch").as_int64(), checked);
    EXPECT_LT(j.at("linf_error").as_double(), 1e-5);
  }
  auto all = fftc("run --size 64 --batch 100 --check --json --repeat 1 --warmup 0");
  EXPECT_FALSE(boost::json::parse(all.out).as_object().contains("checked_batch")) << all.out;
  auto alone = fftc("run --size 64 --batch 100 --check-elements 1000");
  EXPECT_EQ(alone.status, 1) << alone.out;
  EXPECT_EQ(lineCount(alone.out), 1) << alone.out;
  auto text = fftc("run --size 64 --batch 100 --check --check-elements 1000 --repeat 1 --warmup 0");
  EXPECT_NE(text.out.find("the first 15 of 100 transforms"), std::string::npos) << text.out;
}

// A hierarchical plan's report names its levels; --level-sizes sets them.
TEST(Cli, RunReportsHierarchicalLevelSizes) {
  auto heuristic = fftc("run --size 16384 --batch 2 --json --repeat 1 --warmup 0");
  ASSERT_EQ(heuristic.status, 0) << heuristic.out;
  EXPECT_EQ(boost::json::parse(heuristic.out).as_object().at("level_sizes"),
            (boost::json::array{128, 128}));
  auto given = fftc(
      "run --size 16384 --batch 2 --level-sizes 64,256 --check --json --repeat 1 "
      "--warmup 0");
  ASSERT_EQ(given.status, 0) << given.out;
  const auto j = boost::json::parse(given.out).as_object();
  EXPECT_EQ(j.at("level_sizes"), (boost::json::array{64, 256}));
  EXPECT_LT(j.at("linf_error").as_double(), 1e-5);
  auto local = fftc("run --size 64 --json --repeat 1 --warmup 0");
  EXPECT_FALSE(boost::json::parse(local.out).as_object().contains("level_sizes")) << local.out;
}

// --local-memory: the budget of the local-memory kernels. 4096 f32 in one kernel of 70 KB: on
// CUDA its arrays in dynamic shared memory, which the manifest and the launch carry; a
// negative budget is a one-line user error.
TEST(Cli, LocalMemoryBudget) {
  auto dir = std::filesystem::temp_directory_path() / "fftc_cli_test" / "fft_local_memory";
  std::filesystem::remove_all(dir);
  auto r = fftc("fft --size 4096 --target cuda --local-memory 232448 -o " + dir.string());
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("variant: local"), std::string::npos) << r.out;
  std::ifstream in(dir / "fft_4096_f32.json");
  const auto m = boost::json::parse(std::string(std::istreambuf_iterator<char>(in), {}));
  const auto& stage = m.at("stages").as_array().at(0).as_object();
  EXPECT_EQ(stage.at("dynamic_local_memory_bytes").as_int64(), 69632);
  EXPECT_EQ(stage.at("local_memory_bytes").as_int64(), 69616);
  // PoCL's local memory holds it; a device of 48 KiB (NVIDIA's OpenCL) refuses it in one line
  auto run = fftc("run --size 4096 --local-memory 232448 --check --json --repeat 1 --warmup 0");
  if (run.status == 0) {
    EXPECT_EQ(boost::json::parse(run.out).as_object().at("variant"), "local");
    EXPECT_EQ(boost::json::parse(run.out).as_object().at("local_memory_bytes").as_int64(), 232448);
  } else {
    EXPECT_EQ(run.status, 1) << run.out;
    EXPECT_EQ(lineCount(run.out), 1) << run.out;
    EXPECT_NE(run.out.find("needs 69616 bytes of local memory"), std::string::npos) << run.out;
  }
  auto bad = fftc("run --size 64 --local-memory -1");
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_EQ(lineCount(bad.out), 1) << bad.out;
  EXPECT_NE(bad.out.find("--local-memory"), std::string::npos) << bad.out;
}

TEST(Cli, BadLayoutsExitOneWithOneLine) {
  for (const std::string& args : std::vector<std::string>{
           "--size 16 --batch 3 --odist 8", "--size 8x6 --inembed 8", "--size 16 --istride 0",
           "--size 8x6 --onembed 8,x"}) {
    SCOPED_TRACE(args);
    auto r = fftc("run " + args + " --check");
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
}

// Issue 20 (budgets): runaway programs are a located compile error with exit status 1, never a
// crash (iterate(30000, map(id)) overflowed the stack: SIGSEGV, status 139) or a hang
// (iterate(10^9, ...) spun in type inference); each of these runs within the test's timeout.
TEST(Cli, RunawayIterateIsALocatedErrorNotACrash) {
  for (const std::string count : {"30000", "100000", "1000000000"}) {
    auto path = writeTemp("iterate" + count + ".fdl", "kernel k(x: [float]16) =\n  iterate(" +
                                                      count + ", map(id)) <<: x\n");
    for (const std::string cmd : {"compile", "exec"}) {
      SCOPED_TRACE(cmd + " " + count);
      auto out = std::filesystem::temp_directory_path() / "fftc_cli_test" / "iterate_out";
      auto r = fftc(cmd + " " + path + (cmd == "compile" ? " -o " + out.string() : ""));
      EXPECT_EQ(r.status, 1) << r.out;
      EXPECT_NE(r.out.find(":2:3: error: code generation: " + count + " iterate steps"),
                std::string::npos)
          << r.out;
    }
  }
}

// A pipe of 660 split/map/join steps (1980 levels, inside the front end's 2000) took minutes
// (cubic in the length); it compiles within the test's timeout now.
TEST(Cli, LongPipeCompiles) {
  auto path = writeTemp("pipe660.fdl",
                        "kernel k(x: [float]64) = (pipe(q in 0 .. 660) (join o map(map(fun a => "
                        "a + 1.0f)) o split(2))) <<: x\n");
  auto out = std::filesystem::temp_directory_path() / "fftc_cli_test" / "pipe_out";
  auto r = fftc("compile " + path + " -o " + out.string());
  EXPECT_EQ(r.status, 0) << r.out;
  std::ifstream cl(out / "k.cl");
  std::string src((std::istreambuf_iterator<char>(cl)), std::istreambuf_iterator<char>());
  EXPECT_NE(src.find("k_stage659"), std::string::npos);
}

// [float]2147483656 compiled (exit 0) to a loop `for (int gid ...; gid < 2147483656L; ...)`
// that an int cannot finish: the loop variable is 64-bit now.
TEST(Cli, HugeSizesGetWideLoops) {
  for (const std::string size : {"2147483656", "4611686018427387904"}) {
    SCOPED_TRACE(size);
    auto path = writeTemp("huge.fdl", "kernel k(x: [float]" + size + ") = mapGlobal(fun a => a) "
                                      "<<: x\n");
    auto out = std::filesystem::temp_directory_path() / "fftc_cli_test" / "huge_out";
    auto r = fftc("compile " + path + " -o " + out.string());
    EXPECT_EQ(r.status, 0) << r.out;
    std::ifstream cl(out / "k.cl");
    std::string src((std::istreambuf_iterator<char>(cl)), std::istreambuf_iterator<char>());
    EXPECT_NE(src.find("for (long gid"), std::string::npos) << src;
    EXPECT_EQ(src.find("for (int gid"), std::string::npos) << src;
  }
}

// Issue 26, item 3: exec --check runs userfun bodies in the interpreter. The example's kernels
// pass; a body the interpreter cannot run is exit 1 at its position in the .fdl file; without
// the clang plugin the reason is given.
TEST(Cli, ExecCheckRunsUserfunBodies) {
  if (!FFTC_CLI_HAS_CLANG) GTEST_SKIP() << "built without LLVM: userfun bodies need clang";
  for (const char* k : {"saxpy", "power", "distances"}) {
    auto r = fftc("exec " + kExamples + "userfun.fdl --kernel " + k + " -D N=33 --check");
    EXPECT_EQ(r.status, 0) << k << ": " << r.out;
    EXPECT_NE(r.out.find("(ok)"), std::string::npos) << r.out;
  }
  auto path = writeTemp("ufptr.fdl",
                        "userfun f(a: float): float = \"float s = a;\n  float* q = &s;\n"
                        "  return *q;\"\n"
                        "kernel k(x: [float]8) = map(f) <<: x\n");
  auto r = fftc("exec " + path + " --check");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("ufptr.fdl:1:9: error: in line 2, column 10 of the body of userfun f: "
                       "the interpreter does not run a pointer"),
            std::string::npos)
      << r.out;
  auto off = fftc("exec " + kExamples + "userfun.fdl --kernel saxpy -D N=8 --check",
                  "FFTC_CLANG_PLUGIN=off");
  EXPECT_EQ(off.status, 1) << off.out;
  EXPECT_NE(off.out.find("the interpreter runs userfun bodies through clang"), std::string::npos)
      << off.out;
}

// Issue 26, item 2: explore ranks variants of a kernel (each checked against the interpreter)
// with lowerDefault alone first; --json has the fields CLI.md lists.
TEST(Cli, ExploreRanksCheckedVariants) {
  auto r = fftc("explore " + kExamples + "dot.fdl -D N=4096 --depth 1 --max-variants 3 "
                "--rules splitReduce,mapGlobal --params 1,8 --repeat 1 --warmup 0 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto o = boost::json::parse(r.out).as_object();
  EXPECT_EQ(o.at("kernel").as_string(), "dot");
  EXPECT_GT(o.at("baseline_ms").as_double(), 0.0);
  EXPECT_GT(o.at("best_ms").as_double(), 0.0);
  EXPECT_LE(o.at("best_ms").as_double(), o.at("baseline_ms").as_double());
  const auto& vs = o.at("variants").as_array();
  ASSERT_EQ(static_cast<int64_t>(vs.size()), o.at("evaluated").as_int64());
  ASSERT_GE(vs.size(), 2u) << r.out;  // lowerDefault and splitReduce(8) at the root
  EXPECT_EQ(vs[0].as_object().at("strategy").as_string(), "lowerDefault");
  EXPECT_EQ(vs[1].as_object().at("strategy").as_string(), "splitReduce(8); lowerDefault");
  for (const auto& v : vs) EXPECT_TRUE(v.as_object().at("ok").as_bool()) << r.out;
  auto bad = fftc("explore " + kExamples + "dot.fdl --json");
  EXPECT_EQ(bad.status, 1) << bad.out;
  EXPECT_NE(bad.out.find("give N with -D"), std::string::npos) << bad.out;
}

// A --params value that is not an integer to its end ("4x") is refused, in explore as in tune,
// instead of being read as its leading number: exit 1, one line.
TEST(Cli, ExploreAndTuneRefuseMalformedParams) {
  for (const std::string cmd : {"explore", "tune"})
    for (const std::string params : {"4x", "a", "1,8.5"}) {
      SCOPED_TRACE(cmd + " --params " + params);
      auto r = fftc(cmd + " " + kExamples + "dot.fdl -D N=4096 --params " + params);
      EXPECT_EQ(r.status, 1) << r.out;
      EXPECT_EQ(lineCount(r.out), 1) << r.out;
      EXPECT_NE(r.out.find("--params " + params + ": expected integers"), std::string::npos)
          << r.out;
    }
}

// Issue 26's done-when on a small GEMM: explore enumerates the register-blocked variants
// (tile2D, then mapReduceInterchange inside each tile); every variant, the best included,
// matches the interpreter. (That the best is 2x faster is a timing: docs/rewrites.md.)
TEST(Cli, ExploreFindsCorrectRegisterBlockedGemm) {
  auto r = fftc("explore " + kExamples + "gemm.fdl -D M=16 -D N=16 -D K=8 --depth 3 "
                "--rules tile2D,mapReduceInterchange --params 4 --repeat 1 --warmup 0 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  const auto o = boost::json::parse(r.out).as_object();
  const auto& vs = o.at("variants").as_array();
  bool blocked = false;
  for (const auto& v : vs) {
    // a variant code generation cannot do is not run (an accumulator at the top level)
    if (v.as_object().at("checked").as_bool()) {
      EXPECT_TRUE(v.as_object().at("ok").as_bool()) << r.out;
    }
    const std::string s(v.as_object().at("strategy").as_string());
    size_t interchanges = 0;
    for (size_t at = s.find("mapReduceInterchange"); at != std::string::npos;
         at = s.find("mapReduceInterchange", at + 1))
      ++interchanges;
    blocked = blocked || (s.find("tile2D(4, 4)") != std::string::npos && interchanges == 2);
  }
  EXPECT_TRUE(blocked) << "no variant with tile2D and both interchanges:\n" << r.out;
  const std::string best(o.at("best_strategy").as_string());
  bool bestOk = false;
  for (const auto& v : vs)
    if (v.as_object().at("strategy").as_string() == best)
      bestOk = v.as_object().at("ok").as_bool() && v.as_object().at("checked").as_bool();
  EXPECT_TRUE(bestOk) << r.out;
}

// The GPU-shaped register blocking (registerBlock: coalesced column tiles, the block's
// accumulators in one reduction) on a 2D grid is found in two steps and matches the
// interpreter; a variant whose work-group the device cannot launch (tile2D(128) with its
// 128 x 128 elements on mapLocal2D) is reported as not timed, and the exploration goes on.
TEST(Cli, ExploreFindsCoalescedRegisterBlocksAndSkipsOversizedWorkGroups) {
  auto r = fftc("explore " + kExamples +
                "gemm.fdl -D M=32 -D N=32 -D K=8 --depth 2 "
                "--rules registerBlock,mapGlobal2D --params 4 --repeat 1 --warmup 0 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  bool found = false;
  const boost::json::value small = boost::json::parse(r.out);
  for (const auto& v : small.as_object().at("variants").as_array()) {
    const auto& o = v.as_object();
    if (o.at("strategy").as_string() ==
        "registerBlock(4, 4); at([0, 1], mapGlobal2D); lowerDefault")
      found = o.at("checked").as_bool() && o.at("ok").as_bool();
  }
  EXPECT_TRUE(found) << r.out;

  auto big = fftc("explore " + kExamples +
                  "gemm.fdl -D M=256 -D N=256 -D K=2 --depth 3 "
                  "--rules tile2D,mapWorkgroup2D,mapLocal2D --params 128 --repeat 1 --warmup 0 "
                  "--json");
  ASSERT_EQ(big.status, 0) << big.out;
  bool refused = false;
  const boost::json::value large = boost::json::parse(big.out);
  for (const auto& v : large.as_object().at("variants").as_array()) {
    const auto& o = v.as_object();
    if (o.contains("error") &&
        std::string(o.at("error").as_string()).find("a work-group of 16384 work-items exceeds") !=
            std::string::npos)
      refused = o.at("ms").is_null();
  }
  EXPECT_TRUE(refused) << big.out;
}

// LIFT's GEMM with its tiles staged in local memory is four steps from the naive program
// (stageLocal in mapLocal2D's place); explore finds it and it matches the interpreter.
TEST(Cli, ExploreFindsTheTilesStagedInLocalMemory) {
  auto r = fftc("explore " + kExamples +
                "gemm.fdl -D M=32 -D N=32 -D K=8 --depth 4 "
                "--rules tile2D,registerBlock,mapWorkgroup2D,stageLocal --params 4,16 "
                "--repeat 1 --warmup 0 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  int staged = 0;
  const boost::json::value v = boost::json::parse(r.out);
  for (const auto& x : v.as_object().at("variants").as_array()) {
    const auto& o = x.as_object();
    if (std::string(o.at("strategy").as_string()).find("stageLocal(4)") != std::string::npos) {
      EXPECT_TRUE(o.at("checked").as_bool() && o.at("ok").as_bool()) << r.out;
      ++staged;
    }
  }
  EXPECT_EQ(staged, 1) << r.out;
}

}  // namespace
