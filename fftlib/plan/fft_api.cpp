// The public FFT API (fft_api.h): a compiled plan bound to an OpenCL context.
#include "fftlib/plan/fft_api.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <map>

#include "backends/common/device_error.h"
#include "backends/opencl/cl.h"
#include "compiler/exec/exec.h"

namespace fftc::fftlib {

namespace cl = backends::opencl;
using backends::UserError;

struct Plan::Impl {
  const cl::Context* context = nullptr;
  std::shared_ptr<const CompiledFft> plan;
  std::unique_ptr<cl::Program> program;
  std::vector<std::unique_ptr<cl::Kernel>> kernels;            // one per stage
  std::map<std::string, std::unique_ptr<cl::Buffer>> own;      // temps and tables
  std::unique_ptr<cl::Buffer> scratch;                          // in-place through a copy
  std::size_t elements = 0, bytes = 0;

  std::vector<cl::Launch> launches(const cl::Buffer& in, cl::Buffer& out) {
    std::vector<cl::Launch> ls;
    const auto& stages = plan->stages;
    for (std::size_t i = 0; i < stages.size(); ++i) {
      cl::Launch l;
      l.kernel = kernels[i].get();
      for (const auto& a : stages[i].args) {
        if (a == plan->inputBuffer)
          l.args.emplace_back(&in);
        else if (a == plan->outputBuffer)
          l.args.emplace_back(static_cast<const cl::Buffer*>(&out));
        else if (auto it = own.find(a); it != own.end())
          l.args.emplace_back(static_cast<const cl::Buffer*>(it->second.get()));
        else
          throw std::logic_error(fmt::format("stage {}: unknown argument {}", stages[i].kernel, a));
      }
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

  void checkBuffer(const cl::Buffer& b, const char* what) const {
    if (b.bytes() < bytes)
      throw UserError(fmt::format("{} buffer of {} bytes: the plan {} needs {} ({} x {} bytes)",
                                  what, b.bytes(), plan->compiled.name, bytes, elements,
                                  bytes / elements));
  }
};

Plan Plan::create(const cl::Context& context, const FftRequest& request) {
  if (request.target != compiler::pipeline::Target::OpenCL)
    throw UserError("fftc::fftlib::Plan runs OpenCL plans only; CUDA execution has not landed "
                    "yet (fftc fft --target cuda emits the kernels)");
  auto impl = std::make_shared<Impl>();
  impl->context = &context;
  impl->plan = planFft(request);
  const auto& k = impl->plan->compiled;
  compiler::exec::checkDevice(context.device(), k);  // UserError: f64 without doubles
  for (const auto& s : k.stages)
    if (static_cast<uint64_t>(s.localMemoryBytes) > context.device().localMemBytes)
      throw UserError(fmt::format("stage {} needs {} bytes of local memory; {} has {}", s.kernel,
                                  s.localMemoryBytes, context.device().name,
                                  context.device().localMemBytes));
  impl->program = std::make_unique<cl::Program>(context.build(k.source));
  for (const auto& s : impl->plan->stages)
    impl->kernels.push_back(std::make_unique<cl::Kernel>(*impl->program, s.kernel));
  auto bound = compiler::exec::bindSizes(k, {});
  for (const auto& b : k.buffers) {
    if (b.role != "temp" && b.role != "table") continue;
    int64_t count = b.count.evaluate(bound);
    auto bytes = static_cast<std::size_t>(std::max<int64_t>(count * b.elementBytes, 16));
    auto buf = std::make_unique<cl::Buffer>(context, bytes);
    if (b.role == "table") buf->writeBytes(context, b.data.data(), b.data.size());
    impl->own[b.name] = std::move(buf);
  }
  impl->elements = static_cast<std::size_t>(request.size * request.batch);
  impl->bytes = impl->elements * (request.precision == Precision::F64 ? 16 : 8);
  return Plan(std::move(impl));
}

const CompiledFft& Plan::info() const { return *impl_->plan; }
std::size_t Plan::elements() const { return impl_->elements; }
std::size_t Plan::bufferBytes() const { return impl_->bytes; }

std::vector<cl::Event> Plan::enqueue(const cl::Buffer& in, cl::Buffer& out) const {
  impl_->checkBuffer(in, "input");
  impl_->checkBuffer(out, "output");
  auto ls = impl_->launches(in, out);
  return cl::enqueueSequence(*impl_->context, ls);
}

void Plan::execute(const cl::Buffer& in, cl::Buffer& out) const {
  auto events = enqueue(in, out);
  impl_->context->finish();
  for (const auto& e : events) e.wait();  // throws ClError if a launch failed
}

void Plan::execute(cl::Buffer& inout) const {
  if (impl_->plan->inPlaceSafe) {
    execute(inout, inout);
    return;
  }
  if (!impl_->scratch) impl_->scratch = std::make_unique<cl::Buffer>(*impl_->context, impl_->bytes);
  execute(inout, *impl_->scratch);
  cl::check(clEnqueueCopyBuffer(impl_->context->queue(), impl_->scratch->get(), inout.get(), 0, 0,
                                impl_->bytes, 0, nullptr, nullptr),
            "clEnqueueCopyBuffer", "in-place FFT: the result back into the buffer");
  impl_->context->finish();
}

std::vector<double> Plan::time(const cl::Buffer& in, cl::Buffer& out, std::size_t warmup,
                               std::size_t repeats) const {
  impl_->checkBuffer(in, "input");
  impl_->checkBuffer(out, "output");
  auto ls = impl_->launches(in, out);
  return cl::timeRepeated(*impl_->context, ls, warmup, repeats);
}

void Plan::checkHost(std::size_t realBytes, std::size_t count) const {
  const std::size_t want = request().precision == Precision::F64 ? 8 : 4;
  if (realBytes != want)
    throw UserError(fmt::format("plan {} is {}: run() needs std::complex<{}> data",
                                info().compiled.name, precisionName(request().precision),
                                want == 8 ? "double" : "float"));
  if (count != impl_->elements)
    throw UserError(fmt::format("plan {}: {} input elements, expected batch x N = {}",
                                info().compiled.name, count, impl_->elements));
}

void Plan::runBytes(const void* in, void* out) const {
  cl::Buffer a(*impl_->context, impl_->bytes), b(*impl_->context, impl_->bytes);
  a.writeBytes(*impl_->context, in, impl_->bytes);
  execute(a, b);
  b.readBytes(*impl_->context, out, impl_->bytes);
}

}  // namespace fftc::fftlib
