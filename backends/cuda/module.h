// Loaded modules (CUBIN or PTX), their kernels, kernel arguments and launches.
// Launches are asynchronous, in order on the context's default stream.
#pragma once

#include <cuda.h>

#include <array>
#include <cstddef>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace fftc::backends::cuda {

namespace detail {
struct ContextState;
struct ModuleState;
struct KernelState;
}  // namespace detail

class DeviceBuffer;

struct Dim3 {
  unsigned x = 1;
  unsigned y = 1;
  unsigned z = 1;
  [[nodiscard]] unsigned long long count() const noexcept {
    return static_cast<unsigned long long>(x) * y * z;
  }
};

struct LaunchConfig {
  Dim3 grid;   // blocks
  Dim3 block;  // threads per block
  // Dynamic shared memory per block; above 48 KiB the kernel is opted in automatically.
  unsigned sharedMemoryBytes = 0;
};

// The values of a kernel's parameters, in order. Copies each value, so it may be built once
// and launched many times.
class KernelArgs {
 public:
  // A buffer is passed as its device pointer.
  KernelArgs& add(const DeviceBuffer& buffer);
  template <typename T>
  requires std::is_trivially_copyable_v<T> KernelArgs& add(const T& value) {
    static_assert(sizeof(T) <= sizeof(Slot::bytes) && alignof(T) <= alignof(Slot),
                  "kernel arguments are scalars, vectors or pointers");
    Slot slot{};
    std::memcpy(slot.bytes.data(), &value, sizeof(T));
    slots_.push_back(slot);
    return *this;
  }
  [[nodiscard]] std::size_t size() const noexcept { return slots_.size(); }
  // The argument array cuLaunchKernel takes: one pointer to each value.
  [[nodiscard]] std::vector<void*> pointers() const;

 private:
  struct alignas(16) Slot {
    std::array<unsigned char, 32> bytes;
  };
  std::vector<Slot> slots_;
};

// A kernel of a loaded module; keeps the module loaded. Cheap to copy.
class Kernel {
 public:
  Kernel() = default;
  [[nodiscard]] const std::string& name() const;
  [[nodiscard]] CUfunction handle() const;
  // cuFuncGetAttribute, e.g. CU_FUNC_ATTRIBUTE_NUM_REGS.
  [[nodiscard]] int attribute(CUfunction_attribute which) const;
  // Raises the dynamic shared memory limit to `bytes` (cuFuncSetAttribute with
  // CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES); DeviceError when the device's opt-in
  // maximum, less the kernel's static shared memory, is smaller.
  void reserveDynamicSharedMemory(std::size_t bytes) const;
  // Enqueues one launch on `stream` (null: the default stream). DeviceError names the kernel
  // when the driver refuses it (too many threads per block for its registers, too much shared
  // memory, ...).
  void launch(const LaunchConfig& config, const KernelArgs& args, CUstream stream = nullptr) const;

 private:
  friend class Module;
  explicit Kernel(std::shared_ptr<detail::KernelState> state);
  std::shared_ptr<detail::KernelState> state_;
};

// A module loaded from CUBIN or PTX; unloaded when it and all its kernels are gone.
class Module {
 public:
  // `image` is a CUBIN or NUL-terminated PTX (std::string keeps a terminator).
  Module(std::shared_ptr<const detail::ContextState> context, const std::string& image);
  // Throws DeviceError "no kernel NAME in the module" (names are those of extern "C"
  // kernels, or the mangled names of C++ ones).
  [[nodiscard]] Kernel kernel(const std::string& name) const;

 private:
  std::shared_ptr<detail::ModuleState> state_;
};

}  // namespace fftc::backends::cuda
