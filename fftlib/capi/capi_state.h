// The C API's shared state (fftc/fftc.h, docs/c-api.md): the calling thread's last error, the
// devices plans run on (a selector opened once per process), and the wisdom in memory.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "backends/opencl/runtime.h"
#include "fftlib/plan/planner.h"
#include "fftlib/tune/fft_wisdom.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif

namespace fftc::fftlib::capi {

// What fftc_last_error() returns: the calling thread's last failure, "" after a success.
void setLastError(std::string message);
void clearLastError();
[[nodiscard]] const char* lastError();

// A device plans run on: an OpenCL context, or ("cuda:N", builds with CUDA) a CUDA one.
struct Device {
  std::string selector;
  std::optional<backends::opencl::Context> opencl;
#ifdef FFTC_HAVE_CUDA
  std::optional<backends::cuda::Context> cuda;
#endif
  [[nodiscard]] compiler::pipeline::Target target() const;
  // As wisdom and the tuner name the device (fft_cost.h).
  [[nodiscard]] tune::DeviceIdentity identity() const;
  // The limits plans are made under: CUDA's opt-in shared memory (cudaPlanLimits), else none.
  [[nodiscard]] PlanLimits limits() const;
};

// fftc_set_device: opens the device `selector` names now, so that a bad selector fails here,
// and makes it the one later plans of every thread run on.
void setDevice(const std::string& selector);
// The device of fftc_set_device, else of $FFTC_DEVICE, else the default OpenCL device. Opened
// once per selector and kept for the life of the process (plans hold it too).
[[nodiscard]] std::shared_ptr<const Device> currentDevice();

// The wisdom of both precisions, guarded by one lock. Imports merge a file's entries (they
// replace entries of the same key); lookups follow tune::applyWisdom.
void importWisdom(const std::filesystem::path& file);
void exportWisdom(const std::filesystem::path& file);
void forgetWisdom();
void recordWisdom(const tuner::WisdomKey& key, const tuner::WisdomEntry& entry);
[[nodiscard]] tune::WisdomUse lookupWisdom(const FftRequest& request, const Device& device);

}  // namespace fftc::fftlib::capi
