// fftc explore: enumerates rewrite sequences of a kernel (rewrites/explore.h), compiles each
// variant (finished by lowerDefault), checks it against the interpreter, times it on a device,
// and ranks the variants against lowerDefault alone (CLI.md, docs/rewrites.md).
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <fmt/format.h>
#include <optional>

#include "backends/common/device_error.h"
#include "compiler/exec/exec.h"
#include "compiler/pipeline/pipeline.h"
#include "driver/commands.h"
#include "driver/explore_eval.h"
#include "driver/kernel_wisdom.h"
#include "driver/options.h"
#include "driver/tune_search.h"
#include "ir/beta_reduce.h"
#include "ir/infer.h"
#include "rewrites/equality.h"
#include "rewrites/explore.h"
#include "rewrites/ir_util.h"
#include "rewrites/named_strategies.h"

namespace fftc::driver {
namespace {

boost::json::object entryJson(const Entry& e) {
  boost::json::object o;
  o["strategy"] = e.strategy;
  boost::json::array steps;
  for (const auto& s : e.steps) steps.push_back(boost::json::value(s));
  o["steps"] = std::move(steps);
  o["ms"] = e.ms ? boost::json::value(*e.ms) : boost::json::value(nullptr);
  o["checked"] = e.checked;
  o["ok"] = e.ok;
  if (e.checked) compiler::exec::setNumber(o, "max_error", e.maxError);
  if (!e.error.empty()) o["error"] = e.error;
  return o;
}

}  // namespace

int runExplore(const Args& args) {
  KernelSearchOptions ko;
  double budget = 60;
  size_t maxVariants = 64, beam = 0;
  uint64_t seed = 1;
  bool json = false, record = false;
  std::string wisdom;
  compiler::exec::TimingOptions& timing = ko.timing;
  po::options_description desc("fftc explore options");
  addKernelSearchOptions(desc, ko);
  desc.add_options()
      ("budget", po::value(&budget)->default_value(budget),
       "seconds for evaluating variants (lowerDefault is always evaluated)")
      ("max-variants", po::value(&maxVariants)->default_value(maxVariants),
       "distinct variants to enumerate at most (the input counts)")
      ("beam", po::value(&beam)->default_value(beam),
       "B > 0: beam search, each depth's variants timed as they are found and only the B "
       "fastest rewritten further (0: breadth first)")
      ("seed", po::value(&seed)->default_value(seed), "seed of the random inputs")
      ("record", po::bool_switch(&record),
       "record the fastest variant, when it beats lowerDefault, as wisdom that exec and "
       "compile --device apply")
      ("wisdom", po::value(&wisdom),
       "the wisdom file of --record (default: $FFTC_WISDOM, else ~/.cache/fftc/wisdom.json)")
      ("json", po::bool_switch(&json), "print one JSON object");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc explore FILE.fdl [options]", desc, &pos, vm)) return kSuccess;
  const Target tgt = parseTarget(ko.target);
  if (timing.repeat < 1 || timing.warmup < 0 || ko.depth < 0 || maxVariants < 1 || !(budget >= 0))
    throw backends::UserError(
        "--repeat and --max-variants must be at least 1; --warmup, --depth and --budget at "
        "least 0");
  const std::vector<rewrites::Rule> rules = enumerationRules(ko);
  if (record) (void)wisdomToRecordIn(wisdom);  // a bad or corrupt file fails before the search

  const auto program = parseKernelProgram(ko);
  const auto& k = fixedSizeKernel(program, ko, "explore");

  // Rewrite positions are expressions: map(map(f)) has none inside until the inner map is
  // applied (prepare's eta-expansion, docs/rewrites.md), so the enumeration starts from the
  // normal form and the replayed strategies begin with prepare.
  const ir::ExprPtr typed = ir::inferTypes(k.lambda->body());
  const ir::ExprPtr normal = ir::betaEta(typed);
  const bool prepared = !rewrites::alphaEqual(normal, typed);

  rewrites::ExploreOptions eo;
  eo.rules = rules;
  eo.maxDepth = ko.depth;
  eo.maxVariants = maxVariants;
  eo.finish = rewrites::lowerDefault();

  DeviceRunner dev(tgt, ko.device, timing);
  auto start = std::chrono::steady_clock::now();
  std::vector<Entry> entries;
  std::optional<ir::Value> reference;  // the interpreter's result, the same for every variant
  // Evaluates v unless the budget is spent (lowerDefault, the first, always is).
  auto evaluateVariant = [&](const rewrites::Variant& v) -> const Entry* {
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (!entries.empty() && spent > budget) return nullptr;
    Entry e;
    e.steps = v.steps;
    e.strategy = strategyOf(v.steps, prepared);
    entries.push_back(evaluate(k, tgt, dev, std::move(e), seed, reference));
    return &entries.back();
  };
  if (beam > 0) {
    // the search and the evaluation together: the budget covers both
    eo.beamWidth = beam;
    eo.score = [&](const rewrites::Variant& v) -> std::optional<double> {
      const Entry* e = evaluateVariant(v);
      return e ? e->ms : std::nullopt;
    };
  }
  const rewrites::ExploreResult found = rewrites::explore(normal, eo);
  if (beam == 0) {
    start = std::chrono::steady_clock::now();
    for (const rewrites::Variant& v : found.variants)
      if (!evaluateVariant(v)) break;
  }
  const Entry& baseline = entries.front();
  std::vector<const Entry*> ranked;
  for (const Entry& e : entries)
    if (e.ms) ranked.push_back(&e);
  std::stable_sort(ranked.begin(), ranked.end(),
                   [](const Entry* a, const Entry* b) { return *a->ms < *b->ms; });
  const size_t wrong = static_cast<size_t>(std::count_if(
      entries.begin(), entries.end(), [](const Entry& e) { return e.checked && !e.ok; }));

  // the fastest variant as wisdom, when it is checked and faster than lowerDefault
  std::string recorded;
  if (record && wrong == 0 && !ranked.empty() && baseline.ms && *ranked[0]->ms < *baseline.ms)
    recorded = recordKernelWisdom(wisdom, ko.problem(k.name), dev.identity(), ranked[0]->strategy,
                                  *ranked[0]->ms);
  if (json) {
    boost::json::object o;
    o["kernel"] = k.name;
    o["target"] = ko.target;
    o["device"] = dev.name();
    o["baseline_ms"] = baseline.ms ? boost::json::value(*baseline.ms) : boost::json::value(nullptr);
    o["best_ms"] = ranked.empty() ? boost::json::value(nullptr) : boost::json::value(*ranked[0]->ms);
    o["best_strategy"] = ranked.empty() ? boost::json::value(nullptr)
                                        : boost::json::value(ranked[0]->strategy);
    o["enumerated"] = found.variants.size();
    o["evaluated"] = entries.size();
    o["capped"] = found.capped;
    o["recorded"] = recorded.empty() ? boost::json::value(nullptr) : boost::json::value(recorded);
    boost::json::array vs;
    for (const Entry& e : entries) vs.push_back(entryJson(e));
    o["variants"] = std::move(vs);
    fmt::print("{}\n", boost::json::serialize(o));
  } else {
    fmt::print("{}: {} variant(s) enumerated, {} evaluated on {}\n", k.name, found.variants.size(),
               entries.size(), dev.name());
    for (size_t i = 0; i < ranked.size(); ++i) {
      const double speedup = baseline.ms ? *baseline.ms / *ranked[i]->ms : 0;
      fmt::print("{:>3}. {:10.4f} ms  {:5.2f}x  {}\n", i + 1, *ranked[i]->ms, speedup,
                 ranked[i]->strategy);
    }
    for (const Entry& e : entries)
      if (!e.ms) fmt::print("  not timed: {}: {}\n", e.strategy, e.error);
    if (!recorded.empty()) fmt::print("wisdom: recorded in {}\n", recorded);
  }
  if (wrong > 0)
    throw CheckFailed(fmt::format("{} variant(s) differ from the interpreter (see the list)", wrong));
  if (!baseline.ms)
    throw backends::UserError(fmt::format("lowerDefault: {}", baseline.error));
  return kSuccess;
}

}  // namespace fftc::driver
