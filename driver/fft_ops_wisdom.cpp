// Wisdom for the fft operations of a kernel (fft_ops_wisdom.h).
#include "driver/fft_ops_wisdom.h"

#include <algorithm>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "driver/fft_options.h"
#include "driver/options.h"
#include "fftlib/tune/fft_ops_space.h"
#include "fftlib/tune/fft_wisdom.h"
#include "tuner/wisdom.h"

namespace fftc::driver {
std::string fftOpsProblemName(const KernelProblem& problem, const fftlib::FftRequest& limits) {
  return fmt::format("fft-ops {} local-memory={}", problem.name(),
                     fftlib::localMemoryBudget(limits));
}

std::string recordFftOpsWisdom(const std::string& option, const KernelProblem& problem,
                               const fftlib::FftRequest& limits,
                               const fftlib::tune::DeviceIdentity& id,
                               const boost::json::object& config, double ms,
                               boost::json::value extra) {
  tuner::WisdomEntry e;
  e.config = config;
  e.cost = ms;
  e.extra = std::move(extra);
  return recordWisdom(option, fftOpsProblemName(problem, limits), id, std::move(e));
}

std::string formsDiffer(const fftlib::ExpandedFftOps& planned,
                        const fftlib::ExpandedFftOps& heuristic) {
  auto describe = [](const fftlib::ExpandedFftOps& e) {
    std::vector<std::string> forms;
    for (const auto& r : e.formRequests) forms.push_back(fmt::format("{} x {}", r.batch, r.size));
    return fmt::format("[{}]", fmt::join(forms, ", "));
  };
  const auto& a = planned.formRequests;
  const auto& b = heuristic.formRequests;
  const bool same = a.size() == b.size() &&
                    std::equal(a.begin(), a.end(), b.begin(), [](const auto& x, const auto& y) {
                      return x.size == y.size && x.batch == y.batch;
                    });
  if (same) return {};
  return fmt::format("its row maps {} are not the planner's {}", describe(planned),
                     describe(heuristic));
}

std::optional<fftlib::ExpandedFftOps> applyFftOpsWisdom(
    const std::string& option, const KernelProblem& problem, const compiler::frontend::Kernel& k,
    const fftlib::FftRequest& limits, int64_t chainRadix,
    const std::function<fftlib::tune::DeviceIdentity()>& identity) {
  const auto [file, found] = findWisdom(option, fftOpsProblemName(problem, limits), identity);
  if (file.empty()) return std::nullopt;
  if (!found) {
    fmt::print(stderr, "fftc: note: wisdom {}: not used for the fft operations of kernel {}: {}\n",
               file, problem.kernel, found.reason);
    return std::nullopt;
  }
  const std::string config = boost::json::serialize(found.entry->config);
  std::string note = fmt::format(
      "wisdom {}: the fft operations of kernel {} planned as {} ({:.4g} ms when "
      "recorded)",
      file, problem.kernel, config, found.entry->cost);
  std::optional<fftlib::ExpandedFftOps> expanded;
  try {
    expanded = fftlib::expandFftOps(k, limits, fftOpsChoices(chainRadix, config));
    const std::string differ =
        formsDiffer(*expanded, fftlib::expandFftOps(k, limits, fftOpsChoices(chainRadix, "")));
    if (!differ.empty()) throw backends::UserError(differ);
  } catch (const backends::UserError& e) {
    note += fmt::format("; not applied ({}): the planner's plans instead", e.what());
    expanded.reset();
  }
  fmt::print(stderr, "fftc: note: {}\n", note);
  return expanded;
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
