// The tuning loop: a search technique proposes configurations of a space, a cost function
// measures them, the log replays what an earlier run measured, abort conditions end it.
#pragma once

#include "tuner/abort_condition.h"
#include "tuner/progress.h"
#include "tuner/search_technique.h"
#include "tuner/tuning_log.h"

namespace fftc::tuner {

struct TuneOptions {
  std::uint64_t seed = 0;
  Abort abort;               // null: until the technique or the space is exhausted
  TuningLog* log = nullptr;  // results found there are replayed, new ones appended
  ProgressCallback progress;
  // Stop after this many proposals in a row of configurations already evaluated in this run
  // (a technique circling in a fully explored region).
  std::uint64_t maxRepeats = 10000;
};

struct Evaluation {
  std::uint64_t index = 0;
  Configuration config;
  Result result;
  double seconds = 0;  // time the cost function took (0 when replayed)
  bool replayed = false;
};

struct TuningResult {
  std::optional<Evaluation> best;       // the cheapest valid evaluation, first found on ties
  std::vector<Evaluation> evaluations;  // in order; each configuration once
  std::uint64_t measured = 0, replayed = 0, invalid = 0;
  double seconds = 0;
  std::string stopReason;
  std::vector<std::string> warnings;  // e.g. log lines outside the space
};

// Runs the search. Each distinct configuration is evaluated once: a repeated proposal is
// answered from memory, and one found in the log is replayed (counted as an evaluation but not
// measured) so that a seeded search continues exactly as the interrupted run would have. The
// cost function's exceptions become invalid results.
TuningResult tune(const SearchSpace& space, SearchTechnique& technique, const CostFunction& cost,
                  const TuneOptions& options = {});

}  // namespace fftc::tuner
