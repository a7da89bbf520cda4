// The disk cache of compiled FFT plans: what planFft computes before any device build (kernel
// source, manifest, tables, launch geometry) stored per request, so that a later process loads
// a plan in milliseconds instead of running the front end, the rewrites and code generation.
//
// Where: $FFTC_CACHE_DIR/plans, else $XDG_CACHE_HOME/fftc/plans, else ~/.cache/fftc/plans (the
// root the OpenCL and CUDA binary caches share); FFTC_NO_CACHE=1 turns it off with them,
// FFTC_NO_PLAN_CACHE=1 alone. Bounded by FFTC_PLAN_CACHE_MAX_MB (default 256): beyond it the
// least recently used entries go. Device binaries stay in the binary caches (keyed by device and
// driver): a compiled plan depends on the request and fftc's build only.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

// SHA-256 of fftc's version and of the sources a compiled plan depends on (front end, IR,
// rewrites, code generation, printers, the .fdl files, the planner), made at build time by
// cmake/FftcCodegenHash.cmake.
std::string_view planBuildHash();

class PlanCache {
 public:
  static constexpr std::uint64_t kDefaultMaxBytes = std::uint64_t{256} << 20;

  struct Stats {
    std::uint64_t hits = 0;
    std::uint64_t misses = 0;   // no entry
    std::uint64_t corrupt = 0;  // unreadable, damaged or for another request: removed, rebuilt
    std::uint64_t stores = 0;
    std::uint64_t evicted = 0;  // entries removed to stay within the size bound
  };

  explicit PlanCache(std::filesystem::path directory, std::uint64_t maxBytes = kDefaultMaxBytes);

  // The directory the environment names (see above); nullopt when disabled or none is known.
  [[nodiscard]] static std::optional<std::filesystem::path> defaultDirectory();
  // FFTC_PLAN_CACHE_MAX_MB in bytes, else kDefaultMaxBytes.
  [[nodiscard]] static std::uint64_t maxBytesFromEnvironment();
  // The cache the environment asks for (read at each call), or nullptr.
  [[nodiscard]] static std::unique_ptr<PlanCache> fromEnvironment();

  // Everything a stored plan depends on, as text: the request's key, the build identity, and
  // (when the source is laid out) which clang plugin lays it out. Stored in the entry and
  // compared on loading; its hash names the file.
  [[nodiscard]] static std::string identity(const FftRequest& request);
  [[nodiscard]] std::filesystem::path entryPath(const FftRequest& request) const;
  [[nodiscard]] const std::filesystem::path& directory() const { return directory_; }

  // The stored plan of `request`, or nullptr when there is none or it does not check out (a
  // damaged entry, or one of another identity, is removed and counted corrupt). Never throws.
  // The entry is mapped (mapped_file.h) and the plan's tables are views of the mapping, kept
  // while the plan lives: an entry evicted meanwhile frees its disk space when the plan goes.
  [[nodiscard]] std::shared_ptr<const CompiledFft> load(const FftRequest& request);
  // Writes the plan's entry atomically (a temporary file renamed into place: a reader sees the
  // old entry or the new one, never part of one), then evicts beyond the size bound. False when
  // the disk refuses or the plan is not cacheable (size variables left). Never throws.
  bool store(const CompiledFft& plan);
  // Removes least recently used entries (modification time; a hit refreshes it) until the
  // entries take at most the size bound, and temporary files abandoned over an hour ago.
  void evict();

  [[nodiscard]] Stats stats() const;

 private:
  std::filesystem::path directory_;
  std::uint64_t maxBytes_;
  std::atomic<std::uint64_t> hits_{0}, misses_{0}, corrupt_{0}, stores_{0}, evicted_{0};
};

// The entry format (plan_cache.cpp): a header line, a Boost.JSON document, the source and the
// tables' bytes. The parser returns nullptr for anything that is not an entry of `request`.
std::string serializePlan(const CompiledFft& plan);  // std::invalid_argument: not cacheable
// The header's CHECKSUM of an entry's body (what follows the header line): each chunk of
// kPlanEntryChecksumChunk bytes summed on its own (concurrently, on up to FFTC_BUILD_THREADS
// threads), the sums folded in order; the value does not depend on the threads.
inline constexpr std::size_t kPlanEntryChecksumChunk = std::size_t{1} << 21;
std::uint64_t planEntryChecksum(std::string_view body);
std::shared_ptr<CompiledFft> parsePlan(std::string_view bytes, const FftRequest& request);
// The same, the plan's tables aliasing `bytes` (no copy), which `owner` keeps alive as long as
// the plan's buffers live (PlanCache::load: the mapped entry).
std::shared_ptr<CompiledFft> parsePlan(std::string_view bytes, const FftRequest& request,
                                       const std::shared_ptr<const void>& owner);

// The planner's hook (plan_compile.cpp, planFft): the plan from the environment's disk cache, else
// `compile(request)`, stored there. Counts into diskPlanCacheStats().
using PlanCompiler = std::function<std::shared_ptr<const CompiledFft>(const FftRequest&)>;
std::shared_ptr<const CompiledFft> planThroughDiskCache(const FftRequest& request,
                                                        const PlanCompiler& compile);
// What planThroughDiskCache did in this process (the sum over its caches).
PlanCache::Stats diskPlanCacheStats();

}  // namespace fftc::fftlib
