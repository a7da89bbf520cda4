// CUDA C specifics of the kernel printer.
#include "backends/common/cuda_dialect.h"

namespace fftc::backends {

std::string CudaDialect::workItem(WorkItemFn fn, int dim) const {
  const char* c = dim == 0 ? "x" : dim == 1 ? "y" : "z";
  std::string d = c;
  switch (fn) {
    case WorkItemFn::GlobalId: return "(int)(blockIdx." + d + " * blockDim." + d + " + threadIdx." + d + ")";
    case WorkItemFn::LocalId: return "(int)threadIdx." + d;
    case WorkItemFn::GroupId: return "(int)blockIdx." + d;
    case WorkItemFn::GlobalSize: return "(int)(gridDim." + d + " * blockDim." + d + ")";
    case WorkItemFn::LocalSize: return "(int)blockDim." + d;
    case WorkItemFn::NumGroups: return "(int)gridDim." + d;
  }
  return "0";
}

std::string CudaDialect::workItem64(WorkItemFn fn, int dim) const {
  const std::string d = dim == 0 ? "x" : dim == 1 ? "y" : "z";
  switch (fn) {
    case WorkItemFn::GlobalId:
      return "((long long)blockIdx." + d + " * blockDim." + d + " + threadIdx." + d + ")";
    case WorkItemFn::LocalId: return "(long long)threadIdx." + d;
    case WorkItemFn::GroupId: return "(long long)blockIdx." + d;
    case WorkItemFn::GlobalSize: return "((long long)gridDim." + d + " * blockDim." + d + ")";
    case WorkItemFn::LocalSize: return "(long long)blockDim." + d;
    case WorkItemFn::NumGroups: return "(long long)gridDim." + d;
  }
  return "0";
}

std::string CudaDialect::readOnlyLoad(const std::string& pointer, const std::string& index,
                                      const CType& type) const {
  // __ldg has overloads for the scalar and vector types only, not for structs (tuples).
  switch (type.kind) {
    case CType::Kind::Int:
    case CType::Kind::Float:
    case CType::Kind::Double:
    case CType::Kind::ComplexFloat:
    case CType::Kind::ComplexDouble: return "__ldg(&" + pointer + "[" + index + "])";
    default: return pointer + "[" + index + "]";
  }
}

std::string CudaDialect::clusterHelpers() const {
  // cooperative_groups' this_cluster().sync() and map_shared_rank(p, rank), in the PTX they
  // compile to (barrier.cluster, mapa on a generic address), so that NVRTC needs no include.
  return "\n__device__ inline void fftc_cluster_sync() {\n"
         "  asm volatile(\"barrier.cluster.arrive.release;\\n\\tbarrier.cluster.wait.acquire;\" "
         "::: \"memory\");\n"
         "}\n"
         "\ntemplate <class T>\n__device__ inline T* " +
         std::string(kClusterArray) +
         "(T* p, int rank) {\n"
         "  unsigned long long a;\n"
         "  asm(\"mapa.u64 %0, %1, %2;\" : \"=l\"(a) : \"l\"(p), \"r\"(rank));\n"
         "  return reinterpret_cast<T*>(a);\n"
         "}\n";
}

std::string printCuda(const Module& module) {
  CudaDialect dialect;
  return CPrinter(dialect).module(module);
}

}  // namespace fftc::backends
