// A CUDA context on one device (its primary context): the entry point to run kernels.
// Buffers, modules and kernels made from it keep it alive.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "backends/cuda/device.h"
#include "backends/cuda/memory.h"
#include "backends/cuda/module.h"
#include "backends/cuda/nvrtc_compiler.h"

namespace fftc::backends::cuda {

namespace detail {
struct ContextState;
}

class Context {
 public:
  // The primary context of device `ordinal`, current on the calling thread. Throws
  // DeviceError without a driver ("CUDA driver not found (libcuda.so.1): ...") and UserError
  // when there is no such device.
  explicit Context(int ordinal = 0);
  // From a selector "cuda:N".
  static Context open(std::string_view selector);

  [[nodiscard]] const DeviceInfo& device() const;
  // "sm_XY" of the device.
  [[nodiscard]] std::string arch() const;

  void makeCurrent() const;
  // Waits for all work in the context; DeviceError reports a kernel that failed.
  void synchronize() const;

  [[nodiscard]] DeviceBuffer allocate(std::size_t bytes) const;
  // Compiles `request` for this device's architecture (whatever its `arch` says) and loads it.
  [[nodiscard]] Module build(NvrtcCompiler& compiler, CompileRequest request) const;
  [[nodiscard]] Module load(const CompiledProgram& program) const;

  [[nodiscard]] const std::shared_ptr<const detail::ContextState>& state() const noexcept {
    return state_;
  }

 private:
  std::shared_ptr<const detail::ContextState> state_;
};

}  // namespace fftc::backends::cuda
