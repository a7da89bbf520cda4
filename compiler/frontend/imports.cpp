// Import resolution: paths relative to the importing file, load-once, cycle detection, and the
// disk and in-memory readers.
#include "compiler/frontend/imports.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>

#include <fmt/format.h>

#include "compiler/frontend/parser.h"

namespace fftc::compiler::frontend {

namespace {

namespace fs = std::filesystem;


// `name` as seen from `importer`: relative to the importer's directory, lexically normalized.
std::string resolvePath(const std::string& importer, const std::string& name) {
  return (fs::path(importer).parent_path() / fs::path(name)).lexically_normal().generic_string();
}

class Resolver {
 public:
  explicit Resolver(const ElaborateOptions& options) : opts_(options) {}

  void run(ast::Module& root) {
    std::string key = identity(fs::path(root.fileName).lexically_normal().generic_string());
    loaded_.insert(key);
    stack_.push_back({key, root.fileName});
    root.decls = expand(std::move(root.decls), root.fileName);
    stack_.pop_back();
    root.importedFiles = std::move(files_);
  }

 private:
  struct Open {
    std::string key;   // identity (canonical path on disk)
    std::string name;  // as shown in messages
  };
  const ElaborateOptions& opts_;
  std::set<std::string> loaded_;
  std::vector<Open> stack_;  // the files being loaded: the root, then nested imports
  std::vector<std::string> files_;

  // Which imports name the same file: on disk the canonical path (so "./a.fdl", "lib/../a.fdl"
  // and a symlink are one file), in memory the normalized path.
  std::string identity(const std::string& path) const {
    if (opts_.importReader) return path;
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    if (ec) return path;
    fs::path canon = fs::weakly_canonical(abs, ec);
    return ec ? abs.lexically_normal().generic_string() : canon.generic_string();
  }

  std::optional<std::string> read(const std::string& path, std::string& reason) const {
    if (opts_.importReader) return opts_.importReader(path, reason);
    return readTextFile(path, reason);
  }

  std::vector<std::unique_ptr<ast::Decl>> expand(std::vector<std::unique_ptr<ast::Decl>> decls,
                                                 const std::string& file) {
    std::vector<std::unique_ptr<ast::Decl>> out;
    for (auto& d : decls) {
      if (d->kind != ast::DeclKind::Import) {
        out.push_back(std::move(d));
        continue;
      }
      std::string path = resolvePath(file, d->name);
      std::string key = identity(path);
      for (size_t i = 0; i < stack_.size(); ++i) {
        if (stack_[i].key != key) continue;
        std::string chain;
        for (size_t j = i; j < stack_.size(); ++j) chain += stack_[j].name + " -> ";
        chain += path;
        throw ir::CompileError(d->loc, fmt::format("import cycle: {}", chain));
      }
      if (loaded_.count(key)) continue;  // imported before: its defs are already in
      if (static_cast<int>(stack_.size()) > opts_.maxImportDepth) {
        throw ir::CompileError(d->loc, fmt::format("imports nested too deeply (more than {} "
                                                   "files deep)", opts_.maxImportDepth));
      }
      std::string reason = "unknown error";
      std::optional<std::string> text = read(path, reason);
      if (!text) {
        std::string where = path == d->name ? "" : fmt::format(" (looked for {})", path);
        throw ir::CompileError(d->loc, fmt::format("cannot read import \"{}\": {}{}", d->name,
                                                   reason, where));
      }
      loaded_.insert(key);
      files_.push_back(path);
      ast::Module m = parse(*text, path);
      stack_.push_back({key, path});
      std::vector<std::unique_ptr<ast::Decl>> inner = expand(std::move(m.decls), path);
      stack_.pop_back();
      for (auto& decl : inner) {
        if (decl->kind == ast::DeclKind::Kernel) continue;  // the importer's kernels only
        decl->imported = true;
        out.push_back(std::move(decl));
      }
    }
    return out;
  }
};

}  // namespace

void resolveImports(ast::Module& module, const ElaborateOptions& options) {
  Resolver(options).run(module);
}

ImportReader importFromMemory(std::map<std::string, std::string> files) {
  auto shared = std::make_shared<const std::map<std::string, std::string>>(std::move(files));
  return [shared](const std::string& path, std::string& reason) -> std::optional<std::string> {
    if (auto it = shared->find(path); it != shared->end()) return it->second;
    std::string names;
    for (const auto& [name, _] : *shared) names += (names.empty() ? "" : ", ") + name;
    reason = shared->empty() ? "no such file (there are no files to import from)"
                             : fmt::format("no such file (the files are: {})", names);
    return std::nullopt;
  };
}

ImportReader rejectImports(std::string reason) {
  return [reason = std::move(reason)](const std::string&, std::string& why)
             -> std::optional<std::string> {
    why = reason;
    return std::nullopt;
  };
}

std::optional<std::string> readTextFile(const std::string& path, std::string& reason) {
  // Only regular files (after symlinks): a FIFO or /dev/zero would block or never end.
  std::error_code ec;
  fs::file_status st = fs::status(path, ec);
  if (fs::is_directory(st)) {
    reason = "is a directory";
    return std::nullopt;
  }
  if (fs::exists(st) && !fs::is_regular_file(st)) {
    reason = "not a regular file";
    return std::nullopt;
  }
  errno = 0;
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) {
    reason = std::strerror(errno != 0 ? errno : ENOENT);
    return std::nullopt;
  }
  std::string text;
  char buf[1 << 14];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  int failed = std::ferror(f);
  int err = errno;
  std::fclose(f);
  if (failed) {
    reason = std::strerror(err != 0 ? err : EIO);
    return std::nullopt;
  }
  return text;
}

}  // namespace fftc::compiler::frontend
