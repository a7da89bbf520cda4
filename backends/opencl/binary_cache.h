// On-disk cache of OpenCL program binaries, keyed by a stable hash of source, build options
// and device identity; every failure to read or write it degrades to a source build.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "backends/opencl/device_info.h"

namespace fftc::backends::opencl {

// FNV-1a, 64 bits: stable across runs, compilers and platforms (std::hash is not).
class Fnv1a64 {
 public:
  Fnv1a64& add(std::span<const unsigned char> bytes);
  Fnv1a64& add(std::string_view text);
  // Length-prefixed, so that ("ab","c") and ("a","bc") hash differently.
  Fnv1a64& addField(std::string_view text);
  [[nodiscard]] std::uint64_t value() const { return state_; }

 private:
  std::uint64_t state_ = 0xcbf29ce484222325ULL;
};

// The cache key of a program: source, options, platform and device names and versions.
[[nodiscard]] std::uint64_t programCacheKey(std::string_view source, std::string_view options,
                                            const DeviceInfo& device);

class BinaryCache {
 public:
  struct Stats {
    std::uint64_t hits = 0;     // binaries loaded (the program builder may still reject one)
    std::uint64_t misses = 0;   // no entry
    std::uint64_t corrupt = 0;  // entries that failed to read, verify or build: rebuilt
    std::uint64_t stores = 0;   // entries written
  };

  explicit BinaryCache(std::filesystem::path directory);

  // $FFTC_CACHE_DIR/opencl, else $XDG_CACHE_HOME/fftc/opencl, else $HOME/.cache/fftc/opencl;
  // nullopt when none of them is set.
  [[nodiscard]] static std::optional<std::filesystem::path> defaultDirectory();
  // True when FFTC_NO_CACHE is set to anything but "" or "0".
  [[nodiscard]] static bool disabledByEnvironment();
  // The cache the environment asks for, or nullptr when disabled or without a directory.
  [[nodiscard]] static std::shared_ptr<BinaryCache> fromEnvironment();

  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }
  [[nodiscard]] std::filesystem::path pathFor(std::uint64_t key) const;

  // The stored binary, or nullopt when absent or damaged (bad magic, key, size or checksum:
  // a damaged entry is removed and counted as corrupt). Never throws.
  [[nodiscard]] std::optional<std::vector<unsigned char>> load(std::uint64_t key);
  // Writes atomically (temporary file + rename); returns false on any failure. Never throws.
  bool store(std::uint64_t key, std::span<const unsigned char> binary);
  // Called by the builder when a loaded binary was rejected by the driver: drops the entry.
  void reject(std::uint64_t key);

  [[nodiscard]] Stats stats() const;

 private:
  std::filesystem::path directory_;
  std::atomic<std::uint64_t> hits_{0}, misses_{0}, corrupt_{0}, stores_{0};
};

}  // namespace fftc::backends::opencl
