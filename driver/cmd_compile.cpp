// fftc compile: a .fdl program's kernels -> kernels, manifest and header files, or IR, lowered
// IR and view dumps on stdout (CLI.md).
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <optional>
#include <set>

#include "backends/common/device_error.h"
#include "driver/commands.h"
#include "driver/fft_ops_wisdom.h"
#include "driver/kernel_wisdom.h"
#include "driver/emit.h"
#include "driver/options.h"
#include "compiler/pipeline/pipeline.h"
#include "fftlib/plan/fft_ops.h"
#include "ir/printer.h"

namespace fftc::driver {
namespace {

const std::set<std::string> kEmitKinds = {"source", "manifest", "header", "ir", "lowered", "views"};

std::vector<const compiler::frontend::Kernel*> selectKernels(
    const compiler::frontend::Program& program, const std::string& name) {
  std::vector<const compiler::frontend::Kernel*> out;
  if (!name.empty()) {
    const auto* k = program.kernel(name);
    if (!k)
      throw backends::UserError(fmt::format("{}: no kernel named '{}'", program.fileName, name));
    out.push_back(k);
    return out;
  }
  for (const auto& k : program.kernels) out.push_back(&k);
  if (out.empty())
    throw backends::UserError(fmt::format("{}: declares no kernel", program.fileName));
  return out;
}

}  // namespace

int runCompile(const Args& args) {
  std::string file, kernel, rewrite, outDir, device, wisdom, fftOpsConfig;
  std::string target = "opencl", precision = "f32", emit = "source,manifest,header";
  std::vector<std::string> defines;
  int64_t localMemory = 0, chainRadix = fftlib::kChainDefaultRadix;
  po::options_description desc("fftc compile options");
  desc.add_options()
      ("file", po::value(&file)->required(), "the .fdl program")
      ("kernel", po::value(&kernel), "compile only this kernel (default: all)")
      ("target", po::value(&target)->default_value(target), "opencl | cuda")
      ("precision", po::value(&precision)->default_value(precision),
       "what `real` means: f32 | f64")
      (",D", po::value(&defines)->composing(), "NAME=VALUE: fix a size or a def (int or list)")
      ("rewrite", po::value(&rewrite),
       "rewrite strategy, e.g. lowerFft or 'topDown(mapFusion); lowerGlobal'\n"
       "(default: lowerDefault when the program is not low-level yet)")
      ("emit", po::value(&emit)->default_value(emit),
       "comma list of source, manifest, header (files in -o DIR); ir, lowered, views (stdout, or "
       "files in DIR when -o is given)")
      ("local-memory", po::value(&localMemory)->default_value(localMemory),
       "bytes of local memory the plans of fft(x) operations may take (0: 48 KiB)")
      ("chain-radix", po::value(&chainRadix)->default_value(chainRadix),
       "the largest radix of an fft(x) of another's result in one kernel (the convolution's; "
       "16: the plain FFT's radices)")
      ("fft-ops", po::value(&fftOpsConfig),
       "the plans of the fft(x) operations' row maps as `fftc tune` records them (default: "
       "with --device, the wisdom's for the kernel on that device, else the planner's)")
      ("device", po::value(&device),
       "opencl:P:D, opencl:NAME or cuda:N: apply the wisdom explore --record and tune "
       "recorded for a kernel on this device (a strategy without --rewrite; the plans of fft(x) "
       "operations without --fft-ops or --chain-radix)")
      ("wisdom", po::value(&wisdom),
       "the wisdom file --device reads (default: $FFTC_WISDOM, else ~/.cache/fftc/wisdom.json)")
      (",o", po::value(&outDir), "output directory (default: the current one)");
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  if (!parseOptions(args, "fftc compile FILE.fdl [options]", desc, &pos, vm)) return kSuccess;

  const auto tgt = parseTarget(target);
  compiler::frontend::ElaborateOptions elaborate;
  elaborate.precision = parsePrecision(precision);
  elaborate.defines = parseDefines(defines);
  if (!kernel.empty()) elaborate.kernels = {kernel};  // the -D bindings need suit it alone
  std::set<std::string> kinds;
  for (const auto& e : splitList(emit)) {
    if (!kEmitKinds.count(e))
      throw backends::UserError(fmt::format(
          "--emit {}: expected source, manifest, header, ir, lowered or views", e));
    kinds.insert(e);
  }

  // ir, lowered and views go to stdout, or with an explicit -o to files beside the others
  const bool textToFiles = !outDir.empty();
  if (outDir.empty()) outDir = ".";
  const bool writes = kinds.count("source") || kinds.count("manifest") || kinds.count("header") ||
                      (textToFiles && (kinds.count("ir") || kinds.count("lowered") ||
                                       kinds.count("views")));
  if (writes) prepareOutputDir(outDir);  // a bad -o fails before compiling

  auto program = compiler::frontend::parseFile(file, elaborate);
  warnIfUserFunsUnchecked(program);
  // every kernel's files first, then all written at once: a kernel that fails to compile
  // leaves the directory as it was
  OutputSet outputs(outDir);
  auto text = [&](const std::string& fileName, std::string body) {
    if (textToFiles)
      outputs.add(fileName, std::move(body));
    else
      fmt::print("{}\n", body);
  };
  const auto kernels = selectKernels(program, kernel);
  if (!fftOpsConfig.empty()) {
    // the plans name row maps by their index in one kernel (form<i>): for one kernel only
    std::vector<std::string> withOps;
    for (const auto* k : kernels)
      if (fftlib::hasFftOps(*k)) withOps.push_back(k->name);
    if (withOps.empty())
      throw backends::UserError(fmt::format(
          "--fft-ops: {} has no fft operations (nothing to plan)",
          kernel.empty() ? "the program" : "kernel " + kernel));
    if (withOps.size() > 1)
      throw backends::UserError(
          fmt::format("--fft-ops: the kernels {} have fft operations: give --kernel K (the plans "
                      "are one kernel's)",
                      fmt::join(withOps, ", ")));
  }
  for (const auto* k : kernels) {
    if (kinds.count("ir"))
      text(k->name + ".ir", fmt::format("// kernel {}: {}\n{}\n", k->name, k->resultType.str(),
                                        ir::print(ir::FunPtr(k->lambda))));
    bool needsCode = kinds.count("source") || kinds.count("manifest") || kinds.count("header") ||
                     kinds.count("views");
    if (!needsCode && !kinds.count("lowered")) continue;
    // fft(x) and ifft(x): the planner's algorithm in the program, lowered as buildExpanded
    // does (fftlib/plan/fft_ops.h)
    auto options = compiler::pipeline::codegenOptions(tgt);
    std::optional<fftlib::ExpandedFftOps> expanded;
    std::string strategy = rewrite;
    const KernelProblem problem{file, k->name, precision, target, defines};
    if (strategy.empty() && !device.empty() && !fftlib::hasFftOps(*k) &&
        kernelWisdomMayApply(wisdom, problem)) {
      std::string note;
      if (auto found = kernelWisdomStrategy(wisdom, problem, deviceIdentity(tgt, device), note))
        strategy = *found;
      if (!note.empty()) fmt::print(stderr, "fftc: note: {}\n", note);
    }
    if (fftlib::hasFftOps(*k)) {
      const fftlib::FftRequest limits = fftOpLimits(tgt, localMemory);
      if (fftOpsConfig.empty() && !device.empty() && vm["chain-radix"].defaulted())
        expanded = applyFftOpsWisdom(wisdom, problem, *k, limits, chainRadix,
                                     [&] { return deviceIdentity(tgt, device); });
      if (!expanded)
        expanded = fftlib::expandFftOps(*k, limits, fftOpsChoices(chainRadix, fftOpsConfig));
      if (strategy.empty()) strategy = fftlib::kFftOpsStrategy;
      fftlib::fftOpsOptions(*expanded, strategy, options);
    }
    auto lowered = compiler::pipeline::lower(expanded ? expanded->kernel : *k, strategy);
    if (lowered.rewritten && lowered.info.budgetHit)
      fmt::print(stderr, "fftc: warning: {}\n", lowered.info.report());
    if (kinds.count("lowered"))
      text(k->name + ".lowered.ir",
           fmt::format("// kernel {} lowered{}:\n{}\n", k->name,
                       lowered.rewritten ? " by " + (strategy.empty() ? "lowerDefault" : strategy)
                                         : "",
                       ir::print(ir::FunPtr(lowered.kernel.lambda))));
    if (!needsCode) continue;
    auto compiled = compiler::codegen::compileKernel(lowered.kernel, options);
    if (kinds.count("views")) {
      if (textToFiles)
        outputs.add(k->name + ".views.txt", compiler::codegen::viewsText(compiled));
      else
        fmt::print("{}", compiler::codegen::viewsText(compiled));
    }
    outputs.addKernel(compiled, kinds, tgt == Target::Cuda);
  }
  outputs.commit();
  return kSuccess;
}

}  // namespace fftc::driver
