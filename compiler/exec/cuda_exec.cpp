// Running compiled kernels on CUDA (cuda_exec.h).
#ifdef FFTC_HAVE_CUDA

#include "compiler/exec/cuda_exec.h"

#include <algorithm>
#include <limits>
#include <memory>
#include <mutex>
#include <utility>

#include <fmt/format.h>

#include "backends/cuda/timing.h"
#include "backends/cuda/work_sizes.h"

namespace fftc::compiler::exec {

namespace cu = backends::cuda;
using ir::Value;

namespace {

// The process-wide NVRTC compiler (with the on-disk kernel cache).
cu::NvrtcCompiler& nvrtc() {
  static cu::NvrtcCompiler compiler;
  return compiler;
}

cu::CompileRequest requestFor(const codegen::CompiledKernel& k, const std::string& arch) {
  if (k.target != "cuda")
    throw backends::UserError(fmt::format(
        "{}: compiled for {}, not cuda (build it with pipeline::Target::Cuda)", k.name, k.target));
  cu::CompileRequest request;
  request.source = k.source;
  request.programName = k.name + ".cu";
  request.arch = arch;
  request.options = cu::nvrtcOptionsFromEnvironment();
  request.fastOptions = cu::fastCompileOptions();
  return request;
}

// Modules loaded in this process, by context and source.
cu::Module cachedModule(const cu::Context& context, const codegen::CompiledKernel& k) {
  static std::mutex mu;
  static std::map<std::pair<const void*, std::string>, cu::Module> cache;
  std::lock_guard<std::mutex> lock(mu);
  auto key = std::make_pair(static_cast<const void*>(context.state().get()), k.source);
  auto it = cache.find(key);
  if (it == cache.end()) {
    cu::CompiledProgram program = nvrtc().compile(requestFor(k, context.arch()));
    it = cache.emplace(key, context.load(program)).first;
  }
  return it->second;
}

}  // namespace

cu::LaunchConfig cudaLaunchConfig(const PreparedStage& stage) {
  return cu::launchConfigFromWorkSizes(stage.global, stage.local, stage.info->kernel,
                                       static_cast<std::size_t>(stage.info->dynamicLocalBytes));
}

cu::CompiledProgram compileCuda(const codegen::CompiledKernel& k, const std::string& arch) {
  return nvrtc().compile(requestFor(k, arch));
}

cu::CompiledProgram compileCudaStage(const codegen::CompiledKernel& k, size_t stage,
                                     const std::string& arch) {
  cu::CompileRequest request = requestFor(k, arch);
  const codegen::StageInfo& s = k.stages.at(stage);
  if (s.source.empty())
    throw backends::UserError(
        fmt::format("{}: stage {} has no source of its own (a module of one kernel)", k.name,
                    s.kernel));
  request.source = s.source;
  request.programName = s.kernel + ".cu";
  return nvrtc().compile(request);
}

void checkDevice(const cu::DeviceInfo& device, const codegen::CompiledKernel& k) {
  for (const auto& s : k.stages) {
    const bool dynamic = s.dynamicLocalBytes > 0;
    const size_t limit = dynamic ? device.sharedMemoryPerBlockOptin : device.sharedMemoryPerBlock;
    const auto need = static_cast<size_t>(dynamic ? s.dynamicLocalBytes : s.localMemoryBytes);
    if (need > limit)
      throw backends::UserError(fmt::format(
          "stage {} needs {} bytes of shared memory; a block of {} has {} ({})", s.kernel, need,
          device.name, limit, dynamic ? "dynamic, opted in" : "static __shared__"));
    // a block larger than the device's is the kernel's limit, not a device failure
    int64_t threads = 1;
    bool known = true;
    for (const auto& l : s.local) {
      const auto v = l.constant();
      known = known && v.has_value();
      if (v) threads *= *v;
    }
    if (known && device.maxThreadsPerBlock > 0 && threads > device.maxThreadsPerBlock)
      throw backends::UserError(fmt::format("stage {}: a block of {} threads exceeds the {} of {}",
                                            s.kernel, threads, device.maxThreadsPerBlock,
                                            device.name));
  }
}

RunResult runCompiled(const cu::Context& context, const codegen::CompiledKernel& k,
                      const std::vector<Value>& inputs, const std::map<std::string, int64_t>& sizes,
                      const TimingOptions& timing) {
  checkDevice(context.device(), k);
  PreparedRun prepared = prepareRun(k, inputs, sizes);
  cu::Module module = cachedModule(context, k);

  std::map<std::string, cu::DeviceBuffer> buffers;
  for (const auto& b : prepared.buffers) {
    cu::DeviceBuffer buf = context.allocate(b.bytes);
    buf.fillZero();
    if (!b.initial.empty()) buf.copyFromHost(b.initial.data(), b.initial.size());
    buffers.emplace(b.info->name, std::move(buf));
  }

  std::vector<cu::Launch> launches;
  for (const auto& s : prepared.stages) {
    cu::Launch l;
    l.kernel = module.kernel(s.info->kernel);
    for (const auto& a : s.args) {
      if (!a.buffer.empty()) {
        l.args.add(buffers.at(a.buffer));
      } else {
        l.args.add(a.value);
      }
    }
    l.config = cudaLaunchConfig(s);
    launches.push_back(std::move(l));
  }

  // One event before the first stage and after each: per-stage and total device time.
  std::vector<cu::Event> events;
  events.reserve(launches.size() + 1);
  for (size_t i = 0; i <= launches.size(); ++i) events.emplace_back(context);
  auto once = [&] {
    events[0].record();
    for (size_t i = 0; i < launches.size(); ++i) {
      launches[i].kernel.launch(launches[i].config, launches[i].args);
      events[i + 1].record();
    }
    events.back().synchronize();
    context.synchronize();  // reports a kernel that failed
    StageTimes t;
    for (size_t i = 0; i < launches.size(); ++i)
      t.stageMs.push_back(events[i + 1].elapsedSince(events[i]));
    t.totalMs = events.back().elapsedSince(events.front());
    return t;
  };
  RunResult rr;
  const StageTimes cold = once();
  const cu::DeviceBuffer& out = buffers.at(prepared.output->name);
  std::vector<uint8_t> bytes(out.size());
  out.copyToHost(bytes.data(), bytes.size());
  rr.output = unpackOutput(prepared, bytes);
  timeRuns(rr, cold, timing, once);
  return rr;
}

CheckResult checkAgainstInterpreter(const cu::Context& context, const ir::LambdaPtr& kernel,
                                    const codegen::CompiledKernel& compiled,
                                    const std::map<std::string, int64_t>& sizes, uint64_t seed,
                                    const ir::InterpreterOptions& interp) {
  return checkWithRunner(
      [&](const std::vector<Value>& inputs) {
        return runCompiled(context, compiled, inputs, sizes);
      },
      kernel, compiled, sizes, seed, interp);
}

}  // namespace fftc::compiler::exec

#endif  // FFTC_HAVE_CUDA
