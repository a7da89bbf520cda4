// What the tune subcommands share around tuner::tune (tune_search.h).
#include "driver/tune_search.h"

#include <fmt/format.h>
#include <unistd.h>
#include <memory>

#include "backends/common/device_error.h"
#include "driver/emit.h"
#include "driver/fft_options.h"
#include "tuner/wisdom.h"

namespace fftc::driver {

tuner::Abort searchAbort(double budget, uint64_t evaluations, uint64_t noImprovement,
                         std::optional<double> spaceFraction) {
  if (!(budget > 0)) throw backends::UserError("--budget must be a positive number of seconds");
  tuner::Abort a = tuner::duration(budget);
  if (evaluations > 0) a = a || tuner::evaluations(evaluations);
  if (noImprovement > 0) a = a || tuner::noImprovement(noImprovement);
  if (spaceFraction) a = a || tuner::spaceFraction(*spaceFraction);  // checks 0 < f <= 1
  return a;
}

tuner::ProgressCallback progressDisplay(bool quiet, std::FILE* to) {
  if (quiet) return {};
  if (::isatty(fileno(to)) == 1) return tuner::terminalProgress(to);
  auto measured = std::make_shared<uint64_t>(0);
  return [measured, to](const tuner::Progress& p) {
    if (p.measured == *measured && !p.finished) return;
    *measured = p.measured;
    fmt::print(to, "{}{}\n", p.finished ? "done: " : "", tuner::formatProgress(p));
    std::fflush(to);
  };
}

std::string wisdomToRecordIn(const std::string& option) {
  const std::string file = wisdomFile(option);
  if (file.empty())
    throw backends::UserError("no wisdom file: give --wisdom FILE or set FFTC_WISDOM or HOME");
  prepareOutputFile(file, "--wisdom");
  (void)tuner::Wisdom::load(file);
  return file;
}

}  // namespace fftc::driver
