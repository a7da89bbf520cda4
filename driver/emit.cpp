// Writing a command's output files all or nothing (emit.h).
#include "driver/emit.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <optional>

#include "backends/common/device_error.h"
#ifdef FFTC_HAVE_CUDA
#include "compiler/exec/cuda_exec.h"
#endif

namespace fftc::driver {
namespace {

namespace fs = std::filesystem;

// Fault injection for tests/cli (the all-or-nothing test), read here and nowhere else:
// FFTC_TEST_FAIL_WRITE=K fails the K-th file of a commit (1-based) after half of its bytes are
// written, as a full disk would; FFTC_TEST_KILL_WRITE=K kills the process (SIGKILL) at that
// point, as a user's kill -9 would. A real full disk or kill cannot be arranged cheaply and
// reliably in a test; this reaches the same code paths (a short write, a death mid-write).
long injected(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? std::strtol(v, nullptr, 10) : 0;
}

// Writes `bytes` to a new file `path`; false with errno's reason in `why` when it cannot.
bool writeNew(const fs::path& path, std::string_view bytes, long index, std::string& why) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    why = std::strerror(errno);
    return false;
  }
  size_t limit = bytes.size();
  const bool fail = injected("FFTC_TEST_FAIL_WRITE") == index;
  const bool kill = injected("FFTC_TEST_KILL_WRITE") == index;
  if (fail || kill) limit = bytes.size() / 2;
  size_t done = 0;
  while (done < limit) {
    const ssize_t n = ::write(fd, bytes.data() + done, limit - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) break;
    done += static_cast<size_t>(n);
  }
  if (kill) ::raise(SIGKILL);
  if (fail && done == limit) errno = ENOSPC;
  // (No fsync: the guarantee is against failures and kills of fftc, not against a power cut,
  // and an fsync per kernel file would slow every compile.)
  const bool ok = ::close(fd) == 0 && done == bytes.size();
  if (!ok) why = std::strerror(errno != 0 ? errno : EIO);
  return ok;
}

// The architecture of the PTX in CUDA headers: a virtual one (compute_XY) that the driver compiles
// for any device at least as new, so one header serves every GPU; 7.5 (Turing) is the oldest
// that current NVRTC (CUDA 13) still targets. A kernel of thread-block clusters (mapCluster)
// needs 9.0.
constexpr const char* kHeaderPtxArch = "compute_75";
constexpr const char* kHeaderClusterPtxArch = "compute_90";

// The PTX a CUDA header embeds, or nullopt with `why` when this fftc cannot compile it (built
// without the CUDA backend, NVRTC not loadable).
std::optional<compiler::codegen::HeaderPtx> headerPtx(const compiler::codegen::CompiledKernel& k,
                                                      std::string& why) {
#ifdef FFTC_HAVE_CUDA
  try {
    const bool clusters = std::any_of(k.stages.begin(), k.stages.end(),
                                      [](const auto& s) { return s.clusterBlocks > 1; });
    const char* arch = clusters ? kHeaderClusterPtxArch : kHeaderPtxArch;
    backends::cuda::CompiledProgram p = compiler::exec::compileCuda(k, arch);
    while (!p.binary.empty() && p.binary.back() == '\0') p.binary.pop_back();
    return compiler::codegen::HeaderPtx{arch, std::move(p.binary)};
  } catch (const backends::DeviceError& e) {
    why = e.what();
  }
#else
  (void)k;
  why = "this fftc was built without the CUDA backend (NVRTC)";
#endif
  return std::nullopt;
}

}  // namespace

void prepareOutputDir(const fs::path& dir) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec)
    throw backends::UserError(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  if (!fs::is_directory(dir, ec))
    throw backends::UserError(fmt::format("-o {}: not a directory", dir.string()));
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    throw backends::UserError(fmt::format("-o {}: {}", dir.string(), std::strerror(errno)));
}

void prepareOutputFile(const fs::path& path, const char* option) {
  const fs::path dir = path.has_parent_path() ? path.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(dir, ec);
  auto fail = [&](const std::string& why) {
    throw backends::UserError(fmt::format("{} {}: {}", option, path.string(), why));
  };
  if (ec) fail(fmt::format("cannot create {}: {}", dir.string(), ec.message()));
  if (fs::is_directory(path, ec)) fail("is a directory");
  const bool exists = fs::exists(path, ec);
  if (::access(exists ? path.c_str() : dir.c_str(), W_OK) != 0) fail(std::strerror(errno));
}

void OutputSet::add(const std::string& name, std::string bytes) {
  for (auto& [n, b] : files_)
    if (n == name) {
      b = std::move(bytes);
      return;
    }
  files_.emplace_back(name, std::move(bytes));
}

bool OutputSet::addKernel(const compiler::codegen::CompiledKernel& k,
                          const std::set<std::string>& emit, bool cuda) {
  if (emit.count("source")) add(k.name + (cuda ? ".cu" : ".cl"), k.source);
  if (emit.count("manifest")) {
    add(k.name + ".json", compiler::codegen::manifestText(k));
    for (const auto& b : k.buffers)
      if (!b.dataFile.empty())
        add(b.dataFile, std::string(reinterpret_cast<const char*>(b.data.data()), b.data.size()));
  }
  if (!emit.count("header")) return true;
  if (!cuda) {
    add(k.name + ".hpp", compiler::codegen::emitHeader(k));
    return true;
  }
  std::string why;
  if (auto ptx = headerPtx(k, why)) {
    add(k.name + ".hpp", compiler::codegen::emitHeader(k, &*ptx));
    return true;
  }
  fmt::print(stderr, "fftc: warning: no {}.hpp: the CUDA header carries PTX, and {}\n", k.name,
             why);
  return false;
}

void OutputSet::commit() {
  if (files_.empty()) return;
  prepareOutputDir(dir_);
  std::vector<fs::path> temps;
  auto removeTemps = [&] {
    std::error_code ignored;
    for (const auto& t : temps) fs::remove(t, ignored);
  };
  // First every file under a temporary name (in the target directory: a rename within one file
  // system is atomic), then the renames.
  for (size_t i = 0; i < files_.size(); ++i) {
    const auto& [name, bytes] = files_[i];
    const fs::path tmp = dir_ / fmt::format(".{}.fftc-tmp.{}", name, ::getpid());
    temps.push_back(tmp);
    std::string why;
    if (!writeNew(tmp, bytes, static_cast<long>(i + 1), why)) {
      removeTemps();
      throw backends::UserError(fmt::format("cannot write {}: {}; nothing in {} was changed",
                                            (dir_ / name).string(), why, dir_.string()));
    }
  }
  // A directory in the way would stop the renames midway: refuse before the first.
  for (const auto& [name, bytes] : files_) {
    std::error_code ec;
    if (fs::is_directory(dir_ / name, ec)) {
      removeTemps();
      throw backends::UserError(
          fmt::format("cannot write {}: a directory is in the way; nothing "
                      "in {} was changed",
                      (dir_ / name).string(), dir_.string()));
    }
  }
  for (size_t i = 0; i < files_.size(); ++i) {
    std::error_code ec;
    fs::rename(temps[i], dir_ / files_[i].first, ec);
    if (ec) {
      // (e.g. a directory of that name in the way) Those renamed already stay: they are
      // complete files of this set.
      removeTemps();
      throw backends::UserError(
          fmt::format("cannot write {}: {}", (dir_ / files_[i].first).string(), ec.message()));
    }
  }
}

}  // namespace fftc::driver
