// Shared by the code generation tests: one OpenCL context (PoCL here) for the executable,
// compiling .fdl text or C++-built lambdas, and running them against the interpreter.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include "backends/common/opencl_dialect.h"
#include "backends/opencl/runtime.h"
#include "compiler/codegen/codegen.h"
#include "compiler/exec/exec.h"
#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"
#include "ir/infer.h"

namespace fftc::codegen_test {

namespace cg = fftc::compiler::codegen;
namespace ex = fftc::compiler::exec;
namespace fe = fftc::compiler::frontend;

inline backends::opencl::Context& context() {
  static backends::opencl::Context c = [] {
    backends::opencl::Context ctx = backends::opencl::Context::fromSelector("");
    ctx.setCache(nullptr);
    std::cerr << "OpenCL device: " << ctx.device().name << " (" << ctx.device().platformName
              << ")\n";
    return ctx;
  }();
  return c;
}

// The printer's own layout (no clang-format), so that golden checks of lines hold in builds with
// and without LLVM; Formatting.* tests the formatted source.
inline cg::CodegenOptions options() {
  cg::CodegenOptions o;
  o.dialect = std::make_shared<backends::OpenCLDialect>();
  o.format = false;
  return o;
}

// Compiles kernel `name` of `text` with -D bindings.
inline cg::CompiledKernel compileText(const std::string& text, const std::string& name,
                                      const std::map<std::string, int64_t>& defines = {},
                                      cg::CodegenOptions o = options(),
                                      ir::ScalarKind precision = ir::ScalarKind::Float,
                                      fe::Program* keep = nullptr) {
  fe::ElaborateOptions eo;
  eo.precision = precision;
  for (const auto& [k, v] : defines) eo.defines[k] = v;
  fe::Program p = fe::compileSource(text, "test.fdl", eo);
  const fe::Kernel* k = p.kernel(name);
  if (!k) throw std::runtime_error("no kernel " + name);
  o.sizes = defines;
  cg::CompiledKernel ck = cg::compileKernel(*k, o);
  if (keep) *keep = p;
  return ck;
}

// Compiles, runs on random inputs and compares with the interpreter.
inline ex::CheckResult checkText(const std::string& text, const std::string& name,
                                 const std::map<std::string, int64_t>& defines = {},
                                 const std::map<std::string, int64_t>& sizes = {},
                                 uint64_t seed = 1, cg::CodegenOptions o = options(),
                                 ir::ScalarKind precision = ir::ScalarKind::Float) {
  fe::Program p;
  cg::CompiledKernel ck = compileText(text, name, defines, o, precision, &p);
  return ex::checkAgainstInterpreter(context(), p.kernel(name)->lambda, ck, sizes, seed);
}

// `kernel` of `text`, its sizes given by -D `defines`, lowered by `strategy` as `fftc compile
// --rewrite` lowers it (compiler::pipeline::lower), compiled for the test device and run on
// random inputs from `seed` against the interpreter's result for the program as written.
struct LoweredRun {
  cg::CompiledKernel ck;
  ex::CheckResult check;
};
inline LoweredRun lowerAndCheck(const std::string& text, const std::string& kernel,
                                const std::string& strategy,
                                const std::map<std::string, int64_t>& defines, uint64_t seed) {
  fe::ElaborateOptions eo;
  for (const auto& [k, v] : defines) eo.defines[k] = v;
  fe::Program p = fe::compileSource(text, "test.fdl", eo);
  const fe::Kernel* k = p.kernel(kernel);
  if (!k) throw std::runtime_error("no kernel " + kernel);
  auto lowered = compiler::pipeline::lower(*k, strategy);
  cg::CodegenOptions o = options();
  o.sizes = defines;
  LoweredRun out{cg::compileKernel(lowered.kernel, o), {}};
  out.check = ex::checkAgainstInterpreter(context(), k->lambda, out.ck, defines, seed);
  return out;
}

// The same for a C++-built kernel: params typed, inferred here.
inline ex::CheckResult checkLambda(const ir::LambdaPtr& f, const std::string& name,
                                   uint64_t seed = 1, cg::CodegenOptions o = options(),
                                   const std::vector<ir::ArithExpr>& sizeVars = {},
                                   const std::map<std::string, int64_t>& sizes = {}) {
  ir::LambdaPtr typed = ir::inferTypes(f);
  std::vector<std::string> names;
  for (const auto& p : typed->params()) names.push_back(p->name());
  cg::CompiledKernel ck = cg::compileLambda(typed, name, names, sizeVars, o);
  return ex::checkAgainstInterpreter(context(), typed, ck, sizes, seed);
}

#define EXPECT_MATCHES(check)                                                            \
  do {                                                                                   \
    const auto& c_ = (check);                                                            \
    EXPECT_TRUE(c_.comparison.ok) << c_.comparison.firstMismatch << "\n"                 \
                                  << c_.compiled.source;                                 \
  } while (0)

// The project's source directory, for examples/*.fdl: from this header's path, unless that is
// relative (ccache's CCACHE_BASEDIR makes it so) and does not lead there from the working
// directory; then the nearest directory above the working directory that holds examples/.
inline std::string sourceRoot() {
  if (const char* env = std::getenv("FFTC_SOURCE_DIR")) return env;  // a copied test binary
  std::string f = __FILE__;
  std::string root = f.substr(0, f.rfind("/tests/codegen/"));
  namespace fs = std::filesystem;
  if (fs::exists(fs::path(root) / "examples" / "stockham.fdl")) return root;
  for (fs::path p = fs::current_path(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "examples" / "stockham.fdl")) return p.string();
    if (p == p.parent_path()) break;
  }
  return root;
}

inline std::string readFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Number of occurrences of `needle` in `hay`.
inline size_t count(const std::string& hay, const std::string& needle) {
  size_t n = 0;
  for (size_t p = hay.find(needle); p != std::string::npos; p = hay.find(needle, p + 1)) ++n;
  return n;
}

}  // namespace fftc::codegen_test
