// What `fftc explore` and `fftc tune FILE.fdl` share: a device that runs compiled kernels, and
// the evaluation of one rewrite strategy of a kernel (compile, check against the interpreter,
// time), with explore's rule instantiation and its replayable strategies.
#pragma once

#include <boost/program_options.hpp>
#include <optional>
#include <string>
#include <vector>

#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif
#include "backends/opencl/context.h"
#include "compiler/exec/exec.h"
#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"
#include "driver/kernel_wisdom.h"
#include "fftlib/tune/fft_cost.h"
#include "rewrites/rules.h"

namespace fftc::driver {

// The rules explore (and tune FILE.fdl) tries by default: layout (split-join, interchange),
// fusion, the partial reduction, parallel maps in another dimension, and 2D tiling with register
// blocking (the last needs --depth 3 for an r x c block; one interchange per tile is depth 2).
inline constexpr const char* kDefaultExploreRules =
    "splitJoin,mapFusion,reduceMapFusion,splitReduce,splitMap,mapMapInterchange,mapGlobal,tile2D,"
    "mapReduceInterchange";

// "splitJoin(2) @ 0.1" -> "at([0, 1], splitJoin(2))"; "rule @ root" -> "rule".
std::string replayStep(const std::string& step);

// The strategy that rebuilds a variant from the kernel as written; `prepared`: the steps'
// positions are those of the normal form (`prepare`), which then comes first.
std::string strategyOf(const std::vector<std::string>& steps, bool prepared);

// The rules to enumerate: each parametric rule once per value of `params` it accepts (a
// dimension rule too, unlike instantiateRules, which gives it its default dimension only);
// chunk sizes below 2 (a split into single elements or one chunk) are left out. An unknown
// name is a UserError.
std::vector<rewrites::Rule> exploreRules(const std::vector<std::string>& names,
                                         const std::vector<int64_t>& params);

// The options explore and tune FILE.fdl share: the kernel (FILE, --kernel, -D, --precision),
// where it runs (--target, --device), the enumeration (--depth, --rules, --params) and each
// variant's runs (--repeat, --warmup).
struct KernelSearchOptions {
  std::string file, kernel, precision = "f32", target = "opencl", device;
  std::vector<std::string> defines;  // as given to -D
  int depth = 2;
  std::string rules = kDefaultExploreRules, params = "0,1,4,16,64";
  compiler::exec::TimingOptions timing{1, 5};  // --warmup, --repeat: each variant's runs

  KernelProblem problem(const std::string& kernelName) const {
    return {file, kernelName, precision, target, defines};
  }
};
void addKernelSearchOptions(boost::program_options::options_description& desc,
                            KernelSearchOptions& o);
// --rules instantiated with --params (exploreRules); a UserError for an unknown rule or a value
// that is not an integer.
std::vector<rewrites::Rule> enumerationRules(const KernelSearchOptions& o);
// FILE elaborated with -D and --precision (only --kernel when given), with the warning of
// warnIfUserFunsUnchecked.
compiler::frontend::Program parseKernelProgram(const KernelSearchOptions& o);
// The kernel of --kernel (or the only one); a UserError when a size is not fixed by -D, since
// `command` times it at fixed sizes.
const compiler::frontend::Kernel& fixedSizeKernel(const compiler::frontend::Program& program,
                                                  const KernelSearchOptions& o,
                                                  const std::string& command);

struct Entry {
  std::string strategy;
  std::vector<std::string> steps;
  std::optional<double> ms;  // timed and correct
  bool checked = false;      // ran and compared with the interpreter
  bool ok = false;           // and matched
  double maxError = 0;
  std::string error;  // why it was not timed (compile error, check failure)
};

// Runs compiled kernels on the chosen device (OpenCL or CUDA) with `timing`.
class DeviceRunner {
 public:
  DeviceRunner(compiler::pipeline::Target target, const std::string& device,
               compiler::exec::TimingOptions timing);
  const std::string& name() const { return name_; }
  fftlib::tune::DeviceIdentity identity() const;
  // The most work-items a work-group may have (threads a block on CUDA).
  int64_t maxWorkGroupSize() const;
  // The local memory a work-group may take (CUDA: the opt-in shared memory per block).
  int64_t maxLocalBytes() const;
  compiler::exec::Runner runner(const compiler::codegen::CompiledKernel& k);

 private:
  compiler::pipeline::Target target_;
  compiler::exec::TimingOptions timing_;
  std::string name_;
  std::optional<backends::opencl::Context> cl_;
#ifdef FFTC_HAVE_CUDA
  std::optional<backends::cuda::Context> cuda_;
#endif
};

// Runs `compiled` (a form of `kernel`) on the device with the seed's inputs and compares its
// value with the interpreter's, computed by the first call and kept in `reference` for the
// next: every form of one program has the same value, and the interpreter takes seconds where
// the kernels take milliseconds.
compiler::exec::CheckResult checkAgainstReference(DeviceRunner& device, const ir::LambdaPtr& kernel,
                                                  const compiler::codegen::CompiledKernel& compiled,
                                                  uint64_t seed,
                                                  std::optional<ir::Value>& reference);

// Compiles, runs, checks and times one variant (e.strategy). Errors of the variant itself
// (code generation cannot do it, the device refuses its work-group) are recorded in e.error; a
// device that fails is not. Every variant gets the same inputs (the seed, the sizes fixed by
// -D), so the interpreter's result is computed once, by the first variant checked, and kept in
// `reference`: at GEMM 512^3 it takes seconds, the kernels milliseconds.
// With `checkAt` (the same program at other sizes: tune's --check-at), the variant is checked
// there and timed at k's sizes, unchecked: for sizes whose interpreter value takes minutes.
Entry evaluate(const compiler::frontend::Kernel& k, compiler::pipeline::Target target,
               DeviceRunner& device, Entry e, uint64_t seed, std::optional<ir::Value>& reference,
               const compiler::frontend::Kernel* checkAt = nullptr);

}  // namespace fftc::driver
