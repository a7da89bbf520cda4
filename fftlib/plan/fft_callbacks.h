// Load and store callbacks of an FFT plan (issue 24, FftRequest::pre/post, `fftc fft/run --pre
// FILE:NAME --post FILE:NAME`): functions written in the language, applied to every element
// before the transform and after it, fused into its first and last pass (fft_ops.h).
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <memory>
#include <vector>

namespace fftc::fftlib {

struct FftRequest;
struct PlanChoice;
struct CompiledFft;

struct FftCallback {
  // a function complex -> complex, or (complex, int) -> complex of the element and its index
  // in the transform (a def or userfun of `source`)
  std::string name;
  std::string source;  // the .fdl text that defines it
  std::string file;    // where `source` was read: imports resolve against its directory
  bool empty() const { return name.empty(); }
  bool operator==(const FftCallback&) const = default;
};

// "FILE:NAME" (the last ':' splits) -> the callback, FILE read. UserError: no ':' or no name,
// an unreadable file.
FftCallback loadCallback(const std::string& spec, const char* option);

// The callback in a request's key: its name and a hash of its source (an edited file is
// another plan).
std::string callbackKey(const FftCallback& callback);

// Whether the callback takes the element's index too: a function (complex, int) -> complex of
// (x, i), i the element's index in its transform (0 .. N-1), rather than complex -> complex.
bool takesIndex(const FftCallback& callback);

// `callback` applied to every element by the interpreter, in double precision: the reference
// `fftc run --check` computes with FFTW; the values are transforms of `transformSize` elements
// each (an indexed callback's index is the position in one). UserError when it is not complex
// -> complex or (complex, int) -> complex.
std::vector<std::complex<double>> applyCallback(const FftCallback& callback,
                                                std::span<const std::complex<double>> values,
                                                int64_t transformSize);

// The plan of a request with callbacks (compileChoice calls it): the program
//   map(fun row => map(post) <<: [scale <<:] fft <<: map(pre) <<: row) <<: x
// over the request's B rows of N, its fft expanded by the planner (expandFftOps: the
// one-kernel form when `choice` is the Local variant, the multi-pass form when it is
// hierarchical) and lowered by lowerFft. 2-D and 3-D: such a row map per dimension, last
// first, over all the lines of that dimension (views between them), `pre` in the first,
// `post` and the scaling in the last. UserError for a real or strided request, more than 3
// dimensions, or a callback that is not complex -> complex.
std::shared_ptr<const CompiledFft> compileWithCallbacks(const FftRequest& request,
                                                        const PlanChoice& choice,
                                                        const std::string& kernelName);

}  // namespace fftc::fftlib
