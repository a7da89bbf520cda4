// A shared library opened with dlopen from a list of candidate names or paths.
// The CUDA backend resolves NVRTC and the driver this way so fftc runs without them.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "backends/common/device_error.h"

namespace fftc::backends::cuda {

// An open shared library. The handle is never closed: NVRTC and the CUDA driver keep threads
// and atexit handlers that must not outlive their code, so unloading them is unsafe.
class DynamicLibrary {
 public:
  // Tries each candidate in order (a bare soname goes through the loader's search path, a
  // name with '/' is an absolute path); the result is not loaded() when none opens.
  static DynamicLibrary open(const std::vector<std::string>& candidates);

  [[nodiscard]] bool loaded() const noexcept { return handle_ != nullptr; }
  // The candidate that opened, or empty.
  [[nodiscard]] const std::string& path() const noexcept { return path_; }
  // dlerror() of the first candidate that failed, for diagnostics.
  [[nodiscard]] const std::string& error() const noexcept { return error_; }
  // The address of `symbol`, or nullptr.
  [[nodiscard]] void* symbol(const char* symbol) const noexcept;

 private:
  void* handle_ = nullptr;
  std::string path_;
  std::string error_;
};

// Candidates for a library of the CUDA toolkit, for each soname in order: the soname through
// the loader, then by absolute path under $CUDA_HOME/lib64, $CUDA_HOME/lib,
// /usr/local/cuda/lib64 and /usr/local/cuda/lib.
std::vector<std::string> toolkitLibraryCandidates(const std::vector<std::string>& sonames);

// A process-wide API table (the driver, NVRTC) loaded once by `load` on first use. The
// outcome, table or failure, is never destroyed: static destructors elsewhere may still call.
template <class Api>
struct LoadedApi {
  std::unique_ptr<Api> api;
  std::string error, log;

  // The table, or the DeviceError the load failed with.
  const Api& get() const {
    if (!api) throw DeviceError(error, log);
    return *api;
  }
  bool available(std::string* reason) const {
    if (!api && reason != nullptr) *reason = error;
    return api != nullptr;
  }
};

template <class Api, class Load>
const LoadedApi<Api>& loadOnce(Load load) {
  static const LoadedApi<Api>* const loaded = [&] {
    auto* result = new LoadedApi<Api>;
    try {
      result->api = std::make_unique<Api>(load());
    } catch (const DeviceError& error) {
      result->error = error.what();
      result->log = error.log();
    }
    return result;
  }();
  return *loaded;
}

}  // namespace fftc::backends::cuda
