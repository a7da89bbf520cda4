// NVRTC compilation: architecture checks, the cache lookup, and turning NVRTC's log into errors.
#include "backends/cuda/nvrtc_compiler.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <string_view>

#include "backends/cuda/nvrtc_api.h"

namespace fftc::backends::cuda {
namespace {

struct ParsedArch {
  BinaryKind kind;
  int number;
};

// "sm_90", "sm_90a", "compute_100f" -> kind and number; UserError otherwise.
ParsedArch parseArch(std::string_view arch) {
  ParsedArch parsed{BinaryKind::Cubin, 0};
  std::string_view rest = arch;
  if (rest.starts_with("sm_")) {
    rest.remove_prefix(3);
  } else if (rest.starts_with("compute_")) {
    parsed.kind = BinaryKind::Ptx;
    rest.remove_prefix(8);
  } else {
    rest = {};
  }
  std::size_t digits = 0;
  while (digits < rest.size() && std::isdigit(static_cast<unsigned char>(rest[digits])) != 0) {
    parsed.number = parsed.number * 10 + (rest[digits] - '0');
    ++digits;
  }
  // At most one feature suffix: 'a' (arch-specific) or 'f' (family).
  const std::string_view suffix = rest.substr(digits);
  if (digits < 2 || digits > 3 || !(suffix.empty() || suffix == "a" || suffix == "f")) {
    throw UserError(fmt::format(
        "invalid CUDA architecture '{}': expected sm_XY (CUBIN) or compute_XY (PTX)", arch));
  }
  return parsed;
}

void checkSupported(const NvrtcApi& api, std::string_view arch, int number) {
  const std::vector<int>& archs = api.supportedArchs();
  if (archs.empty() || std::find(archs.begin(), archs.end(), number) != archs.end()) return;
  throw DeviceError(fmt::format("NVRTC {} cannot compile for {} (it supports sm_{} to sm_{})",
                                api.versionText(), arch, archs.front(), archs.back()));
}

void checkOptions(const std::vector<std::string>& options) {
  for (const std::string& option : options) {
    if (option.starts_with("-arch") || option.starts_with("--gpu-architecture") ||
        option.starts_with("-gpu-architecture")) {
      throw UserError(fmt::format(
          "NVRTC option '{}': the architecture is set by the compile request, not an option",
          option));
    }
  }
}

// The line that names the first error ("prog.cu(3): error: ..."), else the first line.
std::string firstErrorLine(std::string_view log) {
  std::string_view first;
  while (!log.empty()) {
    const std::size_t end = std::min(log.find('\n'), log.size());
    std::string_view line = log.substr(0, end);
    log.remove_prefix(std::min(end + 1, log.size()));
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())) != 0) {
      line.remove_suffix(1);
    }
    if (line.empty()) continue;
    if (line.find("error") != std::string_view::npos) return std::string(line);
    if (first.empty()) first = line;
  }
  return first.empty() ? std::string("NVRTC_ERROR_COMPILATION (no log)") : std::string(first);
}

// NVRTC_ERROR_INVALID_OPTION: a DeviceError to the caller; compileUncached retries without the
// fast options on it.
struct InvalidOptionError : DeviceError {
  using DeviceError::DeviceError;
};

// Owns an nvrtcProgram.
class Program {
 public:
  Program(const NvrtcApi& api, const CompileRequest& request) : api_(api) {
    api_.check(api_.nvrtcCreateProgram(&program_, request.source.c_str(),
                                       request.programName.c_str(), 0, nullptr, nullptr),
               "nvrtcCreateProgram");
  }
  Program(const Program&) = delete;
  Program& operator=(const Program&) = delete;
  ~Program() { api_.nvrtcDestroyProgram(&program_); }

  [[nodiscard]] nvrtcProgram get() const noexcept { return program_; }

  [[nodiscard]] std::string log() const {
    std::size_t size = 0;
    api_.check(api_.nvrtcGetProgramLogSize(program_, &size), "nvrtcGetProgramLogSize");
    std::string log(size, '\0');
    if (size > 0) api_.check(api_.nvrtcGetProgramLog(program_, log.data()), "nvrtcGetProgramLog");
    while (!log.empty() && log.back() == '\0') log.pop_back();
    return log;
  }

  [[nodiscard]] std::string binary(BinaryKind kind) const {
    std::size_t size = 0;
    std::string bytes;
    if (kind == BinaryKind::Cubin) {
      api_.check(api_.nvrtcGetCUBINSize(program_, &size), "nvrtcGetCUBINSize");
      bytes.resize(size);
      api_.check(api_.nvrtcGetCUBIN(program_, bytes.data()), "nvrtcGetCUBIN");
    } else {
      api_.check(api_.nvrtcGetPTXSize(program_, &size), "nvrtcGetPTXSize");
      bytes.resize(size);
      api_.check(api_.nvrtcGetPTX(program_, bytes.data()), "nvrtcGetPTX");
      // std::string keeps its own terminator, which cuModuleLoadData needs for PTX.
      while (!bytes.empty() && bytes.back() == '\0') bytes.pop_back();
    }
    return bytes;
  }

 private:
  const NvrtcApi& api_;
  nvrtcProgram program_ = nullptr;
};

}  // namespace

std::string archForComputeCapability(int major, int minor) {
  return fmt::format("sm_{}{}", major, minor);
}

std::vector<std::string> nvrtcOptionsFromEnvironment() {
  std::vector<std::string> options;
  const char* text = std::getenv("FFTC_NVRTC_OPTIONS");
  if (text == nullptr) return options;
  std::string_view rest(text);
  while (!rest.empty()) {
    std::size_t start = 0;
    while (start < rest.size() && std::isspace(static_cast<unsigned char>(rest[start])) != 0)
      ++start;
    std::size_t end = start;
    while (end < rest.size() && std::isspace(static_cast<unsigned char>(rest[end])) == 0) ++end;
    if (end > start) options.emplace_back(rest.substr(start, end - start));
    rest.remove_prefix(end);
  }
  return options;
}

std::vector<std::string> fastCompileOptions() {
  const char* minimal = std::getenv("FFTC_NVRTC_MINIMAL");
  if (minimal != nullptr && std::string_view(minimal) == "0") return {};
  return {"-minimal"};
}

NvrtcCompiler::NvrtcCompiler() : NvrtcCompiler(NvrtcApi::get(), KernelCache::defaultDirectory()) {}

NvrtcCompiler::NvrtcCompiler(const NvrtcApi& api,
                             std::optional<std::filesystem::path> cacheDirectory)
    : api_(&api) {
  if (cacheDirectory) cache_.emplace(std::move(*cacheDirectory));
}

std::string NvrtcCompiler::cacheKey(const CompileRequest& request) const {
  Fnv1a64 hash;
  hash.addField("fftc-nvrtc").addField(api_->versionText()).addField(request.arch);
  hash.addField(request.programName).addField(request.source);
  hash.addField(std::to_string(request.options.size()));
  for (const std::string& option : request.options) hash.addField(option);
  return hash.hex();
}

CompiledProgram NvrtcCompiler::compile(const CompileRequest& request) {
  const ParsedArch arch = parseArch(request.arch);
  checkOptions(request.options);
  checkOptions(request.fastOptions);
  checkSupported(*api_, request.arch, arch.number);
  const std::string key = cacheKey(request);
  if (cache_) {
    if (std::optional<std::string> bytes = cache_->load(key)) {
      ++cacheHits_;
      return CompiledProgram{request.arch, arch.kind, std::move(*bytes), {}, {}, true, key};
    }
  }
  CompiledProgram program = compileUncached(request, arch.kind);
  ++compilations_;
  program.cacheKey = key;
  if (cache_) cache_->store(key, program.binary);
  return program;
}

CompiledProgram NvrtcCompiler::compileUncached(const CompileRequest& request, BinaryKind kind) {
  if (request.fastOptions.empty() || fastOptionsRejected_.load())
    return compileWith(request, kind, request.options);
  std::vector<std::string> options = request.fastOptions;
  options.insert(options.end(), request.options.begin(), request.options.end());
  try {
    return compileWith(request, kind, std::move(options));
  } catch (const InvalidOptionError&) {
    // An NVRTC without one of the fast options: the same source without them (where the
    // request's own options are what it rejects, that compile says so).
    CompiledProgram program = compileWith(request, kind, request.options);
    fastOptionsRejected_.store(true);
    return program;
  }
}

CompiledProgram NvrtcCompiler::compileWith(const CompileRequest& request, BinaryKind kind,
                                           std::vector<std::string> options) const {
  Program program(*api_, request);
  options.push_back("--gpu-architecture=" + request.arch);
  std::vector<const char*> optionPointers;
  optionPointers.reserve(options.size());
  for (const std::string& option : options) optionPointers.push_back(option.c_str());

  const nvrtcResult result = api_->nvrtcCompileProgram(
      program.get(), static_cast<int>(optionPointers.size()), optionPointers.data());
  std::string log = program.log();
  if (result == NVRTC_SUCCESS) {
    return CompiledProgram{
        request.arch, kind, program.binary(kind), std::move(log), std::move(options), false, {}};
  }
  // Formatted before `log` is moved into the exception.
  const std::string firstLine = firstErrorLine(log);
  if (result == NVRTC_ERROR_COMPILATION) {
    throw CompileError(fmt::format("CUDA C compilation for {} failed: {}", request.arch, firstLine),
                       std::move(log));
  }
  // e.g. NVRTC_ERROR_INVALID_OPTION: the log says which option.
  const char* name = api_->nvrtcGetErrorString(result);
  std::string what =
      fmt::format("nvrtcCompileProgram: {}: {}", name != nullptr ? name : "?", firstLine);
  if (result == NVRTC_ERROR_INVALID_OPTION) throw InvalidOptionError(what, std::move(log));
  throw DeviceError(what, std::move(log));
}

}  // namespace fftc::backends::cuda
