// Embedding generated kernels with the OpenCL API only: dotLow.hpp was emitted by
// `fftc compile examples/dot_lowlevel.fdl` with its size N left open, so N is given to the
// Kernel at run time. This program makes its own context, queue and buffers on the default
// device, runs the two stages, and checks the dot product against a sum computed here.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "dotLow.hpp"

namespace {

namespace gen = fftc_generated::dotLow;

void check(cl_int status, const char* call) {
  if (status != CL_SUCCESS) throw fftc_generated::Error(std::string(call) + " failed", status);
}

}  // namespace

int main() {
  const int n = 4096;  // dotLow needs a multiple of 16 (a work-item sums 16 products)
  try {
    // Small integers: every partial sum is exact in float, so the check is exact too.
    std::vector<float> x(gen::xCount(n)), y(gen::yCount(n));
    double expected = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
      y[i] = static_cast<float>(static_cast<int>(i % 13) - 5);
      expected += static_cast<double>(x[i]) * y[i];
    }
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    check(clGetPlatformIDs(1, &platform, nullptr), "clGetPlatformIDs");
    check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr), "clGetDeviceIDs");
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    check(status, "clCreateContext");
    cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
    check(status, "clCreateCommandQueue");
    auto buffer = [&](std::size_t bytes, void* data) {
      cl_mem b = clCreateBuffer(context, data ? CL_MEM_COPY_HOST_PTR : CL_MEM_READ_WRITE, bytes,
                                data, &status);
      check(status, "clCreateBuffer");
      return b;
    };
    cl_mem bx = buffer(x.size() * sizeof(float), x.data());
    cl_mem by = buffer(y.size() * sizeof(float), y.data());
    cl_mem bout = buffer(gen::outCount(n) * sizeof(float), nullptr);
    float got = 0;
    {
      // Builds for the queue's device and allocates the temporary t0 (N / 16 partial sums).
      gen::Kernel kernel(context, queue, n);
      kernel.run(bx, by, bout);
      check(clEnqueueReadBuffer(queue, bout, CL_TRUE, 0, sizeof got, &got, 0, nullptr, nullptr),
            "clEnqueueReadBuffer");
    }
    clReleaseMemObject(bx);
    clReleaseMemObject(by);
    clReleaseMemObject(bout);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    std::printf("dot product of %zu elements: %g (expected %g), %d stages\n", x.size(),
                static_cast<double>(got), expected, gen::kStageCount);
    return static_cast<double>(got) == expected ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_dot: %s\n", e.what());
    return 2;
  }
}
