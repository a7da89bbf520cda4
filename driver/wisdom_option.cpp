// --wisdom of fftc fft / run (fft_options.h): which file, and using its entry for a request.
#include <cstdio>
#include <cstdlib>
#include <fmt/format.h>

#include "driver/fft_options.h"
#include "fftlib/tune/fft_wisdom.h"

namespace fftc::driver {

std::string wisdomFile(const std::string& option) {
  if (!option.empty()) return option;
  auto path = fftlib::tune::defaultWisdomPath();
  return path ? path->string() : std::string();
}

std::string useWisdom(const std::string& option, fftlib::FftRequest& request,
                      const std::function<fftlib::tune::DeviceIdentity()>& identity,
                      const fftlib::PlanLimits& limits) {
  const std::string file = wisdomFile(option);
  if (file.empty()) return {};
  const char* env = std::getenv("FFTC_WISDOM");
  const bool named = !option.empty() || (env && *env);
  const auto use = fftlib::tune::applyWisdom(request, file, identity, limits);
  if (use.used) {
    request = use.request;
    return use.note;
  }
  if (named || use.forThisProblem) fmt::print(stderr, "fftc: note: {}\n", use.note);
  return {};
}

}  // namespace fftc::driver
