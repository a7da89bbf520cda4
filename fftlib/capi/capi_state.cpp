// The C API's shared state (capi_state.h): errors, devices, wisdom.
#include "fftlib/capi/capi_state.h"

#include <boost/json.hpp>
#include <cstdlib>
#include <fmt/format.h>
#include <map>
#include <mutex>

#include "backends/common/device_error.h"
#include "tuner/wisdom.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/device.h"
#include "fftlib/plan/cuda_plan.h"
#endif

namespace fftc::fftlib::capi {

namespace cl = backends::opencl;
using backends::UserError;

namespace {

thread_local std::string lastErrorText;

// Devices and wisdom live as long as the process: a C program may exit with plans it never
// destroyed, and those hold contexts that must not be torn down under them by static
// destructors (PoCL and the CUDA driver unload at exit themselves).
struct State {
  std::mutex mutex;
  std::map<std::string, std::shared_ptr<const Device>> devices;
  std::optional<std::string> selected;  // fftc_set_device
  tuner::Wisdom wisdom;
};

State& state() {
  static State* s = new State;  // never destroyed: see State
  return *s;
}

bool isCudaSelector(const std::string& selector) { return selector.rfind("cuda", 0) == 0; }

// Opens the device of `selector` (the lock held).
std::shared_ptr<const Device> openLocked(State& s, const std::string& selector) {
  if (auto it = s.devices.find(selector); it != s.devices.end()) return it->second;
  auto device = std::make_shared<Device>();
  device->selector = selector;
  if (isCudaSelector(selector)) {
#ifdef FFTC_HAVE_CUDA
    device->cuda.emplace(backends::cuda::Context::open(selector));
#else
    throw UserError(fmt::format("device '{}': this fftc was built without CUDA", selector));
#endif
  } else {
    device->opencl.emplace(cl::Context::fromSelector(selector));
  }
  s.devices.emplace(selector, device);
  return device;
}

}  // namespace

void setLastError(std::string message) { lastErrorText = std::move(message); }
void clearLastError() { lastErrorText.clear(); }
const char* lastError() { return lastErrorText.c_str(); }

compiler::pipeline::Target Device::target() const {
  return opencl ? compiler::pipeline::Target::OpenCL : compiler::pipeline::Target::Cuda;
}

tune::DeviceIdentity Device::identity() const {
#ifdef FFTC_HAVE_CUDA
  if (cuda) return tune::CudaExecutor(*cuda).identity();
#endif
  return tune::openClIdentity(opencl->device());
}

PlanLimits Device::limits() const {
#ifdef FFTC_HAVE_CUDA
  if (cuda) return cudaPlanLimits(cuda->device());
#endif
  return {};
}

void setDevice(const std::string& selector) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  (void)openLocked(s, selector);
  s.selected = selector;
}

std::shared_ptr<const Device> currentDevice() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  std::string selector;
  if (s.selected) {
    selector = *s.selected;
  } else if (const char* env = std::getenv("FFTC_DEVICE")) {
    selector = env;
  }
  try {
    return openLocked(s, selector);
  } catch (const std::exception& e) {
    if (s.selected) throw;
    throw UserError(fmt::format("FFTC_DEVICE={}: {}", selector, e.what()));
  }
}

void importWisdom(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file))
    throw UserError(fmt::format("wisdom: {}: no such file", file.string()));
  const tuner::Wisdom loaded = tune::loadWisdom(file);  // range-checked; UserError
  const boost::json::value all = loaded.toJson();
  State& s = state();
  std::lock_guard lock(s.mutex);
  for (const auto& item : all.at("entries").as_array()) {
    const auto& o = item.as_object();
    auto str = [&](const char* field) { return std::string(o.at(field).as_string()); };
    tuner::WisdomEntry entry;
    entry.config = o.at("config").as_object();
    entry.cost = o.at("cost").to_number<double>();
    if (const auto* extra = o.if_contains("extra")) entry.extra = *extra;
    entry.recorded = str("recorded");
    s.wisdom.record({str("device"), str("driver"), str("build"), str("problem")},
                    std::move(entry), /*onlyIfBetter=*/false);
  }
}

void exportWisdom(const std::filesystem::path& file) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  try {
    s.wisdom.save(file);
  } catch (const std::exception& e) {  // TunerError, filesystem_error
    throw UserError(fmt::format("wisdom: {}", e.what()));
  }
}

void forgetWisdom() {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.wisdom = tuner::Wisdom();
}

void recordWisdom(const tuner::WisdomKey& key, const tuner::WisdomEntry& entry) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  s.wisdom.record(key, entry);
}

tune::WisdomUse lookupWisdom(const FftRequest& request, const Device& device) {
  State& s = state();
  std::lock_guard lock(s.mutex);
  return tune::applyWisdom(request, s.wisdom, "the wisdom in memory",
                           [&device] { return device.identity(); }, device.limits());
}

}  // namespace fftc::fftlib::capi
