// Command-line options shared by several fftc subcommands (CLI.md): -D bindings, precision,
// target, and parsing with a --help that documents every option.
#pragma once

#include <boost/program_options.hpp>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "driver/commands.h"
#include "driver/exit_status.h"
#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"
#include "fftlib/plan/fft_ops.h"
#include "fftlib/plan/plan_request.h"

namespace fftc::driver {

namespace po = boost::program_options;

using compiler::pipeline::Target;

// Parses `args` against `desc` (+ positional); prints help and returns false on --help.
// Throws po::error (exit 1) on unknown or malformed options.
bool parseOptions(const Args& args, const std::string& usage, po::options_description& desc,
                  const po::positional_options_description* positional, po::variables_map& vm);

// "-D NAME=VALUE" strings -> frontend bindings; UserError for a malformed one.
std::map<std::string, compiler::frontend::DefineValue> parseDefines(
    const std::vector<std::string>& defines);

// One line on stderr when `program` has user functions whose C bodies fftc cannot check because
// the clang helpers are missing (no plugin next to fftc, or a build without LLVM): their errors
// then come from the device compiler, later and without a .fdl location. Silent when
// FFTC_CLANG_PLUGIN=off asks for no plugin.
void warnIfUserFunsUnchecked(const compiler::frontend::Program& program);

// The kernel `name` of `p`, or its only kernel when `name` is empty; UserError otherwise.
const compiler::frontend::Kernel& onlyKernel(const compiler::frontend::Program& p,
                                             const std::string& name);

ir::ScalarKind parsePrecision(const std::string& text);  // f32 | f64
Target parseTarget(const std::string& text);             // opencl | cuda
// The limits of a program's fft operations (fftlib/plan/fft_ops.h) from `exec`/`compile`'s
// --target and --local-memory (UserError when the bytes are negative).
fftlib::FftRequest fftOpLimits(Target target, int64_t localMemory);
// `exec`/`compile`'s --chain-radix R (fftlib::FftOpsOptions::chainRadix): a power of two, 2
// or more (UserError otherwise).
fftlib::FftOpsOptions fftOpChoices(int64_t chainRadix);
std::vector<std::string> splitList(const std::string& text);  // "a,b,,c" -> {a, b, c}
// "4,8,16" -> {4, 8, 16}; a UserError "OPTION TEXT: expected integers" unless every item is
// an integer to its end ("4x" is not 4).
std::vector<int64_t> integers(const std::string& option, const std::string& text);

}  // namespace fftc::driver
