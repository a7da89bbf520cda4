// An outside project using the installed fftc (tests/install): plans a 64-point f32 FFT (batch
// 3) on an OpenCL device and checks it against a DFT computed here in double. Exit 0: match.
// Arguments: [SELECTOR [PREFIX]]; with PREFIX, libfftc.so must load the clang plugin under it.
#include <cmath>
#include <complex>
#include <cstdio>
#include <exception>
#include <numbers>
#include <string>
#include <vector>

#include "compiler/clang/clang_helpers.h"
#include "fftlib/plan/fft_api.h"

namespace cl = fftc::backends::opencl;
using namespace fftc::fftlib;

int main(int argc, char** argv) {
  try {
    cl::Context context = cl::Context::fromSelector(argc > 1 ? argv[1] : "");
    FftRequest request;
    request.size = 64;
    request.batch = 3;
    Plan plan = Plan::create(context, request);

    const auto n = static_cast<std::size_t>(request.size);
    const auto batch = static_cast<std::size_t>(request.batch);
    std::vector<std::complex<float>> x(n * batch);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const auto t = static_cast<float>(i);
      x[i] = {std::sin(0.37f * t) + 0.25f, std::cos(1.3f * static_cast<float>(i * i % 17))};
    }
    const std::vector<std::complex<float>> y = plan.run(x);
    if (y.size() != x.size()) {
      std::fprintf(stderr, "consumer: %zu outputs, expected %zu\n", y.size(), x.size());
      return 1;
    }
    double worst = 0;
    for (std::size_t b = 0; b < batch; ++b) {
      for (std::size_t k = 0; k < n; ++k) {
        std::complex<double> want = 0;
        for (std::size_t j = 0; j < n; ++j) {
          const double angle = -2 * std::numbers::pi * static_cast<double>(j * k % n) / n;
          want += std::complex<double>(x[b * n + j]) * std::polar(1.0, angle);
        }
        worst = std::max(worst, std::abs(std::complex<double>(y[b * n + k]) - want));
      }
    }
    std::printf("consumer: %zu-point FFT, batch %zu, on %s: max error %.3g\n", n, batch,
                context.device().name.c_str(), worst);
    if (worst >= 1e-3) return 1;
    if (argc > 2) {
      // Installed, libfftc.so finds the plugin from its own directory (lib/fftc/).
      const std::string status = fftc::compiler::clang_helpers::clangHelpersStatus();
      if (status.find(std::string("loaded from ") + argv[2]) == std::string::npos) {
        std::fprintf(stderr, "consumer: %s\n", status.c_str());
        return 1;
      }
    }
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 2;
  }
}
