// Turns OpenCL status codes into exceptions: every failing call becomes a ClError (a
// DeviceError) naming the call and the code's symbol, e.g. CL_INVALID_WORK_GROUP_SIZE.
#pragma once

#include <string>
#include <string_view>

#include "backends/common/device_error.h"
#include "backends/opencl/cl.h"

namespace fftc::backends::opencl {

// The symbolic name of an OpenCL status code ("CL_INVALID_VALUE"), or "CL_ERROR_<n>" if unknown.
[[nodiscard]] std::string errorName(cl_int code);

// A failed OpenCL call: what() is "CALL failed: CL_NAME (code)[: detail]".
class ClError : public DeviceError {
 public:
  ClError(cl_int code, std::string_view call, std::string_view detail = {});
  [[nodiscard]] cl_int code() const noexcept { return code_; }

 private:
  cl_int code_;
};

// Throws ClError unless `code` is CL_SUCCESS.
inline void check(cl_int code, std::string_view call, std::string_view detail = {}) {
  if (code != CL_SUCCESS) {
    throw ClError(code, call, detail);
  }
}

}  // namespace fftc::backends::opencl
