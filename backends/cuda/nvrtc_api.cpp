// Loading NVRTC with dlopen and resolving its (unversioned) C API with dlsym.
#include "backends/cuda/nvrtc_api.h"

#include <fmt/format.h>

#include <algorithm>
#include <memory>

#include "backends/common/device_error.h"
#include "backends/cuda/dynamic_library.h"

namespace fftc::backends::cuda {

NvrtcApi NvrtcApi::load(const std::vector<std::string>& candidates) {
  const DynamicLibrary library = DynamicLibrary::open(candidates);
  if (!library.loaded()) {
    const std::string wanted =
        candidates.empty() ? std::string("libnvrtc.so.13") : candidates.front();
    throw DeviceError(
        fmt::format("NVRTC not found ({}): install the CUDA toolkit or set CUDA_HOME", wanted),
        library.error());
  }
  NvrtcApi api;
  api.libraryPath_ = library.path();
#define FFTC_NVRTC_RESOLVE(name)                                                                 \
  api.name = reinterpret_cast<decltype(&::name)>(library.symbol(#name));                         \
  if (api.name == nullptr) {                                                                     \
    throw DeviceError(fmt::format("NVRTC {} is not usable: {} missing", library.path(), #name)); \
  }
  FFTC_NVRTC_FUNCTIONS(FFTC_NVRTC_RESOLVE)
#undef FFTC_NVRTC_RESOLVE
  api.check(api.nvrtcVersion(&api.major_, &api.minor_), "nvrtcVersion");
  int count = 0;
  api.check(api.nvrtcGetNumSupportedArchs(&count), "nvrtcGetNumSupportedArchs");
  api.archs_.resize(static_cast<std::size_t>(std::max(count, 0)));
  if (count > 0) api.check(api.nvrtcGetSupportedArchs(api.archs_.data()), "nvrtcGetSupportedArchs");
  std::sort(api.archs_.begin(), api.archs_.end());
  return api;
}

namespace {

const LoadedApi<NvrtcApi>& loadedNvrtc() {
  return loadOnce<NvrtcApi>([] {
    return NvrtcApi::load(toolkitLibraryCandidates({"libnvrtc.so.13", "libnvrtc.so"}));
  });
}

}  // namespace

const NvrtcApi& NvrtcApi::get() { return loadedNvrtc().get(); }

bool NvrtcApi::available(std::string* reason) { return loadedNvrtc().available(reason); }

void NvrtcApi::check(nvrtcResult result, std::string_view call) const {
  if (result == NVRTC_SUCCESS) return;
  const char* name = nvrtcGetErrorString != nullptr ? nvrtcGetErrorString(result) : nullptr;
  throw DeviceError(fmt::format("{}: {}", call,
                                name != nullptr
                                    ? std::string(name)
                                    : fmt::format("nvrtcResult {}", static_cast<int>(result))));
}

std::string NvrtcApi::versionText() const {
  return fmt::format("{}.{}", major_, minor_);
}

}  // namespace fftc::backends::cuda
