#include "backends/opencl/context.h"

#include "backends/opencl/cl_error.h"
#include "backends/opencl/selector.h"

namespace fftc::backends::opencl {

Context::Context(DeviceInfo device)
    : device_(std::move(device)), cache_(BinaryCache::fromEnvironment()) {
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(device_.platform), 0};
  cl_int status = CL_SUCCESS;
  cl_device_id id = device_.device;
  context_ = ContextHandle(clCreateContext(properties, 1, &id, nullptr, nullptr, &status));
  check(status, "clCreateContext", device_.name);
  // clCreateCommandQueue is the 1.2 entry point; NVIDIA and PoCL both still provide it.
  queue_ =
      QueueHandle(clCreateCommandQueue(context_.get(), id, CL_QUEUE_PROFILING_ENABLE, &status));
  check(status, "clCreateCommandQueue", device_.name);
}

Context Context::fromSelector(std::string_view selector) {
  return Context(selectDevice(selector));
}

void Context::finish() const {
  check(clFinish(queue_.get()), "clFinish");
}

void Context::requireDoubleSupport() const {
  opencl::requireDoubleSupport(device_);
}

Program Context::build(std::string_view source, std::string_view options) const {
  return buildProgram(*this, source, options, cache_.get());
}

}  // namespace fftc::backends::opencl
