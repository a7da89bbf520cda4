// fftc tune FILE.fdl for a kernel with fft operations (issue 24: the tuner searches the
// expansion's choices in context): the plans of its row maps (fftlib/tune/fft_ops_space.h),
// each configuration expanded, built, run and checked against the interpreter as `fftc exec
// --check` does, the fastest recorded as wisdom that exec and compile --device apply
// (fft_ops_wisdom.h). docs/tuner.md, docs/cli.md.
#include "driver/tune_fft_ops.h"

#include <fmt/format.h>
#include <algorithm>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <memory>
#include <optional>

#include "backends/common/device_error.h"
#include "compiler/exec/exec.h"
#include "driver/emit.h"
#include "driver/exit_status.h"
#include "driver/explore_eval.h"
#include "driver/fft_ops_wisdom.h"
#include "driver/fft_options.h"
#include "driver/options.h"
#include "driver/tune_search.h"
#include "fftlib/plan/fft_ops.h"
#include "fftlib/tune/fft_cost.h"
#include "fftlib/tune/fft_ops_space.h"
#include "tuner/start_with.h"
#include "tuner/tuner.h"
#include "tuner/wisdom.h"

namespace fftc::driver {
namespace {

namespace ft = fftlib::tune;

struct Options {
  std::string file, kernel, device, wisdom, technique = "bandit", target = "opencl",
                                            precision = "f32";
  std::vector<std::string> defines;
  int64_t localMemory = 0;
  double budget = 60;
  uint64_t evaluations = 0, seed = 1;
  int repeat = 10, warmup = 3;
  bool dryRun = false, verbose = false, json = false;
};

void addProgramOptions(po::options_description& desc, Options& o) {
  desc.add_options()("file", po::value(&o.file)->required(), "the .fdl program")(
      "kernel", po::value(&o.kernel), "the kernel (needed when there are several)")(
      ",D", po::value(&o.defines)->composing(), "NAME=VALUE: fix a size or a def (int or list)")(
      "precision", po::value(&o.precision)->default_value(o.precision), "f32 | f64");
}

compiler::frontend::Program parseProgram(const Options& o) {
  compiler::frontend::ElaborateOptions elaborate;
  elaborate.precision = parsePrecision(o.precision);
  elaborate.defines = parseDefines(o.defines);
  if (!o.kernel.empty()) elaborate.kernels = {o.kernel};
  return compiler::frontend::parseFile(o.file, elaborate);
}

double secondsSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
}

}  // namespace

bool tunesFftOps(const Args& args) {
  // only the options that select the kernel, read by hand: the others (and their values) are
  // the command's own
  Options o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool next = i + 1 < args.size();
    auto value = [&](const std::string& name, std::string& into) {
      if (a == name && next) {
        into = args[++i];
        return true;
      }
      if (a.rfind(name + "=", 0) == 0) {
        into = a.substr(name.size() + 1);
        return true;
      }
      return false;
    };
    if (value("--kernel", o.kernel) || value("--precision", o.precision)) continue;
    if (a == "-D" && next) {
      o.defines.push_back(args[++i]);
    } else if (a.rfind("-D", 0) == 0 && a.size() > 2) {
      o.defines.push_back(a.substr(2));
    } else if (o.file.empty() && a.size() > 4 && a.compare(a.size() - 4, 4, ".fdl") == 0) {
      o.file = a;
    }
  }
  try {
    const auto program = parseProgram(o);
    return fftlib::hasFftOps(onlyKernel(program, o.kernel));
  } catch (const std::exception&) {
    return false;  // the general command says what is wrong
  }
}

int runTuneFftOps(const Args& args) {
  Options o;
  po::options_description desc("fftc tune FILE.fdl options (a kernel with fft operations)");
  addProgramOptions(desc, o);
  desc.add_options()("target", po::value(&o.target)->default_value(o.target), "opencl | cuda")(
      "device", po::value(&o.device), "opencl:P:D, opencl:NAME or cuda:N")(
      "local-memory", po::value(&o.localMemory)->default_value(o.localMemory),
      "bytes of local memory the plans may take (0: 48 KiB), as exec's")(
      "budget", po::value(&o.budget)->default_value(o.budget),
      "seconds of searching (a running evaluation is finished)")(
      "evaluations", po::value(&o.evaluations), "stop after this many evaluations")(
      "technique", po::value(&o.technique)->default_value(o.technique),
      "bandit | annealing | annealing-index | random | exhaustive (the planner's plans first)")(
      "seed", po::value(&o.seed)->default_value(o.seed), "seed of the search and of the inputs")(
      "repeat", po::value(&o.repeat)->default_value(o.repeat),
      "timed runs per configuration (median)")(
      "warmup", po::value(&o.warmup)->default_value(o.warmup), "untimed runs first")(
      "wisdom", po::value(&o.wisdom),
      "the wisdom file written (default: $FFTC_WISDOM, else ~/.cache/fftc/wisdom.json)")(
      "dry-run", po::bool_switch(&o.dryRun), "print the space and its size, measure nothing")(
      "verbose", po::bool_switch(&o.verbose), "a line per measured configuration")(
      "json", po::bool_switch(&o.json), "print the result as one JSON object (the rest on stderr)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc tune FILE.fdl --kernel K [-D ...] [options]", desc, &pos, vm))
    return kSuccess;
  if (o.repeat < 1 || o.warmup < 0)
    throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");
  if (!(o.budget > 0)) throw backends::UserError("--budget must be a positive number of seconds");
  const Target tgt = parseTarget(o.target);
  const auto program = parseProgram(o);
  const auto& k = onlyKernel(program, o.kernel);
  if (!fftlib::hasFftOps(k))
    throw backends::UserError(fmt::format("tune: kernel {} has no fft operations", k.name));
  // a missing, unwritable or corrupt wisdom file fails before the search
  const std::string wisdomPath = o.dryRun ? wisdomFile(o.wisdom) : wisdomToRecordIn(o.wisdom);
  (void)tuner::makeTechnique(o.technique);  // an unknown name fails before any measurement

  const fftlib::FftRequest limits = fftOpLimits(tgt, o.localMemory);
  const fftlib::ExpandedFftOps heuristic = fftlib::expandFftOps(k, limits);
  const compiler::exec::TimingOptions timing{o.warmup, o.repeat};
  std::optional<DeviceRunner> device;  // explore's: the same runs as the general kernels'
  if (!o.dryRun) device.emplace(tgt, o.device, timing);
  ft::FftOpsSpaceOptions so;
  so.limits.maxWorkGroupSize = std::min<int64_t>(device ? device->maxWorkGroupSize() : 1024, 1024);
  so.limits.localMemBytes =
      limits.localMemoryBytes > 0 ? limits.localMemoryBytes : fftlib::kLocalMemoryBytes;
  if (tgt == Target::Cuda) so.minBlocksPerSm = {0, 1, 2, 4};
  const ft::FftOpsSpace space(heuristic, so);
  const KernelProblem problem{o.file, k.name, o.precision, o.target, o.defines};
  std::FILE* info = o.json ? stderr : stdout;
  fmt::print(info, "problem: {}\nspace: {}\n", fftOpsProblemName(problem, limits),
             space.describe());
  const auto heuristicIndex = space.space().indexOf(space.heuristicConfig());
  if (o.dryRun) {
    if (o.json) {
      boost::json::object j;
      j["problem"] = fftOpsProblemName(problem, limits);
      j["space_size"] = space.space().size();
      boost::json::array forms;
      for (std::size_t i = 0; i < space.forms(); ++i) {
        boost::json::array plans;
        for (const auto& f : space.candidates(i))
          plans.push_back(
              boost::json::object{{"radices", boost::json::value_from(f.radices)},
                                  {"shape", boost::json::array{f.workgroupSize, f.fftsPerGroup}}});
        forms.push_back(std::move(plans));
      }
      j["forms"] = std::move(forms);
      fmt::print("{}\n", boost::json::serialize(j));
    }
    return kSuccess;
  }
  const ft::DeviceIdentity identity = device->identity();
  fmt::print(info, "device: {} ({})\n", identity.device, identity.driver);

  // the cost: expand, build, run (timed) and check against the interpreter, as exec --check
  // The interpreter's value, computed at the first run and compared with every configuration's
  // (the inputs are the seed's each time): the program's value does not depend on the plans.
  std::optional<ir::Value> reference;
  tuner::CostFunction cost = [&](const tuner::Configuration& c) {
    const auto t0 = std::chrono::steady_clock::now();
    const fftlib::ExpandedFftOps e = fftlib::expandFftOps(k, limits, space.options(c));
    // a plan that changes which row maps may take the one-kernel form shifts the later ones'
    // form<i>: the configuration would not be the one it says
    if (const std::string differ = formsDiffer(e, heuristic); !differ.empty())
      return tuner::Result::invalid(differ);
    const auto built = fftlib::buildExpanded(e, "", tgt);
    const double buildS = secondsSince(t0);
    const auto t1 = std::chrono::steady_clock::now();
    const compiler::exec::CheckResult r =
        checkAgainstReference(*device, k.lambda, built.compiled, o.seed, reference);
    boost::json::object extra;
    extra["stages"] = built.compiled.stages.size();
    extra["build_s"] = buildS;
    extra["run_check_s"] = secondsSince(t1);
    compiler::exec::setNumber(extra, "max_error", r.comparison.maxError);
    if (!r.comparison.ok) {
      // a wrong result is a bug of the planner or of code generation, not a slow plan: counted
      // (from the evaluations' extra) and reported, and nothing is recorded
      extra["check_failed"] = true;
      return tuner::Result::invalid(
          "check against the interpreter failed: " + r.comparison.firstMismatch, std::move(extra));
    }
    return tuner::Result::valid(r.run.totalMs, std::move(extra));
  };
  auto technique = std::make_unique<tuner::StartWith>(
      heuristicIndex ? std::vector<std::uint64_t>{*heuristicIndex} : std::vector<std::uint64_t>{},
      tuner::makeTechnique(o.technique));
  tuner::TuneOptions opts;
  opts.seed = o.seed;
  opts.abort = searchAbort(o.budget, o.evaluations, 0);
  opts.progress = progressDisplay(!o.verbose, info);
  const tuner::TuningResult result = tuner::tune(space.space(), *technique, cost, opts);
  std::optional<double> heuristicMs;
  size_t wrong = 0;
  for (const auto& e : result.evaluations) {
    if (const auto* x = e.result.extra().if_object(); x && x->contains("check_failed")) ++wrong;
    if (o.verbose)
      fmt::print(info, "  {} -> {}\n", e.config.toString(),
                 e.result.isValid() ? fmt::format("{:.4g} ms", e.result.cost())
                                    : "invalid: " + e.result.reason());
    if (heuristicIndex && e.index == *heuristicIndex && e.result.isValid())
      heuristicMs = e.result.cost();
  }
  fmt::print(info, "stopped: {}; {} evaluated ({} invalid) in {:.1f} s\n", result.stopReason,
             result.evaluations.size(), result.invalid, result.seconds);
  const std::string wrongText = fmt::format(
      "{} configuration(s) differ from the interpreter (a bug of the planner or of code "
      "generation); nothing recorded",
      wrong);
  if (!result.best) {
    if (wrong > 0) throw CheckFailed(wrongText);
    throw backends::UserError(
        fmt::format("no valid configuration among the {} evaluated; nothing recorded",
                    result.evaluations.size()));
  }
  const auto& best = *result.best;
  boost::json::object extra;
  extra["evaluations"] = result.evaluations.size();
  extra["space_size"] = space.space().size();
  if (heuristicMs) extra["heuristic_ms"] = *heuristicMs;
  const std::string recorded =
      wrong > 0 ? std::string()
                : recordFftOpsWisdom(o.wisdom, problem, limits, identity, best.config.toJson(),
                                     best.result.cost(), extra);
  fmt::print(info, "best: {} -> {:.4g} ms", best.config.toString(), best.result.cost());
  if (heuristicMs)
    fmt::print(info, " (the planner's plans {:.4g} ms, {:.2f}x)", *heuristicMs,
               *heuristicMs / best.result.cost());
  fmt::print(info, "\nwisdom: {} {}\n",
             wrong > 0          ? "nothing recorded (wrong results) in"
             : recorded.empty() ? "kept the cheaper entry in"
                                : "recorded in",
             wisdomPath);
  if (o.json) {
    boost::json::object j;
    j["problem"] = fftOpsProblemName(problem, limits);
    j["device"] = identity.device;
    j["space_size"] = space.space().size();
    j["evaluations"] = result.evaluations.size();
    j["invalid"] = result.invalid;
    j["check_failed"] = wrong;
    j["stop_reason"] = result.stopReason;
    j["seconds"] = result.seconds;
    j["best"] = best.config.toJson();
    j["best_ms"] = best.result.cost();
    j["heuristic_ms"] = heuristicMs ? boost::json::value(*heuristicMs) : nullptr;
    j["wisdom"] = wisdomPath;
    j["recorded"] = !recorded.empty();
    fmt::print("{}\n", boost::json::serialize(j));
  }
  if (wrong > 0) throw CheckFailed(wrongText);
  return kSuccess;
}

}  // namespace fftc::driver
