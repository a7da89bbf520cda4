// Timing launches with CUDA events: one sequence of launches (the stages of a plan) from the
// start of the first to the end of the last, in milliseconds of device time.
#pragma once

#include <cuda.h>

#include <memory>
#include <span>
#include <vector>

#include "backends/cuda/module.h"

namespace fftc::backends::cuda {

class Context;

namespace detail {
struct ContextState;
}

// An RAII CUDA event recorded on the default stream.
class Event {
 public:
  explicit Event(const Context& context);
  Event(Event&& other) noexcept;
  Event& operator=(Event&&) = delete;
  Event(const Event&) = delete;
  Event& operator=(const Event&) = delete;
  ~Event();

  void record();
  void synchronize() const;
  // Milliseconds from `start` to this event; both recorded, this one completed.
  [[nodiscard]] double elapsedSince(const Event& start) const;

 private:
  std::shared_ptr<const detail::ContextState> context_;
  CUevent event_ = nullptr;
};

// One launch of a sequence; kernel and arguments are copies, cheap to keep.
struct Launch {
  Kernel kernel;
  LaunchConfig config;
  KernelArgs args;
};

// Enqueues the launches in order (asynchronously) on `stream` (null: the default stream).
void enqueue(std::span<const Launch> sequence, CUstream stream = nullptr);

// Runs the sequence `warmups` times untimed, then `runs` times, and returns each timed run's
// milliseconds (first launch's start to last launch's end). Timed runs are recorded back to
// back and synchronized once, so host overhead between runs does not show (unless the host
// cannot keep up with the device).
std::vector<double> timeRuns(const Context& context, std::span<const Launch> sequence, int warmups,
                             int runs);

// One timed run after no warm-up.
double timeOnce(const Context& context, std::span<const Launch> sequence);

}  // namespace fftc::backends::cuda
