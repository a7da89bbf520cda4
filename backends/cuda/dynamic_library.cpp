// dlopen with a list of candidates, and where the CUDA toolkit keeps its libraries.
#include "backends/cuda/dynamic_library.h"

#include <dlfcn.h>

#include <cstdlib>

namespace fftc::backends::cuda {

DynamicLibrary DynamicLibrary::open(const std::vector<std::string>& candidates) {
  DynamicLibrary library;
  for (const std::string& candidate : candidates) {
    // RTLD_LOCAL: the symbols are reached through dlsym only, never by the dynamic linker.
    if (void* handle = ::dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
      library.handle_ = handle;
      library.path_ = candidate;
      return library;
    }
    const char* reason = ::dlerror();
    if (library.error_.empty() && reason != nullptr) library.error_ = reason;
  }
  return library;
}

void* DynamicLibrary::symbol(const char* symbol) const noexcept {
  if (handle_ == nullptr) return nullptr;
  return ::dlsym(handle_, symbol);
}

std::vector<std::string> toolkitLibraryCandidates(const std::vector<std::string>& sonames) {
  // /usr/local/cuda/lib64 is often not on the loader path (no ldconfig entry, no
  // LD_LIBRARY_PATH), so the toolkit's own directories are tried by absolute path.
  std::vector<std::string> dirs;
  if (const char* home = std::getenv("CUDA_HOME"); home != nullptr && *home != '\0') {
    dirs.push_back(std::string(home) + "/lib64");
    dirs.push_back(std::string(home) + "/lib");
  }
  dirs.emplace_back("/usr/local/cuda/lib64");
  dirs.emplace_back("/usr/local/cuda/lib");
  std::vector<std::string> candidates;
  for (const std::string& soname : sonames) {
    candidates.push_back(soname);
    for (const std::string& dir : dirs) candidates.push_back(dir + "/" + soname);
  }
  return candidates;
}

}  // namespace fftc::backends::cuda
