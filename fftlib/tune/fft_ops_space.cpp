// The search space of a kernel's fft operations (fft_ops_space.h).
#include "fftlib/tune/fft_ops_space.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <map>

#include "backends/common/device_error.h"

namespace fftc::fftlib::tune {
namespace {

using tuner::Configuration;
using tuner::IntList;
using tuner::Value;

constexpr const char* kMinBlocks = "minBlocksPerSm";

std::string radicesName(std::size_t i) {
  return fmt::format("form{}.radices", i);
}
std::string shapeName(std::size_t i) {
  return fmt::format("form{}.shape", i);
}

// The one-kernel plans the planner makes of `base` (a row map's request): FftSpace's Local
// configurations whose plan is the one-kernel form expandFftOps takes (stockhamLocal, no looped
// one-array passes, no Rader pass; a column tile keeps two arrays), the planner's first ({}).
std::vector<FftOpsForm> candidatesOf(const FftRequest& base, bool columns,
                                     const FftOpsSpaceOptions& o) {
  std::vector<FftOpsForm> out{FftOpsForm{}};
  FftRequest r = base;
  r.variant = Variant::Local;
  r.radices.clear();
  r.workgroupSize = r.fftsPerGroup = 0;
  FftSpaceOptions so;
  so.limits = o.limits;
  so.variants = {Variant::Local};
  so.radices = o.radices;
  so.extraPasses = o.extraPasses;
  try {
    const FftSpace space(r, so);
    for (std::uint64_t k = 0; k < space.space().size(); ++k) {
      const FftRequest q = space.request(space.space().at(k));
      const PlanChoice c = choosePlan(withLimits(q, PlanLimits{}));
      const auto* local = c.as<LocalChoice>();
      if (c.kernel != "stockhamLocal" || !local || local->loopedWorkItems > 0 ||
          !local->raderPass.empty() || (columns && local->oneArray))
        continue;
      FftOpsForm f{q.radices, q.workgroupSize, columns ? 0 : q.fftsPerGroup};
      if (std::none_of(out.begin(), out.end(), [&](const FftOpsForm& g) {
            return g.radices == f.radices && g.workgroupSize == f.workgroupSize &&
                   g.fftsPerGroup == f.fftsPerGroup;
          }))
        out.push_back(std::move(f));
    }
  } catch (const backends::UserError&) {
    // the planner has no one-kernel plan of the request: the planner's choice only
  }
  return out;
}

}  // namespace

FftOpsSpace::FftOpsSpace(const ExpandedFftOps& heuristic, FftOpsSpaceOptions options)
    : requests_(heuristic.formRequests) {
  if (requests_.empty())
    throw backends::UserError(
        "tune: no row map of the kernel's fft operations may take the one-kernel form (each "
        "is a pass over global memory or the planner's hierarchical plan): nothing to search");
  std::vector<tuner::Parameter> params;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    candidates_.push_back(candidatesOf(requests_[i], heuristic.formColumns.at(i), options));
    std::vector<IntList> radices;
    std::map<IntList, std::vector<Value>> shapes;
    for (const auto& f : candidates_.back()) {
      if (std::find(radices.begin(), radices.end(), f.radices) == radices.end())
        radices.push_back(f.radices);
      shapes[f.radices].push_back(Value(IntList{f.workgroupSize, f.fftsPerGroup}));
    }
    params.emplace_back(radicesName(i), tuner::listSet(radices));
    const std::string rname = radicesName(i);
    params.emplace_back(shapeName(i), tuner::generator(
                                          {rname},
                                          [shapes, rname](const Configuration& c) {
                                            return shapes.at(c.getList(rname));
                                          },
                                          "the planner's one-kernel shapes [work-items per row, "
                                          "rows per group] for the radices"));
  }
  if (!options.minBlocksPerSm.empty())
    params.emplace_back(kMinBlocks, tuner::intSet(options.minBlocksPerSm));
  space_ = std::make_unique<tuner::SearchSpace>(std::move(params));
}

std::string FftOpsSpace::describe() const {
  std::vector<std::string> parts;
  for (std::size_t i = 0; i < requests_.size(); ++i)
    parts.push_back(fmt::format("row map {}: {} x {} {}, {} plans", i, requests_[i].batch,
                                requests_[i].size, precisionName(requests_[i].precision),
                                candidates_[i].size()));
  return fmt::format("{}; {}", space_->describe(), fmt::join(parts, "; "));
}

FftOpsOptions FftOpsSpace::options(const Configuration& c) const {
  return fftOpsOptionsFromJson(c.toJson());
}

boost::json::object FftOpsSpace::heuristicConfig() const {
  boost::json::object o;
  for (std::size_t i = 0; i < requests_.size(); ++i) {
    o[radicesName(i)] = boost::json::array();
    o[shapeName(i)] = boost::json::array{0, 0};
  }
  for (const auto& p : space_->parameters())
    if (p.name() == kMinBlocks) o[kMinBlocks] = 0;
  return o;
}

FftOpsOptions fftOpsOptionsFromJson(const boost::json::object& config) {
  FftOpsOptions out;
  auto ints = [](const boost::json::value& v, const std::string& name) {
    std::vector<int64_t> xs;
    const auto* a = v.if_array();
    if (!a) throw backends::UserError(fmt::format("fft operations' {}: expected a list", name));
    for (const auto& x : *a) {
      if (!x.is_int64())
        throw backends::UserError(fmt::format("fft operations' {}: expected integers", name));
      xs.push_back(x.as_int64());
    }
    return xs;
  };
  for (const auto& [key, value] : config) {
    const std::string name(key);
    if (name == kMinBlocks) {
      if (!value.is_int64() || value.as_int64() < 0)
        throw backends::UserError("fft operations' minBlocksPerSm: expected an integer >= 0");
      out.minBlocksPerSm = value.as_int64();
      continue;
    }
    std::size_t i = 0, used = 0;
    const auto dot = name.find('.');
    if (name.rfind("form", 0) == 0 && dot != std::string::npos && dot > 4) {
      try {
        i = std::stoul(name.substr(4, dot - 4), &used);
      } catch (const std::exception&) {
        used = 0;
      }
    }
    const std::string field = dot == std::string::npos ? "" : name.substr(dot + 1);
    if (used != dot - 4 || used == 0 || i > 64 || (field != "radices" && field != "shape"))
      throw backends::UserError(
          fmt::format("fft operations: unknown parameter '{}' (form<i>.radices, form<i>.shape, {})",
                      name, kMinBlocks));
    if (out.forms.size() <= i) out.forms.resize(i + 1);
    const auto xs = ints(value, name);
    if (field == "radices") {
      out.forms[i].radices = xs;
    } else {
      if (xs.size() != 2 || xs[0] < 0 || xs[1] < 0)
        throw backends::UserError(
            fmt::format("fft operations' {}: expected [work-items per row, rows per group]", name));
      out.forms[i].workgroupSize = xs[0];
      out.forms[i].fftsPerGroup = xs[1];
    }
  }
  return out;
}

}  // namespace fftc::fftlib::tune
