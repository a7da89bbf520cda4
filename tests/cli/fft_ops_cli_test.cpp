// The FFT inside larger programs from the command line (issue 24, docs/language.md "The FFT"):
// the examples convolution.fdl, stft.fdl and conv2d.fdl run by `fftc exec --check` on the
// OpenCL device (PoCL here) against the interpreter running another FFT algorithm, at cheap
// sizes; the convolution is one stage; `compile` emits the expanded kernel; errors are one line.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>

#include "cli_helpers.h"

namespace {

using namespace fftc_cli_test;

boost::json::object execJson(const std::string& args) {
  auto r = fftc("exec " + args + " --check --json");
  EXPECT_EQ(r.status, 0) << r.out;
  if (r.status != 0) return {};
  auto o = boost::json::parse(r.out).as_object();
  EXPECT_TRUE(o.at("ok").as_bool()) << r.out;
  EXPECT_GT(o.at("elements").as_int64(), 0) << r.out;
  return o;
}

// The "done when" at a cheaper batch: forward FFT, product, inverse FFT in one kernel.
TEST(FftOpsCli, ConvolutionIsOneStageAndChecks) {
  auto o = execJson(kExamples + "convolution.fdl --kernel conv -D N=1024 -D B=4");
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 1U) << boost::json::serialize(o);
}

// 4096 f32 fits 48 KiB only as one local array: the convolution is still one kernel (three,
// the multi-pass form, before session 18), the forward and the inverse sharing the array
TEST(FftOpsCli, ConvolutionInOneLocalArrayIsOneStageAndChecks) {
  auto o = execJson(kExamples + "convolution.fdl --kernel conv -D N=4096 -D B=2");
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 1U) << boost::json::serialize(o);
  EXPECT_EQ(o.at("stages").as_array().at(0).at("local").as_array().at(0).as_int64(), 256)
      << boost::json::serialize(o);
}

TEST(FftOpsCli, ConvolutionOfAPartialWorkGroupChecks) {
  // 64-point rows: several rows per work-group, the last group partial
  auto o = execJson(kExamples + "convolution.fdl --kernel conv -D N=64 -D B=7 --precision f64");
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 1U) << boost::json::serialize(o);
}

TEST(FftOpsCli, StftChecks) {
  auto o = execJson(kExamples + "stft.fdl --kernel stft -D N=64 -D H=32 -D L=512");
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 1U) << boost::json::serialize(o);
}

// three passes, each a one-kernel FFT of its lines: rows, columns with the product (a tile of 8
// adjacent columns, 64 bytes, on local dimension 0), rows
TEST(FftOpsCli, Conv2dWithZeroPaddingIsThreeStagesAndChecks) {
  auto o = execJson(kExamples + "conv2d.fdl --kernel conv2d -D M=16 -D N=32");
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 3U) << boost::json::serialize(o);
  const auto& ops = o.at("fft_operations").as_array();
  ASSERT_EQ(ops.size(), 4U) << boost::json::serialize(o);
  EXPECT_NE(std::string(ops[1].as_string()).find("x 8 adjacent columns"), std::string::npos)
      << boost::json::serialize(o);
  // lines too short for the one-kernel form (16 points: one radix) are passes over global memory
  execJson(kExamples + "conv2d.fdl --kernel conv2d -D M=4 -D N=8");
}

// conv2d written the natural way (examples/conv2d_padded.fdl: the image padded in both
// dimensions, then its rows and columns transformed) takes conv2d.fdl's order by rewriting
// (skipZeroRows): three stages whose first transforms the M rows of the image, not the 2M of the
// padded one, and the same kernel source as conv2d.fdl's, byte for byte
TEST(FftOpsCli, PaddedConv2dTransformsOnlyTheImagesRowsAsConv2dDoes) {
  auto o = execJson(kExamples + "conv2d_padded.fdl --kernel conv2d -D M=16 -D N=32");
  if (o.empty()) return;
  const auto& stages = o.at("stages").as_array();
  ASSERT_EQ(stages.size(), 3U) << boost::json::serialize(o);
  // rows of 64 points, 16 of them: 8 work-items x 16 rows per group, one group (not two)
  EXPECT_EQ(boost::json::serialize(stages[0].at("global")), "[8,16]") << boost::json::serialize(o);
  EXPECT_TRUE(o.contains("fft_rewrites")) << boost::json::serialize(o);
  const auto dir = tempDir() / "conv2d_padded";
  std::filesystem::remove_all(dir);
  for (const std::string f : {"conv2d", "conv2d_padded"}) {
    auto r = fftc("compile " + kExamples + f + ".fdl --kernel conv2d -D M=16 -D N=32 -o " +
                  (dir / f).string());
    ASSERT_EQ(r.status, 0) << r.out;
  }
  EXPECT_EQ(readFile(dir / "conv2d_padded" / "conv2d.cl"), readFile(dir / "conv2d" / "conv2d.cl"));
  // with 3 x 5 images the transforms are passes over global memory: still the same value
  execJson(kExamples + "conv2d_padded.fdl --kernel conv2d -D M=3 -D N=5 --precision f64");
}

// `fftc tune FILE.fdl` on a kernel with fft operations searches its row maps' plans (issue 24:
// the tuner in context), each checked against the interpreter; the winner is wisdom that exec
// applies (and says so) and compile --device too, the same kernel as the plan given by --fft-ops
TEST(FftOpsCli, TuneRecordsPlansThatExecAndCompileApply) {
  const auto dir = tempDir() / "fft_ops_tune";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string wisdom = (dir / "wisdom.json").string();
  const std::string conv = kExamples + "convolution.fdl --kernel conv -D N=64 -D B=2";
  auto t = fftc("tune " + conv + " --technique random --evaluations 3 --repeat 2 --warmup 0 " +
                "--budget 120 --json --wisdom " + wisdom);
  ASSERT_EQ(t.status, 0) << t.out;
  // (stderr's lines first: the JSON object is the last line)
  auto lastLine = [](const std::string& out) {
    const size_t end = out.find_last_not_of('\n');
    const size_t start = out.rfind('\n', end);
    return out.substr(start == std::string::npos ? 0 : start + 1, end + 1);
  };
  const auto j = boost::json::parse(lastLine(t.out)).as_object();
  EXPECT_EQ(j.at("evaluations").as_int64(), 3) << t.out;
  EXPECT_TRUE(j.at("recorded").as_bool()) << t.out;
  EXPECT_TRUE(j.at("heuristic_ms").is_double()) << t.out;  // the planner's plans measured first
  const std::string best = boost::json::serialize(j.at("best"));
  ASSERT_NE(best.find("form0.radices"), std::string::npos) << best;
  auto e = fftc("exec " + conv + " --check --json --wisdom " + wisdom);
  ASSERT_EQ(e.status, 0) << e.out;
  EXPECT_NE(e.out.find("fftc: note: wisdom"), std::string::npos) << e.out;
  const auto o = boost::json::parse(lastLine(e.out)).as_object();
  EXPECT_TRUE(o.at("wisdom").as_bool()) << e.out;
  EXPECT_TRUE(o.at("ok").as_bool()) << e.out;
  auto compiled = [&](const std::string& args, const std::string& name) {
    auto r = fftc("compile " + conv + args + " -o " + (dir / name).string());
    EXPECT_EQ(r.status, 0) << r.out;
    return readFile(dir / name / "conv.cl");
  };
  const std::string tuned = compiled(" --device opencl:0:0 --wisdom " + wisdom, "tuned");
  EXPECT_EQ(tuned, compiled(" --fft-ops '" + best + "'", "flags"));
  // without --device compile plans as the planner does
  EXPECT_EQ(compiled(" --wisdom " + wisdom, "plain"),
            compiled(" --fft-ops '{\"form0.radices\": [], \"form0.shape\": [0, 0]}'", "h"));
  // the plans were tuned at the default budget (48 KiB): at another the entry is not found (the
  // planner's veto depends on it), and compile --device plans as the planner does
  const std::string small =
      compiled(" --local-memory 4096 --device opencl:0:0 --wisdom " + wisdom, "small");
  EXPECT_EQ(small, compiled(" --local-memory 4096", "small-plain"));
  auto at4096 = fftc("exec " + conv + " --local-memory 4096 --check --json --wisdom " + wisdom);
  EXPECT_EQ(at4096.status, 0) << at4096.out;
  EXPECT_EQ(at4096.out.find("fftc: note: wisdom"), std::string::npos) << at4096.out;
  // plans the planner refuses now (a wisdom file edited, or the planner changed): compile
  // --device says so and plans as the planner does, as exec does
  {
    auto w = boost::json::parse(readFile(wisdom)).as_object();
    auto& entry = w.at("entries").as_array().at(0).as_object();
    ASSERT_NE(std::string(entry.at("problem").as_string()).find("local-memory=49152"),
              std::string::npos)
        << boost::json::serialize(entry);
    entry["config"] = boost::json::object{{"form0.radices", boost::json::array{2, 2}}};
    std::ofstream(wisdom) << boost::json::serialize(w) << "\n";
  }
  auto refused = fftc("compile " + conv + " --device opencl:0:0 --wisdom " + wisdom + " -o " +
                      (dir / "refused").string());
  EXPECT_EQ(refused.status, 0) << refused.out;
  EXPECT_NE(refused.out.find("not applied"), std::string::npos) << refused.out;
  EXPECT_EQ(readFile(dir / "refused" / "conv.cl"), readFile(dir / "plain" / "conv.cl"));
  auto refusedExec = fftc("exec " + conv + " --check --json --wisdom " + wisdom);
  EXPECT_EQ(refusedExec.status, 0) << refusedExec.out;
  EXPECT_NE(refusedExec.out.find("not applied"), std::string::npos) << refusedExec.out;
  // a kernel without fft operations is tune's general path; a bad --fft-ops is one line
  auto bad = fftc("exec " + conv + " --fft-ops '{\"form0.radix\": [8, 8]}'");
  EXPECT_NE(bad.status, 0);
  EXPECT_NE(bad.out.find("unknown parameter 'form0.radix'"), std::string::npos) << bad.out;
  EXPECT_EQ(lineCount(bad.out), 1) << bad.out;
}

// a plan whose result differs from the interpreter's is a bug of the planner or of code
// generation (here every plan: the kernel's value is NaN, which never compares equal): tune
// prints its report, records nothing and exits 3, as the general kernels' tune
TEST(FftOpsCli, TuneWithWrongResultsRecordsNothingExit3) {
  const auto dir = tempDir() / "fft_ops_tune_wrong";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string wisdom = (dir / "wisdom.json").string();
  const auto path = writeTemp(
      "fft_ops_nan.fdl",
      "kernel k(x: [[complex]N]B) = map(fun r => map(fun y => y * sqrt(0.0 - 1.0)) <<: fft(r)) <<: "
      "x\n");
  auto t = fftc("tune " + path + " -D N=64 -D B=2 --technique random --evaluations 2 --repeat 1 " +
                "--warmup 0 --budget 120 --wisdom " + wisdom);
  EXPECT_EQ(t.status, 3) << t.out;
  EXPECT_NE(t.out.find("stopped:"), std::string::npos) << t.out;  // the report first
  EXPECT_NE(t.out.find("2 configuration(s) differ from the interpreter"), std::string::npos)
      << t.out;
  EXPECT_TRUE(!std::filesystem::exists(wisdom) ||
              readFile(wisdom).find("fft-ops") == std::string::npos)
      << readFile(wisdom);
}

// transforms beyond the local-memory budget (forced by --local-memory at cheap sizes): the
// planner's hierarchical plan, two kernels per transform, the work around them in those kernels,
// the forward's last kernel and the inverse's first one kernel
TEST(FftOpsCli, MultiPassConvolutionIsThreeStagesAndChecks) {
  auto o = execJson(kExamples + "convolution.fdl --kernel conv -D N=256 -D B=2 --precision f64 "
                                "--local-memory 4096");  // two levels 16 x 16
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 3U) << boost::json::serialize(o);
  const auto& ops = o.at("fft_operations").as_array();
  ASSERT_EQ(ops.size(), 2U) << boost::json::serialize(o);
  EXPECT_NE(std::string(ops[0].as_string()).find("hierarchical"), std::string::npos);
}

// the padding read in the first kernel of each padded transform, the crops written through;
// every line three levels (4 x 4 x 4, 2 x 4 x 4); the columns' forward and inverse share a kernel
TEST(FftOpsCli, MultiPassConv2dIsElevenStagesAndChecks) {
  auto o = execJson(kExamples + "conv2d.fdl --kernel conv2d -D M=16 -D N=32 --local-memory 256");
  if (o.empty()) return;
  EXPECT_EQ(o.at("stages").as_array().size(), 11U) << boost::json::serialize(o);
}

TEST(FftOpsCli, CompileWritesTheExpandedKernel) {
  auto r = fftc("compile " + kExamples +
                "convolution.fdl --kernel conv -D N=256 -D B=2 --emit ir,lowered");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_NE(r.out.find("map(fft)"), std::string::npos) << r.out;  // the ir: the operation
  EXPECT_NE(r.out.find("lowered by lowerFft"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mapWorkgroup"), std::string::npos) << r.out;
}

// The convolution's transforms in the plain FFT's radices by default ([16, 8, 8] on 128
// work-items) and, with --chain-radix 32, the wider ones (chainRadices: 1024 = [32, 32], a row
// on 32): both check.
TEST(FftOpsCli, ConvolutionsChainRadixChoosesItsRadicesAndChecks) {
  for (const auto& [flag, radices, workItems] :
       {std::tuple{"", "radices 16, 8, 8 (", 128},
        std::tuple{" --chain-radix 32", "radices 32, 32 (", 32}}) {
    auto o = execJson(kExamples + "convolution.fdl --kernel conv -D N=1024 -D B=4" + flag);
    if (o.empty()) continue;
    const std::string text = boost::json::serialize(o);
    EXPECT_EQ(o.at("stages").as_array().size(), 1U) << text;
    EXPECT_NE(text.find(radices), std::string::npos) << text;
    EXPECT_EQ(o.at("stages").as_array().at(0).at("local").as_array().at(0).as_int64(), workItems)
        << text;
  }
  auto r = fftc("exec " + kExamples +
                "convolution.fdl --kernel conv -D N=1024 -D B=4 --chain-radix 12");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(lineCount(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("--chain-radix 12: expected a power of two"), std::string::npos) << r.out;
}

TEST(FftOpsCli, ASymbolicSizeIsOneLineExit1) {
  auto path = writeTemp("fft_symbolic.fdl", "kernel k(x: [complex]N) = fft(x)\n");
  auto r = fftc("compile " + path + " --emit source -o " + tempDir().string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_EQ(lineCount(r.out), 1) << r.out;
  EXPECT_NE(r.out.find("must be known at compile time"), std::string::npos) << r.out;
}

// --fft-ops gives one kernel's plans (form<i>: its row maps): on a kernel without fft operations,
// or to compile without --kernel on a program of two kernels with them, one line, exit 1 (it was
// ignored, or applied to every kernel)
TEST(FftOpsCli, FftOpsWithoutOneKernelToPlanIsOneLineExit1) {
  const std::string ops = " --fft-ops '{\"form0.radices\": [8, 8]}'";
  auto exec = fftc("exec " + kExamples + "dot.fdl -D N=64" + ops);
  EXPECT_EQ(exec.status, 1) << exec.out;
  EXPECT_EQ(lineCount(exec.out), 1) << exec.out;
  EXPECT_NE(exec.out.find("kernel dot has no fft operations"), std::string::npos) << exec.out;
  auto compile = fftc("compile " + kExamples + "dot.fdl -D N=64 --emit source" + ops);
  EXPECT_EQ(compile.status, 1) << compile.out;
  EXPECT_EQ(lineCount(compile.out), 1) << compile.out;
  EXPECT_NE(compile.out.find("no fft operations"), std::string::npos) << compile.out;
  const auto two = writeTemp(
      "fft_ops_two.fdl",
      "kernel a(x: [[complex]N]B) = map(fun r => fft(r)) <<: x\n"
      "kernel b(x: [[complex]N]B) = map(fun r => ifft(r)) <<: x\n");
  auto both = fftc("compile " + two + " -D N=64 -D B=2 --emit source" + ops);
  EXPECT_EQ(both.status, 1) << both.out;
  EXPECT_EQ(lineCount(both.out), 1) << both.out;
  EXPECT_NE(both.out.find("the kernels a, b have fft operations"), std::string::npos) << both.out;
  // with --kernel the plans are that kernel's
  auto one = fftc("compile " + two + " -D N=64 -D B=2 --kernel b -o " +
                  (tempDir() / "fft_ops_two").string() + ops);
  EXPECT_EQ(one.status, 0) << one.out;
}

}  // namespace

namespace {

using namespace fftc_cli_test;

// --pre/--post (issue 24): the callbacks fused into the one-kernel FFT, checked against FFTW
// with the same functions applied by the interpreter.
TEST(FftOpsCli, RunWithCallbacksChecksAgainstFftw) {
  const std::string cb = kExamples + "callbacks.fdl";
  for (const std::string size : {"256 --batch 3", "30 --batch 2 --direction inverse --scale"}) {
    auto r = fftc("run --size " + size + " --pre " + cb + ":gain --post " + cb +
                  ":power --check --repeat 1 --warmup 0 --json");
    ASSERT_EQ(r.status, 0) << r.out;
    auto o = boost::json::parse(r.out).as_object();  // exit 0: within FFTW's tolerance
    EXPECT_TRUE(o.at("linf_error").is_double()) << r.out;
    EXPECT_EQ(o.at("stages").as_int64(), 1) << r.out;  // the callbacks fused into the one kernel
  }
  // a callback changes the result: the same run without the store callback is another output
  auto a = fftc("fft --size 64 --pre " + cb + ":gain -o " + (tempDir() / "cb1").string());
  auto b = fftc("fft --size 64 -o " + (tempDir() / "cb2").string());
  ASSERT_EQ(a.status, 0) << a.out;
  ASSERT_EQ(b.status, 0) << b.out;
  EXPECT_NE(readFile(tempDir() / "cb1" / "fft_64_f32.cl"), readFile(tempDir() / "cb2" / "fft_64_f32.cl"));
}

// a plan of several kernels (hierarchical, forced by --local-memory): the callbacks in its
// first and last kernel, no pass of their own
TEST(FftOpsCli, RunWithCallbacksOnAMultiPassPlanChecksAgainstFftw) {
  const std::string cb = kExamples + "callbacks.fdl";
  auto r = fftc("run --size 256 --batch 4 --local-memory 1024 --pre " + cb + ":gain --post " + cb +
                ":power --check --repeat 1 --warmup 0 --json");
  ASSERT_EQ(r.status, 0) << r.out;
  auto o = boost::json::parse(r.out).as_object();
  EXPECT_EQ(o.at("stages").as_int64(), 3) << r.out;  // three levels: 4 | 8 | 8
}

// 2-D and 3-D: a pass per dimension, the load callback in the first, the store callback (and
// the scaling) in the last, checked against FFTW's N-D transform
TEST(FftOpsCli, RunWithCallbacksOnNdPlansChecksAgainstFftw) {
  const std::string cb = kExamples + "callbacks.fdl";
  for (const auto& [size, stages] : {std::pair<std::string, int64_t>{"64x32 --batch 2", 2},
                                     {"32x64 --direction inverse --scale", 2},
                                     {"8x16x32", 3}}) {
    auto r = fftc("run --size " + size + " --pre " + cb + ":gain --post " + cb +
                  ":power --check --repeat 1 --warmup 0 --json");
    ASSERT_EQ(r.status, 0) << size << r.out;
    auto o = boost::json::parse(r.out).as_object();
    EXPECT_EQ(o.at("stages").as_int64(), stages) << r.out;
  }
}

// a callback of the element and its index in the transform (examples/callbacks.fdl hann): in
// the one kernel, and in the first and last of a hierarchical plan's; the check applies it
// with the index too
TEST(FftOpsCli, RunWithIndexedCallbacksChecksAgainstFftw) {
  const std::string cb = kExamples + "callbacks.fdl";
  for (const auto& [options, stages] :
       {std::pair<std::string, int64_t>{"--size 1024 --batch 3 --pre " + cb + ":hann", 1},
        {"--size 256 --batch 4 --local-memory 1024 --pre " + cb + ":hann --post " + cb + ":hann",
         3}}) {
    auto r = fftc("run " + options + " --check --repeat 1 --warmup 0 --json");
    ASSERT_EQ(r.status, 0) << options << r.out;
    auto o = boost::json::parse(r.out).as_object();
    EXPECT_EQ(o.at("stages").as_int64(), stages) << r.out;
  }
  // N-D: the index of a line's element is not the element's index; refused
  auto nd = fftc("fft --size 64x32 --pre " + cb + ":hann -o " + tempDir().string());
  EXPECT_EQ(nd.status, 1) << nd.out;
  EXPECT_EQ(lineCount(nd.out), 1) << nd.out;
}

TEST(FftOpsCli, BadCallbacksAreOneLineExit1) {
  const std::vector<std::string> bads = {"--pre nofile.fdl:gain",
                                         "--post " + kExamples + "callbacks.fdl", "--pre x --real"};
  for (const std::string& bad : bads) {
    auto r = fftc("fft --size 64 " + bad + " -o " + tempDir().string());
    EXPECT_EQ(r.status, 1) << bad << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << bad << r.out;
  }
  // a name the file does not define: the file and its defs, not a location in generated text
  auto u = fftc("fft --size 64 --pre " + kExamples + "callbacks.fdl:nope -o " + tempDir().string());
  EXPECT_EQ(u.status, 1) << u.out;
  EXPECT_EQ(u.out.find("fftc: error: --pre " + kExamples + "callbacks.fdl:nope: " + kExamples +
                       "callbacks.fdl defines no function nope (its defs: gain, "),
            0u)
      << u.out;
  auto t = fftc("tune --size 64 --pre " + kExamples + "callbacks.fdl:gain --dry-run");
  EXPECT_EQ(t.status, 1) << t.out;
}

}  // namespace
