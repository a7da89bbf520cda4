// The state shared by a Context and everything made in it (buffers, modules, events), which
// keeps the primary context retained until the last of them is gone.
#pragma once

#include <cuda.h>

#include "backends/cuda/device.h"
#include "backends/cuda/driver_api.h"

namespace fftc::backends::cuda::detail {

struct ContextState {
  ContextState(const DriverApi& driver, int ordinal);
  ContextState(const ContextState&) = delete;
  ContextState& operator=(const ContextState&) = delete;
  // Releases the primary context; errors (e.g. a driver already shut down at exit) are ignored.
  ~ContextState();

  // Makes the context current on the calling thread (cheap; done before every call that
  // needs it, so objects may be used from any thread).
  void makeCurrent() const;

  const DriverApi& api;
  DeviceInfo info;
  CUdevice device = 0;
  CUcontext context = nullptr;
};

}  // namespace fftc::backends::cuda::detail
