#include "backends/opencl/device_info.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <array>

#include "backends/common/device_error.h"
#include "backends/opencl/cl_error.h"

namespace fftc::backends::opencl {
namespace {

constexpr cl_int kPlatformNotFoundKhr = -1001;

std::string platformString(cl_platform_id platform, cl_platform_info what) {
  std::size_t size = 0;
  check(clGetPlatformInfo(platform, what, 0, nullptr, &size), "clGetPlatformInfo");
  std::string value(size, '\0');
  check(clGetPlatformInfo(platform, what, size, value.data(), nullptr), "clGetPlatformInfo");
  while (!value.empty() && (value.back() == '\0' || value.back() == ' ')) {
    value.pop_back();
  }
  return value;
}

std::string deviceString(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  check(clGetDeviceInfo(device, what, 0, nullptr, &size), "clGetDeviceInfo");
  std::string value(size, '\0');
  check(clGetDeviceInfo(device, what, size, value.data(), nullptr), "clGetDeviceInfo");
  while (!value.empty() && (value.back() == '\0' || value.back() == ' ')) {
    value.pop_back();
  }
  return value;
}

template <typename T>
T deviceValue(cl_device_id device, cl_device_info what) {
  T value{};
  check(clGetDeviceInfo(device, what, sizeof(T), &value, nullptr), "clGetDeviceInfo");
  return value;
}

bool hasDoubleSupport(cl_device_id device) {
  const std::string extensions = deviceString(device, CL_DEVICE_EXTENSIONS);
  if (extensions.find("cl_khr_fp64") != std::string::npos) {
    return true;
  }
  // OpenCL 1.2 made fp64 optional core; a 1.1 device may reject the query, which means "no".
  cl_device_fp_config config = 0;
  return clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(config), &config, nullptr) ==
             CL_SUCCESS &&
         config != 0;
}

std::string formatBytes(std::uint64_t bytes) {
  constexpr std::array<const char*, 5> kUnits = {"B", "KiB", "MiB", "GiB", "TiB"};
  auto value = static_cast<double>(bytes);
  std::size_t unit = 0;
  while (value >= 1024.0 && unit + 1 < kUnits.size()) {
    value /= 1024.0;
    ++unit;
  }
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.4g} {}", value, kUnits[unit]);
}

}  // namespace

std::string DeviceInfo::typeName() const {
  std::string out;
  auto add = [&](cl_device_type bit, const char* word) {
    if ((type & bit) != 0) {
      out += out.empty() ? word : fmt::format("|{}", word);
    }
  };
  add(CL_DEVICE_TYPE_CPU, "cpu");
  add(CL_DEVICE_TYPE_GPU, "gpu");
  add(CL_DEVICE_TYPE_ACCELERATOR, "accelerator");
  add(CL_DEVICE_TYPE_CUSTOM, "custom");
  return out.empty() ? "other" : out;
}

std::string DeviceInfo::selector() const {
  return fmt::format("opencl:{}:{}", platformIndex, deviceIndex);
}

DeviceInfo queryDevice(cl_platform_id platform, cl_device_id device, std::size_t platformIndex,
                       std::size_t deviceIndex) {
  DeviceInfo info;
  info.platformIndex = platformIndex;
  info.deviceIndex = deviceIndex;
  info.platform = platform;
  info.device = device;
  info.platformName = platformString(platform, CL_PLATFORM_NAME);
  info.platformVendor = platformString(platform, CL_PLATFORM_VENDOR);
  info.platformVersion = platformString(platform, CL_PLATFORM_VERSION);
  info.name = deviceString(device, CL_DEVICE_NAME);
  info.vendor = deviceString(device, CL_DEVICE_VENDOR);
  info.driverVersion = deviceString(device, CL_DRIVER_VERSION);
  info.deviceVersion = deviceString(device, CL_DEVICE_VERSION);
  info.type = deviceValue<cl_device_type>(device, CL_DEVICE_TYPE);
  info.computeUnits = deviceValue<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
  info.maxWorkGroupSize = deviceValue<std::size_t>(device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  const auto dims = deviceValue<cl_uint>(device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  info.maxWorkItemSizes.resize(dims);
  check(clGetDeviceInfo(device, CL_DEVICE_MAX_WORK_ITEM_SIZES, dims * sizeof(std::size_t),
                        info.maxWorkItemSizes.data(), nullptr),
        "clGetDeviceInfo");
  info.localMemBytes = deviceValue<cl_ulong>(device, CL_DEVICE_LOCAL_MEM_SIZE);
  info.globalMemBytes = deviceValue<cl_ulong>(device, CL_DEVICE_GLOBAL_MEM_SIZE);
  info.maxConstantBufferBytes = deviceValue<cl_ulong>(device, CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE);
  info.maxMemAllocBytes = deviceValue<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  info.maxClockMHz = deviceValue<cl_uint>(device, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  info.doubleSupport = hasDoubleSupport(device);
  return info;
}

std::vector<DeviceInfo> listDevices() {
  cl_uint platformCount = 0;
  const cl_int status = clGetPlatformIDs(0, nullptr, &platformCount);
  if (status == kPlatformNotFoundKhr || (status == CL_SUCCESS && platformCount == 0)) {
    return {};
  }
  check(status, "clGetPlatformIDs");
  std::vector<cl_platform_id> platforms(platformCount);
  check(clGetPlatformIDs(platformCount, platforms.data(), nullptr), "clGetPlatformIDs");

  std::vector<DeviceInfo> devices;
  for (std::size_t p = 0; p < platforms.size(); ++p) {
    cl_uint deviceCount = 0;
    const cl_int found = clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, 0, nullptr, &deviceCount);
    if (found == CL_DEVICE_NOT_FOUND || (found == CL_SUCCESS && deviceCount == 0)) {
      continue;  // A platform without devices is not an error: other platforms may have some.
    }
    check(found, "clGetDeviceIDs");
    std::vector<cl_device_id> ids(deviceCount);
    check(clGetDeviceIDs(platforms[p], CL_DEVICE_TYPE_ALL, deviceCount, ids.data(), nullptr),
          "clGetDeviceIDs");
    for (std::size_t d = 0; d < ids.size(); ++d) {
      devices.push_back(queryDevice(platforms[p], ids[d], p, d));
    }
  }
  return devices;
}

std::string formatDevices(const std::vector<DeviceInfo>& devices) {
  if (devices.empty()) {
    return "OpenCL: no platform or device found (is an ICD such as pocl-opencl-icd installed?)\n";
  }
  std::string out;
  const DeviceInfo* previous = nullptr;
  for (const DeviceInfo& d : devices) {
    if (previous == nullptr || previous->platformIndex != d.platformIndex) {
      out += fmt::format("OpenCL platform {}: {} ({}; {})\n", d.platformIndex, d.platformName,
                         d.platformVendor, d.platformVersion);
    }
    previous = &d;
    out += fmt::format("  {}  {} [{}]\n", d.selector(), d.name, d.typeName());
    out +=
        fmt::format("      vendor {}, driver {}, {}\n", d.vendor, d.driverVersion, d.deviceVersion);
    out += fmt::format(
        "      {} compute units at {} MHz, max work-group {}, max work-item sizes "
        "{}\n",
        d.computeUnits, d.maxClockMHz, d.maxWorkGroupSize, fmt::join(d.maxWorkItemSizes, "x"));
    out += fmt::format(
        "      local memory {}, global memory {}, max allocation {}, max constant "
        "buffer {}, double precision {}\n",
        formatBytes(d.localMemBytes), formatBytes(d.globalMemBytes),
        formatBytes(d.maxMemAllocBytes), formatBytes(d.maxConstantBufferBytes),
        d.doubleSupport ? "yes" : "no");
  }
  return out;
}

boost::json::object deviceToJson(const DeviceInfo& d) {
  boost::json::array workItems;
  for (std::size_t size : d.maxWorkItemSizes) {
    workItems.emplace_back(static_cast<std::uint64_t>(size));
  }
  return boost::json::object{
      {"selector", d.selector()},
      {"platform_index", static_cast<std::uint64_t>(d.platformIndex)},
      {"device_index", static_cast<std::uint64_t>(d.deviceIndex)},
      {"platform", d.platformName},
      {"platform_vendor", d.platformVendor},
      {"platform_version", d.platformVersion},
      {"name", d.name},
      {"vendor", d.vendor},
      {"driver_version", d.driverVersion},
      {"device_version", d.deviceVersion},
      {"type", d.typeName()},
      {"compute_units", d.computeUnits},
      {"max_work_group_size", static_cast<std::uint64_t>(d.maxWorkGroupSize)},
      {"max_work_item_sizes", std::move(workItems)},
      {"local_memory_bytes", d.localMemBytes},
      {"global_memory_bytes", d.globalMemBytes},
      {"max_constant_buffer_bytes", d.maxConstantBufferBytes},
      {"max_mem_alloc_bytes", d.maxMemAllocBytes},
      {"max_clock_mhz", d.maxClockMHz},
      {"double_support", d.doubleSupport},
  };
}

boost::json::array devicesToJson(const std::vector<DeviceInfo>& devices) {
  boost::json::array out;
  for (const DeviceInfo& d : devices) {
    out.emplace_back(deviceToJson(d));
  }
  return out;
}

void requireDoubleSupport(const DeviceInfo& device) {
  if (!device.doubleSupport) {
    throw UserError(fmt::format("device {} has no double-precision support", device.name));
  }
}

}  // namespace fftc::backends::opencl
