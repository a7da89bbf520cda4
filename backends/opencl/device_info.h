// Discovery of OpenCL platforms and devices and their limits, for `fftc devices`, device
// selection, cache keys and wisdom keys.
#pragma once

#include <boost/json/array.hpp>
#include <boost/json/object.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "backends/opencl/cl.h"

namespace fftc::backends::opencl {

struct DeviceInfo {
  std::size_t platformIndex = 0;
  std::size_t deviceIndex = 0;
  std::string platformName;
  std::string platformVendor;
  std::string platformVersion;  // "OpenCL 3.0 PoCL 3.1 ..."
  std::string name;
  std::string vendor;
  std::string driverVersion;  // CL_DRIVER_VERSION
  std::string deviceVersion;  // CL_DEVICE_VERSION, "OpenCL 3.0 ..."
  cl_device_type type = 0;
  std::uint32_t computeUnits = 0;
  std::size_t maxWorkGroupSize = 0;
  std::vector<std::size_t> maxWorkItemSizes;
  std::uint64_t localMemBytes = 0;
  std::uint64_t globalMemBytes = 0;
  std::uint64_t maxConstantBufferBytes = 0;
  std::uint64_t maxMemAllocBytes = 0;
  std::uint32_t maxClockMHz = 0;
  bool doubleSupport = false;  // cl_khr_fp64, or a non-zero CL_DEVICE_DOUBLE_FP_CONFIG
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;

  [[nodiscard]] bool isGpu() const { return (type & CL_DEVICE_TYPE_GPU) != 0; }
  [[nodiscard]] std::string typeName() const;  // "gpu", "cpu", "accelerator", "cpu|gpu"...
  [[nodiscard]] std::string selector() const;  // "opencl:P:D", which selects this device
};

// Every device of every platform, in the ICD loader's order. Empty when no platform is
// installed (the caller decides whether that is an error); throws ClError on driver failure.
[[nodiscard]] std::vector<DeviceInfo> listDevices();

// Queries one device (indices are recorded as given).
[[nodiscard]] DeviceInfo queryDevice(cl_platform_id platform, cl_device_id device,
                                     std::size_t platformIndex, std::size_t deviceIndex);

// Human-readable listing for `fftc devices`, grouped by platform; says so when there is none.
[[nodiscard]] std::string formatDevices(const std::vector<DeviceInfo>& devices);

// One object per device with the fields: selector, platform_index, device_index, platform,
// platform_vendor, platform_version, name, vendor, driver_version, device_version, type,
// compute_units, max_work_group_size, max_work_item_sizes, local_memory_bytes,
// global_memory_bytes, max_constant_buffer_bytes, max_mem_alloc_bytes, max_clock_mhz,
// double_support.
[[nodiscard]] boost::json::object deviceToJson(const DeviceInfo& device);
[[nodiscard]] boost::json::array devicesToJson(const std::vector<DeviceInfo>& devices);

// Throws UserError("device NAME has no double-precision support") unless it has.
void requireDoubleSupport(const DeviceInfo& device);

}  // namespace fftc::backends::opencl
