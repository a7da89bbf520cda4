// Option parsing shared by the fftc subcommands.
#include "driver/options.h"

#include <cstdlib>
#include <fmt/format.h>
#include <iostream>
#include <stdexcept>
#include <string_view>

#include "backends/common/device_error.h"
#include "compiler/clang/clang_helpers.h"

namespace fftc::driver {

bool parseOptions(const Args& args, const std::string& usage, po::options_description& desc,
                  const po::positional_options_description* positional, po::variables_map& vm) {
  desc.add_options()("help,h", "show this help");
  po::command_line_parser parser(args);
  parser.options(desc);
  if (positional) parser.positional(*positional);
  po::store(parser.run(), vm);
  if (vm.count("help")) {
    std::cout << "usage: " << usage << "\n\n" << desc << "\n";
    return false;
  }
  po::notify(vm);
  return true;
}

std::map<std::string, compiler::frontend::DefineValue> parseDefines(
    const std::vector<std::string>& defines) {
  std::map<std::string, compiler::frontend::DefineValue> out;
  for (const auto& d : defines) {
    auto eq = d.find('=');
    if (eq == std::string::npos || eq == 0)
      throw backends::UserError(fmt::format("-D {}: expected NAME=VALUE", d));
    auto value = compiler::frontend::parseDefineValue(std::string_view(d).substr(eq + 1));
    if (!value)
      throw backends::UserError(
          fmt::format("-D {}: VALUE must be an integer or a list such as 4,4,4", d));
    out[d.substr(0, eq)] = *value;
  }
  return out;
}

void warnIfUserFunsUnchecked(const compiler::frontend::Program& program) {
  if (program.userFuns.empty() || compiler::clang_helpers::clangHelpersAvailable()) return;
  const char* env = std::getenv("FFTC_CLANG_PLUGIN");
  if (env && std::string_view(env) == "off") return;  // asked for: no note
  fmt::print(stderr, "fftc: warning: user function bodies are not checked ({}); their errors "
                     "come from the device compiler\n",
             compiler::clang_helpers::clangHelpersStatus());
}

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

ir::ScalarKind parsePrecision(const std::string& text) {
  if (text == "f32") return ir::ScalarKind::Float;
  if (text == "f64") return ir::ScalarKind::Double;
  throw backends::UserError(fmt::format("--precision {}: expected f32 or f64", text));
}

Target parseTarget(const std::string& text) {
  if (text == "opencl") return Target::OpenCL;
  if (text == "cuda") return Target::Cuda;
  throw backends::UserError(fmt::format("--target {}: expected opencl or cuda", text));
}

fftlib::FftRequest fftOpLimits(Target target, int64_t localMemory) {
  if (localMemory < 0)
    throw backends::UserError(
        fmt::format("--local-memory {}: expected bytes, 0 or more", localMemory));
  fftlib::FftRequest limits;
  limits.target = target;
  limits.localMemoryBytes = localMemory;
  return limits;
}

fftlib::FftOpsOptions fftOpChoices(int64_t chainRadix) {
  if (chainRadix < 2 || (chainRadix & (chainRadix - 1)) != 0)
    throw backends::UserError(
        fmt::format("--chain-radix {}: expected a power of two, 2 or more", chainRadix));
  return {.chainRadix = chainRadix};
}

std::vector<std::string> splitList(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    if (end > start) out.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::vector<int64_t> integers(const std::string& option, const std::string& text) {
  std::vector<int64_t> out;
  for (const std::string& p : splitList(text)) {
    try {
      size_t used = 0;
      out.push_back(std::stoll(p, &used));
      if (used != p.size()) throw std::invalid_argument(p);
    } catch (const std::exception&) {
      throw backends::UserError(fmt::format("{} {}: expected integers", option, text));
    }
  }
  return out;
}

}  // namespace fftc::driver
