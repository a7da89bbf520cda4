// Load and store callbacks (fft_callbacks.h): reading them, their key, and the interpreter's
// application of one for the reference of --check.
#include "fftlib/plan/fft_callbacks.h"

#include <filesystem>
#include <functional>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"
#include "compiler/frontend/frontend.h"
#include "compiler/frontend/parser.h"
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
  // NAME must be a def or userfun of FILE (or of a file it imports, which only elaboration
  // sees): otherwise the elaborator's "unknown name" would point into the synthesized kernel.
  const auto module = compiler::frontend::parse(c.source, c.file);
  std::vector<std::string> functions;
  bool imports = false;
  for (const auto& d : module.decls) {
    imports = imports || d->kind == compiler::frontend::ast::DeclKind::Import;
    if (d->kind == compiler::frontend::ast::DeclKind::Def ||
        d->kind == compiler::frontend::ast::DeclKind::UserFun) {
      if (d->name == c.name) return c;
      functions.push_back(d->name);
    }
  }
  if (!imports)
    throw UserError(
        fmt::format("{} {}: {} defines no function {} (its defs: {})", option, spec, c.file, c.name,
                    functions.empty() ? "none" : fmt::format("{}", fmt::join(functions, ", "))));
  return c;
}

std::string callbackKey(const FftCallback& c) {
  return fmt::format("{}#{:016x}", c.name, std::hash<std::string>{}(c.source));
}

bool takesIndex(const FftCallback& c) {
  // elaborated on four elements with their indices: an error or another type is a callback of
  // the element alone
  compiler::frontend::ElaborateOptions opts;
  opts.defines["N"] = int64_t{4};
  opts.kernels = {"fftcCallbackProbe"};
  const std::string text = c.source + fmt::format(
                                          "\nkernel fftcCallbackProbe(x: [complex]4) = map({}) "
                                          "<<: zip(x, array(4, fun i => i))\n",
                                          c.name);
  try {
    const auto program = compiler::frontend::compileSource(text, c.file, opts);
    const auto& k = program.kernels.at(0);
    return k.resultType == k.paramTypes.at(0);
  } catch (const std::exception&) {
    return false;
  }
}

std::vector<std::complex<double>> applyCallback(const FftCallback& c,
                                                std::span<const std::complex<double>> values,
                                                int64_t transformSize) {
  compiler::frontend::ElaborateOptions opts;
  opts.precision = ir::ScalarKind::Double;
  opts.defines["fftcCallbackCount"] = static_cast<int64_t>(values.size());
  opts.defines["N"] = transformSize;
  opts.kernels = {"fftcCallback"};
  const std::string elements =
      takesIndex(c) ? "zip(x, array(fftcCallbackCount, fun i => i % N))" : "x";
  const std::string text =
      c.source +
      fmt::format("\nkernel fftcCallback(x: [complex]fftcCallbackCount) = map({}) <<: {}\n",
                  c.name, elements);
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
  if (r.real || r.dims.size() > 3 || !r.inLayout.isDefault() || !r.outLayout.isDefault())
    throw UserError(
        "--pre/--post: callbacks are for complex transforms of 1 to 3 dimensions with dense "
        "layouts");
  // The callbacks' files imported by absolute path (each once, if they are one file); the
  // rows' functions as a user would write them.
  std::string text;
  for (const FftCallback* c : {&r.pre, &r.post})
    if (!c->empty())
      text += fmt::format("import \"{}\"\n", std::filesystem::absolute(c->file).string());
  const char* op = r.direction == Direction::Forward ? "fft" : "ifft";
  // a callback applied to the elements of `row` (with their indices: zipped with 0 .. N-1)
  const bool preIndex = !r.pre.empty() && takesIndex(r.pre);
  const bool postIndex = !r.post.empty() && takesIndex(r.post);
  if ((preIndex || postIndex) && r.dims.size() >= 2)
    throw UserError("--pre/--post: a callback with the element's index is for 1D transforms");
  auto apply = [](const FftCallback& c, bool indexed, const std::string& row) {
    return indexed ? fmt::format("map({}) <<: zip({}, array(N, fun i => i))", c.name, row)
                   : fmt::format("map({}) <<: {}", c.name, row);
  };
  // the transform of a row with the load callback (first) and the store callback (last)
  auto rowFunction = [&](bool first, bool last) {
    std::string row = "row";
    if (first && !r.pre.empty()) row = apply(r.pre, preIndex, row);
    row = fmt::format("{} <<: {}", op, row);
    if (last && r.scale) row = fmt::format("map(fun y => y * (1.0 / N)) <<: {}", row);
    if (last && !r.post.empty()) row = apply(r.post, postIndex, row);
    return fmt::format("map(fun row => {})", row);
  };
  // N-D: a pass of row maps per dimension, last first, each over all the batch's lines of its
  // dimension (the lines brought innermost by views between the passes), so that every pass is
  // a row map in the kernel's data flow (fft_ops.h): the load callback in the first pass, the
  // store callback in the last.
  std::map<std::string, compiler::frontend::DefineValue> defines = {{"N", r.size},
                                                                     {"B", r.batch}};
  const auto dims = r.dims.size() >= 2 ? r.dims : std::vector<int64_t>{r.size};
  for (size_t d = 0; d < dims.size(); ++d) defines[fmt::format("D{}", d)] = dims[d];
  if (dims.size() == 1) {
    text += fmt::format("kernel fft(x: [[complex]N]B) = {} <<: x\n", rowFunction(true, true));
  } else if (dims.size() == 2) {
    // rows (b, i0) over i1; then lines (b, i1) over i0; then back
    text += fmt::format(
        "kernel fft(x: [[[complex]D1]D0]B) =\n"
        "  map(transpose) <<: split(D1) <<: {}\n"
        "  <<: join <<: map(transpose) <<: split(D0) <<: {} <<: join <<: x\n",
        rowFunction(false, true), rowFunction(true, false));
  } else {
    // lines (b, i0, i1) over i2; (b, i0, i2) over i1; (b, i2, i1) over i0; then back
    text += fmt::format(
        "kernel fft(x: [[[[complex]D2]D1]D0]B) =\n"
        "  map(map(transpose) o transpose o map(transpose)) <<: split(D2) <<: split(D1)\n"
        "  <<: {}\n"
        "  <<: join <<: map(join o map(transpose) o transpose) <<: split(D0) <<: split(D2)\n"
        "  <<: {}\n"
        "  <<: join <<: map(transpose) <<: split(D1) <<: {} <<: join <<: join <<: x\n",
        rowFunction(false, true), rowFunction(false, false), rowFunction(true, false));
  }

  compiler::frontend::ElaborateOptions opts;
  opts.precision = r.precision == Precision::F64 ? ir::ScalarKind::Double : ir::ScalarKind::Float;
  opts.defines = defines;
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
