// Timing of generated kernels on the OpenCL device, only with FFTC_PERF=1 (GPU machines): the
// paper's Stockham pass at n = 2^24. Prints milliseconds and effective bandwidth; checks nothing
// but that the kernels run (correctness is the other tests' job).
#include <algorithm>
#include <cstdlib>

#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

TEST(Perf, StockhamPassAt2To24) {
  if (!std::getenv("FFTC_PERF")) GTEST_SKIP() << "set FFTC_PERF=1 to time kernels";
  namespace cl = backends::opencl;
  const int64_t n = int64_t{1} << 24;
  for (auto [r, l] : {std::pair<int64_t, int64_t>{2, 4096}, {2, n}, {4, 4096}, {8, 4096}}) {
    auto ck = compileText(readFile(sourceRoot() + "/examples/stockham_pass_lowlevel.fdl"),
                          "stockPass", {{"R", r}, {"L", l}, {"N", n}});
    cl::Program program = context().build(ck.source);
    std::vector<std::unique_ptr<cl::Buffer>> bufs;
    cl::Kernel kernel(program, ck.stages.at(0).kernel);
    uint32_t arg = 0;
    for (const auto& name : ck.stages[0].args) {
      const cg::BufferInfo* b = ck.buffer(name);
      bufs.push_back(std::make_unique<cl::Buffer>(
          context(), static_cast<size_t>(b->count.constant().value() * b->elementBytes)));
      if (b->role == "table") bufs.back()->writeBytes(context(), b->data.data(), b->data.size());
      else bufs.back()->zero(context());
      kernel.setArg(arg++, *bufs.back());
    }
    cl::Launch launch;
    launch.kernel = &kernel;
    launch.global = cl::NDRange(static_cast<size_t>(ck.stages[0].global[0].constant().value()));
    launch.local = cl::NDRange(256);
    auto times = cl::timeRepeated(context(), std::span<const cl::Launch>(&launch, 1), 3, 10);
    std::sort(times.begin(), times.end());
    double ms = times[times.size() / 2];
    double gbps = 2.0 * static_cast<double>(n) * 8.0 / (ms * 1e6);
    std::cout << "stockham pass r=" << r << " L=" << l << " n=2^24 on " << context().device().name
              << ": " << ms << " ms, " << gbps << " GB/s (in + out)\n";
  }
}

}  // namespace
}  // namespace fftc::codegen_test
