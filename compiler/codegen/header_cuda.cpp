// The Kernel class of a CUDA NAME.hpp (header_parts.h): the PTX module, tables, temporaries, run,
// through the CUDA driver API only.
#include <fmt/format.h>

#include "compiler/codegen/header_parts.h"

namespace fftc::compiler::codegen::header {

namespace {

// One stage's launch inside run(): its parameters by address, as cuLaunchKernel takes them.
std::string launchStage(const CompiledKernel& k, size_t index) {
  const StageInfo& s = k.stages[index];
  std::vector<std::string> params;
  for (const std::string& a : s.args) {
    const BufferInfo* b = k.buffer(a);
    params.push_back(b == nullptr ? "&" + a : isIo(*b) ? "&" + a : "&state_->" + a + "_");
  }
  std::vector<std::string> g, l;
  for (const auto& e : s.global) g.push_back(cxx(e));
  for (const auto& e : s.local) l.push_back(cxx(e));
  std::string out = fmt::format("    {{  // {}\n", s.kernel);
  out += "      const std::size_t fftc_global[] = {" + joined(g) + "};\n";
  if (!l.empty()) out += "      const std::size_t fftc_local[] = {" + joined(l) + "};\n";
  out += fmt::format(
      "      const fftc_rt::Geometry fftc_d = fftc_rt::geometry(fftc_global, {}, {}, {});\n",
      g.size(), l.empty() ? "nullptr" : "fftc_local", l.size());
  out += "      void* fftc_params[] = {" + joined(params) + "};\n";
  out += fmt::format(
      "      fftc_rt::check(cuLaunchKernel(state_->functions[{}], fftc_d.grid[0], fftc_d.grid[1],\n"
      "                                    fftc_d.grid[2], fftc_d.block[0], fftc_d.block[1],\n"
      "                                    fftc_d.block[2], {}u, state_->stream, fftc_params,\n"
      "                                    nullptr),\n"
      "                     \"cuLaunchKernel({})\", kName);\n    }}\n",
      index, s.dynamicLocalBytes, s.kernel);
  return out;
}

std::string runHost(const CompiledKernel& k) {
  std::vector<std::string> params, names;
  for (const auto& b : k.buffers) {
    if (!isIo(b)) continue;
    params.push_back(std::string(b.role == "input" ? "const void* " : "void* ") + b.name);
    names.push_back("state_->" + b.name + "_staging_");
  }
  std::string out =
      "  // Copies the host arrays in (the bytes of the counts above), runs, and copies the output\n"
      "  // back on the stream: it returns when the output is there. Device buffers are made at\n"
      "  // the first call.\n"
      "  void runHost(" + joined(params) + ") {\n" + sizeLocals(k, "    ", "state_->") +
      "    const fftc_rt::Current fftc_current(state_->context, kName);\n";
  for (const auto& b : k.buffers) {
    if (!isIo(b)) continue;
    out += fmt::format("    if (state_->{0}_staging_ == 0) state_->{0}_staging_ = fftc_rt::allocate({1}, kName);\n",
                       b.name, bytesExpr(k, b));
  }
  for (const auto& b : k.buffers)
    if (b.role == "input")
      out += fmt::format(
          "    fftc_rt::check(cuMemcpyHtoDAsync(state_->{0}_staging_, {0}, {1}, state_->stream),\n"
          "                   \"cuMemcpyHtoDAsync\", kName);\n",
          b.name, bytesExpr(k, b));
  out += "    run(" + joined(names) + ");\n";
  for (const auto& b : k.buffers)
    if (b.role == "output")
      out += fmt::format(
          "    fftc_rt::check(cuMemcpyDtoHAsync({0}, state_->{0}_staging_, {1}, state_->stream),\n"
          "                   \"cuMemcpyDtoHAsync\", kName);\n",
          b.name, bytesExpr(k, b));
  out += "    fftc_rt::check(cuStreamSynchronize(state_->stream), \"cuStreamSynchronize\", kName);\n";
  return out + "  }\n\n";
}

// The owned state: released by ~State with the context current (a failed constructor too).
std::string stateStruct(const CompiledKernel& k) {
  std::string out =
      "  struct State {\n"
      "    CUcontext context = nullptr;\n    CUstream stream = nullptr;\n"
      "    bool primary = false;  // context is the retained primary context of `device`\n"
      "    CUdevice device = 0;\n    CUmodule module = nullptr;\n"
      "    CUfunction functions[kStageCount] = {};\n";
  for (const auto& b : k.buffers)
    out += fmt::format("    CUdeviceptr {}_{} = 0;\n", b.name, isIo(b) ? "staging_" : "");
  for (const auto& n : k.sizeVarNames) out += "    int " + n + "_ = 0;\n";
  out += "    State() = default;\n    State(const State&) = delete;\n"
         "    State& operator=(const State&) = delete;\n"
         "    ~State() {\n"
         "      if (context != nullptr && cuCtxPushCurrent(context) == CUDA_SUCCESS) {\n";
  for (const auto& b : k.buffers) {
    const std::string m = b.name + (isIo(b) ? "_staging_" : "_");
    out += "        if (" + m + " != 0) cuMemFree(" + m + ");\n";
  }
  out += "        if (module != nullptr) cuModuleUnload(module);\n"
         "        CUcontext popped = nullptr;\n        cuCtxPopCurrent(&popped);\n      }\n"
         "      if (primary) cuDevicePrimaryCtxRelease(device);\n    }\n  };\n";
  return out;
}

}  // namespace

std::string cudaKernelClass(const CompiledKernel& k) {
  const std::string sp = sizeParams(k);
  const std::string sa = sizeArgs(k);
  std::string out = "\nnamespace fftc_rt = ::fftc_generated::cuda_v1;\n\n";
  out += "// The kernel's stages on one CUDA device, with its tables and temporaries. Errors throw\n"
         "// fftc_generated::Error. One Kernel per thread.\n"
         "class Kernel {\n public:\n";
  out += "  // Loads kPtx into the context (the driver compiles it for the device; it caches the\n"
         "  // result), uploads the tables and allocates the temporaries. The stages run on\n"
         "  // `cuStream` (nullptr: the default stream). The context must outlive the Kernel.\n";
  out += "  Kernel(CUcontext cuContext, CUstream cuStream" + (sp.empty() ? "" : ", " + sp) +
         ") : state_(new State) {\n"
         "    state_->context = cuContext;\n    state_->stream = cuStream;\n";
  for (const auto& n : k.sizeVarNames) out += "    state_->" + n + "_ = " + n + ";\n";
  out += "    init();\n  }\n\n";
  out += "  // The same on device 0 (cuInit, its primary context, the default stream).\n";
  out += "  static Kernel onDefaultDevice(" + sp + ") {\n"
         "    fftc_rt::check(cuInit(0), \"cuInit\", kName);\n"
         "    std::unique_ptr<State> state(new State);\n"
         "    fftc_rt::check(cuDeviceGet(&state->device, 0), \"cuDeviceGet\", kName);\n"
         "    fftc_rt::check(cuDevicePrimaryCtxRetain(&state->context, state->device),\n"
         "                   \"cuDevicePrimaryCtxRetain\", kName);\n"
         "    state->primary = true;\n";
  for (const auto& n : k.sizeVarNames) out += "    state->" + n + "_ = " + n + ";\n";
  out += "    return Kernel(std::move(state));\n  }\n\n";
  std::vector<std::string> io;
  for (const auto& b : k.buffers)
    if (isIo(b)) io.push_back("CUdeviceptr " + b.name);
  out += "  // Launches every stage on the stream, in order, and returns (cuStreamSynchronize(stream())\n"
         "  // waits).\n";
  out += ioDoc(k);
  out += "  void run(" + joined(io) + ") {\n" + sizeLocals(k, "    ", "state_->") +
         "    const fftc_rt::Current fftc_current(state_->context, kName);\n";
  for (size_t i = 0; i < k.stages.size(); ++i) out += launchStage(k, i);
  out += "  }\n\n";
  out += runHost(k);
  out += "  CUcontext context() const noexcept { return state_->context; }\n"
         "  CUstream stream() const noexcept { return state_->stream; }\n\n private:\n";
  out += stateStruct(k);
  out += "\n  explicit Kernel(std::unique_ptr<State> state) : state_(std::move(state)) { init(); }\n\n";
  out += "  void init() {\n" + sizeLocals(k, "    ", "state_->") +
         "    const fftc_rt::Current fftc_current(state_->context, kName);\n"
         "    state_->module = fftc_rt::loadPtx(kPtx, kName);\n";
  for (size_t i = 0; i < k.stages.size(); ++i) {
    const StageInfo& st = k.stages[i];
    out += fmt::format(
        "    fftc_rt::check(cuModuleGetFunction(&state_->functions[{0}], state_->module, \"{1}\"),\n"
        "                   \"cuModuleGetFunction({1})\", kName);\n",
        i, st.kernel);
    if (st.dynamicLocalBytes > 0)
      out += fmt::format(
          "    fftc_rt::check(cuFuncSetAttribute(state_->functions[{0}],\n"
          "                                      CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, "
          "{1}),\n                   \"cuFuncSetAttribute({2}, {1} bytes of shared memory)\", "
          "kName);\n",
          i, st.dynamicLocalBytes, st.kernel);
  }
  for (const auto& b : k.buffers) {
    if (b.role == "table")
      out += fmt::format(
          "    state_->{0}_ = fftc_rt::allocate(sizeof k{0}Data, kName);\n"
          "    fftc_rt::check(cuMemcpyHtoD(state_->{0}_, k{0}Data, sizeof k{0}Data), \"cuMemcpyHtoD\", "
          "kName);\n",
          b.name);
    else if (b.role == "temp")
      out += fmt::format("    state_->{0}_ = fftc_rt::allocate({1}, kName);\n", b.name, bytesExpr(k, b));
  }
  out += "  }\n\n  std::unique_ptr<State> state_;\n};\n";
  return out;
}

}  // namespace fftc::compiler::codegen::header
