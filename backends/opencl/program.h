// Building OpenCL programs from source, through the on-disk binary cache; a failed build is a
// DeviceError with a one-line message and the full build log.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "backends/opencl/binary_cache.h"
#include "backends/opencl/handles.h"

namespace fftc::backends::opencl {

class Context;

class Program {
 public:
  Program(ProgramHandle handle, std::string buildLog, bool fromCache, std::uint64_t cacheKey);

  [[nodiscard]] cl_program get() const { return handle_.get(); }
  // True when the binary came from the on-disk cache instead of a build from source.
  [[nodiscard]] bool fromCache() const { return fromCache_; }
  // The build log (warnings, or the driver's notes); may be empty.
  [[nodiscard]] const std::string& buildLog() const { return buildLog_; }
  [[nodiscard]] std::uint64_t cacheKey() const { return cacheKey_; }
  [[nodiscard]] std::vector<std::string> kernelNames() const;

 private:
  ProgramHandle handle_;
  std::string buildLog_;
  bool fromCache_;
  std::uint64_t cacheKey_;
};

// Builds `source` with `options` for the context's device. With a cache, a stored binary is
// tried first (any problem with it falls back to a source build) and a fresh build is stored.
// A failed source build throws DeviceError("OpenCL build failed on DEVICE: FIRST ERROR LINE")
// whose log() is the full build log.
[[nodiscard]] Program buildProgram(const Context& context, std::string_view source,
                                   std::string_view options, BinaryCache* cache);

// The line of a build log that best explains a failure: the first one that mentions "error",
// else the first non-empty one; trimmed, at most 300 characters.
[[nodiscard]] std::string firstErrorLine(std::string_view log);

}  // namespace fftc::backends::opencl
