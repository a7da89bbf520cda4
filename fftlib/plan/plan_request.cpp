// The planner's request (plan_request.h): names and parsers of its options, the cache key,
// the device limits it is planned under, and the checks every plan shares.
#include "fftlib/plan/plan_request.h"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "fftlib/plan/plan_choice.h"

namespace fftc::fftlib {
namespace {

using backends::UserError;

// Indices in generated code are 32-bit ints.
constexpr int64_t kMaxElements = int64_t{1} << 30;

}  // namespace

std::string listText(const std::vector<int64_t>& v) {
  return fmt::format("[{}]", fmt::join(v, ", "));
}

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t r : v) p *= r;
  return p;
}

std::string precisionName(Precision p) {
  return p == Precision::F64 ? "f64" : "f32";
}

int64_t complexBytes(Precision p) {
  return p == Precision::F64 ? 16 : 8;
}

Precision parsePrecision(std::string_view text) {
  if (text == "f32") return Precision::F32;
  if (text == "f64") return Precision::F64;
  throw UserError(fmt::format("precision '{}': expected f32 or f64", text));
}

std::string directionName(Direction d) {
  return d == Direction::Inverse ? "inverse" : "forward";
}

Direction parseDirection(std::string_view text) {
  if (text == "forward") return Direction::Forward;
  if (text == "inverse") return Direction::Inverse;
  throw UserError(fmt::format("direction '{}': expected forward or inverse", text));
}

std::string variantName(Variant v) {
  switch (v) {
    case Variant::Auto:
      return "auto";
    case Variant::Stockham:
      return "stockham";
    case Variant::StockhamTwiddle:
      return "twiddle";
    case Variant::CooleyTukey:
      return "cooley-tukey";
    case Variant::Hierarchical:
      return "hierarchical";
    case Variant::Bluestein:
      return "bluestein";
    case Variant::Local:
      return "local";
  }
  return "?";
}

std::vector<int64_t> parseDims(std::string_view text, std::string_view what) {
  std::vector<int64_t> dims;
  int64_t total = 1;
  std::string_view rest = text;
  for (bool more = true; more;) {
    const size_t x = rest.find_first_of("xX");
    more = x != std::string_view::npos;
    const std::string_view part = rest.substr(0, x);
    const bool digits =
        !part.empty() && part.size() <= 18 &&
        std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); });
    const int64_t d = digits ? std::stoll(std::string(part)) : 0;
    if (d < 1 || total > (int64_t{1} << 40) / d)
      throw UserError(
          fmt::format("{} {}: dimensions must be positive integers and their product "
                      "at most 2^40",
                      what, text));
    total *= d;
    dims.push_back(d);
    if (more) rest = rest.substr(x + 1);
  }
  return dims;
}

Variant parseVariant(std::string_view text) {
  if (text == "auto") return Variant::Auto;
  if (text == "stockham") return Variant::Stockham;
  if (text == "twiddle" || text == "stockham-twiddle" || text == "stockhamTwiddle")
    return Variant::StockhamTwiddle;
  if (text == "cooley-tukey" || text == "cooleytukey" || text == "cooleyTukey" || text == "ct")
    return Variant::CooleyTukey;
  if (text == "hierarchical" || text == "four-step") return Variant::Hierarchical;
  if (text == "bluestein") return Variant::Bluestein;
  if (text == "local") return Variant::Local;
  throw UserError(fmt::format(
      "variant '{}': expected auto, stockham, twiddle, cooley-tukey, hierarchical, bluestein "
      "or local",
      text));
}

std::string FftRequest::key() const {
  return fmt::format("N={} B={} {} {} scale={} {} rs={} {} wg={} fpg={} fmt={} strategy={}", size,
                     batch, precisionName(precision), directionName(direction), scale ? 1 : 0,
                     variantName(variant), listText(radices),
                     compiler::pipeline::targetName(target), workgroupSize, fftsPerGroup,
                     format ? 1 : 0, strategy) +
         (localMemoryBytes ? fmt::format(" local={}", localMemoryBytes) : "") +
         (levels ? fmt::format(" levels={}", levels) : "") +
         (minBlocksPerSm ? fmt::format(" minBlocks={}", minBlocksPerSm) : "") +
         (clusterBlocks ? fmt::format(" cluster={}", clusterBlocks) : "") +
         (levelSizes.empty() ? "" : fmt::format(" levelSizes={}", listText(levelSizes))) +
         (dims.size() >= 2 ? fmt::format(" dims={} groups={}", listText(dims), listText(passGroups))
                           : "") +
         (real ? " real" : "") + (inLayout.isDefault() ? "" : " in: " + layoutText(*this, true)) +
         (outLayout.isDefault() ? "" : " out: " + layoutText(*this, false)) +
         (pre.empty() ? "" : " pre=" + callbackKey(pre)) +
         (post.empty() ? "" : " post=" + callbackKey(post));
}

FftRequest withLimits(const FftRequest& request, const PlanLimits& limits) {
  FftRequest r = request;
  if (r.localMemoryBytes == 0) r.localMemoryBytes = limits.localMemoryBytes;
  return r;
}

std::vector<int64_t> requestDims(const FftRequest& r) {
  if (r.dims.size() >= 2) return r.dims;
  return {r.size};
}

void checkRequest(const FftRequest& r) {
  if (r.dims.size() == 1 && r.dims[0] != r.size)
    throw UserError(fmt::format("dims [{}] and size {} differ", r.dims[0], r.size));
  if (r.size < 1) throw UserError(fmt::format("FFT size {}: must be at least 1", r.size));
  if (r.batch < 1) throw UserError(fmt::format("batch {}: must be at least 1", r.batch));
  for (int64_t x : r.radices)
    if (x < 2)
      throw UserError(
          fmt::format("radix {} in {}: radices must be at least 2", x, listText(r.radices)));
  if (r.size > kMaxElements / r.batch)
    throw UserError(fmt::format("N x batch = {} x {}: more than 2^30 elements (32-bit indices)",
                                r.size, r.batch));

  // __launch_bounds__' second argument: CUDA's alone, and no SM holds more than 32 blocks
  if (r.minBlocksPerSm < 0 || r.minBlocksPerSm > 32)
    throw UserError(fmt::format("minimum blocks a multiprocessor {}: expected 1 to 32 (0: none)",
                                r.minBlocksPerSm));
  if (r.minBlocksPerSm > 0 && r.target != compiler::pipeline::Target::Cuda)
    throw UserError(fmt::format("minimum blocks a multiprocessor {}: a CUDA target's "
                                "__launch_bounds__; the OpenCL target has none",
                                r.minBlocksPerSm));
  if (r.clusterBlocks != 0 && (r.clusterBlocks < 2 || r.clusterBlocks > 8))
    throw UserError(fmt::format("cluster {}: a thread-block cluster of 2 to 8 blocks (0: none)",
                                r.clusterBlocks));
  if (r.clusterBlocks != 0 && r.target != compiler::pipeline::Target::Cuda)
    throw UserError(fmt::format("cluster {}: thread-block clusters are CUDA's (sm_90); the "
                                "OpenCL target has none",
                                r.clusterBlocks));
  if (r.levels != 0 && r.levels != 2 && r.levels != 3)
    throw UserError(
        fmt::format("levels {}: the hierarchical FFT has 2 or 3 (0: the planner "
                    "chooses)",
                    r.levels));
  if (!r.levelSizes.empty()) {
    const auto k = static_cast<int64_t>(r.levelSizes.size());
    if (k != 2 && k != 3)
      throw UserError(fmt::format("level sizes {}: the hierarchical FFT has 2 or 3 levels",
                                  listText(r.levelSizes)));
    if (r.levels != 0 && r.levels != k)
      throw UserError(fmt::format("level sizes {} with levels {}: {} levels given",
                                  listText(r.levelSizes), r.levels, k));
    for (int64_t n : r.levelSizes)
      if (n < 2)
        throw UserError(
            fmt::format("level sizes {}: each level is at least 2", listText(r.levelSizes)));
    if (product(r.levelSizes) != r.size)
      throw UserError(fmt::format("level sizes {}: their product is {}, not the size {}",
                                  listText(r.levelSizes), product(r.levelSizes), r.size));
  }
}

void checkNdRequest(const FftRequest& r, const std::vector<int64_t>& dims) {
  int64_t total = 1;
  for (int64_t d : dims) {
    if (d < 1)
      throw UserError(
          fmt::format("dimension {} in {}: must be at least 1", d, fmt::join(dims, "x")));
    if (total > (int64_t{1} << 30) / d)
      throw UserError(
          fmt::format("size {}: more than 2^30 elements (32-bit indices)", fmt::join(dims, "x")));
    total *= d;
  }
  if (r.size != total)
    throw UserError(fmt::format("size {} with dimensions {}: the size must be their product {}",
                                r.size, fmt::join(dims, "x"), total));
  if (r.batch < 1) throw UserError(fmt::format("batch {}: must be at least 1", r.batch));
  if (total > (int64_t{1} << 30) / r.batch)
    throw UserError(fmt::format("N x batch = {} x {}: more than 2^30 elements (32-bit indices)",
                                total, r.batch));
  if (r.variant != Variant::Auto && r.variant != Variant::Stockham)
    throw UserError(
        fmt::format("variant {}: N-D and real transforms run Stockham (or "
                    "Bluestein) along each dimension; use auto",
                    variantName(r.variant)));
  if (!r.radices.empty())
    throw UserError("radices: N-D and real transforms choose each dimension's radices themselves");
  if (r.workgroupSize > 0 || r.fftsPerGroup > 0)
    throw UserError(
        "work-group shape: N-D and real transforms choose each pass's work-groups themselves");
  if (r.levels != 0 || !r.levelSizes.empty())
    throw UserError("levels: a parameter of the 1D hierarchical variant, not of N-D or real plans");
  if (r.clusterBlocks != 0)
    throw UserError("cluster: a parameter of 1D complex transforms, not of N-D or real plans");
}

int64_t localMemoryBudget(const FftRequest& request) {
  return request.localMemoryBytes > 0 ? request.localMemoryBytes : kLocalMemoryBytes;
}

int64_t localMemoryFor(const FftRequest& request, int64_t rows) {
  const int64_t budget = localMemoryBudget(request);
  return rows > 1 ? std::min(budget, kLocalMemoryBytes) : budget;
}

double fftTolerance(int64_t n, Precision precision) {
  double lg = std::log10(static_cast<double>(std::max<int64_t>(n, 1)));
  // pyvkfft's, undoubled for Bluestein sizes: their twiddles and chirps are exact to the last
  // bit (cispiRatio) and the chirp spectrum is rounded once (tests/fftplan/accuracy_test.cpp)
  return precision == Precision::F64 ? 5e-15 + 5e-16 * lg : 2e-6 + 5e-7 * lg;
}

}  // namespace fftc::fftlib
