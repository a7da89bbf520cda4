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

Context::Context(DeviceInfo device, ContextHandle context, QueueHandle queue)
    : device_(std::move(device)),
      context_(std::move(context)),
      queue_(std::move(queue)),
      cache_(BinaryCache::fromEnvironment()) {}

Context Context::fromQueue(cl_command_queue queue) {
  cl_context context = nullptr;
  cl_device_id device = nullptr;
  check(clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr),
        "clGetCommandQueueInfo", "CL_QUEUE_CONTEXT");
  check(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr),
        "clGetCommandQueueInfo", "CL_QUEUE_DEVICE");
  cl_platform_id platform = nullptr;
  check(clGetDeviceInfo(device, CL_DEVICE_PLATFORM, sizeof(platform), &platform, nullptr),
        "clGetDeviceInfo", "CL_DEVICE_PLATFORM");
  // The indices as listDevices() numbers them, so that DeviceInfo::selector() names the device.
  DeviceInfo info;
  bool listed = false;
  for (const DeviceInfo& d : listDevices()) {
    if (d.device == device) {
      info = d;
      listed = true;
    }
  }
  if (!listed) info = queryDevice(platform, device, 0, 0);
  check(clRetainContext(context), "clRetainContext");
  ContextHandle contextHandle(context);
  check(clRetainCommandQueue(queue), "clRetainCommandQueue");
  return Context(std::move(info), std::move(contextHandle), QueueHandle(queue));
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
