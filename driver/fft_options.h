// The request options that `fftc fft`, `fftc run` and `fftc tune` share (CLI.md), and the
// wisdom they read (--wisdom FILE, else $FFTC_WISDOM, else ~/.cache/fftc/wisdom.json).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "driver/options.h"
#include "fftlib/plan/planner.h"
#include "fftlib/tune/fft_cost.h"

namespace fftc::driver {

struct FftOptions {
  std::string size, precision = "f32", direction = "forward", variant = "auto", radices,
                    levelSizes, target = "opencl", wisdom, rewrite, outDir = ".";
  int64_t batch = 1;
  int64_t levels = 0;  // --levels: the hierarchical variant's 2 or 3 (0: the planner's)
  int64_t fftsPerGroup = 0;  // --ffts-per-group: FftRequest::fftsPerGroup (0: the planner's)
  int64_t workgroupSize = 0;  // --workgroup-size: FftRequest::workgroupSize (0: the planner's)
  int64_t localMemory = 0;  // --local-memory: bytes per work-group (0: the planner's default)
  int64_t minBlocks = 0;  // --min-blocks: FftRequest::minBlocksPerSm (0: none)
  int64_t cluster = 0;  // --cluster: FftRequest::clusterBlocks (0: none)
  bool scale = false;
  bool real = false;  // --real: R2C (forward) or C2R (inverse), FFTW's half-spectrum layout
  // FFTW's plan_many layouts (--inembed, --istride, --idist and the same for the output)
  std::string inembed, onembed;
  int64_t istride = 1, idist = 0, ostride = 1, odist = 0;
  std::string pre, post;  // --pre FILE:NAME, --post FILE:NAME: load and store callbacks
};

void addFftOptions(po::options_description& desc, FftOptions& o, bool withOutput);
fftlib::FftRequest makeRequest(const FftOptions& o);

// The wisdom file `fft`/`run` read: `option` (--wisdom), else the default of
// fftlib::tune::defaultWisdomPath(). Empty when there is none.
std::string wisdomFile(const std::string& option);

// Replaces `request` by the tuned one when the wisdom file holds an entry for its problem on the
// device `identity` names (called only then). Prints a one-line note on stderr when the wisdom
// was named (--wisdom, $FFTC_WISDOM) or holds an entry for this problem that is not used.
// Returns the note of the wisdom used, empty when none was. `limits`: what the device's plans
// are made under (fftlib::tune::applyWisdom).
std::string useWisdom(const std::string& option, fftlib::FftRequest& request,
                      const std::function<fftlib::tune::DeviceIdentity()>& identity,
                      const fftlib::PlanLimits& limits = {});

}  // namespace fftc::driver
