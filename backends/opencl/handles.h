// Reference-counted RAII owners for OpenCL objects: copying retains, destruction releases,
// so a Buffer or Kernel keeps its context alive however the caller orders destruction.
#pragma once

#include <utility>

#include "backends/opencl/cl.h"

namespace fftc::backends::opencl {

template <typename T, cl_int (*Retain)(T), cl_int (*Release)(T)>
class Handle {
 public:
  Handle() = default;
  // Takes ownership of one reference (what clCreate* returns).
  explicit Handle(T raw) noexcept : raw_(raw) {}
  Handle(const Handle& other) noexcept : raw_(other.raw_) {
    if (raw_ != nullptr) {
      Retain(raw_);
    }
  }
  Handle(Handle&& other) noexcept : raw_(std::exchange(other.raw_, nullptr)) {}
  Handle& operator=(Handle other) noexcept {
    std::swap(raw_, other.raw_);
    return *this;
  }
  ~Handle() {
    if (raw_ != nullptr) {
      Release(raw_);  // A release failure cannot be reported from a destructor.
    }
  }

  [[nodiscard]] T get() const noexcept { return raw_; }
  explicit operator bool() const noexcept { return raw_ != nullptr; }

 private:
  T raw_ = nullptr;
};

using ContextHandle = Handle<cl_context, clRetainContext, clReleaseContext>;
using QueueHandle = Handle<cl_command_queue, clRetainCommandQueue, clReleaseCommandQueue>;
using ProgramHandle = Handle<cl_program, clRetainProgram, clReleaseProgram>;
using KernelHandle = Handle<cl_kernel, clRetainKernel, clReleaseKernel>;
using MemHandle = Handle<cl_mem, clRetainMemObject, clReleaseMemObject>;
using EventHandle = Handle<cl_event, clRetainEvent, clReleaseEvent>;

}  // namespace fftc::backends::opencl
