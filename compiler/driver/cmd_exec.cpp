// fftc exec: compiles a kernel of a .fdl program, runs it on a device on seeded random inputs,
// and with --check compares every output element with the reference interpreter (CLI.md).
#include <boost/json.hpp>
#include <fmt/format.h>
#include <random>

#include "backends/common/device_error.h"
#include "compiler/driver/commands.h"
#include "compiler/driver/options.h"
#include "compiler/exec/exec.h"
#include "compiler/pipeline/pipeline.h"

namespace fftc::driver {
namespace {

const compiler::frontend::Kernel& onlyKernel(const compiler::frontend::Program& p,
                                             const std::string& name) {
  if (!name.empty()) {
    if (const auto* k = p.kernel(name)) return *k;
    throw backends::UserError(fmt::format("{}: no kernel named '{}'", p.fileName, name));
  }
  if (p.kernels.size() != 1)
    throw backends::UserError(fmt::format(
        "{}: declares {} kernels; choose one with --kernel", p.fileName, p.kernels.size()));
  return p.kernels.front();
}

}  // namespace

int runExec(const Args& args) {
  std::string file, kernel, rewrite, device, target = "opencl", precision = "f32";
  std::vector<std::string> defines;
  uint64_t seed = 1;
  bool check = false, json = false;
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
      ("check", po::bool_switch(&check), "compare with the reference interpreter (exit 3 if off)")
      ("json", po::bool_switch(&json), "print one JSON object");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc exec FILE.fdl [options]", desc, &pos, vm)) return kSuccess;
  if (parseTarget(target) == Target::Cuda)
    throw backends::UserError("exec --target cuda: running CUDA kernels from fftc exec has not "
                              "landed yet; --target opencl runs on any OpenCL device");

  compiler::frontend::ElaborateOptions elaborate;
  elaborate.precision = parsePrecision(precision);
  elaborate.defines = parseDefines(defines);
  auto program = compiler::frontend::parseFile(file, elaborate);
  const auto& k = onlyKernel(program, kernel);
  auto built = compiler::pipeline::build(k, rewrite, Target::OpenCL, {});

  auto context = backends::opencl::Context::fromSelector(device);
  compiler::exec::checkDevice(context.device(), built.compiled);
  std::map<std::string, int64_t> sizes;  // all sizes are fixed by -D at elaboration
  auto bound = compiler::exec::bindSizes(built.compiled, sizes);
  compiler::exec::CheckResult r;
  r.compiled = built.compiled;
  std::mt19937_64 rng(seed);
  for (const auto& p : k.lambda->params())
    r.inputs.push_back(compiler::exec::randomValue(compiler::exec::concreteType(p->type(), bound), rng));
  r.run = compiler::exec::runCompiled(context, built.compiled, r.inputs, sizes);
  r.device = r.run.output;
  if (check) {
    // The reference is the program as written (before rewriting): the check covers the
    // rewrites as well as code generation.
    ir::InterpreterOptions o;
    o.sizes = bound;
    r.reference = ir::interpretCall(k.lambda, r.inputs, o);
    r.comparison = compiler::exec::compareValues(r.device, r.reference,
                                                 compiler::exec::defaultTolerance(built.compiled.usesDouble));
  }
  if (json) {
    auto o = compiler::exec::reportJson(r, sizes, check);
    o["device"] = context.device().name;
    fmt::print("{}\n", boost::json::serialize(o));
  } else {
    fmt::print("{}: {} stage(s) on {}, {:.3f} ms\n", built.compiled.name,
               built.compiled.stages.size(), context.device().name, r.run.totalMs);
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
