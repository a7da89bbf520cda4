// The disk cache of compiled FFT plans (plan_cache.h): the entry format, reading, atomic
// writing, eviction, and the planner's hook.
#include "fftlib/plan/plan_cache.h"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <boost/json.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <random>
#include <span>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "backends/opencl/binary_cache.h"  // Fnv1a64
#include "compiler/clang/clang_helpers.h"
#include "compiler/pipeline/phase_times.h"
#include "fftlib/plan/concurrent_build.h"
#include "fftlib/plan/mapped_file.h"

namespace fftc::fftlib {
namespace {

namespace json = boost::json;
namespace fs = std::filesystem;
using backends::opencl::Fnv1a64;

// Entry: "fftc-plan-cache VERSION JSON_BYTES BLOB_BYTES CHECKSUM\n", the JSON document, then
// the blobs (the source, each stage's own source, the tables' data) that the document points
// into by offset and size. CHECKSUM is FNV-1a over everything after the header line. VERSION
// changes with the format.
constexpr std::string_view kMagic = "fftc-plan-cache";
// 2: the plan's stages are derived, not stored; 3: each stage's own source (StageInfo::source);
// 4: the checksum is bodyChecksum's; 5: bodyChecksum in four lanes; 6: each stage's
// cluster_blocks (StageInfo::clusterBlocks); 7: bodyChecksum by chunks of 2 MiB, read concurrently
constexpr int kFormatVersion = 7;
constexpr std::string_view kSuffix = ".plan";

const char* env(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0' ? value : nullptr;
}

bool switchedOn(const char* name) {
  const char* value = env(name);
  return value != nullptr && std::string_view(value) != "0";
}

// ---- writing

// Array sizes, buffer counts and work sizes of a plan are constants (planFft refuses size
// variables); anything else cannot be stored as a number.
int64_t constantOf(const ir::ArithExpr& e) {
  if (auto c = e.constant()) return *c;
  throw std::invalid_argument("not a constant: " + e.str());
}

json::value typeJson(const ir::Type& t) {
  switch (t.kind()) {
    case ir::TypeKind::Scalar: return json::string(ir::scalarKindName(t.scalarKind()));
    case ir::TypeKind::Complex:
      return json::object{{"complex", ir::scalarKindName(t.scalarKind())}};
    case ir::TypeKind::Tuple: {
      json::array parts;
      for (const auto& c : t.components()) parts.push_back(typeJson(c));
      return json::object{{"tuple", std::move(parts)}};
    }
    case ir::TypeKind::Array:
      return json::object{{"array", typeJson(t.element())}, {"size", constantOf(t.size())}};
  }
  throw std::invalid_argument("unknown type kind");
}

json::array ints(const std::vector<int64_t>& v) { return json::array(v.begin(), v.end()); }

json::array constants(const std::vector<ir::ArithExpr>& v) {
  json::array a;
  for (const auto& e : v) a.emplace_back(constantOf(e));
  return a;
}

json::array strings(const std::vector<std::string>& v) {
  json::array a;
  for (const auto& s : v) a.emplace_back(s);
  return a;
}

// Appends `bytes` to the blobs; returns [offset, size].
json::array blob(std::string& blobs, std::string_view bytes) {
  json::array a{blobs.size(), bytes.size()};
  blobs.append(bytes);
  return a;
}

json::object kernelJson(const compiler::codegen::CompiledKernel& k, std::string& blobs) {
  if (!k.sizeVarNames.empty() || !k.sizeVars.empty())
    throw std::invalid_argument("size variables left");
  json::object o;
  o["name"] = k.name;
  o["target"] = k.target;
  o["precision"] = k.precision;
  o["uses_double"] = k.usesDouble;
  o["source"] = blob(blobs, k.source);
  json::object sizes;
  for (const auto& [n, v] : k.sizes) sizes[n] = v;
  o["sizes"] = std::move(sizes);
  json::array buffers;
  for (const auto& b : k.buffers) {
    json::object j;
    j["name"] = b.name;
    j["role"] = b.role;
    j["element"] = b.element ? typeJson(b.element) : json::value(nullptr);
    j["element_c"] = b.elementC;
    j["count"] = constantOf(b.count);
    j["element_bytes"] = b.elementBytes;
    j["data_file"] = b.dataFile;
    j["data"] = blob(blobs, std::string_view(reinterpret_cast<const char*>(b.data.data()),
                                             b.data.size()));
    j["type"] = b.type ? typeJson(b.type) : json::value(nullptr);
    if (b.layout) j["layout"] = json::object{{"dims", ints(b.layout->dims)},
                                             {"strides", ints(b.layout->strides)}};
    buffers.push_back(std::move(j));
  }
  o["buffers"] = std::move(buffers);
  json::array stages;
  for (const auto& s : k.stages) {
    stages.push_back(json::object{{"kernel", s.kernel},
                                  {"args", strings(s.args)},
                                  {"global", constants(s.global)},
                                  {"local", constants(s.local)},
                                  {"local_memory_bytes", s.localMemoryBytes},
                                  {"dynamic_local_bytes", s.dynamicLocalBytes},
                                  {"cluster_blocks", s.clusterBlocks},
                                  {"accesses", strings(s.accesses)},
                                  {"source", blob(blobs, s.source)}});
  }
  o["stages"] = std::move(stages);
  return o;
}

// ---- reading: every accessor throws (std::out_of_range, std::system_error,
// std::invalid_argument) on a document of the wrong shape; parsePlan turns that into nullptr.

int64_t intAt(const json::object& o, std::string_view key) { return o.at(key).as_int64(); }
std::string stringAt(const json::object& o, std::string_view key) {
  return std::string(o.at(key).as_string());
}

std::vector<int64_t> intsAt(const json::object& o, std::string_view key) {
  std::vector<int64_t> v;
  for (const auto& x : o.at(key).as_array()) v.push_back(x.as_int64());
  return v;
}

std::vector<std::string> stringsAt(const json::object& o, std::string_view key) {
  std::vector<std::string> v;
  for (const auto& x : o.at(key).as_array()) v.emplace_back(x.as_string());
  return v;
}

std::vector<ir::ArithExpr> constantsAt(const json::object& o, std::string_view key) {
  std::vector<ir::ArithExpr> v;
  for (const auto& x : o.at(key).as_array()) v.emplace_back(x.as_int64());
  return v;
}

ir::ScalarKind scalarKind(std::string_view name) {
  for (auto k : {ir::ScalarKind::Int, ir::ScalarKind::Float, ir::ScalarKind::Double})
    if (ir::scalarKindName(k) == name) return k;
  throw std::invalid_argument("scalar kind");
}

ir::Type typeFrom(const json::value& v) {
  if (v.is_null()) return {};
  if (v.is_string()) return ir::Type::scalar(scalarKind(v.as_string()));
  const auto& o = v.as_object();
  if (o.contains("complex")) return ir::Type::complex(scalarKind(o.at("complex").as_string()));
  if (o.contains("tuple")) {
    std::vector<ir::Type> parts;
    for (const auto& p : o.at("tuple").as_array()) parts.push_back(typeFrom(p));
    return ir::Type::tuple(std::move(parts));
  }
  return ir::Type::array(typeFrom(o.at("array")), ir::ArithExpr(intAt(o, "size")));
}

std::string_view blobAt(const json::object& o, std::string_view key, std::string_view blobs) {
  const auto& a = o.at(key).as_array();
  const auto offset = static_cast<size_t>(a.at(0).as_int64());
  const auto size = static_cast<size_t>(a.at(1).as_int64());
  if (offset > blobs.size() || size > blobs.size() - offset)
    throw std::invalid_argument("blob out of range");
  return blobs.substr(offset, size);
}

// `owner`, when given, keeps `blobs` alive: the tables alias them instead of copying.
compiler::codegen::CompiledKernel kernelFrom(const json::object& o, std::string_view blobs,
                                             const std::shared_ptr<const void>& owner) {
  compiler::codegen::CompiledKernel k;
  k.name = stringAt(o, "name");
  k.target = stringAt(o, "target");
  k.precision = stringAt(o, "precision");
  k.usesDouble = o.at("uses_double").as_bool();
  k.module.usesDouble = k.usesDouble;  // the kernel AST itself is not kept (the source is)
  k.source = std::string(blobAt(o, "source", blobs));
  for (const auto& [n, v] : o.at("sizes").as_object()) k.sizes[std::string(n)] = v.as_int64();
  for (const auto& bv : o.at("buffers").as_array()) {
    const auto& j = bv.as_object();
    compiler::codegen::BufferInfo b;
    b.name = stringAt(j, "name");
    b.role = stringAt(j, "role");
    b.element = typeFrom(j.at("element"));
    b.elementC = stringAt(j, "element_c");
    b.count = ir::ArithExpr(intAt(j, "count"));
    b.elementBytes = intAt(j, "element_bytes");
    b.dataFile = stringAt(j, "data_file");
    const std::string_view data = blobAt(j, "data", blobs);
    const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(data.data()),
                                              data.size());
    b.data = owner ? compiler::codegen::TableBytes(owner, bytes)
                   : compiler::codegen::TableBytes({bytes.begin(), bytes.end()});
    b.type = typeFrom(j.at("type"));
    if (const auto* l = j.if_contains("layout"))
      b.layout = compiler::codegen::BufferLayout{intsAt(l->as_object(), "dims"),
                                                 intsAt(l->as_object(), "strides")};
    k.buffers.push_back(std::move(b));
  }
  for (const auto& sv : o.at("stages").as_array()) {
    const auto& j = sv.as_object();
    compiler::codegen::StageInfo s;
    s.kernel = stringAt(j, "kernel");
    s.args = stringsAt(j, "args");
    s.global = constantsAt(j, "global");
    s.local = constantsAt(j, "local");
    s.localMemoryBytes = intAt(j, "local_memory_bytes");
    s.dynamicLocalBytes = intAt(j, "dynamic_local_bytes");
    s.clusterBlocks = intAt(j, "cluster_blocks");
    s.accesses = stringsAt(j, "accesses");
    s.source = std::string(blobAt(j, "source", blobs));
    k.stages.push_back(std::move(s));
  }
  return k;
}

// FNV-1a over the body's 8-byte words (little-endian) in four lanes, lane k taking the words
// 4j + k, the lanes then folded in order into one, then the last words and bytes one by one:
// the byte-wise FNV-1a of a 9 MB entry with tables (524287) took a third of a warm load's 31
// ms; a word at a time it is 8x fewer multiplications, and in four independent chains the
// processor overlaps them (one chain over the 32 MB of f64 999983's entry took 10 ms). Every
// byte still counts.
// FNV-1a of `bytes` in four lanes of words, folded into one.
uint64_t laneChecksum(std::string_view bytes) {
  constexpr uint64_t kBasis = 0xcbf29ce484222325ULL, kPrime = 0x100000001b3ULL;
  // One load a word (a loop of byte shifts here was not merged into one: 3 GB/s, the whole of
  // a mapped warm load of f64 999983), little-endian whatever the host.
  auto word = [&bytes](size_t at) {
    uint64_t w = 0;
    std::memcpy(&w, bytes.data() + at, sizeof w);
    if constexpr (std::endian::native == std::endian::big) w = __builtin_bswap64(w);
    return w;
  };
  uint64_t l0 = kBasis, l1 = kBasis, l2 = kBasis, l3 = kBasis;  // in registers, not an array
  size_t i = 0;
  for (; i + 32 <= bytes.size(); i += 32) {
    l0 = (l0 ^ word(i)) * kPrime;
    l1 = (l1 ^ word(i + 8)) * kPrime;
    l2 = (l2 ^ word(i + 16)) * kPrime;
    l3 = (l3 ^ word(i + 24)) * kPrime;
  }
  uint64_t h = kBasis;
  for (uint64_t lane : {l0, l1, l2, l3}) h = (h ^ lane) * kPrime;
  for (; i + 8 <= bytes.size(); i += 8) h = (h ^ word(i)) * kPrime;
  for (; i < bytes.size(); ++i) h = (h ^ static_cast<unsigned char>(bytes[i])) * kPrime;
  return h;
}

// The entry's checksum: laneChecksum of each chunk of kChecksumChunk bytes, folded in order.
// A warm load reads every byte of the entry once here, which on one core is bound by its memory
// bandwidth (f64 999983's 32 MB entry: 3.6 - 3.9 ms of the load's CPU on the developer machine,
// 6.6 ms of wall on the H200 in session 18): the chunks of a large entry are read on up to one
// thread a core (buildConcurrently). The value does not depend on the threads.
constexpr size_t kChecksumChunk = kPlanEntryChecksumChunk;

uint64_t bodyChecksum(std::string_view body) {
  constexpr uint64_t kBasis = 0xcbf29ce484222325ULL, kPrime = 0x100000001b3ULL;
  const size_t chunks = std::max<size_t>(1, (body.size() + kChecksumChunk - 1) / kChecksumChunk);
  auto chunk = [&body](size_t i) {
    return laneChecksum(body.substr(i * kChecksumChunk, kChecksumChunk));
  };
  const std::vector<uint64_t> sums =
      chunks == 1 ? std::vector<uint64_t>{chunk(0)} : buildConcurrently(chunks, chunk);
  uint64_t h = kBasis ^ body.size();
  for (uint64_t sum : sums) h = (h ^ sum) * kPrime;
  return h;
}

std::string header(uint64_t jsonBytes, uint64_t blobBytes, uint64_t checksum) {
  return fmt::format("{} {} {} {} {:016x}\n", kMagic, kFormatVersion, jsonBytes, blobBytes,
                     checksum);
}

// The process-wide counts of planThroughDiskCache.
struct ProcessStats {
  std::atomic<std::uint64_t> hits{0}, misses{0}, corrupt{0}, stores{0}, evicted{0};
};
ProcessStats& processStats() {
  static ProcessStats s;
  return s;
}

}  // namespace

std::uint64_t planEntryChecksum(std::string_view body) { return bodyChecksum(body); }

std::string serializePlan(const CompiledFft& plan) {
  std::string blobs;
  json::object o;
  o["identity"] = PlanCache::identity(plan.request);
  // The choice is the planner's heuristics, recomputed on loading (choosePlan is cheap and so
  // stays whole as PlanChoice grows); its file and kernel check that it is the same.
  o["choice"] = json::object{{"file", plan.choice.file}, {"kernel", plan.choice.kernel}};
  o["strategy"] = plan.strategy;
  o["fallback_reason"] = plan.fallbackReason;
  // The launch-ready stages follow from the compiled kernel (fillStages, on loading).
  o["compiled"] = kernelJson(plan.compiled, blobs);
  std::string body = json::serialize(o);
  const uint64_t jsonBytes = body.size();
  body += blobs;
  return header(jsonBytes, blobs.size(), bodyChecksum(body)) + body;
}

std::shared_ptr<CompiledFft> parsePlan(std::string_view bytes, const FftRequest& request) {
  return parsePlan(bytes, request, nullptr);
}

std::shared_ptr<CompiledFft> parsePlan(std::string_view bytes, const FftRequest& request,
                                       const std::shared_ptr<const void>& owner) {
  try {
    const size_t newline = bytes.find('\n');
    if (newline == std::string_view::npos || newline > 200) return nullptr;
    const std::string_view body = bytes.substr(newline + 1);
    // "MAGIC VERSION JSON_BYTES BLOB_BYTES CHECKSUM", compared with what a writer of this body
    // writes: a truncated, extended or altered entry, or another format version, fails here.
    const std::string line(bytes.substr(0, newline));
    char magic[32] = {};
    int version = 0;
    unsigned long long jsonBytes = 0, blobBytes = 0, sum = 0;
    if (std::sscanf(line.c_str(), "%31s %d %llu %llu %llx", magic, &version, &jsonBytes,
                    &blobBytes, &sum) != 5 ||
        jsonBytes > body.size() || jsonBytes + blobBytes != body.size() ||
        header(jsonBytes, blobBytes, bodyChecksum(body)) != line + "\n")
      return nullptr;
    json::error_code ec;
    json::value doc = json::parse(body.substr(0, jsonBytes), ec);
    if (ec) return nullptr;
    const auto& o = doc.as_object();
    if (stringAt(o, "identity") != PlanCache::identity(request)) return nullptr;
    const std::string_view blobs = body.substr(jsonBytes);
    auto p = std::make_shared<CompiledFft>();
    p->request = request;
    p->choice = choosePlan(request);
    const auto& choice = o.at("choice").as_object();
    if (stringAt(choice, "file") != p->choice.file || stringAt(choice, "kernel") != p->choice.kernel)
      return nullptr;
    p->strategy = stringAt(o, "strategy");
    p->fallbackReason = stringAt(o, "fallback_reason");
    p->compiled = kernelFrom(o.at("compiled").as_object(), blobs, owner);
    fillStages(*p);
    return p;
  } catch (const std::exception&) {  // a document of the wrong shape; choosePlan's UserError
    return nullptr;
  }
}

PlanCache::PlanCache(fs::path directory, std::uint64_t maxBytes)
    : directory_(std::move(directory)), maxBytes_(maxBytes) {}

std::optional<fs::path> PlanCache::defaultDirectory() {
  if (switchedOn("FFTC_NO_CACHE") || switchedOn("FFTC_NO_PLAN_CACHE")) return std::nullopt;
  if (const char* dir = env("FFTC_CACHE_DIR")) return fs::path(dir) / "plans";
  if (const char* xdg = env("XDG_CACHE_HOME")) return fs::path(xdg) / "fftc" / "plans";
  if (const char* home = env("HOME")) return fs::path(home) / ".cache" / "fftc" / "plans";
  return std::nullopt;
}

std::uint64_t PlanCache::maxBytesFromEnvironment() {
  if (const char* mb = env("FFTC_PLAN_CACHE_MAX_MB")) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(mb, &end, 10);
    if (end != mb && *end == '\0') return static_cast<std::uint64_t>(v) << 20;
  }
  return kDefaultMaxBytes;
}

std::unique_ptr<PlanCache> PlanCache::fromEnvironment() {
  auto dir = defaultDirectory();
  return dir ? std::make_unique<PlanCache>(*dir, maxBytesFromEnvironment()) : nullptr;
}

std::string PlanCache::identity(const FftRequest& request) {
  // The key of the request as the planner plans it (planFft's withLimits): a request that leaves
  // the local memory to the default names the same entry as the plan stored for it.
  return fmt::format("{}\nbuild {}\nlayout {}", withLimits(request, PlanLimits{}).key(),
                     planBuildHash(),
                     request.format ? compiler::clang_helpers::clangPluginIdentity() : "none");
}

fs::path PlanCache::entryPath(const FftRequest& request) const {
  return directory_ / fmt::format("{:016x}{}", Fnv1a64().add(identity(request)).value(), kSuffix);
}

std::shared_ptr<const CompiledFft> PlanCache::load(const FftRequest& request) {
  const fs::path path = entryPath(request);
  // Mapped, not read: the tables of the plan are views of the mapping (which they keep alive),
  // so a warm load neither copies nor clears the megabytes of a Bluestein plan's tables, and
  // the upload reads them from the page cache. Entries are renamed into place whole and never
  // rewritten, so the mapping cannot shrink under the plan.
  auto file = MappedFile::open(path);
  if (!file) {
    ++misses_;
    return nullptr;
  }
  auto plan = parsePlan(file->bytes(), request, file);
  std::error_code ignored;
  if (!plan) {
    ++corrupt_;
    fs::remove(path, ignored);
    return nullptr;
  }
  fs::last_write_time(path, fs::file_time_type::clock::now(), ignored);  // recently used
  ++hits_;
  return plan;
}

bool PlanCache::store(const CompiledFft& plan) {
  std::string entry;
  try {
    entry = serializePlan(plan);
  } catch (const std::invalid_argument&) {
    return false;
  }
  std::error_code ec;
  fs::create_directories(directory_, ec);
  if (ec) return false;
  // Unique per process and call, in the same directory: rename() is atomic, and concurrent
  // writers of one entry each publish a complete file (the same bytes).
  thread_local std::mt19937_64 random{std::random_device{}()};
  const fs::path final = entryPath(plan.request);
  const fs::path temp = directory_ / fmt::format(".{}.{}.{:x}.tmp", final.stem().string(),
                                                 ::getpid(), random());
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    out.write(entry.data(), static_cast<std::streamsize>(entry.size()));
    out.close();
    if (!out) {
      fs::remove(temp, ec);
      return false;
    }
  }
  fs::rename(temp, final, ec);
  if (ec) {
    std::error_code ignored;
    fs::remove(temp, ignored);
    return false;
  }
  ++stores_;
  evict();
  return true;
}

void PlanCache::evict() {
  struct Entry {
    fs::path path;
    fs::file_time_type time;
    std::uint64_t bytes;
  };
  std::vector<Entry> entries;
  std::uint64_t total = 0;
  const auto staleTemp = fs::file_time_type::clock::now() - std::chrono::hours(1);
  std::error_code ec;
  for (fs::directory_iterator it(directory_, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code e;
    const fs::path& path = it->path();
    const auto time = it->last_write_time(e);
    const auto bytes = it->file_size(e);
    if (e) continue;  // removed meanwhile by another process
    if (path.extension() == ".tmp") {
      if (time < staleTemp) fs::remove(path, e);
      continue;
    }
    if (path.extension() != kSuffix) continue;
    entries.push_back({path, time, bytes});
    total += bytes;
  }
  if (total <= maxBytes_) return;
  std::sort(entries.begin(), entries.end(),
            [](const Entry& a, const Entry& b) { return a.time < b.time; });
  for (const auto& e : entries) {
    if (total <= maxBytes_) break;
    std::error_code ignored;
    if (fs::remove(e.path, ignored)) ++evicted_;
    total -= e.bytes;
  }
}

PlanCache::Stats PlanCache::stats() const {
  return Stats{hits_.load(), misses_.load(), corrupt_.load(), stores_.load(), evicted_.load()};
}

std::shared_ptr<const CompiledFft> planThroughDiskCache(const FftRequest& request,
                                                        const PlanCompiler& compile) {
  using compiler::pipeline::PhaseTimer;
  // what the compiler's own phases leave of planning: heuristics, work sizes
  constexpr std::string_view kPlanner = "planner: heuristics, stages";
  auto cache = PlanCache::fromEnvironment();
  if (!cache) {
    PhaseTimer timer(kPlanner);
    return compile(request);
  }
  std::shared_ptr<const CompiledFft> plan;
  {
    PhaseTimer timer("plan cache: load");
    plan = cache->load(request);
  }
  if (!plan) {
    {
      PhaseTimer timer(kPlanner);
      plan = compile(request);
    }
    PhaseTimer timer("plan cache: store");
    cache->store(*plan);
  }
  const auto s = cache->stats();
  auto& total = processStats();
  total.hits += s.hits;
  total.misses += s.misses;
  total.corrupt += s.corrupt;
  total.stores += s.stores;
  total.evicted += s.evicted;
  return plan;
}

PlanCache::Stats diskPlanCacheStats() {
  const auto& s = processStats();
  return PlanCache::Stats{s.hits.load(), s.misses.load(), s.corrupt.load(), s.stores.load(),
                          s.evicted.load()};
}

}  // namespace fftc::fftlib
