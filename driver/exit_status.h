// The exit statuses of the fftc executable (CLI.md) and the check-failure exception.
// Every command maps its failures onto these; nothing else leaves main().
#pragma once

#include <stdexcept>

namespace fftc::driver {

enum ExitStatus : int {
  kSuccess = 0,
  kUserError = 1,    // bad program, bad option, unsupported size
  kDeviceError = 2,  // device or driver failure
  kCheckFailed = 3,  // --check found an error above the tolerance
  kInternalError = 4, // a bug in fftc: please report it
  kOutOfMemory = 5    // the host ran out of memory (std::bad_alloc): a smaller size or batch
};

// Thrown by `run`/`exec --check` when the result is outside the tolerance.
struct CheckFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace fftc::driver
