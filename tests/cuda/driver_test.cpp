// The driver without a GPU: a missing libcuda is a clean DeviceError with the documented
// message, device listing degrades to an empty but valid list, selectors parse.
#include "backends/cuda/driver_api.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "backends/cuda/context.h"
#include "backends/cuda/device.h"
#include "tests/cuda/test_support.h"

namespace fftc::backends::cuda {
namespace {

constexpr const char* kNoDriver =
    "CUDA driver not found (libcuda.so.1): no NVIDIA GPU driver on this machine";

TEST(DriverApi, MissingLibraryIsADeviceErrorNamingIt) {
  try {
    static_cast<void>(DriverApi::load({"libcuda-fftc-missing.so.1"}));
    FAIL() << "loading a missing driver succeeded";
  } catch (const DeviceError& error) {
    EXPECT_EQ(std::string(error.what()),
              "CUDA driver not found (libcuda-fftc-missing.so.1): no NVIDIA GPU driver on this "
              "machine");
    EXPECT_FALSE(error.log().empty()) << "dlerror() should be kept in the log";
  }
}

TEST(DriverApi, WithoutADriverOpeningADeviceThrowsTheDocumentedMessage) {
  std::string reason;
  if (DriverApi::available(&reason)) {
    // A machine with a driver (the GPU machine) cannot check the refusal; it checks that the
    // same calls go through instead.
    EXPECT_NO_THROW(static_cast<void>(deviceCount()));
    return;
  }
  EXPECT_EQ(reason, kNoDriver);
  for (int attempt = 0; attempt < 2; ++attempt) {  // the failure is remembered, not a crash
    try {
      const Context context(0);
      FAIL() << "opened a CUDA device without a driver";
    } catch (const DeviceError& error) {
      EXPECT_EQ(std::string(error.what()), kNoDriver);
    }
  }
  EXPECT_THROW(static_cast<void>(Context::open("cuda:0")), DeviceError);
  EXPECT_THROW(static_cast<void>(deviceCount()), DeviceError);
  EXPECT_THROW(static_cast<void>(queryDevice(0)), DeviceError);
}

TEST(DeviceList, IsValidJsonWithOrWithoutADriver) {
  const DeviceList list = listDevices();
  const boost::json::value json = boost::json::parse(boost::json::serialize(toJson(list)));
  ASSERT_TRUE(json.is_object());
  const boost::json::object& object = json.as_object();
  ASSERT_TRUE(object.contains("devices"));
  EXPECT_TRUE(object.at("devices").is_array());
  EXPECT_EQ(object.at("available").as_bool(), list.available);
  EXPECT_EQ(object.at("devices").as_array().size(), list.devices.size());
  EXPECT_EQ(object.at("nvrtc_version").as_string().empty(), list.nvrtcVersion.empty());
  if (!list.available) {
    EXPECT_TRUE(list.devices.empty());
    EXPECT_EQ(object.at("reason").as_string(), list.reason);
    EXPECT_FALSE(list.reason.empty());
  }
}

TEST(DeviceList, TextSaysWhyCudaIsUnavailable) {
  const DeviceList list = listDevices();
  const std::string text = toText(list);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  if (!list.available) {
    EXPECT_NE(text.find("CUDA: unavailable (" + list.reason), std::string::npos) << text;
  } else {
    EXPECT_NE(text.find("cuda:0"), std::string::npos) << text;
  }
}

TEST(DeviceList, TextAndJsonOfAKnownDevice) {
  DeviceList list;
  list.available = true;
  list.driverVersion = 13000;
  list.nvrtcVersion = "13.0";
  DeviceInfo h100;
  h100.name = "NVIDIA H100 80GB HBM3";
  h100.computeMajor = 9;
  h100.multiprocessors = 132;
  h100.sharedMemoryPerBlock = 48 * 1024;
  h100.sharedMemoryPerBlockOptin = 227 * 1024;
  h100.globalMemory = 85520809984;
  list.devices.push_back(h100);
  const std::string text = toText(list);
  EXPECT_NE(text.find("CUDA: driver 13.0, NVRTC 13.0, 1 device\n"), std::string::npos) << text;
  EXPECT_NE(text.find("cuda:0  NVIDIA H100 80GB HBM3  sm_90 (cc 9.0)  132 SMs"), std::string::npos)
      << text;
  EXPECT_NE(text.find("shared 48 KiB/block (227 KiB opt-in)"), std::string::npos) << text;
  const boost::json::object json = toJson(list);
  const boost::json::object& device = json.at("devices").as_array().at(0).as_object();
  EXPECT_EQ(device.at("arch").as_string(), "sm_90");
  EXPECT_EQ(device.at("selector").as_string(), "cuda:0");
  EXPECT_EQ(device.at("shared_memory_per_block_optin").to_number<std::int64_t>(), 227 * 1024);
  EXPECT_EQ(json.at("driver_version").as_string(), "13.0");
  EXPECT_FALSE(json.contains("reason"));
}

TEST(DeviceSelector, Parses) {
  EXPECT_EQ(parseDeviceSelector("cuda:0"), 0);
  EXPECT_EQ(parseDeviceSelector("cuda:12"), 12);
  for (const char* bad : {"", "cuda:", "cuda:-1", "cuda:1x", "opencl:0:0", "0", "cuda: 1"}) {
    EXPECT_THROW(static_cast<void>(parseDeviceSelector(bad)), UserError) << bad;
  }
}

}  // namespace
}  // namespace fftc::backends::cuda
