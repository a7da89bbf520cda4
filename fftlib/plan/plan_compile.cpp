// The planner's compilation (planner.h): a typed choice -> the library kernel instantiated with
// its bindings -> lowered and compiled with fallback -> the stages' work sizes; and the
// in-process plan cache that planFft keeps.
#include "fftlib/plan/planner.h"
#include "fftlib/plan/plan_cache.h"

#include <algorithm>
#include <exception>
#include <map>
#include <mutex>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "compiler/exec/exec.h"
#include "fftlib/plan/library_sources.h"

namespace fftc::fftlib {
namespace {

std::string kernelName(const FftRequest& r) {
  const char* real = !r.real ? "" : r.direction == Direction::Forward ? "r2c_" : "c2r_";
  std::string s =
      fmt::format("fft_{}{}_{}", real, fmt::join(requestDims(r), "x"), precisionName(r.precision));
  if (r.direction == Direction::Inverse && !r.real) s += "_inv";
  if (r.scale) s += "_scaled";
  return s;
}

std::mutex gCacheMutex;
std::map<std::string, std::shared_ptr<const CompiledFft>> gCache;

}  // namespace

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
    for (const auto& a : s.args) {
      const auto* b = p.compiled.buffer(a);
      if (b && b->role != "table") ps.bytesMoved += b->count.evaluate(bound) * b->elementBytes;
    }
    p.bytesMoved += ps.bytesMoved;
    p.stages.push_back(std::move(ps));
  }
}

std::shared_ptr<const CompiledFft> compileChoice(const FftRequest& r, const PlanChoice& choice) {
  if (!r.pre.empty() || !r.post.empty()) return compileWithCallbacks(r, choice, kernelName(r));
  auto p = std::make_shared<CompiledFft>();
  p->request = r;
  p->choice = choice;
  compiler::frontend::ElaborateOptions opts;
  opts.precision = r.precision == Precision::F64 ? ir::ScalarKind::Double : ir::ScalarKind::Float;
  opts.defines = p->choice.defines;
  opts.kernels = {p->choice.kernel};  // the -D bindings are this kernel's
  auto program = compileLibraryFile(p->choice.file, opts);
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
  options.stageLocal = p->choice.stageLocal;  // the plan's work-group shapes
  options.localReuseInPass = p->choice.localReuseInPass;
  options.localRowSkew = p->choice.localRowSkew;
  if (p->choice.localPadding > 0) options.localPadding = p->choice.localPadding;
  // the request's blocks a multiprocessor, else the plan's (a Rader pass: raderPassMinBlocks)
  const auto* local = p->choice.as<LocalChoice>();
  options.minBlocksPerMultiprocessor = r.minBlocksPerSm > 0 ? r.minBlocksPerSm
                                       : local              ? local->minBlocksPerSm
                                                            : 0;
  try {
    p->strategy = r.strategy.empty() ? "lowerFft" : r.strategy;
    p->compiled = compiler::pipeline::build(*kernel, p->strategy, r.target, options).compiled;
  } catch (const std::exception& e) {  // a CompileError, RewriteError or StrategyParseError
    p->fallbackReason = e.what();
    if (auto nl = p->fallbackReason.find('\n'); nl != std::string::npos)
      p->fallbackReason.resize(nl);
    p->strategy = "lowerDefault";
    options.stageLocal.clear();  // chosen for lowerFft's kernel, not for this one
    p->compiled = compiler::pipeline::build(*kernel, "lowerDefault", r.target, options).compiled;
  }
  fillStages(*p);
  if (!p->compiled.sizeVarNames.empty())
    throw std::logic_error(fmt::format("plan {} left size variables unbound: {}", options.name,
                                       fmt::join(p->compiled.sizeVarNames, ", ")));
  return p;
}

std::shared_ptr<const CompiledFft> cachedPlan(const std::string& key) {
  std::lock_guard lock(gCacheMutex);
  auto it = gCache.find(key);
  return it != gCache.end() ? it->second : nullptr;
}

std::shared_ptr<const CompiledFft> storePlan(const std::string& key,
                                             std::shared_ptr<const CompiledFft> plan) {
  std::lock_guard lock(gCacheMutex);
  return gCache.emplace(key, std::move(plan)).first->second;
}

std::shared_ptr<const CompiledFft> planFft(const FftRequest& request, const PlanLimits& limits) {
  const FftRequest r = withLimits(request, limits);
  const std::string key = r.key();
  if (auto plan = cachedPlan(key)) return plan;
  // The disk plan cache (plan_cache.h): this request's stored plan of this build, else compiled.
  return storePlan(key, planThroughDiskCache(r, [](const FftRequest& q) {
                     return compileChoice(q, choosePlan(q));
                   }));
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
