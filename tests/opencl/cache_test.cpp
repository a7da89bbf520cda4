// The on-disk binary cache: stable keys, hits on a second build, and fallback to a source
// build for every kind of damaged entry.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "tests/opencl/opencl_fixture.h"
#include "tests/support/scoped_env.h"

namespace fftc::backends::opencl {
namespace {

using testing::kVectorAddSource;
using testing::sharedContext;
using testing::TempDir;

// Runs vadd from `program` on 3 elements and returns c = a + b.
std::vector<float> runVectorAdd(const Program& program) {
  Context& ctx = sharedContext();
  Buffer a = Buffer::from<float>(ctx, std::vector<float>{1, 2, 3});
  Buffer b = Buffer::from<float>(ctx, std::vector<float>{10, 20, 30});
  Buffer c = Buffer::of<float>(ctx, 3);
  Kernel kernel(program, "vadd");
  kernel.setArgs(a, b, c, 3);
  launch(ctx, kernel, NDRange(3)).wait();
  return c.read<float>(ctx);
}

const std::vector<float> kSums = {11, 22, 33};

std::vector<unsigned char> readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const std::filesystem::path& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

using ::fftc::testing::ScopedEnv;

TEST(OpenclCache, Fnv1aMatchesTheReferenceValues) {
  // Reference values of FNV-1a 64 (www.isthe.com/chongo/tech/comp/fnv).
  EXPECT_EQ(Fnv1a64().add("").value(), 0xcbf29ce484222325ULL);
  EXPECT_EQ(Fnv1a64().add("a").value(), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(Fnv1a64().add("foobar").value(), 0x85944171f73967e8ULL);
  // Fields are length-prefixed: moving a boundary changes the hash.
  EXPECT_NE(Fnv1a64().addField("ab").addField("c").value(),
            Fnv1a64().addField("a").addField("bc").value());
}

TEST(OpenclCache, KeyDependsOnSourceOptionsAndDevice) {
  const DeviceInfo& device = sharedContext().device();
  const std::uint64_t key = programCacheKey("src", "-cl-fast-relaxed-math", device);
  EXPECT_EQ(key, programCacheKey("src", "-cl-fast-relaxed-math", device));
  EXPECT_NE(key, programCacheKey("src2", "-cl-fast-relaxed-math", device));
  EXPECT_NE(key, programCacheKey("src", "", device));
  DeviceInfo newerDriver = device;
  newerDriver.driverVersion += ".1";
  EXPECT_NE(key, programCacheKey("src", "-cl-fast-relaxed-math", newerDriver));
  DeviceInfo otherDevice = device;
  otherDevice.name += " (2)";
  EXPECT_NE(key, programCacheKey("src", "-cl-fast-relaxed-math", otherDevice));
}

TEST(OpenclCache, SecondBuildIsServedFromTheCache) {
  TempDir dir;
  BinaryCache cache(dir.path() / "nested" / "opencl");  // created on the first store
  const Program first = buildProgram(sharedContext(), kVectorAddSource, "", &cache);
  EXPECT_FALSE(first.fromCache());
  EXPECT_EQ(cache.stats().misses, 1U);
  EXPECT_EQ(cache.stats().stores, 1U);
  EXPECT_TRUE(std::filesystem::exists(cache.pathFor(first.cacheKey())));

  const Program second = buildProgram(sharedContext(), kVectorAddSource, "", &cache);
  EXPECT_TRUE(second.fromCache());
  EXPECT_EQ(second.cacheKey(), first.cacheKey());
  EXPECT_EQ(cache.stats().hits, 1U);
  EXPECT_EQ(cache.stats().corrupt, 0U);
  EXPECT_EQ(runVectorAdd(second), kSums);

  // Other options are another program.
  const Program third = buildProgram(sharedContext(), kVectorAddSource, "-cl-mad-enable", &cache);
  EXPECT_FALSE(third.fromCache());
  EXPECT_EQ(cache.stats().stores, 2U);
  // No temporary files are left behind by the atomic writes.
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(cache.directory())) {
    EXPECT_EQ(entry.path().extension(), ".clbin") << entry.path();
    ++files;
  }
  EXPECT_EQ(files, 2U);
}

TEST(OpenclCache, ContextBuildUsesItsCache) {
  TempDir dir;
  Context ctx = sharedContext();  // shares the OpenCL context; has its own cache setting
  ctx.setCache(std::make_shared<BinaryCache>(dir.path()));
  EXPECT_FALSE(ctx.build(kVectorAddSource).fromCache());
  EXPECT_TRUE(ctx.build(kVectorAddSource).fromCache());
  ctx.setCache(nullptr);
  EXPECT_FALSE(ctx.build(kVectorAddSource).fromCache());
}

// Each kind of damage: the build falls back to source, works, and repairs the entry.
void expectFallback(const std::function<void(const std::filesystem::path&)>& damage) {
  TempDir dir;
  BinaryCache cache(dir.path());
  const Program fresh = buildProgram(sharedContext(), kVectorAddSource, "", &cache);
  const std::filesystem::path entry = cache.pathFor(fresh.cacheKey());
  ASSERT_TRUE(std::filesystem::exists(entry));
  damage(entry);

  const Program rebuilt = buildProgram(sharedContext(), kVectorAddSource, "", &cache);
  EXPECT_FALSE(rebuilt.fromCache());
  EXPECT_EQ(cache.stats().corrupt, 1U);
  EXPECT_EQ(cache.stats().hits, 0U);
  EXPECT_EQ(cache.stats().stores, 2U);  // rewritten after the source build
  EXPECT_EQ(runVectorAdd(rebuilt), kSums);

  const Program again = buildProgram(sharedContext(), kVectorAddSource, "", &cache);
  EXPECT_TRUE(again.fromCache());
  EXPECT_EQ(runVectorAdd(again), kSums);
}

TEST(OpenclCache, FlippedPayloadByteFallsBackToASourceBuild) {
  expectFallback([](const std::filesystem::path& entry) {
    std::vector<unsigned char> bytes = readFile(entry);
    ASSERT_GT(bytes.size(), 100U);
    bytes[bytes.size() / 2] ^= 0x5a;
    writeFile(entry, bytes);
  });
}

TEST(OpenclCache, TruncatedEntryFallsBackToASourceBuild) {
  expectFallback([](const std::filesystem::path& entry) {
    std::vector<unsigned char> bytes = readFile(entry);
    bytes.resize(bytes.size() - 7);
    writeFile(entry, bytes);
  });
}

TEST(OpenclCache, EmptyEntryFallsBackToASourceBuild) {
  expectFallback([](const std::filesystem::path& entry) { writeFile(entry, {}); });
}

TEST(OpenclCache, WellFormedEntryWithGarbageBinaryFallsBack) {
  // Passes the cache's own checks; the driver must be the one to reject it.
  expectFallback([](const std::filesystem::path& entry) {
    const std::string name = entry.stem().string();
    const std::uint64_t key = std::stoull(name, nullptr, 16);
    std::vector<unsigned char> garbage(4096);
    for (std::size_t i = 0; i < garbage.size(); ++i) {
      garbage[i] = static_cast<unsigned char>((i * 131) ^ (i >> 3));
    }
    std::filesystem::remove(entry);
    BinaryCache writer(entry.parent_path());
    ASSERT_TRUE(writer.store(key, garbage));
    ASSERT_TRUE(writer.load(key).has_value());
  });
}

TEST(OpenclCache, UnwritableDirectoryNeverFailsTheBuild) {
  TempDir dir;
  const std::filesystem::path file = dir.path() / "not-a-directory";
  writeFile(file, {1, 2, 3});
  BinaryCache cache(file / "opencl");
  const Program program = buildProgram(sharedContext(), kVectorAddSource, "", &cache);
  EXPECT_FALSE(program.fromCache());
  EXPECT_EQ(cache.stats().stores, 0U);
  EXPECT_EQ(runVectorAdd(program), kSums);
}

TEST(OpenclCache, DirectoryAndSwitchComeFromTheEnvironment) {
  {
    ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-explicit");
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(BinaryCache::defaultDirectory(), std::filesystem::path("/tmp/fftc-explicit/opencl"));
  }
  {
    ScopedEnv dir("FFTC_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(BinaryCache::defaultDirectory(), std::filesystem::path("/tmp/xdg/fftc/opencl"));
  }
  {
    ScopedEnv dir("FFTC_CACHE_DIR", nullptr);
    ScopedEnv xdg("XDG_CACHE_HOME", "");
    ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(BinaryCache::defaultDirectory(),
              std::filesystem::path("/home/someone/.cache/fftc/opencl"));
  }
  {
    ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-explicit");
    ScopedEnv off("FFTC_NO_CACHE", "1");
    EXPECT_TRUE(BinaryCache::disabledByEnvironment());
    EXPECT_EQ(BinaryCache::fromEnvironment(), nullptr);
  }
  {
    ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-explicit");
    ScopedEnv on("FFTC_NO_CACHE", "0");
    EXPECT_FALSE(BinaryCache::disabledByEnvironment());
    ASSERT_NE(BinaryCache::fromEnvironment(), nullptr);
    EXPECT_EQ(BinaryCache::fromEnvironment()->directory(), "/tmp/fftc-explicit/opencl");
  }
}

}  // namespace
}  // namespace fftc::backends::opencl
