// Wisdom for general kernels (kernel_wisdom.h).
#include "driver/kernel_wisdom.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif
#include "backends/common/device_error.h"
#include "backends/opencl/context.h"
#include "compiler/frontend/frontend.h"
#include "driver/fft_options.h"
#include "fftlib/tune/fft_wisdom.h"

namespace fftc::driver {

std::string KernelProblem::name() const {
  // the file's text, not its path, decides (a copy elsewhere is the same kernel); -D bindings
  // sorted without blanks, so that their order and spacing do not matter
  const std::string text = compiler::frontend::readSourceFile(file);
  std::vector<std::string> ds;
  for (std::string d : defines) {
    d.erase(std::remove(d.begin(), d.end(), ' '), d.end());
    ds.push_back(d);
  }
  std::sort(ds.begin(), ds.end());
  return fmt::format("kernel {} file={}#{:016x} {} {}{}{}", kernel,
                     std::filesystem::path(file).filename().string(),
                     std::hash<std::string>{}(text), precision, target, ds.empty() ? "" : " -D ",
                     fmt::join(ds, ","));
}

std::string recordWisdom(const std::string& option, const std::string& problem,
                         const fftlib::tune::DeviceIdentity& id, tuner::WisdomEntry e) {
  const std::string file = wisdomFile(option);
  if (file.empty()) return {};
  const tuner::WisdomKey key{id.device, id.driver, fftlib::tune::buildIdentity(), problem};
  return tuner::Wisdom::update(file, key, std::move(e)) ? file : std::string();
}

bool wisdomMayApply(const std::string& option, const std::string& problem) {
  const std::string file = wisdomFile(option);
  return !file.empty() && std::filesystem::exists(file) &&
         tuner::Wisdom::load(file).contains(problem);
}

FoundWisdom findWisdom(const std::string& option, const std::string& problem,
                       const std::function<fftlib::tune::DeviceIdentity()>& identity) {
  const std::string file = wisdomFile(option);
  if (file.empty() || !std::filesystem::exists(file)) return {};
  const tuner::Wisdom wisdom = tuner::Wisdom::load(file);
  if (!wisdom.contains(problem)) return {};
  const fftlib::tune::DeviceIdentity id = identity();
  return {file, wisdom.lookup({id.device, id.driver, fftlib::tune::buildIdentity(), problem})};
}

std::string recordKernelWisdom(const std::string& option, const KernelProblem& problem,
                               const fftlib::tune::DeviceIdentity& id, const std::string& strategy,
                               double ms, const boost::json::object& config) {
  tuner::WisdomEntry e;
  e.config = config;
  e.config["strategy"] = strategy;
  e.cost = ms;
  return recordWisdom(option, problem.name(), id, std::move(e));
}

bool kernelWisdomMayApply(const std::string& option, const KernelProblem& problem) {
  return wisdomMayApply(option, problem.name());
}

std::optional<std::string> kernelWisdomStrategy(const std::string& option,
                                                const KernelProblem& problem,
                                                const fftlib::tune::DeviceIdentity& id,
                                                std::string& note) {
  const auto [file, found] = findWisdom(option, problem.name(), [&] { return id; });
  if (file.empty()) return std::nullopt;
  const auto* s = found ? found.entry->config.if_contains("strategy") : nullptr;
  if (!s || !s->is_string()) {
    note = fmt::format("wisdom {}: not used for kernel {}: {}", file, problem.kernel,
                       found ? "the entry has no strategy" : found.reason);
    return std::nullopt;
  }
  note = fmt::format("wisdom {}: kernel {} rewritten by '{}' ({:.4g} ms when recorded)", file,
                     problem.kernel, s->as_string().c_str(), found.entry->cost);
  return std::string(s->as_string());
}

fftlib::tune::DeviceIdentity deviceIdentity(compiler::pipeline::Target target,
                                            const std::string& selector) {
  if (target == compiler::pipeline::Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
    return fftlib::tune::cudaIdentity(
        backends::cuda::Context::open(selector.empty() ? "cuda:0" : selector));
#else
    throw backends::UserError("--device cuda: this fftc was built without CUDA");
#endif
  }
  return fftlib::tune::openClIdentity(backends::opencl::Context::fromSelector(selector).device());
}

}  // namespace fftc::driver
