#include "backends/opencl/binary_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <system_error>

namespace fftc::backends::opencl {
namespace {

// Entry layout: magic, key, payload size, payload FNV-1a, payload (integers little-endian as
// the host writes them: a cache directory is not shared between architectures).
constexpr std::array<char, 8> kMagic = {'F', 'F', 'T', 'C', 'C', 'L', 'B', '1'};
constexpr std::size_t kHeaderBytes = kMagic.size() + 3 * sizeof(std::uint64_t);
constexpr std::uint64_t kMaxEntryBytes = std::uint64_t{1} << 31;  // a sanity bound

std::uint64_t readU64(const unsigned char* p) {
  std::uint64_t value = 0;
  std::memcpy(&value, p, sizeof(value));
  return value;
}

void appendU64(std::vector<unsigned char>& out, std::uint64_t value) {
  const auto* p = reinterpret_cast<const unsigned char*>(&value);
  out.insert(out.end(), p, p + sizeof(value));
}

std::uint64_t checksum(std::span<const unsigned char> bytes) {
  return Fnv1a64().add(bytes).value();
}

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

}  // namespace

Fnv1a64& Fnv1a64::add(std::span<const unsigned char> bytes) {
  for (unsigned char byte : bytes) {
    state_ ^= byte;
    state_ *= 0x100000001b3ULL;
  }
  return *this;
}

Fnv1a64& Fnv1a64::add(std::string_view text) {
  return add(std::span(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

Fnv1a64& Fnv1a64::addField(std::string_view text) {
  std::array<unsigned char, 8> length{};
  std::uint64_t n = text.size();
  for (auto& byte : length) {  // Explicit little-endian, so the key does not depend on the host.
    byte = static_cast<unsigned char>(n & 0xff);
    n >>= 8;
  }
  return add(length).add(text);
}

std::uint64_t programCacheKey(std::string_view source, std::string_view options,
                              const DeviceInfo& device) {
  return Fnv1a64()
      .addField("fftc-opencl-binary-v1")
      .addField(source)
      .addField(options)
      .addField(device.platformName)
      .addField(device.platformVersion)
      .addField(device.name)
      .addField(device.deviceVersion)
      .addField(device.driverVersion)
      .value();
}

BinaryCache::BinaryCache(std::filesystem::path directory) : directory_(std::move(directory)) {}

std::optional<std::filesystem::path> BinaryCache::defaultDirectory() {
  // One cache root for both runtimes: OpenCL binaries in opencl/, CUBINs in cuda/.
  if (const char* dir = env("FFTC_CACHE_DIR")) {
    return std::filesystem::path(dir) / "opencl";
  }
  if (const char* xdg = env("XDG_CACHE_HOME")) {
    return std::filesystem::path(xdg) / "fftc" / "opencl";
  }
  if (const char* home = env("HOME")) {
    return std::filesystem::path(home) / ".cache" / "fftc" / "opencl";
  }
  return std::nullopt;
}

bool BinaryCache::disabledByEnvironment() {
  const char* value = env("FFTC_NO_CACHE");
  return value != nullptr && std::string_view(value) != "0";
}

std::shared_ptr<BinaryCache> BinaryCache::fromEnvironment() {
  if (disabledByEnvironment()) {
    return nullptr;
  }
  auto dir = defaultDirectory();
  return dir ? std::make_shared<BinaryCache>(*dir) : nullptr;
}

std::filesystem::path BinaryCache::pathFor(std::uint64_t key) const {
  return directory_ / fmt::format("{:016x}.clbin", key);
}

std::optional<std::vector<unsigned char>> BinaryCache::load(std::uint64_t key) {
  const std::filesystem::path path = pathFor(key);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    ++misses_;
    return std::nullopt;
  }
  std::vector<unsigned char> header(kHeaderBytes);
  in.read(reinterpret_cast<char*>(header.data()), static_cast<std::streamsize>(kHeaderBytes));
  bool ok = in.gcount() == static_cast<std::streamsize>(kHeaderBytes) &&
            std::memcmp(header.data(), kMagic.data(), kMagic.size()) == 0 &&
            readU64(header.data() + 8) == key;
  const std::uint64_t size = ok ? readU64(header.data() + 16) : 0;
  ok = ok && size > 0 && size < kMaxEntryBytes;
  std::vector<unsigned char> payload;
  if (ok) {
    payload.resize(size);
    in.read(reinterpret_cast<char*>(payload.data()), static_cast<std::streamsize>(size));
    ok = in.gcount() == static_cast<std::streamsize>(size) && in.peek() == EOF &&
         checksum(payload) == readU64(header.data() + 24);
  }
  if (!ok) {
    in.close();
    ++corrupt_;
    std::error_code ignored;
    std::filesystem::remove(path, ignored);
    return std::nullopt;
  }
  ++hits_;
  return payload;
}

bool BinaryCache::store(std::uint64_t key, std::span<const unsigned char> binary) {
  if (binary.empty()) {
    return false;
  }
  std::vector<unsigned char> entry(kMagic.begin(), kMagic.end());
  appendU64(entry, key);
  appendU64(entry, binary.size());
  appendU64(entry, checksum(binary));
  entry.insert(entry.end(), binary.begin(), binary.end());

  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) {
    return false;
  }
  // A name unique to this process and call, in the same directory, so rename() is atomic and
  // concurrent writers of the same key each publish a complete file.
  thread_local std::mt19937_64 random{std::random_device{}()};
  const std::filesystem::path final = pathFor(key);
  const std::filesystem::path temp =
      directory_ / fmt::format(".{:016x}.{}.{:x}.tmp", key, ::getpid(), random());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(entry.data()),
              static_cast<std::streamsize>(entry.size()));
    out.close();
    if (!out) {
      std::filesystem::remove(temp, ec);
      return false;
    }
  }
  std::filesystem::rename(temp, final, ec);
  if (ec) {
    std::error_code ignored;
    std::filesystem::remove(temp, ignored);
    return false;
  }
  ++stores_;
  return true;
}

void BinaryCache::reject(std::uint64_t key) {
  // The entry was counted as a hit when loaded; it turned out to be unusable.
  --hits_;
  ++corrupt_;
  std::error_code ignored;
  std::filesystem::remove(pathFor(key), ignored);
}

BinaryCache::Stats BinaryCache::stats() const {
  return Stats{hits_.load(), misses_.load(), corrupt_.load(), stores_.load()};
}

}  // namespace fftc::backends::opencl
