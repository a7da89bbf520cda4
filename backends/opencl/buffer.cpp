#include "backends/opencl/buffer.h"

#include <fmt/format.h>

#include <stdexcept>

#include "backends/opencl/cl_error.h"

namespace fftc::backends::opencl {
namespace {

void checkRange(std::size_t bytes, std::size_t offset, std::size_t size, const char* what) {
  if (offset > size || bytes > size - offset) {
    throw std::out_of_range(fmt::format("Buffer::{}: {} bytes at offset {} exceed the buffer's {}",
                                        what, bytes, offset, size));
  }
}

}  // namespace

Buffer::Buffer(const Context& context, std::size_t bytes, cl_mem_flags flags) : bytes_(bytes) {
  cl_int status = CL_SUCCESS;
  mem_ = MemHandle(clCreateBuffer(context.get(), flags, bytes, nullptr, &status));
  check(status, "clCreateBuffer", fmt::format("{} bytes", bytes));
}

Buffer Buffer::retain(cl_mem mem) {
  std::size_t bytes = 0;
  check(clGetMemObjectInfo(mem, CL_MEM_SIZE, sizeof(bytes), &bytes, nullptr), "clGetMemObjectInfo",
        "CL_MEM_SIZE");
  check(clRetainMemObject(mem), "clRetainMemObject");
  return Buffer(MemHandle(mem), bytes);
}

void Buffer::writeBytes(const Context& context, const void* data, std::size_t bytes,
                        std::size_t offset) {
  checkRange(bytes, offset, bytes_, "write");
  if (bytes == 0) {
    return;
  }
  check(clEnqueueWriteBuffer(context.queue(), get(), CL_TRUE, offset, bytes, data, 0, nullptr,
                             nullptr),
        "clEnqueueWriteBuffer");
}

void Buffer::readBytes(const Context& context, void* data, std::size_t bytes,
                       std::size_t offset) const {
  checkRange(bytes, offset, bytes_, "read");
  if (bytes == 0) {
    return;
  }
  check(clEnqueueReadBuffer(context.queue(), get(), CL_TRUE, offset, bytes, data, 0, nullptr,
                            nullptr),
        "clEnqueueReadBuffer");
}

void Buffer::fill(const Context& context, unsigned char byte) {
  check(clEnqueueFillBuffer(context.queue(), get(), &byte, 1, 0, bytes_, 0, nullptr, nullptr),
        "clEnqueueFillBuffer");
  context.finish();
}

}  // namespace fftc::backends::opencl
