// Exceptions shared by the device runtimes (OpenCL, CUDA) and the fftc driver.
// DeviceError: a device or driver failure (fftc exits 2); UserError: a bad request (exit 1).
#pragma once

#include <stdexcept>
#include <string>

namespace fftc::backends {

// A device, driver or runtime failure. `log()` holds optional detail too long for one line
// (e.g. a full OpenCL build log or NVRTC log); `what()` stays a single line.
struct DeviceError : std::runtime_error {
  explicit DeviceError(const std::string& message, std::string log = {})
      : std::runtime_error(message), log_(std::move(log)) {}
  [[nodiscard]] const std::string& log() const noexcept { return log_; }

 private:
  std::string log_;
};

// A bad request from the user: malformed selector, index out of range, unsupported precision.
struct UserError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace fftc::backends
