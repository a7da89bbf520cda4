// Wisdom for the FFT planner: the problem and build names under which `fftc tune` records the
// best configuration, and the lookup that turns a request into the tuned one on the device that
// tuned it (tuner/wisdom.h keeps the file; a mismatch is refused with a one-line reason).
//
//   WisdomUse w = applyWisdom(request, defaultWisdomPath(), [&] { return openClIdentity(dev); });
//   if (!w.note.empty()) fmt::print(stderr, "fftc: note: {}\n", w.note);
//   Plan plan = Plan::create(context, w.request);
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>

#include "fftlib/plan/planner.h"
#include "fftlib/tune/fft_cost.h"
#include "tuner/wisdom.h"

namespace fftc::fftlib::tune {

// "fftc VERSION fdl:HASH planner:HASH": the version, a hash of the FFT library's .fdl programs
// and one of the planner's sources (fftlib/CMakeLists.txt), so wisdom from a build whose FFT
// programs or whose reading of a configuration differ is refused.
std::string buildIdentity();

// "fft c2c f32 n=4096 batch=16 forward opencl" (" scaled" appended with scale): what a wisdom
// entry and a tuning log are for.
std::string problemName(const FftRequest& r);

tuner::WisdomKey wisdomKey(const FftRequest& r, const DeviceIdentity& device);

// $FFTC_WISDOM, else $XDG_CACHE_HOME/fftc/wisdom.json, else ~/.cache/fftc/wisdom.json (CLI.md);
// nullopt when none of these variables is set.
std::optional<std::filesystem::path> defaultWisdomPath();

// True when the request leaves the plan to the planner (variant auto, no radices, no work-group
// shape, default strategy, no thread-block cluster): only then does wisdom decide.
bool plannerDecides(const FftRequest& r);

// Loads `file` and range-checks every entry (the values a configuration of the FFT space can
// hold, a finite cost): a value out of range would reach the planner as is. A missing file is
// empty wisdom; an unreadable, malformed or out-of-range one is a UserError naming the file.
// `fftc tune` calls it before searching, applyWisdom before using an entry.
tuner::Wisdom loadWisdom(const std::filesystem::path& file);

struct WisdomUse {
  FftRequest request;  // the tuned request when used, else the one given
  bool used = false;
  bool forThisProblem = false;  // the file has an entry for this problem (maybe elsewhere)
  std::string note;             // one line: what was used, or why not
  std::optional<tuner::WisdomEntry> entry;
};

// Looks up `file` for r's problem on the device `identity()` names (called only when the file
// has an entry for the problem). A missing file is no wisdom; a malformed one is a UserError
// (loadWisdom).
// The tuned configuration is used only when r leaves the plan to the planner and the planner
// still accepts it (choosePlan under `limits`). On CUDA pass the limits CudaPlan plans under
// (cudaPlanLimits: the device's shared memory), as the tuner did: with 48 KiB a tuned
// one-kernel 4096 would be refused.
WisdomUse applyWisdom(const FftRequest& r, const std::filesystem::path& file,
                      const std::function<DeviceIdentity()>& identity,
                      const PlanLimits& limits = {});
// The same over wisdom in memory (the C API's, docs/c-api.md); `source` names it in the notes.
WisdomUse applyWisdom(const FftRequest& r, const tuner::Wisdom& wisdom, const std::string& source,
                      const std::function<DeviceIdentity()>& identity,
                      const PlanLimits& limits = {});

}  // namespace fftc::fftlib::tune
