// Loading libcuda.so.1: dlopen, cuInit, then every function through cuGetProcAddress.
#include "backends/cuda/driver_api.h"

#include <cudaTypedefs.h>
#include <fmt/format.h>

#include <memory>
#include <optional>
#include <type_traits>

#include "backends/common/device_error.h"
#include "backends/cuda/dynamic_library.h"

namespace fftc::backends::cuda {
namespace {

#define FFTC_CUDA_STRINGIFY(x) #x
// The symbol that cuda.h maps a name to, e.g. "cuMemAlloc_v2" for cuMemAlloc.
#define FFTC_CUDA_SYMBOL(x) FFTC_CUDA_STRINGIFY(x)

template <typename Fn>
Fn symbolAs(const DynamicLibrary& library, const char* name) {
  return reinterpret_cast<Fn>(library.symbol(name));
}

// Resolves `name` (unversioned) through cuGetProcAddress at ABI `version`; falls back to
// dlsym of `symbol` (the name cuda.h maps it to) for drivers that refuse.
void* resolve(const DynamicLibrary& library, decltype(&::cuGetProcAddress) getProcAddress,
              const char* name, int version, const char* symbol) {
  if (getProcAddress != nullptr) {
    void* function = nullptr;
    CUdriverProcAddressQueryResult status = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
    // LEGACY_STREAM: fftc is not built for the per-thread default stream, and the dlsym
    // fallback names the legacy symbols too.
    if (getProcAddress(name, &function, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status) ==
            CUDA_SUCCESS &&
        status == CU_GET_PROC_ADDRESS_SUCCESS && function != nullptr) {
      return function;
    }
  }
  return library.symbol(symbol);
}

std::string versionText(int version) {
  return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

}  // namespace

DriverApi DriverApi::load(const std::vector<std::string>& candidates) {
  const DynamicLibrary library = DynamicLibrary::open(candidates);
  const std::string wanted = candidates.empty() ? std::string("libcuda.so.1") : candidates.front();
  if (!library.loaded()) {
    throw DeviceError(
        fmt::format("CUDA driver not found ({}): no NVIDIA GPU driver on this machine", wanted),
        library.error());
  }
  DriverApi api;
  api.libraryPath_ = library.path();
  api.cuGetErrorName = symbolAs<decltype(&::cuGetErrorName)>(library, "cuGetErrorName");
  api.cuGetErrorString = symbolAs<decltype(&::cuGetErrorString)>(library, "cuGetErrorString");
  auto init = symbolAs<decltype(&::cuInit)>(library, "cuInit");
  auto getVersion = symbolAs<decltype(&::cuDriverGetVersion)>(library, "cuDriverGetVersion");
  if (init == nullptr || getVersion == nullptr || api.cuGetErrorName == nullptr ||
      api.cuGetErrorString == nullptr) {
    throw DeviceError(fmt::format("CUDA driver {} is not usable: cuInit or cuGetErrorName missing",
                                  library.path()));
  }
  if (const CUresult result = init(0); result != CUDA_SUCCESS) {
    throw DeviceError(fmt::format("CUDA driver cannot start: cuInit: {}", api.describe(result)));
  }
  api.check(getVersion(&api.driverVersion_), "cuDriverGetVersion");
  if (api.driverVersion_ / 1000 < CUDA_VERSION / 1000) {
    // Driver ABIs are stable within a major version only.
    throw DeviceError(fmt::format("CUDA driver {} supports CUDA {}; fftc needs CUDA {} or newer",
                                  library.path(), versionText(api.driverVersion_),
                                  versionText(CUDA_VERSION / 1000 * 1000)));
  }

  // cuGetProcAddress is itself versioned (cuda.h maps it to cuGetProcAddress_v2).
  static_assert(std::is_same_v<decltype(&::cuGetProcAddress), PFN_cuGetProcAddress_v12000>);
  const auto getProcAddress =
      symbolAs<decltype(&::cuGetProcAddress)>(library, FFTC_CUDA_SYMBOL(cuGetProcAddress));
#define FFTC_CUDA_RESOLVE(name, version)                                                     \
  static_assert(std::is_same_v<decltype(&::name), PFN_##name##_v##version>,                  \
                "the ABI version of " #name " does not match cuda.h's prototype");           \
  api.name = reinterpret_cast<decltype(&::name)>(                                            \
      resolve(library, getProcAddress, #name, version, FFTC_CUDA_SYMBOL(name)));             \
  if (api.name == nullptr) {                                                                 \
    throw DeviceError(fmt::format("CUDA driver {} (CUDA {}) lacks {}", library.path(),       \
                                  versionText(api.driverVersion_), FFTC_CUDA_SYMBOL(name))); \
  }
  FFTC_CUDA_DRIVER_FUNCTIONS(FFTC_CUDA_RESOLVE)
#undef FFTC_CUDA_RESOLVE
  return api;
}

namespace {

const LoadedApi<DriverApi>& loadedDriver() {
  return loadOnce<DriverApi>([] { return DriverApi::load({"libcuda.so.1"}); });
}

}  // namespace

const DriverApi& DriverApi::get() { return loadedDriver().get(); }

bool DriverApi::available(std::string* reason) { return loadedDriver().available(reason); }

std::string DriverApi::describe(CUresult result) const {
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName == nullptr || cuGetErrorName(result, &name) != CUDA_SUCCESS) name = nullptr;
  if (cuGetErrorString == nullptr || cuGetErrorString(result, &text) != CUDA_SUCCESS)
    text = nullptr;
  std::string out = name != nullptr ? name : fmt::format("CUresult {}", static_cast<int>(result));
  if (text != nullptr) out += fmt::format(" ({})", text);
  return out;
}

void DriverApi::check(CUresult result, std::string_view call) const {
  if (result != CUDA_SUCCESS) throw DeviceError(fmt::format("{}: {}", call, describe(result)));
}

}  // namespace fftc::backends::cuda
