// Device queries through the driver API and their text and JSON forms.
#include "backends/cuda/device.h"

#include <fmt/format.h>

#include <boost/json/array.hpp>
#include <charconv>

#include "backends/common/device_error.h"
#include "backends/cuda/driver_api.h"
#include "backends/cuda/nvrtc_api.h"

namespace fftc::backends::cuda {
namespace {

int attribute(const DriverApi& api, CUdevice device, CUdevice_attribute which,
              std::string_view what) {
  int value = 0;
  api.check(api.cuDeviceGetAttribute(&value, which, device),
            fmt::format("cuDeviceGetAttribute({})", what));
  return value;
}

std::string versionText(int version) {
  return fmt::format("{}.{}", version / 1000, version % 1000 / 10);
}

std::string kib(std::size_t bytes) {
  return fmt::format("{} KiB", bytes / 1024);
}

std::string mib(std::size_t bytes) {
  return fmt::format("{} MiB", bytes / (1024 * 1024));
}

std::string gib(std::size_t bytes) {
  return fmt::format("{:.1f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

}  // namespace

std::string DeviceInfo::arch() const {
  return fmt::format("sm_{}{}", computeMajor, computeMinor);
}

int deviceCount() {
  const DriverApi& api = DriverApi::get();
  int count = 0;
  api.check(api.cuDeviceGetCount(&count), "cuDeviceGetCount");
  return count;
}

DeviceInfo queryDevice(int ordinal) {
  const DriverApi& api = DriverApi::get();
  const int count = deviceCount();
  if (ordinal < 0 || ordinal >= count) {
    throw UserError(fmt::format("cuda:{}: there {} {} CUDA device{}", ordinal,
                                count == 1 ? "is" : "are", count, count == 1 ? "" : "s"));
  }
  CUdevice device = 0;
  api.check(api.cuDeviceGet(&device, ordinal), "cuDeviceGet");
  DeviceInfo info;
  info.ordinal = ordinal;
  char name[256] = {};
  api.check(api.cuDeviceGetName(name, sizeof name - 1, device), "cuDeviceGetName");
  info.name = name;
  const auto get = [&](CUdevice_attribute which, std::string_view what) {
    return attribute(api, device, which, what);
  };
  info.computeMajor = get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, "compute capability");
  info.computeMinor = get(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, "compute capability");
  info.multiprocessors = get(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, "multiprocessors");
  info.maxThreadsPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, "threads per block");
  info.warpSize = get(CU_DEVICE_ATTRIBUTE_WARP_SIZE, "warp size");
  info.maxRegistersPerBlock = get(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK, "registers");
  const auto bytes = [&](CUdevice_attribute which, std::string_view what) {
    return static_cast<std::size_t>(get(which, what));
  };
  info.sharedMemoryPerBlock = bytes(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, "shared");
  info.sharedMemoryPerBlockOptin =
      bytes(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, "shared opt-in");
  info.sharedMemoryPerMultiprocessor =
      bytes(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, "shared per SM");
  info.l2CacheBytes = bytes(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, "L2 cache");
  info.memoryBusWidthBits = get(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH, "bus width");
  api.check(api.cuDeviceTotalMem(&info.globalMemory, device), "cuDeviceTotalMem");
  return info;
}

DeviceList listDevices() {
  DeviceList list;
  std::string reason;
  if (NvrtcApi::available(&reason)) {
    list.nvrtcVersion = NvrtcApi::get().versionText();
  } else {
    list.nvrtcReason = reason;
  }
  try {
    list.driverVersion = DriverApi::get().driverVersion();
    const int count = deviceCount();
    for (int i = 0; i < count; ++i) list.devices.push_back(queryDevice(i));
    list.available = true;
  } catch (const DeviceError& error) {
    list.available = false;
    list.reason = error.what();
    list.devices.clear();
  }
  return list;
}

int parseDeviceSelector(std::string_view selector) {
  constexpr std::string_view prefix = "cuda:";
  int ordinal = -1;
  if (selector.starts_with(prefix)) {
    const std::string_view digits = selector.substr(prefix.size());
    const auto [end, error] =
        std::from_chars(digits.data(), digits.data() + digits.size(), ordinal);
    if (error == std::errc() && end == digits.data() + digits.size() && !digits.empty() &&
        ordinal >= 0) {
      return ordinal;
    }
  }
  throw UserError(fmt::format("bad CUDA device selector '{}': expected cuda:N", selector));
}

boost::json::object toJson(const DeviceInfo& device) {
  return boost::json::object{
      {"selector", fmt::format("cuda:{}", device.ordinal)},
      {"name", device.name},
      {"compute_capability", fmt::format("{}.{}", device.computeMajor, device.computeMinor)},
      {"arch", device.arch()},
      {"multiprocessors", device.multiprocessors},
      {"max_threads_per_block", device.maxThreadsPerBlock},
      {"warp_size", device.warpSize},
      {"max_registers_per_block", device.maxRegistersPerBlock},
      {"shared_memory_per_block", device.sharedMemoryPerBlock},
      {"shared_memory_per_block_optin", device.sharedMemoryPerBlockOptin},
      {"shared_memory_per_multiprocessor", device.sharedMemoryPerMultiprocessor},
      {"global_memory", device.globalMemory},
      {"l2_cache", device.l2CacheBytes},
      {"memory_bus_width_bits", device.memoryBusWidthBits},
  };
}

boost::json::object toJson(const DeviceList& list) {
  boost::json::object out;
  out["available"] = list.available;
  if (!list.available) out["reason"] = list.reason;
  out["driver_version"] = list.driverVersion != 0 ? versionText(list.driverVersion) : "";
  out["nvrtc_version"] = list.nvrtcVersion;
  if (list.nvrtcVersion.empty()) out["nvrtc_reason"] = list.nvrtcReason;
  boost::json::array devices;
  for (const DeviceInfo& device : list.devices) devices.push_back(toJson(device));
  out["devices"] = std::move(devices);
  return out;
}

std::string toText(const DeviceList& list) {
  const std::string nvrtc =
      list.nvrtcVersion.empty() ? "NVRTC missing" : "NVRTC " + list.nvrtcVersion;
  if (!list.available) return fmt::format("CUDA: unavailable ({}; {})\n", list.reason, nvrtc);
  std::string out =
      fmt::format("CUDA: driver {}, {}, {} device{}\n", versionText(list.driverVersion), nvrtc,
                  list.devices.size(), list.devices.size() == 1 ? "" : "s");
  for (const DeviceInfo& d : list.devices) {
    out += fmt::format(
        "  cuda:{}  {}  {} (cc {}.{})  {} SMs  {} global  {} L2  shared {}/block ({} opt-in), "
        "{}/SM  {} threads/block\n",
        d.ordinal, d.name, d.arch(), d.computeMajor, d.computeMinor, d.multiprocessors,
        gib(d.globalMemory), mib(d.l2CacheBytes), kib(d.sharedMemoryPerBlock),
        kib(d.sharedMemoryPerBlockOptin), kib(d.sharedMemoryPerMultiprocessor),
        d.maxThreadsPerBlock);
  }
  if (!list.nvrtcVersion.empty()) return out;
  return out + fmt::format("  (cannot compile: {})\n", list.nvrtcReason);
}

}  // namespace fftc::backends::cuda
