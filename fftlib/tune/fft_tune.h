// Tuning one FFT problem on one device: the space (fft_space.h), the cost (fft_cost.h), a
// resumable tuning log and the wisdom entry to record. `fftc tune` and the tests drive it.
//
//   OpenClExecutor device(context);
//   FftTuner tuner(request, device, {.abort = tuner::duration(60), .log = "tune.jsonl"});
//   fmt::print("{}\n", tuner.space().describe());      // the size, before searching
//   FftTuneReport report = tuner.run();
//   if (report.wisdom) tuner::Wisdom::update(path, report.key, *report.wisdom);
#pragma once

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "fftlib/tune/fft_cost.h"
#include "fftlib/tune/fft_space.h"
#include "tuner/tuner.h"
#include "tuner/wisdom.h"

namespace fftc::fftlib::tune {

struct FftTuneOptions {
  FftSpaceOptions space;  // its limits come from the executor (registersPerGroup kept)
  std::string technique = "bandit";  // tuner::makeTechnique names
  std::uint64_t seed = 1;            // the search technique's
  tuner::Abort abort;                // null: until the space or the technique is exhausted
  std::optional<std::filesystem::path> log;  // resumable JSON-lines log
  CostOptions cost;
  // Evaluate the planner's heuristic configuration first (when the space holds it), so the
  // tuned plan is never one the heuristic beats.
  bool startWithHeuristic = true;
  // The wisdom records a configuration other than the heuristic one only when it measured at
  // least this fraction faster (timing noise is not a gain: otherwise the heuristic plan,
  // which `fftc run` then builds exactly as without wisdom).
  double minGain = 0.02;
  // Confirmation after the search: the `confirmCandidates` fastest configurations that gained
  // at least minGain are timed again with the heuristic one, alternately, `confirmRounds` times
  // each (a fresh plan and build each time, as `fftc run` makes); the wisdom records the
  // candidate whose median time still gains minGain on the heuristic's median, the fastest such.
  // One lucky measurement during the search is not a gain. 0 rounds: the search's times decide.
  std::size_t confirmRounds = 3;
  std::size_t confirmCandidates = 3;
  // Called before each confirmation round (0-based) with the number of candidates.
  std::function<void(std::size_t round, std::size_t rounds, std::size_t candidates)> onConfirm;
  tuner::ProgressCallback progress;
  // Called after each measured (not replayed) configuration, e.g. for a verbose listing.
  std::function<void(const tuner::Configuration&, const tuner::Result&)> onMeasured;
};

struct FftTuneReport {
  std::string problem;
  tuner::WisdomKey key;
  tuner::TuningResult result;
  std::optional<FftRequest> best;         // the request of the best valid configuration
  std::optional<tuner::WisdomEntry> wisdom;  // the entry to record (none: nothing valid)
  std::optional<double> heuristicCost;    // when the heuristic configuration was valid
  // the best beat the heuristic by less than minGain, or no candidate kept its gain in the
  // confirmation: the heuristic configuration is recorded
  bool keptHeuristic = false;
  // the recorded configuration is the heuristic one (kept, or the fastest measured)
  bool bestIsHeuristic = false;
  // The confirmation's medians (ms) of the heuristic and of the recorded configuration, when
  // one ran.
  std::optional<double> confirmedHeuristicMs, confirmedBestMs;
};

class FftTuner {
 public:
  FftTuner(const FftRequest& request, FftExecutor& executor, FftTuneOptions options = {});

  const FftSpace& space() const { return *space_; }
  const std::string& problem() const { return problem_; }
  // The log's path; where it was cut or where lines outside the space were found, warnings.
  const tuner::TuningLog* log() const { return log_.get(); }

  // Searches; may be called once.
  FftTuneReport run();

 private:
  // The confirmation (FftTuneOptions::confirmRounds): the configuration to record.
  const tuner::Evaluation* confirm(FftTuneReport& report, const FftCost& cost,
                                   const tuner::Evaluation& heuristic) const;

  FftRequest request_;
  FftExecutor* executor_;
  FftTuneOptions options_;
  DeviceIdentity identity_;
  std::string problem_;
  std::unique_ptr<FftSpace> space_;
  std::unique_ptr<tuner::TuningLog> log_;
};

// The default tuning log of a problem on a device and build:
// CACHE/tune/<problem>-<hash of device, driver, build>.jsonl, CACHE being $FFTC_CACHE_DIR,
// else $XDG_CACHE_HOME/fftc, else ~/.cache/fftc; nullopt without any of them.
std::optional<std::filesystem::path> defaultLogPath(const std::string& problem,
                                                    const DeviceIdentity& device);

}  // namespace fftc::fftlib::tune
