// One rank's device in a distributed FFT: its buffers, their copies to and from the host, box
// copies on the device (the packing of uneven splits) and the local fftc plans, for OpenCL and CUDA.
#pragma once

#include <cstddef>
#include <memory>

#include "backends/opencl/runtime.h"
#include "fftlib/distributed/reshape.h"
#include "fftlib/plan/planner.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/context.h"
#endif

namespace fftc::distributed {

// A buffer in the device's memory.
class DeviceArray {
 public:
  virtual ~DeviceArray() = default;
  [[nodiscard]] virtual std::size_t bytes() const = 0;
  // Its address for a device transport (NCCL: the CUdeviceptr); null where buffers have none
  // that a transport could use (OpenCL).
  [[nodiscard]] virtual void* address() const = 0;
};

class LocalFft {
 public:
  virtual ~LocalFft() = default;
  // Out of place on the device: reads `in`, writes `out` (through the request's layouts).
  virtual void execute(const DeviceArray& in, DeviceArray& out) = 0;
};

class LocalDevice {
 public:
  virtual ~LocalDevice() = default;
  [[nodiscard]] virtual std::unique_ptr<DeviceArray> allocate(std::size_t bytes) = 0;
  // Blocking copies between the host and the first `bytes` of a buffer.
  virtual void upload(DeviceArray& to, const void* from, std::size_t bytes) = 0;
  virtual void download(const DeviceArray& from, void* to, std::size_t bytes) = 0;
  // Enqueues a box copy (reshape.h) on the device, in order with the plans' kernels;
  // synchronize() waits for both.
  virtual void copy(const DeviceArray& from, DeviceArray& to, const RectCopy& rect) = 0;
  virtual void synchronize() = 0;
  // The local transform of a request (its dims, batch and layouts set by the plan).
  [[nodiscard]] virtual std::unique_ptr<LocalFft> plan(const fftlib::FftRequest& request) = 0;
};

// fftlib::Plan on `context` (the request's target set to OpenCL); the context must outlive
// the device and its plans.
std::unique_ptr<LocalDevice> openClDevice(const backends::opencl::Context& context);
#ifdef FFTC_HAVE_CUDA
// fftlib::CudaPlan on `context` (target CUDA), the default stream.
std::unique_ptr<LocalDevice> cudaDevice(const backends::cuda::Context& context);
#endif

}  // namespace fftc::distributed
