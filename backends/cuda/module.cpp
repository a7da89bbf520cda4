// Module loading, kernel lookup, shared-memory opt-in and launches.
#include "backends/cuda/module.h"

#include <fmt/format.h>

#include <mutex>

#include "backends/common/device_error.h"
#include "backends/cuda/context_state.h"
#include "backends/cuda/memory.h"

namespace fftc::backends::cuda {

namespace detail {

struct ModuleState {
  ModuleState(std::shared_ptr<const ContextState> owner, const std::string& image)
      : context(std::move(owner)) {
    context->makeCurrent();
    context->api.check(context->api.cuModuleLoadData(&module, image.data()), "cuModuleLoadData");
  }
  ModuleState(const ModuleState&) = delete;
  ModuleState& operator=(const ModuleState&) = delete;
  ~ModuleState() {
    context->makeCurrent();
    static_cast<void>(context->api.cuModuleUnload(module));
  }

  std::shared_ptr<const ContextState> context;
  CUmodule module = nullptr;
};

struct KernelState {
  std::shared_ptr<const ModuleState> module;
  CUfunction function = nullptr;
  std::string name;
  int staticSharedBytes = 0;
  int maxThreadsPerBlock = 0;
  // The current CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, raised on demand.
  std::mutex mutex;
  std::size_t dynamicSharedLimit = 0;

  [[nodiscard]] const DriverApi& api() const { return module->context->api; }
  [[nodiscard]] int attribute(CUfunction_attribute which, std::string_view what) const {
    int value = 0;
    api().check(api().cuFuncGetAttribute(&value, which, function),
                fmt::format("cuFuncGetAttribute({}, {})", name, what));
    return value;
  }
};

}  // namespace detail

std::vector<void*> KernelArgs::pointers() const {
  std::vector<void*> pointers;
  pointers.reserve(slots_.size());
  // cuLaunchKernel takes void** but only reads through it.
  for (const Slot& slot : slots_) pointers.push_back(const_cast<unsigned char*>(slot.bytes.data()));
  return pointers;
}

KernelArgs& KernelArgs::add(const DeviceBuffer& buffer) {
  return add(buffer.pointer());
}

Module::Module(std::shared_ptr<const detail::ContextState> context, const std::string& image)
    : state_(std::make_shared<detail::ModuleState>(std::move(context), image)) {}

Kernel Module::kernel(const std::string& name) const {
  auto state = std::make_shared<detail::KernelState>();
  state->module = state_;
  state->name = name;
  const DriverApi& api = state_->context->api;
  state_->context->makeCurrent();
  const CUresult result = api.cuModuleGetFunction(&state->function, state_->module, name.c_str());
  if (result == CUDA_ERROR_NOT_FOUND) {
    throw DeviceError(fmt::format("cuModuleGetFunction: no kernel '{}' in the module", name));
  }
  api.check(result, fmt::format("cuModuleGetFunction({})", name));
  state->staticSharedBytes = state->attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, "shared");
  state->maxThreadsPerBlock =
      state->attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "max threads");
  state->dynamicSharedLimit = static_cast<std::size_t>(
      state->attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "max dynamic shared"));
  return Kernel(std::move(state));
}

Kernel::Kernel(std::shared_ptr<detail::KernelState> state) : state_(std::move(state)) {}

const std::string& Kernel::name() const {
  return state_->name;
}

CUfunction Kernel::handle() const {
  return state_->function;
}

int Kernel::attribute(CUfunction_attribute which) const {
  state_->module->context->makeCurrent();
  return state_->attribute(which, fmt::format("attribute {}", static_cast<int>(which)));
}

void Kernel::reserveDynamicSharedMemory(std::size_t bytes) const {
  detail::KernelState& kernel = *state_;
  const std::lock_guard lock(kernel.mutex);
  if (bytes <= kernel.dynamicSharedLimit) return;
  const DeviceInfo& device = kernel.module->context->info;
  const std::size_t available =
      device.sharedMemoryPerBlockOptin - static_cast<std::size_t>(kernel.staticSharedBytes);
  if (bytes > available) {
    throw DeviceError(fmt::format(
        "kernel {}: {} bytes of dynamic shared memory exceed the {} bytes {} allows ({} opt-in "
        "per block less {} static)",
        kernel.name, bytes, available, device.name, device.sharedMemoryPerBlockOptin,
        kernel.staticSharedBytes));
  }
  kernel.module->context->makeCurrent();
  kernel.api().check(
      kernel.api().cuFuncSetAttribute(kernel.function,
                                      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                                      static_cast<int>(bytes)),
      fmt::format("cuFuncSetAttribute({}, max dynamic shared memory {})", kernel.name, bytes));
  kernel.dynamicSharedLimit = bytes;
}

void Kernel::launch(const LaunchConfig& config, const KernelArgs& args, CUstream stream) const {
  const detail::KernelState& kernel = *state_;
  const unsigned long long threads = config.block.count();
  if (threads == 0 || config.grid.count() == 0) {
    throw DeviceError(fmt::format("kernel {}: empty launch (grid {}x{}x{}, block {}x{}x{})",
                                  kernel.name, config.grid.x, config.grid.y, config.grid.z,
                                  config.block.x, config.block.y, config.block.z));
  }
  if (threads > static_cast<unsigned long long>(kernel.maxThreadsPerBlock)) {
    throw DeviceError(fmt::format(
        "kernel {}: a block of {} threads exceeds the {} this kernel allows (its registers)",
        kernel.name, threads, kernel.maxThreadsPerBlock));
  }
  reserveDynamicSharedMemory(config.sharedMemoryBytes);
  std::vector<void*> pointers = args.pointers();
  kernel.module->context->makeCurrent();
  const CUresult result = kernel.api().cuLaunchKernel(
      kernel.function, config.grid.x, config.grid.y, config.grid.z, config.block.x, config.block.y,
      config.block.z, config.sharedMemoryBytes, stream,
      pointers.empty() ? nullptr : pointers.data(), nullptr);
  // The message is formatted only on failure: launches sit in timed loops.
  if (result != CUDA_SUCCESS) {
    kernel.api().check(
        result,
        fmt::format("cuLaunchKernel({}, grid {}x{}x{}, block {}x{}x{}, {} bytes shared)",
                    kernel.name, config.grid.x, config.grid.y, config.grid.z, config.block.x,
                    config.block.y, config.block.z, config.sharedMemoryBytes));
  }
}

}  // namespace fftc::backends::cuda
