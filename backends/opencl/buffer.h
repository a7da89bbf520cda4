// Device buffers: an RAII cl_mem of a byte size, with blocking typed reads and writes through
// a context's queue.
#pragma once

#include <cstddef>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

#include "backends/opencl/context.h"
#include "backends/opencl/handles.h"

namespace fftc::backends::opencl {

class Buffer {
 public:
  Buffer(const Context& context, std::size_t bytes, cl_mem_flags flags = CL_MEM_READ_WRITE);

  // A buffer of `count` elements of T.
  template <typename T>
  [[nodiscard]] static Buffer of(const Context& context, std::size_t count,
                                 cl_mem_flags flags = CL_MEM_READ_WRITE) {
    static_assert(std::is_trivially_copyable_v<T>);
    return Buffer(context, count * sizeof(T), flags);
  }
  // A buffer holding a copy of `data`.
  template <typename T>
  [[nodiscard]] static Buffer from(const Context& context, std::span<const T> data,
                                   cl_mem_flags flags = CL_MEM_READ_WRITE) {
    Buffer buffer = of<T>(context, data.size(), flags);
    buffer.write(context, data);
    return buffer;
  }

  // The caller's buffer (retained, its size queried): the C API's fftcf_execute_cl.
  [[nodiscard]] static Buffer retain(cl_mem mem);

  [[nodiscard]] cl_mem get() const { return mem_.get(); }
  [[nodiscard]] std::size_t bytes() const { return bytes_; }

  // Blocking copies; throw std::out_of_range when the range exceeds the buffer.
  void writeBytes(const Context& context, const void* data, std::size_t bytes,
                  std::size_t offset = 0);
  void readBytes(const Context& context, void* data, std::size_t bytes,
                 std::size_t offset = 0) const;
  // Sets every byte to `byte` (0xFF: a NaN in every float and double).
  void fill(const Context& context, unsigned char byte);
  void zero(const Context& context) { fill(context, 0); }

  template <typename T>
  void write(const Context& context, std::span<const T> data, std::size_t offsetElements = 0) {
    static_assert(std::is_trivially_copyable_v<T>);
    writeBytes(context, data.data(), data.size_bytes(), offsetElements * sizeof(T));
  }
  template <typename T>
  void write(const Context& context, const std::vector<T>& data) {
    write(context, std::span<const T>(data));
  }
  template <typename T>
  void read(const Context& context, std::span<T> out, std::size_t offsetElements = 0) const {
    static_assert(std::is_trivially_copyable_v<T>);
    readBytes(context, out.data(), out.size_bytes(), offsetElements * sizeof(T));
  }
  // The whole buffer as elements of T (bytes() / sizeof(T) of them).
  template <typename T>
  [[nodiscard]] std::vector<T> read(const Context& context) const {
    std::vector<T> out(bytes_ / sizeof(T));
    read(context, std::span<T>(out));
    return out;
  }

 private:
  Buffer(MemHandle mem, std::size_t bytes) : mem_(std::move(mem)), bytes_(bytes) {}

  MemHandle mem_;
  std::size_t bytes_;
};

}  // namespace fftc::backends::opencl
