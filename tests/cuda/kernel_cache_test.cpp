// The kernel cache: FNV-1a, the entry format, corrupt entries, the cache directory from the
// environment, and NVRTC results served from the cache.
#include "backends/cuda/kernel_cache.h"
#include "tests/support/scoped_env.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <vector>

#include "backends/cuda/nvrtc_api.h"
#include "backends/cuda/nvrtc_compiler.h"
#include "tests/cuda/test_support.h"

namespace fftc::backends::cuda {
namespace {

using testing::kVectorAddSource;
using testing::ScratchDirectory;

std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const std::filesystem::path& path, const std::string& contents) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << contents;
}

using ::fftc::testing::ScopedEnv;

TEST(Fnv1a64, MatchesPublishedTestVectors) {
  // From the FNV reference test suite (Fowler, Noll, Vo).
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
  EXPECT_EQ(Fnv1a64().add("foo").add("bar").value(), fnv1a64("foobar"));
  EXPECT_EQ(Fnv1a64().add("a").hex(), "af63dc4c8601ec8c");
}

TEST(Fnv1a64, FieldsAreDelimited) {
  EXPECT_NE(Fnv1a64().addField("ab").addField("c").value(),
            Fnv1a64().addField("a").addField("bc").value());
}

TEST(KernelCache, StoresAndLoadsBinaryBytes) {
  ScratchDirectory scratch;
  const KernelCache cache(scratch.path() / "nested" / "cuda");
  std::string bytes(
      "\x7f"
      "ELF\0\x01\n\xff payload",
      16);
  EXPECT_FALSE(cache.load("0123456789abcdef").has_value());
  ASSERT_TRUE(cache.store("0123456789abcdef", bytes));
  EXPECT_EQ(cache.load("0123456789abcdef"), bytes);
  EXPECT_FALSE(cache.load("fedcba9876543210").has_value());
  // Only the entry is left: the temporary file was renamed into place.
  int files = 0;
  for ([[maybe_unused]] const auto& entry :
       std::filesystem::directory_iterator(cache.directory())) {
    ++files;
  }
  EXPECT_EQ(files, 1);
}

TEST(KernelCache, CorruptEntriesAreMissesAndAreRemoved) {
  ScratchDirectory scratch;
  const KernelCache cache(scratch.path());
  const std::string key = "00000000000000aa";
  const std::string bytes(1000, 'x');
  using Corruption = std::string (*)(std::string);
  const std::vector<Corruption> corruptions = {
      [](std::string s) { return s.substr(0, s.size() - 1); },  // truncated
      [](std::string s) {
        s[s.size() - 10] = 'y';
        return s;
      },                                                        // flipped byte
      [](std::string s) { return s + "tail"; },                 // too long
      [](std::string s) { return "garbage" + s; },              // bad header
      [](std::string) { return std::string(); },                // empty file
      [](std::string s) { return s.substr(0, s.find('\n')); },  // header only
  };
  int which = 0;
  for (const auto& corrupt : corruptions) {
    ASSERT_TRUE(cache.store(key, bytes));
    writeFile(cache.entryPath(key), corrupt(readFile(cache.entryPath(key))));
    EXPECT_FALSE(cache.load(key).has_value()) << "corruption " << which;
    EXPECT_FALSE(std::filesystem::exists(cache.entryPath(key))) << "corruption " << which;
    ++which;
  }
}

TEST(KernelCache, AnEntryUnderAnotherKeyIsAMiss) {
  ScratchDirectory scratch;
  const KernelCache cache(scratch.path());
  ASSERT_TRUE(cache.store("1111111111111111", "bytes"));
  std::filesystem::copy_file(cache.entryPath("1111111111111111"),
                             cache.entryPath("2222222222222222"));
  EXPECT_FALSE(cache.load("2222222222222222").has_value());
}

TEST(KernelCache, StoreIntoAnUnwritablePlaceFailsQuietly) {
  ScratchDirectory scratch;
  writeFile(scratch.path() / "file", "not a directory");
  const KernelCache cache(scratch.path() / "file" / "cuda");
  EXPECT_FALSE(cache.store("1111111111111111", "bytes"));
  EXPECT_FALSE(cache.load("1111111111111111").has_value());
}

TEST(KernelCache, DefaultDirectoryFollowsTheEnvironment) {
  const ScopedEnv noCache("FFTC_NO_CACHE", nullptr);
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(KernelCache::defaultDirectory(), std::filesystem::path("/tmp/fftc-a/cuda"));
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", nullptr);
    const ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(KernelCache::defaultDirectory(), std::filesystem::path("/tmp/xdg/fftc/cuda"));
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", nullptr);
    const ScopedEnv xdg("XDG_CACHE_HOME", "");
    const ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(KernelCache::defaultDirectory(),
              std::filesystem::path("/home/someone/.cache/fftc/cuda"));
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv off("FFTC_NO_CACHE", "1");
    EXPECT_FALSE(KernelCache::defaultDirectory().has_value());
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv off("FFTC_NO_CACHE", "0");
    EXPECT_TRUE(KernelCache::defaultDirectory().has_value());
  }
}

TEST(NvrtcCache, KeyDependsOnEverythingThatChangesTheBinary) {
  NvrtcCompiler compiler(NvrtcApi::get(), std::nullopt);
  CompileRequest base;
  base.source = kVectorAddSource;
  const std::string key = compiler.cacheKey(base);
  EXPECT_EQ(key.size(), 16U);
  EXPECT_EQ(compiler.cacheKey(base), key) << "not stable";
  CompileRequest other = base;
  other.source += " ";
  EXPECT_NE(compiler.cacheKey(other), key);
  other = base;
  other.arch = "sm_100";
  EXPECT_NE(compiler.cacheKey(other), key);
  other = base;
  other.options = {"-use_fast_math"};
  EXPECT_NE(compiler.cacheKey(other), key);
  other = base;
  other.programName = "other.cu";
  EXPECT_NE(compiler.cacheKey(other), key);
}

TEST(NvrtcCache, SecondCompileComesFromTheCache) {
  ScratchDirectory scratch;
  CompileRequest request;
  request.source = kVectorAddSource;
  NvrtcCompiler compiler(NvrtcApi::get(), scratch.path());
  const CompiledProgram first = compiler.compile(request);
  EXPECT_FALSE(first.fromCache);
  EXPECT_TRUE(std::filesystem::exists(compiler.cache()->entryPath(first.cacheKey)));

  const CompiledProgram second = compiler.compile(request);
  EXPECT_TRUE(second.fromCache);
  EXPECT_EQ(second.binary, first.binary);
  EXPECT_EQ(second.kind, BinaryKind::Cubin);
  EXPECT_EQ(compiler.compilations(), 1U);
  EXPECT_EQ(compiler.cacheHits(), 1U);

  // Another compiler (another process, say) on the same directory is served too.
  NvrtcCompiler again(NvrtcApi::get(), scratch.path());
  EXPECT_TRUE(again.compile(request).fromCache);
  EXPECT_EQ(again.compilations(), 0U);
}

TEST(NvrtcCache, CorruptEntryFallsBackToCompilingAndIsRewritten) {
  ScratchDirectory scratch;
  CompileRequest request;
  request.source = kVectorAddSource;
  NvrtcCompiler compiler(NvrtcApi::get(), scratch.path());
  const CompiledProgram first = compiler.compile(request);
  const std::filesystem::path entry = compiler.cache()->entryPath(first.cacheKey);
  std::string contents = readFile(entry);
  contents[contents.size() / 2] ^= 0x5a;
  writeFile(entry, contents);

  const CompiledProgram second = compiler.compile(request);
  EXPECT_FALSE(second.fromCache);
  EXPECT_EQ(second.binary, first.binary);
  EXPECT_EQ(compiler.compilations(), 2U);
  EXPECT_TRUE(compiler.compile(request).fromCache) << "the corrupt entry was not replaced";
}

TEST(NvrtcCache, NoCacheEnvironmentDisablesIt) {
  ScratchDirectory scratch;
  const ScopedEnv dir("FFTC_CACHE_DIR", scratch.path().c_str());
  const ScopedEnv off("FFTC_NO_CACHE", "1");
  NvrtcCompiler compiler;
  EXPECT_FALSE(compiler.cache().has_value());
  CompileRequest request;
  request.source = kVectorAddSource;
  EXPECT_FALSE(compiler.compile(request).fromCache);
  EXPECT_FALSE(compiler.compile(request).fromCache);
  EXPECT_EQ(compiler.compilations(), 2U);
  EXPECT_TRUE(std::filesystem::is_empty(scratch.path()));
}

TEST(NvrtcCache, CompileErrorsAreNotCached) {
  ScratchDirectory scratch;
  NvrtcCompiler compiler(NvrtcApi::get(), scratch.path());
  CompileRequest request;
  request.source = "__global__ void k() { this is not C }";
  EXPECT_THROW(static_cast<void>(compiler.compile(request)), CompileError);
  EXPECT_THROW(static_cast<void>(compiler.compile(request)), CompileError);
  EXPECT_TRUE(std::filesystem::is_empty(scratch.path()));
}

}  // namespace
}  // namespace fftc::backends::cuda
