// The CUDA driver API (libcuda.so.1), loaded with dlopen and resolved with cuGetProcAddress.
// Every CUresult that is not CUDA_SUCCESS becomes a DeviceError naming the call.
#pragma once

#include <cuda.h>

#include <string>
#include <string_view>
#include <vector>

namespace fftc::backends::cuda {

// The driver functions fftc calls. Each name is spelled as an application spells it; cuda.h
// maps some to versioned symbols (cuMemAlloc -> cuMemAlloc_v2), and `decltype(&name)` gives
// the prototype of exactly the ABI the header selects. cuGetProcAddress is asked for the
// unversioned name at CUDA_VERSION, which returns that same ABI.
#define FFTC_CUDA_DRIVER_FUNCTIONS(X)                                                        \
  X(cuDeviceGetCount)                                                                        \
  X(cuDeviceGet)                                                                             \
  X(cuDeviceGetName)                                                                         \
  X(cuDeviceGetAttribute)                                                                    \
  X(cuDeviceTotalMem)                                                                        \
  X(cuDevicePrimaryCtxRetain)                                                                \
  X(cuDevicePrimaryCtxRelease)                                                               \
  X(cuCtxSetCurrent)                                                                         \
  X(cuCtxSynchronize)                                                                        \
  X(cuModuleLoadData)                                                                        \
  X(cuModuleUnload)                                                                          \
  X(cuModuleGetFunction)                                                                     \
  X(cuFuncGetAttribute)                                                                      \
  X(cuFuncSetAttribute)                                                                      \
  X(cuMemAlloc)                                                                              \
  X(cuMemFree)                                                                               \
  X(cuMemcpyHtoD)                                                                            \
  X(cuMemcpyDtoH)                                                                            \
  X(cuMemcpyDtoD)                                                                            \
  X(cuMemsetD8)                                                                              \
  X(cuLaunchKernel)                                                                          \
  X(cuEventCreate)                                                                           \
  X(cuEventDestroy)                                                                          \
  X(cuEventRecord)                                                                           \
  X(cuEventSynchronize)                                                                      \
  X(cuEventElapsedTime)

// The loaded driver, initialized (cuInit has succeeded). Immutable after loading, so it may
// be shared by threads.
class DriverApi {
 public:
  // The process-wide driver, loaded on first use. Throws DeviceError (the same message each
  // time) when there is no driver or it cannot initialize, e.g. "CUDA driver not found
  // (libcuda.so.1): no NVIDIA GPU driver on this machine".
  static const DriverApi& get();
  // True when get() succeeds; never throws. `reason` receives get()'s message otherwise.
  static bool available(std::string* reason = nullptr);

  // Loads a driver from explicit candidates (tests use this to simulate a missing driver).
  // Throws DeviceError as get() does.
  static DriverApi load(const std::vector<std::string>& candidates);

  // Throws DeviceError "CALL: CUDA_ERROR_NAME (description)" unless `result` is success.
  void check(CUresult result, std::string_view call) const;
  // "CUDA_ERROR_NAME (description)" for any result, known or not.
  [[nodiscard]] std::string describe(CUresult result) const;

  // The driver's CUDA version, e.g. 13000 for 13.0.
  [[nodiscard]] int driverVersion() const noexcept { return driverVersion_; }
  // The library that was opened.
  [[nodiscard]] const std::string& libraryPath() const noexcept { return libraryPath_; }

  decltype(&::cuGetErrorName) cuGetErrorName = nullptr;
  decltype(&::cuGetErrorString) cuGetErrorString = nullptr;
#define FFTC_CUDA_DECLARE_MEMBER(name) decltype(&::name) name = nullptr;
  FFTC_CUDA_DRIVER_FUNCTIONS(FFTC_CUDA_DECLARE_MEMBER)
#undef FFTC_CUDA_DECLARE_MEMBER

 private:
  DriverApi() = default;

  int driverVersion_ = 0;
  std::string libraryPath_;
};

}  // namespace fftc::backends::cuda
