#include "backends/opencl/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <optional>

#include "backends/opencl/cl_error.h"
#include "backends/opencl/context.h"

namespace fftc::backends::opencl {
namespace {

std::string buildLog(cl_program program, cl_device_id device) {
  std::size_t size = 0;
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
      CL_SUCCESS) {
    return {};  // The log only explains; failing to get it must not hide the real error.
  }
  std::string log(size, '\0');
  if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr) !=
      CL_SUCCESS) {
    return {};
  }
  while (!log.empty() &&
         (log.back() == '\0' || std::isspace(static_cast<unsigned char>(log.back())) != 0)) {
    log.pop_back();
  }
  return log;
}

std::string nulTerminated(std::string_view text) {
  return std::string(text);
}

// Tries the cached binary; nullopt (after dropping the entry) when the driver rejects it.
std::optional<Program> buildFromBinary(const Context& context, std::string_view options,
                                       BinaryCache& cache, std::uint64_t key) {
  const auto binary = cache.load(key);
  if (!binary) {
    return std::nullopt;
  }
  cl_device_id device = context.device().device;
  const std::size_t size = binary->size();
  const unsigned char* data = binary->data();
  cl_int binaryStatus = CL_SUCCESS;
  cl_int status = CL_SUCCESS;
  ProgramHandle program(
      clCreateProgramWithBinary(context.get(), 1, &device, &size, &data, &binaryStatus, &status));
  if (status == CL_SUCCESS && binaryStatus == CL_SUCCESS) {
    const std::string opts = nulTerminated(options);
    status = clBuildProgram(program.get(), 1, &device, opts.c_str(), nullptr, nullptr);
  }
  if (status != CL_SUCCESS || binaryStatus != CL_SUCCESS) {
    cache.reject(key);
    return std::nullopt;
  }
  std::string log = buildLog(program.get(), device);
  return Program(std::move(program), std::move(log), true, key);
}

void storeBinary(cl_program program, BinaryCache& cache, std::uint64_t key) {
  std::size_t size = 0;
  if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) !=
          CL_SUCCESS ||
      size == 0) {
    return;  // Caching is an optimization: a driver that cannot give binaries just misses.
  }
  std::vector<unsigned char> binary(size);
  unsigned char* data = binary.data();
  if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(data), &data, nullptr) != CL_SUCCESS) {
    return;
  }
  cache.store(key, binary);
}

}  // namespace

Program::Program(ProgramHandle handle, std::string buildLog, bool fromCache, std::uint64_t cacheKey)
    : handle_(std::move(handle)),
      buildLog_(std::move(buildLog)),
      fromCache_(fromCache),
      cacheKey_(cacheKey) {}

std::vector<std::string> Program::kernelNames() const {
  std::size_t size = 0;
  check(clGetProgramInfo(get(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &size), "clGetProgramInfo");
  std::string names(size, '\0');
  check(clGetProgramInfo(get(), CL_PROGRAM_KERNEL_NAMES, size, names.data(), nullptr),
        "clGetProgramInfo");
  std::vector<std::string> out;
  std::string current;
  for (char c : names) {
    if (c == ';' || c == '\0') {
      if (!current.empty()) {
        out.push_back(std::move(current));
      }
      current.clear();
    } else {
      current += c;
    }
  }
  return out;
}

std::string firstErrorLine(std::string_view log) {
  std::string firstNonEmpty;
  std::size_t start = 0;
  while (start <= log.size()) {
    const std::size_t end = std::min(log.find('\n', start), log.size());
    std::string_view line = log.substr(start, end - start);
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.front())) != 0) {
      line.remove_prefix(1);
    }
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())) != 0) {
      line.remove_suffix(1);
    }
    std::string lowered(line);
    std::transform(lowered.begin(), lowered.end(), lowered.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (lowered.find("error") != std::string::npos) {
      return std::string(line.substr(0, 300));
    }
    if (firstNonEmpty.empty() && !line.empty()) {
      firstNonEmpty = std::string(line.substr(0, 300));
    }
    start = end + 1;
  }
  return firstNonEmpty;
}

Program buildProgram(const Context& context, std::string_view source, std::string_view options,
                     BinaryCache* cache) {
  const std::uint64_t key = programCacheKey(source, options, context.device());
  if (cache != nullptr) {
    if (auto cached = buildFromBinary(context, options, *cache, key)) {
      return std::move(*cached);
    }
  }
  cl_device_id device = context.device().device;
  const char* text = source.data();
  const std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  ProgramHandle program(clCreateProgramWithSource(context.get(), 1, &text, &length, &status));
  check(status, "clCreateProgramWithSource");
  const std::string opts = nulTerminated(options);
  status = clBuildProgram(program.get(), 1, &device, opts.c_str(), nullptr, nullptr);
  std::string log = buildLog(program.get(), device);
  if (status == CL_BUILD_PROGRAM_FAILURE || status == CL_INVALID_BUILD_OPTIONS) {
    std::string reason = firstErrorLine(log);
    if (reason.empty()) {
      reason = errorName(status);
    }
    throw DeviceError(fmt::format("OpenCL build failed on {}: {}", context.device().name, reason),
                      std::move(log));
  }
  check(status, "clBuildProgram", context.device().name);
  if (cache != nullptr) {
    storeBinary(program.get(), *cache, key);
  }
  return Program(std::move(program), std::move(log), false, key);
}

}  // namespace fftc::backends::opencl
