// The OpenCL C dialect of the kernel-AST printer (backends/common/c_printer.h): __kernel,
// get_global_id, __local, barrier(...), (float2)(re, im). Pure printing (no OpenCL dependency).
#pragma once

#include <string>

#include "backends/common/c_printer.h"

namespace fftc::backends {

class OpenCLDialect final : public CDialect {
 public:
  std::string name() const override { return "opencl"; }
  std::string kernelPrefix() const override { return "__kernel void"; }
  std::string pointerSpace(MemSpace space) const override;
  std::string variableSpace(MemSpace space) const override;
  std::string tableQualifier() const override { return "__constant"; }
  std::string workItem(WorkItemFn fn, int dim) const override;
  std::string workItem64(WorkItemFn fn, int dim) const override;
  std::string barrier(bool localFence, bool globalFence) const override;
  std::string functionPrefix() const override { return "inline"; }
  std::string makeComplex(const std::string& type, const std::string& re,
                          const std::string& im) const override;
  std::string mathFunction(const std::string& base, bool isDouble) const override;
  std::string prelude(const Module& module) const override;
  std::string vectorLoad(const std::string& pointer, const std::string& index, int width,
                         const CType&, bool) const override {
    return "vload" + std::to_string(width) + "(0, " + pointer + " + " + index + ")";
  }
  std::string vectorStore(const std::string& pointer, const std::string& index, int width,
                          const CType&, const std::string& value) const override {
    return "vstore" + std::to_string(width) + "(" + value + ", 0, " + pointer + " + " + index +
           ")";
  }
  std::string alignSuffix(int64_t bytes) const override {
    return " __attribute__((aligned(" + std::to_string(bytes) + ")))";
  }
};

// Prints a module as one OpenCL C translation unit.
std::string printOpenCL(const Module& module);

}  // namespace fftc::backends
