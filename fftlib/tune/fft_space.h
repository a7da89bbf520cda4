// The FFT plan space of `fftc tune`: for one request (size, batch, precision, direction,
// target), the variants, radix sequences and work-group shapes the planner can build, as a tuner
// SearchSpace (chain of trees), with the pruning heuristics of Dotsenko et al. (SC'11, sec. 5).
//
//   FftSpace space(request, {.limits = {.maxWorkGroupSize = 1024, .localMemBytes = 49152}});
//   fmt::print("{}\n", space.describe());                 // size, per variant, before searching
//   FftRequest r = space.request(space.space().at(k));    // what planFft builds for config k
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "fftlib/plan/planner.h"
#include "tuner/search_space.h"

namespace fftc::fftlib::tune {

// What the device allows; the space never holds a shape beyond these.
struct DeviceLimits {
  std::int64_t maxWorkGroupSize = 1024;
  std::int64_t localMemBytes = 48 * 1024;
  // The limits the device's plans are made under (CUDA: cudaPlanLimits, the opt-in shared
  // memory). The tuner plans the problem under them (withLimits), as the plans it compares
  // with are made.
  PlanLimits plan;
  // Dotsenko's register bound: 32-bit registers one work-group may use (NVIDIA: 64 K per SM).
  std::int64_t registersPerGroup = 65536;
};

struct FftSpaceOptions {
  DeviceLimits limits;
  // The variants to search; empty: every variant that applies to the size (stockham, twiddle,
  // cooley-tukey, hierarchical, local for 13-smooth sizes, isSmooth; bluestein otherwise).
  std::vector<Variant> variants;
  // Radices of the passes; the heuristic plan's radices are always added (e.g. 10 for 1000).
  std::vector<std::int64_t> radices = {2, 3, 4, 5, 7, 8, 11, 13, 16};
  // Radix sequences up to this many passes more than the fewest the radices allow.
  std::int64_t extraPasses = 1;
  // Dotsenko sec. 5.2: drop a sequence holding r_i, r_j and r_i * r_j (one larger pass does
  // the work of two; e.g. [4, 4, 16] for 256 when [16, 16] exists). Their own pruning.
  bool pruneAssimilated = true;
  // Bluestein: the padded size M runs over the first `bluesteinSizes` 2,3,5,7-smooth sizes
  // >= 2N - 1 (and the next power of two, and the planner's M). Each M's radix sequences are
  // planned as given radices: one kernel when M fits, else bluesteinFourStep cut after the
  // prefix of the largest product <= sqrt(M) whose halves fit (docs/fft-api.md).
  std::int64_t bluesteinSizes = 2;
  // FFTs per work-group: powers of two up to this many (and the batch).
  std::int64_t maxFftsPerGroup = 64;
  // Rewrite strategies for the lowering ("lowerFft" is the planner's default).
  std::vector<std::string> rewrites = {"lowerFft"};
  // Asks the planner whether it can build a configuration (default: choosePlan does not throw
  // UserError). The space holds only configurations this accepts, so the planner's rules live
  // in the planner alone.
  std::function<bool(const FftRequest&)> validate;
};

// choosePlan(r) without a UserError.
bool plannerAccepts(const FftRequest& r);

// The parameter names, in order: variant, radices, workgroupSize, fftsPerGroup, rewrite,
// passGroups, levels (hierarchical: 2 or 3 kernels; 0 for the other variants), levelSizes
// (hierarchical: the level sizes n_i, each a product of consecutive radices; [] for the other
// variants). workgroupSize and fftsPerGroup are 0 ("the planner chooses") for the variants
// without a work-group shape; N-D and real requests have variant "auto" and radices [] (each
// dimension's are the planner's), and N-D complex ones every grouping of their dimensions
// into passes (passGroups; [] is the planner's choice, ndLocal where it applies); a tuning log
// and a wisdom entry name exactly these.
const std::vector<std::string>& fftParameterNames();

// The request for a configuration ({"variant": "local", "radices": [4, 4], ...}) on top of
// `base` (its size, batch, precision, direction, scale, target). Throws tuner::TunerError on a
// missing or mistyped parameter and UserError on an unknown variant name.
FftRequest requestFor(const FftRequest& base, const boost::json::object& config);

// The configuration that the planner's heuristics would build for `base` (variant auto),
// written in the space's parameters.
boost::json::object heuristicConfig(const FftRequest& base);

class FftSpace {
 public:
  // Builds the space for `base` (its variant and radices, when set, fix those parameters: the
  // request's options narrow the search). Throws UserError for a request the planner rejects.
  FftSpace(const FftRequest& base, FftSpaceOptions options = {});

  const tuner::SearchSpace& space() const { return *space_; }
  const FftRequest& base() const { return base_; }
  const FftSpaceOptions& options() const { return options_; }

  FftRequest request(const tuner::Configuration& c) const;
  // The index of the heuristic plan's configuration, when the space holds it.
  std::optional<std::uint64_t> heuristicIndex() const;
  // Configurations per variant, in the order of the variant parameter.
  std::vector<std::pair<std::string, std::uint64_t>> sizePerVariant() const;
  // "N configurations ... built in ...; stockham 12, local 40, ...".
  std::string describe() const;

 private:
  FftRequest base_;
  FftSpaceOptions options_;
  std::vector<std::string> variantNames_;
  std::unique_ptr<tuner::SearchSpace> space_;
};

}  // namespace fftc::fftlib::tune
