// DeviceBuffer: cuMemAlloc / cuMemFree and the synchronous copies.
#include "backends/cuda/memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "backends/cuda/context_state.h"

namespace fftc::backends::cuda {

DeviceBuffer::DeviceBuffer(std::shared_ptr<const detail::ContextState> context, std::size_t bytes)
    : context_(std::move(context)), size_(bytes) {
  context_->makeCurrent();
  context_->api.check(context_->api.cuMemAlloc(&pointer_, std::max<std::size_t>(bytes, 1)),
                      fmt::format("cuMemAlloc({} bytes)", bytes));
}

DeviceBuffer DeviceBuffer::borrow(std::shared_ptr<const detail::ContextState> context,
                                  CUdeviceptr pointer, std::size_t bytes) {
  DeviceBuffer b;
  b.context_ = std::move(context);
  b.pointer_ = pointer;
  b.size_ = bytes;
  b.owned_ = false;
  return b;
}

DeviceBuffer::DeviceBuffer(DeviceBuffer&& other) noexcept
    : context_(std::move(other.context_)),
      pointer_(std::exchange(other.pointer_, 0)),
      size_(std::exchange(other.size_, 0)),
      owned_(std::exchange(other.owned_, true)) {}

DeviceBuffer& DeviceBuffer::operator=(DeviceBuffer&& other) noexcept {
  if (this != &other) {
    release();
    context_ = std::move(other.context_);
    pointer_ = std::exchange(other.pointer_, 0);
    size_ = std::exchange(other.size_, 0);
    owned_ = std::exchange(other.owned_, true);
  }
  return *this;
}

DeviceBuffer::~DeviceBuffer() {
  release();
}

void DeviceBuffer::release() noexcept {
  if (pointer_ != 0 && context_ && owned_) {
    // A destructor cannot report; a failure here means the context is already lost.
    context_->makeCurrent();
    static_cast<void>(context_->api.cuMemFree(pointer_));
  }
  pointer_ = 0;
  size_ = 0;
}

void DeviceBuffer::checkRange(std::size_t offset, std::size_t bytes, const char* what) const {
  if (offset > size_ || bytes > size_ - offset) {
    throw std::out_of_range(fmt::format("{}: bytes [{}, {}) outside a buffer of {} bytes", what,
                                        offset, offset + bytes, size_));
  }
}

void DeviceBuffer::copyFromHost(const void* source, std::size_t bytes, std::size_t offset) {
  checkRange(offset, bytes, "copyFromHost");
  if (bytes == 0) return;
  context_->makeCurrent();
  context_->api.check(context_->api.cuMemcpyHtoD(pointer_ + offset, source, bytes), "cuMemcpyHtoD");
}

void DeviceBuffer::copyToHost(void* destination, std::size_t bytes, std::size_t offset) const {
  checkRange(offset, bytes, "copyToHost");
  if (bytes == 0) return;
  context_->makeCurrent();
  context_->api.check(context_->api.cuMemcpyDtoH(destination, pointer_ + offset, bytes),
                      "cuMemcpyDtoH");
}

void DeviceBuffer::copyFrom(const DeviceBuffer& source, std::size_t bytes) {
  checkRange(0, bytes, "copyFrom");
  source.checkRange(0, bytes, "copyFrom");
  if (bytes == 0) return;
  context_->makeCurrent();
  context_->api.check(context_->api.cuMemcpyDtoD(pointer_, source.pointer_, bytes), "cuMemcpyDtoD");
}

void DeviceBuffer::copyFromAsync(const DeviceBuffer& source, std::size_t bytes, CUstream stream) {
  checkRange(0, bytes, "copyFromAsync");
  source.checkRange(0, bytes, "copyFromAsync");
  if (bytes == 0) return;
  context_->makeCurrent();
  context_->api.check(context_->api.cuMemcpyDtoDAsync(pointer_, source.pointer_, bytes, stream),
                      "cuMemcpyDtoDAsync");
}

void DeviceBuffer::fill(unsigned char byte) {
  if (size_ == 0) return;
  context_->makeCurrent();
  context_->api.check(context_->api.cuMemsetD8(pointer_, byte, size_), "cuMemsetD8");
}

}  // namespace fftc::backends::cuda
