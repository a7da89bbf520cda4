// FFT wisdom (fft_wisdom.h): names of problems and builds, the default file, the lookup.
#include "fftlib/tune/fft_wisdom.h"

#include <cmath>
#include <cstdlib>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "backends/opencl/binary_cache.h"
#include "fftlib/plan/library_sources.h"

#ifndef FFTC_VERSION
#define FFTC_VERSION "0"
#endif

namespace fftc::fftlib::tune {

std::string buildIdentity() {
  static const std::string id = [] {
    backends::opencl::Fnv1a64 h;
    for (std::string_view file : libraryFiles()) h.addField(librarySource(file));
    return fmt::format("fftc {} fdl:{:08x} planner:{}", FFTC_VERSION,
                       static_cast<std::uint32_t>(h.value() ^ (h.value() >> 32)),
                       FFTC_PLANNER_HASH);
  }();
  return id;
}

std::string problemName(const FftRequest& r) {
  // N-D problems name their dimensions (n=8x8), real ones their kind (r2c, c2r): issue 7
  const char* kind = !r.real ? "c2c" : r.direction == Direction::Forward ? "r2c" : "c2r";
  // advanced layouts name theirs (the plans read and write other addresses)
  std::string layouts;
  if (!r.inLayout.isDefault()) layouts += " in=[" + layoutText(r, true) + "]";
  if (!r.outLayout.isDefault()) layouts += " out=[" + layoutText(r, false) + "]";
  return fmt::format("fft {} {} n={} batch={} {} {}{}{}", kind, precisionName(r.precision),
                     fmt::join(requestDims(r), "x"), r.batch, directionName(r.direction),
                     compiler::pipeline::targetName(r.target), r.scale ? " scaled" : "", layouts);
}

tuner::WisdomKey wisdomKey(const FftRequest& r, const DeviceIdentity& device) {
  return {device.device, device.driver, buildIdentity(), problemName(r)};
}

std::optional<std::filesystem::path> defaultWisdomPath() {
  auto env = [](const char* name) -> const char* {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
  };
  if (const char* f = env("FFTC_WISDOM")) return std::filesystem::path(f);
  if (const char* xdg = env("XDG_CACHE_HOME")) return std::filesystem::path(xdg) / "fftc" / "wisdom.json";
  if (const char* home = env("HOME"))
    return std::filesystem::path(home) / ".cache" / "fftc" / "wisdom.json";
  return std::nullopt;
}

bool plannerDecides(const FftRequest& r) {
  return r.variant == Variant::Auto && r.radices.empty() && r.workgroupSize == 0 &&
         r.fftsPerGroup == 0 && r.strategy.empty() && r.passGroups.empty() && r.levels == 0 &&
         r.levelSizes.empty() && r.clusterBlocks == 0;
}

namespace {

// The ranges of the FFT space's parameters (fft_space.cpp): 0 means "the planner's" for the
// work-group shape and the levels.
constexpr std::int64_t kMaxWorkGroup = std::int64_t{1} << 20;

std::string checkEntry(const boost::json::object& entry) {
  const auto* config = entry.if_contains("config");
  if (!config || !config->is_object()) return "no \"config\" object";
  const auto& c = config->get_object();
  auto integer = [&](const char* name, std::int64_t lo, std::int64_t hi) -> std::string {
    const auto* v = c.if_contains(name);
    if (!v) return {};
    if (!v->is_int64() || v->get_int64() < lo || v->get_int64() > hi)
      return fmt::format("\"{}\": {} is not an integer in [{}, {}]", name,
                         boost::json::serialize(*v), lo, hi);
    return {};
  };
  auto list = [&](const char* name, std::int64_t lo) -> std::string {
    const auto* v = c.if_contains(name);
    if (!v) return {};
    if (v->is_array())
      for (const auto& e : v->get_array())
        if (!e.is_int64() || e.get_int64() < lo)
          return fmt::format("\"{}\": {} holds {}, not an integer of at least {}", name,
                             boost::json::serialize(*v), boost::json::serialize(e), lo);
    return {};
  };
  for (const std::string& why :
       {integer("workgroupSize", 0, kMaxWorkGroup), integer("fftsPerGroup", 0, kMaxWorkGroup),
        list("radices", 2), list("levelSizes", 2), list("passGroups", 0)})
    if (!why.empty()) return why;
  // pass groups are the bounds 0 = g_0 < g_1 < ... < g_P = D of nd.fdl's dimension groups
  if (const auto* v = c.if_contains("passGroups"); v && v->is_array()) {
    const auto& g = v->get_array();
    for (size_t i = 0; i < g.size(); ++i)
      if ((i == 0 && g[i].get_int64() != 0) || (i > 0 && g[i].get_int64() <= g[i - 1].get_int64()))
        return fmt::format("\"passGroups\": {} are not increasing bounds from 0",
                           boost::json::serialize(*v));
  }
  if (const auto* v = c.if_contains("levels");
      v && !(v->is_int64() && (v->get_int64() == 0 || v->get_int64() == 2 || v->get_int64() == 3)))
    return fmt::format("\"levels\": {} is not 0, 2 or 3", boost::json::serialize(*v));
  const auto* cost = entry.if_contains("cost");
  if (!cost || !cost->is_number() || !(cost->to_number<double>() >= 0) ||
      !std::isfinite(cost->to_number<double>()))
    return "\"cost\" is not a number of milliseconds, 0 or more";
  return {};
}

}  // namespace

tuner::Wisdom loadWisdom(const std::filesystem::path& file) {
  tuner::Wisdom wisdom;
  try {
    wisdom = tuner::Wisdom::load(file);
  } catch (const tuner::TunerError& e) {
    throw backends::UserError(fmt::format("wisdom: {}", e.what()));
  }
  // (toJson: the entries as the file holds them, with their problem names)
  const auto all = wisdom.toJson();
  size_t i = 0;
  for (const auto& e : all.at("entries").as_array()) {
    const auto& entry = e.as_object();
    if (const std::string why = checkEntry(entry); !why.empty())
      throw backends::UserError(fmt::format("wisdom: {}: entry {} ({}): {}", file.string(), i,
                                            entry.at("problem").as_string().c_str(), why));
    ++i;
  }
  return wisdom;
}

WisdomUse applyWisdom(const FftRequest& r, const std::filesystem::path& file,
                      const std::function<DeviceIdentity()>& identity,
                      const PlanLimits& limits) {
  return applyWisdom(r, loadWisdom(file), file.string(), identity, limits);
}

WisdomUse applyWisdom(const FftRequest& r, const tuner::Wisdom& wisdom, const std::string& source,
                      const std::function<DeviceIdentity()>& identity,
                      const PlanLimits& limits) {
  WisdomUse use;
  use.request = r;
  const std::string problem = problemName(r);
  use.forThisProblem = wisdom.contains(problem);
  if (!use.forThisProblem) {
    use.note = fmt::format("no wisdom for '{}' in {}; the planner's heuristics decide", problem,
                           source);
    return use;
  }
  if (!plannerDecides(r)) {
    use.note = fmt::format("wisdom for '{}' not used: the variant, radices, work-group shape, "
                           "pass groups, levels, level sizes, cluster or rewrite were given",
                           problem);
    return use;
  }
  const auto found = wisdom.lookup(wisdomKey(r, identity()));
  if (!found) {
    use.note = found.reason + "; the planner's heuristics decide";
    return use;
  }
  FftRequest tuned;
  try {
    tuned = requestFor(r, found.entry->config);
    (void)choosePlan(tuned, limits);
  } catch (const std::exception& e) {
    use.note = fmt::format("wisdom for '{}' in {} not used: its configuration {} is not accepted "
                           "({}); tune again",
                           problem, source, boost::json::serialize(found.entry->config),
                           e.what());
    return use;
  }
  use.request = tuned;
  use.used = true;
  use.entry = found.entry;
  use.note = fmt::format("wisdom from {}: variant {}, radices [{}], work-group {} x {} FFTs{} "
                         "({:.4g} ms when tuned, {})",
                         source, variantName(tuned.variant),
                         fmt::join(tuned.radices, ", "), tuned.workgroupSize, tuned.fftsPerGroup,
                         (tuned.passGroups.empty()
                              ? ""
                              : fmt::format(", pass groups [{}]", fmt::join(tuned.passGroups, ", "))) +
                             (tuned.levelSizes.empty()
                                  ? (tuned.levels ? fmt::format(", {} levels", tuned.levels) : "")
                                  : fmt::format(", levels [{}]", fmt::join(tuned.levelSizes, ", "))),
                         found.entry->cost, found.entry->recorded);
  return use;
}

}  // namespace fftc::fftlib::tune
