// Kernel launches over 1..3-dimensional ranges and their timing from profiling events,
// alone or as a sequence of stages measured from the first start to the last end.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "backends/opencl/context.h"
#include "backends/opencl/handles.h"
#include "backends/opencl/kernel.h"

namespace fftc::backends::opencl {

class NDRange {
 public:
  NDRange(std::size_t x) : sizes_{x, 1, 1}, dims_(1) {}  // NOLINT: implicit from one size
  NDRange(std::size_t x, std::size_t y) : sizes_{x, y, 1}, dims_(2) {}
  NDRange(std::size_t x, std::size_t y, std::size_t z) : sizes_{x, y, z}, dims_(3) {}
  // From 1..3 sizes (a manifest's work sizes); throws std::invalid_argument otherwise.
  [[nodiscard]] static NDRange fromSizes(std::span<const std::size_t> sizes);

  [[nodiscard]] std::uint32_t dims() const { return dims_; }
  [[nodiscard]] const std::size_t* data() const { return sizes_.data(); }
  [[nodiscard]] std::size_t operator[](std::size_t i) const { return sizes_.at(i); }
  [[nodiscard]] std::size_t total() const { return sizes_[0] * sizes_[1] * sizes_[2]; }

 private:
  std::array<std::size_t, 3> sizes_;
  std::uint32_t dims_;
};

// A profiled command. Reading its times waits for it and throws ClError if it failed.
class Event {
 public:
  explicit Event(EventHandle handle) : handle_(std::move(handle)) {}

  [[nodiscard]] cl_event get() const { return handle_.get(); }
  void wait() const;
  [[nodiscard]] std::uint64_t startNs() const;
  [[nodiscard]] std::uint64_t endNs() const;
  // (end - start) in milliseconds.
  [[nodiscard]] double ms() const;

 private:
  EventHandle handle_;
};

// Milliseconds from `first`'s start to `last`'s end.
[[nodiscard]] double elapsedMs(const Event& first, const Event& last);

// Enqueues `kernel` with the arguments already set on it. Without `local` the driver picks
// the work-group size. Dimension mismatches throw std::invalid_argument; driver refusals
// (CL_INVALID_WORK_GROUP_SIZE, ...) throw ClError.
Event launch(const Context& context, const Kernel& kernel, const NDRange& global,
             const std::optional<NDRange>& local = std::nullopt);

// One stage of a sequence. When `args` is not empty they are set just before enqueueing, so
// one Kernel may appear in several stages with different arguments.
struct Launch {
  Kernel* kernel = nullptr;
  NDRange global = NDRange(1);
  std::optional<NDRange> local;
  std::vector<KernelArg> args;
};

struct SequenceTiming {
  double totalMs = 0;           // first stage's start to last stage's end
  std::vector<double> stageMs;  // each stage's own execution time
};

// Enqueues every stage in order on the (in-order) queue; returns their events.
std::vector<Event> enqueueSequence(const Context& context, std::span<const Launch> stages);
// Enqueues the stages, waits for them and measures them as one.
SequenceTiming timeSequence(const Context& context, std::span<const Launch> stages);
// `warmup` untimed runs, then `repeats` timed runs: one total per run (take the median).
std::vector<double> timeRepeated(const Context& context, std::span<const Launch> stages,
                                 std::size_t warmup, std::size_t repeats);

}  // namespace fftc::backends::opencl
