// An FFT embedded with nothing of fftc but the header it writes (docs/cli.md, "NAME.hpp"):
//
//   fftc fft --size 4096 --batch 8 -o DIR
//   c++ -std=c++17 -I DIR examples/embed/standalone.cpp -lOpenCL && ./a.out
//
// runs the header's Kernel on the default OpenCL device and compares its output with a DFT
// computed here (dft_check.h): exit 0 when they agree, 1 when not, 2 on an error (on stderr).
// Another header of `fftc fft`: add -DFFTC_FFT=fft_65536_f64 -DFFTC_FFT_SIZE=65536 (the
// kernel's name and the transform's length; the batch follows from the buffer's count).
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
// The header's element: two floats (f32, 8 bytes) or two doubles (f64).
using Real = std::conditional_t<fft::kxElementBytes == 8, float, double>;

int main() {
  const std::vector<std::complex<Real>> in = dft_check::input<Real>(fft::xCount());
  std::vector<std::complex<Real>> out(fft::outCount());
  try {
    // Builds the kernels for the default device, uploads the tables, allocates temporaries.
    fft::Kernel kernel = fft::Kernel::onDefaultDevice();
    kernel.runHost(in.data(), out.data());  // copies in, runs every stage, copies out
  } catch (const std::exception& e) {  // fftc_generated::Error: the call, the error's name
    std::fprintf(stderr, "standalone: %s\n", e.what());
    return 2;
  }
  return dft_check::compare<Real>(fft::kName, FFTC_FFT_SIZE, in, out);
}
