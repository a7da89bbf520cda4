#include "backends/opencl/selector.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

#include "backends/common/device_error.h"

namespace fftc::backends::opencl {
namespace {

constexpr std::string_view kPrefix = "opencl";
constexpr const char* kNoPlatform =
    "no OpenCL platform found (is an ICD such as pocl-opencl-icd installed?)";

std::optional<std::size_t> parseIndex(std::string_view text) {
  std::size_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc() || ptr != end) {
    return std::nullopt;
  }
  return value;
}

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string_view trim(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

std::size_t platformCount(const std::vector<DeviceInfo>& devices) {
  std::size_t count = 0;
  for (const DeviceInfo& d : devices) {
    count = std::max(count, d.platformIndex + 1);
  }
  return count;
}

std::string plural(std::size_t n, std::string_view word) {
  return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s");
}

DeviceInfo selectByIndex(const std::vector<DeviceInfo>& devices, const Selector& s) {
  const std::size_t platforms = platformCount(devices);
  if (s.platform >= platforms) {
    throw UserError(fmt::format("OpenCL platform index {} is out of range (there {} {})",
                                s.platform, platforms == 1 ? "is" : "are",
                                plural(platforms, "platform")));
  }
  std::size_t onPlatform = 0;
  for (const DeviceInfo& d : devices) {
    if (d.platformIndex == s.platform) {
      if (d.deviceIndex == s.device) {
        return d;
      }
      ++onPlatform;
    }
  }
  throw UserError(fmt::format("OpenCL device index {} is out of range (platform {} has {})",
                              s.device, s.platform, plural(onPlatform, "device")));
}

DeviceInfo selectByName(const std::vector<DeviceInfo>& devices, const Selector& s) {
  const std::string needle = lower(s.name);
  for (const DeviceInfo& d : devices) {
    if (lower(d.name).find(needle) != std::string::npos ||
        lower(d.platformName).find(needle) != std::string::npos) {
      return d;
    }
  }
  std::string available;
  for (const DeviceInfo& d : devices) {
    available += fmt::format("{}{} ({})", available.empty() ? "" : ", ", d.selector(), d.name);
  }
  throw UserError(fmt::format("no OpenCL device matches '{}' (devices: {})", s.name, available));
}

}  // namespace

Selector parseSelector(std::string_view text) {
  const std::string_view original = text;
  text = trim(text);
  if (text.empty() || text == kPrefix) {
    return {};
  }
  if (!text.starts_with(kPrefix) || text.size() == kPrefix.size() || text[kPrefix.size()] != ':') {
    throw UserError(
        fmt::format("malformed OpenCL device selector '{}': expected opencl:P:D or "
                    "opencl:NAME",
                    original));
  }
  const std::string_view rest = text.substr(kPrefix.size() + 1);
  if (trim(rest).empty()) {
    throw UserError(
        fmt::format("malformed OpenCL device selector '{}': nothing after 'opencl:'", original));
  }
  const std::size_t colon = rest.find(':');
  if (colon == std::string_view::npos) {
    return Selector{Selector::Kind::Name, 0, 0, std::string(rest)};
  }
  const auto platform = parseIndex(rest.substr(0, colon));
  const auto device = parseIndex(rest.substr(colon + 1));
  if (!platform || !device) {
    throw UserError(
        fmt::format("malformed OpenCL device selector '{}': expected opencl:P:D "
                    "with two non-negative integers",
                    original));
  }
  return Selector{Selector::Kind::Index, *platform, *device, {}};
}

DeviceInfo selectDevice(const std::vector<DeviceInfo>& devices, std::string_view selector) {
  const Selector s = parseSelector(selector);  // Malformed input is reported first.
  if (devices.empty()) {
    throw DeviceError(kNoPlatform);
  }
  switch (s.kind) {
    case Selector::Kind::Index:
      return selectByIndex(devices, s);
    case Selector::Kind::Name:
      return selectByName(devices, s);
    case Selector::Kind::Default:
      break;
  }
  const auto gpu =
      std::find_if(devices.begin(), devices.end(), [](const DeviceInfo& d) { return d.isGpu(); });
  return gpu != devices.end() ? *gpu : devices.front();
}

DeviceInfo selectDevice(std::string_view selector) {
  (void)parseSelector(selector);
  return selectDevice(listDevices(), selector);
}

}  // namespace fftc::backends::opencl
