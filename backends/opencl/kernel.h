// A kernel of a built program and its arguments: buffers, scalars (int, float, double, ...)
// and dynamically sized local memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "backends/opencl/buffer.h"
#include "backends/opencl/handles.h"
#include "backends/opencl/program.h"

namespace fftc::backends::opencl {

// A `__local` pointer argument of this many bytes.
struct LocalMemory {
  std::size_t bytes;
};

// One argument chosen at run time (e.g. from a manifest); the scalar's C++ type must match
// the kernel parameter's size (int32_t for `int`, float, double, ...).
using KernelArg = std::variant<const Buffer*, LocalMemory, std::int32_t, std::uint32_t,
                               std::int64_t, std::uint64_t, float, double>;

template <typename T>
concept KernelScalar = std::is_trivially_copyable_v<T> && !std::is_pointer_v<T> &&
                       !std::is_same_v<std::remove_cvref_t<T>, Buffer> &&
                       !std::is_same_v<std::remove_cvref_t<T>, LocalMemory> &&
                       !std::is_same_v<std::remove_cvref_t<T>, KernelArg>;

class Kernel {
 public:
  // Throws ClError (CL_INVALID_KERNEL_NAME ...) naming the kernel when it is not in `program`.
  Kernel(const Program& program, std::string name);

  [[nodiscard]] cl_kernel get() const { return handle_.get(); }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::uint32_t argCount() const;

  void setArg(std::uint32_t index, const Buffer& buffer);
  void setArg(std::uint32_t index, LocalMemory local);
  void setArg(std::uint32_t index, const KernelArg& arg);
  template <KernelScalar T>
  void setArg(std::uint32_t index, const T& value) {
    setArgBytes(index, sizeof(T), &value);
  }
  void setArgBytes(std::uint32_t index, std::size_t size, const void* value);

  // Sets arguments 0, 1, ... in order.
  template <typename... Args>
  void setArgs(const Args&... args) {
    std::uint32_t index = 0;
    (setArg(index++, args), ...);
  }
  void setArgs(std::span<const KernelArg> args);
  void setArgs(const std::vector<KernelArg>& args) { setArgs(std::span<const KernelArg>(args)); }

  // CL_KERNEL_WORK_GROUP_SIZE and CL_KERNEL_LOCAL_MEM_SIZE on `device`: limits that may be
  // tighter than the device's (registers, static local memory).
  [[nodiscard]] std::size_t maxWorkGroupSize(cl_device_id device) const;
  [[nodiscard]] std::uint64_t localMemBytes(cl_device_id device) const;

 private:
  KernelHandle handle_;
  std::string name_;
};

}  // namespace fftc::backends::opencl
