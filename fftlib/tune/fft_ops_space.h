// The search space of `fftc tune FILE.fdl` for a kernel with fft operations (issue 24: the
// tuner searches the expansion's choices in context): for each row map that may take the
// one-kernel form (ExpandedFftOps::formRequests), the radices and the work-group shape of its
// plan, from the planner's own candidates for that request (FftSpace's Local configurations,
// each one the planner accepts as the one-kernel form), and on CUDA the __launch_bounds__
// blocks. Configuration -> FftOpsOptions (fft_ops.h), which expandFftOps applies.
//
//   FftOpsSpace s(expandFftOps(kernel, limits), {.limits = ...});
//   FftOpsOptions o = s.options(s.space().at(k));     // then expandFftOps(kernel, limits, o)
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fftlib/plan/fft_ops.h"
#include "fftlib/tune/fft_space.h"
#include "tuner/search_space.h"

namespace fftc::fftlib::tune {

struct FftOpsSpaceOptions {
  DeviceLimits limits;
  // The radices the candidates' sequences are made of (FftSpaceOptions::radices; 32 too: the
  // convolution's wider chains, FftOpsOptions::chainRadix) and the passes above the fewest.
  std::vector<std::int64_t> radices = {2, 3, 4, 5, 7, 8, 11, 13, 16, 32};
  std::int64_t extraPasses = 1;
  // CUDA: the values of minBlocksPerSm searched (0: no bound); empty or OpenCL: none.
  std::vector<std::int64_t> minBlocksPerSm;
};

// The parameters, per row map i: "form<i>.radices" (a radix list; [] the planner's) and
// "form<i>.shape" ([work-items per row, rows per group]; [0, 0] the planner's, for a column tile
// [w, 0]: its columns are columnTileLines'), then "minBlocksPerSm" where searched. The
// configuration of the planner's choices (every [] and [0, 0], no bound) is in the space.
class FftOpsSpace {
 public:
  // `heuristic`: the kernel expanded with the default options (its formRequests). Throws
  // UserError when no row map may take the one-kernel form (nothing to search).
  FftOpsSpace(const ExpandedFftOps& heuristic, FftOpsSpaceOptions options = {});

  const tuner::SearchSpace& space() const { return *space_; }
  std::size_t forms() const { return candidates_.size(); }
  // The row map i's candidate plans ({radices, shape} of the one-kernel form), planner's first.
  const std::vector<FftOpsForm>& candidates(std::size_t i) const { return candidates_.at(i); }
  // "fft 1024 x 16 f32: 12 plans" per row map, and the space's size.
  std::string describe() const;

  // The expansion's options for a configuration (a space's, or a wisdom entry's JSON).
  FftOpsOptions options(const tuner::Configuration& c) const;
  // The planner's configuration (all defaults).
  boost::json::object heuristicConfig() const;

 private:
  std::vector<FftRequest> requests_;
  std::vector<std::vector<FftOpsForm>> candidates_;
  std::unique_ptr<tuner::SearchSpace> space_;
};

// The options a configuration written as JSON (a wisdom entry, `fftc exec --fft-ops`) asks for,
// read without a space: "form<i>.radices", "form<i>.shape", "minBlocksPerSm". Throws UserError
// on another name or a mistyped value.
FftOpsOptions fftOpsOptionsFromJson(const boost::json::object& config);

}  // namespace fftc::fftlib::tune
