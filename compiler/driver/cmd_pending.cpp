// The subcommands whose machinery has not landed yet: each says so clearly and exits 1.
#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "compiler/driver/commands.h"

namespace fftc::driver {
namespace {

int notYet(const char* command, const char* needs) {
  throw backends::UserError(
      fmt::format("'fftc {}' is not available yet: it needs {}, which has not landed yet", command,
                  needs));
}

}  // namespace

int runTune(const Args&) { return notYet("tune", "the FFT library and the tuner's FFT space"); }

}  // namespace fftc::driver
