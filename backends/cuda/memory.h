// Device memory: an RAII buffer in a context's global memory, with host and device copies.
// Copies are synchronous (they return when the data has arrived).
#pragma once

#include <cuda.h>

#include <cstddef>
#include <memory>
#include <span>
#include <type_traits>

namespace fftc::backends::cuda {

namespace detail {
struct ContextState;
}

class DeviceBuffer {
 public:
  DeviceBuffer() = default;
  // Allocates `bytes` (at least one byte, so that every buffer has a distinct address).
  DeviceBuffer(std::shared_ptr<const detail::ContextState> context, std::size_t bytes);
  // The caller's memory (`bytes` at `pointer`, e.g. from cudaMalloc), not freed by this object:
  // the C API's fftcf_execute_cuda (docs/c-api.md).
  [[nodiscard]] static DeviceBuffer borrow(std::shared_ptr<const detail::ContextState> context,
                                           CUdeviceptr pointer, std::size_t bytes);
  DeviceBuffer(DeviceBuffer&& other) noexcept;
  DeviceBuffer& operator=(DeviceBuffer&& other) noexcept;
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
  ~DeviceBuffer();

  [[nodiscard]] CUdeviceptr pointer() const noexcept { return pointer_; }
  [[nodiscard]] std::size_t size() const noexcept { return size_; }

  // Byte copies; std::out_of_range when [offset, offset + bytes) is not inside the buffer.
  void copyFromHost(const void* source, std::size_t bytes, std::size_t offset = 0);
  void copyToHost(void* destination, std::size_t bytes, std::size_t offset = 0) const;
  // Copies the first `bytes` of `source` to the start of this buffer.
  void copyFrom(const DeviceBuffer& source, std::size_t bytes);
  // The same, enqueued on `stream` (asynchronous).
  void copyFromAsync(const DeviceBuffer& source, std::size_t bytes, CUstream stream);
  // Sets every byte to `byte` (0xFF: a NaN in every float and double).
  void fill(unsigned char byte);
  void fillZero() { fill(0); }

  template <typename T>
  requires std::is_trivially_copyable_v<T>
  void upload(std::span<const T> values, std::size_t offset = 0) {
    copyFromHost(values.data(), values.size_bytes(), offset);
  }
  template <typename T>
  requires std::is_trivially_copyable_v<T>
  void download(std::span<T> values, std::size_t offset = 0) const {
    copyToHost(values.data(), values.size_bytes(), offset);
  }

 private:
  void checkRange(std::size_t offset, std::size_t bytes, const char* what) const;
  void release() noexcept;

  std::shared_ptr<const detail::ContextState> context_;
  CUdeviceptr pointer_ = 0;
  std::size_t size_ = 0;
  bool owned_ = true;  // false: borrow()ed, never freed here
};

}  // namespace fftc::backends::cuda
