// Device selectors: parsing (table-driven), resolution on the real devices, and the default
// rule on made-up device lists (so "first GPU" is tested on machines without one).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/opencl/opencl_fixture.h"

namespace fftc::backends::opencl {
namespace {

DeviceInfo fakeDevice(std::size_t platform, std::size_t device, std::string name,
                      cl_device_type type, std::string platformName = "Platform") {
  DeviceInfo info;
  info.platformIndex = platform;
  info.deviceIndex = device;
  info.name = std::move(name);
  info.platformName = std::move(platformName);
  info.type = type;
  return info;
}

const std::vector<DeviceInfo> kFakeDevices = {
    fakeDevice(0, 0, "pthread-cpu", CL_DEVICE_TYPE_CPU, "Portable Computing Language"),
    fakeDevice(1, 0, "NVIDIA H100 80GB HBM3", CL_DEVICE_TYPE_GPU, "NVIDIA CUDA"),
    fakeDevice(1, 1, "NVIDIA A100", CL_DEVICE_TYPE_GPU, "NVIDIA CUDA"),
};

struct ParseCase {
  std::string text;
  Selector::Kind kind;
  std::size_t platform;
  std::size_t device;
  std::string name;
};

TEST(OpenclSelector, ParsesWellFormedSelectors) {
  const std::vector<ParseCase> cases = {
      {"", Selector::Kind::Default, 0, 0, ""},
      {"opencl", Selector::Kind::Default, 0, 0, ""},
      {"  opencl ", Selector::Kind::Default, 0, 0, ""},
      {"opencl:0:0", Selector::Kind::Index, 0, 0, ""},
      {"opencl:2:13", Selector::Kind::Index, 2, 13, ""},
      {"opencl:H100", Selector::Kind::Name, 0, 0, "H100"},
      {"opencl:4090", Selector::Kind::Name, 0, 0, "4090"},  // a lone number is a name
      {"opencl:Portable Computing", Selector::Kind::Name, 0, 0, "Portable Computing"},
  };
  for (const ParseCase& c : cases) {
    const Selector s = parseSelector(c.text);
    EXPECT_EQ(s.kind, c.kind) << "'" << c.text << "'";
    EXPECT_EQ(s.platform, c.platform) << "'" << c.text << "'";
    EXPECT_EQ(s.device, c.device) << "'" << c.text << "'";
    EXPECT_EQ(s.name, c.name) << "'" << c.text << "'";
  }
}

TEST(OpenclSelector, MalformedSelectorsAreUserErrorsWithAReason) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"opencl:", "malformed OpenCL device selector 'opencl:': nothing after 'opencl:'"},
      {"opencl:a:b",
       "malformed OpenCL device selector 'opencl:a:b': expected opencl:P:D with two "
       "non-negative integers"},
      {"opencl:1:",
       "malformed OpenCL device selector 'opencl:1:': expected opencl:P:D with two "
       "non-negative integers"},
      {"opencl:-1:0",
       "malformed OpenCL device selector 'opencl:-1:0': expected opencl:P:D with "
       "two non-negative integers"},
      {"opencl:0:0:0",
       "malformed OpenCL device selector 'opencl:0:0:0': expected opencl:P:D "
       "with two non-negative integers"},
      {"cuda:0", "malformed OpenCL device selector 'cuda:0': expected opencl:P:D or opencl:NAME"},
      {"openclx", "malformed OpenCL device selector 'openclx': expected opencl:P:D or opencl:NAME"},
  };
  for (const auto& [text, message] : cases) {
    try {
      (void)parseSelector(text);
      ADD_FAILURE() << "'" << text << "' parsed";
    } catch (const UserError& e) {
      EXPECT_EQ(std::string(e.what()), message);
    }
    // Selection reports the malformed selector, not a missing platform, even with no devices.
    EXPECT_THROW((void)selectDevice(std::vector<DeviceInfo>{}, text), UserError) << text;
  }
}

TEST(OpenclSelector, DefaultIsTheFirstGpuElseTheFirstDevice) {
  EXPECT_EQ(selectDevice(kFakeDevices, "").name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(selectDevice(kFakeDevices, "opencl").selector(), "opencl:1:0");
  const std::vector<DeviceInfo> cpuOnly(kFakeDevices.begin(), kFakeDevices.begin() + 1);
  EXPECT_EQ(selectDevice(cpuOnly, "").name, "pthread-cpu");
}

TEST(OpenclSelector, IndexAndNameOnMadeUpDevices) {
  EXPECT_EQ(selectDevice(kFakeDevices, "opencl:1:1").name, "NVIDIA A100");
  EXPECT_EQ(selectDevice(kFakeDevices, "opencl:a100").name, "NVIDIA A100");
  EXPECT_EQ(selectDevice(kFakeDevices, "opencl:nvidia").name, "NVIDIA H100 80GB HBM3");
  EXPECT_EQ(selectDevice(kFakeDevices, "opencl:PORTABLE").name, "pthread-cpu");  // platform name
}

TEST(OpenclSelector, OutOfRangeIndicesNameTheLimit) {
  try {
    (void)selectDevice(kFakeDevices, "opencl:2:0");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "OpenCL platform index 2 is out of range (there are 2 platforms)");
  }
  try {
    (void)selectDevice(kFakeDevices, "opencl:0:1");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "OpenCL device index 1 is out of range (platform 0 has 1 device)");
  }
  try {
    (void)selectDevice(kFakeDevices, "opencl:1:7");
    FAIL();
  } catch (const UserError& e) {
    EXPECT_STREQ(e.what(), "OpenCL device index 7 is out of range (platform 1 has 2 devices)");
  }
}

TEST(OpenclSelector, NoDevicesIsADeviceError) {
  try {
    (void)selectDevice(std::vector<DeviceInfo>{}, "");
    FAIL();
  } catch (const UserError&) {
    FAIL() << "a missing platform is a device failure, not a user error";
  } catch (const DeviceError& e) {
    EXPECT_STREQ(e.what(),
                 "no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)");
  }
}

// On the machine's real devices (PoCL without a GPU).
TEST(OpenclSelector, ResolvesOnTheInstalledDevices) {
  const std::vector<DeviceInfo> devices = listDevices();
  ASSERT_FALSE(devices.empty()) << "the tests need an OpenCL device (PoCL)";
  const DeviceInfo first = selectDevice("opencl:0:0");
  EXPECT_EQ(first.name, devices.front().name);
  EXPECT_EQ(first.selector(), "opencl:0:0");

  // By a case-flipped piece of the device's name, and of its platform's name.
  std::string piece = first.name.substr(0, std::min<std::size_t>(first.name.size(), 6));
  for (char& c : piece) {
    c = static_cast<char>(std::islower(static_cast<unsigned char>(c)) != 0 ? std::toupper(c)
                                                                           : std::tolower(c));
  }
  EXPECT_EQ(selectDevice("opencl:" + piece).name, first.name) << piece;
  EXPECT_EQ(selectDevice("opencl:" + first.platformName).platformName, first.platformName);

  const DeviceInfo chosen = selectDevice("");
  bool anyGpu = false;
  for (const DeviceInfo& d : devices) {
    anyGpu = anyGpu || d.isGpu();
  }
  EXPECT_EQ(chosen.isGpu(), anyGpu);
  EXPECT_EQ(Context::fromSelector("opencl:0:0").device().name, first.name);
}

TEST(OpenclSelector, UnknownNamesAndIndicesOnTheInstalledDevices) {
  try {
    (void)selectDevice("opencl:nosuchdevice");
    FAIL();
  } catch (const UserError& e) {
    const std::string what = e.what();
    EXPECT_EQ(what.rfind("no OpenCL device matches 'nosuchdevice' (devices: opencl:0:0 (", 0), 0U)
        << what;
  }
  EXPECT_THROW((void)selectDevice("opencl:0:999"), UserError);
  EXPECT_THROW((void)selectDevice("opencl:999:0"), UserError);
  EXPECT_THROW((void)Context::fromSelector("opencl:nosuchdevice"), UserError);
}

}  // namespace
}  // namespace fftc::backends::opencl
