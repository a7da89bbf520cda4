// fftc exec: compiles a kernel of a .fdl program, runs it on a device on seeded random inputs,
// and with --check compares every output element with the reference interpreter (CLI.md).
#include <boost/json.hpp>
#include <fmt/format.h>
#include <optional>

#ifdef FFTC_HAVE_CUDA
#include "compiler/exec/cuda_exec.h"
#endif

#include "backends/common/device_error.h"
#include "driver/commands.h"
#include "driver/fft_ops_wisdom.h"
#include "driver/kernel_wisdom.h"
#include "driver/options.h"
#include "compiler/exec/exec.h"
#include "compiler/pipeline/pipeline.h"
#include "fftlib/plan/fft_ops.h"

namespace fftc::driver {

int runExec(const Args& args) {
  std::string file, kernel, rewrite, device, wisdom, target = "opencl", precision = "f32";
  std::string fftOpsConfig;
  std::vector<std::string> defines;
  uint64_t seed = 1;
  int64_t localMemory = 0, chainRadix = fftlib::kChainDefaultRadix;
  bool check = false, json = false;
  compiler::exec::TimingOptions timing;
  po::options_description desc("fftc exec options");
  desc.add_options()
      ("file", po::value(&file)->required(), "the .fdl program")
      ("kernel", po::value(&kernel), "the kernel to run (needed when there are several)")
      (",D", po::value(&defines)->composing(), "NAME=VALUE: fix a size or a def (int or list)")
      ("target", po::value(&target)->default_value(target), "opencl | cuda")
      ("precision", po::value(&precision)->default_value(precision), "f32 | f64")
      ("rewrite", po::value(&rewrite), "rewrite strategy (default: lowerDefault if needed)")
      ("device", po::value(&device), "opencl:P:D, opencl:NAME or cuda:N")
      ("seed", po::value(&seed)->default_value(seed), "seed of the random inputs")
      ("local-memory", po::value(&localMemory)->default_value(localMemory),
       "bytes of local memory the plans of fft(x) operations may take (0: 48 KiB)")
      ("chain-radix", po::value(&chainRadix)->default_value(chainRadix),
       "the largest radix of an fft(x) of another's result in one kernel (the convolution's; "
       "16: the plain FFT's radices)")
      ("fft-ops", po::value(&fftOpsConfig),
       "the plans of the fft(x) operations' row maps as `fftc tune` records them, e.g. "
       "'{\"form0.radices\": [16, 4], \"form0.shape\": [16, 4]}' (default: the wisdom's for "
       "this kernel on this device, else the planner's)")
      ("repeat", po::value(&timing.repeat)->default_value(timing.repeat),
       "timed runs after the cold one (more than 1: the medians are reported)")
      ("warmup", po::value(&timing.warmup)->default_value(timing.warmup),
       "untimed runs between the cold run and the timed ones")
      ("check", po::bool_switch(&check), "compare with the reference interpreter (exit 3 if off)")
      ("wisdom", po::value(&wisdom),
       "wisdom file of explore --record and tune: a strategy used without --rewrite, the plans "
       "of fft(x) operations without --fft-ops or --chain-radix (default: $FFTC_WISDOM, else "
       "~/.cache/fftc/wisdom.json)")
      ("json", po::bool_switch(&json), "print one JSON object");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc exec FILE.fdl [options]", desc, &pos, vm)) return kSuccess;
  const Target tgt = parseTarget(target);
  if (timing.repeat < 1 || timing.warmup < 0)
    throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");
#ifndef FFTC_HAVE_CUDA
  if (tgt == Target::Cuda)
    throw backends::UserError("exec --target cuda: this fftc was built without CUDA "
                              "(the CUDA toolkit headers were not found)");
#endif

  compiler::frontend::ElaborateOptions elaborate;
  elaborate.precision = parsePrecision(precision);
  elaborate.defines = parseDefines(defines);
  if (!kernel.empty()) elaborate.kernels = {kernel};  // the -D bindings need suit it alone
  auto program = compiler::frontend::parseFile(file, elaborate);
  warnIfUserFunsUnchecked(program);
  const auto& k = onlyKernel(program, kernel);
  // fft(x) and ifft(x): the planner's algorithm in the program (fftlib/plan/fft_ops.h), checked
  // against the interpreter, whose fft is the exact DFT (ir/fft_operation.h)
  const bool fftOps = fftlib::hasFftOps(k);
  if (!fftOpsConfig.empty() && !fftOps)
    throw backends::UserError(
        fmt::format("--fft-ops: kernel {} has no fft operations (nothing to plan)", k.name));
  std::optional<fftlib::ExpandedFftOps> expanded;
  const ir::LambdaPtr reference = k.lambda;

  std::map<std::string, int64_t> sizes;  // all sizes are fixed by -D at elaboration
  std::string deviceName;
  fftlib::tune::DeviceIdentity identity;
#ifdef FFTC_HAVE_CUDA
  std::optional<backends::cuda::Context> cudaContext;
#endif
  std::optional<backends::opencl::Context> clContext;
  auto openDevice = [&] {
    if (tgt == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
      try {
        cudaContext.emplace(backends::cuda::Context::open(device.empty() ? "cuda:0" : device));
      } catch (const backends::DeviceError& e) {
        // one line, as run says it: the loader's detail adds nothing to "CUDA driver not found"
        throw backends::DeviceError(e.what());
      }
      deviceName = cudaContext->device().name;
      identity = fftlib::tune::cudaIdentity(*cudaContext);
#endif
    } else {
      clContext.emplace(backends::opencl::Context::fromSelector(device));
      deviceName = clContext->device().name;
      identity = fftlib::tune::openClIdentity(clContext->device());
    }
  };
  const KernelProblem problem{file, k.name, precision, target, defines};
  // The fft operations' plans: --fft-ops, else without --chain-radix the ones `fftc tune`
  // recorded for this kernel on this device (fft_ops_wisdom.h), else the planner's.
  bool fftOpsFromWisdom = false;
  if (fftOps) {
    const fftlib::FftRequest limits = fftOpLimits(tgt, localMemory);
    fftlib::FftOpsOptions choices = fftOpsChoices(chainRadix, fftOpsConfig);
    if (fftOpsConfig.empty() && vm["chain-radix"].defaulted()) {
      expanded = applyFftOpsWisdom(wisdom, problem, k, limits, chainRadix, [&] {
        openDevice();
        return identity;
      });
      fftOpsFromWisdom = expanded.has_value();
    }
    if (!expanded) expanded = fftlib::expandFftOps(k, limits, choices);
  }
  // Without --rewrite, a strategy `explore --record` or `tune` found for this kernel on this
  // device (kernel_wisdom.h; a kernel with fft operations takes its plans' wisdom above); the device is opened first only then, so that a kernel that does not
  // compile says so before a missing device does.
  std::string strategy = rewrite;
  bool fromWisdom = false;
  if (strategy.empty() && !fftOps && kernelWisdomMayApply(wisdom, problem)) {
    openDevice();
    std::string note;
    if (auto s = kernelWisdomStrategy(wisdom, problem, identity, note)) {
      strategy = *s;
      fromWisdom = true;
    }
    if (!note.empty()) fmt::print(stderr, "fftc: note: {}\n", note);
  }
  auto buildWith = [&](const std::string& s) {
    return fftOps ? fftlib::buildExpanded(*expanded, s, tgt)
                  : compiler::pipeline::build(k, s, tgt, {});
  };
  auto built = [&] {
    if (!fromWisdom) return buildWith(strategy);
    try {
      return buildWith(strategy);
    } catch (const std::exception& e) {
      // a recorded strategy that no longer applies (the rules changed): lowerDefault, as if
      // there were no wisdom
      fmt::print(stderr, "fftc: note: the wisdom's strategy failed ({}); lowerDefault instead\n",
                 e.what());
      fromWisdom = false;
      return buildWith("");
    }
  }();
  if (deviceName.empty()) openDevice();

  compiler::exec::Runner runner;
  if (tgt == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
    compiler::exec::checkDevice(cudaContext->device(), built.compiled);
    runner = [&](const std::vector<ir::Value>& inputs) {
      return compiler::exec::runCompiled(*cudaContext, built.compiled, inputs, sizes, timing);
    };
#endif
  } else {
    compiler::exec::checkDevice(clContext->device(), built.compiled);
    runner = [&](const std::vector<ir::Value>& inputs) {
      return compiler::exec::runCompiled(*clContext, built.compiled, inputs, sizes, timing);
    };
  }
  // The reference is the program as written (before rewriting; its fft operations by another
  // FFT algorithm): the check covers the rewrites and the expansion as well as code generation.
  compiler::exec::CheckResult r =
      compiler::exec::checkWithRunner(runner, reference, built.compiled, sizes, seed, {}, check);
  if (json) {
    auto o = compiler::exec::reportJson(r, sizes, check);
    o["device"] = deviceName;
    o["wisdom"] = fromWisdom || fftOpsFromWisdom;
    if (expanded) {  // how the planner expanded each fft operation
      boost::json::array ops;
      for (const auto& line : expanded->operations) ops.emplace_back(line);
      o["fft_operations"] = std::move(ops);
      if (!expanded->rewrites.empty()) {  // skipZeroRows' rules (fft_ops.h)
        boost::json::array rules;
        for (const auto& line : expanded->rewrites) rules.emplace_back(line);
        o["fft_rewrites"] = std::move(rules);
      }
    }
    fmt::print("{}\n", boost::json::serialize(o));
  } else {
    if (timing.repeated())
      fmt::print("{}: {} stage(s) on {}, {:.3f} ms (median of {} runs after {} warm-up; cold run "
                 "{:.3f} ms)\n",
                 built.compiled.name, built.compiled.stages.size(), deviceName, r.run.totalMs,
                 timing.repeat, timing.warmup, r.run.coldMs);
    else
      fmt::print("{}: {} stage(s) on {}, {:.3f} ms (one cold run)\n", built.compiled.name,
                 built.compiled.stages.size(), deviceName, r.run.totalMs);
    if (check)
      fmt::print("check against the interpreter: {} elements, max relative error {:.3g} ({})\n",
                 r.comparison.elements, r.comparison.maxError, r.comparison.ok ? "ok" : "FAILED");
  }
  if (check && !r.comparison.ok)
    throw CheckFailed(fmt::format("{}: {} (max error {:.3g})", built.compiled.name,
                                  r.comparison.firstMismatch, r.comparison.maxError));
  return kSuccess;
}

}  // namespace fftc::driver
