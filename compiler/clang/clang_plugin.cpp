// The clang helpers with LLVM/Clang 14, built as the plugin libfftc_clang_plugin.so (see
// clang_plugin_api.h): clang-format lays out kernels, and a clang CompilerInstance parses each
// userfun body in a small translation unit of its own.
#include "compiler/clang/clang_plugin_api.h"
#include "compiler/clang/clang_plugin_internal.h"

#include <dlfcn.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/Basic/SourceManager.h>
#include <clang/Basic/Version.h>
#include <clang/Driver/Driver.h>
#include <clang/Format/Format.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/FrontendActions.h>
#include <clang/Lex/PreprocessorOptions.h>
#include <clang/Tooling/Core/Replacement.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>

namespace fftc::compiler::clang_helpers {


// ---------------------------------------------------------------------------------------------
// Kernel layout (clang-format)

namespace {

// The house .clang-format (repository root), written out so that generated kernels look the
// same wherever fftc runs.
clang::format::FormatStyle houseStyle() {
  clang::format::FormatStyle style =
      clang::format::getGoogleStyle(clang::format::FormatStyle::LK_Cpp);
  style.ColumnLimit = 100;
  style.IndentWidth = 2;
  style.DerivePointerAlignment = false;
  style.PointerAlignment = clang::format::FormatStyle::PAS_Left;
  style.AllowShortFunctionsOnASingleLine = clang::format::FormatStyle::SFS_Inline;
  style.AllowShortIfStatementsOnASingleLine = clang::format::FormatStyle::SIS_WithoutElse;
  style.IncludeStyle.IncludeBlocks = clang::tooling::IncludeStyle::IBS_Preserve;
  style.SortIncludes = clang::format::FormatStyle::SI_Never;
  return style;
}

}  // namespace

std::string formatSource(std::string_view source, Dialect dialect) {
  const std::string code(source);
  // Both dialects are C with qualifiers that clang-format reads as identifiers; the file name
  // only serves messages.
  const char* fileName = dialect == Dialect::OpenCL ? "kernel.cl" : "kernel.cu";
  const clang::format::FormatStyle style = houseStyle();
  const std::vector<clang::tooling::Range> ranges{
      clang::tooling::Range(0, static_cast<unsigned>(code.size()))};
  clang::format::FormattingAttemptStatus status;
  const clang::tooling::Replacements replacements =
      clang::format::reformat(style, code, ranges, fileName, &status);
  llvm::Expected<std::string> formatted = clang::tooling::applyAllReplacements(code, replacements);
  if (!formatted) {
    llvm::consumeError(formatted.takeError());
    return code;
  }
  return std::move(*formatted);
}

// ---------------------------------------------------------------------------------------------
// Userfun checks

namespace {

constexpr const char* kMainFileOpenCL = "fftc_userfun.cl";
constexpr const char* kMainFileCuda = "fftc_userfun.cu.cpp";

// Clang's resource directory holds opencl-c-base.h (float2, uint, ...). It sits next to the
// libclang-cpp that is loaded; the configured LLVM 14 path is the fallback. Empty if neither
// has the header: the checker then declares the OpenCL types itself.
std::string findResourceDir() {
  std::vector<std::string> candidates;
  Dl_info info{};
  // The address of any function of libclang-cpp names the library's file.
  if (dladdr(reinterpret_cast<void*>(&clang::format::getLLVMStyle), &info) != 0 &&
      info.dli_fname != nullptr) {
    llvm::SmallString<256> real;
    if (!llvm::sys::fs::real_path(info.dli_fname, real)) {
      candidates.push_back(clang::driver::Driver::GetResourcesPath(real.str().str(), ""));
    }
  }
  candidates.push_back(std::string("/usr/lib/llvm-14/lib/clang/") + CLANG_VERSION_STRING);
  for (const std::string& dir : candidates) {
    llvm::SmallString<256> header(dir);
    llvm::sys::path::append(header, "include", "opencl-c-base.h");
    if (llvm::sys::fs::exists(header)) return dir;
  }
  return {};
}

const std::string& resourceDir() {
  static const std::string dir = findResourceDir();
  return dir;
}

// Used only when no opencl-c-base.h is found: the OpenCL C scalar and vector type names that
// userfuns use. The built-in functions come from -fdeclare-opencl-builtins either way.
std::string openclTypesFallback() {
  std::string text =
      "typedef unsigned char uchar; typedef unsigned short ushort; typedef unsigned int uint;\n"
      "typedef unsigned long ulong; typedef __SIZE_TYPE__ size_t;\n";
  for (const char* scalar :
       {"char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "float", "double"}) {
    for (int n : {2, 3, 4, 8, 16}) {
      text += "typedef " + std::string(scalar) + " " + scalar + std::to_string(n) +
              " __attribute__((ext_vector_type(" + std::to_string(n) + ")));\n";
    }
  }
  return text;
}

// What NVRTC provides to a CUDA kernel and userfuns use, reduced to declarations that C++ can
// parse: qualifiers as empty macros, vector types as plain structs, math functions.
std::string cudaShim() {
  std::string text = R"(#define __device__
#define __host__
#define __global__
#define __forceinline__ inline
#define __noinline__
#define __shared__
#define __constant__
#define __restrict__ __restrict
struct float2 { float x, y; };
struct float4 { float x, y, z, w; };
struct double2 { double x, y; };
struct double4 { double x, y, z, w; };
struct int2 { int x, y; };
struct int4 { int x, y, z, w; };
inline float2 make_float2(float x, float y) { return float2{x, y}; }
inline float4 make_float4(float x, float y, float z, float w) { return float4{x, y, z, w}; }
inline double2 make_double2(double x, double y) { return double2{x, y}; }
inline double4 make_double4(double x, double y, double z, double w) { return double4{x, y, z, w}; }
inline int2 make_int2(int x, int y) { return int2{x, y}; }
inline int4 make_int4(int x, int y, int z, int w) { return int4{x, y, z, w}; }
int min(int, int); unsigned min(unsigned, unsigned); float min(float, float);
double min(double, double); int max(int, int); unsigned max(unsigned, unsigned);
float max(float, float); double max(double, double); int abs(int);
void sincos(double, double*, double*); void sincosf(float, float*, float*);
void sincospi(double, double*, double*); void sincospif(float, float*, float*);
float __fdividef(float, float); float __fmaf_rn(float, float, float); double __fma_rn(double, double, double);
)";
  for (const char* f :
       {"sin",  "cos",   "tan",   "asin",  "acos",  "atan",  "sinh",  "cosh",  "tanh",  "exp",
        "exp2", "exp10", "expm1", "log",   "log2",  "log10", "log1p", "sqrt",  "rsqrt", "cbrt",
        "fabs", "floor", "ceil",  "trunc", "round", "rint",  "sinpi", "cospi", "erf",   "erfc"}) {
    const std::string name(f);
    text += "double " + name + "(double); float " + name + "f(float); float " + name +
            "(float); float __" + name + "f(float);\n";
  }
  for (const char* f :
       {"pow", "fmin", "fmax", "fmod", "atan2", "hypot", "copysign", "fdim", "remainder"}) {
    const std::string name(f);
    text += "double " + name + "(double, double); float " + name + "f(float, float); float " +
            name + "(float, float); float __" + name + "f(float, float);\n";
  }
  for (const char* op : {"add", "sub", "mul", "div"}) {
    text += std::string("float __f") + op + "_rn(float, float); double __d" + op +
            "_rn(double, double);\n";
  }
  text +=
      "double fma(double, double, double); float fmaf(float, float, float);\n"
      "float fma(float, float, float);\n";
  return text;
}

std::vector<std::string> clangArgs(Dialect dialect) {
  // -w: warnings are not reported, so clang need not compute them.
  // clang-format off
  std::vector<std::string> args{"-fsyntax-only", "-w", "-ferror-limit", "20"};
  if (dialect == Dialect::Cuda) {
    args.insert(args.end(), {"-triple", "x86_64-unknown-linux-gnu",
                             "-std=c++17", "-x", "c++", kMainFileCuda});
    return args;
  }
  // spir64 supports cl_khr_fp64, so double and double2 are accepted; the built-in functions
  // come from clang's tables (-fdeclare-opencl-builtins), not the 18000 lines of opencl-c.h.
  args.insert(args.end(), {"-triple", "spir64-unknown-unknown",
                           "-x", "cl", "-cl-std=CL1.2", "-fdeclare-opencl-builtins"});
  if (!resourceDir().empty()) {
    args.insert(args.end(), {"-finclude-default-header", "-resource-dir", resourceDir()});
  }
  // clang-format on
  args.emplace_back(kMainFileOpenCL);
  return args;
}

// Collects the errors of one parse and maps them to positions in the body.
class BodyDiagnosticCollector : public clang::DiagnosticConsumer {
 public:
  explicit BodyDiagnosticCollector(const Layout& layout) : layout_(layout) {}

  void HandleDiagnostic(clang::DiagnosticsEngine::Level level,
                        const clang::Diagnostic& info) override {
    DiagnosticConsumer::HandleDiagnostic(level, info);
    if (level < clang::DiagnosticsEngine::Error) return;
    llvm::SmallString<256> message;
    info.FormatDiagnostic(message);
    diagnostics_.push_back(locate(info, message.str().str()));
  }

  std::vector<BodyDiagnostic> take() {
    std::stable_sort(diagnostics_.begin(), diagnostics_.end(),
                     [](const BodyDiagnostic& a, const BodyDiagnostic& b) {
                       return std::pair(a.line, a.col) < std::pair(b.line, b.col);
                     });
    return std::move(diagnostics_);
  }

 private:
  BodyDiagnostic locate(const clang::Diagnostic& info, std::string message) const {
    if (!info.getLocation().isValid() || !info.hasSourceManager()) {
      return {0, 0, std::move(message)};
    }
    return locateInBody(layout_, info.getSourceManager(), info.getLocation(), std::move(message));
  }

  const Layout& layout_;
  std::vector<BodyDiagnostic> diagnostics_;
};

}  // namespace

Layout buildTranslationUnit(std::string_view prelude, std::string_view signature,
                            std::string_view body, Dialect dialect) {
  Layout layout;
  if (dialect == Dialect::Cuda) layout.text = cudaShim();
  if (dialect == Dialect::OpenCL && resourceDir().empty()) layout.text = openclTypesFallback();
  layout.preludeBegin = layout.text.size();
  layout.text += prelude;
  layout.text += '\n';
  layout.signatureBegin = layout.text.size();
  layout.text += signature;
  // The body starts a line of its own so that its columns are the TU's columns.
  layout.text += " {\n";
  layout.bodyBegin = layout.text.size();
  layout.text += body;
  const size_t lastNonBlank = body.find_last_not_of(" \t\r\n\f\v");
  layout.bodyEnd =
      layout.bodyBegin + (lastNonBlank == std::string_view::npos ? 0 : lastNonBlank + 1);
  layout.text += "\n}\n";
  return layout;
}

// 1-based line and byte column of `offset` within `text`.
static std::pair<int, int> lineAndColumn(std::string_view text, size_t offset) {
  int line = 1;
  size_t lineStart = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      lineStart = i + 1;
    }
  }
  return {line, static_cast<int>(offset - lineStart) + 1};
}

BodyDiagnostic locateInBody(const Layout& layout, const clang::SourceManager& sm,
                            clang::SourceLocation loc, std::string message) {
  if (!loc.isValid()) return {0, 0, std::move(message)};
  // Through macros to where the text is written; file offsets, not presumed lines, so that a
  // #line in the body cannot move the position.
  const auto [file, offset] = sm.getDecomposedLoc(sm.getFileLoc(loc));
  if (file != sm.getMainFileID()) {
    return {0, 0, "in a built-in header: " + message};
  }
  if (offset < layout.preludeBegin) return {0, 0, "in fftc's built-in declarations: " + message};
  if (offset < layout.signatureBegin) return {0, 0, "in the prelude: " + message};
  if (offset < layout.bodyBegin) return {0, 0, "in the signature: " + message};
  // Past the body (an unbalanced brace, a missing '}' at the end): just after its last
  // non-blank character.
  const size_t inBody = std::min<size_t>(offset, layout.bodyEnd) - layout.bodyBegin;
  const std::string_view body =
      std::string_view(layout.text).substr(layout.bodyBegin, layout.bodyEnd - layout.bodyBegin);
  const auto [line, col] = lineAndColumn(body, inBody);
  return {line, col, std::move(message)};
}

std::vector<BodyDiagnostic> parseWithClang(const Layout& layout, Dialect dialect,
                                           clang::FrontendAction& action, bool* ok) {
  if (ok) *ok = false;
  const std::vector<std::string> args = clangArgs(dialect);
  std::vector<const char*> argv;
  argv.reserve(args.size());
  for (const std::string& arg : args) argv.push_back(arg.c_str());

  // Problems with the arguments themselves are fftc's, not the user's: then nothing is checked.
  auto argDiagOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::IgnoringDiagConsumer ignoreArgs;
  clang::DiagnosticsEngine argDiags(llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
                                    argDiagOptions, &ignoreArgs,
                                    /*ShouldOwnClient=*/false);
  auto invocation = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*invocation, argv, argDiags) ||
      argDiags.hasErrorOccurred()) {
    return {};
  }
  // Without this clang prints "N errors generated." on stderr.
  invocation->getDiagnosticOpts().ShowCarets = false;
  invocation->getFrontendOpts().DisableFree = false;
  const char* mainFile = dialect == Dialect::OpenCL ? kMainFileOpenCL : kMainFileCuda;
  // Owned and freed by clang (RetainRemappedFileBuffers is false).
  invocation->getPreprocessorOpts().addRemappedFile(
      mainFile, llvm::MemoryBuffer::getMemBufferCopy(layout.text, mainFile).release());

  BodyDiagnosticCollector collector(layout);
  clang::CompilerInstance compiler;
  compiler.setInvocation(std::move(invocation));
  compiler.createDiagnostics(&collector, /*ShouldOwnClient=*/false);
  compiler.ExecuteAction(action);
  if (ok) *ok = true;
  return collector.take();
}

std::vector<BodyDiagnostic> checkUserFunBody(std::string_view prelude, std::string_view signature,
                                             std::string_view body, Dialect dialect) {
  const Layout layout = buildTranslationUnit(prelude, signature, body, dialect);
  clang::SyntaxOnlyAction action;
  return parseWithClang(layout, dialect, action);
}

}  // namespace fftc::compiler::clang_helpers

extern "C" __attribute__((visibility("default"))) const fftc::compiler::clang_helpers::PluginApi*
fftc_clang_plugin_api() {
  namespace ch = fftc::compiler::clang_helpers;
  static const ch::PluginApi api{ch::kPluginApiVersion, &ch::formatSource, &ch::checkUserFunBody,
                                 &ch::lowerUserFunBodyImpl};
  return &api;
}
