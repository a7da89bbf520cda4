// The C-like printer of the kernel AST. What differs between OpenCL C and CUDA C (qualifiers,
// work-item functions, barriers, vector construction, math names) is a CDialect; a dialect is
// a small subclass (backends/common/opencl_dialect.h, backends/common/cuda_dialect.h); neither
// links a runtime, so printing a kernel needs no OpenCL or CUDA library.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "backends/common/kernel_ast.h"

namespace fftc::backends {

class CDialect {
 public:
  virtual ~CDialect() = default;
  virtual std::string name() const = 0;  // "opencl", "cuda"
  // Text before the kernel's name: "__kernel void" / "extern \"C\" __global__ void".
  virtual std::string kernelPrefix() const = 0;
  // Text between the prefix and the name for a kernel launched with at most `workItems`
  // work-items a group (0: not known), with its leading space; "" where the dialect has none.
  virtual std::string launchBounds(int64_t /*workItems*/, int64_t /*minBlocks*/) const {
    return "";
  }
  // Qualifier of a pointer parameter's data ("__global", "__constant", "" in CUDA).
  virtual std::string pointerSpace(MemSpace space) const = 0;
  // Qualifier of a variable declared in a kernel body ("__local", "__shared__", "").
  virtual std::string variableSpace(MemSpace space) const = 0;
  // Local arrays of one kernel above this many bytes in all do not fit static declarations
  // and are carved from dynamic local memory (CUDA: 48 KiB of static __shared__); 0: the
  // dialect has no dynamic local memory (OpenCL: local arrays are static, the device's limit
  // is the only one).
  virtual int64_t staticLocalLimit() const { return 0; }
  // The declaration of the dynamic local memory a kernel's carved arrays point into, and of
  // one such array at a byte offset (aligned to 16). Only dialects with staticLocalLimit() > 0.
  virtual std::string dynamicLocalBase() const;
  virtual std::string dynamicLocalArray(const std::string& type, const std::string& name,
                                        int64_t offset) const;
  // Qualifier of a file-scope constant table ("__constant", "__constant__").
  virtual std::string tableQualifier() const = 0;
  virtual std::string restrictKeyword() const { return "restrict"; }
  virtual std::string workItem(WorkItemFn fn, int dim) const = 0;
  // The same in 64-bit arithmetic (the start and stride of a wide loop, Stmt::wide).
  virtual std::string workItem64(WorkItemFn fn, int dim) const = 0;
  virtual std::string barrier(bool localFence, bool globalFence) const = 0;
  virtual std::string functionPrefix() const = 0;  // helpers and userfuns: "inline" / "__device__ inline"
  // float2(re, im): "(float2)(re, im)" / "make_float2(re, im)".
  virtual std::string makeComplex(const std::string& type, const std::string& re,
                                  const std::string& im) const = 0;
  // A math function for a precision: "cos" / "cosf"; base names are the double ones.
  virtual std::string mathFunction(const std::string& base, bool isDouble) const = 0;
  // Statements that set `s` to sinpi(x) and `c` to cospi(x): the two calls; CUDA's one
  // sincospi call shares their argument reduction.
  virtual std::string sinCosPi(const std::string& x, const std::string& s, const std::string& c,
                               bool isDouble) const;
  virtual std::string int64Type() const { return "long"; }
  // Lines before everything else (extension pragmas).
  virtual std::string prelude(const Module& module) const = 0;
  // Dialect-specific helper definitions after the common ones (may be empty; printed whole).
  virtual std::string extraHelpers(const Module&) const { return {}; }
  virtual std::string unrollPragma() const { return "#pragma unroll"; }
  // Complex elements of a constant table as `{re, im}` rather than makeComplex: CUDA refuses
  // a __constant__ variable whose initializer calls make_float2 (dynamic initialization).
  virtual bool aggregateTableElements() const { return false; }
  // A read of element `index` of a read-only global pointer parameter (inputs, table
  // buffers): "p[i]", or CUDA's "__ldg(&p[i])" (the read-only data cache).
  virtual std::string readOnlyLoad(const std::string& pointer, const std::string& index,
                                   const CType&) const {
    return pointer + "[" + index + "]";
  }

  // A vector of `width` scalars of `elem` at pointer[index] (index a multiple of width):
  // OpenCL's vloadN / vstoreN, CUDA's reinterpretation as floatN (with __ldg when read-only).
  virtual std::string vectorLoad(const std::string& pointer, const std::string& index,
                                 int width, const CType& elem, bool readOnly) const = 0;
  virtual std::string vectorStore(const std::string& pointer, const std::string& index,
                                  int width, const CType& elem,
                                  const std::string& value) const = 0;
  // A local array aligned to `bytes`: the words before the type and after the name.
  virtual std::string alignPrefix(int64_t) const { return {}; }
  virtual std::string alignSuffix(int64_t) const { return {}; }

  // Thread-block clusters (mapCluster): whether the dialect has them, the kernel attribute of
  // a cluster of `blocks` work-groups (with its leading space), the barrier of all the
  // cluster's work-items, and the helpers a cluster kernel calls (kClusterArray).
  virtual bool hasClusters() const { return false; }
  virtual std::string clusterDims(int64_t /*blocks*/) const { return {}; }
  virtual std::string clusterBarrier() const { return {}; }
  virtual std::string clusterHelpers() const { return {}; }

  // Shared by both dialects.
  std::string typeName(const CType& t) const;
};

class CPrinter {
 public:
  explicit CPrinter(const CDialect& dialect) : d_(dialect) {}

  // The whole translation unit: prelude, helpers, structs, tables, userfuns, kernels.
  std::string module(const Module& m) const;
  std::string kernel(const KernelFunc& k) const;
  std::string expr(const CExpr& e) const;
  std::string stmt(const Stmt& s, int indent) const;
  // The complex and floor-division helpers for the precisions a module uses, all of them (a
  // prelude for checking userfun bodies); module() prints only those in Module::helpers.
  std::string helpers(const Module& m) const;
  // The same, one (name, definition) pair per helper.
  std::vector<std::pair<std::string, std::string>> helperDefinitions(const Module& m) const;

 private:
  std::string operand(const CExpr& e) const;  // parenthesized unless atomic
  std::string literal(double v, bool isDouble) const;
  std::string tableElement(const CExpr& e) const;
  const CDialect& d_;
  // The read-only global pointer parameters of the kernel being printed (readOnlyLoad), set
  // by kernel() for its body.
  mutable std::map<std::string, CType> readOnlyParams_;
  mutable bool clusterKernel_ = false;  // the kernel being printed runs in clusters
};

// Suffix of the helper functions for a precision: "f" (float) or "d" (double).
inline const char* precisionSuffix(bool isDouble) { return isDouble ? "d" : "f"; }

}  // namespace fftc::backends
