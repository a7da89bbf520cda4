// Running compiled kernels: all stages of a CompiledKernel on an OpenCL context with host
// ir::Values as inputs (temps and tables allocated here), seeded random inputs, and the
// comparison with the reference interpreter that `fftc exec --check` and the tests use.
#pragma once

#include <boost/json/object.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "backends/opencl/runtime.h"
#include "compiler/codegen/codegen.h"
#include "ir/interpreter.h"
#include "ir/value.h"

namespace fftc::compiler::exec {

// Host <-> device bytes of a value of type `t` (arrays flattened row-major; codegen's layout).
std::vector<uint8_t> packValue(const ir::Value& v, const ir::Type& t);
ir::Value unpackValue(std::span<const uint8_t> bytes, const ir::Type& t);

// Row-major bytes of `elementBytes`-sized elements <-> a strided buffer (codegen::BufferLayout):
// element (i_0, ..., i_k) of the layout's dims at Σ_d i_d * strides[d]. Scattering leaves the
// holes zero; gathering reads the dims' product elements.
std::vector<uint8_t> scatterToLayout(std::span<const uint8_t> dense, size_t elementBytes,
                                     const codegen::BufferLayout& layout);
std::vector<uint8_t> gatherFromLayout(std::span<const uint8_t> strided, size_t elementBytes,
                                      const codegen::BufferLayout& layout);

// Size variables of a kernel by name -> by ArithExpr var id (for ArithExpr::evaluate and the
// interpreter). Throws UserError naming a size variable without a value.
std::unordered_map<uint64_t, int64_t> bindSizes(const codegen::CompiledKernel& k,
                                                const std::map<std::string, int64_t>& sizes);

// The concrete type of an input/output once size variables have values.
ir::Type concreteType(const ir::Type& t, const std::unordered_map<uint64_t, int64_t>& sizes);

// How a run is timed (fftc exec --warmup/--repeat): the first run of the stages is always the
// cold one whose output is read back; after it, `warmup` untimed runs and `repeat` timed runs
// when repeat > 1 or warmup > 0, whose per-stage and total medians are then reported.
struct TimingOptions {
  int warmup = 0;
  int repeat = 1;
  [[nodiscard]] bool repeated() const { return repeat > 1 || warmup > 0; }
};
struct StageTimes {
  std::vector<double> stageMs;  // each stage's device time
  double totalMs = 0;           // first stage's start to last stage's end
};
struct RunResult {
  ir::Value output;
  std::vector<double> stageMs;  // the cold run's, or the medians of the repeated runs
  double totalMs = 0;           // likewise
  double coldMs = 0;            // the cold run's total
  TimingOptions timing;
};
// Sets `r`'s times from the cold run and, when `timing.repeated()`, from the repeated runs
// of `once` (one run of every stage), for runCompiled on either runtime.
void timeRuns(RunResult& r, const StageTimes& cold, const TimingOptions& timing,
              const std::function<StageTimes()>& once);

// What a run needs on any target (OpenCL here, CUDA in cuda_exec.h), computed on the host:
// every buffer's size and initial bytes, every stage's arguments and work sizes.
struct PreparedBuffer {
  const codegen::BufferInfo* info = nullptr;
  size_t bytes = 0;              // at least 16
  std::vector<uint8_t> initial;  // inputs: the packed value; tables: their data; else empty
};
struct PreparedArg {
  std::string buffer;  // a buffer's name, or empty for a size argument
  int32_t value = 0;   // the size argument's value
};
struct PreparedStage {
  const codegen::StageInfo* info = nullptr;
  std::vector<PreparedArg> args;
  std::vector<size_t> global;  // work-items per dimension (OpenCL's global size)
  std::vector<size_t> local;   // empty: the driver chooses
};
struct PreparedRun {
  std::unordered_map<uint64_t, int64_t> bound;  // bindSizes
  std::vector<PreparedBuffer> buffers;          // in the order of k.buffers
  std::vector<PreparedStage> stages;            // in the order of k.stages
  const codegen::BufferInfo* output = nullptr;
  ir::Type outputType;                          // concrete
};
// Packs the inputs (UserError: too few, too many, too large) and evaluates every size. The
// result points into `k`, which must outlive it.
PreparedRun prepareRun(const codegen::CompiledKernel& k, const std::vector<ir::Value>& inputs,
                       const std::map<std::string, int64_t>& sizes);
// The output value from the output buffer's bytes (gathered when it has a strided layout).
ir::Value unpackOutput(const PreparedRun& run, std::span<const uint8_t> bytes);

// Runs a compiled kernel on some device: the inputs in, the run's output and timing out.
using Runner = std::function<RunResult(const std::vector<ir::Value>& inputs)>;

// Throws backends::UserError when the kernel needs double precision and the device has none.
void checkDevice(const backends::opencl::DeviceInfo& device, const codegen::CompiledKernel& k);

// Builds (cached per source in this process), allocates, uploads, launches every stage in
// order, and reads the output back. DeviceError on build or launch failures.
RunResult runCompiled(const backends::opencl::Context& context, const codegen::CompiledKernel& k,
                      const std::vector<ir::Value>& inputs,
                      const std::map<std::string, int64_t>& sizes = {},
                      const TimingOptions& timing = {});

// A random value of type t: reals uniform in [-0.5, 0.5), ints in [-8, 8].
ir::Value randomValue(const ir::Type& t, std::mt19937_64& rng);

struct Comparison {
  bool ok = true;
  // max |got - want| / max(|want_i|, max |want| * 1e-3); differences below tolerance / 10 in
  // absolute value pass (results that cancel to ~0)
  double maxError = 0;  // infinity when an element is NaN on either side (then maxErrorNan)
  bool maxErrorNan = false;
  size_t elements = 0;
  std::string firstMismatch; // "element 17: got 1.5, want 1.25"
};

// Relative tolerance by precision: f32 1e-4, f64 1e-9.
double defaultTolerance(bool f64);
Comparison compareValues(const ir::Value& got, const ir::Value& want, double tolerance);

// Everything the tests and `fftc exec --check` do: random inputs (seeded), the kernel on the
// device, the interpreter on the same inputs, the comparison.
struct CheckResult {
  codegen::CompiledKernel compiled;
  std::vector<ir::Value> inputs;
  ir::Value device, reference;
  Comparison comparison;
  RunResult run;
};
CheckResult checkAgainstInterpreter(const backends::opencl::Context& context,
                                    const ir::LambdaPtr& typedKernel,
                                    const codegen::CompiledKernel& compiled,
                                    const std::map<std::string, int64_t>& sizes, uint64_t seed,
                                    const ir::InterpreterOptions& interp = {});
// The same on any target: `run` runs `compiled` (checkAgainstInterpreter uses runCompiled).
// Without `reference` the interpreter is not run (fftc exec without --check): `comparison` is
// left empty.
CheckResult checkWithRunner(const Runner& run, const ir::LambdaPtr& typedKernel,
                            const codegen::CompiledKernel& compiled,
                            const std::map<std::string, int64_t>& sizes, uint64_t seed,
                            const ir::InterpreterOptions& interp = {}, bool reference = true);

// The `fftc exec --json` object: name, target, precision, sizes, stages (kernel, global,
// local, ms), time_ms, elements, max_error, tolerance, ok (false when no reference was run).
// Never NaN or Infinity (not JSON): max_error is then null with max_error_nan or max_error_inf.
// Sets o[key] to `v` when finite; else to null and o[key + "_nan"] or o[key + "_inf"] to true
// (CLI.md: JSON reports never hold NaN or Infinity, which are not JSON).
void setNumber(boost::json::object& o, const std::string& key, double v);

boost::json::object reportJson(const CheckResult& result, const std::map<std::string, int64_t>& sizes,
                               bool checked);

}  // namespace fftc::compiler::exec
