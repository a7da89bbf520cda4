// An FFT embedded with nothing of fftc but the header it writes for CUDA (docs/cli.md,
// "NAME.hpp"); the host program needs the CUDA driver API only (no NVRTC, no runtime API):
//
//   fftc fft --size 4096 --batch 8 --target cuda -o DIR
//   c++ -std=c++17 -I DIR -I /usr/local/cuda/include examples/embed/standalone_cuda.cpp -lcuda
//   ./a.out
//
// (where no driver is installed, -L /usr/local/cuda/lib64/stubs links against the toolkit's stub;
// the program then runs where the driver's libcuda.so.1 is). Runs the header's Kernel on device 0 with buffers allocated
// here and compares its output with a DFT computed here (dft_check.h): exit 0 when they agree,
// 1 when not, 2 on an error (on stderr). Another header: -DFFTC_FFT=NAME -DFFTC_FFT_SIZE=N.
#include <complex>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "dft_check.h"

#ifndef FFTC_FFT
#define FFTC_FFT fft_4096_f32
#define FFTC_FFT_SIZE 4096
#endif
#define FFTC_STRINGIFY2(x) #x
#define FFTC_STRINGIFY(x) FFTC_STRINGIFY2(x)
#include FFTC_STRINGIFY(FFTC_FFT.hpp)

namespace fft = fftc_generated::FFTC_FFT;
using Real = std::conditional_t<fft::kxElementBytes == 8, float, double>;

namespace {

void check(CUresult status, const char* call) {
  if (status != CUDA_SUCCESS) throw fftc_generated::Error(std::string(call) + " failed", status);
}

}  // namespace

int main() {
  const std::vector<std::complex<Real>> in = dft_check::input<Real>(fft::xCount());
  std::vector<std::complex<Real>> out(fft::outCount());
  const std::size_t inBytes = fft::xCount() * fft::kxElementBytes;
  const std::size_t outBytes = fft::outCount() * fft::koutElementBytes;
  try {
    // Loads the PTX on device 0 (its primary context), uploads the tables, allocates temporaries.
    fft::Kernel kernel = fft::Kernel::onDefaultDevice();
    // Device buffers of our own, run on the Kernel's context and stream (runHost does all this
    // in one call, as standalone.cpp shows).
    check(cuCtxPushCurrent(kernel.context()), "cuCtxPushCurrent");
    CUdeviceptr x = 0, y = 0;
    check(cuMemAlloc(&x, inBytes), "cuMemAlloc");
    check(cuMemAlloc(&y, outBytes), "cuMemAlloc");
    check(cuMemcpyHtoD(x, in.data(), inBytes), "cuMemcpyHtoD");
    kernel.run(x, y);  // every stage, in order, on kernel.stream()
    check(cuStreamSynchronize(kernel.stream()), "cuStreamSynchronize");
    check(cuMemcpyDtoH(out.data(), y, outBytes), "cuMemcpyDtoH");
    cuMemFree(x);
    cuMemFree(y);
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  } catch (const std::exception& e) {  // fftc_generated::Error: the call, the error's name
    std::fprintf(stderr, "standalone_cuda: %s\n", e.what());
    return 2;
  }
  return dft_check::compare<Real>(fft::kName, FFTC_FFT_SIZE, in, out);
}
