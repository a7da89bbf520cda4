// NVRTC time of a CUDA plan's stages compiled one after another against concurrently
// (issue 21: fftlib/plan/concurrent_build.h). Needs NVRTC, no GPU; the CUBIN cache is off.
//
//   stage_compile_bench [N ...]      (default: 1048576 65536 4099 65521)
//
// Prints per size the stages and the median wall milliseconds over 3 rounds of the stages'
// own programs compiled one after another, the same concurrently (compileStagePrograms, one
// thread a core; FFTC_BUILD_THREADS bounds them), and the whole module as one program.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <string>
#include <vector>

#include "compiler/exec/cuda_exec.h"
#include "fftlib/plan/concurrent_build.h"
#include "fftlib/plan/cuda_plan.h"

namespace {

using fftc::fftlib::FftRequest;

template <class F>
double medianMs(F f) {
  std::vector<double> ms;
  for (int round = 0; round < 3; ++round) {
    const auto start = std::chrono::steady_clock::now();
    f();
    ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                     .count());
  }
  std::sort(ms.begin(), ms.end());
  return ms[1];
}

}  // namespace

int main(int argc, char** argv) {
  setenv("FFTC_NO_CACHE", "1", 1);  // every compile runs NVRTC
  std::vector<int64_t> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::stoll(argv[i]));
  if (sizes.empty()) sizes = {1048576, 65536, 4099, 65521};
  fmt::print("N,stages,threads,serial_ms,concurrent_ms,whole_module_ms\n");
  for (int64_t n : sizes) {
    FftRequest r;
    r.size = n;
    r.target = fftc::compiler::pipeline::Target::Cuda;
    r.format = false;
    const auto plan = fftc::fftlib::planFft(r);
    const auto& k = plan->compiled;
    (void)fftc::compiler::exec::compileCuda(k);  // NVRTC loaded and warm
    const double serial = medianMs([&] {
      for (size_t i = 0; i < k.stages.size(); ++i)
        (void)fftc::compiler::exec::compileCudaStage(k, i);
    });
    const double concurrent = medianMs([&] { (void)fftc::fftlib::compileStagePrograms(k); });
    const double whole = medianMs([&] { (void)fftc::compiler::exec::compileCuda(k); });
    fmt::print("{},{},{},{:.1f},{:.1f},{:.1f}\n", n, k.stages.size(),
               fftc::fftlib::buildThreads(k.stages.size()), serial, concurrent, whole);
  }
  return 0;
}
