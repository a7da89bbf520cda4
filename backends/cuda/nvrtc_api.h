// NVRTC (libnvrtc.so.13), loaded with dlopen; compiling CUDA C needs no GPU and no driver.
// Every nvrtcResult that is not NVRTC_SUCCESS becomes a DeviceError naming the call.
#pragma once

#include <nvrtc.h>

#include <string>
#include <string_view>
#include <vector>

namespace fftc::backends::cuda {

#define FFTC_NVRTC_FUNCTIONS(X) \
  X(nvrtcGetErrorString)        \
  X(nvrtcVersion)               \
  X(nvrtcGetNumSupportedArchs)  \
  X(nvrtcGetSupportedArchs)     \
  X(nvrtcCreateProgram)         \
  X(nvrtcDestroyProgram)        \
  X(nvrtcCompileProgram)        \
  X(nvrtcGetPTXSize)            \
  X(nvrtcGetPTX)                \
  X(nvrtcGetCUBINSize)          \
  X(nvrtcGetCUBIN)              \
  X(nvrtcGetProgramLogSize)     \
  X(nvrtcGetProgramLog)

// The loaded NVRTC library. Immutable after loading; NVRTC itself is thread-safe.
class NvrtcApi {
 public:
  // The process-wide NVRTC, loaded on first use from libnvrtc.so.13 or libnvrtc.so (through
  // the loader, then under $CUDA_HOME and /usr/local/cuda). Throws DeviceError when missing.
  static const NvrtcApi& get();
  static bool available(std::string* reason = nullptr);
  static NvrtcApi load(const std::vector<std::string>& candidates);

  // Throws DeviceError "CALL: NVRTC_ERROR_NAME" unless `result` is success.
  void check(nvrtcResult result, std::string_view call) const;

  [[nodiscard]] int versionMajor() const noexcept { return major_; }
  [[nodiscard]] int versionMinor() const noexcept { return minor_; }
  // "13.0"
  [[nodiscard]] std::string versionText() const;
  // The real architectures this NVRTC can emit CUBIN for, as numbers (90 for sm_90), sorted.
  [[nodiscard]] const std::vector<int>& supportedArchs() const noexcept { return archs_; }
  [[nodiscard]] const std::string& libraryPath() const noexcept { return libraryPath_; }

#define FFTC_NVRTC_DECLARE_MEMBER(name) decltype(&::name) name = nullptr;
  FFTC_NVRTC_FUNCTIONS(FFTC_NVRTC_DECLARE_MEMBER)
#undef FFTC_NVRTC_DECLARE_MEMBER

 private:
  NvrtcApi() = default;

  int major_ = 0;
  int minor_ = 0;
  std::vector<int> archs_;
  std::string libraryPath_;
};

}  // namespace fftc::backends::cuda
