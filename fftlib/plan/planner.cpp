// The FFT planner (planner.h): heuristics, instantiation of the library's .fdl programs,
// compilation through the pipeline, and the in-process plan cache.
#include "fftlib/plan/planner.h"
#include "fftlib/plan/library_sources.h"
#include "fftlib/plan/plan_cache.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <exception>
#include <limits>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "compiler/exec/exec.h"
#include "ir/diagnostic.h"

namespace fftc::fftlib {
namespace {

using backends::UserError;

// Indices in generated code are 32-bit ints.
constexpr int64_t kMaxElements = int64_t{1} << 30;

std::string listText(const std::vector<int64_t>& v) { return fmt::format("[{}]", fmt::join(v, ", ")); }

int64_t product(const std::vector<int64_t>& v) {
  int64_t p = 1;
  for (int64_t r : v) p *= r;
  return p;
}

// Spreads `bits` factors of two over `bins` radices as evenly as possible, largest first.
std::vector<int64_t> powerOfTwoRadices(int bits) {
  std::vector<int64_t> out;
  if (bits <= 0) return out;
  int bins = (bits + 3) / 4;
  for (int i = 0; i < bins; ++i) {
    int b = bits / bins + (i < bits % bins ? 1 : 0);
    out.push_back(int64_t{1} << b);
  }
  return out;
}

// Odd prime factors packed into the fewest radices <= 16 (first fit decreasing); a prime
// above 16 is a radix of its own.
std::vector<int64_t> packOdd(std::vector<int64_t> primes) {
  std::sort(primes.rbegin(), primes.rend());
  std::vector<int64_t> bins;
  for (int64_t p : primes) {
    bool placed = false;
    if (p <= 16) {
      // the fullest bin that still fits
      int best = -1;
      for (size_t i = 0; i < bins.size(); ++i)
        if (bins[i] * p <= 16 && (best < 0 || bins[i] > bins[static_cast<size_t>(best)]))
          best = static_cast<int>(i);
      if (best >= 0) {
        bins[static_cast<size_t>(best)] *= p;
        placed = true;
      }
    }
    if (!placed) bins.push_back(p);
  }
  return bins;
}

std::vector<int64_t> orderRadices(std::vector<int64_t> pow2, std::vector<int64_t> other) {
  std::sort(pow2.rbegin(), pow2.rend());
  std::sort(other.rbegin(), other.rend());
  pow2.insert(pow2.end(), other.begin(), other.end());
  return pow2;
}

std::string kernelName(const FftRequest& r) {
  const char* real = !r.real ? "" : r.direction == Direction::Forward ? "r2c_" : "c2r_";
  std::string s = fmt::format("fft_{}{}_{}", real, fmt::join(requestDims(r), "x"),
                              precisionName(r.precision));
  if (r.direction == Direction::Inverse && !r.real) s += "_inv";
  if (r.scale) s += "_scaled";
  return s;
}

}  // namespace

std::string precisionName(Precision p) { return p == Precision::F64 ? "f64" : "f32"; }

Precision parsePrecision(std::string_view text) {
  if (text == "f32") return Precision::F32;
  if (text == "f64") return Precision::F64;
  throw UserError(fmt::format("precision '{}': expected f32 or f64", text));
}

std::string directionName(Direction d) { return d == Direction::Inverse ? "inverse" : "forward"; }

Direction parseDirection(std::string_view text) {
  if (text == "forward") return Direction::Forward;
  if (text == "inverse") return Direction::Inverse;
  throw UserError(fmt::format("direction '{}': expected forward or inverse", text));
}

std::string variantName(Variant v) {
  switch (v) {
    case Variant::Auto: return "auto";
    case Variant::Stockham: return "stockham";
    case Variant::StockhamTwiddle: return "twiddle";
    case Variant::CooleyTukey: return "cooley-tukey";
    case Variant::Hierarchical: return "hierarchical";
    case Variant::Bluestein: return "bluestein";
    case Variant::Local: return "local";
  }
  return "?";
}

std::vector<int64_t> parseDims(std::string_view text, std::string_view what) {
  std::vector<int64_t> dims;
  int64_t product = 1;
  std::string_view rest = text;
  for (bool more = true; more;) {
    const size_t x = rest.find_first_of("xX");
    more = x != std::string_view::npos;
    const std::string_view part = rest.substr(0, x);
    const bool digits = !part.empty() && part.size() <= 18 &&
                        std::all_of(part.begin(), part.end(),
                                    [](unsigned char c) { return std::isdigit(c); });
    const int64_t d = digits ? std::stoll(std::string(part)) : 0;
    if (d < 1 || product > (int64_t{1} << 40) / d)
      throw UserError(fmt::format("{} {}: dimensions must be positive integers and their product "
                                  "at most 2^40",
                                  what, text));
    product *= d;
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
  return fmt::format("N={} B={} {} {} scale={} {} rs={} {} wg={} fpg={} fmt={} strategy={}",
                     size, batch, precisionName(precision), directionName(direction),
                     scale ? 1 : 0, variantName(variant), listText(radices),
                     compiler::pipeline::targetName(target), workgroupSize, fftsPerGroup,
                     format ? 1 : 0, strategy) +
         (localMemoryBytes ? fmt::format(" local={}", localMemoryBytes) : "") +
         (levels ? fmt::format(" levels={}", levels) : "") +
         (levelSizes.empty() ? "" : fmt::format(" levelSizes={}", listText(levelSizes))) +
         (dims.size() >= 2 ? fmt::format(" dims={} groups={}", listText(dims), listText(passGroups))
                            : "") +
         (real ? " real" : "") +
         (inLayout.isDefault() ? "" : " in: " + layoutText(*this, true)) +
         (outLayout.isDefault() ? "" : " out: " + layoutText(*this, false));
}

int64_t largestPrimeFactor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  return n > 1 ? std::max(largest, n) : largest;
}

bool isSmooth(int64_t n) { return n >= 1 && largestPrimeFactor(n) <= 7; }

int64_t smoothSizeAtLeast(int64_t n) {
  int64_t m = std::max<int64_t>(n, 1);
  while (!isSmooth(m)) ++m;
  return m;
}

int64_t bluesteinSize(int64_t n, Precision precision) {
  const int64_t need = std::max<int64_t>(2 * n - 1, 1), smooth = smoothSizeAtLeast(need);
  int64_t p2 = 1;
  while (p2 < need) p2 *= 2;
  FftRequest defaults;  // 48 KiB
  defaults.precision = precision;
  return localKernelFits(chooseRadices(p2), defaults) || p2 * 10 <= smooth * 11 ? p2 : smooth;
}

std::vector<int64_t> chooseRadices(int64_t n) {
  if (n < 1) throw UserError(fmt::format("FFT size {}: must be at least 1", n));
  int twos = 0;
  std::vector<int64_t> odd;
  int64_t m = n;
  while (m % 2 == 0) {
    m /= 2;
    ++twos;
  }
  for (int64_t p = 3; p * p <= m; p += 2)
    while (m % p == 0) {
      odd.push_back(p);
      m /= p;
    }
  if (m > 1) odd.push_back(m);
  std::vector<int64_t> oddBins = packOdd(odd);

  // A: power-of-two radices of their own. B: factors of two absorbed into the odd radices
  // first (3 -> 12, 7 -> 14), the rest as in A. Fewest passes wins; a tie goes to A.
  std::vector<int64_t> a = orderRadices(powerOfTwoRadices(twos), oddBins);
  std::vector<int64_t> absorbed = oddBins;
  int left = twos;
  std::sort(absorbed.begin(), absorbed.end());
  for (auto& r : absorbed)
    while (left > 0 && r * 2 <= 16) {
      r *= 2;
      --left;
    }
  std::vector<int64_t> b = orderRadices(powerOfTwoRadices(left), absorbed);
  return b.size() < a.size() ? b : a;
}

double fftTolerance(int64_t n, Precision precision) {
  double lg = std::log10(static_cast<double>(std::max<int64_t>(n, 1)));
  double tol = precision == Precision::F64 ? 5e-15 + 5e-16 * lg : 2e-6 + 5e-7 * lg;
  if (largestPrimeFactor(n) > 13) tol *= 2;
  return tol;
}

int64_t localMemoryBudget(const FftRequest& request) {
  return request.localMemoryBytes > 0 ? request.localMemoryBytes : kLocalMemoryBytes;
}

int64_t localMemoryFor(const FftRequest& request, int64_t rows) {
  const int64_t budget = localMemoryBudget(request);
  return rows > 1 ? std::min(budget, kLocalMemoryBytes) : budget;
}

bool localFits(int64_t n, const FftRequest& request, int64_t fftsPerGroup) {
  const int64_t elem = request.precision == Precision::F64 ? 16 : 8;
  const int64_t padded = compiler::codegen::CodegenOptions{}.paddedLocalCount(n * fftsPerGroup);
  return n >= 2 && 2 * padded * elem <= localMemoryFor(request, fftsPerGroup);
}

int64_t largestFittingDivisor(int64_t n, const FftRequest& request, int64_t rows, int64_t most) {
  for (int64_t f = std::min(rows, most); f >= 2; --f)
    if (rows % f == 0 && localFits(n, request, f)) return f;
  return 1;
}

bool localKernelFits(const std::vector<int64_t>& rs, const FftRequest& request) {
  const int64_t n = product(rs);
  return !rs.empty() && localFits(n, request) &&
         n / *std::min_element(rs.begin(), rs.end()) <= 1024;
}

namespace {

// The work-group shape of a local-memory kernel over rows of n = prod(c.radices) elements
// (stockhamLocal with n = N, bluesteinLocal with n = M): F rows (the largest divisor of the
// batch) of n/min(r) work-items each, at most 256 work-items in all, within local memory.
void chooseLocalShape(const FftRequest& r, int64_t n, PlanChoice& c) {
  const int64_t minRadix = *std::min_element(c.radices.begin(), c.radices.end());
  const int64_t perFft = n / minRadix;  // the most butterflies of one pass
  if (!localFits(n, r))
    throw UserError(fmt::format("local variant: N = {} {} does not fit in {} bytes of local "
                                "memory (two buffers of N elements)",
                                n, precisionName(r.precision), localMemoryBudget(r)));
  int64_t f = r.fftsPerGroup;
  if (f > 0) {
    if (r.batch % f != 0)
      throw UserError(fmt::format("ffts per group {}: must divide the batch {}", f, r.batch));
    if (!localFits(n, r, f))
      throw UserError(fmt::format("ffts per group {}: {} rows of N = {} do not fit in {} bytes "
                                  "of local memory", f, f, n, localMemoryFor(r, f)));
  } else {
    // the largest divisor of the batch (a power of two when the batch is one): an odd batch
    // must not leave one row per group
    f = largestFittingDivisor(n, r, r.batch, std::max<int64_t>(256 / perFft, 1));
  }
  int64_t wg = r.workgroupSize > 0 ? r.workgroupSize : perFft;
  if (wg * f > 1024)
    throw UserError(fmt::format("work-group size {} x {} ffts per group: more than 1024 "
                                "work-items", wg, f));
  c.fftsPerGroup = f;
  c.workgroupSize = wg;
  c.defines["F"] = f;
  c.stageLocal = {{wg, f}};
}

// The variants whose kernels are passes over global memory, a work-item per butterfly: a
// work-group shape is not theirs to take (it was silently ignored before).
void refuseShape(const FftRequest& r, Variant v) {
  if (r.workgroupSize > 0 || r.fftsPerGroup > 0)
    throw UserError(fmt::format(
        "variant {}: its passes over global memory take one work-item per butterfly; the "
        "work-group shape (work-group size, FFTs per group) applies to local, hierarchical and "
        "bluestein in local memory",
        v == Variant::Bluestein ? "bluestein (M beyond local memory)" : variantName(v)));
}

// ---- Hierarchical: hierarchical.fdl hierarchicalLocal (two levels) or hierarchicalLocal3.

// The rows of a tile: the largest F <= 128 bytes of elements that divides the rows and fits
// (two padded local arrays of F rows of n, at most 1024 work-items); 0 when none does.
int64_t tileColumns(int64_t n, const std::vector<int64_t>& rs, int64_t rows, const FftRequest& r) {
  const int64_t butterflies = n / *std::min_element(rs.begin(), rs.end());
  if (r.fftsPerGroup > 0) {
    const int64_t f = r.fftsPerGroup;
    return rows % f == 0 && localFits(n, r, f) && f * butterflies <= 1024 ? f : 0;
  }
  const int64_t most = std::min<int64_t>(128 / (r.precision == Precision::F64 ? 16 : 8),
                                         1024 / butterflies);
  if (most < 1 || !localFits(n, r, 1)) return 0;
  return largestFittingDivisor(n, r, rows, most);
}

// The radices split into k levels, outermost first, by one rule with or without the request's
// radices: n_1 = the largest (product of a prefix of the radices | divisor of N) at most
// N^(1/k), then the rest likewise (n_2 at most (N/n_1)^(1/(k-1)), ...); each level takes at
// least one radix. Without radices each n_g is then split by chooseRadices. So the heuristic
// plan's radices, given back, split as the heuristic did (the tuner's space holds that plan).
// With the request's level sizes, those (the radices cut where the running product reaches
// n1, n1·n2; UserError when it steps over one).
std::vector<std::vector<int64_t>> splitLevels(const FftRequest& r, int k) {
  std::vector<std::vector<int64_t>> levels;
  if (!r.levelSizes.empty()) {
    if (r.radices.empty()) {
      for (int64_t n : r.levelSizes) levels.push_back(chooseRadices(n));
      return levels;
    }
    size_t i = 0;
    for (int64_t n : r.levelSizes) {
      std::vector<int64_t> rs;
      int64_t p = 1;
      while (i < r.radices.size() && p < n) {
        p *= r.radices[i];
        rs.push_back(r.radices[i++]);
      }
      if (p != n)
        throw UserError(fmt::format("level sizes {}: not products of consecutive radices {}",
                                    listText(r.levelSizes), listText(r.radices)));
      levels.push_back(rs);
    }
    return levels;
  }
  if (!r.radices.empty()) {
    if (r.radices.size() < static_cast<size_t>(k)) return {};
    size_t i = 0;
    int64_t rest = r.size;
    for (int g = 0; g < k; ++g) {
      const double goal = std::pow(static_cast<double>(rest), 1.0 / (k - g)) * (1 + 1e-9);
      std::vector<int64_t> rs;
      int64_t p = 1;
      while (i < r.radices.size() &&
             (g + 1 == k || (r.radices.size() - i > static_cast<size_t>(k - g - 1) &&
                             (rs.empty() || static_cast<double>(p * r.radices[i]) <= goal)))) {
        p *= r.radices[i];
        rs.push_back(r.radices[i++]);
      }
      levels.push_back(rs);
      rest /= p;
    }
    return levels;
  }
  int64_t rest = r.size;
  for (int g = 0; g < k; ++g) {
    int64_t n = rest;
    if (g + 1 < k) {
      n = 1;
      const double goal = std::pow(static_cast<double>(rest), 1.0 / (k - g)) * (1 + 1e-9);
      for (int64_t d = 2; static_cast<double>(d) <= goal; ++d)
        if (rest % d == 0) n = d;
    }
    if (n < 2) return {};
    levels.push_back(chooseRadices(n));
    rest /= n;
  }
  return levels;
}

void chooseHierarchicalShape(const FftRequest& r, PlanChoice& c) {
  if (!r.radices.empty() && product(r.radices) != r.size)
    throw UserError(fmt::format("radices {}: their product is {}, not the size {}",
                                listText(r.radices), product(r.radices), r.size));
  if (r.workgroupSize > 0)
    throw UserError("hierarchical variant: the work-items per row are set by the radices "
                    "(n_i / min radix per level); give --ffts-per-group only");
  // Two levels when every stage's tile is at least 64 bytes wide (two memory sectors), else
  // three; the widest tiles of the two when neither is. (On an H100, f32 2^17 and 2^18 with
  // two levels of 4-column tiles took 1.9x and 2.2x cuFFT's time, with three levels 1.5x.)
  const int64_t minWidth = r.precision == Precision::F64 ? 4 : 8;
  std::vector<std::vector<int64_t>> best;
  std::vector<int64_t> bestF;
  std::vector<int> counts = {2, 3};
  if (r.levels != 0) counts = {static_cast<int>(r.levels)};  // validated by choosePlan
  if (!r.levelSizes.empty()) counts = {static_cast<int>(r.levelSizes.size())};
  for (int k : counts) {
    auto levels = splitLevels(r, k);
    if (levels.empty()) continue;
    // stage s transforms level k-1-s; its rows are the batch times the other levels' sizes
    std::vector<int64_t> fs;
    for (int s = 0; s < k; ++s) {
      const auto& rs = levels[static_cast<size_t>(k - 1 - s)];
      const int64_t n = product(rs);
      fs.push_back(tileColumns(n, rs, r.batch * (r.size / n), r));
    }
    const int64_t least = *std::min_element(fs.begin(), fs.end());
    if (least >= minWidth || (least > 0 && (bestF.empty() ||
                                            least > *std::min_element(bestF.begin(), bestF.end())))) {
      best = levels;
      bestF = fs;
      if (least >= minWidth) break;
    }
  }
  if (best.empty())
    throw UserError(fmt::format(
        "hierarchical variant: N = {} {} has no split into {} levels whose tiles fit in {} "
        "bytes of local memory{}",
        r.size, precisionName(r.precision),
        counts.size() == 1 ? std::to_string(counts.front()) : "2 or 3",
        localMemoryBudget(r),
        r.fftsPerGroup > 0 ? fmt::format(" with {} columns per work-group", r.fftsPerGroup) : ""));
  const int k = static_cast<int>(best.size());
  c.rs1 = best[0];
  c.rs2 = best[1];
  if (k == 3) c.rs3 = best[2];
  c.radices.clear();
  for (const auto& rs : best) c.radices.insert(c.radices.end(), rs.begin(), rs.end());
  c.file = "hierarchical.fdl";
  c.kernel = k == 3 ? "hierarchicalLocal3" : "hierarchicalLocal";
  c.defines["rs1"] = c.rs1;
  c.defines["rs2"] = c.rs2;
  if (k == 3) c.defines["rs3"] = c.rs3;
  for (int s = 0; s < k; ++s) {
    const auto& rs = best[static_cast<size_t>(k - 1 - s)];
    c.defines[fmt::format("F{}", s + 1)] = bestF[static_cast<size_t>(s)];
    c.stageLocal.push_back(
        {bestF[static_cast<size_t>(s)], product(rs) / *std::min_element(rs.begin(), rs.end())});
  }
  c.fftsPerGroup = *std::min_element(bestF.begin(), bestF.end());
}

bool hierarchicalFits(const FftRequest& r) {
  try {
    PlanChoice scratch;
    chooseHierarchicalShape(r, scratch);
    return true;
  } catch (const UserError&) {
    return false;
  }
}

}  // namespace

std::vector<int64_t> levelSizes(const PlanChoice& c) {
  std::vector<int64_t> sizes;
  if (c.variant == Variant::Hierarchical)
    for (const auto* level : {&c.rs1, &c.rs2, &c.rs3})
      if (!level->empty()) sizes.push_back(product(*level));
  return sizes;
}

PlanChoice choosePlan(const FftRequest& r) {
  if (r.real) return chooseRealPlan(r);
  if (r.dims.size() >= 2) return chooseNdPlan(r);
  if (r.dims.size() == 1 && r.dims[0] != r.size)
    throw UserError(fmt::format("dims [{}] and size {} differ", r.dims[0], r.size));
  if (r.size < 1) throw UserError(fmt::format("FFT size {}: must be at least 1", r.size));
  if (r.batch < 1) throw UserError(fmt::format("batch {}: must be at least 1", r.batch));
  for (int64_t x : r.radices)
    if (x < 2)
      throw UserError(fmt::format("radix {} in {}: radices must be at least 2", x,
                                  listText(r.radices)));
  if (r.size > kMaxElements / r.batch)
    throw UserError(fmt::format("N x batch = {} x {}: more than 2^30 elements (32-bit indices)",
                                r.size, r.batch));

  if (r.levels != 0 && r.levels != 2 && r.levels != 3)
    throw UserError(fmt::format("levels {}: the hierarchical FFT has 2 or 3 (0: the planner "
                                "chooses)", r.levels));
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
        throw UserError(fmt::format("level sizes {}: each level is at least 2",
                                    listText(r.levelSizes)));
    if (product(r.levelSizes) != r.size)
      throw UserError(fmt::format("level sizes {}: their product is {}, not the size {}",
                                  listText(r.levelSizes), product(r.levelSizes), r.size));
  }
  PlanChoice c;
  c.variant = r.variant;
  if (c.variant == Variant::Auto) {
    if (r.size == 1)
      c.variant = Variant::Stockham;  // a copy
    else if (isSmooth(r.size) && (r.radices.empty() || product(r.radices) == r.size) &&
             localKernelFits(r.radices.empty() ? chooseRadices(r.size) : r.radices, r))
      c.variant = Variant::Local;
    else if ((!r.radices.empty() || isSmooth(r.size)) && hierarchicalFits(r))
      c.variant = Variant::Hierarchical;  // one pass per level, each through local memory
    else if (!r.radices.empty() || isSmooth(r.size))
      c.variant = Variant::StockhamTwiddle;  // the butterflies as small FFTs: r loads, not r^2
    else
      c.variant = Variant::Bluestein;
  }
  const bool userRadices = !r.radices.empty();
  switch (c.variant) {
    case Variant::Stockham:
    case Variant::StockhamTwiddle:
    case Variant::CooleyTukey:
    case Variant::Local: {
      if (userRadices && product(r.radices) != r.size)
        throw UserError(fmt::format("radices {}: their product is {}, not the size {}",
                                    listText(r.radices), product(r.radices), r.size));
      c.radices = userRadices ? r.radices : chooseRadices(r.size);
      c.file = "fft.fdl";
      c.kernel = c.variant == Variant::Stockham          ? "stockham"
                 : c.variant == Variant::StockhamTwiddle ? "stockhamTwiddle"
                 : c.variant == Variant::Local           ? "stockhamLocal"
                                                         : "cooleyTukey";
      c.defines["rs"] = c.radices;
      if (c.variant != Variant::Local) refuseShape(r, c.variant);
      if (c.variant == Variant::Local) {
        chooseLocalShape(r, r.size, c);
        if (c.radices.size() == 1 && c.workgroupSize == 1) {  // one work-item per row:
          c.kernel = "stockhamLocalCopy";                     // the coalescing copies
          c.stageLocal = {{c.fftsPerGroup, 1}};
        }
      }
      break;
    }
    case Variant::Hierarchical: chooseHierarchicalShape(r, c); break;
    case Variant::Bluestein: {
      const int64_t need = 2 * r.size - 1;
      if (userRadices) {
        if (product(r.radices) < need)
          throw UserError(fmt::format(
              "bluestein radices {}: their product M = {} must be at least 2N - 1 = {}",
              listText(r.radices), product(r.radices), need));
        c.radices = r.radices;
      } else {
        c.radices = chooseRadices(bluesteinSize(r.size, r.precision));
      }
      c.bluesteinM = product(c.radices);
      c.file = "bluestein.fdl";
      c.defines["N"] = r.size;
      c.defines["rsM"] = c.radices;
      // one kernel through local memory when M fits (as the Local variant), else a pass over
      // global memory per step
      if (localKernelFits(c.radices, r)) {
        c.kernel = "bluesteinLocal";
        chooseLocalShape(r, c.bluesteinM, c);
      } else {
        refuseShape(r, c.variant);
        c.kernel = "bluesteinGlobal";
      }
      break;
    }
    case Variant::Auto: break;
  }
  if ((r.levels != 0 || !r.levelSizes.empty()) && c.variant != Variant::Hierarchical)
    throw UserError(fmt::format("{}: a parameter of the hierarchical variant, not of {}",
                                r.levels != 0 ? fmt::format("levels {}", r.levels)
                                              : "level sizes " + listText(r.levelSizes),
                                variantName(c.variant)));
  c.defines["dir"] = int64_t{r.direction == Direction::Forward ? -1 : 1};
  c.defines["scale"] = int64_t{r.scale ? 1 : 0};
  c.defines["B"] = r.batch;
  return c;
}

double CompiledFft::flopsPerBatch() const {
  const double n = static_cast<double>(request.size);
  return n > 1 ? 5.0 * n * std::log2(n) * static_cast<double>(request.batch) : 0.0;
}

std::string CompiledFft::describe() const {
  const auto& r = request;
  std::string s = fmt::format("{}: N = {}, batch {}, {}, {}{}, target {}\n", compiled.name, r.size,
                              r.batch, precisionName(r.precision), directionName(r.direction),
                              r.scale ? ", scaled by 1/N" : "",
                              compiler::pipeline::targetName(r.target));
  s += fmt::format("variant: {} ({}:{})", variantName(choice.variant), choice.file, choice.kernel);
  if (!choice.dims.empty())
    s += describeDims(choice);
  else if (choice.variant == Variant::Hierarchical)
    s += fmt::format(", radices rs1 = {} x rs2 = {}{}, {} columns per work-group at least",
                     listText(choice.rs1), listText(choice.rs2),
                     choice.rs3.empty() ? "" : fmt::format(" x rs3 = {}", listText(choice.rs3)),
                     choice.fftsPerGroup);
  else if (choice.variant == Variant::Local)
    s += fmt::format(", radices {}, {} work-items per FFT, {} FFTs per work-group",
                     listText(choice.radices), choice.workgroupSize, choice.fftsPerGroup);
  else if (choice.variant == Variant::Bluestein)
    s += fmt::format(", M = {}, radices of M {}", choice.bluesteinM, listText(choice.radices));
  else
    s += fmt::format(", radices {}", listText(choice.radices));
  for (bool input : {true, false})
    if (!(input ? r.inLayout : r.outLayout).isDefault())
      s += fmt::format("\n{} layout: {} ({} elements in the buffer)", input ? "input" : "output",
                       layoutText(r, input),
                       compiled.buffer(input ? inputBuffer : outputBuffer)->count.str());
  s += fmt::format("\nlowered by {}{}\n", strategy,
                   fallbackReason.empty()
                       ? ""
                       : fmt::format(" ({} failed: {})",
                                     request.strategy.empty() ? "lowerFft" : request.strategy,
                                     fallbackReason));
  s += fmt::format("stages: {}\n", stages.size());
  for (const auto& st : stages) {
    s += fmt::format("  {:<28} global {:<12} local {:<8} {:>12} bytes\n", st.kernel,
                     listText(st.global), st.local.empty() ? "auto" : listText(st.local),
                     st.bytesMoved);
  }
  s += fmt::format("expected bytes moved: {} ({:.1f} per element)\n", bytesMoved,
                   static_cast<double>(bytesMoved) / static_cast<double>(r.size * r.batch));
  s += describePasses(*this);
  return s;
}

namespace {

std::mutex gCacheMutex;
std::map<std::string, std::shared_ptr<const CompiledFft>> gCache;

void fillStages(CompiledFft& p) {
  auto bound = compiler::exec::bindSizes(p.compiled, {});
  for (const auto& b : p.compiled.buffers) {
    if (b.role == "input" && p.inputBuffer.empty()) p.inputBuffer = b.name;
    if (b.role == "output") p.outputBuffer = b.name;
  }
  // In place is safe when the input is read up before the output is first written.
  size_t lastInput = 0, firstOutput = p.compiled.stages.size();
  for (size_t i = 0; i < p.compiled.stages.size(); ++i)
    for (const auto& a : p.compiled.stages[i].args) {
      if (a == p.inputBuffer) lastInput = i;
      if (a == p.outputBuffer) firstOutput = std::min(firstOutput, i);
    }
  p.inPlaceSafe = lastInput < firstOutput;
  for (const auto& s : p.compiled.stages) {
    PlanStage ps;
    ps.kernel = s.kernel;
    ps.args = s.args;
    ps.dynamicLocalBytes = s.dynamicLocalBytes;
    for (const auto& e : s.global) ps.global.push_back(e.evaluate(bound));
    for (const auto& e : s.local) ps.local.push_back(e.evaluate(bound));
    // The plan's work-group shape (PlanChoice::stageLocal): the groups stay, their size changes.
    // Only for the kernel it was chosen for: a lowerDefault fallback has other stages.
    const size_t k = p.stages.size();
    const bool shaped = p.fallbackReason.empty() &&
                        p.compiled.stages.size() == p.choice.stageLocal.size();
    if (shaped && !ps.local.empty())
      for (size_t d = 0; d < ps.local.size() && d < p.choice.stageLocal[k].size(); ++d) {
        ps.global[d] = ps.global[d] / ps.local[d] * p.choice.stageLocal[k][d];
        ps.local[d] = p.choice.stageLocal[k][d];
      }
    for (const auto& a : s.args) {
      const auto* b = p.compiled.buffer(a);
      if (b && b->role != "table") ps.bytesMoved += b->count.evaluate(bound) * b->elementBytes;
    }
    p.bytesMoved += ps.bytesMoved;
    p.stages.push_back(std::move(ps));
  }
}

std::shared_ptr<const CompiledFft> compilePlan(const FftRequest& r) {
  auto p = std::make_shared<CompiledFft>();
  p->request = r;
  p->choice = choosePlan(r);
  compiler::frontend::ElaborateOptions opts;
  opts.precision = r.precision == Precision::F64 ? ir::ScalarKind::Double : ir::ScalarKind::Float;
  opts.defines = p->choice.defines;
  opts.kernels = {p->choice.kernel};  // the -D bindings are this kernel's
  auto program =
      compileLibraryFile(p->choice.file, opts);
  const auto* kernel = program.kernel(p->choice.kernel);
  if (!kernel)
    throw std::logic_error(fmt::format("{} has no kernel {}", p->choice.file, p->choice.kernel));
  auto options = compiler::pipeline::codegenOptions(r.target);
  // Twiddle tables as buffers read through the cache: a __constant table read at indices that
  // differ across a warp serializes on NVIDIA.
  options.constantTableMaxBytes = 0;
  options.name = kernelName(r);
  options.format = r.format;
  if (auto l = bufferLayout(r, true)) options.inputLayouts[kernel->paramNames.at(0)] = *l;
  options.outputLayout = bufferLayout(r, false);
  try {
    p->strategy = r.strategy.empty() ? "lowerFft" : r.strategy;
    p->compiled = compiler::pipeline::build(*kernel, p->strategy, r.target, options).compiled;
  } catch (const std::exception& e) {  // a CompileError, RewriteError or StrategyParseError
    p->fallbackReason = e.what();
    if (auto nl = p->fallbackReason.find('\n'); nl != std::string::npos)
      p->fallbackReason.resize(nl);
    p->strategy = "lowerDefault";
    p->compiled = compiler::pipeline::build(*kernel, "lowerDefault", r.target, options).compiled;
  }
  fillStages(*p);
  if (!p->compiled.sizeVarNames.empty())
    throw std::logic_error(fmt::format("plan {} left size variables unbound: {}", options.name,
                                       fmt::join(p->compiled.sizeVarNames, ", ")));
  return p;
}

}  // namespace

std::shared_ptr<const CompiledFft> planFft(const FftRequest& request) {
  const std::string key = request.key();
  {
    std::lock_guard lock(gCacheMutex);
    if (auto it = gCache.find(key); it != gCache.end()) return it->second;
  }
  // The disk plan cache (plan_cache.h): a stored plan of this request and build, else compilePlan.
  auto plan = planThroughDiskCache(request, compilePlan);
  std::lock_guard lock(gCacheMutex);
  return gCache.emplace(key, std::move(plan)).first->second;
}

void clearPlanCache() {
  std::lock_guard lock(gCacheMutex);
  gCache.clear();
}

size_t planCacheSize() {
  std::lock_guard lock(gCacheMutex);
  return gCache.size();
}

}  // namespace fftc::fftlib
