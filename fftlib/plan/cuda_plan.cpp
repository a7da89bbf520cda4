// The public FFT API on CUDA (cuda_plan.h): a compiled plan bound to a CUDA context.
#ifdef FFTC_HAVE_CUDA

#include "fftlib/plan/cuda_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "backends/common/device_error.h"
#include "backends/cuda/work_sizes.h"
#include "compiler/exec/cuda_exec.h"
#include "compiler/pipeline/phase_times.h"
#include "fftlib/plan/concurrent_build.h"
#include "fftlib/plan/plan_resources.h"

namespace fftc::fftlib {

namespace cu = backends::cuda;
using backends::UserError;

struct CudaPlan::Impl {
  Impl(const cu::Context& c, std::shared_ptr<const CompiledFft> p)
      : context(&c),
        layout(std::move(p)),
        buffers(
            layout,
            [&c](std::size_t bytes) {
              return std::make_unique<cu::DeviceBuffer>(c.allocate(bytes));
            },
            [](cu::DeviceBuffer& b, std::span<const std::uint8_t> data) {
              b.copyFromHost(data.data(), data.size());
            }) {}

  const cu::Context* context;
  PlanLayout layout;
  PlanBuffers<cu::DeviceBuffer> buffers;  // temps, tables, in-place scratch
  std::vector<cu::Module> modules;        // one, or one per stage
  std::vector<cu::Kernel> kernels;        // one per stage
  std::vector<cu::LaunchConfig> configs;  // one per stage
};

PlanLimits cudaPlanLimits(const cu::DeviceInfo& device) {
  return {.localMemoryBytes = static_cast<int64_t>(
              std::max(device.sharedMemoryPerBlockOptin, device.sharedMemoryPerBlock))};
}

std::vector<cu::CompiledProgram> compileStagePrograms(
    const compiler::codegen::CompiledKernel& kernel, const std::string& arch) {
  const auto& stages = kernel.stages;
  // One thread compiles the whole module faster than its stages one by one (NVRTC's start
  // and the shared helpers again for each: 4099's 11 stages 546 ms, its module 312 ms).
  const bool perStage = stages.size() > 1 && buildThreads(stages.size()) > 1 &&
                        std::all_of(stages.begin(), stages.end(),
                                    [](const auto& s) { return !s.source.empty(); });
  if (!perStage) return {compiler::exec::compileCuda(kernel, arch)};
  return buildConcurrently(stages.size(), [&](std::size_t i) {
    return compiler::exec::compileCudaStage(kernel, i, arch);
  });
}

namespace {

// The most local memory a thread of a one-array kernel may take (ptxas's spills and stack)
// before its plan is given up for two hierarchical levels. A one-array kernel keeps each
// pass's elements in registers; where ptxas cannot, the spills cost more than a second pass.
// On an H200 (2026-11-26, bench/results/2026-11-26-nvidia-h200-one_array_vs_levels.csv): f64 8448
// [22, 16, 24] under __launch_bounds__(528) got 56 registers and 2656 bytes of stack a thread,
// 3.40 ms against 0.594 for two levels; the one-array kernels that spill less are faster than
// two levels or within 6% (f64 8192 160 bytes 0.54 ms against 0.92, f64 10000 168 bytes 0.68
// against 1.01, f32 16384 480 bytes 0.93 against 0.88). Since the odd-radix butterflies
// (session 15), f64 8448 takes 96 registers and 672 bytes (ptxas, sm_90), not measured in one
// pass: the bound is the largest measured size that did not lose, rounded up (512), not 1024.
constexpr int kMostOneArrayLocalBytes = 512;

// Whether a 1D complex plan the heuristics chose freely (no variant, radices or levels asked
// for) is a one-array kernel of which some stage spills more than kMostOneArrayLocalBytes a
// thread.
bool oneArraySpills(const CompiledFft& plan, const std::vector<cu::Kernel>& kernels) {
  const FftRequest& r = plan.request;
  // (hierarchical plans keep one array too, session 15: they are what the fallback plans)
  if (!plan.choice.localReuseInPass || plan.choice.variant == Variant::Hierarchical ||
      r.variant != Variant::Auto || !r.radices.empty() ||
      r.levels != 0 || !r.levelSizes.empty() || r.dims.size() > 1 || r.real)
    return false;
  return std::any_of(kernels.begin(), kernels.end(), [](const cu::Kernel& k) {
    return k.attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) > kMostOneArrayLocalBytes;
  });
}

}  // namespace

CudaPlan CudaPlan::create(const cu::Context& context, const FftRequest& request) {
  if (request.target != compiler::pipeline::Target::Cuda)
    throw UserError(
        fmt::format("fftc::fftlib::CudaPlan runs CUDA plans; the request's target is "
                    "{} (set FftRequest::target = Target::Cuda)",
                    compiler::pipeline::targetName(request.target)));
  CudaPlan first = createAsPlanned(context, request);
  if (!oneArraySpills(first.info(), first.impl_->kernels)) return first;
  FftRequest levels = request;
  levels.variant = Variant::Hierarchical;
  try {
    return createAsPlanned(context, levels);
  } catch (const UserError&) {
    return first;  // no hierarchical plan for this size: the spilling kernel is what there is
  }
}

CudaPlan CudaPlan::createAsPlanned(const cu::Context& context, const FftRequest& request) {
  auto plan = planFft(request, cudaPlanLimits(context.device()));
  compiler::exec::checkDevice(context.device(), plan->compiled);  // shared memory per block
  auto impl = std::make_shared<Impl>(context, plan);
  {
    compiler::pipeline::PhaseTimer timer("device compile (NVRTC)");
    for (const auto& program : compileStagePrograms(plan->compiled, context.arch()))
      impl->modules.push_back(context.load(program));
  }
  for (std::size_t i = 0; i < plan->stages.size(); ++i) {
    const auto& s = plan->stages[i];
    impl->kernels.push_back(impl->modules[impl->modules.size() == 1 ? 0 : i].kernel(s.kernel));
    std::vector<std::size_t> g(s.global.begin(), s.global.end());
    std::vector<std::size_t> l(s.local.begin(), s.local.end());
    impl->configs.push_back(cu::launchConfigFromWorkSizes(
        g, l, s.kernel, static_cast<std::size_t>(s.dynamicLocalBytes)));
  }
  return CudaPlan(std::move(impl));
}

const CompiledFft& CudaPlan::info() const {
  return impl_->layout.info();
}
std::size_t CudaPlan::elements() const {
  return impl_->layout.elements();
}
std::size_t CudaPlan::bufferBytes() const {
  return impl_->layout.bytes();
}

std::vector<cu::Launch> CudaPlan::launches(const cu::DeviceBuffer& in,
                                           cu::DeviceBuffer& out) const {
  impl_->layout.checkBuffer(in.size(), "input");
  impl_->layout.checkBuffer(out.size(), "output");
  std::vector<cu::Launch> ls;
  for (std::size_t i = 0; i < impl_->kernels.size(); ++i) {
    cu::Launch l;
    l.kernel = impl_->kernels[i];
    l.config = impl_->configs[i];
    for (const cu::DeviceBuffer* b : impl_->buffers.stageArgs(i, in, out)) l.args.add(*b);
    ls.push_back(std::move(l));
  }
  return ls;
}

void CudaPlan::enqueue(const cu::DeviceBuffer& in, cu::DeviceBuffer& out) const {
  auto ls = launches(in, out);
  cu::enqueue(ls);
}

void CudaPlan::execute(const cu::DeviceBuffer& in, cu::DeviceBuffer& out) const {
  enqueue(in, out);
  impl_->context->synchronize();  // reports a kernel that failed
}

void CudaPlan::execute(cu::DeviceBuffer& inout) const {
  if (info().inPlaceSafe) {
    execute(inout, inout);
    return;
  }
  // The input copied aside first, so that the output's holes (advanced layouts) keep their
  // values.
  impl_->layout.checkBuffer(inout.size(), "input");
  cu::DeviceBuffer& scratch = impl_->buffers.scratch();
  scratch.copyFrom(inout, impl_->layout.inputBytes());
  execute(scratch, inout);
}

std::vector<double> CudaPlan::time(const cu::DeviceBuffer& in, cu::DeviceBuffer& out,
                                   std::size_t warmup, std::size_t repeats) const {
  auto ls = launches(in, out);
  auto ms = cu::timeRuns(*impl_->context, ls, static_cast<int>(warmup), static_cast<int>(repeats));
  impl_->context->synchronize();
  return ms;
}

void CudaPlan::checkHost(std::size_t realBytes, std::size_t count) const {
  impl_->layout.checkHost(realBytes, count);
}

std::size_t CudaPlan::inputBytes() const {
  return impl_->layout.inputBytes();
}
std::size_t CudaPlan::outputBytes() const {
  return impl_->layout.outputBytes();
}

void CudaPlan::runBytes(const void* in, void* out) const {
  cu::DeviceBuffer a = impl_->context->allocate(inputBytes());
  cu::DeviceBuffer b = impl_->context->allocate(outputBytes());
  a.copyFromHost(in, inputBytes());
  std::vector<std::uint8_t> zeros(outputBytes(), 0);  // the output's holes read back as zeros
  b.copyFromHost(zeros.data(), zeros.size());
  execute(a, b);
  b.copyToHost(out, outputBytes());
}

}  // namespace fftc::fftlib

#endif  // FFTC_HAVE_CUDA
