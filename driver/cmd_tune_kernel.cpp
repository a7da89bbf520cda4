// fftc tune FILE.fdl: a general kernel's rewrite choice and numeric parameters in one ATF space
// (kernel_space.h), searched by the tuner's techniques with explore's cost (compile, check
// against the interpreter, time), the fastest recorded as wisdom that exec and compile --device
// apply (CLI.md, "Wisdom for general kernels"; docs/tuner.md).
#include <fmt/format.h>
#include <algorithm>
#include <boost/json.hpp>
#include <cstdio>
#include <exception>
#include <optional>
#include <unistd.h>

#include "backends/common/device_error.h"
#include "driver/commands.h"
#include "driver/emit.h"
#include "driver/exit_status.h"
#include "driver/explore_eval.h"
#include "driver/fft_options.h"
#include "driver/kernel_space.h"
#include "driver/kernel_wisdom.h"
#include "driver/options.h"
#include "driver/tune_search.h"
#include "fftlib/tune/fft_wisdom.h"
#include "ir/beta_reduce.h"
#include "ir/infer.h"
#include "rewrites/equality.h"
#include "rewrites/explore.h"
#include "tuner/start_with.h"
#include "tuner/tuner.h"
#include "tuner/tuning_log.h"

namespace fftc::driver {
namespace {

using compiler::pipeline::Target;

// --range NAME=V1,V2,...
std::map<std::string, std::vector<int64_t>> parseRanges(const std::vector<std::string>& ranges) {
  std::map<std::string, std::vector<int64_t>> out;
  for (const std::string& r : ranges) {
    const size_t eq = r.find('=');
    if (eq == std::string::npos || eq == 0)
      throw backends::UserError(fmt::format("--range {}: expected NAME=V1,V2,...", r));
    std::vector<int64_t> v = integers("--range", r.substr(eq + 1));
    if (v.empty() || std::any_of(v.begin(), v.end(), [](int64_t x) { return x < 1; }))
      throw backends::UserError(fmt::format(
          "--range {}: the slot {} needs one or more positive values", r, r.substr(0, eq)));
    out[r.substr(0, eq)] = v;
  }
  return out;
}

// --check-at NAME=V ...: `ko` with those -D sizes in place of its own (each NAME one of them)
KernelSearchOptions checkSizes(const KernelSearchOptions& ko, const std::vector<std::string>& at) {
  KernelSearchOptions kc = ko;
  for (const std::string& a : at) {
    const size_t eq = a.find('=');
    const std::vector<int64_t> v =
        eq == std::string::npos ? std::vector<int64_t>{} : integers("--check-at", a.substr(eq + 1));
    if (eq == 0 || v.size() != 1 || v[0] < 1)
      throw backends::UserError(fmt::format("--check-at {}: expected NAME=V, V positive", a));
    const std::string name = a.substr(0, eq + 1);  // "NAME="
    auto d = std::find_if(kc.defines.begin(), kc.defines.end(),
                          [&](const std::string& x) { return x.rfind(name, 0) == 0; });
    if (d == kc.defines.end())
      throw backends::UserError(
          fmt::format("--check-at {}: {} is not a size given with -D", a, a.substr(0, eq)));
    *d = a;
  }
  return kc;
}

}  // namespace

int runTuneKernel(const Args& args) {
  KernelSearchOptions ko;
  std::string valuesText;
  std::string technique = "bandit", wisdom, logPath;
  std::vector<std::string> skeletonTexts, rangeTexts, checkAtTexts;
  double budget = 60;
  size_t maxVariants = 256;
  uint64_t seed = 1, evaluations = 0, noImprovement = 0;
  int64_t maxWorkGroup = 0;
  size_t maxChecks = 50000;
  bool json = false, dryRun = false, verbose = false;
  compiler::exec::TimingOptions& timing = ko.timing;
  po::options_description desc("fftc tune FILE.fdl options");
  addKernelSearchOptions(desc, ko);
  // clang-format off
  desc.add_options()
      ("max-variants", po::value(&maxVariants)->default_value(maxVariants),
       "sequences the enumeration finds at most (the input counts); each becomes a skeleton, "
       "its numbers slots")
      ("skeleton", po::value(&skeletonTexts)->composing(),
       "STRATEGY with names as rule arguments, e.g. 'tile2D(R, C); at([0, 1, 0, 0, 0], "
       "mapReduceInterchange)': searched instead of the enumerated skeletons (repeatable)")
      ("values", po::value(&valuesText),
       "V1,V2,...: a slot's values (default: the divisors above 1 of the -D sizes)")
      ("range", po::value(&rangeTexts)->composing(), "NAME=V1,V2,...: one slot's values")
      ("check-at", po::value(&checkAtTexts)->composing(),
       "NAME=V: check each configuration against the interpreter with this -D size instead, "
       "timing it at -D's (repeatable): for sizes whose interpreter value takes minutes")
      ("max-work-group", po::value(&maxWorkGroup)->default_value(maxWorkGroup),
       "work-items a work-group at most (0: the device's limit)")
      ("max-checks", po::value(&maxChecks)->default_value(maxChecks),
       "rewrites and compilations the space's constraints may take while it is built (0: no "
       "limit)")
      ("budget", po::value(&budget)->default_value(budget),
       "seconds of searching (lowerDefault is always evaluated; a running evaluation is "
       "finished)")
      ("evaluations", po::value(&evaluations), "stop after this many evaluations")
      ("no-improvement", po::value(&noImprovement),
       "stop after K evaluations without a faster configuration")
      ("technique", po::value(&technique)->default_value(technique),
       "bandit | annealing | annealing-index | random | exhaustive")
      ("seed", po::value(&seed)->default_value(seed), "seed of the search and of the inputs")
      ("wisdom", po::value(&wisdom),
       "the wisdom file (default: $FFTC_WISDOM, else ~/.cache/fftc/wisdom.json)")
      ("log", po::value(&logPath),
       "tuning log (JSON lines) to resume from and append to: a configuration found there is "
       "replayed, not measured again (default: none)")
      ("dry-run", po::bool_switch(&dryRun), "print the skeletons and the space, measure nothing")
      ("verbose", po::bool_switch(&verbose), "a line per evaluated configuration")
      ("json", po::bool_switch(&json), "print one JSON object (the rest on stderr)");
  // clang-format on
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc tune FILE.fdl [options]", desc, &pos, vm)) return kSuccess;
  const Target tgt = parseTarget(ko.target);
  if (timing.repeat < 1 || timing.warmup < 0 || ko.depth < 0 || maxVariants < 1 || !(budget > 0) ||
      maxWorkGroup < 0)
    throw backends::UserError(
        "--repeat and --max-variants must be at least 1, --budget positive; --warmup, --depth "
        "and --max-work-group at least 0");
  std::unique_ptr<tuner::SearchTechnique> inner;
  try {
    inner = tuner::makeTechnique(technique);
  } catch (const tuner::TunerError& e) {
    throw backends::UserError(fmt::format("--technique: {}", e.what()));
  }
  const std::vector<rewrites::Rule> rules = enumerationRules(ko);
  KernelSpaceOptions so;
  so.values = valuesText.empty() ? divisorValues(ko.defines) : integers("--values", valuesText);
  if (std::any_of(so.values.begin(), so.values.end(), [](int64_t v) { return v < 1; }))
    throw backends::UserError(fmt::format("--values {}: the values must be positive", valuesText));
  so.ranges = parseRanges(rangeTexts);
  std::vector<Skeleton> skeletons{parseSkeleton("lowerDefault")};
  for (const std::string& t : skeletonTexts) skeletons.push_back(parseSkeleton(t));
  if (!dryRun) {  // a bad wisdom or log path, or a corrupt wisdom file, fails now
    (void)wisdomToRecordIn(wisdom);
    if (!logPath.empty()) prepareOutputFile(logPath, "--log");
  }

  const auto program = parseKernelProgram(ko);
  const auto& k = fixedSizeKernel(program, ko, "tune");
  // the same program at the --check-at sizes, where each configuration is checked
  const KernelSearchOptions kc = checkSizes(ko, checkAtTexts);
  std::optional<compiler::frontend::Program> checkProgram;
  if (!checkAtTexts.empty()) checkProgram = parseKernelProgram(kc);
  const compiler::frontend::Kernel* checkAt =
      checkProgram ? &fixedSizeKernel(*checkProgram, kc, "tune") : nullptr;
  const std::string checkedAt =
      checkAt ? fmt::format(" check-at {}", fmt::join(kc.defines, ",")) : std::string();
  const ir::ExprPtr typed = ir::inferTypes(k.lambda->body());
  if (skeletonTexts.empty()) {
    // explore's enumeration, each sequence's numbers taken out as slots
    const ir::ExprPtr normal = ir::betaEta(typed);
    const bool prepared = !rewrites::alphaEqual(normal, typed);
    rewrites::ExploreOptions eo;
    eo.rules = rules;
    eo.maxDepth = ko.depth;
    eo.maxVariants = maxVariants;
    for (const rewrites::Variant& v : rewrites::explore(normal, eo).variants)
      skeletons.push_back(skeletonOf(v.steps, prepared));
  }

  if (std::FILE* to = json ? stderr : stdout; ::isatty(fileno(to)) == 1) {
    std::vector<std::string> seen;  // the distinct skeletons, while the (slower) space is built
    for (const Skeleton& s : skeletons)
      if (std::find(seen.begin(), seen.end(), s.text) == seen.end()) seen.push_back(s.text);
    fmt::print(to, "kernel {}: {} skeleton(s); building the space\n", k.name, seen.size());
    std::fflush(to);
  }
  DeviceRunner dev(tgt, ko.device, timing);
  so.maxWorkGroup = maxWorkGroup > 0 ? maxWorkGroup : dev.maxWorkGroupSize();
  so.maxLocalBytes = dev.maxLocalBytes();
  so.maxChecks = maxChecks;
  // a configuration's work-groups as code generation sizes them (the largest stage's)
  so.needs = [&k, tgt](const std::string& strategy) -> std::optional<WorkGroupNeeds> {
    try {
      const auto built = compiler::pipeline::build(k, strategy, tgt, {});
      WorkGroupNeeds n;
      for (const auto& st : built.compiled.stages) {
        int64_t items = 1;
        for (const auto& l : st.local) items *= l.constant().value_or(1);
        n.items = std::max(n.items, items);
        n.localBytes = std::max(n.localBytes, st.localMemoryBytes);
      }
      return n;
    } catch (const std::exception&) {
      return std::nullopt;  // the cost says why
    }
  };
  std::optional<KernelSpace> ks;
  try {
    ks.emplace(typed, std::move(skeletons), so);
  } catch (const tuner::TunerError& e) {
    throw backends::UserError(e.what());
  }
  const tuner::SearchSpace& space = ks->space();
  const std::vector<uint64_t> counts = ks->perSkeleton();
  std::FILE* info = json ? stderr : stdout;
  fmt::print(info, "on {}: {} slot parameter(s); work-groups of at most {} work-items, {} bytes\n",
             dev.name(), ks->slotNames().size(), so.maxWorkGroup, so.maxLocalBytes);
  for (size_t i = 0; i < counts.size(); ++i)
    fmt::print(info, "  {:>6}  {}\n", counts[i], ks->skeletons()[i].text);
  fmt::print(info, "space: {} ({} rewrites and {} kernels compiled while building)\n",
             space.describe(), ks->rewritesApplied(), ks->kernelsCompiled());
  boost::json::array skeletonsJson;
  for (size_t i = 0; i < counts.size(); ++i) {
    boost::json::object o;
    o["skeleton"] = ks->skeletons()[i].text;
    boost::json::array slots;
    for (const auto& s : ks->skeletons()[i].slots) slots.push_back(boost::json::value(s));
    o["slots"] = std::move(slots);
    o["configurations"] = counts[i];
    skeletonsJson.push_back(std::move(o));
  }
  if (dryRun) {
    if (json) {
      boost::json::object o;
      o["kernel"] = k.name;
      o["device"] = dev.name();
      o["max_work_group"] = so.maxWorkGroup;
      o["space_size"] = space.size();
      o["skeletons"] = std::move(skeletonsJson);
      boost::json::array configs;  // every configuration, when few
      if (space.size() <= 4096)
        for (uint64_t i = 0; i < space.size(); ++i)
          configs.push_back(boost::json::value(ks->strategy(space.at(i))));
      o["strategies"] = std::move(configs);
      fmt::print("{}\n", boost::json::serialize(o));
    }
    return kSuccess;
  }

  // the cost: explore's evaluation of the configuration's strategy
  std::optional<ir::Value> reference;
  tuner::CostFunction cost = [&](const tuner::Configuration& c) {
    Entry e;
    e.strategy = ks->strategy(c);
    e = evaluate(k, tgt, dev, std::move(e), seed, reference, checkAt);
    boost::json::object extra;
    extra["strategy"] = e.strategy;
    if (e.checked) compiler::exec::setNumber(extra, "max_error", e.maxError);
    // kept in the log too, so that a rerun replaying this result still fails
    if (e.checked && !e.ok) extra["check_failed"] = true;
    if (verbose)
      fmt::print(info, "  {} -> {}\n", e.strategy,
                 e.ms ? fmt::format("{:.4f} ms", *e.ms) : "invalid: " + e.error);
    return e.ms ? tuner::Result::valid(*e.ms, extra) : tuner::Result::invalid(e.error, extra);
  };
  const std::optional<uint64_t> baseIndex = ks->baselineIndex();
  if (!baseIndex)
    throw backends::UserError("lowerDefault alone does not fit the device (its work-group)");
  // the log of this problem on this device and build, for these skeletons (their texts hashed)
  std::optional<tuner::TuningLog> log;
  if (!logPath.empty()) {
    std::string texts;
    for (const Skeleton& s : ks->skeletons()) texts += s.text + "\n";
    const KernelProblem problem = ko.problem(k.name);
    const auto id = dev.identity();
    try {
      log.emplace(logPath, tuner::LogKey{id.device, id.driver,
                                         fmt::format("{}{} skeletons#{:016x} {}", problem.name(),
                                                     checkedAt, std::hash<std::string>{}(texts),
                                                     fftlib::tune::buildIdentity()),
                                         *space.names()});
    } catch (const tuner::TunerError& e) {
      throw backends::UserError(e.what());
    }
    for (const auto& w : log->warnings()) fmt::print(stderr, "fftc: warning: {}\n", w);
  }
  tuner::StartWith search({*baseIndex}, std::move(inner));
  tuner::TuneOptions to;
  to.seed = seed;
  to.abort = searchAbort(budget, evaluations, noImprovement);
  to.log = log ? &*log : nullptr;
  tuner::TuningResult res;
  try {
    res = tuner::tune(space, search, cost, to);
  } catch (const tuner::TunerError& e) {
    throw backends::UserError(e.what());  // a log of other parameters
  }
  for (const auto& w : res.warnings) fmt::print(stderr, "fftc: warning: {}\n", w);

  const tuner::Evaluation* base = nullptr;
  std::vector<const tuner::Evaluation*> ranked;
  size_t wrong = 0;  // measured or replayed from the log
  for (const auto& e : res.evaluations) {
    if (e.index == *baseIndex) base = &e;
    if (e.result.isValid()) ranked.push_back(&e);
    if (const auto* x = e.result.extra().if_object(); x && x->contains("check_failed")) ++wrong;
  }
  std::stable_sort(ranked.begin(), ranked.end(), [](const auto* a, const auto* b) {
    return a->result.cost() < b->result.cost();
  });
  // (a plain double: GCC 12 sees an optional's value as maybe uninitialized in the JSON below)
  const bool hasBase = base && base->result.isValid();
  const double baseMs = hasBase ? base->result.cost() : 0.0;
  std::string recorded;
  std::exception_ptr recordFailed;  // thrown after the report, which it must not take away
  if (wrong == 0 && !ranked.empty() && hasBase && ranked[0]->result.cost() < baseMs) {
    boost::json::object config;  // the skeleton and its slots (the others are 0)
    config["skeleton"] = ranked[0]->config.getString("skeleton");
    for (const Skeleton& sk : ks->skeletons())
      if (sk.text == ranked[0]->config.getString("skeleton"))
        for (const std::string& n : sk.slots) config[n] = ranked[0]->config.getInt(n);
    try {
      recorded =
          recordKernelWisdom(wisdom, ko.problem(k.name), dev.identity(),
                             ks->strategy(ranked[0]->config), ranked[0]->result.cost(), config);
    } catch (const std::exception&) {
      recordFailed = std::current_exception();
    }
  }
  const std::string bestStrategy = ranked.empty() ? std::string() : ks->strategy(ranked[0]->config);
  fmt::print(info, "stopped: {}; {} evaluated ({} measured, {} replayed, {} invalid) in {:.1f} s\n",
             res.stopReason, res.evaluations.size(), res.measured, res.replayed, res.invalid,
             res.seconds);
  for (size_t i = 0; i < ranked.size() && i < 10; ++i)
    fmt::print(info, "{:>3}. {:10.4f} ms  {:5.2f}x  {}\n", i + 1, ranked[i]->result.cost(),
               hasBase ? baseMs / ranked[i]->result.cost() : 0.0, ks->strategy(ranked[i]->config));
  if (ranked.size() > 10) fmt::print(info, "  ... ({} more)\n", ranked.size() - 10);
  if (!recorded.empty()) fmt::print(info, "wisdom: recorded in {}\n", recorded);
  if (json) {
    boost::json::object o;
    o["kernel"] = k.name;
    o["target"] = ko.target;
    o["device"] = dev.name();
    o["space_size"] = space.size();
    if (checkAt) {
      boost::json::array at;
      for (const std::string& d : kc.defines) at.emplace_back(d);
      o["check_at"] = std::move(at);  // the -D sizes every configuration was checked at
    }
    o["skeletons"] = std::move(skeletonsJson);
    o["technique"] = technique;
    o["evaluations"] = res.evaluations.size();
    o["measured"] = res.measured;
    o["replayed"] = res.replayed;
    o["invalid"] = res.invalid;
    o["log"] = log ? boost::json::value(log->path().string()) : boost::json::value(nullptr);
    o["stop_reason"] = res.stopReason;
    o["seconds"] = res.seconds;
    o["baseline_ms"] = hasBase ? boost::json::value(baseMs) : boost::json::value(nullptr);
    o["best"] = ranked.empty() ? boost::json::value(nullptr)
                               : boost::json::value(ranked[0]->config.toJson());
    o["best_ms"] =
        ranked.empty() ? boost::json::value(nullptr) : boost::json::value(ranked[0]->result.cost());
    o["best_strategy"] =
        ranked.empty() ? boost::json::value(nullptr) : boost::json::value(bestStrategy);
    o["recorded"] = recorded.empty() ? boost::json::value(nullptr) : boost::json::value(recorded);
    boost::json::array vs;
    for (const auto& e : res.evaluations) {
      boost::json::object v;
      v["configuration"] = e.config.toJson();
      v["strategy"] = ks->strategy(e.config);
      v["ms"] =
          e.result.isValid() ? boost::json::value(e.result.cost()) : boost::json::value(nullptr);
      if (!e.result.isValid()) v["error"] = e.result.reason();
      vs.push_back(std::move(v));
    }
    o["evaluated"] = std::move(vs);
    fmt::print("{}\n", boost::json::serialize(o));
  }
  if (recordFailed) std::rethrow_exception(recordFailed);
  if (wrong > 0)
    throw CheckFailed(
        fmt::format("{} configuration(s) differ from the interpreter (a rule's bug)", wrong));
  if (!hasBase)
    throw backends::UserError(fmt::format(
        "lowerDefault: {}", base ? base->result.reason() : std::string("not evaluated")));
  return kSuccess;
}

}  // namespace fftc::driver
