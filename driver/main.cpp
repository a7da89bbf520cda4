// fftc: the command-line compiler (CLI.md). Dispatches to the subcommands and turns every
// failure into a one-line reason on stderr and the documented exit status.
#include <boost/program_options/errors.hpp>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fmt/format.h>
#include <string>
#include <string_view>

#include "backends/common/device_error.h"
#include "driver/commands.h"
#include "driver/exit_status.h"
#include "compiler/frontend/diagnostics.h"
#include "ir/arith/arith_expr.h"
#include "ir/diagnostic.h"
#include "rewrites/strategy_parser.h"
#include "tuner/configuration.h"

namespace {

using fftc::driver::Args;

struct Command {
  std::string_view name;
  int (*run)(const Args&);
  std::string_view summary;
};

constexpr Command kCommands[] = {
    {"compile", fftc::driver::runCompile, "compile the kernels of a .fdl program"},
    {"fft", fftc::driver::runFft, "build an FFT from the FFT library and emit its kernels"},
    {"run", fftc::driver::runRun, "build an FFT, run it on a device, time and check it"},
    {"tune", fftc::driver::runTune,
     "search the FFT plan space (with FILE.fdl: a kernel's rewrites and their numbers) on a "
     "device, record wisdom"},
    {"exec", fftc::driver::runExec, "run a kernel of a .fdl program on random inputs"},
    {"explore", fftc::driver::runExplore,
     "rank rewrite variants of a kernel by time on a device, each checked"},
    {"devices", fftc::driver::runDevices, "list OpenCL and CUDA devices"},
};

void printUsage(std::FILE* to) {
  fmt::print(to, "usage: fftc COMMAND [OPTIONS]   (fftc COMMAND --help for its options)\n\n");
  for (const auto& c : kCommands) fmt::print(to, "  {:<9} {}\n", c.name, c.summary);
  fmt::print(to,
             "\nexit status: 0 success, 1 user error, 2 device or driver failure,\n"
             "             3 --check found an error above the tolerance, 4 internal error,\n"
             "             5 out of memory\n");
}

int dispatch(int argc, char** argv) {
  if (argc < 2) {
    printUsage(stderr);
    return fftc::driver::kUserError;
  }
  std::string_view name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(stdout);
    return fftc::driver::kSuccess;
  }
  if (name == "--version") {
    fmt::print("fftc {}\n", FFTC_VERSION);
    return fftc::driver::kSuccess;
  }
  for (const auto& c : kCommands) {
    if (c.name == name) return c.run(Args(argv + 2, argv + argc));
  }
  throw fftc::backends::UserError(
      fmt::format("unknown command '{}' (fftc --help lists the commands)", name));
}

}  // namespace

// The one-line report of the exception being handled, and its exit status (commands.h).
int fftc::driver::reportCurrentException() {
  using namespace fftc::driver;
  try {
    throw;
  } catch (const fftc::ir::CompileError& e) {
    fmt::print(stderr, "{}", fftc::compiler::frontend::formatError(e));
    return kUserError;
  } catch (const fftc::rewrites::StrategyParseError& e) {
    fmt::print(stderr, "{}\n", e.what());
    return kUserError;
  } catch (const fftc::ir::InterpreterError& e) {
    fmt::print(stderr, "fftc: error: {}\n", e.what());
    return kUserError;
  } catch (const fftc::backends::UserError& e) {
    fmt::print(stderr, "fftc: error: {}\n", e.what());
    return kUserError;
  } catch (const boost::program_options::error& e) {
    fmt::print(stderr, "fftc: error: {}\n", e.what());
    return kUserError;
  } catch (const fftc::backends::DeviceError& e) {
    fmt::print(stderr, "fftc: device error: {}\n", e.what());
    if (!e.log().empty()) fmt::print(stderr, "{}\n", e.log());
    return kDeviceError;
  } catch (const CheckFailed& e) {
    fmt::print(stderr, "fftc: check failed: {}\n", e.what());
    return kCheckFailed;
  } catch (const fftc::tuner::TunerError& e) {  // a bad tuning log or wisdom file
    fmt::print(stderr, "fftc: error: {}\n", e.what());
    return kUserError;
  } catch (const fftc::ir::ArithError& e) {
    // Constant folding of sizes the front end did not see (e.g. a product of the dimensions
    // during code generation): a size the user asked for, too large for int64.
    fmt::print(stderr, "fftc: error: sizes too large: {}\n", e.what());
    return kUserError;
  } catch (const std::filesystem::filesystem_error& e) {  // an output path that cannot be made
    fmt::print(stderr, "fftc: error: {}: {}\n", e.path1().string(), e.code().message());
    return kUserError;
  } catch (const std::bad_alloc&) {
    // Host memory: a size or batch beyond what this machine (or its ulimit) gives. Not a bug,
    // and not the device's failure either: its own status, so that scripts can tell.
    fmt::print(stderr, "fftc: out of memory: the host could not allocate what these sizes "
                       "need (std::bad_alloc)\n");
    return kOutOfMemory;
  } catch (const std::length_error& e) {  // a vector or string asked for more than max_size()
    fmt::print(stderr, "fftc: out of memory: {}\n", e.what());
    return kOutOfMemory;
  } catch (const std::exception& e) {
    fmt::print(stderr, "fftc: internal error: {}\n", e.what());
    return kInternalError;
  }
}

int main(int argc, char** argv) {
  try {
    return dispatch(argc, argv);
  } catch (...) {
    return fftc::driver::reportCurrentException();
  }
}
