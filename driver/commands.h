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

}  // namespace fftc::driver
