// CUDA events and the timing of launch sequences.
#include "backends/cuda/timing.h"

#include <utility>

#include "backends/common/device_error.h"
#include "backends/cuda/context.h"
#include "backends/cuda/context_state.h"

namespace fftc::backends::cuda {

Event::Event(const Context& context) : context_(context.state()) {
  context_->makeCurrent();
  context_->api.check(context_->api.cuEventCreate(&event_, CU_EVENT_DEFAULT), "cuEventCreate");
}

Event::Event(Event&& other) noexcept
    : context_(std::move(other.context_)), event_(std::exchange(other.event_, nullptr)) {}

Event::~Event() {
  if (event_ != nullptr && context_) static_cast<void>(context_->api.cuEventDestroy(event_));
}

void Event::record() {
  context_->makeCurrent();
  context_->api.check(context_->api.cuEventRecord(event_, nullptr), "cuEventRecord");
}

void Event::synchronize() const {
  context_->api.check(context_->api.cuEventSynchronize(event_), "cuEventSynchronize");
}

double Event::elapsedSince(const Event& start) const {
  float ms = 0.0F;
  context_->api.check(context_->api.cuEventElapsedTime(&ms, start.event_, event_),
                      "cuEventElapsedTime");
  return static_cast<double>(ms);
}

void enqueue(std::span<const Launch> sequence, CUstream stream) {
  for (const Launch& launch : sequence) launch.kernel.launch(launch.config, launch.args, stream);
}

std::vector<double> timeRuns(const Context& context, std::span<const Launch> sequence, int warmups,
                             int runs) {
  if (sequence.empty() || runs <= 0) {
    throw UserError("timeRuns: nothing to time (empty sequence or no runs)");
  }
  for (int i = 0; i < warmups; ++i) enqueue(sequence);
  std::vector<Event> starts;
  std::vector<Event> ends;
  starts.reserve(static_cast<std::size_t>(runs));
  ends.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    starts.emplace_back(context);
    ends.emplace_back(context);
  }
  for (int i = 0; i < runs; ++i) {
    starts[static_cast<std::size_t>(i)].record();
    enqueue(sequence);
    ends[static_cast<std::size_t>(i)].record();
  }
  ends.back().synchronize();
  std::vector<double> ms;
  ms.reserve(static_cast<std::size_t>(runs));
  for (int i = 0; i < runs; ++i) {
    const auto at = static_cast<std::size_t>(i);
    ms.push_back(ends[at].elapsedSince(starts[at]));
  }
  return ms;
}

double timeOnce(const Context& context, std::span<const Launch> sequence) {
  return timeRuns(context, sequence, 0, 1).front();
}

}  // namespace fftc::backends::cuda
