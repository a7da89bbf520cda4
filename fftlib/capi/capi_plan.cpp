// One plan of the C API (capi_plan.h): flags, wisdom and tuning, host and device execution.
#include "fftlib/capi/capi_plan.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <fmt/format.h>
#include <vector>

#include "backends/common/device_error.h"
#include "fftlib/tune/fft_tune.h"

namespace fftc::fftlib::capi {

namespace cl = backends::opencl;
using backends::UserError;

namespace {

double measureSeconds() {
  const char* env = std::getenv("FFTC_MEASURE_SECONDS");
  if (env == nullptr || *env == '\0') return kMeasureSeconds;
  char* end = nullptr;
  const double s = std::strtod(env, &end);
  if (*end != '\0' || !(s > 0))
    throw UserError(fmt::format("FFTC_MEASURE_SECONDS={}: not a positive number of seconds", env));
  return s;
}

// FFTC_MEASURE: the tuner (fftlib/tune) on this problem for a short while; its best
// configuration goes into the wisdom in memory, where the plan then finds it. The search
// keeps no log: a brief search is cheaper to repeat than a file in the user's cache.
void measure(const FftRequest& request, const Device& device) {
  tune::FftTuneOptions options;
  options.abort = tuner::duration(measureSeconds());
  options.cost.warmup = 2;
  options.cost.repeats = 5;
  options.confirmRounds = 1;
  options.confirmCandidates = 1;
  std::unique_ptr<tune::FftExecutor> executor;
#ifdef FFTC_HAVE_CUDA
  if (device.cuda) executor = std::make_unique<tune::CudaExecutor>(*device.cuda);
#endif
  if (!executor) executor = std::make_unique<tune::OpenClExecutor>(*device.opencl);
  tune::FftTuner tuner(request, *executor, options);
  const tune::FftTuneReport report = tuner.run();
  if (report.wisdom) recordWisdom(report.key, *report.wisdom);
}

// The request the plan is built from: the wisdom's configuration when it has one for this
// problem on this device; else FFTC_MEASURE tunes first, FFTC_ESTIMATE takes the heuristics
// and FFTC_WISDOM_ONLY fails.
FftRequest planned(const FftRequest& request, const Device& device, unsigned flags) {
  tune::WisdomUse use = lookupWisdom(request, device);
  if (use.used) return use.request;
  if ((flags & kWisdomOnly) != 0)
    throw UserError(fmt::format("FFTC_WISDOM_ONLY: no wisdom for '{}' on {} ({})",
                                tune::problemName(request), device.identity().device, use.note));
  if ((flags & kEstimate) != 0) return request;
  measure(request, device);
  use = lookupWisdom(request, device);
  return use.used ? use.request : request;  // nothing valid measured: the heuristics
}

}  // namespace

// A plan built on a caller's queue (its context and device), with a scratch buffer for
// in-place execution when the plan cannot read and write one buffer.
struct CPlan::QueuePlan {
  std::unique_ptr<cl::Context> context;
  std::optional<Plan> plan;
  std::optional<cl::Buffer> scratch;
};

CPlan::CPlan(FftRequest request, void* in, void* out, unsigned flags)
    : device_(currentDevice()), in_(in), out_(out) {
  const unsigned known = kDestroyInput | kPreserveInput | kEstimate | kWisdomOnly;
  if ((flags & ~known) != 0)
    throw UserError(fmt::format("flags {:#x}: unknown bits {:#x} (fftc.h names FFTC_ESTIMATE, "
                                "FFTC_MEASURE, FFTC_WISDOM_ONLY, FFTC_DESTROY_INPUT, "
                                "FFTC_PRESERVE_INPUT)",
                                flags, flags & ~known));
  request.target = device_->target();
  request_ = planned(request, *device_, flags);
  if (device_->opencl) {
    clPlan_.emplace(Plan::create(*device_->opencl, request_));
    clIn_.emplace(*device_->opencl, clPlan_->inputBytes());
    clOut_.emplace(*device_->opencl, clPlan_->outputBytes());
    return;
  }
#ifdef FFTC_HAVE_CUDA
  cudaPlan_.emplace(CudaPlan::create(*device_->cuda, request_));
  cudaIn_.emplace(device_->cuda->allocate(cudaPlan_->inputBytes()));
  cudaOut_.emplace(device_->cuda->allocate(cudaPlan_->outputBytes()));
#endif
}

CPlan::~CPlan() = default;

CPlan::Kind CPlan::kind() const {
  if (!request_.real) return Kind::C2C;
  return request_.direction == Direction::Forward ? Kind::R2C : Kind::C2R;
}

void CPlan::execute() {
  if (in_ == nullptr || out_ == nullptr)
    throw UserError("the plan was made without arrays (NULL); use execute_dft and its kin");
  executeHost(in_, out_);
}

void CPlan::executeHost(const void* in, void* out) {
  if (in == nullptr || out == nullptr) throw UserError("an array is NULL");
  std::lock_guard lock(mutex_);
  // With an advanced output layout the device buffer starts as the caller's array, so that
  // the elements outside the layout read back unchanged.
  const bool holes = !request_.outLayout.isDefault();
  if (clPlan_) {
    const cl::Context& c = *device_->opencl;
    clIn_->writeBytes(c, in, clPlan_->inputBytes());
    if (holes) clOut_->writeBytes(c, out, clPlan_->outputBytes());
    clPlan_->execute(*clIn_, *clOut_);
    clOut_->readBytes(c, out, clPlan_->outputBytes());
    return;
  }
#ifdef FFTC_HAVE_CUDA
  cudaIn_->copyFromHost(in, cudaPlan_->inputBytes());
  if (holes) cudaOut_->copyFromHost(out, cudaPlan_->outputBytes());
  cudaPlan_->execute(*cudaIn_, *cudaOut_);
  cudaOut_->copyToHost(out, cudaPlan_->outputBytes());
#endif
}

void CPlan::executeCl(cl_mem in, cl_mem out, cl_command_queue queue) {
  if (in == nullptr || out == nullptr || queue == nullptr)
    throw UserError("a buffer or the queue is NULL");
  if (!device_->opencl)
    throw UserError(fmt::format("the plan was made for {} (CUDA): use execute_cuda",
                                device_->selector));
  cl_command_queue_properties properties = 0;
  cl::check(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof(properties), &properties,
                                  nullptr),
            "clGetCommandQueueInfo", "CL_QUEUE_PROPERTIES");
  if ((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0)
    throw UserError("the queue executes out of order; the plan's kernels need an in-order queue");
  std::lock_guard lock(mutex_);
  auto& slot = queues_[queue];
  if (!slot) {
    // The first execution on this queue builds the plan in its context (the binary cache
    // makes a rebuild of the same kernels cheap); the caller's commands order with ours.
    auto q = std::make_unique<QueuePlan>();
    q->context = std::make_unique<cl::Context>(cl::Context::fromQueue(queue));
    q->plan.emplace(Plan::create(*q->context, request_));
    slot = std::move(q);
  }
  QueuePlan& q = *slot;
  cl::Buffer a = cl::Buffer::retain(in);
  cl::Buffer b = in == out ? a : cl::Buffer::retain(out);
  if (in != out || q.plan->info().inPlaceSafe) {
    (void)q.plan->enqueue(a, b);
    return;
  }
  // In place, when the plan's stages read the input after writing the output: the input
  // goes aside first (one device copy), on the same queue.
  if (a.bytes() < q.plan->inputBytes())
    throw UserError(fmt::format("the buffer has {} bytes; the plan reads {}", a.bytes(),
                                q.plan->inputBytes()));
  if (!q.scratch) q.scratch.emplace(*q.context, q.plan->inputBytes());
  cl::check(clEnqueueCopyBuffer(queue, in, q.scratch->get(), 0, 0, q.plan->inputBytes(), 0,
                                nullptr, nullptr),
            "clEnqueueCopyBuffer", "in-place FFT: the input into the scratch buffer");
  (void)q.plan->enqueue(*q.scratch, b);
}

void CPlan::executeCuda(void* in, void* out, CUstream_st* stream) {
#ifdef FFTC_HAVE_CUDA
  if (device_->cuda) {
    namespace cu = backends::cuda;
    if (in == nullptr || out == nullptr) throw UserError("a device pointer is NULL");
    auto pointer = [](void* p) {
      return static_cast<CUdeviceptr>(reinterpret_cast<std::uintptr_t>(p));
    };
    const auto& state = device_->cuda->state();
    const std::size_t inBytes = cudaPlan_->inputBytes(), outBytes = cudaPlan_->outputBytes();
    std::lock_guard lock(mutex_);
    // The caller's memory is borrowed with the sizes the plan reads and writes: a device
    // pointer carries no size to check.
    if (in != out) {
      cu::DeviceBuffer a = cu::DeviceBuffer::borrow(state, pointer(in), inBytes);
      cu::DeviceBuffer b = cu::DeviceBuffer::borrow(state, pointer(out), outBytes);
      cu::enqueue(cudaPlan_->launches(a, b), stream);
      return;
    }
    cu::DeviceBuffer b =
        cu::DeviceBuffer::borrow(state, pointer(out), std::max(inBytes, outBytes));
    if (cudaPlan_->info().inPlaceSafe) {
      cu::enqueue(cudaPlan_->launches(b, b), stream);
      return;
    }
    // In place, when the stages read the input after writing the output: the input goes
    // aside first, on the same stream.
    if (!cudaScratch_) cudaScratch_.emplace(device_->cuda->allocate(inBytes));
    cudaScratch_->copyFromAsync(b, inBytes, stream);
    cu::enqueue(cudaPlan_->launches(*cudaScratch_, b), stream);
    return;
  }
#else
  (void)in;
  (void)out;
  (void)stream;
#endif
  throw UserError(fmt::format("the plan was made for {} (OpenCL): use execute_cl, or plan "
                              "after fftc_set_device(\"cuda:N\")",
                              device_->selector.empty() ? "the default device"
                                                        : device_->selector));
}

}  // namespace fftc::fftlib::capi
