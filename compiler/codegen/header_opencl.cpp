// The Kernel class of an OpenCL NAME.hpp (header_parts.h): build, tables, temporaries, run.
#include <fmt/format.h>

#include "compiler/codegen/header_parts.h"

namespace fftc::compiler::codegen::header {

namespace {

// One stage's arguments and enqueue, inside run().
std::string enqueueStage(const CompiledKernel& k, size_t index) {
  const StageInfo& s = k.stages[index];
  std::string out = fmt::format("    {{  // {}\n      cl_kernel fftc_k = kernels_[{}].get();\n",
                                s.kernel, index);
  for (size_t i = 0; i < s.args.size(); ++i) {
    const std::string& a = s.args[i];
    const BufferInfo* b = k.buffer(a);
    std::string value = b == nullptr ? "cl_int{" + a + "}" : isIo(*b) ? a : a + "_.get()";
    out += fmt::format("      fftc_rt::setArg(fftc_k, {}, {}, kName);\n", i, value);
  }
  std::vector<std::string> g, l;
  for (const auto& e : s.global) g.push_back(cxx(e));
  for (const auto& e : s.local) l.push_back(cxx(e));
  out += "      const std::size_t fftc_global[] = {" + joined(g) + "};\n";
  if (!l.empty()) out += "      const std::size_t fftc_local[] = {" + joined(l) + "};\n";
  out += fmt::format(
      "      fftc_rt::check(clEnqueueNDRangeKernel(queue_.get(), fftc_k, {}, nullptr, fftc_global,\n"
      "                                            {}, 0, nullptr, nullptr),\n"
      "                     \"clEnqueueNDRangeKernel({})\", kName);\n    }}\n",
      g.size(), l.empty() ? "nullptr" : "fftc_local", s.kernel);
  return out;
}

std::string runHost(const CompiledKernel& k) {
  std::vector<std::string> params, names;
  for (const auto& b : k.buffers) {
    if (!isIo(b)) continue;
    params.push_back(std::string(b.role == "input" ? "const void* " : "void* ") + b.name);
    names.push_back(b.name + "_staging_.get()");
  }
  std::string out =
      "  // Copies the host arrays in (the bytes of the counts above), runs, and copies the output\n"
      "  // back: it returns when the output is there. Device buffers are made at the first call.\n"
      "  void runHost(" + joined(params) + ") {\n" + sizeLocals(k, "    ");
  for (const auto& b : k.buffers) {
    if (!isIo(b)) continue;
    out += fmt::format(
        "    if ({0}_staging_.get() == nullptr)\n"
        "      {0}_staging_ = fftc_rt::createBuffer(context_.get(), {1}, nullptr, kName);\n",
        b.name, bytesExpr(k, b));
  }
  for (const auto& b : k.buffers)
    if (b.role == "input")
      out += fmt::format(
          "    fftc_rt::check(clEnqueueWriteBuffer(queue_.get(), {0}_staging_.get(), CL_TRUE, 0,\n"
          "                                        {1}, {0}, 0, nullptr, nullptr),\n"
          "                   \"clEnqueueWriteBuffer\", kName);\n",
          b.name, bytesExpr(k, b));
  out += "    run(" + joined(names) + ");\n";
  for (const auto& b : k.buffers)
    if (b.role == "output")
      out += fmt::format(
          "    fftc_rt::check(clEnqueueReadBuffer(queue_.get(), {0}_staging_.get(), CL_TRUE, 0,\n"
          "                                       {1}, {0}, 0, nullptr, nullptr),\n"
          "                   \"clEnqueueReadBuffer\", kName);\n",
          b.name, bytesExpr(k, b));
  return out + "  }\n\n";
}

}  // namespace

std::string openclKernelClass(const CompiledKernel& k) {
  const std::string sp = sizeParams(k);
  const std::string sa = sizeArgs(k);
  std::string out = "\nnamespace fftc_rt = ::fftc_generated::opencl_v1;\n\n";
  out += "// The kernel's stages on one OpenCL device, with its tables and temporaries. Errors throw\n"
         "// fftc_generated::Error. run() sets kernel arguments: one Kernel per thread.\n"
         "class Kernel {\n public:\n";
  out += "  // Builds kSource for the queue's device (clBuildProgram each time: keep the Kernel),\n"
         "  // uploads the tables and allocates the temporaries. Holds a reference to the context\n"
         "  // and the queue, which must run commands in order (the default).\n";
  out += "  Kernel(cl_context clContext, cl_command_queue clQueue" + (sp.empty() ? "" : ", " + sp) +
         ")";
  std::vector<std::string> inits;
  for (const auto& n : k.sizeVarNames) inits.push_back(n + "_(" + n + ")");
  out += inits.empty() ? " {\n" : "\n      : " + joined(inits) + " {\n";
  out += "    fftc_rt::check(clRetainContext(clContext), \"clRetainContext\", kName);\n"
         "    context_ = fftc_rt::Ref<cl_context>(clContext);\n"
         "    fftc_rt::check(clRetainCommandQueue(clQueue), \"clRetainCommandQueue\", kName);\n"
         "    queue_ = fftc_rt::Ref<cl_command_queue>(clQueue);\n"
         "    device_ = fftc_rt::queueDevice(clQueue, kName);\n"
         "    program_ = fftc_rt::buildProgram(clContext, device_, kSource, kName);\n";
  for (size_t i = 0; i < k.stages.size(); ++i)
    out += fmt::format(
        "    kernels_[{}] = fftc_rt::createKernel(program_.get(), \"{}\", kName);\n", i,
        k.stages[i].kernel);
  for (const auto& b : k.buffers) {
    if (b.role == "table")
      out += fmt::format(
          "    {0}_ = fftc_rt::createBuffer(clContext, sizeof k{0}Data, k{0}Data, kName);\n",
          b.name);
    else if (b.role == "temp")
      out += fmt::format("    {0}_ = fftc_rt::createBuffer(clContext, {1}, nullptr, kName);\n",
                         b.name, bytesExpr(k, b));
  }
  out += "  }\n\n";
  out += "  // The same on the default device (the first platform's CL_DEVICE_TYPE_DEFAULT), with a\n"
         "  // context and an in-order queue of its own.\n";
  out += "  static Kernel onDefaultDevice(" + sp + ") {\n"
         "    const fftc_rt::DefaultQueue q = fftc_rt::defaultQueue(kName);\n"
         "    return Kernel(q.context.get(), q.queue.get()" + (sa.empty() ? "" : ", " + sa) +
         ");\n  }\n\n";
  std::vector<std::string> io;
  for (const auto& b : k.buffers)
    if (isIo(b)) io.push_back("cl_mem " + b.name);
  out += "  // Enqueues every stage on the queue, in order, and returns (clFinish(queue()) waits).\n";
  out += ioDoc(k);
  out += "  void run(" + joined(io) + ") {\n" + sizeLocals(k, "    ");
  for (size_t i = 0; i < k.stages.size(); ++i) out += enqueueStage(k, i);
  out += "  }\n\n";
  out += runHost(k);
  out += "  cl_context context() const noexcept { return context_.get(); }\n"
         "  cl_command_queue queue() const noexcept { return queue_.get(); }\n"
         "  cl_device_id device() const noexcept { return device_; }\n\n private:\n";
  // Declared in the order of release's reverse: buffers, kernels, program, queue, context.
  out += "  fftc_rt::Ref<cl_context> context_;\n  fftc_rt::Ref<cl_command_queue> queue_;\n"
         "  cl_device_id device_ = nullptr;\n  fftc_rt::Ref<cl_program> program_;\n"
         "  fftc_rt::Ref<cl_kernel> kernels_[kStageCount];\n";
  for (const auto& b : k.buffers)
    out += fmt::format("  fftc_rt::Ref<cl_mem> {}_{};\n", b.name, isIo(b) ? "staging_" : "");
  for (const auto& n : k.sizeVarNames) out += "  int " + n + "_ = 0;\n";
  return out + "};\n";
}

}  // namespace fftc::compiler::codegen::header
