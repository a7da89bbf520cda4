#include "tuner/tuner.h"

#include <fmt/format.h>

#include <chrono>
#include <unordered_map>

namespace fftc::tuner {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

// The log's results by configuration index; lines that do not fit the space become warnings.
std::unordered_map<std::uint64_t, Result> loggedResults(const SearchSpace& space,
                                                        const TuningLog& log,
                                                        std::vector<std::string>& warnings) {
  if (log.key().parameters != *space.names())
    throw TunerError(fmt::format("{}: the log's parameters ({}) are not the space's ({})",
                                 log.path().string(), fmt::join(log.key().parameters, ", "),
                                 fmt::join(*space.names(), ", ")));
  std::unordered_map<std::uint64_t, Result> results;
  for (const auto& e : log.entries()) {
    std::optional<std::uint64_t> k;
    try {
      k = space.indexOf(e.config);
    } catch (const TunerError& err) {
      warnings.push_back(fmt::format("{}:{}: {}", log.path().string(), e.line, err.what()));
      continue;
    }
    if (!k)
      warnings.push_back(fmt::format("{}:{}: configuration {} is not in the search space; ignored",
                                     log.path().string(), e.line,
                                     boost::json::serialize(e.config)));
    else
      results.try_emplace(*k, e.result);
  }
  return results;
}

}  // namespace

TuningResult tune(const SearchSpace& space, SearchTechnique& technique, const CostFunction& cost,
                  const TuneOptions& options) {
  const auto start = Clock::now();
  TuningResult res;
  std::unordered_map<std::uint64_t, Result> logged;
  if (options.log) logged = loggedResults(space, *options.log, res.warnings);
  std::unordered_map<std::uint64_t, std::size_t> done;  // index -> position in evaluations
  TuningStatus st;
  st.spaceSize = space.size();

  auto report = [&](bool finished) {
    if (!options.progress) return;
    Progress p;
    p.evaluations = st.evaluations;
    p.measured = res.measured;
    p.replayed = res.replayed;
    p.invalid = res.invalid;
    p.spaceSize = st.spaceSize;
    p.bestCost = st.bestCost;
    if (res.best) p.bestConfiguration = res.best->config.toString();
    p.elapsedSeconds = secondsSince(start);
    if (options.abort) p.secondsLeft = options.abort->secondsLeft(st);
    p.finished = finished;
    options.progress(p);
  };

  technique.initialize(space, options.seed);
  std::uint64_t repeats = 0;
  for (;;) {
    st.elapsedSeconds = secondsSince(start);
    if (space.empty()) {
      res.stopReason = "the search space is empty";
      break;
    }
    if (options.abort && options.abort->reached(st)) {
      res.stopReason = "reached " + options.abort->describe();
      break;
    }
    if (st.evaluations >= space.size()) {
      res.stopReason = "every configuration of the space was evaluated";
      break;
    }
    auto k = technique.next();
    if (!k) {
      res.stopReason = "the search technique has nothing left to propose";
      break;
    }
    if (auto it = done.find(*k); it != done.end()) {
      technique.report(*k, res.evaluations[it->second].result);
      if (++repeats >= options.maxRepeats) {
        res.stopReason = fmt::format(
            "the search technique proposed {} already evaluated configurations in a row", repeats);
        break;
      }
      continue;
    }
    repeats = 0;
    Evaluation ev;
    ev.index = *k;
    ev.config = space.at(*k);
    if (auto it = logged.find(*k); it != logged.end()) {
      ev.result = it->second;
      ev.replayed = true;
      ++res.replayed;
    } else {
      const auto t0 = Clock::now();
      ev.result = evaluateSafely(cost, ev.config);
      ev.seconds = secondsSince(t0);
      ++res.measured;
      if (options.log) options.log->append(ev.config, ev.result, ev.seconds);
    }
    ++st.evaluations;
    if (!ev.result.isValid()) {
      ++res.invalid;
      ++st.sinceImprovement;
    } else {
      ++st.validEvaluations;
      if (!st.bestCost || ev.result.cost() < *st.bestCost) {
        st.bestCost = ev.result.cost();
        st.sinceImprovement = 0;
        res.best = ev;
      } else {
        ++st.sinceImprovement;
      }
    }
    done.emplace(*k, res.evaluations.size());
    res.evaluations.push_back(ev);
    technique.report(*k, ev.result);
    report(false);
  }
  res.seconds = secondsSince(start);
  report(true);
  return res;
}

}  // namespace fftc::tuner
