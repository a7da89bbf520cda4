// An OpenCL context and in-order command queue with profiling on one device: the object that
// fftc exec/run, the tuner and the tests build programs, allocate buffers and launch through.
#pragma once

#include <memory>
#include <string_view>

#include "backends/opencl/binary_cache.h"
#include "backends/opencl/device_info.h"
#include "backends/opencl/handles.h"
#include "backends/opencl/program.h"

namespace fftc::backends::opencl {

class Context {
 public:
  // Creates a context and a profiling queue on `device`; the binary cache comes from the
  // environment (BinaryCache::fromEnvironment()).
  explicit Context(DeviceInfo device);
  // selectDevice(selector) + Context(device).
  [[nodiscard]] static Context fromSelector(std::string_view selector);
  // The caller's queue (retained) and its context and device: builds, copies and launches go
  // to that queue, so kernels run in order with the caller's own commands (the C API's
  // fftcf_execute_cl, docs/c-api.md). ClError when the queue is invalid.
  [[nodiscard]] static Context fromQueue(cl_command_queue queue);

  [[nodiscard]] const DeviceInfo& device() const { return device_; }
  [[nodiscard]] cl_context get() const { return context_.get(); }
  [[nodiscard]] cl_command_queue queue() const { return queue_.get(); }

  // Waits for everything enqueued so far.
  void finish() const;
  // Throws UserError("device NAME has no double-precision support") unless it has (f64 kernels).
  void requireDoubleSupport() const;

  // nullptr disables caching for builds through this context.
  void setCache(std::shared_ptr<BinaryCache> cache) { cache_ = std::move(cache); }
  [[nodiscard]] const std::shared_ptr<BinaryCache>& cache() const { return cache_; }

  // buildProgram(*this, source, options, cache().get()).
  [[nodiscard]] Program build(std::string_view source, std::string_view options = {}) const;

 private:
  Context(DeviceInfo device, ContextHandle context, QueueHandle queue);

  DeviceInfo device_;
  ContextHandle context_;
  QueueHandle queue_;
  std::shared_ptr<BinaryCache> cache_;
};

}  // namespace fftc::backends::opencl
