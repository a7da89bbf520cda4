// Tuning one FFT problem (fft_tune.h).
#include "fftlib/tune/fft_tune.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fmt/format.h>

#include "backends/opencl/binary_cache.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/tune/fft_wisdom.h"
#include "tuner/start_with.h"

namespace fftc::fftlib::tune {

FftTuner::FftTuner(const FftRequest& request, FftExecutor& executor, FftTuneOptions options)
    : request_(request), executor_(&executor), options_(std::move(options)) {
  identity_ = executor.identity();
  problem_ = problemName(request);
  const DeviceLimits device = executor.limits();
  request_ = withLimits(request, device.plan);  // the problem as the device's plans are made
  options_.space.limits.maxWorkGroupSize = device.maxWorkGroupSize;
  options_.space.limits.localMemBytes = device.localMemBytes;
  space_ = std::make_unique<FftSpace>(request_, options_.space);
  if (options_.log) {
    // The build is part of the driver field: measurements of another build are not replayed.
    log_ = std::make_unique<tuner::TuningLog>(
        *options_.log, tuner::LogKey{identity_.device,
                                     identity_.driver + " | " + buildIdentity(), problem_,
                                     fftParameterNames()});
  }
}

FftTuneReport FftTuner::run() {
  FftTuneReport report;
  report.problem = problem_;
  report.key = wisdomKey(request_, identity_);

  FftCost cost(request_, *executor_, options_.cost);
  const auto heuristic = space_->heuristicIndex();
  std::vector<std::uint64_t> first;
  if (options_.startWithHeuristic && heuristic) first.push_back(*heuristic);
  tuner::StartWith technique(first, tuner::makeTechnique(options_.technique));

  tuner::TuneOptions t;
  t.seed = options_.seed;
  t.abort = options_.abort;
  t.log = log_.get();
  t.progress = options_.progress;
  report.result = tuner::tune(
      space_->space(), technique,
      [&](const tuner::Configuration& c) {
        tuner::Result r = cost(space_->request(c));
        if (options_.onMeasured) options_.onMeasured(c, r);
        return r;
      },
      t);

  const tuner::Evaluation* heuristicEval = nullptr;
  if (heuristic)
    for (const auto& e : report.result.evaluations)
      if (e.index == *heuristic && e.result.isValid()) {
        report.heuristicCost = e.result.cost();
        heuristicEval = &e;
      }
  const tuner::Evaluation* best = report.result.best ? &*report.result.best : nullptr;
  // (result.best is a copy: configurations are compared by index)
  if (best && heuristicEval && best->index != heuristicEval->index) {
    best = confirm(report, cost, *heuristicEval);
    report.keptHeuristic = best == heuristicEval;
  }
  if (best) {
    report.bestIsHeuristic = heuristicEval && best->index == heuristicEval->index;
    report.best = space_->request(best->config);
    tuner::WisdomEntry w;
    w.config = best->config.toJson();
    w.cost = report.confirmedBestMs.value_or(best->result.cost());
    boost::json::object extra;
    if (best->result.extra().is_object()) extra = best->result.extra().get_object();
    if (report.keptHeuristic) extra["kept_heuristic"] = true;
    if (report.heuristicCost) extra["heuristic_ms"] = *report.heuristicCost;
    if (report.confirmedHeuristicMs) {
      extra["confirmed_heuristic_ms"] = *report.confirmedHeuristicMs;
      extra["confirmed_ms"] = *report.confirmedBestMs;
    }
    extra["evaluations"] = report.result.evaluations.size();
    extra["space_size"] = space_->space().size();
    w.extra = std::move(extra);
    report.wisdom = std::move(w);
  }
  return report;
}

const tuner::Evaluation* FftTuner::confirm(FftTuneReport& report, const FftCost& cost,
                                           const tuner::Evaluation& heuristic) const {
  const double bar = 1 - options_.minGain;
  std::vector<const tuner::Evaluation*> candidates;
  for (const auto& e : report.result.evaluations)
    if (&e != &heuristic && e.result.isValid() &&
        e.result.cost() <= heuristic.result.cost() * bar)
      candidates.push_back(&e);
  std::stable_sort(candidates.begin(), candidates.end(), [](const auto* a, const auto* b) {
    return a->result.cost() < b->result.cost();
  });
  if (candidates.size() > options_.confirmCandidates) candidates.resize(options_.confirmCandidates);
  if (candidates.empty()) return &heuristic;
  if (options_.confirmRounds == 0) return candidates.front();

  // Alternately, so that a drift of the device (clocks, temperature) touches every one alike.
  std::vector<std::vector<double>> ms(candidates.size() + 1);
  std::vector<bool> failed(candidates.size() + 1, false);
  for (std::size_t round = 0; round < options_.confirmRounds; ++round) {
    if (options_.onConfirm) options_.onConfirm(round, options_.confirmRounds, candidates.size());
    for (std::size_t i = 0; i <= candidates.size(); ++i) {
      if (failed[i]) continue;
      const tuner::Evaluation& e = i == 0 ? heuristic : *candidates[i - 1];
      const tuner::Result r = cost(space_->request(e.config));
      if (r.isValid())
        ms[i].push_back(r.cost());
      else
        failed[i] = true;  // valid once, not again: never recorded
    }
  }
  if (failed[0]) return &heuristic;  // no reference to gain on: the planner's plan stands
  const double heuristicMs = median(ms[0]);
  report.confirmedHeuristicMs = heuristicMs;
  const tuner::Evaluation* chosen = &heuristic;
  double chosenMs = heuristicMs * bar;
  for (std::size_t i = 1; i <= candidates.size(); ++i)
    if (!failed[i] && median(ms[i]) <= chosenMs) {
      chosen = candidates[i - 1];
      chosenMs = median(ms[i]);
    }
  report.confirmedBestMs = chosen == &heuristic ? heuristicMs : chosenMs;
  return chosen;
}

std::optional<std::filesystem::path> defaultLogPath(const std::string& problem,
                                                    const DeviceIdentity& device) {
  auto env = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  std::filesystem::path root;
  if (const char* d = env("FFTC_CACHE_DIR"))
    root = d;
  else if (const char* xdg = env("XDG_CACHE_HOME"))
    root = std::filesystem::path(xdg) / "fftc";
  else if (const char* home = env("HOME"))
    root = std::filesystem::path(home) / ".cache" / "fftc";
  else
    return std::nullopt;
  std::string slug;
  for (char c : problem)
    slug += std::isalnum(static_cast<unsigned char>(c)) ? c : (c == '=' ? '-' : '_');
  backends::opencl::Fnv1a64 h;
  h.addField(device.device).addField(device.driver).addField(buildIdentity());
  return root / "tune" / fmt::format("{}-{:016x}.jsonl", slug, h.value());
}

}  // namespace fftc::fftlib::tune
