// The on-disk cache of compiled kernels (CUBIN or PTX), keyed by a stable FNV-1a hash.
// Entries are written atomically and checked on reading; a bad entry is a miss, never an error.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace fftc::backends::cuda {

// FNV-1a, 64 bit: stable across runs, compilers and platforms (std::hash is none of these).
class Fnv1a64 {
 public:
  Fnv1a64& add(std::string_view bytes) noexcept;
  // Adds the length, then the bytes, so that ("ab","c") and ("a","bc") hash differently.
  Fnv1a64& addField(std::string_view bytes) noexcept;
  [[nodiscard]] std::uint64_t value() const noexcept { return state_; }
  // 16 lower-case hex digits.
  [[nodiscard]] std::string hex() const;

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

std::uint64_t fnv1a64(std::string_view bytes) noexcept;

// A directory of entries KEY.bin, each a one-line header ("fftc-kernel-cache 1 KEY SIZE
// CHECKSUM") followed by SIZE bytes whose FNV-1a is CHECKSUM.
class KernelCache {
 public:
  explicit KernelCache(std::filesystem::path directory);

  // $FFTC_CACHE_DIR/cuda, else $XDG_CACHE_HOME/fftc/cuda, else $HOME/.cache/fftc/cuda;
  // nullopt when FFTC_NO_CACHE is set to anything but "" or "0", or no directory is known.
  static std::optional<std::filesystem::path> defaultDirectory();

  // The entry's bytes, or nullopt when it is missing or does not check out (a corrupt entry is
  // removed so that the next store replaces it).
  [[nodiscard]] std::optional<std::string> load(std::string_view key) const;
  // Writes the entry to a temporary file and renames it into place, so readers never see a
  // partial entry. Returns false (and leaves no file behind) when the disk refuses; the cache
  // is an optimization, so callers carry on.
  bool store(std::string_view key, std::string_view bytes) const;

  [[nodiscard]] std::filesystem::path entryPath(std::string_view key) const;
  [[nodiscard]] const std::filesystem::path& directory() const noexcept { return directory_; }

 private:
  std::filesystem::path directory_;
};

}  // namespace fftc::backends::cuda
