// The -D bindings each examples/*.fdl program is tested with, shared by the OpenCL
// (tests/codegen) and CUDA (tests/cuda_codegen) example suites, which both fail when a file in
// examples/ has no row here.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace fftc::testing {

struct ExampleBinding {
  std::string file;
  std::map<std::string, int64_t> defines;  // -D bindings (also the size arguments)
  // Kernels written with high-level patterns: the default lowering must rewrite them.
  std::set<std::string> highLevel = {};
  // Kernels with fft/ifft (docs/language.md, "The FFT"): they are compiled by fftlib's
  // expansion (fftc compile/exec), so the generic example suites leave them to
  // tests/cli/fft_ops_cli_test.cpp (exec --check on PoCL) and tests/fftplan/fft_ops_test.cpp.
  bool fftOps = false;
  // Kernels of the CUDA target only (mapCluster: thread-block clusters): the OpenCL suite
  // leaves them to the CUDA one and to tests/codegen/cluster_test.cpp.
  bool cudaOnly = false;
};

inline const std::vector<ExampleBinding>& exampleBindings() {
  static const std::vector<ExampleBinding> rows = {
      {"dot.fdl", {{"N", 64}}, {"dot"}},
      {"matvec.fdl", {{"N", 8}, {"K", 16}}, {"matvec"}},
      {"stockham.fdl", {}, {"fft"}},  // its kernel bitrev is only a permutation: a copy
      {"dot_lowlevel.fdl", {{"N", 256}}},
      {"matvec_lowlevel.fdl", {{"N", 24}, {"K", 40}}},
      {"gemm.fdl", {{"M", 8}, {"K", 12}, {"N", 16}}, {"gemm"}},
      {"gemm_naive.fdl", {{"M", 8}, {"K", 12}, {"N", 16}}},
      {"gemm_tiled.fdl", {{"M", 8}, {"K", 12}, {"N", 16}}},
      {"stencil1d.fdl", {{"N", 37}}},
      {"stencil2d.fdl", {{"H", 9}, {"W", 13}}, {"stencil2dCross"}},
      {"transpose_local.fdl", {{"H", 8}, {"W", 12}}},
      {"vectors.fdl", {{"N", 64}, {"H", 4}, {"W", 16}}},
      {"stockham_pass_lowlevel.fdl", {{"R", 2}, {"L", 8}, {"N", 64}}},
      {"stockham_pass.fdl", {{"R", 4}, {"L", 16}, {"N", 64}}, {"pass"}},
      {"stockham_lowlevel.fdl", {}},
      {"userfun.fdl", {{"N", 33}}, {"saxpy", "softplusMap", "power", "distances"}},
      {"convolution.fdl", {{"N", 64}, {"B", 3}}, {}, true},
      {"stft.fdl", {{"N", 64}, {"H", 32}, {"L", 512}}, {}, true},
      {"conv2d.fdl", {{"M", 4}, {"N", 8}}, {}, true},
      {"conv2d_padded.fdl", {{"M", 4}, {"N", 8}}, {}, true},
      {"callbacks.fdl", {{"N", 64}, {"B", 2}}, {}, true},
      {"cluster.fdl", {{"N", 256}, {"B", 3}}, {}, false, true},
  };
  return rows;
}

}  // namespace fftc::testing
