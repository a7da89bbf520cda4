// The FFT plan space (fft_space.h): parameters, generators and the pruning constraints.
#include "fftlib/tune/fft_space.h"

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <set>

#include "backends/common/device_error.h"

namespace fftc::fftlib::tune {
namespace {

using tuner::Configuration;
using tuner::IntList;
using tuner::Value;

constexpr const char* kVariant = "variant";
constexpr const char* kRadices = "radices";
constexpr const char* kWorkgroup = "workgroupSize";
constexpr const char* kPerGroup = "fftsPerGroup";
constexpr const char* kRewrite = "rewrite";
constexpr const char* kGroups = "passGroups";
constexpr const char* kLevels = "levels";
constexpr const char* kLevelSizes = "levelSizes";
constexpr const char* kDefaultRewrite = "lowerFft";

// N-D and real requests: the space's variant is "auto" and its radices [] (each dimension's
// are the planner's); what varies is how the dimensions share passes.
bool isMultiOrReal(const FftRequest& r) { return r.dims.size() >= 2 || r.real; }

std::int64_t product(const IntList& v) {
  std::int64_t p = 1;
  for (auto r : v) p *= r;
  return p;
}

// The fewest factors from `factors` whose product is n (0 for n = 1; max when impossible).
std::int64_t fewestFactors(std::int64_t n, const IntList& factors) {
  constexpr auto kNone = std::numeric_limits<std::int64_t>::max();
  std::vector<std::int64_t> divisors = tuner::divisorsOf(n), best(divisors.size(), kNone);
  best[0] = 0;  // divisors ascending: divisors[0] = 1
  for (std::size_t i = 1; i < divisors.size(); ++i)
    for (auto f : factors)
      if (f >= 2 && divisors[i] % f == 0) {
        auto j = static_cast<std::size_t>(
            std::lower_bound(divisors.begin(), divisors.end(), divisors[i] / f) -
            divisors.begin());
        if (best[j] != kNone) best[i] = std::min(best[i], best[j] + 1);
      }
  return best.back();
}

// Dotsenko et al. 5.2: r_i, r_j and r_k = r_i * r_j all in the sequence (i, j, k distinct):
// the pass of radix r_k does the work of the passes r_i and r_j without an exchange between.
bool assimilated(const IntList& rs) {
  for (std::size_t i = 0; i < rs.size(); ++i)
    for (std::size_t j = i + 1; j < rs.size(); ++j)
      for (std::size_t k = 0; k < rs.size(); ++k)
        if (k != i && k != j && rs[i] * rs[j] == rs[k]) return true;
  return false;
}

// Radix sequences of n (product n, orders distinct), at most `extra` passes above the fewest,
// pruned; `keep` (the heuristic plan's sequence) first and never pruned.
std::vector<IntList> radixSequences(std::int64_t n, IntList factors, const IntList& keep,
                                    const FftSpaceOptions& o, std::size_t minLength) {
  std::vector<IntList> out;
  if (!keep.empty() && product(keep) == n && keep.size() >= minLength) out.push_back(keep);
  for (auto r : keep) factors.push_back(r);
  std::sort(factors.rbegin(), factors.rend());
  factors.erase(std::unique(factors.begin(), factors.end()), factors.end());
  const std::int64_t fewest = fewestFactors(n, factors);
  if (fewest == std::numeric_limits<std::int64_t>::max() || n < 2) return out;
  const auto maxLength = static_cast<std::size_t>(fewest + std::max<std::int64_t>(o.extraPasses, 0));
  for (auto& rs : tuner::orderedFactorizations(n, factors, maxLength)) {
    if (rs.size() < minLength || rs == keep) continue;
    if (o.pruneAssimilated && assimilated(rs)) continue;
    out.push_back(std::move(rs));
  }
  return out;
}

// Bluestein's padded sizes: the first `count` smooth sizes >= 2N - 1, the next power of two, and
// the planner's (bluesteinSize: beyond local memory, the least smooth size whose halves fit
// bluesteinFourStep's passes, which may be neither).
std::vector<std::int64_t> bluesteinSizes(std::int64_t n, std::int64_t count, Precision precision) {
  std::set<std::int64_t> ms = {bluesteinSize(n, precision)};
  std::int64_t m = 2 * n - 1;
  for (std::int64_t i = 0; i < std::max<std::int64_t>(count, 1); ++i) {
    m = smoothSizeAtLeast(m);
    ms.insert(m++);
  }
  std::int64_t p2 = 1;
  while (p2 < 2 * n - 1) p2 *= 2;
  ms.insert(p2);
  return {ms.begin(), ms.end()};
}

// Work-items per FFT for the local-memory kernel with radices rs: divisors of N from a quarter
// of the butterflies of the largest radix's pass up to the butterflies of the smallest radix's
// pass (more would idle), within the device's work-group size.
std::vector<std::int64_t> workgroupCandidates(std::int64_t n, const IntList& rs,
                                              const DeviceLimits& limits) {
  if (rs.empty()) return {1};
  const auto [lo, hi] = std::minmax_element(rs.begin(), rs.end());
  const std::int64_t most = std::min(n / *lo, limits.maxWorkGroupSize);
  const std::int64_t least = std::max<std::int64_t>(1, n / (*hi * 4));
  std::vector<std::int64_t> out;
  for (auto d : tuner::divisorsOf(n))
    if (d >= least && d <= most) out.push_back(d);
  return out;
}

std::vector<Value> intValues(const std::vector<std::int64_t>& xs) { return tuner::asValues(xs); }

}  // namespace

bool plannerAccepts(const FftRequest& r) {
  try {
    (void)choosePlan(r);
    return true;
  } catch (const backends::UserError&) {
    return false;
  }
}

// Every cut of `rs` into k non-empty consecutive groups, as the groups' products, in order.
std::vector<IntList> levelSplits(const IntList& rs, std::size_t k) {
  std::vector<IntList> out;
  IntList sizes;
  auto cut = [&](auto&& self, std::size_t from) -> void {
    if (sizes.size() + 1 == k) {  // the last level: the rest
      if (from == rs.size()) return;
      std::int64_t p = 1;
      for (std::size_t i = from; i < rs.size(); ++i) p *= rs[i];
      sizes.push_back(p);
      out.push_back(sizes);
      sizes.pop_back();
      return;
    }
    std::int64_t p = 1;
    for (std::size_t end = from; end < rs.size(); ++end) {
      p *= rs[end];
      sizes.push_back(p);
      self(self, end + 1);
      sizes.pop_back();
    }
  };
  if (k >= 1) cut(cut, 0);
  return out;
}

const std::vector<std::string>& fftParameterNames() {
  static const std::vector<std::string> names = {kVariant, kRadices, kWorkgroup, kPerGroup,
                                                 kRewrite, kGroups, kLevels, kLevelSizes};
  return names;
}

FftRequest requestFor(const FftRequest& base, const boost::json::object& config) {
  auto field = [&](const char* name) -> const boost::json::value& {
    const auto* v = config.if_contains(name);
    if (!v) throw tuner::TunerError(fmt::format("FFT configuration {} has no \"{}\"",
                                                boost::json::serialize(config), name));
    return *v;
  };
  auto integer = [&](const char* name) {
    const auto& v = field(name);
    if (!v.is_int64()) throw tuner::TunerError(fmt::format("\"{}\" must be an integer", name));
    return v.get_int64();
  };
  auto text = [&](const char* name) {
    const auto& v = field(name);
    if (!v.is_string()) throw tuner::TunerError(fmt::format("\"{}\" must be a string", name));
    return std::string(v.get_string());
  };
  // A list of integers; `fallback` when absent, where given (parameters added later: wisdom
  // written before them means the planner's choice).
  auto list = [&](const char* name, const IntList* fallback) {
    const auto* v = config.if_contains(name);
    if (!v && fallback) return *fallback;
    const auto& x = v ? *v : field(name);
    if (!x.is_array()) throw tuner::TunerError(fmt::format("\"{}\" must be a list of integers", name));
    IntList out;
    for (const auto& e : x.get_array()) {
      if (!e.is_int64())
        throw tuner::TunerError(fmt::format("\"{}\" must be a list of integers", name));
      out.push_back(e.get_int64());
    }
    return out;
  };
  FftRequest r = base;
  r.variant = parseVariant(text(kVariant));
  r.radices = list(kRadices, nullptr);
  r.workgroupSize = integer(kWorkgroup);
  r.fftsPerGroup = integer(kPerGroup);
  const std::string rewrite = text(kRewrite);
  r.strategy = rewrite == kDefaultRewrite ? "" : rewrite;
  // (levels, levelSizes and passGroups absent in wisdom written before they were parameters:
  // the planner's choice)
  const auto* levels = config.if_contains(kLevels);
  if (levels && !levels->is_int64()) throw tuner::TunerError("\"levels\" must be an integer");
  r.levels = levels ? levels->get_int64() : 0;
  const IntList none;
  r.levelSizes = list(kLevelSizes, &none);
  r.passGroups = list(kGroups, &none);
  return r;
}

boost::json::object heuristicConfig(const FftRequest& base) {
  const PlanChoice c = choosePlan(base);
  boost::json::array rs;
  if (!isMultiOrReal(base))
    for (auto r : c.radices) rs.emplace_back(r);
  boost::json::object o;
  o[kVariant] = isMultiOrReal(base) ? variantName(Variant::Auto) : variantName(c.variant);
  o[kRadices] = std::move(rs);
  boost::json::array gs;
  for (auto g : base.passGroups) gs.emplace_back(g);
  o[kGroups] = std::move(gs);
  o[kLevels] = base.levels != 0                            ? base.levels
               : c.variant == Variant::Hierarchical ? static_cast<std::int64_t>(levelSizes(c).size())
                                                    : 0;
  boost::json::array sizes;  // the heuristic's split, spelled out
  for (auto n : levelSizes(c)) sizes.emplace_back(n);
  o[kLevelSizes] = std::move(sizes);
  o[kWorkgroup] = base.workgroupSize;
  o[kPerGroup] = base.fftsPerGroup;
  o[kRewrite] = base.strategy.empty() ? std::string(kDefaultRewrite) : base.strategy;
  return o;
}

FftSpace::FftSpace(const FftRequest& base, FftSpaceOptions options)
    : base_(base), options_(std::move(options)) {
  (void)choosePlan(base_);  // UserError for a request the planner cannot build at all
  if (!options_.validate) options_.validate = plannerAccepts;
  const std::int64_t n = base_.size;

  const bool multi = isMultiOrReal(base_);
  std::vector<Variant> variants;
  if (multi)  // N-D and real plans: each dimension's radices are the planner's
    variants = {Variant::Auto};
  else if (base_.variant != Variant::Auto)
    variants = {base_.variant};
  else if (!options_.variants.empty())
    variants = options_.variants;
  else if (n == 1)
    variants = {Variant::Stockham};
  else if (plannedByRadices(n))
    variants = {Variant::Stockham, Variant::StockhamTwiddle, Variant::CooleyTukey,
                Variant::Hierarchical, Variant::Local};
  else if (primeInOneWorkItem(n, base_.precision) ||  // the planner's one radix, or Rader's rows
           raderPassPlan(n, base_))  // a prime factor above 43 as a Rader pass (or Bluestein)
    variants = {Variant::Local, Variant::Bluestein};
  else
    variants = {Variant::Bluestein};
  for (auto v : variants) variantNames_.push_back(variantName(v));

  const FftRequest b = base_;
  const FftSpaceOptions o = options_;
  const std::int64_t bytes = complexBytes(b.precision);

  // The heuristic plan's radices for each variant (kept in the space, never pruned).
  auto heuristicRadices = [b](Variant v) -> IntList {
    FftRequest r = b;
    r.variant = v;
    r.workgroupSize = r.fftsPerGroup = 0;
    try {
      return choosePlan(r).radices;
    } catch (const backends::UserError&) {
      return {};
    }
  };

  tuner::Parameter variant(kVariant, tuner::stringSet(variantNames_));
  variant.where(tuner::predicate(
      {},
      [n, bytes, o](const Configuration& c) {
        // The local-memory kernel holds a whole transform in local memory.
        return c.getString(kVariant) != "local" || n * bytes <= o.limits.localMemBytes;
      },
      "local: N x element bytes <= local memory"));

  tuner::Parameter radices(
      kRadices,
      tuner::generator(
          {kVariant},
          [b, o, n, multi, heuristicRadices](const Configuration& c) {
            const Variant v = parseVariant(c.getString(kVariant));
            if (!b.radices.empty()) return tuner::asValues(std::vector<IntList>{b.radices});
            if (n == 1 || multi) return tuner::asValues(std::vector<IntList>{IntList{}});
            const IntList keep = heuristicRadices(v);
            if (v != Variant::Bluestein)
              return tuner::asValues(
                  radixSequences(n, o.radices, keep, o, v == Variant::Hierarchical ? 2 : 1));
            std::vector<IntList> all;
            for (auto m : bluesteinSizes(n, o.bluesteinSizes, b.precision))
              for (auto& rs : radixSequences(m, o.radices, product(keep) == m ? keep : IntList{},
                                             o, 1))
                all.push_back(std::move(rs));
            // Rader's convolution of N - 1 (the planner's automatic choice for a prime whose
            // N - 1 fits one kernel): its radices, named as Bluestein's with the product N - 1
            FftRequest a = b;
            a.variant = Variant::Auto;
            a.workgroupSize = a.fftsPerGroup = 0;
            const IntList rader = raderRadices(n, a);
            if (!rader.empty())
              for (auto& rs : radixSequences(n - 1, o.radices, rader, o, 1))
                all.push_back(std::move(rs));
            return tuner::asValues(all);
          },
          "radix sequences with product N (Bluestein: M), pruned"));

  tuner::Parameter workgroup(
      kWorkgroup,
      tuner::generator(
          {kVariant, kRadices},
          [b, o, n](const Configuration& c) {
            if (b.workgroupSize != 0) return intValues({b.workgroupSize});
            std::vector<std::int64_t> values = {0};  // 0: the planner chooses
            if (c.getString(kVariant) == "local")
              for (auto w : workgroupCandidates(n, c.getList(kRadices), o.limits))
                values.push_back(w);
            return intValues(values);
          },
          "work-items per FFT (local-memory kernels)"));

  tuner::Parameter perGroup(
      kPerGroup,
      tuner::generator(
          {kWorkgroup},
          [b, o](const Configuration& c) {
            if (b.fftsPerGroup != 0) return intValues({b.fftsPerGroup});
            if (c.getInt(kWorkgroup) == 0) return intValues({0});
            std::vector<std::int64_t> values;
            for (std::int64_t m = 1; m <= std::min(o.maxFftsPerGroup, b.batch); m *= 2)
              values.push_back(m);
            return intValues(values);
          },
          "FFTs per work-group (powers of two up to the batch)"));
  // Both or neither of the shape parameters left to the planner.
  perGroup.where(tuner::predicate(
      {kWorkgroup},
      [](const Configuration& c) { return (c.getInt(kWorkgroup) == 0) == (c.getInt(kPerGroup) == 0); },
      "workgroupSize and fftsPerGroup both 0 or both set"));
  perGroup.where(tuner::predicate(
      {kWorkgroup},
      [o](const Configuration& c) {
        return c.getInt(kWorkgroup) * c.getInt(kPerGroup) <= o.limits.maxWorkGroupSize;
      },
      "work-items per group <= the device's maximum"));
  perGroup.where(tuner::predicate(
      {kWorkgroup},
      [o, n, bytes](const Configuration& c) {
        return c.getInt(kPerGroup) * n * bytes <= o.limits.localMemBytes;
      },
      "FFTs per group x N x element bytes <= local memory"));
  // Dotsenko 5.2: P x (2 + 0.8) x R x T_n x M_b registers per group, R the elements a
  // work-item holds at once (one butterfly of the largest radix: the kernels loop over the
  // butterflies of a pass).
  perGroup.where(tuner::predicate(
      {kRadices, kWorkgroup},
      [o, b](const Configuration& c) {
        const auto& rs = c.getList(kRadices);
        const double r = rs.empty() ? 1.0 : static_cast<double>(*std::max_element(rs.begin(), rs.end()));
        const double p = static_cast<double>(complexBytes(b.precision)) / 8.0;  // f64: twice
        return p * 2.8 * r * static_cast<double>(c.getInt(kWorkgroup) * c.getInt(kPerGroup)) <=
               static_cast<double>(o.limits.registersPerGroup);
      },
      "Dotsenko's register bound"));
  // The planner has the last word (choosePlan, no compilation), asked with the variant, radices
  // and work-group shape of the configuration (and below its levels).
  auto shapeRequest = [b](const Configuration& c) {
    FftRequest r = b;
    r.variant = parseVariant(c.getString(kVariant));
    r.radices = c.getList(kRadices);
    r.workgroupSize = c.getInt(kWorkgroup);
    r.fftsPerGroup = c.getInt(kPerGroup);
    return r;
  };
  perGroup.where(tuner::predicate(
      {kVariant, kRadices, kWorkgroup},
      [o, shapeRequest](const Configuration& c) { return o.validate(shapeRequest(c)); },
      "the planner accepts it"));

  std::vector<std::string> rewrites =
      b.strategy.empty() ? o.rewrites : std::vector<std::string>{b.strategy};
  tuner::Parameter rewrite(kRewrite, tuner::stringSet(rewrites));

  // N-D complex plans: the planner's choice ([]: ndLocal where it applies, else its grouping)
  // or every grouping of consecutive dimensions into passes (nd.fdl's gs), as the planner
  // accepts them; a request's own groups fix the parameter.
  std::vector<IntList> groupings{b.passGroups};
  if (b.passGroups.empty() && b.real) {  // the global passes against the local kernels
    IntList gs;
    for (std::int64_t k = 0; k <= static_cast<std::int64_t>(requestDims(b).size()); ++k)
      gs.push_back(k);
    FftRequest r = b;
    r.passGroups = gs;
    if (o.validate(r)) groupings.push_back(gs);
  }
  if (b.passGroups.empty() && b.dims.size() >= 2 && !b.real) {
    const auto d = static_cast<std::int64_t>(b.dims.size());
    for (std::int64_t mask = 0; mask < (std::int64_t{1} << (d - 1)); ++mask) {
      IntList gs{0};  // a bound after dimension k when bit k is set
      for (std::int64_t k = 1; k < d; ++k)
        if (mask >> (k - 1) & 1) gs.push_back(k);
      gs.push_back(d);
      FftRequest r = b;
      r.passGroups = gs;
      if (o.validate(r)) groupings.push_back(gs);
    }
  }
  tuner::Parameter groups(kGroups, tuner::listSet(groupings));

  // The hierarchical FFT's levels (one kernel each): 2 or 3 (the planner's veto is on their
  // sizes, below); the other variants have none (0).
  tuner::Parameter levels(
      kLevels,
      tuner::generator(
          {kVariant},
          [b](const Configuration& c) {
            if (b.levels != 0) return intValues({b.levels});
            if (c.getString(kVariant) != variantName(Variant::Hierarchical)) return intValues({0});
            return intValues({2, 3});
          },
          "hierarchical: 2 or 3 levels"));
  // Each level count's splits of the radices into consecutive groups (the level sizes n_i), as
  // the planner accepts them with the configuration's shape; [] for the other variants.
  tuner::Parameter levelSizes(
      kLevelSizes,
      tuner::generator(
          {kRadices, kLevels},
          [b](const Configuration& c) {
            if (!b.levelSizes.empty()) return tuner::asValues(std::vector<IntList>{b.levelSizes});
            const auto k = static_cast<std::size_t>(c.getInt(kLevels));
            if (k == 0) return tuner::asValues(std::vector<IntList>{IntList{}});
            return tuner::asValues(levelSplits(c.getList(kRadices), k));
          },
          "hierarchical: the radices cut into the levels"));
  levelSizes.where(tuner::predicate(
      {kVariant, kRadices, kWorkgroup, kPerGroup, kLevels},
      [o, shapeRequest](const Configuration& c) {
        if (c.getInt(kLevels) == 0) return true;
        FftRequest r = shapeRequest(c);
        r.levels = c.getInt(kLevels);
        r.levelSizes = c.getList(kLevelSizes);
        return o.validate(r);
      },
      "the planner accepts the levels"));

  space_ = std::make_unique<tuner::SearchSpace>(std::vector<tuner::Parameter>{
      std::move(variant), std::move(radices), std::move(workgroup), std::move(perGroup),
      std::move(rewrite), std::move(groups), std::move(levels), std::move(levelSizes)});
}

FftRequest FftSpace::request(const Configuration& c) const { return requestFor(base_, c.toJson()); }

std::optional<std::uint64_t> FftSpace::heuristicIndex() const {
  try {
    return space_->indexOf(heuristicConfig(base_));
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

std::vector<std::pair<std::string, std::uint64_t>> FftSpace::sizePerVariant() const {
  // The variant is the first parameter of the first (most significant) group: configurations
  // of one variant are contiguous, in the order of variantNames_.
  auto rank = [&](std::uint64_t k) {
    const std::string name = space_->at(k).getString(kVariant);
    return static_cast<std::size_t>(std::find(variantNames_.begin(), variantNames_.end(), name) -
                                    variantNames_.begin());
  };
  std::vector<std::pair<std::string, std::uint64_t>> out;
  std::uint64_t begin = 0;
  for (std::size_t v = 0; v < variantNames_.size(); ++v) {
    std::uint64_t lo = begin, hi = space_->size();  // first index of a later variant
    while (lo < hi) {
      const std::uint64_t mid = lo + (hi - lo) / 2;
      if (rank(mid) <= v)
        lo = mid + 1;
      else
        hi = mid;
    }
    out.emplace_back(variantNames_[v], lo - begin);
    begin = lo;
  }
  return out;
}

std::string FftSpace::describe() const {
  std::vector<std::string> parts;
  for (const auto& [name, count] : sizePerVariant()) parts.push_back(fmt::format("{} {}", name, count));
  return fmt::format("{}; per variant: {}", space_->describe(), fmt::join(parts, ", "));
}

}  // namespace fftc::fftlib::tune
