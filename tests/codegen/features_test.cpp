// Barriers, stages, private memory, folding, tables and error paths, checked on the generated
// source (the lines that matter) and, where the program runs, against the interpreter.
#include <regex>

#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

std::string kernelText(const cg::CompiledKernel& ck, const std::string& kernel) {
  size_t b = ck.source.find("__kernel void " + kernel + "(");
  if (b == std::string::npos) return {};
  size_t e = ck.source.find("\n}\n", b);
  return ck.source.substr(b, e - b);
}

const char* kTransposeLocal = "transpose_local.fdl";

TEST(Barriers, PresentWhereWorkItemsExchangeLocalData) {
  std::string text = readFile(sourceRoot() + "/examples/" + kTransposeLocal);
  auto ck = compileText(text, "transposeLocal", {{"H", 8}, {"W", 8}});
  std::string k = kernelText(ck, "transposeLocal_stage0");
  // one between the write to local memory and the transposed read, one at the end of the
  // tile: a work-group that goes on to another tile must not overwrite what others still read
  EXPECT_EQ(count(k, "barrier(CLK_LOCAL_MEM_FENCE)"), 2u) << k;
  EXPECT_GT(k.rfind("barrier("), k.find("= l[lid1_1 + 4 * lid_1]")) << k;
  EXPECT_LT(k.find("l[4 * lid1 + lid] ="), k.find("barrier(")) << k;
  EXPECT_LT(k.find("barrier("), k.find("= l[lid1_1 + 4 * lid_1]")) << k;
  EXPECT_EQ(ck.stages.at(0).localMemoryBytes, 64);
  EXPECT_EQ(ck.stages.at(0).local.size(), 2u);
}

TEST(Barriers, AbsentWhenEachWorkItemReadsItsOwnWrite) {
  std::string text = readFile(sourceRoot() + "/examples/" + kTransposeLocal);
  auto ck = compileText(text, "copyLocal", {{"H", 8}, {"W", 8}});
  std::string k = kernelText(ck, "copyLocal_stage0");
  EXPECT_NE(k.find("__local float"), std::string::npos) << k;
  EXPECT_EQ(count(k, "barrier("), 0u) << k;
}

TEST(Barriers, NoneWithoutLocalMemory) {
  auto ck = compileText(
      "kernel k(x: [float]64) = join <<: mapWorkgroup(λ(r => mapLocal(λ(a => a + 1.0f)) <<: r)) "
      "<<: split(16) <<: x",
      "k");
  EXPECT_EQ(count(ck.source, "barrier("), 0u) << ck.source;
}

// A partial last work-group: the rows padded to whole groups (the extra rows read the last row
// again) and cropped on the way out, so those rows are computed but never stored.
TEST(Crop, APartialLastWorkGroupStoresOnlyTheRowsThatExist) {
  auto c = checkText(
      "kernel rows(x: [[float]3]10) = crop(0, 2) <<: join <<: mapWorkgroup(0, mapLocal(0, "
      "mapSeq(fun v => v * 2.0f))) <<: split(4) <<: pad(0, 2, clamp) <<: x",
      "rows");
  EXPECT_MATCHES(c);
  const std::string k = kernelText(c.compiled, "rows_stage0");
  EXPECT_EQ(count(k, "if ("), 1u) << k;
  EXPECT_NE(k.find("if ((4 * wg + lid) < 10)"), std::string::npos) << k;
  EXPECT_NE(k.find("min(9, 4 * wg + lid)"), std::string::npos) << k;
  EXPECT_EQ(c.compiled.stages.at(0).global.at(0).str(), "12");  // 3 groups of 4
}

// A crop on both sides of a computed array guards both ends; one the ranges prove needs none.
TEST(Crop, GuardsOnlyWhatTheRangesDoNotProve) {
  auto c = checkText("kernel mid(x: [float]12) = crop(1, 3) <<: mapGlobal(fun v => v + 1.0f) <<: x",
                     "mid");
  EXPECT_MATCHES(c);
  const std::string k = kernelText(c.compiled, "mid_stage0");
  EXPECT_NE(k.find(">= 0"), std::string::npos) << k;
  EXPECT_NE(k.find("< 8"), std::string::npos) << k;
  auto whole = checkText("kernel k(x: [float]12) = crop(0, 0) <<: mapGlobal(fun v => v + 1.0f) <<: x",
                         "k");
  EXPECT_MATCHES(whole);
  EXPECT_EQ(count(kernelText(whole.compiled, "k_stage0"), "if ("), 0u);
  // read, a crop is an offset
  auto read = checkText("kernel r(x: [float]12) = mapGlobal(fun v => v * 3.0f) <<: crop(2, 1) <<: x",
                        "r");
  EXPECT_MATCHES(read);
  EXPECT_NE(kernelText(read.compiled, "r_stage0").find("x[gid + 2]"), std::string::npos);
}

TEST(Stages, GlobalSynchronizationSplitsTheKernel) {
  auto c = checkText(readFile(sourceRoot() + "/examples/dot_lowlevel.fdl"), "dotLow",
                     {}, {{"N", 512}});
  EXPECT_MATCHES(c);
  const auto& ck = c.compiled;
  ASSERT_EQ(ck.stages.size(), 2u);
  const cg::BufferInfo* t = ck.buffer("t0");
  ASSERT_NE(t, nullptr) << cg::manifestText(ck);
  EXPECT_EQ(t->role, "temp");
  // A size expression in the size variable N.
  ASSERT_EQ(ck.sizeVars.size(), 1u);
  EXPECT_EQ(t->count.evaluate({{ck.sizeVars[0].varId(), 512}}), 32) << t->count.str();
  EXPECT_EQ(ck.stages[0].args, (std::vector<std::string>{"x", "y", "t0", "N"}));
  EXPECT_EQ(ck.stages[1].args, (std::vector<std::string>{"out", "t0", "N"}));
  EXPECT_EQ(ck.stages[1].global.at(0).str(), "1");
  // Size variables not fixed by -D are int kernel arguments.
  EXPECT_NE(ck.source.find("int N)"), std::string::npos) << ck.source;
}

TEST(Stages, AResultThatIsOnlyAViewIsCopied) {
  auto c = checkText("kernel k(x: [[float]3]5) = transpose <<: x", "k");
  EXPECT_MATCHES(c);
  EXPECT_EQ(c.compiled.stages.size(), 1u);
}

TEST(Stages, TwoPassesWithAPermutationBetween) {
  auto c = checkText(
      "kernel k(x: [float]64) = mapGlobal(fun a => a * 2.0f) <<: join <<: transpose <<: split(8) "
      "<<: mapGlobal(fun a => a + 1.0f) <<: x",
      "k");
  EXPECT_MATCHES(c);
  EXPECT_EQ(c.compiled.stages.size(), 2u);
}

TEST(Memory, UnrolledPrivateArraysHaveConstantIndices) {
  auto c = checkText(
      "kernel k(x: [float]32) = join <<: mapGlobal(λ(row => toGlobal(mapSeqUnroll(id)) <<: "
      "toPrivate(mapSeqUnroll(fun a => a * 2.0f)) <<: row)) <<: split(4) <<: x",
      "k");
  EXPECT_MATCHES(c);
  const std::string& s = c.compiled.source;
  EXPECT_NE(s.find("float p[4];"), std::string::npos) << s;
  EXPECT_EQ(count(s, "p["), 9u) << s;  // the declaration, 4 writes, 4 reads
  EXPECT_TRUE(std::regex_search(s, std::regex(R"(p\[3\] = )"))) << s;
  EXPECT_FALSE(std::regex_search(s, std::regex(R"(p\[[^0-9\]])"))) << s;
  EXPECT_EQ(count(s, "for (int i"), 0u) << "unrolled: no sequential loop\n" << s;
}

TEST(Folding, TwiddlesByOneMinusOneIAndMinusIAreCopiesNegationsAndSwaps) {
  auto c = checkText(
      "kernel k(x: [[complex]4]8) = mapGlobal(λ(row => mapSeqUnroll(λ(p => p._0 * p._1)) <<: "
      "zip(row, array(4, λ((i, n) => cispi(-2.0 * i / n)))))) <<: x",
      "k");
  EXPECT_MATCHES(c);
  const std::string& s = c.compiled.source;
  EXPECT_EQ(count(s, "fftc_cmul_f("), 0u) << s;
  EXPECT_EQ(count(s, "fftc_cispi_f("), 0u) << s;
  EXPECT_NE(s.find("fftc_cneg_f(x["), std::string::npos) << s;
  EXPECT_NE(s.find("fftc_cmuli_f(x["), std::string::npos) << s;
  EXPECT_NE(s.find("fftc_cmulmi_f(x["), std::string::npos) << s;
}

TEST(Folding, AConstantTwiddleIsALiteral) {
  auto c = checkText(
      "kernel k(x: [[complex]8]4) = mapGlobal(λ(row => mapSeqUnroll(λ(p => p._0 * p._1)) <<: "
      "zip(row, array(8, λ((i, n) => cispi(-2.0 * i / n)))))) <<: x",
      "k");
  EXPECT_MATCHES(c);
  const std::string& s = c.compiled.source;
  EXPECT_EQ(count(s, "fftc_cispi_f("), 0u) << s;
  EXPECT_NE(s.find("(float2)(0.70710677f, -0.70710677f)"), std::string::npos) << s;
}

TEST(Tables, SmallGeneratorIsAConstantArray) {
  auto c = checkText(
      "kernel k(x: [complex]16) = mapGlobal(λ(p => p._0 * p._1)) <<: "
      "zip(x, array(16, λ((i, n) => cispi(-2.0 * i / n))))",
      "k");
  EXPECT_MATCHES(c);
  EXPECT_NE(c.compiled.source.find("__constant float2 tab[16] = {"), std::string::npos)
      << c.compiled.source;
  EXPECT_EQ(count(c.compiled.source, "fftc_cispi_f("), 0u);
}

TEST(Tables, LargeGeneratorIsATableBuffer) {
  auto c = checkText(
      "kernel k(x: [complex]4096) = mapGlobal(λ(p => p._0 * p._1)) <<: "
      "zip(x, array(4096, λ((i, n) => cispi(-2.0 * i / n))))",
      "k");
  EXPECT_MATCHES(c);
  const cg::BufferInfo* tw = nullptr;
  for (const auto& b : c.compiled.buffers)
    if (b.role == "table") tw = &b;
  ASSERT_NE(tw, nullptr) << cg::manifestText(c.compiled);
  EXPECT_EQ(tw->data.size(), 4096u * 8u);
  EXPECT_EQ(tw->dataFile, "k_" + tw->name + ".bin");
  EXPECT_NE(cg::manifestText(c.compiled).find("\"role\": \"table\""), std::string::npos);
}

TEST(Tables, SymbolicGeneratorIsComputedInline) {
  auto c = checkText(
      "kernel k(x: [complex]N) = mapGlobal(λ(p => p._0 * p._1)) <<: "
      "zip(x, array(N, λ((i, n) => cispi(-2.0 * i / n))))",
      "k", {}, {{"N", 100}});
  EXPECT_MATCHES(c);
  EXPECT_EQ(count(c.compiled.source, "fftc_cispi_f("), 2u) << c.compiled.source;  // def + use
}

TEST(Precision, DoubleKernelsEnableFp64) {
  auto ck = compileText("kernel k(x: [complex]8) = mapGlobal(fun a => a * a) <<: x", "k", {},
                        options(), ir::ScalarKind::Double);
  EXPECT_NE(ck.source.find("#pragma OPENCL EXTENSION cl_khr_fp64 : enable"), std::string::npos);
  EXPECT_NE(ck.source.find("double2"), std::string::npos);
  EXPECT_EQ(ck.precision, "f64");
  // A device without double support is refused before building.
  backends::opencl::DeviceInfo noDouble = context().device();
  noDouble.doubleSupport = false;
  EXPECT_THROW(ex::checkDevice(noDouble, ck), backends::UserError);
  if (context().device().doubleSupport) {
    auto c = checkText("kernel k(x: [complex]8) = mapGlobal(fun a => a * a + a) <<: x", "k", {},
                       {}, 1, options(), ir::ScalarKind::Double);
    EXPECT_MATCHES(c);
  }
}

// A work-group larger than the device allows is refused before the launch, as the kernel's
// limit (a UserError: explore records the variant as not runnable and goes on), not a device
// failure.
TEST(Errors, WorkGroupLargerThanTheDeviceIsAUserError) {
  auto ck = compileText(
      "kernel k(x: [[float]64]64) = mapWorkgroup(fun r => mapLocal(fun a => a * 2.0f) <<: r) <<: x",
      "k", {}, options());
  ASSERT_EQ(ck.stages.size(), 1u);
  ASSERT_EQ(ck.stages[0].local.size(), 1u);
  backends::opencl::DeviceInfo small = context().device();
  small.maxWorkGroupSize = 32;
  try {
    ex::checkDevice(small, ck);
    ADD_FAILURE() << "a work-group of 64 accepted by a device of 32";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("a work-group of 64 work-items exceeds the 32"),
              std::string::npos)
        << e.what();
  }
  small.maxWorkGroupSize = 64;
  small.maxWorkItemSizes = {64, 64, 64};
  EXPECT_NO_THROW(ex::checkDevice(small, ck));
  small.maxWorkItemSizes = {16, 64, 64};
  EXPECT_THROW(ex::checkDevice(small, ck), backends::UserError);
}

TEST(Errors, BuildFailureIsADeviceErrorWithTheLog) {
  cg::CodegenOptions o = options();
  o.checkUserFuns = false;  // let the broken body reach the device compiler
  auto ck = compileText(
      "userfun bad(a: float): float = \"return a +* 2.0f;\"\n"
      "kernel k(x: [float]8) = mapGlobal(bad) <<: x",
      "k", {}, o);
  try {
    (void)ex::runCompiled(context(), ck, {ir::Value::realArray(std::vector<double>(8, 1.0),
                                                               ir::ScalarKind::Float)});
    ADD_FAILURE() << "built a broken kernel";
  } catch (const backends::DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("build failed"), std::string::npos) << e.what();
    EXPECT_FALSE(e.log().empty());
  }
}

TEST(Errors, HighLevelMapIsNotLowLevel) {
  try {
    (void)compileText("kernel k(x: [float]8) = map(fun a => a + 1.0f) <<: x", "k");
    ADD_FAILURE() << "compiled a high-level map";
  } catch (const ir::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("not low-level"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("test.fdl:1:"), std::string::npos) << e.what();
  }
}

TEST(Manifest, HeaderAndViews) {
  auto ck = compileText(readFile(sourceRoot() + "/examples/dot_lowlevel.fdl"), "dotLow");
  // The standalone header: N is the Kernel's, the temporary t0 is allocated with its count, each
  // stage gets its buffers and N in the manifest's order (examples/embed compiles and runs it).
  std::string h = cg::emitHeader(ck);
  EXPECT_NE(h.find("kSource = R\"FFTC_SOURCE("), std::string::npos);
  EXPECT_NE(h.find("inline std::size_t t0Count([[maybe_unused]] int N) {"), std::string::npos) << h;
  EXPECT_NE(h.find("Kernel(cl_context clContext, cl_command_queue clQueue, int N)"),
            std::string::npos) << h;
  EXPECT_NE(h.find("t0_ = fftc_rt::createBuffer(clContext, t0Count(N) * kt0ElementBytes, nullptr"),
            std::string::npos) << h;
  EXPECT_NE(h.find("kernels_[1] = fftc_rt::createKernel(program_.get(), \"dotLow_stage1\", kName);"),
            std::string::npos) << h;
  EXPECT_NE(h.find("void run(cl_mem x, cl_mem y, cl_mem out) {"), std::string::npos) << h;
  EXPECT_NE(h.find("fftc_rt::setArg(fftc_k, 3, cl_int{N}, kName);"), std::string::npos) << h;
  EXPECT_NE(h.find("void runHost(const void* x, const void* y, void* out) {"), std::string::npos);
  EXPECT_EQ(h.find("fftc::"), std::string::npos);  // nothing of fftc's libraries
  auto run = checkText(readFile(sourceRoot() + "/examples/dot_lowlevel.fdl"), "dotLow", {},
                       {{"N", 64}});
  boost::json::object rep = ex::reportJson(run, {{"N", 64}}, true);
  EXPECT_EQ(rep.at("stages").as_array().size(), 2u);
  EXPECT_TRUE(rep.at("ok").as_bool());
  std::string v = cg::viewsText(ck);
  EXPECT_NE(v.find("read x[16 * gid + j]"), std::string::npos) << v;
  EXPECT_NE(v.find("write t0[gid]"), std::string::npos) << v;
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

TEST(Stages, AScalarComputedInOneStageIsReadByTheNext) {
  auto c = checkText(
      "kernel k(x: [float]16) = (fun s => mapGlobal(fun a => a * s) <<: x) "
      "<<: reduceSeq(add, 0.0f) <<: mapGlobal(fun a => a + 1.0f) <<: x",
      "k");
  EXPECT_MATCHES(c);
  EXPECT_EQ(c.compiled.stages.size(), 3u) << c.compiled.source;
}

TEST(Stages, IterateUnrollsStages) {
  auto c = checkText(
      "kernel k(x: [float]32) = iterate(3, λ(v => join <<: transpose <<: split(4) "
      "<<: mapGlobal(fun a => a * 0.5f + 1.0f) <<: v)) <<: x",
      "k");
  EXPECT_MATCHES(c);
  // Three passes; the last one writes through the output view (no copy stage).
  EXPECT_EQ(c.compiled.stages.size(), 3u) << c.compiled.source;
}

TEST(Views, PadWithEveryBoundaryMatches) {
  for (const char* b : {"wrap", "clamp", "mirror", "1.5f"}) {
    SCOPED_TRACE(b);
    auto c = checkText(std::string("kernel k(x: [float]5) = mapGlobal(fun a => a * 2.0f) <<: "
                                   "pad(7, 9, ") + b + ") <<: x",
                       "k");
    EXPECT_MATCHES(c);
  }
}

TEST(Views, MapOfLayoutOnlyFunctionProducesNoCode) {
  auto ck = compileText(
      "kernel k(x: [float]64) = mapGlobal(fun a => a + 1.0f) <<: join <<: "
      "map(join o transpose o split(2)) <<: split(8) <<: x",
      "k");
  std::string k = ck.source.substr(ck.source.find("__kernel"));
  EXPECT_EQ(count(k, "for ("), 1u) << k;  // the mapGlobal loop only
}

}  // namespace
}  // namespace fftc::codegen_test

#include "backends/common/cuda_dialect.h"

namespace fftc::codegen_test {
namespace {

TEST(Cuda, TheSameKernelInTheCudaDialect) {
  cg::CodegenOptions o = options();
  o.dialect = std::make_shared<backends::CudaDialect>();
  auto ck = compileText(readFile(sourceRoot() + "/examples/transpose_local.fdl"),
                        "transposeLocal", {{"H", 8}, {"W", 8}}, o);
  const std::string& s = ck.source;
  EXPECT_EQ(ck.target, "cuda");
  // 4 x 4 work-items a group (the manifest's local size): the launch bound NVRTC allocates
  // registers for
  EXPECT_EQ(ck.stages.at(0).local.at(0).str() + "x" + ck.stages.at(0).local.at(1).str(), "4x4");
  EXPECT_NE(s.find("extern \"C\" __global__ void __launch_bounds__(16) transposeLocal_stage0("
                   "const float* __restrict__ m, float* __restrict__ out)"),
            std::string::npos)
      << s;
  EXPECT_NE(s.find("__shared__ float l[16];"), std::string::npos) << s;
  EXPECT_NE(s.find("__syncthreads();"), std::string::npos) << s;
  EXPECT_NE(s.find("for (int wg1 = (int)blockIdx.y; wg1 < 2; wg1 += (int)gridDim.y)"),
            std::string::npos)
      << s;
  auto fft = compileText(readFile(sourceRoot() + "/examples/stockham_pass_lowlevel.fdl"),
                         "stockPass", {}, o);
  EXPECT_NE(fft.source.find("return make_float2(a.x * b.x - a.y * b.y"), std::string::npos)
      << fft.source;
  EXPECT_EQ(fft.source.find("__kernel"), std::string::npos);
  // a mapGlobal stage leaves the block to the driver: no bound
  EXPECT_TRUE(fft.stages.at(0).local.empty());
  EXPECT_EQ(fft.source.find("__launch_bounds__"), std::string::npos) << fft.source;
  // OpenCL has none
  auto opencl = compileText(readFile(sourceRoot() + "/examples/transpose_local.fdl"),
                            "transposeLocal", {{"H", 8}, {"W", 8}});
  EXPECT_EQ(opencl.source.find("__launch_bounds__"), std::string::npos);
  EXPECT_EQ(opencl.source.find("reqd_work_group_size"), std::string::npos);
}

// CodegenOptions::minBlocksPerMultiprocessor: the bound's second argument, where the block is
// known; none on a mapGlobal stage.
TEST(Cuda, MinimumBlocksPerMultiprocessorInTheLaunchBound) {
  cg::CodegenOptions o = options();
  o.dialect = std::make_shared<backends::CudaDialect>();
  o.minBlocksPerMultiprocessor = 5;
  auto ck = compileText(readFile(sourceRoot() + "/examples/transpose_local.fdl"),
                        "transposeLocal", {{"H", 8}, {"W", 8}}, o);
  EXPECT_NE(ck.source.find("__launch_bounds__(16, 5) transposeLocal_stage0("), std::string::npos)
      << ck.source;
  auto fft = compileText(readFile(sourceRoot() + "/examples/stockham_pass_lowlevel.fdl"),
                         "stockPass", {}, o);
  EXPECT_EQ(fft.source.find("__launch_bounds__"), std::string::npos) << fft.source;
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

// Listing 5's shape: a work-group copies a row into local memory, runs passes there, copies it
// back. Only the pass that reads in another arrangement needs a barrier before it.
TEST(Barriers, LocalPassesOfAWorkGroup) {
  auto c = checkText(
      "kernel k(x: [float]128) = join <<: mapWorkgroup(λ(row => toGlobal(mapLocal(id)) "
      "<<: toLocal(mapLocal(fun a => a * 2.0f)) <<: join <<: transpose <<: split(4) "
      "<<: toLocal(mapLocal(fun a => a + 1.0f)) <<: toLocal(mapLocal(id)) <<: row)) "
      "<<: split(32) <<: x",
      "k");
  EXPECT_MATCHES(c);
  std::string k = c.compiled.source.substr(c.compiled.source.find("__kernel"));
  EXPECT_EQ(count(k, "barrier("), 2u) << k;  // and one at the end of the row
  EXPECT_LT(k.find("barrier("), k.find("* 2.0f")) << k;
  EXPECT_GT(k.find("barrier("), k.find("+ 1.0f")) << k;
  EXPECT_EQ(c.compiled.stages.at(0).local.at(0).str(), "32");
  EXPECT_EQ(c.compiled.stages.at(0).global.at(0).str(), "128");
}

// A caller's work-group shape (an FFT plan's): the same kernel with 8 work-items per row, each
// taking 4 elements of every pass, still computes the interpreter's result, and the kernel
// carries the shape it is launched with.
TEST(Barriers, ACallersWorkGroupShapeIsTheKernels) {
  const std::string text =
      "kernel k(x: [float]128) = join <<: mapWorkgroup(λ(row => toGlobal(mapLocal(id)) "
      "<<: toLocal(mapLocal(fun a => a * 2.0f)) <<: join <<: transpose <<: split(4) "
      "<<: toLocal(mapLocal(fun a => a + 1.0f)) <<: toLocal(mapLocal(id)) <<: row)) "
      "<<: split(32) <<: x";
  cg::CodegenOptions o = options();
  o.stageLocal = {{8}};
  auto c = checkText(text, "k", {}, {}, 1, o);
  EXPECT_MATCHES(c);
  EXPECT_EQ(c.compiled.stages.at(0).local.at(0).str(), "8");
  EXPECT_EQ(c.compiled.stages.at(0).global.at(0).str(), "32");  // still 4 work-groups
  o.stageLocal = {{8}, {8}};  // chosen for a kernel of two stages: this one keeps its own
  EXPECT_EQ(compileText(text, "k", {}, o).stages.at(0).local.at(0).str(), "32");
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

// With LLVM, sources are laid out by clang-format; they must still build and compute the same.
TEST(Formatting, FormattedSourceStillRuns) {
  cg::CodegenOptions o = options();
  o.format = true;
  auto c = checkText(readFile(sourceRoot() + "/examples/stockham_pass_lowlevel.fdl"), "stockPass",
                     {}, {}, 5, o);
  EXPECT_MATCHES(c);
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

TEST(Stages, AFixedWorkGroupSizeRoundsTheGlobalSizeUp) {
  cg::CodegenOptions o = options();
  o.defaultLocalSize = 16;
  auto c = checkText("kernel k(x: [float]N) = mapGlobal(fun a => a * 2.0f) <<: x", "k", {},
                     {{"N", 37}}, 1, o);
  EXPECT_MATCHES(c);
  ASSERT_EQ(c.compiled.stages.at(0).local.size(), 1u);
  EXPECT_EQ(c.compiled.stages[0].global[0].evaluate({{c.compiled.sizeVars[0].varId(), 37}}), 48);
}

}  // namespace
}  // namespace fftc::codegen_test

#include "compiler/clang/clang_helpers.h"

namespace fftc::codegen_test {
namespace {

TEST(Errors, AWrongUserFunBodyIsReportedAtTheUserFun) {
#ifdef FFTC_HAVE_CLANG  // built with LLVM: its plugin must be loaded, or the check is off
  ASSERT_TRUE(compiler::clang_helpers::clangHelpersAvailable())
      << compiler::clang_helpers::clangHelpersStatus();
#else
  GTEST_SKIP() << "built with FFTC_WITH_CLANG=OFF: userfun bodies are checked by the device "
                  "compiler";
#endif
  try {
    (void)compileText(
        "kernel k(x: [float]8) = mapGlobal(bad) <<: x\n"
        "userfun bad(a: float): float = \"return a +* undefinedName;\"\n",
        "k");
    ADD_FAILURE() << "compiled a broken userfun body";
  } catch (const ir::CompileError& e) {
    EXPECT_EQ(e.loc().line, 2) << e.what();
    EXPECT_NE(std::string(e.what()).find("userfun bad"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

TEST(Compare, RelativeWithAnAbsoluteFloor) {
  auto v = [](std::vector<double> d) { return ir::Value::realArray(d, ir::ScalarKind::Double); };
  EXPECT_TRUE(ex::compareValues(v({1.0, 2.0}), v({1.0, 2.00001}), 1e-4).ok);
  EXPECT_FALSE(ex::compareValues(v({1.0, 2.0}), v({1.0, 2.001}), 1e-4).ok);
  EXPECT_TRUE(ex::compareValues(v({6.55e-7}), v({6.51e-7}), 1e-4).ok);   // cancellation noise
  EXPECT_FALSE(ex::compareValues(v({1e-3}), v({2e-3}), 1e-4).ok);
  EXPECT_FALSE(ex::compareValues(v({1.0}), v({1.0, 2.0}), 1e-4).ok);
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

// A tile's rows on local dimension 0 exchange data inside their row loop (listing 5's column
// FFTs), then the tile is copied out with the elements on dimension 0. Every work-item must
// reach the row loop's barrier, so local[0] is the rows' extent (4), not the copy's (16).
TEST(Barriers, ARowLoopWithABarrierFixesItsLocalSize) {
  auto c = checkText(
      "kernel k(x: [[float]16]8) = join <<: mapWorkgroup(λ(tile =>\n"
      "  mapLocal(1, mapLocal(0, fun a => a * 2.0f))\n"
      "  <<: toLocal(mapLocal(0, λ(row => mapLocal(1, id) <<: join <<: transpose <<: split(4)\n"
      "                          <<: toLocal(mapLocal(1, fun a => a + 1.0f)) <<: row)))\n"
      "  <<: tile)) <<: split(4) <<: x",
      "k");
  EXPECT_MATCHES(c);
  const auto& st = c.compiled.stages.at(0);
  ASSERT_EQ(st.local.size(), 2u);
  EXPECT_EQ(st.local.at(0).str(), "4");
  EXPECT_EQ(st.global.at(0).str(), "8");  // 2 groups of 4
  std::string k = c.compiled.source.substr(c.compiled.source.find("__kernel"));
  EXPECT_GE(count(k, "barrier("), 2u) << k;
}

TEST(Barriers, RowLoopsOfDifferentExtentsAroundBarriersAreAnError) {
  const std::string rows = "toLocal(mapLocal(0, λ(row => mapLocal(1, id) <<: join <<: transpose "
                           "<<: split(4) <<: toLocal(mapLocal(1, fun a => a + 1.0f)) <<: row)))";
  try {
    (void)compileText("kernel k(x: [[float]64]2) = join <<: mapWorkgroup(λ(t => join <<: " +
                          rows + " <<: split(8) <<: join <<: " + rows +
                          " <<: split(16) <<: join <<: t)) <<: split(1) <<: x",
                      "k");
    ADD_FAILURE() << "compiled barriers inside row loops of 4 and 8 iterations";
  } catch (const ir::CompileError& e) {
    EXPECT_NE(std::string(e.what()).find("need one extent"), std::string::npos) << e.what();
  }
}

// Bluestein's chirp angle (j * j) mod 2N for N > 46340: j * j passes 2^31 and must be computed
// in 64 bits all the way to the modulo (an int temporary in between wrapped: N = 65537 was
// wrong on a GPU). The generator is too large for a table, so it is computed inline.
TEST(Indices, ProductsBeyond32BitsStayIn64Bits) {
  auto c = checkText(
      "kernel k(x: [[complex]70000]2) = mapGlobal(λ(p => p._0 * p._1)) <<: "
      "zip(join <<: x, join <<: pad(0, 1, wrap) <<: split(70000) <<: "
      "array(70000, λ((j, n) => cispi(-1.0 * ((j * j) % (2 * n)) / n))))",
      "k");
  EXPECT_MATCHES(c);
  EXPECT_EQ(count(c.compiled.source, "const int"), 0u) << c.compiled.source;
}

}  // namespace
}  // namespace fftc::codegen_test
