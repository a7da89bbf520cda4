// Public entry points of the front end: parse + elaborate + type-check, -D values, fuzzing.
#include "compiler/frontend/frontend.h"


#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/elaborator.h"
#include "compiler/frontend/imports.h"
#include "compiler/frontend/parser.h"
#include "compiler/pipeline/phase_times.h"

namespace fftc::compiler::frontend {

const Kernel* Program::kernel(std::string_view name) const {
  for (const auto& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

Program compileSource(std::string_view text, std::string fileName, const ElaborateOptions& options) {
  ast::Module module;
  {
    pipeline::PhaseTimer timer("front end: parse, imports");
    module = parse(text, fileName);
    resolveImports(module, options);
  }
  pipeline::PhaseTimer timer("front end: elaboration");
  return elaborate(module, options);
}

std::string readSourceFile(const std::string& path) {
  std::string reason;
  std::optional<std::string> text = readTextFile(path, reason);
  if (!text)
    throw ir::CompileError(ir::SourceLoc{path, 0, 0},
                           "cannot open file '" + path + "': " + reason);
  return *text;
}

Program parseFile(const std::string& path, const ElaborateOptions& options) {
  return compileSource(readSourceFile(path), path, options);
}

std::optional<DefineValue> parseDefineValue(std::string_view text) {
  auto trim = [](std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
  };
  auto parseInt = [&](std::string_view s) -> std::optional<int64_t> {
    s = trim(s);
    bool negative = !s.empty() && s.front() == '-';
    if (negative) s.remove_prefix(1);
    if (s.empty()) return std::nullopt;
    int64_t v = 0;
    for (char c : s) {
      if (c < '0' || c > '9') return std::nullopt;
      if (__builtin_mul_overflow(v, int64_t{10}, &v) || __builtin_add_overflow(v, int64_t{c - '0'}, &v)) {
        return std::nullopt;
      }
    }
    return negative ? -v : v;
  };
  text = trim(text);
  bool bracketed = !text.empty() && text.front() == '[';
  if (bracketed) {
    if (text.back() != ']') return std::nullopt;
    text = trim(text.substr(1, text.size() - 2));
    if (text.empty()) return DefineValue{std::vector<int64_t>{}};
  }
  if (!bracketed && text.find(',') == std::string_view::npos) {
    auto v = parseInt(text);
    if (!v) return std::nullopt;
    return DefineValue{*v};
  }
  std::vector<int64_t> items;
  while (true) {
    size_t comma = text.find(',');
    auto v = parseInt(text.substr(0, comma));
    if (!v) return std::nullopt;
    items.push_back(*v);
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return DefineValue{std::move(items)};
}

int fuzzOneInput(const uint8_t* data, size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  ElaborateOptions options;
  // Small budgets: sanitizer builds have large stack frames and fuzzing wants fast runs.
  options.maxSteps = 200'000;
  options.maxPipeLength = 256;
  options.maxDepth = 150;
  options.maxIrDepth = 1000;
  // Imports resolve among these files only (no disk access): one to use, a transitive pair, a
  // cycle, a file with a kernel (left out) and one with a syntax error.
  static const std::map<std::string, std::string> kFuzzImports = {
      {"lib.fdl", "def twice(f) = f o f\ndef half(n) = n / 2\n"},
      {"a.fdl", "import \"b.fdl\"\ndef fromA = twice(map(neg))\n"},
      {"b.fdl", "import \"lib.fdl\"\ndef fromB = half(8)\n"},
      {"cycle.fdl", "import \"cycle2.fdl\"\ndef c1 = 1\n"},
      {"cycle2.fdl", "import \"cycle.fdl\"\ndef c2 = 2\n"},
      {"kernel.fdl", "def k1 = id\nkernel k(x: [float]N) = k1 <<: x\n"},
      {"bad.fdl", "def broken = (1 +\n"},
  };
  options.importReader = importFromMemory(kFuzzImports);
  try {
    compileSource(text, "fuzz.fdl", options);
    return 0;
  } catch (const ir::CompileError& err) {
    std::string shown = formatError(err, text);
    return shown.empty() ? 2 : 1;
  }
}

}  // namespace fftc::compiler::frontend
