#include "backends/opencl/launch.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <stdexcept>

#include "backends/opencl/cl_error.h"

namespace fftc::backends::opencl {
namespace {

std::uint64_t profilingValue(const Event& event, cl_profiling_info what) {
  event.wait();
  cl_ulong value = 0;
  check(clGetEventProfilingInfo(event.get(), what, sizeof(value), &value, nullptr),
        "clGetEventProfilingInfo");
  return value;
}

}  // namespace

NDRange NDRange::fromSizes(std::span<const std::size_t> sizes) {
  switch (sizes.size()) {
    case 1:
      return NDRange(sizes[0]);
    case 2:
      return NDRange(sizes[0], sizes[1]);
    case 3:
      return NDRange(sizes[0], sizes[1], sizes[2]);
    default:
      throw std::invalid_argument(
          fmt::format("a work size needs 1 to 3 dimensions, not {}", sizes.size()));
  }
}

void Event::wait() const {
  cl_event raw = get();
  const cl_int waited = clWaitForEvents(1, &raw);
  cl_int execution = CL_COMPLETE;
  check(clGetEventInfo(raw, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(execution), &execution,
                       nullptr),
        "clGetEventInfo");
  // A failed command reports its error as a negative execution status.
  if (execution < 0) {
    throw ClError(execution, "kernel execution");
  }
  check(waited, "clWaitForEvents");
}

std::uint64_t Event::startNs() const {
  return profilingValue(*this, CL_PROFILING_COMMAND_START);
}

std::uint64_t Event::endNs() const {
  return profilingValue(*this, CL_PROFILING_COMMAND_END);
}

double Event::ms() const {
  return elapsedMs(*this, *this);
}

double elapsedMs(const Event& first, const Event& last) {
  const std::uint64_t start = first.startNs();
  const std::uint64_t end = last.endNs();
  // Signed difference: a driver whose clocks disagree must not wrap to 5e11 ms.
  return static_cast<double>(static_cast<std::int64_t>(end - start)) * 1e-6;
}

Event launch(const Context& context, const Kernel& kernel, const NDRange& global,
             const std::optional<NDRange>& local) {
  if (local && local->dims() != global.dims()) {
    throw std::invalid_argument(fmt::format("kernel {}: global size has {} dimensions, local {}",
                                            kernel.name(), global.dims(), local->dims()));
  }
  cl_event raw = nullptr;
  const cl_int status =
      clEnqueueNDRangeKernel(context.queue(), kernel.get(), global.dims(), nullptr, global.data(),
                             local ? local->data() : nullptr, 0, nullptr, &raw);
  EventHandle event(raw);
  if (status != CL_SUCCESS) {
    std::string sizes =
        fmt::format("global {}", fmt::join(global.data(), global.data() + global.dims(), "x"));
    if (local) {
      sizes +=
          fmt::format(", local {}", fmt::join(local->data(), local->data() + local->dims(), "x"));
    }
    throw ClError(status, "clEnqueueNDRangeKernel", fmt::format("{} ({})", kernel.name(), sizes));
  }
  return Event(std::move(event));
}

std::vector<Event> enqueueSequence(const Context& context, std::span<const Launch> stages) {
  std::vector<Event> events;
  events.reserve(stages.size());
  for (const Launch& stage : stages) {
    if (stage.kernel == nullptr) {
      throw std::invalid_argument("a launch without a kernel");
    }
    if (!stage.args.empty()) {
      stage.kernel->setArgs(stage.args);
    }
    events.push_back(launch(context, *stage.kernel, stage.global, stage.local));
  }
  return events;
}

SequenceTiming timeSequence(const Context& context, std::span<const Launch> stages) {
  if (stages.empty()) {
    return {};
  }
  const std::vector<Event> events = enqueueSequence(context, stages);
  SequenceTiming timing;
  for (const Event& event : events) {
    timing.stageMs.push_back(event.ms());
  }
  timing.totalMs = elapsedMs(events.front(), events.back());
  return timing;
}

std::vector<double> timeRepeated(const Context& context, std::span<const Launch> stages,
                                 std::size_t warmup, std::size_t repeats) {
  for (std::size_t i = 0; i < warmup; ++i) {
    (void)enqueueSequence(context, stages);
  }
  context.finish();
  std::vector<double> times;
  times.reserve(repeats);
  for (std::size_t i = 0; i < repeats; ++i) {
    times.push_back(timeSequence(context, stages).totalMs);
  }
  return times;
}

}  // namespace fftc::backends::opencl
