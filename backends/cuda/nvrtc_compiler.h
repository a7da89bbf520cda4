// Compiling CUDA C with NVRTC for one architecture, through the on-disk kernel cache.
// Works without a GPU: the architecture is the device's or a default (sm_90) for CI checks.
#pragma once

#include <atomic>
#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/cuda/kernel_cache.h"

namespace fftc::backends::cuda {

class NvrtcApi;

// The architecture compile-only checks use when there is no device: Hopper (H100, H200).
inline constexpr std::string_view kDefaultArch = "sm_90";

// "sm_XY" for compute capability X.Y.
std::string archForComputeCapability(int major, int minor);

// The NVRTC options of fftc's own compiles (plans, `fftc run`): FFTC_NVRTC_OPTIONS split at
// white space, none when unset. None by default: the options that make NVRTC faster
// (--Ofast-compile=mid, -Xptxas -O1) change the SASS, and on an H200 --Ofast-compile made the
// 16384-point f32 kernel 1.5x slower (docs/performance.md, issue 21); the kernel cache keys by
// the options.
std::vector<std::string> nvrtcOptionsFromEnvironment();

// The options that shorten fftc's own compiles and leave the CUBIN byte for byte the same:
// `-minimal` (NVRTC's built-in header without textures, the device runtime and the driver
// types, which generated kernels never use; same SASS for every kernel of fft_bench's sizes on
// sm_90 with NVRTC 13.0: bench/nvrtc_options.py, docs/performance.md). None when
// FFTC_NVRTC_MINIMAL=0.
std::vector<std::string> fastCompileOptions();

// NVRTC rejected the source. what() is one line (the log's first error); log() is all of it.
struct CompileError : DeviceError {
  using DeviceError::DeviceError;
};

struct CompileRequest {
  std::string source;
  // The file name NVRTC uses in its messages ("fftc_kernel.cu(12): error: ...").
  std::string programName = "fftc_kernel.cu";
  // NVRTC options such as "-use_fast_math", "-lineinfo", "-DN=64"; the architecture goes in
  // `arch`, not here.
  std::vector<std::string> options;
  // Options that only make NVRTC faster (fastCompileOptions()), passed before `options`. Where
  // this NVRTC rejects one (NVRTC_ERROR_INVALID_OPTION: a version without it), the source is
  // compiled again without them and the compiler passes none from then on; the CUBIN is the
  // same either way, so the cache key leaves them out.
  std::vector<std::string> fastOptions;
  // "sm_XY" (a real architecture: the result is CUBIN) or "compute_XY" (virtual: PTX).
  std::string arch = std::string(kDefaultArch);
};

enum class BinaryKind { Cubin, Ptx };

struct CompiledProgram {
  std::string arch;
  BinaryKind kind = BinaryKind::Cubin;
  // The CUBIN (an ELF image) or the PTX text, ready for cuModuleLoadData.
  std::string binary;
  // NVRTC's messages (warnings); empty when the result came from the cache.
  std::string log;
  // The options NVRTC compiled with, `--gpu-architecture` last; empty when from the cache.
  std::vector<std::string> options;
  bool fromCache = false;
  std::string cacheKey;
};

class NvrtcCompiler {
 public:
  // The process-wide NVRTC and KernelCache::defaultDirectory(). Throws DeviceError when NVRTC
  // cannot be loaded.
  NvrtcCompiler();
  // An explicit NVRTC and cache directory (nullopt: no cache).
  NvrtcCompiler(const NvrtcApi& api, std::optional<std::filesystem::path> cacheDirectory);

  // Returns the cached binary or compiles. Throws UserError for a malformed `arch` or an arch
  // option among `options`, DeviceError when this NVRTC cannot target `arch`, CompileError
  // when the source does not compile.
  CompiledProgram compile(const CompileRequest& request);

  // FNV-1a of the source, program name, options, arch and NVRTC version: the cache key.
  [[nodiscard]] std::string cacheKey(const CompileRequest& request) const;
  [[nodiscard]] const std::optional<KernelCache>& cache() const noexcept { return cache_; }
  [[nodiscard]] const NvrtcApi& api() const noexcept { return *api_; }

  // Counters since construction (thread-safe): compile() calls NVRTC ran for, and those the
  // cache answered.
  [[nodiscard]] std::size_t compilations() const noexcept { return compilations_.load(); }
  [[nodiscard]] std::size_t cacheHits() const noexcept { return cacheHits_.load(); }
  // Whether this NVRTC rejected the requests' fastOptions (they are no longer passed).
  [[nodiscard]] bool fastOptionsRejected() const noexcept { return fastOptionsRejected_.load(); }

 private:
  CompiledProgram compileUncached(const CompileRequest& request, BinaryKind kind);
  CompiledProgram compileWith(const CompileRequest& request, BinaryKind kind,
                              std::vector<std::string> options) const;

  const NvrtcApi* api_;
  std::optional<KernelCache> cache_;
  std::atomic<std::size_t> compilations_{0};
  std::atomic<std::size_t> cacheHits_{0};
  std::atomic<bool> fastOptionsRejected_{false};
};

}  // namespace fftc::backends::cuda
