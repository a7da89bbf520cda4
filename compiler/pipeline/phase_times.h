// Where the time of planning and compiling goes: wall time per named phase (elaboration, type
// inference, rewriting, code generation, layout, device compile, ...), for FFTC_TIMINGS=1.
// Header-only, so that the front end and the clang loader record phases without linking the
// pipeline. Times are exclusive: a phase nested in another (layout inside code generation) is
// subtracted from the outer one, so the phases of one thread add up to their wall time.
#pragma once

#include <time.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fftc::compiler::pipeline {

struct PhaseTime {
  std::string phase;
  double ms = 0;      // wall time
  double cpuMs = 0;   // this thread's CPU time: on a loaded machine, what the phase itself took
  int64_t count = 0;  // times the phase was entered
};

class PhaseTimes {
 public:
  static PhaseTimes& global() {
    static PhaseTimes times;
    return times;
  }
  void add(std::string_view phase, double ms, double cpuMs) {
    std::lock_guard lock(mutex_);
    for (auto& p : phases_)
      if (p.phase == phase) {
        p.ms += ms;
        p.cpuMs += cpuMs;
        ++p.count;
        return;
      }
    phases_.push_back({std::string(phase), ms, cpuMs, 1});
  }
  // In the order first entered.
  std::vector<PhaseTime> snapshot() const {
    std::lock_guard lock(mutex_);
    return phases_;
  }
  void clear() {
    std::lock_guard lock(mutex_);
    phases_.clear();
  }

 private:
  mutable std::mutex mutex_;
  std::vector<PhaseTime> phases_;
};

// Times one phase of this thread from construction to destruction, pausing the enclosing one.
class PhaseTimer {
 public:
  explicit PhaseTimer(std::string_view phase) : phase_(phase), parent_(current()) {
    const auto now = Clock::now();
    const double cpu = threadCpuMs();
    if (parent_) parent_->pause(now, cpu);
    start_ = now;
    cpuStart_ = cpu;
    current() = this;
  }
  PhaseTimer(const PhaseTimer&) = delete;
  PhaseTimer& operator=(const PhaseTimer&) = delete;
  ~PhaseTimer() {
    const auto now = Clock::now();
    const double cpu = threadCpuMs();
    pause(now, cpu);
    PhaseTimes::global().add(phase_, std::chrono::duration<double, std::milli>(spent_).count(),
                             cpuSpent_);
    current() = parent_;
    if (parent_) {
      parent_->start_ = now;
      parent_->cpuStart_ = cpu;
    }
  }

 private:
  using Clock = std::chrono::steady_clock;
  static PhaseTimer*& current() {
    thread_local PhaseTimer* top = nullptr;
    return top;
  }
  static double threadCpuMs() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) * 1e-6;
  }
  void pause(Clock::time_point now, double cpu) {
    spent_ += now - start_;
    start_ = now;
    cpuSpent_ += cpu - cpuStart_;
    cpuStart_ = cpu;
  }

  std::string_view phase_;  // a string literal
  PhaseTimer* parent_;
  Clock::time_point start_;
  Clock::duration spent_{0};
  double cpuStart_ = 0, cpuSpent_ = 0;
};

// True when FFTC_TIMINGS is set to anything but "" or "0".
inline bool phaseTimesRequested() {
  const char* v = std::getenv("FFTC_TIMINGS");
  return v != nullptr && *v != '\0' && std::string_view(v) != "0";
}

// A heading and one line per phase: wall and CPU milliseconds, times entered.
inline std::string phaseTimesText() {
  std::string out = "timings (ms, each phase without the phases nested in it):\n";
  char line[160];
  std::snprintf(line, sizeof line, "  %-34s %10s %10s\n", "phase", "wall", "cpu");
  out += line;
  double wall = 0, cpu = 0;
  for (const auto& p : PhaseTimes::global().snapshot()) {
    std::snprintf(line, sizeof line, "  %-34s %10.1f %10.1f  (%lld x)\n", p.phase.c_str(), p.ms,
                  p.cpuMs, static_cast<long long>(p.count));
    out += line;
    wall += p.ms;
    cpu += p.cpuMs;
  }
  std::snprintf(line, sizeof line, "  %-34s %10.1f %10.1f\n", "sum", wall, cpu);
  return out + line;
}

}  // namespace fftc::compiler::pipeline
