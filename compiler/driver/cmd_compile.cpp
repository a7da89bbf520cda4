// fftc compile: a .fdl program's kernels -> IR dumps, or kernels, manifest and header (CLI.md).
#include <fmt/format.h>
#include <set>

#include "backends/common/device_error.h"
#include "compiler/driver/commands.h"
#include "compiler/driver/options.h"
#include "ir/printer.h"

namespace fftc::driver {
namespace {

const std::set<std::string> kEmitKinds = {"source", "manifest", "header", "ir", "lowered", "views"};

struct CompileRequest {
  std::string file;
  std::string kernel;
  Target target = Target::OpenCL;
  compiler::frontend::ElaborateOptions elaborate;
  std::string rewrite;
  std::set<std::string> emit;
  std::string outDir = ".";
};

std::vector<const compiler::frontend::Kernel*> selectKernels(
    const compiler::frontend::Program& program, const std::string& name) {
  std::vector<const compiler::frontend::Kernel*> out;
  if (!name.empty()) {
    const auto* k = program.kernel(name);
    if (!k) throw backends::UserError(fmt::format("{}: no kernel named '{}'", program.fileName, name));
    out.push_back(k);
    return out;
  }
  for (const auto& k : program.kernels) out.push_back(&k);
  if (out.empty()) throw backends::UserError(fmt::format("{}: declares no kernel", program.fileName));
  return out;
}

}  // namespace

int runCompile(const Args& args) {
  CompileRequest req;
  std::string target = "opencl", precision = "f32", emit = "source,manifest,header";
  std::vector<std::string> defines;
  po::options_description desc("fftc compile options");
  desc.add_options()
      ("file", po::value(&req.file)->required(), "the .fdl program")
      ("kernel", po::value(&req.kernel), "compile only this kernel (default: all)")
      ("target", po::value(&target)->default_value("opencl"), "opencl | cuda")
      ("precision", po::value(&precision)->default_value("f32"), "what `real` means: f32 | f64")
      (",D", po::value(&defines)->composing(), "NAME=VALUE: fix a size or a def (int or list)")
      ("rewrite", po::value(&req.rewrite), "rewrite strategy, e.g. lowerGlobal")
      ("emit", po::value(&emit)->default_value(emit),
       "comma list of source, manifest, header, ir, lowered, views")
      (",o", po::value(&req.outDir)->default_value("."), "output directory");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc compile FILE.fdl [options]", desc, &pos, vm)) return kSuccess;

  req.target = parseTarget(target);
  req.elaborate.precision = parsePrecision(precision);
  req.elaborate.defines = parseDefines(defines);
  for (const auto& e : splitList(emit)) {
    if (!kEmitKinds.count(e))
      throw backends::UserError(fmt::format(
          "--emit {}: expected source, manifest, header, ir, lowered or views", e));
    req.emit.insert(e);
  }

  auto program = compiler::frontend::parseFile(req.file, req.elaborate);
  auto kernels = selectKernels(program, req.kernel);
  for (const auto& e : req.emit) {
    if (e != "ir")
      throw backends::UserError(fmt::format(
          "--emit {}: code generation is not available yet in this build", e));
  }
  for (const auto* k : kernels) {
    fmt::print("kernel {} : {}\n{}\n\n", k->name, k->resultType ? k->resultType.str() : "?",
               ir::print(ir::FunPtr(k->lambda)));
  }
  return kSuccess;
}

}  // namespace fftc::driver
