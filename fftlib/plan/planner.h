// The FFT planner: a request (plan_request.h: size, batch, precision, direction, scaling,
// variant, optional radices) and the device's limits -> a typed choice by the heuristics
// (plan_choice.h) -> the FFT library's .fdl kernel instantiated with -D bindings -> lowered
// (lowerFft, else lowerDefault) and compiled by the normal pipeline. Compiled plans are cached in
// this process (keyed by the request); the OpenCL binary cache keeps the device builds.
// docs/fft-api.md describes the heuristics.
//
//   FftRequest r;  r.size = 4096;  r.batch = 16;
//   std::shared_ptr<const CompiledFft> p = planFft(r);   // throws backends::UserError
//   fmt::print("{}", p->describe());
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "fftlib/plan/plan_choice.h"
#include "fftlib/plan/plan_request.h"

namespace fftc::fftlib {

// One stage of a compiled plan with its work sizes evaluated.
struct PlanStage {
  std::string kernel;
  std::vector<std::string> args;
  std::vector<int64_t> global, local;  // local empty: the driver chooses
  int64_t bytesMoved = 0;              // its non-table buffer arguments, each read or written once
  int64_t dynamicLocalBytes = 0;       // CUDA: the dynamic shared memory of its launch
};

struct CompiledFft {
  FftRequest request;  // as planned: withLimits(the request, the limits)
  PlanChoice choice;
  std::string strategy;        // "lowerFft" (or the request's), "lowerDefault" when it failed
  std::string fallbackReason;  // why the first strategy failed (empty when it did not)
  compiler::codegen::CompiledKernel compiled;
  std::vector<PlanStage> stages;
  int64_t bytesMoved = 0;                 // sum over the stages
  std::string inputBuffer, outputBuffer;  // names in compiled.buffers
  // True when every stage that reads the input runs before the first that writes the output:
  // in-place execution can then pass one buffer as both.
  bool inPlaceSafe = false;

  double flopsPerBatch() const;  // 5 N log2 N x batch
  std::string describe() const;  // the plan as text (fftc fft prints it)
};

// The number of passes over global memory (stages, and bytes moved in units of one read and
// one write of the whole array): the last line of CompiledFft::describe.
std::string describePasses(const CompiledFft& plan);

// choosePlan under `limits` + compileChoice, cached in-process by the planned request's key
// (cachedPlan). UserError for bad requests; ir::CompileError when neither strategy compiles.
std::shared_ptr<const CompiledFft> planFft(const FftRequest& request,
                                           const PlanLimits& limits = {});

// The seams of planFft, where a persistent plan cache hooks in.
// Fills what follows from plan.compiled (code generation's final geometry): the launch-ready
// stages (work sizes evaluated, bytes moved), the input and output buffers, in-place safety.
void fillStages(CompiledFft& plan);
// The plan of `choice` for `request` (already withLimits'd, choice = choosePlan(request)): the
// library kernel instantiated with the choice's bindings, lowered by the request's strategy
// (lowerFft) or else lowerDefault (the reason recorded), compiled, its stages' work sizes
// evaluated. Deterministic: equal keys give equal plans.
std::shared_ptr<const CompiledFft> compileChoice(const FftRequest& request,
                                                 const PlanChoice& choice);
// The in-process cache: the plan compiled for `key` (FftRequest::key of the planned request),
// else null; storePlan keeps one (the first stored for a key wins) and returns the kept one.
std::shared_ptr<const CompiledFft> cachedPlan(const std::string& key);
std::shared_ptr<const CompiledFft> storePlan(const std::string& key,
                                             std::shared_ptr<const CompiledFft> plan);

// Drops the in-process cache (tests).
void clearPlanCache();
size_t planCacheSize();

// The text of an FFT library file embedded at build time ("fft.fdl", ...).
std::string_view librarySource(std::string_view file);

}  // namespace fftc::fftlib
