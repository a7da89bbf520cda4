// Shared by the CUDA FFT plan tests: the spread of requests they plan for Target::Cuda
// (sizes, variants, precisions, directions), named for GoogleTest.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "fftlib/plan/planner.h"

namespace fftc::fftlib::cuda_test {

struct Case {
  FftRequest request;
  std::string label;
};

inline void PrintTo(const Case& c, std::ostream* os) {
  *os << c.label;
}

inline Case cudaCase(int64_t n, int64_t batch, Variant v = Variant::Auto,
                     Precision p = Precision::F32, Direction d = Direction::Forward,
                     bool scale = false) {
  Case c;
  c.request.size = n;
  c.request.batch = batch;
  c.request.variant = v;
  c.request.precision = p;
  c.request.direction = d;
  c.request.scale = scale;
  c.request.target = compiler::pipeline::Target::Cuda;
  c.request.format = false;
  std::string name = variantName(v);
  for (char& ch : name)
    if (ch == '-') ch = '_';
  c.label = "N" + std::to_string(n) + "_B" + std::to_string(batch) + "_" + name + "_" +
            precisionName(p) + (d == Direction::Inverse ? "_inv" : "") + (scale ? "_scaled" : "");
  return c;
}

// The H100's opt-in shared memory per block (227 KiB): the budget of the dynamic shared memory
// cases (FftRequest::localMemoryBytes).
inline constexpr int64_t kH100SharedBytes = 232448;

inline Case withLocalMemory(Case c, int64_t bytes) {
  c.request.localMemoryBytes = bytes;
  c.label += "_local" + std::to_string(bytes);
  return c;
}

// Powers of two, 3-5-7-smooth sizes, primes (Bluestein), 11^3 and 2^9·13; every variant the planner
// offers by name; f64; inverse with scaling; N = 1; one-kernel FFTs beyond 48 KiB of shared memory
// (dynamic shared memory: 4096 and 8192 f32, 4096 f64 inverse; in one local array, whose
// passes read, wait at a barrier and write: 16384 f32, 8192 f64); two levels of tiles of
// several columns beyond 48 KiB (f64 2^20 inverse).
inline std::vector<Case> planSpread() {
  std::vector<Case> out;
  for (int64_t n : {1, 2, 8, 64, 1000, 4096, 16384, 60, 343, 625}) out.push_back(cudaCase(n, 3));
  for (int64_t n : {23, 257}) out.push_back(cudaCase(n, 2));  // Bluestein
  for (int64_t n : {17, 19 * 64}) out.push_back(cudaCase(n, 2));  // a prime radix (kLargestDirectPrime)
  for (int64_t n : {1331, 6656}) out.push_back(cudaCase(n, 2));  // radices 11 and 13 (issue 23)
  out.push_back(cudaCase(31 * 32, 2));  // a Rader radix (common.fdl raderDft, issue 23)
  out.push_back(cudaCase(61 * 8, 2, Variant::Auto, Precision::F64, Direction::Inverse, true));
  out.push_back(cudaCase(64, 4, Variant::StockhamTwiddle));
  out.push_back(cudaCase(64, 4, Variant::CooleyTukey));
  out.push_back(cudaCase(1024, 2, Variant::Hierarchical));
  out.push_back(cudaCase(1024, 2, Variant::Stockham, Precision::F64));
  out.push_back(cudaCase(100, 2, Variant::Auto, Precision::F64, Direction::Inverse, true));
  out.push_back(cudaCase(128, 5, Variant::Auto, Precision::F32, Direction::Inverse));
  out.push_back(cudaCase(8192, 2));  // the device's budget on a GPU (CudaPlan), else 48 KiB
  out.push_back(withLocalMemory(cudaCase(4096, 2), kH100SharedBytes));
  out.push_back(withLocalMemory(cudaCase(8192, 2), kH100SharedBytes));
  out.push_back(withLocalMemory(
      cudaCase(4096, 2, Variant::Auto, Precision::F64, Direction::Inverse, true), kH100SharedBytes));
  out.push_back(withLocalMemory(cudaCase(16384, 2), kH100SharedBytes));
  out.push_back(
      withLocalMemory(cudaCase(8192, 2, Variant::Auto, Precision::F64), kH100SharedBytes));
  // a direct radix 29 first, asked 4 blocks a multiprocessor (widePrimeMinBlocks): 783
  out.push_back(withLocalMemory(cudaCase(783, 3), kH100SharedBytes));
  // Rader passes (common.fdl raderStockPass): 2384 = [149, 16] (148 = [4, 37]), f64 2961
  out.push_back(withLocalMemory(cudaCase(2384, 2), kH100SharedBytes));
  out.push_back(
      withLocalMemory(cudaCase(2961, 2, Variant::Auto, Precision::F64, Direction::Inverse, true),
                      kH100SharedBytes));
  // two levels of tiles of several columns beyond 48 KiB (f64 2^20: both stages 64 KiB)
  out.push_back(withLocalMemory(
      cudaCase(int64_t{1} << 20, 1, Variant::Auto, Precision::F64, Direction::Inverse, true),
      kH100SharedBytes));
  return out;
}

}  // namespace fftc::fftlib::cuda_test
