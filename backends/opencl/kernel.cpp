#include "backends/opencl/kernel.h"

#include <fmt/format.h>

#include "backends/opencl/cl_error.h"

namespace fftc::backends::opencl {

Kernel::Kernel(const Program& program, std::string name) : name_(std::move(name)) {
  cl_int status = CL_SUCCESS;
  handle_ = KernelHandle(clCreateKernel(program.get(), name_.c_str(), &status));
  check(status, "clCreateKernel", name_);
}

std::uint32_t Kernel::argCount() const {
  cl_uint count = 0;
  check(clGetKernelInfo(get(), CL_KERNEL_NUM_ARGS, sizeof(count), &count, nullptr),
        "clGetKernelInfo", name_);
  return count;
}

void Kernel::setArgBytes(std::uint32_t index, std::size_t size, const void* value) {
  check(clSetKernelArg(get(), index, size, value), "clSetKernelArg",
        fmt::format("{} argument {} ({} bytes)", name_, index, size));
}

void Kernel::setArg(std::uint32_t index, const Buffer& buffer) {
  cl_mem mem = buffer.get();
  setArgBytes(index, sizeof(mem), &mem);
}

void Kernel::setArg(std::uint32_t index, LocalMemory local) {
  // A null value with a size is how OpenCL declares a __local argument.
  setArgBytes(index, local.bytes, nullptr);
}

void Kernel::setArg(std::uint32_t index, const KernelArg& arg) {
  std::visit(
      [&](const auto& value) {
        using T = std::decay_t<decltype(value)>;
        if constexpr (std::is_same_v<T, const Buffer*>) {
          setArg(index, *value);
        } else {
          setArg(index, value);
        }
      },
      arg);
}

void Kernel::setArgs(std::span<const KernelArg> args) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    setArg(static_cast<std::uint32_t>(i), args[i]);
  }
}

std::size_t Kernel::maxWorkGroupSize(cl_device_id device) const {
  std::size_t size = 0;
  check(clGetKernelWorkGroupInfo(get(), device, CL_KERNEL_WORK_GROUP_SIZE, sizeof(size), &size,
                                 nullptr),
        "clGetKernelWorkGroupInfo", name_);
  return size;
}

std::uint64_t Kernel::localMemBytes(cl_device_id device) const {
  cl_ulong bytes = 0;
  check(clGetKernelWorkGroupInfo(get(), device, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(bytes), &bytes,
                                 nullptr),
        "clGetKernelWorkGroupInfo", name_);
  return bytes;
}

}  // namespace fftc::backends::opencl
