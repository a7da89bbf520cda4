#include "tuner/progress.h"

#include <fmt/format.h>

#include <unistd.h>

namespace fftc::tuner {

std::string formatProgress(const Progress& p) {
  std::string s = fmt::format("{}/{} evaluated", p.evaluations, p.spaceSize);
  if (p.replayed || p.invalid)
    s += fmt::format(" ({} replayed, {} invalid)", p.replayed, p.invalid);
  if (p.bestCost)
    s += fmt::format("  best {:.6g} [{}]", *p.bestCost, p.bestConfiguration);
  else
    s += "  no valid configuration yet";
  s += fmt::format("  {:.1f} s", p.elapsedSeconds);
  if (p.secondsLeft) s += fmt::format(", {:.1f} s left", *p.secondsLeft);
  return s;
}

TerminalProgress::TerminalProgress(std::FILE* out)
    : TerminalProgress(out, out != nullptr && ::isatty(fileno(out)) == 1) {}

TerminalProgress::TerminalProgress(std::FILE* out, bool enabled, double minIntervalSeconds)
    : out_(out), enabled_(enabled && out != nullptr), minInterval_(minIntervalSeconds) {}

void TerminalProgress::operator()(const Progress& p) {
  if (!enabled_) return;
  if (!p.finished && p.elapsedSeconds - lastDraw_ < minInterval_) return;
  lastDraw_ = p.elapsedSeconds;
  // Carriage return, the line, clear to the end of the line (ANSI EL).
  fmt::print(out_, "\r{}\x1b[K{}", formatProgress(p), p.finished ? "\n" : "");
  std::fflush(out_);
}

ProgressCallback terminalProgress(std::FILE* out) {
  auto t = std::make_shared<TerminalProgress>(out);
  return [t](const Progress& p) { (*t)(p); };
}

}  // namespace fftc::tuner
