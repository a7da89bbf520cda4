// Device selection by the SELECTOR of CLI.md: `opencl:P:D`, `opencl:NAME-SUBSTRING`, or
// empty / `opencl` for the default (the first GPU, else the first device).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "backends/opencl/device_info.h"

namespace fftc::backends::opencl {

struct Selector {
  enum class Kind { Default, Index, Name };
  Kind kind = Kind::Default;
  std::size_t platform = 0;  // Kind::Index
  std::size_t device = 0;    // Kind::Index
  std::string name;          // Kind::Name: case-insensitive substring of platform or device name
};

// Parses a selector; throws UserError with a one-line reason when it is malformed.
// `opencl:P:D` needs two decimal indices; any other `opencl:TEXT` without ':' is a name.
[[nodiscard]] Selector parseSelector(std::string_view text);

// Picks a device from `devices` (as listDevices() returns them). Throws UserError when an
// index is out of range or no device matches a name, DeviceError when `devices` is empty.
[[nodiscard]] DeviceInfo selectDevice(const std::vector<DeviceInfo>& devices,
                                      std::string_view selector);

// listDevices() + selectDevice(); no platform gives DeviceError("no OpenCL platform found
// (is an ICD such as pocl-opencl-icd installed?)").
[[nodiscard]] DeviceInfo selectDevice(std::string_view selector);

}  // namespace fftc::backends::opencl
