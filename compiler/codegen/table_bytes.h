// A table buffer's device bytes (BufferInfo::data), immutable and shared: code generation's
// own vector, or a view into a plan cache entry mapped read-only (fftlib/plan/plan_cache.cpp),
// so that a warm plan uploads its tables from the page cache without copying them first.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <utility>
#include <vector>

namespace fftc::compiler::codegen {

class TableBytes {
 public:
  using value_type = std::uint8_t;
  using const_iterator = const std::uint8_t*;
  using iterator = const_iterator;

  TableBytes() = default;
  // Takes the bytes.
  explicit TableBytes(std::vector<std::uint8_t> bytes) {
    auto owned = std::make_shared<const std::vector<std::uint8_t>>(std::move(bytes));
    bytes_ = std::span<const std::uint8_t>(*owned);
    owner_ = std::move(owned);
  }
  // Bytes that `owner` keeps alive (a mapped file) as long as any copy of this lives.
  TableBytes(std::shared_ptr<const void> owner, std::span<const std::uint8_t> bytes)
      : owner_(std::move(owner)), bytes_(bytes) {}

  [[nodiscard]] const std::uint8_t* data() const noexcept { return bytes_.data(); }
  [[nodiscard]] std::size_t size() const noexcept { return bytes_.size(); }
  [[nodiscard]] bool empty() const noexcept { return bytes_.empty(); }
  [[nodiscard]] const_iterator begin() const noexcept { return bytes_.data(); }
  [[nodiscard]] const_iterator end() const noexcept { return bytes_.data() + bytes_.size(); }
  [[nodiscard]] std::span<const std::uint8_t> span() const noexcept { return bytes_; }
  operator std::span<const std::uint8_t>() const noexcept { return bytes_; }  // NOLINT

  // The same bytes, wherever they live.
  friend bool operator==(const TableBytes& a, const TableBytes& b) {
    return std::ranges::equal(a.bytes_, b.bytes_);
  }

 private:
  std::shared_ptr<const void> owner_;
  std::span<const std::uint8_t> bytes_;
};

}  // namespace fftc::compiler::codegen
