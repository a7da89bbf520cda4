// What the docs' code fragments take from the text around them (tests/docs/CMakeLists.txt):
// per document, the names a fragment uses without declaring, declared before its body.
#pragma once

#include <fmt/format.h>

#include <complex>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "backends/opencl/runtime.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/tune/fft_wisdom.h"
#include "tuner/progress.h"
#include "tuner/search_space.h"
#include "tuner/search_technique.h"
#include "tuner/tuner.h"
#include "tuner/tuning_log.h"
#include "tuner/wisdom.h"

// A fragment may declare a name of the prelude again (the first block of fft-api.md makes its
// own `context` and `request`) and leave some unused, as documentation does.
#pragma GCC diagnostic ignored "-Wshadow"
#pragma GCC diagnostic ignored "-Wunused-variable"
#pragma GCC diagnostic ignored "-Wunused-but-set-variable"

// docs/fft-api.md: the host data of the API's examples, the context and request of the first
// block, and the `using namespace fftc::fftlib` it opens with.
#define FFTC_DOC_PRELUDE_docs_fft_api_md                                        \
  using namespace fftc::fftlib;                                                 \
  std::vector<std::complex<float>> hostInput(4096 * 64);                        \
  fftc::backends::opencl::Context context =                                     \
      fftc::backends::opencl::Context::fromSelector("");                        \
  FftRequest request;

// docs/tuner.md: what "A complete example" leaves to the reader: the device, driver, build and
// problem names, the wisdom file, the error tolerance, and a plan builder with the methods the
// example calls (buildPlan stands for the user's own code).
namespace fftc::docs {
struct TunerExamplePlan {
  bool compiles() const { return true; }
  std::string log() const { return {}; }
  double error() const { return 0; }
  double medianMs() const { return 1; }
  double gbps() const { return 1; }
};
}  // namespace fftc::docs
#define FFTC_DOC_PRELUDE_docs_tuner_md                                            \
  std::string device = "pthread", driver = "PoCL", build = "fftc", problem = "fft"; \
  std::filesystem::path path = "wisdom.json";                                     \
  double tolerance = 1e-5;                                                        \
  auto buildPlan = [](const fftc::tuner::Configuration&) {                        \
    return fftc::docs::TunerExamplePlan{};                                        \
  };
