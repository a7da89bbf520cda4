// The clang helpers of a build with LLVM/Clang: forwards to the plugin libfftc_clang_plugin.so,
// loaded on first use with RTLD_LOCAL | RTLD_DEEPBIND (clang_plugin_api.h says why). Without
// the plugin, fftc behaves like a build without LLVM and clangHelpersStatus() says why.
#include <dlfcn.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>
#include <mutex>

#include "compiler/clang/clang_plugin_api.h"
#include "compiler/pipeline/phase_times.h"

namespace fftc::compiler::clang_helpers {
namespace {

constexpr const char* kPluginName = "libfftc_clang_plugin.so";

struct Plugin {
  const PluginApi* api = nullptr;
  std::string status;
};

std::vector<std::filesystem::path> candidates() {
  std::vector<std::filesystem::path> out;
  // FFTC_CLANG_PLUGIN names the plugin to use, and only that one ("off": none).
  if (const char* env = std::getenv("FFTC_CLANG_PLUGIN"); env && *env) {
    if (std::string_view(env) != "off") out.emplace_back(env);
    return out;
  }
  // Only paths relative to the running binary: an installed fftc or libfftc.so never looks
  // into the tree it was built in (docs/install.md).
  std::error_code ec;
  auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    out.push_back(exe.parent_path() / kPluginName);
    out.push_back(exe.parent_path().parent_path() / kPluginName);  // tests/ in the build tree
#ifdef FFTC_PLUGIN_DIR_FROM_BINDIR
    out.push_back(exe.parent_path() / FFTC_PLUGIN_DIR_FROM_BINDIR / kPluginName);  // installed fftc
#endif
  }
  // Linked into libfftc.so, the plugin is found from the library's own directory.
  static const char anchor = 0;  // an address inside this module (fftc or libfftc.so)
  Dl_info info{};
  if (dladdr(&anchor, &info) && info.dli_fname) {
    std::filesystem::path module(info.dli_fname);
    if (module.is_absolute() && module != exe) {
      out.push_back(module.parent_path() / kPluginName);  // the build tree
#ifdef FFTC_PLUGIN_DIR_FROM_LIBDIR
      out.push_back(module.parent_path() / FFTC_PLUGIN_DIR_FROM_LIBDIR / kPluginName);
#endif
    }
  }
  return out;
}

Plugin load() {
  Plugin p;
  std::string tried;
  for (const auto& path : candidates()) {
    if (!std::filesystem::exists(path)) continue;
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_DEEPBIND);
    if (!handle) {
      tried += std::string(tried.empty() ? "" : "; ") + dlerror();
      continue;
    }
    auto entry = reinterpret_cast<const PluginApi* (*)()>(dlsym(handle, "fftc_clang_plugin_api"));
    const PluginApi* api = entry ? entry() : nullptr;
    if (!api || api->version != kPluginApiVersion) {
      tried += "; " + path.string() + ": not a compatible fftc clang plugin";
      continue;
    }
    p.api = api;
    p.status = "clang helpers loaded from " + path.string();
    return p;
  }
  p.status = "clang helpers unavailable: " +
             (!tried.empty() ? tried
              : std::getenv("FFTC_CLANG_PLUGIN") ? std::string("FFTC_CLANG_PLUGIN names no plugin")
                                                 : std::string(kPluginName) +
                                                       " not found next to fftc or in lib/fftc/");
  return p;
}

const Plugin& plugin() {
  static const Plugin p = [] {
    pipeline::PhaseTimer timer("clang plugin: load");
    return load();
  }();
  return p;
}

}  // namespace

bool clangHelpersAvailable() { return plugin().api != nullptr; }

std::string clangHelpersStatus() { return plugin().status; }

std::string clangPluginIdentity() {
  for (const auto& path : candidates()) {
    std::error_code ec;
    const auto size = std::filesystem::file_size(path, ec);
    if (ec) continue;
    const auto time = std::filesystem::last_write_time(path, ec);
    if (ec) continue;
    return path.string() + " " + std::to_string(size) + " " +
           std::to_string(time.time_since_epoch().count());
  }
  return "none";
}

std::string formatSource(std::string_view source, Dialect dialect) {
  const auto* api = plugin().api;
  pipeline::PhaseTimer timer("codegen: layout (clang-format)");
  return api ? api->formatSource(source, dialect) : std::string(source);
}

std::vector<BodyDiagnostic> checkUserFunBody(std::string_view prelude, std::string_view signature,
                                             std::string_view body, Dialect dialect) {
  const auto* api = plugin().api;
  pipeline::PhaseTimer timer("codegen: userfun checks (clang)");
  return api ? api->checkUserFunBody(prelude, signature, body, dialect)
             : std::vector<BodyDiagnostic>{};
}

CProgram lowerUserFunBody(std::string_view prelude, std::string_view signature,
                          std::string_view body, Dialect dialect) {
  const auto* api = plugin().api;
  pipeline::PhaseTimer timer("interpreter: userfun bodies (clang)");
  if (api) return api->lowerUserFunBody(prelude, signature, body, dialect);
  CProgram none;
  none.error = "the interpreter runs userfun bodies through clang, and " + plugin().status;
  return none;
}

}  // namespace fftc::compiler::clang_helpers
