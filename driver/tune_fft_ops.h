// `fftc tune FILE.fdl` for a kernel with fft operations (cmd_tune_fftops.cpp): the plans of its
// row maps searched on a device, each checked against the interpreter, the fastest kept as
// wisdom (fft_ops_wisdom.h). runTune hands such a kernel here, any other to the general kernels'
// tune (cmd_tune_kernel.cpp: the rewrite choice and the numeric parameters).
#pragma once

#include "driver/commands.h"

namespace fftc::driver {

// Whether the arguments name a .fdl kernel (--kernel, -D, --precision) that has fft operations.
bool tunesFftOps(const Args& args);
int runTuneFftOps(const Args& args);

}  // namespace fftc::driver
