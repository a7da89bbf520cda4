// Embedding generated kernels: dotLow.hpp was emitted by `fftc compile` from
// examples/dot_lowlevel.fdl (-D N=4096). This program builds and launches its stages on the
// default OpenCL device and checks the dot product against a sum computed here.
#include <cstdio>
#include <exception>
#include <span>
#include <vector>

#include "dotLow.hpp"

int main() {
  namespace cl = fftc::backends::opencl;
  namespace gen = fftc_generated::dotLow;
  try {
    auto context = cl::Context::fromSelector("");
    // Small integers: every partial sum is exact in float, so the check is exact too.
    std::vector<float> x(gen::xCount()), y(gen::yCount());
    double expected = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = static_cast<float>(static_cast<int>(i % 7) - 3);
      y[i] = static_cast<float>(static_cast<int>(i % 13) - 5);
      expected += static_cast<double>(x[i]) * y[i];
    }
    auto bx = cl::Buffer::from<float>(context, std::span<const float>(x));
    auto by = cl::Buffer::from<float>(context, std::span<const float>(y));
    auto out = cl::Buffer::of<float>(context, gen::outCount());
    auto t0 = cl::Buffer::of<float>(context, gen::t0Count());
    auto program = gen::build(context);
    auto events = gen::launch(context, program, bx, by, out, t0);
    events.back().wait();
    const float got = out.read<float>(context).at(0);
    std::printf("dot product of %zu elements on %s: %g (expected %g), %d stages, %.3f ms\n",
                x.size(), context.device().name.c_str(), got, expected, gen::kStageCount,
                cl::elapsedMs(events.front(), events.back()));
    return static_cast<double>(got) == expected ? 0 : 3;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "embed_dot: %s\n", e.what());
    return 2;
  }
}
