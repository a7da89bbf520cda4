// Embedding generated CUDA kernels with the CUDA driver API only: gen_cuda/dotLow.hpp was
// emitted by `fftc compile --target cuda examples/dot_lowlevel.fdl` (N left open: given to the
// Kernel at run time) and carries PTX, so no NVRTC is needed here. This program makes its own
// context and buffers on cuda:0, runs the stages, and checks the dot product against a sum
// computed here. Without a CUDA device it exits 77 (ctest: skipped).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "dotLow.hpp"

namespace {

namespace gen = fftc_generated::dotLow;

void check(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS) throw fftc_generated::Error(std::string(call) + " failed", status);
}

}  // namespace

int main() {
  const int n = 4096;  // dotLow needs a multiple of 16 (a work-item sums 16 products)
  int devices = 0;
  if (cuInit(0) != CUDA_SUCCESS || cuDeviceGetCount(&devices) != CUDA_SUCCESS || devices == 0) {
    std::fprintf(stderr, "embed_cuda_dot: skipped: no CUDA device\n");
    return 77;
  }
  try {
    // Small integers: every partial sum is exact in float, so the check is exact too.
    std::vector<float> x(gen::xCount(n)), y(gen::yCount(n));
    double expected = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
      y[i] = static_cast<float>(static_cast<int>(i % 13) - 5);
      expected += static_cast<double>(x[i]) * y[i];
    }
    CUdevice device = 0;
    CUcontext context = nullptr;
    check(cuDeviceGet(&device, 0), "cuDeviceGet");
    check(cuDevicePrimaryCtxRetain(&context, device), "cuDevicePrimaryCtxRetain");
    check(cuCtxPushCurrent(context), "cuCtxPushCurrent");
    CUdeviceptr bx = 0, by = 0, bout = 0;
    check(cuMemAlloc(&bx, x.size() * sizeof(float)), "cuMemAlloc");
    check(cuMemAlloc(&by, y.size() * sizeof(float)), "cuMemAlloc");
    check(cuMemAlloc(&bout, gen::outCount(n) * sizeof(float)), "cuMemAlloc");
    check(cuMemcpyHtoD(bx, x.data(), x.size() * sizeof(float)), "cuMemcpyHtoD");
    check(cuMemcpyHtoD(by, y.data(), y.size() * sizeof(float)), "cuMemcpyHtoD");
    float got = 0;
    {
      // Loads the PTX into the context and allocates the temporary t0 (N / 16 partial sums).
      gen::Kernel kernel(context, nullptr, n);
      kernel.run(bx, by, bout);
      check(cuStreamSynchronize(nullptr), "cuStreamSynchronize");
      check(cuMemcpyDtoH(&got, bout, sizeof got), "cuMemcpyDtoH");
    }
    cuMemFree(bx);
    cuMemFree(by);
    cuMemFree(bout);
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
    cuDevicePrimaryCtxRelease(device);
    std::printf("dot product of %zu elements: %g (expected %g), %d stages\n", x.size(),
                static_cast<double>(got), expected, gen::kStageCount);
    return static_cast<double>(got) == expected ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_cuda_dot: %s\n", e.what());
    return 2;
  }
}
