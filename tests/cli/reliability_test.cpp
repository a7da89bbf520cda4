// The fftc executable under hostile use (issue 20): user and resource errors get their own exit
// status (never 4, "internal error"), output files are written all or nothing, and what a long
// run reads or writes is checked before it starts. Each test failed at 2951a62.
#include <gtest/gtest.h>

#include <boost/json.hpp>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cli_helpers.h"

namespace {

using namespace fftc_cli_test;
namespace fs = std::filesystem;

// A fresh, empty folder under the test's temporary folder.
fs::path freshDir(const std::string& name) {
  auto dir = tempDir() / name;
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

// Every regular file of `dir` (name -> bytes), temporaries included.
std::map<std::string, std::string> snapshot(const fs::path& dir) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.is_regular_file()) out[e.path().filename().string()] = readFile(e.path());
  return out;
}

// The line of `out` that starts with '{', parsed (the report; stderr's lines come around it).
boost::json::object reportLine(const std::string& out) {
  const size_t at = out.rfind("\n{") != std::string::npos ? out.rfind("\n{") + 1 : 0;
  return boost::json::parse(out.substr(at, out.find('\n', at) - at)).as_object();
}

// ---- exit statuses: user and resource errors are not internal errors ----

// Sizes whose product overflows int64 (2^32 x 2^32 elements): a compile error at the program's
// location, exit 1.
TEST(CliReliability, ConstantOverflowInSizesIsALocatedUserError) {
  const auto path = writeTemp("overflow.fdl",
                              "kernel k(x: [[float]4294967296]4294967296) =\n"
                              "  mapGlobal(mapSeq(id)) <<: x\n");
  auto r = fftc("compile " + path + " -o " + freshDir("overflow").string());
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("overflow.fdl:1:"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("error:"), std::string::npos) << r.out;
  // a pad whose result size overflows
  const auto pad = writeTemp("overflow_pad.fdl",
                             "kernel k(x: [float]N) =\n"
                             "  mapGlobal(id) <<: pad(9223372036854775000, 1000, clamp) <<: x\n");
  auto p = fftc("compile " + pad + " -D N=64 -o " + freshDir("overflow_pad").string());
  EXPECT_EQ(p.status, 1) << p.out;
  EXPECT_NE(p.out.find("overflow_pad.fdl:2:"), std::string::npos) << p.out;
}

// std::bad_alloc on the host: exit 5, one line. ulimit -v (4 GB of address space) makes the
// 8 GiB of a 1024 x 2^20 batch, or exec's 2^30-element inputs and reference, unobtainable
// without needing a machine that lacks them (and without a test that takes them).
// The OpenCL CPU device (PoCL) runs them: a GPU driver may need more address space than the
// limit just to start, and would fail first (exit 2).
TEST(CliReliability, OutOfHostMemoryExitsFive) {
  const auto devices = fftc("devices --json");
  ASSERT_EQ(devices.status, 0) << devices.out;
  std::string cpu;
  const auto listed = reportLine(devices.out);
  for (const auto& d : listed.at("opencl").as_array())
    if (d.at("type") == "cpu" && cpu.empty()) cpu = d.at("selector").as_string().c_str();
  ASSERT_FALSE(cpu.empty()) << "no OpenCL CPU device (PoCL): " << devices.out;
  const auto big = writeTemp("big.fdl", "kernel k(x: [float]N) = mapGlobal(neg) <<: x\n");
  for (const std::string& args :
       {"run --size 1024 --batch 1048576 --repeat 1 --warmup 0 --device " + cpu,
        "exec " + big + " -D N=1073741824 --device " + cpu}) {
    SCOPED_TRACE(args);
    auto r = fftc(args, "ulimit -v 4000000;");
    EXPECT_EQ(r.status, 5) << r.out;
    EXPECT_NE(r.out.find("fftc: out of memory"), std::string::npos) << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
}

// ---- tune: files checked before the search ----

// A wisdom or log path that cannot be written, and a corrupt wisdom file, fail before the device
// is opened; --dry-run (which searches nothing) shows it without a search to wait for.
TEST(CliReliability, TuneChecksItsFilesBeforeSearching) {
  const auto dir = freshDir("tune_files");
  const auto plain = writeTemp("tune_files/plain", "a file, not a folder\n");
  const auto corrupt = writeTemp("tune_files/corrupt.json", "{\"fftc_wisdom\": 1, \"entr");
  const std::string ok = (dir / "w.json").string();
  for (const auto& [args, says] : std::vector<std::pair<std::string, std::string>>{
           {"--no-log --wisdom " + plain + "/w.json", "--wisdom"},
           {"--log " + plain + "/x --wisdom " + ok, "--log"},
           {"--no-log --wisdom " + corrupt, "corrupt.json"},
           {"--no-log --wisdom " + dir.string(), "is a directory"}}) {
    SCOPED_TRACE(args);
    auto r = fftc("tune --size 64 --dry-run " + args);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
}

// A wisdom entry whose values are out of range (fftsPerGroup -3) is refused, in run and in
// tune, instead of reaching the planner as "work-group 0 x -3".
TEST(CliReliability, WisdomValuesAreRangeChecked) {
  const auto dir = freshDir("wisdom_range");
  const std::string wisdom = (dir / "w.json").string();
  auto tune =
      fftc("tune --size 64 --evaluations 1 --no-log --repeat 1 --warmup 0 --wisdom " + wisdom);
  ASSERT_EQ(tune.status, 0) << tune.out;
  auto good = fftc("run --size 64 --repeat 1 --warmup 0 --json --wisdom " + wisdom);
  ASSERT_EQ(good.status, 0) << good.out;
  ASSERT_NE(good.out.find("\"wisdom\":true"), std::string::npos) << good.out;

  auto w = boost::json::parse(readFile(wisdom));
  w.at("entries").as_array().at(0).at("config").as_object()["fftsPerGroup"] = -3;
  std::ofstream(wisdom) << boost::json::serialize(w);
  for (const std::string& cmd :
       std::vector<std::string>{"run --size 64 --repeat 1 --warmup 0 --wisdom ",
                                "fft --size 64 -o " + dir.string() + " --wisdom ",
                                "tune --size 64 --dry-run --no-log --wisdom "}) {
    SCOPED_TRACE(cmd);
    auto r = fftc(cmd + wisdom);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("\"fftsPerGroup\": -3"), std::string::npos) << r.out;
    EXPECT_EQ(lineCount(r.out), 1) << r.out;
  }
}

// ---- validation of options ----

TEST(CliReliability, BadOptionValuesAreUserErrors) {
  const auto dir = freshDir("bad_options");
  for (const std::string& args :
       {std::string("run --size 64 --repeat 1 --warmup 0 --rewrite 'topDown('"),
        "fft --size 64 --rewrite 'topDown(' -o " + dir.string(),
        std::string("run --size 64 --check --check-elements -1"),
        std::string("run --size 64 --check --check-elements 0"),
        "compile " + kExamples + "dot_lowlevel.fdl -D N=64 -o " +
            writeTemp("bad_options_file", "x")}) {
    SCOPED_TRACE(args);
    auto r = fftc(args);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_NE(r.out.find("error"), std::string::npos) << r.out;
  }
  EXPECT_TRUE(fs::is_empty(dir));
}

// exec --json on a result with NaN elements (sqrt of negative inputs): valid JSON, max_error
// null with max_error_nan, and the check fails (exit 3).
TEST(CliReliability, JsonReportsHoldNoNanOrInfinity) {
  const auto path = writeTemp("nan.fdl", "kernel k(x: [float]N) = mapGlobal(sqrt) <<: x\n");
  auto r = fftc("exec " + path + " -D N=64 --check --json");
  EXPECT_EQ(r.status, 3) << r.out;
  EXPECT_EQ(r.out.find("Infinity"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("NaN"), std::string::npos) << r.out;
  const auto j = reportLine(r.out);
  EXPECT_TRUE(j.at("max_error").is_null()) << r.out;
  EXPECT_TRUE(j.at("max_error_nan").as_bool()) << r.out;
  EXPECT_FALSE(j.at("ok").as_bool()) << r.out;
}

// Without the clang plugin the user function bodies go unchecked: one warning says so, unless
// FFTC_CLANG_PLUGIN=off asked for that.
TEST(CliReliability, MissingClangPluginIsSaidOnce) {
  const auto path = writeTemp("uf_ok.fdl",
                              "userfun twice(a: float): float = \"return a * 2.0f;\"\n"
                              "userfun thrice(a: float): float = \"return a * 3.0f;\"\n"
                              "kernel k(x: [float]8) = mapGlobal(twice o thrice) <<: x\n");
  const std::string out = " -o " + freshDir("uf_ok").string();
  auto missing = fftc("compile " + path + out, "FFTC_CLANG_PLUGIN=/nonexistent/plugin.so");
  EXPECT_EQ(missing.status, 0) << missing.out;
  const std::string warning = "fftc: warning: user function bodies are not checked";
  const auto at = missing.out.find(warning);
  EXPECT_NE(at, std::string::npos) << missing.out;
  EXPECT_EQ(missing.out.find(warning, at + 1), std::string::npos) << missing.out;
  EXPECT_EQ(lineCount(missing.out), 1) << missing.out;
  auto off = fftc("compile " + path + out, "FFTC_CLANG_PLUGIN=off");
  EXPECT_EQ(off.status, 0) << off.out;
  EXPECT_EQ(off.out, "") << off.out;
}

// ---- all-or-nothing output ----

// compile and fft write nothing unless they write everything: a write failing midway
// (FFTC_TEST_FAIL_WRITE, emit.cpp), a kill midway (FFTC_TEST_KILL_WRITE) and a directory in
// the way of a later kernel's file each leave the previous set as it was.
TEST(CliReliability, CompileWritesAllOrNothing) {
  const auto dir = freshDir("all_or_nothing");
  const std::string compile = "compile " + kExamples + "dot_lowlevel.fdl -o " + dir.string();
  ASSERT_EQ(fftc(compile + " -D N=64").status, 0);
  const auto before = snapshot(dir);
  ASSERT_EQ(before.size(), 3u);

  auto failed = fftc(compile + " -D N=128", "FFTC_TEST_FAIL_WRITE=2");
  EXPECT_EQ(failed.status, 1) << failed.out;
  EXPECT_EQ(lineCount(failed.out), 1) << failed.out;
  EXPECT_EQ(snapshot(dir), before);  // no temporary left either

  auto killed = fftc(compile + " -D N=128", "FFTC_TEST_KILL_WRITE=1");
  EXPECT_EQ(killed.status, 128 + 9) << killed.out;
  auto after = snapshot(dir);
  for (const auto& [name, bytes] : before) EXPECT_EQ(after[name], bytes) << name;

  // and the set does change when nothing fails
  ASSERT_EQ(fftc(compile + " -D N=128").status, 0);
  EXPECT_NE(readFile(dir / "dotLow.cl"), before.at("dotLow.cl"));
}

TEST(CliReliability, ALaterKernelsFailureLeavesTheEarlierOnesUnwritten) {
  const auto path = writeTemp("two.fdl",
                              "kernel a(x: [float]N) = mapGlobal(neg) <<: x\n"
                              "kernel b(x: [float]N) = mapGlobal(id) <<: x\n");
  const auto dir = freshDir("two_kernels");
  const std::string compile = "compile " + path + " -o " + dir.string();
  ASSERT_EQ(fftc(compile + " -D N=64").status, 0);
  fs::remove(dir / "b.hpp");
  fs::create_directory(dir / "b.hpp");  // in the way of kernel b's header
  const auto before = snapshot(dir);
  auto r = fftc(compile + " -D N=128");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_NE(r.out.find("b.hpp"), std::string::npos) << r.out;
  EXPECT_EQ(snapshot(dir), before);  // a.cl, a.json, a.hpp, b.cl, b.json: still N=64
}

TEST(CliReliability, FftWritesAllOrNothing) {
  const auto dir = freshDir("fft_all_or_nothing");
  const std::string fft = "fft --size 64 -o " + dir.string();
  ASSERT_EQ(fftc(fft).status, 0);
  const auto before = snapshot(dir);
  for (const char* fault : {"FFTC_TEST_FAIL_WRITE=3", "FFTC_TEST_FAIL_WRITE=1"}) {
    auto r = fftc(fft + " --batch 3", fault);
    EXPECT_EQ(r.status, 1) << r.out;
    EXPECT_EQ(snapshot(dir), before) << fault;
  }
  ASSERT_EQ(fftc(fft + " --batch 3").status, 0);
  EXPECT_NE(snapshot(dir), before);
}

}  // namespace
