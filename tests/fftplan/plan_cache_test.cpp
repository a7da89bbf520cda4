// The disk plan cache (fftlib/plan/plan_cache.h): a stored plan loads back equal to the compiled
// one (its source, manifest, header, views and stages byte for byte) and runs on PoCL against
// FFTW; damaged, foreign and stale entries are refused, removed and rebuilt; concurrent writers
// and readers never see part of an entry; the size bound evicts the least recently used; the
// environment moves or disables it. Every test points FFTC_CACHE_DIR at its own directory.
#include <gtest/gtest.h>

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <boost/json.hpp>
#include <complex>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "compiler/codegen/codegen.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/plan_cache.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"
#include "tests/support/scoped_env.h"

namespace fftc::fftlib::test {
namespace {

namespace fs = std::filesystem;
using ::fftc::testing::ScopedEnv;

class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = fs::temp_directory_path() /
            fmt::format("fftc-plan-cache-test-{}-{}", ::getpid(), counter++);
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  [[nodiscard]] const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

std::string readFile(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeFile(const fs::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// A plan compiled without any disk cache.
std::shared_ptr<const CompiledFft> compiledFresh(const FftRequest& r) {
  const ScopedEnv off("FFTC_NO_PLAN_CACHE", "1");
  clearPlanCache();
  auto plan = planFft(r);
  clearPlanCache();
  return plan;
}

// Everything a user of a plan sees, compared field by field.
void expectSamePlan(const CompiledFft& a, const CompiledFft& b) {
  namespace cg = compiler::codegen;
  EXPECT_EQ(a.describe(), b.describe());
  EXPECT_EQ(a.compiled.source, b.compiled.source);
  EXPECT_EQ(cg::manifestText(a.compiled), cg::manifestText(b.compiled));
  const cg::HeaderPtx ptx{"compute_75", "// PTX"};  // a CUDA header's (OpenCL: unused)
  EXPECT_EQ(cg::emitHeader(a.compiled, &ptx), cg::emitHeader(b.compiled, &ptx));
  EXPECT_EQ(cg::viewsText(a.compiled), cg::viewsText(b.compiled));
  EXPECT_EQ(a.compiled.usesDouble, b.compiled.usesDouble);
  ASSERT_EQ(a.compiled.buffers.size(), b.compiled.buffers.size());
  for (size_t i = 0; i < a.compiled.buffers.size(); ++i) {
    const auto &x = a.compiled.buffers[i], &y = b.compiled.buffers[i];
    EXPECT_EQ(x.element, y.element) << x.name;
    EXPECT_EQ(x.type, y.type) << x.name;
    EXPECT_EQ(x.data, y.data) << x.name;
    EXPECT_EQ(x.layout, y.layout) << x.name;
  }
  ASSERT_EQ(a.stages.size(), b.stages.size());
  for (size_t i = 0; i < a.stages.size(); ++i) {
    EXPECT_EQ(a.stages[i].global, b.stages[i].global);
    EXPECT_EQ(a.stages[i].local, b.stages[i].local);
    EXPECT_EQ(a.stages[i].args, b.stages[i].args);
    EXPECT_EQ(a.stages[i].bytesMoved, b.stages[i].bytesMoved);
    EXPECT_EQ(a.stages[i].dynamicLocalBytes, b.stages[i].dynamicLocalBytes);
  }
  ASSERT_EQ(a.compiled.stages.size(), b.compiled.stages.size());
  for (size_t i = 0; i < a.compiled.stages.size(); ++i)  // the sources the stages build from
    EXPECT_EQ(a.compiled.stages[i].source, b.compiled.stages[i].source) << i;
  EXPECT_EQ(a.inputBuffer, b.inputBuffer);
  EXPECT_EQ(a.outputBuffer, b.outputBuffer);
  EXPECT_EQ(a.inPlaceSafe, b.inPlaceSafe);
  EXPECT_EQ(a.bytesMoved, b.bytesMoved);
  EXPECT_EQ(a.strategy, b.strategy);
  EXPECT_EQ(a.fallbackReason, b.fallbackReason);
  EXPECT_EQ(a.choice.radices, b.choice.radices);
  EXPECT_EQ(a.choice.stageLocal, b.choice.stageLocal);
}

// A spread of what plans hold: one kernel, several stages, twiddle tables, Bluestein, N-D,
// real, strided layouts, f64, CUDA, the clang-format layout.
std::vector<FftRequest> spread() {
  std::vector<FftRequest> rs;
  rs.push_back(shapeRequest({64}, 4));  // Local, one kernel
  auto twiddle = shapeRequest({256}, 2, Precision::F64);
  twiddle.variant = Variant::StockhamTwiddle;  // a pass per radix, tables
  rs.push_back(twiddle);
  auto hier = shapeRequest({1024});
  hier.variant = Variant::Hierarchical;
  rs.push_back(hier);
  rs.push_back(shapeRequest({23}, 3));  // Bluestein
  rs.push_back(shapeRequest({8, 16}, 2));
  auto real = shapeRequest({32}, 2);
  real.real = true;
  rs.push_back(real);
  auto strided = shapeRequest({16}, 3);
  strided.inLayout.stride = 2;
  strided.outLayout.dist = 20;
  rs.push_back(strided);
  auto cuda = shapeRequest({128}, 2);
  cuda.target = compiler::pipeline::Target::Cuda;
  rs.push_back(cuda);
  auto formatted = shapeRequest({32});
  formatted.format = true;
  rs.push_back(formatted);
  return rs;
}

TEST(PlanCache, StoredPlansLoadBackEqual) {
  TempDir dir;
  PlanCache cache(dir.path());
  for (const auto& r : spread()) {
    SCOPED_TRACE(r.key());
    auto fresh = compiledFresh(r);
    // the entry's text format, then through the files
    auto parsed = parsePlan(serializePlan(*fresh), r);
    ASSERT_NE(parsed, nullptr);
    expectSamePlan(*fresh, *parsed);
    ASSERT_TRUE(cache.store(*fresh));
    EXPECT_TRUE(fs::exists(cache.entryPath(r)));
    auto loaded = cache.load(r);
    ASSERT_NE(loaded, nullptr);
    expectSamePlan(*fresh, *loaded);
  }
  EXPECT_EQ(cache.stats().hits, spread().size());
  EXPECT_EQ(cache.stats().corrupt, 0U);
}

TEST(PlanCache, ASecondPlanLoadsFromDiskAndRunsAgainstFftw) {
  TempDir dir;
  const ScopedEnv root("FFTC_CACHE_DIR", dir.path().c_str());
  const ScopedEnv on("FFTC_NO_PLAN_CACHE", nullptr);
  auto r = shapeRequest({48}, 3);  // 2^4 * 3: radices 16, 3 in local memory
  r.variant = Variant::StockhamTwiddle;
  clearPlanCache();
  const auto before = diskPlanCacheStats();
  auto first = planFft(r);
  EXPECT_EQ(diskPlanCacheStats().stores, before.stores + 1);
  EXPECT_TRUE(fs::exists(PlanCache(dir.path() / "plans").entryPath(r)));
  clearPlanCache();  // the in-process cache: the next plan comes from the disk
  Plan plan = Plan::create(fftc::testing::openclContext(), r);
  EXPECT_EQ(diskPlanCacheStats().hits, before.hits + 1);
  expectSamePlan(*first, plan.info());
  auto x = uniformInput<float>(static_cast<size_t>(r.size * r.batch), 7);
  auto y = plan.run(x);
  auto ref = referenceDft1d(toLongDouble(std::span<const std::complex<float>>(x)), r.size,
                            r.batch, r.direction);
  EXPECT_LE(linfError(std::span<const std::complex<float>>(y), ref),
            fftTolerance(r.size, r.precision));
  clearPlanCache();
}

// Writes `entry` with its header line made to match its (changed) body.
std::string reheader(const std::string& entry) {
  const std::string body = entry.substr(entry.find('\n') + 1);
  unsigned long long j = 0, b = 0;
  char magic[32];
  int version = 0;
  EXPECT_EQ(std::sscanf(entry.c_str(), "%31s %d %llu %llu", magic, &version, &j, &b), 4);
  const unsigned long long newJ = body.size() - b;  // the blobs did not change
  return fmt::format("{} {} {} {} {:016x}\n", magic, version, newJ, b, planEntryChecksum(body)) +
         body;
}

TEST(PlanCache, DamagedForeignAndStaleEntriesAreRemovedAndRebuilt) {
  TempDir dir;
  PlanCache cache(dir.path());
  const auto r = shapeRequest({32}, 2);
  auto other = r;
  other.batch = 4;
  const auto plan = compiledFresh(r);
  ASSERT_TRUE(cache.store(*plan));
  const fs::path path = cache.entryPath(r);
  const std::string good = readFile(path);
  const std::string body = good.substr(good.find('\n') + 1);
  std::string flipped = good;
  flipped[flipped.size() / 2] ^= 0x20;  // one bit in the middle
  std::string stale = good;  // the entry of another build: its identity names another hash
  const std::string hash(planBuildHash());
  ASSERT_NE(stale.find(hash), std::string::npos);
  stale.replace(stale.find(hash), hash.size(), std::string(hash.size(), '0'));
  stale = reheader(stale);
  std::string oldVersion = good;  // the same body under another format version
  const size_t versionAt = oldVersion.find(' ') + 1;  // "MAGIC VERSION ...": version 0
  oldVersion.replace(versionAt, oldVersion.find(' ', versionAt) - versionAt, "0");
  const std::vector<std::pair<std::string, std::string>> damaged = {
      {"empty", ""},
      {"truncated", good.substr(0, good.size() - 100)},
      {"extended", good + "x"},
      {"a flipped bit", flipped},
      {"no header", body},
      {"garbage", "fftc-plan-cache 1 3 0 0000000000000000\nabc"},
      {"another build", stale},
      {"another format version", oldVersion},
  };
  for (const auto& [what, bytes] : damaged) {
    SCOPED_TRACE(what);
    writeFile(path, bytes);
    const auto corrupt = cache.stats().corrupt;
    EXPECT_EQ(cache.load(r), nullptr);
    EXPECT_EQ(cache.stats().corrupt, corrupt + 1);
    EXPECT_FALSE(fs::exists(path));  // removed, so that the next store replaces it
  }
  // An entry of another request under this request's name (a hash collision): refused.
  ASSERT_TRUE(cache.store(*compiledFresh(other)));
  fs::rename(cache.entryPath(other), path);
  EXPECT_EQ(cache.load(r), nullptr);
  EXPECT_FALSE(fs::exists(path));
  // Rebuilt through the planner: the entry is written again, and then loads.
  {
    const ScopedEnv root("FFTC_CACHE_DIR", dir.path().c_str());
    PlanCache viaEnv(dir.path() / "plans");
    fs::create_directories(viaEnv.directory());
    writeFile(viaEnv.entryPath(r), good.substr(0, good.size() / 2));
    clearPlanCache();
    const auto before = diskPlanCacheStats();
    auto rebuilt = planFft(r);
    EXPECT_EQ(diskPlanCacheStats().corrupt, before.corrupt + 1);
    EXPECT_EQ(diskPlanCacheStats().stores, before.stores + 1);
    expectSamePlan(*plan, *rebuilt);
    auto loaded = viaEnv.load(r);
    ASSERT_NE(loaded, nullptr);
    expectSamePlan(*plan, *loaded);
    clearPlanCache();
  }
}

// Whether `address` lies in a mapping of the file `path` (/proc/self/maps).
bool mappedFrom(const void* address, const fs::path& path) {
  std::ifstream maps("/proc/self/maps");
  const auto at = reinterpret_cast<std::uintptr_t>(address);
  const std::string name = fs::canonical(path).string();
  for (std::string line; std::getline(maps, line);) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx", &lo, &hi) != 2 || at < lo || at >= hi) continue;
    return line.size() >= name.size() && line.ends_with(name);
  }
  return false;
}

// A loaded plan's tables are views of the mapped entry, not copies: they stay valid when the
// entry is replaced or removed. An entry whose header and checksum agree but whose blobs end
// inside a table (a table file cut short, then re-headered) is refused, never read past.
TEST(PlanCache, MappedTablesOutliveTheirEntryAndATableCutShortIsRefused) {
  TempDir dir;
  PlanCache cache(dir.path());
  const auto r = shapeRequest({23}, 3);  // Bluestein: chirp tables
  const auto plan = compiledFresh(r);
  ASSERT_TRUE(cache.store(*plan));
  const fs::path path = cache.entryPath(r);
  const std::string good = readFile(path);
  {
    auto loaded = cache.load(r);
    ASSERT_NE(loaded, nullptr);
    const compiler::codegen::BufferInfo* table = nullptr;
    for (const auto& b : loaded->compiled.buffers)
      if (b.role == "table" && !b.data.empty()) table = &b;
    ASSERT_NE(table, nullptr);
    EXPECT_TRUE(mappedFrom(table->data.data(), path));
    // replaced by another request's entry, then removed: the loaded plan is unchanged
    auto other = r;
    other.batch = 5;
    ASSERT_TRUE(cache.store(*compiledFresh(other)));
    fs::rename(cache.entryPath(other), path);
    fs::remove(path);
    expectSamePlan(*plan, *loaded);
  }
  // The blobs cut in the middle of the table that ends last, the header made to agree.
  const size_t newline = good.find('\n');
  unsigned long long jsonBytes = 0, blobBytes = 0;
  char magic[32];
  int version = 0;
  ASSERT_EQ(std::sscanf(good.c_str(), "%31s %d %llu %llu", magic, &version, &jsonBytes,
                        &blobBytes),
            4);
  const auto doc = boost::json::parse(good.substr(newline + 1, jsonBytes)).as_object();
  uint64_t tableEnd = 0, tableSize = 0, blobsEnd = 0;
  auto end = [](const boost::json::value& blob) {
    const auto& a = blob.as_array();
    return std::pair<uint64_t, uint64_t>(a.at(0).as_int64() + a.at(1).as_int64(),
                                         a.at(1).as_int64());
  };
  const auto& compiled = doc.at("compiled").as_object();
  blobsEnd = std::max(blobsEnd, end(compiled.at("source")).first);
  for (const auto& b : compiled.at("buffers").as_array()) {
    const auto [e, n] = end(b.at("data"));
    blobsEnd = std::max(blobsEnd, e);
    if (b.at("role").as_string() == "table" && e > tableEnd) {
      tableEnd = e;
      tableSize = n;
    }
  }
  for (const auto& st : compiled.at("stages").as_array())
    blobsEnd = std::max(blobsEnd, end(st.at("source")).first);
  ASSERT_GT(tableSize, 0U);
  ASSERT_EQ(tableEnd, blobsEnd);  // nothing but the table is cut
  const uint64_t cutBlobs = tableEnd - tableSize / 2;
  const std::string body = good.substr(newline + 1, jsonBytes + cutBlobs);
  writeFile(path, fmt::format("{} {} {} {} {:016x}\n", magic, version, jsonBytes, cutBlobs,
                              planEntryChecksum(body)) +
                      body);
  const auto corrupt = cache.stats().corrupt;
  EXPECT_EQ(cache.load(r), nullptr);
  EXPECT_EQ(cache.stats().corrupt, corrupt + 1);
  EXPECT_FALSE(fs::exists(path));
  // the entry as written loads again
  writeFile(path, good);
  auto again = cache.load(r);
  ASSERT_NE(again, nullptr);
  expectSamePlan(*plan, *again);
}

// The checksum of a large entry is read in chunks (kPlanEntryChecksumChunk) on several threads:
// a byte changed in any chunk (the first, a middle one, the last, the short tail), two chunks
// swapped, or the body cut at a chunk's end changes it; the threads do not (one thread, three
// and six give the same value: results kept by chunk, not by the order the threads finish).
TEST(PlanCache, TheChecksumOfALargeEntrySeesEveryChunk) {
  constexpr size_t kChunk = kPlanEntryChecksumChunk;
  std::string body(5 * kChunk + 12345, '\0');
  uint64_t x = 0x9e3779b97f4a7c15ULL;
  for (auto& c : body) {  // not periodic: no two chunks alike
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  const uint64_t sum = [&] {
    ScopedEnv one("FFTC_BUILD_THREADS", "1");
    return planEntryChecksum(body);
  }();
  for (const char* threads : {"3", "6"}) {
    ScopedEnv several("FFTC_BUILD_THREADS", threads);
    for (int repeat = 0; repeat < 4; ++repeat)
      EXPECT_EQ(planEntryChecksum(body), sum) << threads << " threads";
  }
  EXPECT_EQ(planEntryChecksum(body), sum);  // the default: a thread a core
  for (size_t at : {size_t{0}, kChunk - 1, kChunk, 2 * kChunk + 4097, 5 * kChunk - 1,
                    5 * kChunk, body.size() - 1}) {
    std::string changed = body;
    changed[at] = static_cast<char>(changed[at] ^ 0x40);
    EXPECT_NE(planEntryChecksum(changed), sum) << "byte " << at;
  }
  std::string swapped = body;
  std::swap_ranges(swapped.begin() + kChunk, swapped.begin() + 2 * kChunk,
                   swapped.begin() + 3 * kChunk);
  EXPECT_NE(planEntryChecksum(swapped), sum);
  EXPECT_NE(planEntryChecksum(std::string_view(body).substr(0, 5 * kChunk)), sum);
  const std::string four = body.substr(0, 4 * kChunk);  // and a zero byte more (a chunk of its own)
  EXPECT_NE(planEntryChecksum(four), planEntryChecksum(four + std::string(1, '\0')));
}

TEST(PlanCache, ConcurrentWritersAndReadersNeverSeeAPartialEntry) {
  TempDir dir;
  const auto r = shapeRequest({256}, 2, Precision::F64);  // an entry of tens of KB
  const auto plan = compiledFresh(r);
  const std::string expected = serializePlan(*plan);
  std::atomic<bool> done{false};
  PlanCache reader(dir.path());
  std::vector<std::thread> writers;
  for (int w = 0; w < 2; ++w)
    writers.emplace_back([&] {
      PlanCache cache(dir.path());
      for (int i = 0; i < 40; ++i) EXPECT_TRUE(cache.store(*plan));
    });
  std::thread readerThread([&] {
    while (!done) {
      if (auto p = reader.load(r)) {
        EXPECT_EQ(p->compiled.source, plan->compiled.source);
      }
    }
  });
  for (auto& t : writers) t.join();
  done = true;
  readerThread.join();
  EXPECT_EQ(reader.stats().corrupt, 0U);
  EXPECT_EQ(readFile(reader.entryPath(r)), expected);
  // no temporary file is left behind
  int files = 0;
  for (const auto& e : fs::directory_iterator(dir.path())) {
    EXPECT_EQ(e.path().extension(), ".plan") << e.path();
    ++files;
  }
  EXPECT_EQ(files, 1);
}

#ifdef FFTC_BINARY
// Two fftc processes plan the same request at once into one cache: both succeed and emit the
// same files, and the entry they leave loads.
TEST(PlanCache, TwoProcessesShareOneCache) {
  TempDir dir;
  const ScopedEnv root("FFTC_CACHE_DIR", (dir.path() / "cache").c_str());
  std::vector<pid_t> pids;
  for (int i = 0; i < 2; ++i) {
    const std::string out = (dir.path() / fmt::format("out{}", i)).string();
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      std::freopen("/dev/null", "w", stdout);
      ::execl(FFTC_BINARY, FFTC_BINARY, "fft", "--size", "512", "--batch", "2", "-o", out.c_str(),
              static_cast<char*>(nullptr));
      ::_exit(127);
    }
    pids.push_back(pid);
  }
  for (pid_t pid : pids) {
    int status = 0;
    ASSERT_EQ(::waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const std::string name = "fft_512_f32";
  for (const char* ext : {".cl", ".json", ".hpp"})
    EXPECT_EQ(readFile(dir.path() / "out0" / (name + ext)),
              readFile(dir.path() / "out1" / (name + ext)))
        << ext;
  FftRequest r = shapeRequest({512}, 2);
  r.format = true;
  PlanCache cache(dir.path() / "cache" / "plans");
  auto loaded = cache.load(r);
  ASSERT_NE(loaded, nullptr);
  EXPECT_EQ(loaded->compiled.source, readFile(dir.path() / "out0" / (name + ".cl")));
}
#endif

TEST(PlanCache, TheSizeBoundEvictsTheLeastRecentlyUsed) {
  TempDir dir;
  std::vector<FftRequest> rs;
  for (int64_t n : {8, 16, 32}) rs.push_back(shapeRequest({n}));
  std::vector<std::shared_ptr<const CompiledFft>> plans;
  std::vector<uint64_t> bytes;
  for (const auto& r : rs) {
    plans.push_back(compiledFresh(r));
    bytes.push_back(serializePlan(*plans.back()).size());
  }
  // Room for the two larger entries, not for all three.
  PlanCache cache(dir.path(), bytes[1] + bytes[2] + bytes[0] / 2);
  const auto now = fs::file_time_type::clock::now();
  ASSERT_TRUE(cache.store(*plans[0]));
  fs::last_write_time(cache.entryPath(rs[0]), now - std::chrono::minutes(10));
  ASSERT_TRUE(cache.store(*plans[1]));
  fs::last_write_time(cache.entryPath(rs[1]), now - std::chrono::minutes(5));
  EXPECT_EQ(cache.stats().evicted, 0U);
  // Using the oldest makes the second the least recently used.
  ASSERT_NE(cache.load(rs[0]), nullptr);
  ASSERT_TRUE(cache.store(*plans[2]));
  EXPECT_EQ(cache.stats().evicted, 1U);
  EXPECT_TRUE(fs::exists(cache.entryPath(rs[0])));
  EXPECT_FALSE(fs::exists(cache.entryPath(rs[1])));
  EXPECT_TRUE(fs::exists(cache.entryPath(rs[2])));
  // An abandoned temporary file goes too, a fresh one (a writer at work) stays.
  const fs::path oldTemp = dir.path() / ".abandoned.1.2.tmp", newTemp = dir.path() / ".x.3.4.tmp";
  writeFile(oldTemp, "x");
  writeFile(newTemp, "x");
  fs::last_write_time(oldTemp, now - std::chrono::hours(2));
  cache.evict();
  EXPECT_FALSE(fs::exists(oldTemp));
  EXPECT_TRUE(fs::exists(newTemp));
}

TEST(PlanCache, TheEnvironmentMovesAndDisablesIt) {
  const ScopedEnv off1("FFTC_NO_CACHE", nullptr), off2("FFTC_NO_PLAN_CACHE", nullptr);
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(PlanCache::defaultDirectory(), fs::path("/tmp/fftc-a/plans"));
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", nullptr);
    const ScopedEnv xdg("XDG_CACHE_HOME", "/tmp/xdg");
    EXPECT_EQ(PlanCache::defaultDirectory(), fs::path("/tmp/xdg/fftc/plans"));
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", nullptr);
    const ScopedEnv xdg("XDG_CACHE_HOME", "");
    const ScopedEnv home("HOME", "/home/someone");
    EXPECT_EQ(PlanCache::defaultDirectory(), fs::path("/home/someone/.cache/fftc/plans"));
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv off("FFTC_NO_PLAN_CACHE", "1");
    EXPECT_EQ(PlanCache::defaultDirectory(), std::nullopt);
    EXPECT_EQ(PlanCache::fromEnvironment(), nullptr);
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv off("FFTC_NO_CACHE", "1");
    EXPECT_EQ(PlanCache::defaultDirectory(), std::nullopt);
  }
  {
    const ScopedEnv dir("FFTC_CACHE_DIR", "/tmp/fftc-a");
    const ScopedEnv off("FFTC_NO_PLAN_CACHE", "0");
    EXPECT_EQ(PlanCache::defaultDirectory(), fs::path("/tmp/fftc-a/plans"));
  }
  {
    const ScopedEnv mb("FFTC_PLAN_CACHE_MAX_MB", "3");
    EXPECT_EQ(PlanCache::maxBytesFromEnvironment(), 3U << 20);
  }
  {
    const ScopedEnv mb("FFTC_PLAN_CACHE_MAX_MB", "lots");
    EXPECT_EQ(PlanCache::maxBytesFromEnvironment(), PlanCache::kDefaultMaxBytes);
  }
  // Disabled: planning writes nothing.
  TempDir dir;
  const ScopedEnv root("FFTC_CACHE_DIR", dir.path().c_str());
  const ScopedEnv off("FFTC_NO_PLAN_CACHE", "1");
  clearPlanCache();
  (void)planFft(shapeRequest({4}));
  clearPlanCache();
  EXPECT_FALSE(fs::exists(dir.path() / "plans"));
}

TEST(PlanCache, TheKeyNamesTheRequestTheBuildAndTheLayout) {
  const auto r = shapeRequest({64});
  auto f64 = r;
  f64.precision = Precision::F64;
  auto cuda = r;
  cuda.target = compiler::pipeline::Target::Cuda;
  auto formatted = r;
  formatted.format = true;
  PlanCache cache("/tmp/unused");
  EXPECT_EQ(cache.entryPath(r), cache.entryPath(shapeRequest({64})));
  for (const auto* o : {&f64, &cuda, &formatted})
    EXPECT_NE(cache.entryPath(r), cache.entryPath(*o)) << o->key();
  EXPECT_NE(PlanCache::identity(r).find(planBuildHash()), std::string::npos);
  EXPECT_EQ(planBuildHash().size(), 64U);  // SHA-256 in hex
}

}  // namespace
}  // namespace fftc::fftlib::test
