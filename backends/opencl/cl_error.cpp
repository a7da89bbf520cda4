#include "backends/opencl/cl_error.h"

#include <fmt/format.h>

#include <utility>

#include "backends/common/opencl_error_names.h"

namespace fftc::backends::opencl {

std::string errorName(cl_int code) {
  for (const auto& [value, name] : kOpenClErrorNames) {
    if (value == code) {
      return name;
    }
  }
  return fmt::format("CL_ERROR_{}", code);
}

ClError::ClError(cl_int code, std::string_view call, std::string_view detail)
    : DeviceError(detail.empty()
                      ? fmt::format("{} failed: {} ({})", call, errorName(code), code)
                      : fmt::format("{} failed: {} ({}): {}", call, errorName(code), code, detail)),
      code_(code) {}

}  // namespace fftc::backends::opencl
