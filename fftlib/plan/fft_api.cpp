// The public FFT API (fft_api.h): a compiled plan bound to an OpenCL context.
#include "fftlib/plan/fft_api.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "backends/opencl/cl.h"
#include "compiler/exec/exec.h"
#include "compiler/pipeline/phase_times.h"
#include "fftlib/plan/concurrent_build.h"
#include "fftlib/plan/plan_resources.h"

namespace fftc::fftlib {

namespace cl = backends::opencl;
using backends::UserError;

struct Plan::Impl {
  Impl(const cl::Context& c, std::shared_ptr<const CompiledFft> p)
      : context(&c),
        layout(std::move(p)),
        buffers(
            layout,
            [&c](std::size_t bytes) { return std::make_unique<cl::Buffer>(c, bytes); },
            [&c](cl::Buffer& b, std::span<const std::uint8_t> data) {
              b.writeBytes(c, data.data(), data.size());
            }) {}

  const cl::Context* context;
  PlanLayout layout;
  PlanBuffers<cl::Buffer> buffers;                  // temps, tables, in-place scratch
  std::vector<cl::Program> programs;                 // one, or one per stage
  std::vector<std::unique_ptr<cl::Kernel>> kernels;  // one per stage

  std::vector<cl::Launch> launches(const cl::Buffer& in, cl::Buffer& out) {
    layout.checkBuffer(in.bytes(), "input");
    layout.checkBuffer(out.bytes(), "output");
    std::vector<cl::Launch> ls;
    const auto& stages = layout.info().stages;
    for (std::size_t i = 0; i < stages.size(); ++i) {
      cl::Launch l;
      l.kernel = kernels[i].get();
      for (const cl::Buffer* b : buffers.stageArgs(i, in, out)) l.args.emplace_back(b);
      std::vector<std::size_t> g(stages[i].global.begin(), stages[i].global.end());
      l.global = cl::NDRange::fromSizes(g);
      if (!stages[i].local.empty()) {
        std::vector<std::size_t> lo(stages[i].local.begin(), stages[i].local.end());
        l.local = cl::NDRange::fromSizes(lo);
      }
      ls.push_back(std::move(l));
    }
    return ls;
  }
};

std::vector<cl::Program> buildStagePrograms(const cl::Context& context,
                                            const compiler::codegen::CompiledKernel& kernel) {
  const auto& stages = kernel.stages;
  // One thread compiles the whole module faster than its stages one by one (each program
  // pays the compiler's start and the shared helpers again).
  const bool perStage = stages.size() > 1 && buildThreads(stages.size()) > 1 &&
                        std::all_of(stages.begin(), stages.end(),
                                    [](const auto& s) { return !s.source.empty(); });
  if (!perStage) {
    std::vector<cl::Program> one;
    one.push_back(context.build(kernel.source));
    return one;
  }
  return buildConcurrently(stages.size(),
                           [&](std::size_t i) { return context.build(stages[i].source); });
}

Plan Plan::create(const cl::Context& context, const FftRequest& request) {
  if (request.target != compiler::pipeline::Target::OpenCL)
    throw UserError("fftc::fftlib::Plan runs OpenCL plans; CUDA plans run through "
                    "fftc::fftlib::CudaPlan (fftlib/plan/cuda_plan.h)");
  auto plan = planFft(request);
  const auto& k = plan->compiled;
  compiler::exec::checkDevice(context.device(), k);  // UserError: f64 without doubles
  for (const auto& s : k.stages)
    if (static_cast<uint64_t>(s.localMemoryBytes) > context.device().localMemBytes)
      throw UserError(fmt::format("stage {} needs {} bytes of local memory; {} has {}", s.kernel,
                                  s.localMemoryBytes, context.device().name,
                                  context.device().localMemBytes));
  auto impl = std::make_shared<Impl>(context, std::move(plan));
  {
    compiler::pipeline::PhaseTimer timer("device compile (OpenCL)");
    impl->programs = buildStagePrograms(context, k);
  }
  const auto& stages = impl->layout.info().stages;
  for (std::size_t i = 0; i < stages.size(); ++i)
    impl->kernels.push_back(std::make_unique<cl::Kernel>(
        impl->programs[impl->programs.size() == 1 ? 0 : i], stages[i].kernel));
  return Plan(std::move(impl));
}

const CompiledFft& Plan::info() const { return impl_->layout.info(); }
std::size_t Plan::elements() const { return impl_->layout.elements(); }
std::size_t Plan::bufferBytes() const { return impl_->layout.bytes(); }
std::size_t Plan::inputBytes() const { return impl_->layout.inputBytes(); }
std::size_t Plan::outputBytes() const { return impl_->layout.outputBytes(); }

std::vector<cl::Event> Plan::enqueue(const cl::Buffer& in, cl::Buffer& out) const {
  auto ls = impl_->launches(in, out);
  return cl::enqueueSequence(*impl_->context, ls);
}

void Plan::execute(const cl::Buffer& in, cl::Buffer& out) const {
  auto events = enqueue(in, out);
  impl_->context->finish();
  for (const auto& e : events) e.wait();  // throws ClError if a launch failed
}

void Plan::execute(cl::Buffer& inout) const {
  if (info().inPlaceSafe) {
    execute(inout, inout);
    return;
  }
  // The input copied aside first, so that the output's holes (advanced layouts) keep their
  // values.
  cl::Buffer& scratch = impl_->buffers.scratch();
  impl_->layout.checkBuffer(inout.bytes(), "input");
  cl::check(clEnqueueCopyBuffer(impl_->context->queue(), inout.get(), scratch.get(), 0, 0,
                                inputBytes(), 0, nullptr, nullptr),
            "clEnqueueCopyBuffer", "in-place FFT: the input into the scratch buffer");
  execute(scratch, inout);
}

std::vector<double> Plan::time(const cl::Buffer& in, cl::Buffer& out, std::size_t warmup,
                               std::size_t repeats) const {
  auto ls = impl_->launches(in, out);
  return cl::timeRepeated(*impl_->context, ls, warmup, repeats);
}

void Plan::checkHost(std::size_t realBytes, std::size_t count) const {
  impl_->layout.checkHost(realBytes, count);
}

void Plan::checkReal(std::size_t realBytes, bool r2c, std::size_t inputBytes) const {
  const auto& r = request();
  const bool isR2c = r.real && r.direction == Direction::Forward;
  const bool isC2r = r.real && r.direction == Direction::Inverse;
  if (r2c ? !isR2c : !isC2r)
    throw UserError(fmt::format("plan {} is not {}", info().compiled.name, r2c ? "R2C" : "C2R"));
  if (realBytes != static_cast<std::size_t>(complexBytes(r.precision) / 2))  // one scalar
    throw UserError(fmt::format("plan {} is {}: the host data has the other precision",
                                info().compiled.name, precisionName(r.precision)));
  if (inputBytes != this->inputBytes())
    throw UserError(fmt::format("plan {}: {} bytes of input, expected {}", info().compiled.name,
                                inputBytes, this->inputBytes()));
}

void Plan::runBytes(const void* in, void* out) const {
  cl::Buffer a(*impl_->context, inputBytes()), b(*impl_->context, outputBytes());
  // the output's holes (advanced layouts) read back as zeros
  std::vector<std::uint8_t> zeros(outputBytes(), 0);
  b.writeBytes(*impl_->context, zeros.data(), zeros.size());
  a.writeBytes(*impl_->context, in, inputBytes());
  execute(a, b);
  b.readBytes(*impl_->context, out, outputBytes());
}

}  // namespace fftc::fftlib
