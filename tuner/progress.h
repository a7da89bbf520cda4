// Progress of a tuning run for a user interface, and a one-line terminal renderer that
// redraws itself when the output is a TTY and prints nothing otherwise.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace fftc::tuner {

struct Progress {
  std::uint64_t evaluations = 0;  // measured + replayed
  std::uint64_t measured = 0;
  std::uint64_t replayed = 0;
  std::uint64_t invalid = 0;
  std::uint64_t spaceSize = 0;
  std::optional<double> bestCost;
  std::string bestConfiguration;  // Configuration::toString() of the best
  double elapsedSeconds = 0;
  std::optional<double> secondsLeft;  // under a duration abort condition
  bool finished = false;              // the last call of a run
};

using ProgressCallback = std::function<void(const Progress&)>;

// "37/1234 evaluated (5 replayed, 3 invalid)  best 0.1234 [R=[16,16] WG=256]  12.3 s, 47.7 s left"
std::string formatProgress(const Progress& p);

class TerminalProgress {
 public:
  // Draws on `out` only if it is a terminal.
  explicit TerminalProgress(std::FILE* out = stdout);
  TerminalProgress(std::FILE* out, bool enabled, double minIntervalSeconds = 0.1);
  // Redraws the line (at most every minIntervalSeconds, always for the last call, which
  // also ends the line).
  void operator()(const Progress& p);
  bool enabled() const { return enabled_; }

 private:
  std::FILE* out_;
  bool enabled_;
  double minInterval_;
  double lastDraw_ = -1e300;
};

// A ProgressCallback that draws with a shared TerminalProgress on stdout.
ProgressCallback terminalProgress(std::FILE* out = stdout);

}  // namespace fftc::tuner
