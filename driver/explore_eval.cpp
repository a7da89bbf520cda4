// The evaluation explore and tune share (explore_eval.h).
#include "driver/explore_eval.h"

#include <fmt/format.h>
#include <algorithm>

#ifdef FFTC_HAVE_CUDA
#include "compiler/exec/cuda_exec.h"
#endif

#include "backends/common/device_error.h"
#include "driver/options.h"
#include "rewrites/rule.h"

namespace fftc::driver {

using compiler::pipeline::Target;

std::string replayStep(const std::string& step) {
  const size_t at = step.rfind(" @ ");
  const std::string rule = step.substr(0, at), path = step.substr(at + 3);
  if (path == "root") return rule;
  std::string list;
  for (const std::string& i : splitList([&] {
         std::string p = path;
         std::replace(p.begin(), p.end(), '.', ',');
         return p;
       }()))
    list += (list.empty() ? "" : ", ") + i;
  return "at([" + list + "], " + rule + ")";
}

std::string strategyOf(const std::vector<std::string>& steps, bool prepared) {
  std::string s = prepared && !steps.empty() ? "prepare; " : "";
  for (const std::string& step : steps) s += replayStep(step) + "; ";
  return s + "lowerDefault";
}

std::vector<rewrites::Rule> exploreRules(const std::vector<std::string>& names,
                                         const std::vector<int64_t>& params) {
  std::vector<rewrites::Rule> out;
  for (const std::string& n : names) {
    const rewrites::RuleInfo* info = rewrites::findRule(n);
    if (!info) throw backends::UserError(fmt::format("--rules: unknown rule '{}'", n));
    if (info->maxParams == 0) {
      out.push_back(*rewrites::makeRule(n, {}));
      continue;
    }
    for (int64_t v : params) {
      if (info->group == "algorithmic" && v < 2) continue;
      if (auto r = rewrites::makeRule(n, {v})) out.push_back(*r);
    }
  }
  return out;
}

DeviceRunner::DeviceRunner(Target target, const std::string& device,
                           compiler::exec::TimingOptions timing)
    : target_(target), timing_(timing) {
  if (target == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
    cuda_.emplace(backends::cuda::Context::open(device.empty() ? "cuda:0" : device));
    name_ = cuda_->device().name;
#else
    throw backends::UserError("--target cuda: this fftc was built without CUDA");
#endif
  } else {
    cl_.emplace(backends::opencl::Context::fromSelector(device));
    name_ = cl_->device().name;
  }
}

void addKernelSearchOptions(po::options_description& desc, KernelSearchOptions& o) {
  // clang-format off
  desc.add_options()
      ("file", po::value(&o.file)->required(), "the .fdl program")
      ("kernel", po::value(&o.kernel), "the kernel (needed when there are several)")
      (",D", po::value(&o.defines)->composing(), "NAME=VALUE: fix a size or a def (int or list)")
      ("target", po::value(&o.target)->default_value(o.target), "opencl | cuda")
      ("precision", po::value(&o.precision)->default_value(o.precision), "f32 | f64")
      ("device", po::value(&o.device), "opencl:P:D, opencl:NAME or cuda:N")
      ("depth", po::value(&o.depth)->default_value(o.depth),
       "rewrite steps per enumerated sequence")
      ("rules", po::value(&o.rules)->default_value(o.rules), "rules to enumerate")
      ("params", po::value(&o.params)->default_value(o.params),
       "values for the rules' integer parameter (split sizes, dimensions)")
      ("repeat", po::value(&o.timing.repeat)->default_value(o.timing.repeat),
       "timed runs per variant after the cold one (the median is its time)")
      ("warmup", po::value(&o.timing.warmup)->default_value(o.timing.warmup),
       "untimed runs between the cold run and the timed ones");
  // clang-format on
}

std::vector<rewrites::Rule> enumerationRules(const KernelSearchOptions& o) {
  return exploreRules(splitList(o.rules), integers("--params", o.params));
}

compiler::frontend::Program parseKernelProgram(const KernelSearchOptions& o) {
  compiler::frontend::ElaborateOptions elaborate;
  elaborate.precision = parsePrecision(o.precision);
  elaborate.defines = parseDefines(o.defines);
  if (!o.kernel.empty()) elaborate.kernels = {o.kernel};
  auto program = compiler::frontend::parseFile(o.file, elaborate);
  warnIfUserFunsUnchecked(program);
  return program;
}

const compiler::frontend::Kernel& fixedSizeKernel(const compiler::frontend::Program& program,
                                                  const KernelSearchOptions& o,
                                                  const std::string& command) {
  const auto& k = onlyKernel(program, o.kernel);
  if (!k.sizeVarNames.empty())
    throw backends::UserError(fmt::format("{} times the kernel at fixed sizes: give {} with -D",
                                          command, k.sizeVarNames.front()));
  return k;
}

fftlib::tune::DeviceIdentity DeviceRunner::identity() const {
#ifdef FFTC_HAVE_CUDA
  if (cuda_) return fftlib::tune::cudaIdentity(*cuda_);
#endif
  return fftlib::tune::openClIdentity(cl_->device());
}

int64_t DeviceRunner::maxWorkGroupSize() const {
#ifdef FFTC_HAVE_CUDA
  if (cuda_) return cuda_->device().maxThreadsPerBlock;
#endif
  return static_cast<int64_t>(cl_->device().maxWorkGroupSize);
}

int64_t DeviceRunner::maxLocalBytes() const {
#ifdef FFTC_HAVE_CUDA
  if (cuda_) return static_cast<int64_t>(cuda_->device().sharedMemoryPerBlockOptin);
#endif
  return static_cast<int64_t>(cl_->device().localMemBytes);
}

compiler::exec::Runner DeviceRunner::runner(const compiler::codegen::CompiledKernel& k) {
  const std::map<std::string, int64_t> sizes;  // every size is fixed by -D
  if (target_ == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
    compiler::exec::checkDevice(cuda_->device(), k);
    return [this, &k, sizes](const std::vector<ir::Value>& in) {
      return compiler::exec::runCompiled(*cuda_, k, in, sizes, timing_);
    };
#endif
  }
  compiler::exec::checkDevice(cl_->device(), k);
  return [this, &k, sizes](const std::vector<ir::Value>& in) {
    return compiler::exec::runCompiled(*cl_, k, in, sizes, timing_);
  };
}

compiler::exec::CheckResult checkAgainstReference(DeviceRunner& device, const ir::LambdaPtr& kernel,
                                                  const compiler::codegen::CompiledKernel& compiled,
                                                  uint64_t seed,
                                                  std::optional<ir::Value>& reference) {
  auto r = compiler::exec::checkWithRunner(device.runner(compiled), kernel, compiled, {}, seed, {},
                                           !reference);
  if (!reference) reference = r.reference;
  r.comparison = compiler::exec::compareValues(
      r.device, *reference, compiler::exec::defaultTolerance(compiled.usesDouble));
  return r;
}

Entry evaluate(const compiler::frontend::Kernel& k, Target target, DeviceRunner& device, Entry e,
               uint64_t seed, std::optional<ir::Value>& reference,
               const compiler::frontend::Kernel* checkAt) {
  try {
    const compiler::frontend::Kernel& checked = checkAt ? *checkAt : k;
    auto built = compiler::pipeline::build(checked, e.strategy, target, {});
    const auto r = checkAgainstReference(device, checked.lambda, built.compiled, seed, reference);
    e.checked = true;
    e.ok = r.comparison.ok;
    e.maxError = r.comparison.maxError;
    if (!e.ok) {
      e.error = std::string("check failed") + (checkAt ? " (at the --check-at sizes): " : ": ") +
                r.comparison.firstMismatch;
    } else if (!checkAt) {
      e.ms = r.run.totalMs;
    } else {  // timed at k's sizes, where the interpreter is not run
      built = compiler::pipeline::build(k, e.strategy, target, {});
      e.ms = compiler::exec::checkWithRunner(device.runner(built.compiled), k.lambda,
                                             built.compiled, {}, seed, {}, false)
                 .run.totalMs;
    }
  } catch (const ir::CompileError& x) {
    e.error = x.message();
  } catch (const backends::UserError& x) {
    e.error = x.what();
  } catch (const rewrites::RewriteError& x) {
    e.error = std::string("rewrite: ") + x.what();
  }
  return e;
}

}  // namespace fftc::driver
