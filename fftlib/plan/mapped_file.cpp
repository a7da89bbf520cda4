// POSIX mapping of a whole file, read-only (mapped_file.h).
#include "fftlib/plan/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace fftc::fftlib {

std::shared_ptr<const MappedFile> MappedFile::open(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return nullptr;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return nullptr;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  void* address = nullptr;
  if (size > 0) {
    // MAP_POPULATE: the page tables of the whole file in one call (a cache entry is read
    // through, for its checksum, right away), not a page fault every 16 pages.
    address = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | MAP_POPULATE, fd, 0);
    if (address == MAP_FAILED) {
      ::close(fd);
      return nullptr;
    }
  }
  ::close(fd);  // the mapping keeps the file
  return std::shared_ptr<const MappedFile>(new MappedFile(address, size));
}

MappedFile::~MappedFile() {
  if (size_ > 0) ::munmap(address_, size_);
}

}  // namespace fftc::fftlib
