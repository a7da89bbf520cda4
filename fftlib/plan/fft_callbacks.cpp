// Load and store callbacks (fft_callbacks.h): reading them, their key, and the interpreter's
// application of one for the reference of --check.
#include "fftlib/plan/fft_callbacks.h"

#include <filesystem>
#include <functional>

#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "compiler/frontend/frontend.h"
#include "fftlib/plan/fft_ops.h"
#include "fftlib/plan/planner.h"
#include "ir/interpreter.h"

namespace fftc::fftlib {

using backends::UserError;

FftCallback loadCallback(const std::string& spec, const char* option) {
  const size_t colon = spec.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == spec.size())
    throw UserError(fmt::format("{} {}: expected FILE:NAME", option, spec));
  FftCallback c;
  c.file = spec.substr(0, colon);
  c.name = spec.substr(colon + 1);
  try {
    c.source = compiler::frontend::readSourceFile(c.file);
  } catch (const std::exception& e) {
    throw UserError(fmt::format("{} {}: cannot read {}", option, spec, c.file));
  }
  return c;
}

std::string callbackKey(const FftCallback& c) {
  return fmt::format("{}#{:016x}", c.name, std::hash<std::string>{}(c.source));
}

std::vector<std::complex<double>> applyCallback(const FftCallback& c,
                                                std::span<const std::complex<double>> values) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = ir::ScalarKind::Double;
  opts.defines["fftcCallbackCount"] = static_cast<int64_t>(values.size());
  opts.kernels = {"fftcCallback"};
  const std::string text =
      c.source + fmt::format("\nkernel fftcCallback(x: [complex]fftcCallbackCount) = map({}) <<: x\n",
                             c.name);
  auto program = compiler::frontend::compileSource(text, c.file, opts);
  const auto& k = program.kernels.at(0);
  if (k.resultType != k.paramTypes.at(0))
    throw UserError(fmt::format("callback {} of {}: must map complex to complex, but maps the "
                                "elements of {} to those of {}",
                                c.name, c.file, k.paramTypes.at(0).str(), k.resultType.str()));
  const auto v = ir::interpretCall(
      k.lambda, {ir::Value::complexArray(values, ir::ScalarKind::Double,
                                         {static_cast<int64_t>(values.size())})});
  return v.toComplexVector();
}

std::shared_ptr<const CompiledFft> compileWithCallbacks(const FftRequest& r,
                                                        const PlanChoice& choice,
                                                        const std::string& kernelName) {
  if (r.real || r.dims.size() >= 2 || !r.inLayout.isDefault() || !r.outLayout.isDefault())
    throw UserError("--pre/--post: callbacks are for 1D complex transforms with dense layouts");
  // The callbacks' files imported by absolute path (each once, if they are one file); the
  // rows' function as a user would write it.
  std::string text, row = "row";
  for (const FftCallback* c : {&r.pre, &r.post})
    if (!c->empty())
      text += fmt::format("import \"{}\"\n", std::filesystem::absolute(c->file).string());
  if (!r.pre.empty()) row = fmt::format("map({}) <<: {}", r.pre.name, row);
  row = fmt::format("{} <<: {}", r.direction == Direction::Forward ? "fft" : "ifft", row);
  if (r.scale) row = fmt::format("map(fun y => y * (1.0 / N)) <<: {}", row);
  if (!r.post.empty()) row = fmt::format("map({}) <<: {}", r.post.name, row);
  text += fmt::format("kernel fft(x: [[complex]N]B) = map(fun row => {}) <<: x\n", row);

  compiler::frontend::ElaborateOptions opts;
  opts.precision = r.precision == Precision::F64 ? ir::ScalarKind::Double : ir::ScalarKind::Float;
  opts.defines = {{"N", r.size}, {"B", r.batch}};
  auto program = compiler::frontend::compileSource(text, "callbacks.fdl", opts);
  const auto& k = program.kernels.at(0);
  if (k.resultType != k.paramTypes.at(0))
    throw UserError(fmt::format("--pre/--post: the callbacks must map complex to complex, but "
                                "the transform with them maps {} to {}",
                                k.paramTypes.at(0).str(), k.resultType.str()));
  auto p = std::make_shared<CompiledFft>();
  p->request = r;
  p->choice = choice;
  p->strategy = "lowerFft";
  compiler::codegen::CodegenOptions options;
  options.name = kernelName;
  options.format = r.format;
  p->compiled = buildExpanded(expandFftOps(k, r), "", r.target, options).compiled;
  fillStages(*p);
  return p;
}

}  // namespace fftc::fftlib
