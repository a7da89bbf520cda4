// fftc tune: searches the FFT plan space of one request on a device (fftlib/tune/), resumable
// through a tuning log, and records the best configuration as wisdom that fft and run read
// (CLI.md, docs/tuner.md).
#include <algorithm>
#include <boost/json.hpp>
#include <cstdio>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <unistd.h>

#include "backends/common/device_error.h"
#include "driver/commands.h"
#include "driver/emit.h"
#include "driver/fft_options.h"
#include "driver/tune_fft_ops.h"
#include "driver/tune_search.h"
#include "fftlib/tune/fft_tune.h"
#include "fftlib/tune/fft_wisdom.h"

namespace fftc::driver {
namespace {

namespace fl = fftlib;
namespace ft = fftlib::tune;
namespace cl = backends::opencl;

struct TuneOptions {
  std::string device, technique = "bandit", log, variants;
  double budget = 300;
  std::optional<double> spaceFraction;
  uint64_t evaluations = 0, noImprovement = 0, seed = 1;
  int repeat = 20, warmup = 5;
  int64_t extraPasses = 1;
  bool noLog = false, dryRun = false, verbose = false, json = false;
};

std::string cost(double ms) { return fmt::format("{:.4g} ms", ms); }

int tuneOn(ft::FftExecutor& executor, const fl::FftRequest& request, const FftOptions& o,
           const TuneOptions& t) {
  ft::FftTuneOptions opt;
  for (const auto& v : splitList(t.variants)) opt.space.variants.push_back(fl::parseVariant(v));
  opt.space.extraPasses = t.extraPasses;
  opt.technique = t.technique;
  (void)tuner::makeTechnique(t.technique);  // an unknown name fails before any measurement
  opt.seed = t.seed;
  opt.abort = searchAbort(t.budget, t.evaluations, t.noImprovement, t.spaceFraction);
  opt.cost = {static_cast<size_t>(t.warmup), static_cast<size_t>(t.repeat), t.seed};
  const ft::DeviceIdentity id = executor.identity();
  if (!t.noLog) {
    if (!t.log.empty())
      opt.log = t.log;
    else
      opt.log = ft::defaultLogPath(ft::problemName(request), id);
  }
  opt.progress = progressDisplay(t.json);
  if (t.verbose)
    opt.onMeasured = [json = t.json](const tuner::Configuration& c, const tuner::Result& r) {
      std::FILE* to = json ? stderr : stdout;
      // On a terminal, clear the progress line first.
      fmt::print(to, "{}  {} -> {}\n", ::isatty(fileno(to)) == 1 ? "\r\x1b[K" : "", c.toString(),
                 r.isValid() ? cost(r.cost()) : "invalid: " + r.reason());
    };

  std::FILE* info = t.json ? stderr : stdout;
  opt.onConfirm = [info](size_t round, size_t rounds, size_t candidates) {
    fmt::print(info, "{}confirming {} candidate{} against the heuristic plan: round {} of {}\n",
               ::isatty(fileno(info)) == 1 ? "\r\x1b[K" : "", candidates,
               candidates == 1 ? "" : "s", round + 1, rounds);
    std::fflush(info);
  };
  ft::FftTuner tuner(request, executor, opt);
  fmt::print(info, "problem: {}\ndevice: {} ({})\nspace: {}\n", tuner.problem(), id.device,
             id.driver, tuner.space().describe());
  if (const auto* log = tuner.log()) {
    fmt::print(info, "log: {} ({} entries)\n", log->path().string(), log->entries().size());
    for (const auto& w : log->warnings()) fmt::print(stderr, "fftc: warning: {}\n", w);
  }
  if (t.dryRun) return kSuccess;

  const ft::FftTuneReport report = tuner.run();
  for (const auto& w : report.result.warnings) fmt::print(stderr, "fftc: warning: {}\n", w);
  const auto& res = report.result;
  fmt::print(info, "stopped: {}; {} evaluated ({} measured, {} replayed, {} invalid) in {:.1f} s\n",
             res.stopReason, res.evaluations.size(), res.measured, res.replayed, res.invalid,
             res.seconds);
  // Where the measured evaluations' time went (FftCost's extra; a replayed one took none).
  boost::json::object phases;
  for (const char* name : {"plan", "run", "time", "check"}) {
    double total = 0;
    for (const auto& e : res.evaluations)
      if (const auto* x = e.result.extra().if_object(); x && !e.replayed)
        if (const auto* s = x->if_contains(std::string(name) + "_s")) total += s->to_number<double>();
    phases[name] = total;
  }
  if (res.measured > 0)
    fmt::print(info,
               "time of the measured evaluations: planning and compiling {:.1f} s, checked runs {:.1f} s, "
               "timing {:.1f} s, comparing with FFTW {:.1f} s\n",
               phases["plan"].as_double(), phases["run"].as_double(),
               phases["time"].as_double(), phases["check"].as_double());

  const std::string wisdomPath = wisdomFile(o.wisdom);
  bool recorded = false;
  if (report.wisdom) {
    fmt::print(info, "best: {} -> {}", res.best->config.toString(), cost(res.best->result.cost()));
    if (report.heuristicCost)
      fmt::print(info, " (heuristic plan {}, {:.2f}x)", cost(*report.heuristicCost),
                 *report.heuristicCost / res.best->result.cost());
    fmt::print(info, "\n");
    if (report.confirmedHeuristicMs)
      fmt::print(info, "confirmed ({} rounds, alternately): heuristic plan {}, recorded plan {}\n",
                 opt.confirmRounds, cost(*report.confirmedHeuristicMs),
                 cost(*report.confirmedBestMs));
    if (report.keptHeuristic)
      fmt::print(info, "recording the heuristic plan: no plan gained {:.0f}% or more{}\n",
                 100 * opt.minGain, report.confirmedHeuristicMs ? " when timed again" : "");
    if (wisdomPath.empty())
      throw backends::UserError("no wisdom file: give --wisdom FILE or set FFTC_WISDOM or HOME");
    recorded = tuner::Wisdom::update(wisdomPath, report.key, *report.wisdom);
    fmt::print(info, "wisdom: {} {}\n", recorded ? "recorded in" : "kept the cheaper entry in",
               wisdomPath);
  }
  if (t.json) {
    auto optional = [](const std::optional<double>& v) {
      return v ? boost::json::value(*v) : boost::json::value(nullptr);
    };
    boost::json::object j;
    j["problem"] = report.problem;
    j["device"] = id.device;
    j["space_size"] = tuner.space().space().size();
    j["evaluations"] = res.evaluations.size();
    j["measured"] = res.measured;
    j["replayed"] = res.replayed;
    j["invalid"] = res.invalid;
    j["stop_reason"] = res.stopReason;
    j["seconds"] = res.seconds;
    j["phase_seconds"] = phases;
    j["best"] = report.wisdom ? boost::json::value(report.wisdom->config) : nullptr;
    j["best_ms"] = report.wisdom ? boost::json::value(report.wisdom->cost) : nullptr;
    j["heuristic_ms"] = optional(report.heuristicCost);
    j["kept_heuristic"] = report.keptHeuristic;
    j["best_is_heuristic"] = report.bestIsHeuristic;
    j["confirmed_heuristic_ms"] = optional(report.confirmedHeuristicMs);
    j["confirmed_ms"] = optional(report.confirmedBestMs);
    j["wisdom"] = wisdomPath;
    j["recorded"] = recorded;
    fmt::print("{}\n", boost::json::serialize(j));
  }
  if (!report.wisdom)
    throw backends::UserError(fmt::format(
        "no valid configuration among the {} evaluated; nothing recorded", res.evaluations.size()));
  return kSuccess;
}

// The files the search reads and writes, checked before the device is opened: a corrupt
// wisdom file or a path that cannot be written would otherwise fail only after the whole search
// (--budget, 300 s by default). (The tuning log's lines are read when the tuner opens it,
// before the search too.)
void checkFiles(const FftOptions& o, const TuneOptions& t) {
  const std::string wisdomPath = wisdomFile(o.wisdom);
  if (wisdomPath.empty())
    throw backends::UserError("no wisdom file: give --wisdom FILE or set FFTC_WISDOM or HOME");
  prepareOutputFile(wisdomPath, "--wisdom");
  (void)ft::loadWisdom(wisdomPath);
  if (!t.noLog && !t.log.empty()) prepareOutputFile(t.log, "--log");
}

}  // namespace

int runTune(const Args& args) {
  // `fftc tune FILE.fdl --kernel K ...`: a general kernel's rewrite choice and numeric
  // parameters in one space (kernel_space.h), the fastest recorded as wisdom (kernel_wisdom.h)
  if (std::any_of(args.begin(), args.end(), [](const std::string& a) {
        return a.size() > 4 && a.compare(a.size() - 4, 4, ".fdl") == 0;
      })) {
    if (tunesFftOps(args)) return runTuneFftOps(args);  // its fft operations' plans
    return runTuneKernel(args);  // its rewrite choice and numbers in one space
  }
  FftOptions o;
  TuneOptions t;
  po::options_description desc("fftc tune options");
  addFftOptions(desc, o, false);
  desc.add_options()
      ("device", po::value(&t.device),
       "opencl:P:D, opencl:NAME or cuda:N (default as for run)")
      ("budget", po::value(&t.budget)->default_value(t.budget),
       "seconds of searching (a running evaluation is finished)")
      ("evaluations", po::value(&t.evaluations), "stop after this many evaluations (logged ones count)")
      ("no-improvement", po::value(&t.noImprovement), "stop after K evaluations without a better plan")
      ("space-fraction", po::value<double>()->notifier([&t](double f) { t.spaceFraction = f; }),
       "stop when this fraction of the space (0 < F <= 1) has been evaluated")
      ("technique", po::value(&t.technique)->default_value(t.technique),
       "bandit | annealing | annealing-index | random | exhaustive")
      ("seed", po::value(&t.seed)->default_value(t.seed), "seed of the search and of the inputs")
      ("repeat", po::value(&t.repeat)->default_value(t.repeat), "timed runs per configuration (median)")
      ("warmup", po::value(&t.warmup)->default_value(t.warmup), "untimed runs first")
      ("log", po::value(&t.log),
       "tuning log (JSON lines) to resume from and append to (default: in the cache folder, "
       "one per problem, device and build)")
      ("no-log", po::bool_switch(&t.noLog), "keep no tuning log")
      ("variants", po::value(&t.variants),
       "V1,V2,...: the variants to search (default: all that apply; --variant fixes one)")
      ("extra-passes", po::value(&t.extraPasses)->default_value(t.extraPasses),
       "radix sequences with up to this many passes above the fewest")
      ("dry-run", po::bool_switch(&t.dryRun), "print the space and its size, measure nothing")
      ("verbose", po::bool_switch(&t.verbose), "a line per measured configuration")
      ("json", po::bool_switch(&t.json), "print the result as one JSON object (the rest on stderr)");
  po::variables_map vm;
  if (!parseOptions(args, "fftc tune --size N [options]", desc, nullptr, vm)) return kSuccess;
  auto request = makeRequest(o);
  // a plan with callbacks is the planner's program around them (fft_callbacks.h): nothing to search
  if (!request.pre.empty() || !request.post.empty())
    throw backends::UserError("tune: --pre and --post are not tuned (fft and run take them)");
  request.format = false;
  if (t.repeat < 1 || t.warmup < 0)
    throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");
  if (!(t.budget > 0))  // (before the device opens; searchAbort says it again)
    throw backends::UserError("--budget must be a positive number of seconds");
  checkFiles(o, t);
  try {
    if (request.target == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
      auto context = backends::cuda::Context::open(t.device.empty() ? "cuda:0" : t.device);
      ft::CudaExecutor executor(context);
      return tuneOn(executor, request, o, t);
#else
      throw backends::UserError("tune --target cuda: this fftc was built without CUDA");
#endif
    }
    auto context = cl::Context::fromSelector(t.device);
    ft::OpenClExecutor executor(context);
    return tuneOn(executor, request, o, t);
  } catch (const tuner::TunerError& e) {
    throw backends::UserError(e.what());
  }
}

}  // namespace fftc::driver
