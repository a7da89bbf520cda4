// NAME.hpp (CLI.md): what a host program needs to run a compiled kernel with fftc's runtime
// of its target only (OpenCL: fftc_opencl; CUDA: fftc_cuda): the source, the buffers' sizes,
// the stages' work sizes, a build function and a launch function.
#include <fmt/format.h>

#include <cstring>

#include "compiler/codegen/codegen.h"

namespace fftc::compiler::codegen {

namespace {

std::string sizeParams(const CompiledKernel& k, bool maybeUnused = false) {
  std::string s;
  for (const auto& n : k.sizeVarNames)
    s += (s.empty() ? "" : ", ") + std::string(maybeUnused ? "[[maybe_unused]] int " : "int ") + n;
  return s;
}

// A size expression as C++ (size variables are int parameters of the same names).
std::string cxx(const ir::ArithExpr& e) { return "static_cast<std::size_t>(" + e.toC() + ")"; }

// A table's bytes as "\n      12, 0, 255," rows of 24. A 2.5 MB table is 9 MB of text: it is
// written in place into storage reserved once (building a temporary string per byte made this
// 80% of a warm `fftc fft` of 65521).
void appendBytes(std::string& out, const std::vector<uint8_t>& data) {
  size_t at = out.size();
  out.resize(at + data.size() * 5 + (data.size() / 24 + 1) * 7);  // "255, " + row breaks
  char* p = out.data() + at;
  for (size_t i = 0; i < data.size(); ++i) {
    if (i % 24 == 0) {
      std::memcpy(p, "\n      ", 7);
      p += 7;
    } else {
      *p++ = ' ';
    }
    const unsigned v = data[i];
    if (v >= 100) *p++ = static_cast<char>('0' + v / 100);
    if (v >= 10) *p++ = static_cast<char>('0' + v / 10 % 10);
    *p++ = static_cast<char>('0' + v % 10);
    *p++ = ',';
  }
  out.resize(static_cast<size_t>(p - out.data()));
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

// The OpenCL build and launch functions.
std::string openclLaunch(const CompiledKernel& k, const std::string& sp) {
  std::string out;
  std::vector<std::string> bufParams;
  for (const auto& b : k.buffers)
    bufParams.push_back("const fftc::backends::opencl::Buffer& " + b.name);
  std::string params = joined(bufParams);
  if (!sp.empty()) params += ", " + sp;
  out += "\n// Builds the program (through the context's binary cache).\n"
         "inline fftc::backends::opencl::Program build(const fftc::backends::opencl::Context& "
         "context) {\n  return context.build(kSource);\n}\n\n";
  out += "// Enqueues every stage in order; buffers as the manifest lists them (temps and tables\n"
         "// allocated by the caller with the counts above, tables filled with *Data()).\n";
  out += "inline std::vector<fftc::backends::opencl::Event> launch(\n    const "
         "fftc::backends::opencl::Context& context, const fftc::backends::opencl::Program& "
         "program,\n    " +
         params + ") {\n";
  out += "  namespace cl = fftc::backends::opencl;\n  std::vector<cl::Event> events;\n";
  for (const auto& s : k.stages) {
    out += "  {\n    cl::Kernel kernel(program, \"" + s.kernel + "\");\n";
    out += "    kernel.setArgs(" + joined(s.args) + ");\n";
    std::vector<std::string> g, l;
    for (const auto& e : s.global) g.push_back(cxx(e));
    for (const auto& e : s.local) l.push_back(cxx(e));
    out += "    std::optional<cl::NDRange> local;\n";
    if (!l.empty()) out += "    local = cl::NDRange(" + joined(l) + ");\n";
    out += "    events.push_back(cl::launch(context, kernel, cl::NDRange(" + joined(g) +
           "), local));\n  }\n";
  }
  return out + "  return events;\n}\n";
}

// The CUDA build and launch functions: NVRTC for the context's device, one cu::Launch per
// stage with the grid and block of backends/cuda/work_sizes.h.
std::string cudaLaunch(const CompiledKernel& k, const std::string& sp) {
  std::string out;
  std::vector<std::string> bufParams;
  for (const auto& b : k.buffers)
    bufParams.push_back("const fftc::backends::cuda::DeviceBuffer& " + b.name);
  std::string params = joined(bufParams);
  if (!sp.empty()) params += ", " + sp;
  out += "\n// Compiles the source with NVRTC for the context's device (through the compiler's "
         "CUBIN\n// cache) and loads it.\n"
         "inline fftc::backends::cuda::Module build(const fftc::backends::cuda::Context& "
         "context,\n    fftc::backends::cuda::NvrtcCompiler& compiler) {\n"
         "  fftc::backends::cuda::CompileRequest request;\n"
         "  request.source = std::string(kSource);\n"
         "  request.programName = \"" + k.name + ".cu\";\n"
         "  return context.build(compiler, std::move(request));\n}\n\n";
  out += "// The launches of every stage in order; buffers as the manifest lists them (temps and\n"
         "// tables allocated by the caller with the counts above, tables filled with *Data()).\n"
         "// fftc::backends::cuda::enqueue runs them, timeRuns times them.\n";
  out += "inline std::vector<fftc::backends::cuda::Launch> launches(\n    const "
         "fftc::backends::cuda::Module& module,\n    " +
         params + ") {\n";
  // Locals are prefixed: buffers and sizes may have any name.
  out += "  namespace fftc_cu = fftc::backends::cuda;\n"
         "  std::vector<fftc_cu::Launch> fftc_launches;\n";
  for (const auto& s : k.stages) {
    out += "  {\n    fftc_cu::Launch fftc_launch;\n    fftc_launch.kernel = module.kernel(\"" +
           s.kernel + "\");\n";
    std::string adds;
    for (const auto& a : s.args) adds += ".add(" + a + ")";
    if (!adds.empty()) out += "    fftc_launch.args" + adds + ";\n";
    std::vector<std::string> g, l;
    for (const auto& e : s.global) g.push_back(cxx(e));
    for (const auto& e : s.local) l.push_back(cxx(e));
    out += "    const std::vector<std::size_t> fftc_global{" + joined(g) + "};\n";
    out += "    const std::vector<std::size_t> fftc_local{" + joined(l) + "};\n";
    out += "    fftc_launch.config =\n        fftc_cu::launchConfigFromWorkSizes(fftc_global, "
           "fftc_local, \"" + s.kernel + "\", " + std::to_string(s.dynamicLocalBytes) + ");\n";
    out += "    fftc_launches.push_back(std::move(fftc_launch));\n  }\n";
  }
  out += "  return fftc_launches;\n}\n\n";
  std::vector<std::string> names;
  for (const auto& b : k.buffers) names.push_back(b.name);
  names.insert(names.end(), k.sizeVarNames.begin(), k.sizeVarNames.end());
  out += "// Enqueues every stage on the default stream (asynchronous: Context::synchronize waits).\n"
         "inline void launch(const fftc::backends::cuda::Module& module,\n    " +
         params + ") {\n  fftc::backends::cuda::enqueue(launches(module, " + joined(names) +
         "));\n}\n";
  return out;
}

}  // namespace

std::string emitHeader(const CompiledKernel& k) {
  const std::string sp = sizeParams(k);
  std::string out;
  size_t tableBytes = 0;
  for (const auto& b : k.buffers) tableBytes += b.data.size();
  out.reserve(k.source.size() + tableBytes * 5 + 65536);
  const bool cuda = k.target == "cuda";
  out += fmt::format(
      "// Generated by fftc: kernel `{0}` ({1}, {2}). Include it in a host program and link\n"
      "// fftc's {3} runtime ({4}); NAME.json describes the same stages.\n"
      "#pragma once\n\n#include <cstddef>\n#include <cstdint>\n#include <optional>\n"
      "#include <string>\n#include <string_view>\n#include <utility>\n#include <vector>\n\n"
      "{5}\n"
      "namespace fftc_generated::{0} {{\n\n",
      k.name, k.target, k.precision, cuda ? "CUDA" : "OpenCL", cuda ? "fftc_cuda" : "fftc_opencl",
      cuda ? "#include \"backends/cuda/context.h\"\n#include \"backends/cuda/timing.h\"\n"
             "#include \"backends/cuda/work_sizes.h\"\n"
           : "#include \"backends/opencl/runtime.h\"\n");
  out += "inline constexpr std::string_view kSource = R\"FFTC_SOURCE(";
  out += k.source;
  out += ")FFTC_SOURCE\";\n\n";
  out += "inline constexpr int kStageCount = " + std::to_string(k.stages.size()) + ";\n\n";
  // Buffer sizes.
  out += "// Element counts and bytes of each buffer.\n";
  for (const auto& b : k.buffers) {
    out += fmt::format("inline std::size_t {}Count({}) {{ return {}; }}\n", b.name,
                       sizeParams(k, true),
                       cxx(b.count));
    out += fmt::format("inline constexpr std::size_t k{}ElementBytes = {};  // {} ({})\n", b.name,
                       b.elementBytes, b.elementC, b.role);
  }
  // Tables.
  for (const auto& b : k.buffers) {
    if (b.role != "table") continue;
    out += fmt::format("\ninline const std::vector<std::uint8_t>& {}Data() {{\n"
                       "  static const std::vector<std::uint8_t> data = {{",
                       b.name);
    appendBytes(out, b.data);
    out += "};\n  return data;\n}\n";
  }
  out += cuda ? cudaLaunch(k, sp) : openclLaunch(k, sp);
  out += "\n}  // namespace fftc_generated::" + k.name + "\n";
  return out;
}

}  // namespace fftc::compiler::codegen
