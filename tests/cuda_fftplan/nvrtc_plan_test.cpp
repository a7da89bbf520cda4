// CUDA FFT plans without a GPU: a spread of FFT requests planned for Target::Cuda, compiled by
// NVRTC for sm_90 into CUBINs holding every stage's kernel; a plan of several kernels compiled
// one program per stage, concurrently, into the PTX of the whole module's compile; the printer's __ldg on read-only
// buffers; the CUDA header of a plan; the binding of a plan's buffers to its stages
// (plan_resources.h), compared with the manifest.
#include <gtest/gtest.h>

#include <optional>

#include <boost/json.hpp>

#include <regex>
#include <set>
#include <string>
#include <stdexcept>

#include "backends/common/device_error.h"
#include "backends/cuda/nvrtc_api.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "compiler/codegen/codegen.h"
#include "compiler/exec/cuda_exec.h"
#include "fftlib/plan/cuda_plan.h"
#include "fftlib/plan/plan_resources.h"
#include "tests/cuda_fftplan/cuda_fftplan_support.h"
#include "tests/support/scoped_env.h"

namespace fftc::fftlib::cuda_test {
namespace {

namespace cu = backends::cuda;

class CudaFftPlans : public ::testing::TestWithParam<Case> {};

TEST_P(CudaFftPlans, CompileWithNvrtc) {
  const FftRequest& r = GetParam().request;
  auto plan = planFft(r);
  const auto& k = plan->compiled;
  ASSERT_EQ(k.target, "cuda");
  ASSERT_FALSE(plan->stages.empty());
  cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
  cu::CompileRequest request;
  request.source = k.source;
  request.programName = k.name + ".cu";
  request.arch = std::string(cu::kDefaultArch);
  try {
    cu::CompiledProgram out = nvrtc.compile(request);
    EXPECT_EQ(out.kind, cu::BinaryKind::Cubin);
    EXPECT_EQ(out.binary.substr(0, 4), std::string("\x7f"
                                                   "ELF"));
    for (const auto& s : plan->stages)
      EXPECT_NE(out.binary.find(s.kernel), std::string::npos) << s.kernel;
  } catch (const cu::CompileError& e) {
    ADD_FAILURE() << "NVRTC rejected the plan: " << e.what() << "\n" << e.log() << "\n" << k.source;
  }
}
// The PTX function of kernel `name` (".entry NAME(" to its closing brace), or "". Its branch
// labels are numbered by the function's place in the module ($L__BB1_4: block 4 of the second
// function); the number is dropped.
std::string ptxEntry(const std::string& ptx, const std::string& name) {
  const std::size_t begin = ptx.find(".entry " + name + "(");
  if (begin == std::string::npos) return {};
  const std::size_t end = ptx.find("\n}\n", begin);
  if (end == std::string::npos) return {};
  return std::regex_replace(ptx.substr(begin, end + 3 - begin), std::regex("\\$L__BB[0-9]+_"),
                            "$$L__BB_");
}

// compileStagePrograms (issue 21): each stage of a plan of several kernels is its own NVRTC
// program, compiled concurrently; program i holds stage i's kernel and no other, as the same
// PTX as the serial compile of the whole module (CompiledKernel::source) gives that kernel.
TEST(CudaStagePrograms, EachStageAloneCompilesToTheWholeModulesPtx) {
  const fftc::testing::ScopedEnv threads("FFTC_BUILD_THREADS", "2");  // concurrent anywhere
  for (const Case& c : {cudaCase(1 << 20, 1), cudaCase(65536, 2, Variant::Auto, Precision::F64)}) {
    SCOPED_TRACE(c.label);
    const auto plan = planFft(c.request);
    const auto& k = plan->compiled;
    ASSERT_GT(k.stages.size(), 1U);
    const std::string arch = "compute_90";  // PTX: the kernels' code as text
    cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
    cu::CompileRequest whole;
    whole.source = k.source;
    whole.programName = k.name + ".cu";
    whole.arch = arch;
    const std::string modulePtx = nvrtc.compile(whole).binary;
    const std::vector<cu::CompiledProgram> stages = compileStagePrograms(k, arch);
    ASSERT_EQ(stages.size(), k.stages.size());
    for (std::size_t i = 0; i < stages.size(); ++i) {
      EXPECT_EQ(stages[i].kind, cu::BinaryKind::Ptx);
      const std::string own = ptxEntry(stages[i].binary, k.stages[i].kernel);
      ASSERT_FALSE(own.empty()) << k.stages[i].kernel << " not in its program";
      EXPECT_EQ(own, ptxEntry(modulePtx, k.stages[i].kernel)) << k.stages[i].kernel;
      for (std::size_t j = 0; j < stages.size(); ++j) {
        if (j != i) {
          EXPECT_EQ(ptxEntry(stages[i].binary, k.stages[j].kernel), "") << i << j;
        }
      }
    }
  }
}

// widePrimeMinBlocks (issue 23, session 24): f32 783 = [29, 9, 3] asks 4 blocks a
// multiprocessor of ptxas, whose cap (three warps a sub-partition) is 168 registers; without
// the rule the kernel took 223 (two blocks) and ran 1.34x slower on an H200. ptxas's own report
// (-v) of the plan's kernel: at most 168 registers, no spill.
TEST(CudaFftPlanRegisters, WidePrime783KeepsThreeWarpsASubPartition) {
  const Case c = withLocalMemory(cudaCase(783, 3), kH100SharedBytes);
  const auto plan = planFft(c.request);
  const auto& k = plan->compiled;
  EXPECT_NE(k.source.find("__launch_bounds__(81, 4)"), std::string::npos);
  cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
  cu::CompileRequest request;
  request.source = k.source;
  request.programName = k.name + ".cu";
  request.arch = std::string(cu::kDefaultArch);
  request.options = {"--ptxas-options=-v"};
  const cu::CompiledProgram out = nvrtc.compile(request);
  std::smatch used, spill;
  ASSERT_TRUE(std::regex_search(out.log, used, std::regex("Used ([0-9]+) registers"))) << out.log;
  EXPECT_LE(std::stoi(used[1]), 168) << out.log;
  ASSERT_TRUE(std::regex_search(out.log, spill, std::regex("([0-9]+) bytes spill stores")))
      << out.log;
  EXPECT_EQ(std::stoi(spill[1]), 0) << out.log;
}

INSTANTIATE_TEST_SUITE_P(Spread, CudaFftPlans, ::testing::ValuesIn(planSpread()),
                         [](const auto& p) { return p.param.label; });

// Every read of the plan's input goes through __ldg (read-only data cache); no written buffer
// is read with it; the OpenCL source of the same plan has none.
TEST(CudaFftPlanSource, ReadOnlyBuffersThroughLdg) {
  FftRequest r = cudaCase(4096, 2).request;
  auto plan = planFft(r);
  const std::string& src = plan->compiled.source;
  EXPECT_NE(src.find("__ldg(&" + plan->inputBuffer + "["), std::string::npos) << src;
  EXPECT_FALSE(std::regex_search(src, std::regex("[^&]\\b" + plan->inputBuffer + "\\[")))
      << "a plain read of the input:\n"
      << src;
  EXPECT_EQ(src.find("__ldg(&" + plan->outputBuffer + "["), std::string::npos) << src;
  r.target = compiler::pipeline::Target::OpenCL;
  EXPECT_EQ(planFft(r)->compiled.source.find("__ldg"), std::string::npos);
}

// With tables in buffers (the twiddle variant's tables are buffers when they are large), the
// tables are read through __ldg too.
TEST(CudaFftPlanSource, TableBuffersThroughLdg) {
  auto plan = planFft(cudaCase(16384, 1, Variant::StockhamTwiddle).request);
  std::set<std::string> tables;
  for (const auto& b : plan->compiled.buffers)
    if (b.role == "table") tables.insert(b.name);
  // 16384 points need more table bytes than __constant__ memory takes: some are buffers.
  ASSERT_FALSE(tables.empty()) << "every table of this plan is in __constant__ memory";
  for (const auto& t : tables)
    EXPECT_NE(plan->compiled.source.find("__ldg(&" + t + "["), std::string::npos) << t;
}

// Local arrays beyond CUDA's 48 KiB of static __shared__ memory: the one-kernel FFT of 4096 f32
// with a 227 KiB budget carves its two arrays from `extern __shared__` memory at 16-byte
// aligned offsets; the stage, the manifest and the header's launch carry the bytes. Within
// 48 KiB (2048) the arrays stay static; OpenCL has no dynamic local memory.
TEST(CudaFftPlanSource, LocalArraysBeyondTheStaticLimitAreDynamic) {
  const auto plan = planFft(withLocalMemory(cudaCase(4096, 2), kH100SharedBytes).request);
  ASSERT_EQ(plan->choice.variant, Variant::Local);
  ASSERT_EQ(plan->compiled.stages.size(), 1u);
  const auto& stage = plan->compiled.stages[0];
  const int64_t bytes = compiler::codegen::CodegenOptions{}.paddedLocalCount(4096) * 8;  // 34808
  const int64_t array = (bytes + 15) / 16 * 16;  // 34816: the next array's offset
  EXPECT_EQ(stage.localMemoryBytes, 2 * bytes);
  EXPECT_EQ(stage.dynamicLocalBytes, 2 * array);
  EXPECT_EQ(plan->stages[0].dynamicLocalBytes, 2 * array);
  const std::string& src = plan->compiled.source;
  EXPECT_NE(src.find("extern __shared__ __align__(16) unsigned char fftc_shared[]"),
            std::string::npos) << src.substr(0, 2000);
  EXPECT_NE(src.find("reinterpret_cast<float2*>(fftc_shared + 0)"), std::string::npos);
  EXPECT_NE(src.find("reinterpret_cast<float2*>(fftc_shared + " + std::to_string(array) + ")"),
            std::string::npos);
  EXPECT_EQ(src.find("__shared__ float2"), std::string::npos);
  const std::string manifest =
      boost::json::serialize(compiler::codegen::manifest(plan->compiled));
  EXPECT_NE(manifest.find("\"dynamic_local_memory_bytes\":" + std::to_string(2 * array)),
            std::string::npos) << manifest;
  const compiler::codegen::HeaderPtx ptx{"compute_75", "// PTX"};
  const std::string h = compiler::codegen::emitHeader(plan->compiled, &ptx);
  EXPECT_NE(h.find("CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, " +
                   std::to_string(2 * array) + ")"),
            std::string::npos);
  EXPECT_NE(h.find("fftc_d.block[2], " + std::to_string(2 * array) + "u, state_->stream"),
            std::string::npos);

  const auto small = planFft(withLocalMemory(cudaCase(2048, 2), kH100SharedBytes).request);
  ASSERT_EQ(small->choice.variant, Variant::Local);
  EXPECT_EQ(small->compiled.stages.at(0).dynamicLocalBytes, 0);
  EXPECT_NE(small->compiled.source.find("__shared__ float2 l["), std::string::npos);
  EXPECT_EQ(small->compiled.source.find("extern __shared__"), std::string::npos);

  FftRequest cl = plan->request;
  cl.target = compiler::pipeline::Target::OpenCL;
  const auto opencl = planFft(cl);
  EXPECT_EQ(opencl->compiled.stages.at(0).dynamicLocalBytes, 0);
  EXPECT_EQ(opencl->compiled.stages.at(0).localMemoryBytes, 2 * bytes);
  EXPECT_NE(opencl->compiled.source.find("__local float2"), std::string::npos);
}

// 16384 f32 in an H100's 227 KiB: two arrays (278 KB) do not fit, so the plan is one kernel
// whose passes share one array carved from dynamic shared memory (139 KB, the launch's bytes):
// the middle passes (local to local) read their elements into registers, wait, then write.
// Four passes [16, 16, 16, 4] in 1024 work-items (the last looping over four butterflies):
// barriers before passes 2, 3 and 4, one inside passes 2 and 3 each, one closing the
// work-group loop.
TEST(CudaFftPlanSource, OneLocalArrayFor16384) {
  const auto plan = planFft(withLocalMemory(cudaCase(16384, 2), kH100SharedBytes).request);
  ASSERT_EQ(plan->choice.variant, Variant::Local);
  ASSERT_EQ(plan->compiled.stages.size(), 1u);
  const int64_t bytes = compiler::codegen::CodegenOptions{}.paddedLocalCount(16384) * 8;
  const auto& stage = plan->compiled.stages[0];
  EXPECT_EQ(stage.localMemoryBytes, bytes);
  EXPECT_EQ(stage.dynamicLocalBytes, (bytes + 15) / 16 * 16);
  const std::string& src = plan->compiled.source;
  EXPECT_NE(src.find("reinterpret_cast<float2*>(fftc_shared + 0)"), std::string::npos) << src;
  EXPECT_EQ(src.find("l_1"), std::string::npos) << "a second local array";
  size_t syncs = 0;
  for (size_t at = src.find("__syncthreads()"); at != std::string::npos;
       at = src.find("__syncthreads()", at + 1))
    ++syncs;
  EXPECT_EQ(syncs, 6u) << src;
  EXPECT_EQ(stage.local.at(0).constant().value_or(0), 1024);
}

// One array whose passes loop over the work-items (common.fdl's onWorkItems): 16807 = 7^5 f32
// under an H100's budget, 2401 butterflies a pass on 832 work-items, one kernel, one dynamic
// array (134456 bytes: 16807 is odd, unpadded), a barrier before and inside each of the three
// middle passes and one closing the work-group loop, compiled by NVRTC for sm_90.
TEST(CudaFftPlanSource, OneLocalArrayLoopedFor16807) {
  const auto plan = planFft(withLocalMemory(cudaCase(16807, 2), kH100SharedBytes).request);
  ASSERT_EQ(plan->choice.variant, Variant::Local);
  ASSERT_EQ(plan->compiled.stages.size(), 1u);
  const auto& stage = plan->compiled.stages[0];
  EXPECT_EQ(stage.localMemoryBytes, 16807 * 8);
  EXPECT_EQ(stage.local.at(0).constant().value_or(0), 832);
  const std::string& src = plan->compiled.source;
  EXPECT_EQ(src.find("l_1"), std::string::npos) << "a second local array";
  size_t syncs = 0;
  for (size_t at = src.find("__syncthreads()"); at != std::string::npos;
       at = src.find("__syncthreads()", at + 1))
    ++syncs;
  EXPECT_EQ(syncs, 8u) << src;
  cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
  cu::CompileRequest request;
  request.source = src;
  request.programName = plan->compiled.name + ".cu";
  request.arch = std::string(cu::kDefaultArch);
  try {
    const cu::CompiledProgram out = nvrtc.compile(request);
    EXPECT_NE(out.binary.find(plan->stages.at(0).kernel), std::string::npos);
  } catch (const cu::CompileError& e) {
    ADD_FAILURE() << "NVRTC rejected the plan: " << e.what() << "\n" << e.log();
  }
}

// A two-level plan whose tile of several columns exceeds 48 KiB (issue 22): f32 2^19 under an
// H100's budget, its first stage 8 columns of 1024 = [4, 16, 16] in one array (69680 bytes)
// carved from dynamic shared memory on 8 x 64 threads, its second stage 8 columns of 512 in a
// static array; the launch carries the bytes, and NVRTC compiles both kernels for sm_90. Under
// a device's budget (cudaPlanLimits) the plan is the same.
TEST(CudaFftPlanSource, WideTileOfSeveralColumnsIsDynamic) {
  const auto plan = planFft(withLocalMemory(cudaCase(int64_t{1} << 19, 2), kH100SharedBytes).request);
  ASSERT_EQ(plan->choice.kernel, "hierarchicalLocal");
  ASSERT_EQ(plan->compiled.stages.size(), 2u);
  const compiler::codegen::CodegenOptions o{.localRowSkew = true};
  const int64_t wide = o.skewedLocalCount(8 * 1024, 8) * 8;  // 69680
  const auto& s0 = plan->compiled.stages[0];
  EXPECT_EQ(s0.localMemoryBytes, wide);
  EXPECT_EQ(s0.dynamicLocalBytes, (wide + 15) / 16 * 16);
  EXPECT_EQ(plan->stages[0].dynamicLocalBytes, (wide + 15) / 16 * 16);
  EXPECT_EQ(s0.local.at(0).constant().value_or(0), 8);
  EXPECT_EQ(s0.local.at(1).constant().value_or(0), 64);
  const auto& s1 = plan->compiled.stages[1];
  EXPECT_EQ(s1.localMemoryBytes, o.skewedLocalCount(8 * 512, 8) * 8);
  EXPECT_EQ(s1.dynamicLocalBytes, 0);
  EXPECT_NE(s0.source.find("reinterpret_cast<float2*>(fftc_shared + 0)"), std::string::npos)
      << s0.source;
  EXPECT_EQ(s0.source.find("l_1"), std::string::npos) << "a second local array";
  EXPECT_NE(s1.source.find("  __shared__ float2 l"), std::string::npos) << s1.source;  // static
  EXPECT_EQ(s1.source.find("extern __shared__"), std::string::npos) << s1.source;
  const std::string manifest =
      boost::json::serialize(compiler::codegen::manifest(plan->compiled));
  EXPECT_NE(manifest.find("\"dynamic_local_memory_bytes\":" +
                          std::to_string((wide + 15) / 16 * 16)),
            std::string::npos) << manifest;
  cu::NvrtcCompiler nvrtc(cu::NvrtcApi::get(), std::nullopt);
  cu::CompileRequest request;
  request.source = plan->compiled.source;
  request.programName = plan->compiled.name + ".cu";
  request.arch = std::string(cu::kDefaultArch);
  try {
    const cu::CompiledProgram out = nvrtc.compile(request);
    for (const auto& s : plan->stages)
      EXPECT_NE(out.binary.find(s.kernel), std::string::npos) << s.kernel;
  } catch (const cu::CompileError& e) {
    ADD_FAILURE() << "NVRTC rejected the plan: " << e.what() << "\n" << e.log();
  }
  cu::DeviceInfo h100;
  h100.sharedMemoryPerBlock = 48 * 1024;
  h100.sharedMemoryPerBlockOptin = kH100SharedBytes;
  FftRequest r = cudaCase(int64_t{1} << 19, 2).request;
  EXPECT_EQ(choosePlan(r, cudaPlanLimits(h100)).detail, plan->choice.detail);
  EXPECT_EQ(choosePlan(r).kernel, "hierarchicalLocal3");  // 48 KiB: three levels
  EXPECT_NO_THROW(compiler::exec::checkDevice(h100, plan->compiled));
}

// CudaPlan's budget: the device's opt-in shared memory per block when the request leaves it,
// the request's otherwise.
TEST(CudaPlanRequest, TakesTheDevicesOptInSharedMemory) {
  cu::DeviceInfo h100;
  h100.sharedMemoryPerBlock = 48 * 1024;
  h100.sharedMemoryPerBlockOptin = kH100SharedBytes;
  FftRequest r = cudaCase(4096, 2).request;
  EXPECT_EQ(cudaPlanLimits(h100).localMemoryBytes, kH100SharedBytes);
  EXPECT_EQ(withLimits(r, cudaPlanLimits(h100)).localMemoryBytes, kH100SharedBytes);
  EXPECT_EQ(choosePlan(r, cudaPlanLimits(h100)).variant, Variant::Local);
  EXPECT_TRUE(choosePlan(r).localReuseInPass);                         // 48 KiB: one array
  EXPECT_FALSE(choosePlan(r, cudaPlanLimits(h100)).localReuseInPass);  // 227 KiB: two
  r.localMemoryBytes = 40000;
  EXPECT_EQ(withLimits(r, cudaPlanLimits(h100)).localMemoryBytes, 40000);
}

// The device check before loading: a dynamic stage against the opt-in limit, a static one
// against the static limit, each refused with the bytes named.
TEST(CudaPlanRequest, DeviceCheckTakesDynamicSharedMemoryAgainstTheOptIn) {
  cu::DeviceInfo d;
  d.name = "small";
  d.sharedMemoryPerBlock = 48 * 1024;
  d.sharedMemoryPerBlockOptin = 64 * 1024;  // below the 69632 bytes of 4096 f32
  const auto big = planFft(withLocalMemory(cudaCase(4096, 2), kH100SharedBytes).request);
  try {
    compiler::exec::checkDevice(d, big->compiled);
    ADD_FAILURE() << "69632 bytes of dynamic shared memory on a device with 65536";
  } catch (const backends::UserError& e) {
    EXPECT_NE(std::string(e.what()).find("69632 bytes"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("dynamic"), std::string::npos) << e.what();
  }
  d.sharedMemoryPerBlockOptin = kH100SharedBytes;
  EXPECT_NO_THROW(compiler::exec::checkDevice(d, big->compiled));
  d.sharedMemoryPerBlock = 16 * 1024;  // below 2048 f32's static 34800 bytes
  const auto small = planFft(cudaCase(2048, 2).request);
  EXPECT_THROW(compiler::exec::checkDevice(d, small->compiled), backends::UserError);
}

// NAME.hpp follows the target: the CUDA driver API with the PTX it is given, each stage's kernel
// and launch geometry; the OpenCL one the OpenCL API; neither anything of fftc's libraries.
TEST(CudaFftPlanHeader, UsesTheCudaDriverApiOnly) {
  auto plan = planFft(cudaCase(1000, 2).request);
  EXPECT_THROW((void)compiler::codegen::emitHeader(plan->compiled), std::invalid_argument);
  const compiler::codegen::HeaderPtx ptx{"compute_75", "// the PTX text"};
  const std::string h = compiler::codegen::emitHeader(plan->compiled, &ptx);
  EXPECT_NE(h.find("#include <cuda.h>"), std::string::npos);
  EXPECT_NE(h.find("kPtx[] = R\"FFTC_PTX(// the PTX text)FFTC_PTX\";"), std::string::npos);
  EXPECT_NE(h.find("fftc_rt::geometry(fftc_global, "), std::string::npos);
  EXPECT_EQ(h.find("opencl"), std::string::npos) << h.substr(0, 400);
  EXPECT_EQ(h.find("fftc::"), std::string::npos);
  for (const auto& s : plan->stages)
    EXPECT_NE(h.find("state_->module, \"" + s.kernel + "\")"), std::string::npos) << s.kernel;
  FftRequest cl = plan->request;
  cl.target = compiler::pipeline::Target::OpenCL;
  const std::string hc = compiler::codegen::emitHeader(planFft(cl)->compiled);
  EXPECT_NE(hc.find("#include <CL/cl.h>"), std::string::npos);
  EXPECT_EQ(hc.find("cuda"), std::string::npos);
}

// PlanLayout: each stage argument is bound to the buffer of that name and role in the
// manifest; temporaries and tables get their manifest sizes; bad buffers and host data are
// UserErrors.
TEST(PlanLayout, BindsStageArgumentsByRole) {
  for (const Case& c : {cudaCase(4096, 2), cudaCase(1024, 2, Variant::Hierarchical),
                        cudaCase(17, 2), cudaCase(64, 4, Variant::StockhamTwiddle)}) {
    SCOPED_TRACE(c.label);
    auto plan = planFft(c.request);
    PlanLayout layout(plan);
    EXPECT_EQ(layout.elements(), static_cast<std::size_t>(c.request.size * c.request.batch));
    EXPECT_EQ(layout.bytes(), layout.elements() * 8);
    for (std::size_t i = 0; i < plan->stages.size(); ++i) {
      const auto& args = layout.stageArgs(i);
      ASSERT_EQ(args.size(), plan->stages[i].args.size());
      for (std::size_t j = 0; j < args.size(); ++j) {
        const auto* b = plan->compiled.buffer(plan->stages[i].args[j]);
        ASSERT_NE(b, nullptr);
        switch (args[j].kind) {
          case PlanLayout::Arg::Kind::Input:
            EXPECT_EQ(b->role, "input");
            break;
          case PlanLayout::Arg::Kind::Output:
            EXPECT_EQ(b->role, "output");
            break;
          case PlanLayout::Arg::Kind::Owned: {
            const auto& o = layout.owned().at(args[j].index);
            EXPECT_EQ(o.name, b->name);
            EXPECT_TRUE(b->role == "temp" || b->role == "table") << b->role;
            EXPECT_EQ(o.table.size(), b->role == "table" ? b->data.size() : 0U);
            EXPECT_GE(o.bytes, 16U);
            break;
          }
        }
      }
    }
    EXPECT_THROW(layout.checkBuffer(layout.bytes() - 1, "input"), backends::UserError);
    EXPECT_NO_THROW(layout.checkBuffer(layout.bytes(), "input"));
    EXPECT_THROW(layout.checkHost(8, layout.elements()), backends::UserError);
    EXPECT_THROW(layout.checkHost(4, layout.elements() + 1), backends::UserError);
    EXPECT_NO_THROW(layout.checkHost(4, layout.elements()));
  }
}

}  // namespace
}  // namespace fftc::fftlib::cuda_test
