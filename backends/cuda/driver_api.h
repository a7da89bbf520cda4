// The CUDA driver API (libcuda.so.1), loaded with dlopen and resolved with cuGetProcAddress.
// Every CUresult that is not CUDA_SUCCESS becomes a DeviceError naming the call.
#pragma once

#include <cuda.h>

#include <string>
#include <string_view>
#include <vector>

namespace fftc::backends::cuda {

// The driver functions fftc calls, each with the CUDA version of its ABI (the N of a
// PFN_name_vN typedef in cudaTypedefs.h). cuda.h maps some names to versioned symbols
// (cuMemAlloc -> cuMemAlloc_v2, ABI 3020) and leaves others at their first ABI while a newer
// one exists (cuCtxSynchronize: 2000 takes no argument, 13000 takes a context), so
// cuGetProcAddress is asked for exactly the ABI whose prototype `decltype(&name)` has;
// driver_api.cpp checks the pairing at compile time against cudaTypedefs.h.
#define FFTC_CUDA_DRIVER_FUNCTIONS(X) \
  X(cuDeviceGetCount, 2000)           \
  X(cuDeviceGet, 2000)                \
  X(cuDeviceGetName, 2000)            \
  X(cuDeviceGetAttribute, 2000)       \
  X(cuDeviceTotalMem, 3020)           \
  X(cuDevicePrimaryCtxRetain, 7000)   \
  X(cuDevicePrimaryCtxRelease, 11000) \
  X(cuCtxSetCurrent, 4000)            \
  X(cuCtxSynchronize, 2000)           \
  X(cuStreamQuery, 2000)              \
  X(cuModuleLoadData, 2000)           \
  X(cuModuleUnload, 2000)             \
  X(cuModuleGetFunction, 2000)        \
  X(cuFuncGetAttribute, 2020)         \
  X(cuFuncSetAttribute, 9000)         \
  X(cuMemAlloc, 3020)                 \
  X(cuMemFree, 3020)                  \
  X(cuMemcpyHtoD, 3020)               \
  X(cuMemcpyDtoH, 3020)               \
  X(cuMemcpyDtoD, 3020)               \
  X(cuMemcpyDtoDAsync, 3020)          \
  X(cuMemcpy3DAsync, 3020)            \
  X(cuMemsetD8, 3020)                 \
  X(cuLaunchKernel, 4000)             \
  X(cuEventCreate, 2000)              \
  X(cuEventDestroy, 4000)             \
  X(cuEventRecord, 2000)              \
  X(cuEventSynchronize, 2000)         \
  X(cuEventElapsedTime, 12080)

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
#define FFTC_CUDA_DECLARE_MEMBER(name, version) decltype(&::name) name = nullptr;
  FFTC_CUDA_DRIVER_FUNCTIONS(FFTC_CUDA_DECLARE_MEMBER)
#undef FFTC_CUDA_DECLARE_MEMBER

 private:
  DriverApi() = default;

  int driverVersion_ = 0;
  std::string libraryPath_;
};

}  // namespace fftc::backends::cuda
