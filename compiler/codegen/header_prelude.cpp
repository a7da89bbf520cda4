// The fixed runtime text of a standalone NAME.hpp (header_parts.h): errors and the few OpenCL or
// CUDA driver calls every header makes, written once per program through include guards.
#include "compiler/codegen/header_parts.h"

#include <fmt/format.h>

#include "backends/common/opencl_error_names.h"

namespace fftc::compiler::codegen::header {

namespace {

// errorName(cl_int) as a switch over the runtime's table (the header links no fftc).
std::string openclErrorNames() {
  std::string out = "inline const char* errorName(cl_int code) {\n  switch (code) {\n";
  for (const auto& [value, name] : backends::kOpenClErrorNames)
    out += fmt::format("    case {}: return \"{}\";\n", value, name);
  return out + "    default: return \"unknown OpenCL error\";\n  }\n}\n";
}

}  // namespace

// Exceptions rather than return codes: a constructor that builds a program cannot return one,
// the class releases what it made when a step fails (RAII), and fftc's C++ API throws too; a C
// caller has fftc's C API. The guard's version suffix lets a later header format define its own.
std::string errorPrelude() {
  return R"HDR(#ifndef FFTC_GENERATED_ERROR_V1
#define FFTC_GENERATED_ERROR_V1
namespace fftc_generated {
// What every header fftc emits throws: "KERNEL: CALL: ERROR_NAME (CODE)", with the build or JIT
// log after it where there is one. code() is the API's error code (cl_int or CUresult).
class Error : public std::runtime_error {
 public:
  Error(const std::string& message, long code) : std::runtime_error(message), code_(code) {}
  long code() const noexcept { return code_; }

 private:
  long code_;
};
}  // namespace fftc_generated
#endif  // FFTC_GENERATED_ERROR_V1
)HDR";
}

std::string openclPrelude() {
  return R"HDR(
#ifndef FFTC_GENERATED_OPENCL_V1
#define FFTC_GENERATED_OPENCL_V1
namespace fftc_generated::opencl_v1 {

)HDR" + openclErrorNames() + R"HDR(
inline void check(cl_int code, const char* call, std::string_view kernel) {
  if (code == CL_SUCCESS) return;
  throw Error(std::string(kernel) + ": " + call + ": " + errorName(code) + " (" +
                  std::to_string(code) + ")",
              code);
}

inline void release(cl_context h) { clReleaseContext(h); }
inline void release(cl_command_queue h) { clReleaseCommandQueue(h); }
inline void release(cl_program h) { clReleaseProgram(h); }
inline void release(cl_kernel h) { clReleaseKernel(h); }
inline void release(cl_mem h) { clReleaseMemObject(h); }

// One owned reference to an OpenCL object: released on destruction, moved, never copied.
template <typename T>
class Ref {
 public:
  Ref() = default;
  explicit Ref(T handle) : handle_(handle) {}
  Ref(Ref&& other) noexcept : handle_(other.handle_) { other.handle_ = nullptr; }
  Ref& operator=(Ref&& other) noexcept {
    if (this != &other) {
      reset();
      handle_ = other.handle_;
      other.handle_ = nullptr;
    }
    return *this;
  }
  Ref(const Ref&) = delete;
  Ref& operator=(const Ref&) = delete;
  ~Ref() { reset(); }
  T get() const noexcept { return handle_; }
  void reset() noexcept {
    if (handle_ != nullptr) release(handle_);
    handle_ = nullptr;
  }

 private:
  T handle_ = nullptr;
};

// The first platform's default device (CL_DEVICE_TYPE_DEFAULT), skipping platforms without one.
inline cl_device_id defaultDevice(std::string_view kernel) {
  cl_uint count = 0;
  // -1001: CL_PLATFORM_NOT_FOUND_KHR (cl_ext.h), the ICD loader's answer when none is installed.
  const cl_int status = clGetPlatformIDs(0, nullptr, &count);
  if (status != -1001) check(status, "clGetPlatformIDs", kernel);
  if (status != CL_SUCCESS || count == 0)
    throw Error(std::string(kernel) + ": no OpenCL platform (no ICD installed?)",
                CL_DEVICE_NOT_FOUND);
  std::vector<cl_platform_id> platforms(count);
  check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs", kernel);
  for (cl_platform_id platform : platforms) {
    cl_device_id device = nullptr;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr) == CL_SUCCESS)
      return device;
  }
  throw Error(std::string(kernel) + ": no OpenCL device on " + std::to_string(count) +
                  " platform(s)",
              CL_DEVICE_NOT_FOUND);
}

// A context and an in-order queue of their own on defaultDevice().
struct DefaultQueue {
  Ref<cl_context> context;
  Ref<cl_command_queue> queue;
};

inline DefaultQueue defaultQueue(std::string_view kernel) {
  cl_device_id device = defaultDevice(kernel);
  cl_int status = CL_SUCCESS;
  DefaultQueue q;
  q.context = Ref<cl_context>(clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status));
  check(status, "clCreateContext", kernel);
  q.queue = Ref<cl_command_queue>(clCreateCommandQueue(q.context.get(), device, 0, &status));
  check(status, "clCreateCommandQueue", kernel);
  return q;
}

// The queue's device; Error when the queue runs commands out of order (the stages must not).
inline cl_device_id queueDevice(cl_command_queue queue, std::string_view kernel) {
  cl_device_id device = nullptr;
  check(clGetCommandQueueInfo(queue, CL_QUEUE_DEVICE, sizeof device, &device, nullptr),
        "clGetCommandQueueInfo", kernel);
  cl_command_queue_properties properties = 0;
  check(clGetCommandQueueInfo(queue, CL_QUEUE_PROPERTIES, sizeof properties, &properties, nullptr),
        "clGetCommandQueueInfo", kernel);
  if ((properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0)
    throw Error(std::string(kernel) + ": the queue is out of order; the stages need an in-order "
                    "queue",
                CL_INVALID_COMMAND_QUEUE);
  return device;
}

// Builds `source` for `device` (no options, as fftc itself builds it); a failure carries the log.
inline Ref<cl_program> buildProgram(cl_context context, cl_device_id device,
                                    std::string_view source, std::string_view kernel) {
  const char* text = source.data();
  const std::size_t length = source.size();
  cl_int status = CL_SUCCESS;
  Ref<cl_program> program(clCreateProgramWithSource(context, 1, &text, &length, &status));
  check(status, "clCreateProgramWithSource", kernel);
  status = clBuildProgram(program.get(), 1, &device, "", nullptr, nullptr);
  if (status == CL_SUCCESS) return program;
  std::size_t size = 0;
  std::string log;
  if (clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) ==
          CL_SUCCESS &&
      size > 1) {
    log.resize(size);
    clGetProgramBuildInfo(program.get(), device, CL_PROGRAM_BUILD_LOG, size, &log[0], nullptr);
    log.resize(size - 1);
  }
  throw Error(std::string(kernel) + ": clBuildProgram: " + errorName(status) + " (" +
                  std::to_string(status) + ")" + (log.empty() ? "" : ":\n" + log),
              status);
}

inline Ref<cl_kernel> createKernel(cl_program program, const char* name, std::string_view kernel) {
  cl_int status = CL_SUCCESS;
  Ref<cl_kernel> k(clCreateKernel(program, name, &status));
  check(status, "clCreateKernel", kernel);
  return k;
}

// A buffer of `bytes` (at least 1); `data` non-null: filled from it (tables).
inline Ref<cl_mem> createBuffer(cl_context context, std::size_t bytes, const void* data,
                                std::string_view kernel) {
  cl_int status = CL_SUCCESS;
  const cl_mem_flags flags =
      data != nullptr ? CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE;
  Ref<cl_mem> buffer(clCreateBuffer(context, flags, bytes > 0 ? bytes : 1,
                                    const_cast<void*>(data), &status));
  check(status, "clCreateBuffer", kernel);
  return buffer;
}

template <typename T>
void setArg(cl_kernel k, cl_uint index, const T& value, std::string_view kernel) {
  check(clSetKernelArg(k, index, sizeof(T), &value), "clSetKernelArg", kernel);
}

}  // namespace fftc_generated::opencl_v1
#endif  // FFTC_GENERATED_OPENCL_V1
)HDR";
}

std::string cudaPrelude() {
  return R"HDR(
#ifndef FFTC_GENERATED_CUDA_V1
#define FFTC_GENERATED_CUDA_V1
namespace fftc_generated::cuda_v1 {

inline void check(CUresult code, const char* call, std::string_view kernel) {
  if (code == CUDA_SUCCESS) return;
  const char* name = nullptr;
  const char* text = nullptr;
  if (cuGetErrorName(code, &name) != CUDA_SUCCESS) name = "unknown CUDA error";
  if (cuGetErrorString(code, &text) != CUDA_SUCCESS) text = nullptr;
  throw Error(std::string(kernel) + ": " + call + ": " + name + " (" + std::to_string(code) +
                  ")" + (text != nullptr ? std::string(": ") + text : std::string()),
              code);
}

// Makes `context` current for the scope (the caller's current context is restored after).
class Current {
 public:
  Current(CUcontext context, std::string_view kernel) {
    check(cuCtxPushCurrent(context), "cuCtxPushCurrent", kernel);
  }
  Current(const Current&) = delete;
  Current& operator=(const Current&) = delete;
  ~Current() {
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  }
};

// A stage's grid and block from its OpenCL-style work sizes, as fftc's own CUDA runtime launches
// it (backends/cuda/work_sizes.cpp): the block is the local size, or whole warps up to 256
// threads along x when there is none; the grid rounds up and is clamped to the device limits
// (the kernels loop over their ranges, so surplus threads do nothing).
struct Geometry {
  unsigned grid[3] = {1, 1, 1};
  unsigned block[3] = {1, 1, 1};
};

inline Geometry geometry(const std::size_t* global, std::size_t globalDims,
                         const std::size_t* local, std::size_t localDims) {
  std::size_t g[3] = {1, 1, 1};
  std::size_t b[3] = {1, 1, 1};
  for (std::size_t d = 0; d < globalDims && d < 3; ++d) g[d] = global[d];
  if (localDims > 0) {
    for (std::size_t d = 0; d < localDims && d < 3; ++d) b[d] = local[d] > 0 ? local[d] : 1;
  } else {
    const std::size_t warps = (g[0] + 31) / 32 * 32;
    b[0] = warps < 256 ? warps : 256;
  }
  const std::size_t gridMax[3] = {2147483647u, 65535u, 65535u};
  Geometry out;
  for (std::size_t d = 0; d < 3; ++d) {
    out.block[d] = static_cast<unsigned>(b[d] < 1024 ? b[d] : 1024);
    std::size_t blocks = (g[d] + b[d] - 1) / b[d];
    if (blocks < 1) blocks = 1;
    out.grid[d] = static_cast<unsigned>(blocks < gridMax[d] ? blocks : gridMax[d]);
  }
  return out;
}

// Loads PTX (the driver compiles it for the current context's device); a failure carries the
// JIT log.
inline CUmodule loadPtx(const char* ptx, std::string_view kernel) {
  char log[8192] = {0};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(static_cast<std::size_t>(sizeof log))};
  CUmodule module = nullptr;
  const CUresult status = cuModuleLoadDataEx(&module, ptx, 2, options, values);
  if (status == CUDA_SUCCESS) return module;
  try {
    check(status, "cuModuleLoadDataEx", kernel);
  } catch (const Error& e) {
    throw Error(std::string(e.what()) + (log[0] != 0 ? std::string(":\n") + log : ""), status);
  }
  return nullptr;
}

inline CUdeviceptr allocate(std::size_t bytes, std::string_view kernel) {
  CUdeviceptr p = 0;
  check(cuMemAlloc(&p, bytes > 0 ? bytes : 1), "cuMemAlloc", kernel);
  return p;
}

}  // namespace fftc_generated::cuda_v1
#endif  // FFTC_GENERATED_CUDA_V1
)HDR";
}

}  // namespace fftc::compiler::codegen::header
