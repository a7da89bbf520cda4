// FNV-1a and the kernel cache's file format, reading and atomic writing.
#include "backends/cuda/kernel_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <system_error>

namespace fftc::backends::cuda {
namespace {

constexpr std::string_view kMagic = "fftc-kernel-cache";
constexpr int kFormatVersion = 1;

std::string header(std::string_view key, std::string_view bytes) {
  return fmt::format("{} {} {} {} {:016x}\n", kMagic, kFormatVersion, key, bytes.size(),
                     fnv1a64(bytes));
}

const char* nonEmptyEnv(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

Fnv1a64& Fnv1a64::add(std::string_view bytes) noexcept {
  for (const char c : bytes) {
    state_ ^= static_cast<unsigned char>(c);
    state_ *= 0x100000001b3ULL;
  }
  return *this;
}

Fnv1a64& Fnv1a64::addField(std::string_view bytes) noexcept {
  std::uint64_t length = bytes.size();
  for (int i = 0; i < 8; ++i, length >>= 8) {
    const char byte = static_cast<char>(length & 0xffU);
    add(std::string_view(&byte, 1));
  }
  return add(bytes);
}

std::string Fnv1a64::hex() const {
  return fmt::format("{:016x}", state_);
}

std::uint64_t fnv1a64(std::string_view bytes) noexcept {
  return Fnv1a64().add(bytes).value();
}

KernelCache::KernelCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::optional<std::filesystem::path> KernelCache::defaultDirectory() {
  if (const char* off = nonEmptyEnv("FFTC_NO_CACHE");
      off != nullptr && std::string_view(off) != "0") {
    return std::nullopt;
  }
  if (const char* dir = nonEmptyEnv("FFTC_CACHE_DIR")) return std::filesystem::path(dir) / "cuda";
  if (const char* dir = nonEmptyEnv("XDG_CACHE_HOME")) {
    return std::filesystem::path(dir) / "fftc" / "cuda";
  }
  if (const char* home = nonEmptyEnv("HOME")) {
    return std::filesystem::path(home) / ".cache" / "fftc" / "cuda";
  }
  return std::nullopt;
}

std::filesystem::path KernelCache::entryPath(std::string_view key) const {
  return directory_ / (std::string(key) + ".bin");
}

std::optional<std::string> KernelCache::load(std::string_view key) const {
  const std::filesystem::path path = entryPath(key);
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return std::nullopt;
  // One read of the whole file (a character at a time through istreambuf_iterator took 2 ns a
  // byte: about 1 ms of a warm plan for a module's few hundred KB of CUBIN), then the header
  // line moved off the front in place.
  std::string contents;
  const std::streamoff size = in.tellg();
  if (size > 0) {
    contents.resize(static_cast<std::size_t>(size));
    in.seekg(0);
    if (!in.read(contents.data(), size)) contents.clear();
  }
  in.close();
  const std::size_t newline = contents.find('\n');
  if (newline != std::string::npos) {
    const std::string line = contents.substr(0, newline + 1);
    contents.erase(0, newline + 1);
    if (line == header(key, contents)) return contents;
  }
  std::error_code ignored;
  std::filesystem::remove(path, ignored);
  return std::nullopt;
}

bool KernelCache::store(std::string_view key, std::string_view bytes) const {
  std::error_code error;
  std::filesystem::create_directories(directory_, error);
  if (error) return false;
  // Unique per process and call, so concurrent writers of one key never share a temp file;
  // the last rename wins and both wrote the same bytes.
  static std::atomic<unsigned> counter{0};
  const std::filesystem::path temp =
      directory_ / fmt::format(".{}.{}.{}.tmp", key, ::getpid(), counter.fetch_add(1));
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out << header(key, bytes);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(temp, error);
      return false;
    }
  }
  std::filesystem::rename(temp, entryPath(key), error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    return false;
  }
  return true;
}

}  // namespace fftc::backends::cuda
