// A file mapped read-only into memory (POSIX mmap), for the plan cache's entries: a warm plan
// reads its tables where the page cache holds them instead of copying them into fresh buffers.
#pragma once

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string_view>

namespace fftc::fftlib {

class MappedFile {
 public:
  // The file's bytes as they are now, or nullptr when it cannot be opened or mapped (a missing
  // file). An empty file maps to no bytes. The mapping is private and read-only: it stays valid
  // after the file is renamed over or removed, but a file truncated in place while mapped would
  // make a read past its new end fault (SIGBUS), so only map files that are replaced whole, never
  // rewritten (the plan cache renames complete entries into place).
  static std::shared_ptr<const MappedFile> open(const std::filesystem::path& path);

  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  [[nodiscard]] std::string_view bytes() const noexcept {
    return {static_cast<const char*>(address_), size_};
  }

 private:
  MappedFile(void* address, std::size_t size) : address_(address), size_(size) {}

  void* address_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace fftc::fftlib
