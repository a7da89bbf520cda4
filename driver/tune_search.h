// What the tune subcommands share around tuner::tune: when a search stops (--budget,
// --evaluations, --no-improvement, --space-fraction) and how its progress is shown.
#pragma once

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "tuner/tuner.h"

namespace fftc::driver {

// The search stops after `budget` seconds (UserError unless positive), or after `evaluations`
// or `noImprovement` evaluations (0: no such limit), or once `spaceFraction` of the space is
// evaluated (TunerError unless 0 < f <= 1).
tuner::Abort searchAbort(double budget, uint64_t evaluations, uint64_t noImprovement,
                         std::optional<double> spaceFraction = std::nullopt);

// A line redrawn in place when `to` is a terminal; otherwise a plain line per measured
// configuration, and "done: ..." at the end. Nothing when `quiet`.
tuner::ProgressCallback progressDisplay(bool quiet, std::FILE* to = stdout);

// The wisdom file a search will record in (`option`, else wisdomFile's default), checked
// before the search so that it cannot fail only after it: a UserError when there is none, an
// error when its folder cannot be made or it cannot be written (prepareOutputFile), a
// TunerError when it does not parse.
std::string wisdomToRecordIn(const std::string& option);

}  // namespace fftc::driver
