// Embedding generated CUDA kernels: gen_cuda/dotLow.hpp was emitted by `fftc compile --target
// cuda` from examples/dot_lowlevel.fdl (-D N=4096). This program compiles it with NVRTC,
// launches its stages on cuda:0 with fftc's CUDA runtime only, and checks the dot product
// against a sum computed here. Without a CUDA driver it exits 77 (ctest: skipped).
#include <cstdio>
#include <exception>
#include <span>
#include <string>
#include <vector>

#include "backends/cuda/driver_api.h"
#include "dotLow.hpp"

int main() {
  namespace cu = fftc::backends::cuda;
  namespace gen = fftc_generated::dotLow;
  std::string why;
  if (!cu::DriverApi::available(&why)) {
    std::fprintf(stderr, "embed_cuda_dot: skipped: %s\n", why.c_str());
    return 77;
  }
  try {
    cu::Context context(0);
    // Small integers: every partial sum is exact in float, so the check is exact too.
    std::vector<float> x(gen::xCount()), y(gen::yCount());
    double expected = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
      y[i] = static_cast<float>(static_cast<int>(i % 13) - 5);
      expected += static_cast<double>(x[i]) * y[i];
    }
    cu::DeviceBuffer bx = context.allocate(x.size() * sizeof(float));
    cu::DeviceBuffer by = context.allocate(y.size() * sizeof(float));
    cu::DeviceBuffer out = context.allocate(gen::outCount() * sizeof(float));
    cu::DeviceBuffer t0 = context.allocate(gen::t0Count() * sizeof(float));
    bx.upload(std::span<const float>(x));
    by.upload(std::span<const float>(y));
    cu::NvrtcCompiler compiler;
    cu::Module module = gen::build(context, compiler);
    const double ms = cu::timeOnce(context, gen::launches(module, bx, by, out, t0));
    context.synchronize();
    float got = 0;
    out.download(std::span<float>(&got, 1));
    std::printf("dot product of %zu elements on %s: %g (expected %g), %d stages, %.3f ms\n",
                x.size(), context.device().name.c_str(), got, expected, gen::kStageCount, ms);
    return static_cast<double>(got) == expected ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_cuda_dot: %s\n", e.what());
    return 2;
  }
}
