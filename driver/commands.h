// The subcommands of fftc (CLI.md). Each takes the arguments after its name and returns an
// exit status; errors are thrown (UserError, CompileError, DeviceError, CheckFailed).
#pragma once

#include <string>
#include <vector>

namespace fftc::driver {

using Args = std::vector<std::string>;

int runCompile(const Args& args);
int runDevices(const Args& args);
int runExec(const Args& args);
int runExplore(const Args& args);
int runFft(const Args& args);
int runRun(const Args& args);
int runTune(const Args& args);
// `fftc tune FILE.fdl`: a general kernel (cmd_tune_kernel.cpp); runTune hands such a call over.
int runTuneKernel(const Args& args);

// Inside a catch block: prints the exception's one-line error (CLI.md) on stderr and returns
// its exit status. main() uses it, and `run --distributed` to report before MPI_Finalize.
int reportCurrentException();

}  // namespace fftc::driver
