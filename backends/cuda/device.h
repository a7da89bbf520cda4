// CUDA devices: their properties, the list `fftc devices` prints (text and JSON), selectors.
// Listing never fails: without a driver the list is empty and says why.
#pragma once

#include <boost/json/object.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace fftc::backends::cuda {

struct DeviceInfo {
  int ordinal = 0;
  std::string name;
  int computeMajor = 0;
  int computeMinor = 0;
  int multiprocessors = 0;
  int maxThreadsPerBlock = 0;
  int warpSize = 0;
  int maxRegistersPerBlock = 0;
  // Shared memory a block gets without asking, and at most with the opt-in attribute.
  std::size_t sharedMemoryPerBlock = 0;
  std::size_t sharedMemoryPerBlockOptin = 0;
  std::size_t sharedMemoryPerMultiprocessor = 0;
  std::size_t globalMemory = 0;
  std::size_t l2CacheBytes = 0;
  int memoryBusWidthBits = 0;

  // "sm_90" for compute capability 9.0: what NVRTC compiles for this device.
  [[nodiscard]] std::string arch() const;
};

// Everything `fftc devices` reports about CUDA.
struct DeviceList {
  // False when the driver cannot be loaded or initialized; `reason` then says why.
  bool available = false;
  std::string reason;
  int driverVersion = 0;  // e.g. 13000
  // Empty when NVRTC is missing (`nvrtcReason` says why); compiling needs it, listing does not.
  std::string nvrtcVersion;
  std::string nvrtcReason;
  std::vector<DeviceInfo> devices;
};

// Throw DeviceError without a usable driver.
int deviceCount();
// Throws UserError when `ordinal` is not a device ("cuda:3: there are 2 CUDA devices").
DeviceInfo queryDevice(int ordinal);
// Never throws a DeviceError: failures end up in `reason`.
DeviceList listDevices();

// The device ordinal of a selector "cuda:N"; UserError for anything else.
int parseDeviceSelector(std::string_view selector);

boost::json::object toJson(const DeviceInfo& device);
// {"available": bool, "reason": str (only when unavailable), "driver_version": "13.0",
//  "nvrtc_version": "13.0", "devices": [...]}
boost::json::object toJson(const DeviceList& list);
// Human-readable, one device a line, for `fftc devices`.
std::string toText(const DeviceList& list);

}  // namespace fftc::backends::cuda
