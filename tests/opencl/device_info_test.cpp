// Device discovery: the JSON fields `fftc devices --json` documents and the text listing.
#include <gtest/gtest.h>

#include <boost/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/opencl/opencl_fixture.h"

namespace fftc::backends::opencl {
namespace {

using testing::sharedContext;

TEST(OpenclDeviceInfo, JsonHasTheDocumentedFields) {
  const DeviceInfo& device = sharedContext().device();
  const boost::json::object json = deviceToJson(device);
  for (const char* key : {"selector", "platform", "platform_vendor", "platform_version", "name",
                          "vendor", "driver_version", "device_version", "type"}) {
    ASSERT_TRUE(json.contains(key)) << key;
    EXPECT_TRUE(json.at(key).is_string()) << key;
  }
  for (const char* key : {"platform_index", "device_index", "compute_units", "max_work_group_size",
                          "local_memory_bytes", "global_memory_bytes", "max_constant_buffer_bytes",
                          "max_mem_alloc_bytes", "max_clock_mhz"}) {
    ASSERT_TRUE(json.contains(key)) << key;
    EXPECT_TRUE(json.at(key).is_number()) << key;
  }
  ASSERT_TRUE(json.contains("double_support"));
  EXPECT_TRUE(json.at("double_support").is_bool());
  ASSERT_TRUE(json.contains("max_work_item_sizes"));
  EXPECT_FALSE(json.at("max_work_item_sizes").as_array().empty());

  EXPECT_EQ(json.at("name").as_string(), device.name);
  EXPECT_EQ(json.at("selector").as_string(), device.selector());
  EXPECT_EQ(json.at("compute_units").to_number<std::uint64_t>(), device.computeUnits);
  EXPECT_EQ(json.at("double_support").as_bool(), device.doubleSupport);
  EXPECT_EQ(json.at("local_memory_bytes").to_number<std::uint64_t>(), device.localMemBytes);
}

TEST(OpenclDeviceInfo, LimitsAreSensible) {
  const DeviceInfo& d = sharedContext().device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_FALSE(d.driverVersion.empty());
  EXPECT_GT(d.computeUnits, 0U);
  EXPECT_GE(d.maxWorkGroupSize, 1U);
  EXPECT_GE(d.localMemBytes, 16U * 1024);  // OpenCL 1.2 guarantees 32 KiB for full profiles
  EXPECT_GE(d.maxConstantBufferBytes, 64U * 1024);
  EXPECT_GT(d.globalMemBytes, d.localMemBytes);
  EXPECT_FALSE(d.typeName().empty());
}

TEST(OpenclDeviceInfo, ListingNamesEveryDevice) {
  const std::vector<DeviceInfo> devices = listDevices();
  const std::string text = formatDevices(devices);
  if (std::getenv("FFTC_TEST_PRINT_DEVICES") != nullptr) {  // to see a real machine's listing
    std::fputs(text.c_str(), stdout);
    std::puts(boost::json::serialize(devicesToJson(devices)).c_str());
  }
  const boost::json::array json = devicesToJson(devices);
  ASSERT_EQ(json.size(), devices.size());
  for (const DeviceInfo& d : devices) {
    EXPECT_NE(text.find(d.selector() + "  " + d.name), std::string::npos) << text;
    EXPECT_NE(text.find(d.platformName), std::string::npos) << text;
  }
  EXPECT_NE(text.find("double precision"), std::string::npos);
  EXPECT_NE(formatDevices({}).find("no platform"), std::string::npos);
}

TEST(OpenclDeviceInfo, TypeNamesCombine) {
  DeviceInfo d;
  d.type = CL_DEVICE_TYPE_GPU;
  EXPECT_EQ(d.typeName(), "gpu");
  d.type = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_ACCELERATOR;
  EXPECT_EQ(d.typeName(), "cpu|accelerator");
}

}  // namespace
}  // namespace fftc::backends::opencl
