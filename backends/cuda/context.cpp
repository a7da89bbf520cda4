// The primary context of a device: retain, make current, release.
#include "backends/cuda/context.h"

#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "backends/cuda/context_state.h"

namespace fftc::backends::cuda {

namespace detail {

ContextState::ContextState(const DriverApi& driver, int ordinal)
    : api(driver), info(queryDevice(ordinal)) {
  api.check(api.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  api.check(api.cuDevicePrimaryCtxRetain(&context, device),
            fmt::format("cuDevicePrimaryCtxRetain(cuda:{})", ordinal));
  makeCurrent();
}

ContextState::~ContextState() {
  // Buffers and modules are gone (they hold this state); the primary context stays valid
  // for other retainers in the process.
  static_cast<void>(api.cuDevicePrimaryCtxRelease(device));
}

void ContextState::makeCurrent() const {
  api.check(api.cuCtxSetCurrent(context), "cuCtxSetCurrent");
}

}  // namespace detail

Context::Context(int ordinal)
    : state_(std::make_shared<const detail::ContextState>(DriverApi::get(), ordinal)) {}

Context Context::open(std::string_view selector) {
  return Context(parseDeviceSelector(selector));
}

const DeviceInfo& Context::device() const {
  return state_->info;
}

std::string Context::arch() const {
  return state_->info.arch();
}

void Context::makeCurrent() const {
  state_->makeCurrent();
}

void Context::synchronize() const {
  state_->makeCurrent();
  state_->api.check(state_->api.cuCtxSynchronize(), "cuCtxSynchronize");
}

DeviceBuffer Context::allocate(std::size_t bytes) const {
  return DeviceBuffer(state_, bytes);
}

Module Context::build(NvrtcCompiler& compiler, CompileRequest request) const {
  request.arch = arch();
  return load(compiler.compile(request));
}

Module Context::load(const CompiledProgram& program) const {
  try {
    return Module(state_, program.binary);
  } catch (const DeviceError& error) {
    // Say which binary met which device (e.g. CUDA_ERROR_NO_BINARY_FOR_GPU for sm_100 code).
    throw DeviceError(fmt::format("loading {} code on cuda:{} ({}, {}): {}", program.arch,
                                  state_->info.ordinal, state_->info.name, arch(), error.what()));
  }
}

}  // namespace fftc::backends::cuda
