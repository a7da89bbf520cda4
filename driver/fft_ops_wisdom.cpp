// Wisdom for the fft operations of a kernel (fft_ops_wisdom.h).
#include "driver/fft_ops_wisdom.h"

#include <filesystem>

#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "driver/fft_options.h"
#include "driver/options.h"
#include "fftlib/tune/fft_ops_space.h"
#include "fftlib/tune/fft_wisdom.h"
#include "tuner/wisdom.h"

namespace fftc::driver {
namespace {

tuner::WisdomKey keyOf(const KernelProblem& problem, const fftlib::tune::DeviceIdentity& id) {
  return {id.device, id.driver, fftlib::tune::buildIdentity(), fftOpsProblemName(problem)};
}

}  // namespace

std::string fftOpsProblemName(const KernelProblem& problem) {
  return "fft-ops " + problem.name();
}

std::string recordFftOpsWisdom(const std::string& option, const KernelProblem& problem,
                               const fftlib::tune::DeviceIdentity& id,
                               const boost::json::object& config, double ms,
                               boost::json::value extra) {
  const std::string file = wisdomFile(option);
  if (file.empty()) return {};
  tuner::WisdomEntry e;
  e.config = config;
  e.cost = ms;
  e.extra = std::move(extra);
  return tuner::Wisdom::update(file, keyOf(problem, id), std::move(e)) ? file : std::string();
}

bool fftOpsWisdomMayApply(const std::string& option, const KernelProblem& problem) {
  const std::string file = wisdomFile(option);
  return !file.empty() && std::filesystem::exists(file) &&
         tuner::Wisdom::load(file).contains(fftOpsProblemName(problem));
}

std::optional<boost::json::object> fftOpsWisdomConfig(const std::string& option,
                                                      const KernelProblem& problem,
                                                      const fftlib::tune::DeviceIdentity& id,
                                                      std::string& note) {
  const std::string file = wisdomFile(option);
  if (file.empty() || !std::filesystem::exists(file)) return std::nullopt;
  const tuner::Wisdom wisdom = tuner::Wisdom::load(file);
  if (!wisdom.contains(fftOpsProblemName(problem))) return std::nullopt;
  const auto found = wisdom.lookup(keyOf(problem, id));
  if (!found) {
    note = fmt::format("wisdom {}: not used for the fft operations of kernel {}: {}", file,
                       problem.kernel, found.reason);
    return std::nullopt;
  }
  note = fmt::format(
      "wisdom {}: the fft operations of kernel {} planned as {} ({:.4g} ms when "
      "recorded)",
      file, problem.kernel, boost::json::serialize(found.entry->config), found.entry->cost);
  return found.entry->config;
}

fftlib::FftOpsOptions fftOpsChoices(int64_t chainRadix, const std::string& config) {
  fftlib::FftOpsOptions o = fftOpChoices(chainRadix);
  if (config.empty()) return o;
  boost::system::error_code ec;
  const boost::json::value v = boost::json::parse(config, ec);
  if (ec || !v.is_object())
    throw backends::UserError(
        fmt::format("--fft-ops {}: expected a JSON object such as {{\"form0.radices\": [16, 4], "
                    "\"form0.shape\": [16, 4]}}",
                    config));
  fftlib::FftOpsOptions c = fftlib::tune::fftOpsOptionsFromJson(v.as_object());
  c.chainRadix = o.chainRadix;
  return c;
}

}  // namespace fftc::driver
