// The blocks a multiprocessor a CUDA kernel asks of ptxas: the shared counts and the wide prime
// radix's rule (min_blocks.h).
#include "fftlib/plan/min_blocks.h"

#include "fftlib/plan/plan_request.h"

namespace fftc::fftlib {

int64_t blocksBySharedMemory(const FftRequest& request, int64_t bytes, int64_t warps) {
  constexpr int64_t kReservedBytes = 1024;
  int64_t blocks =
      std::min((localMemoryBudget(request) + kReservedBytes) / (bytes + kReservedBytes),
               kMultiprocessorBlocks);
  if (warps > 0) blocks = std::min(blocks, kMultiprocessorWarps / warps);
  return blocks;
}

// The measures (H200, fft_bench f32, ratio to cuFFT's time, the plan's own -> the blocks this
// rule asks, `--min-blocks`; session 24, _notes gpu24-primes24; ptxas registers/spill bytes):
// 783 = [29, 9, 3] (3 warps) 2.16 -> 1.60 at 3 and 4 (223 -> 168/0, 2 -> 4 blocks; 1.56 at 5,
// 128/184, not taken), 1305 2.08 -> 1.47, 2175 2.33 -> 1.55, 841 = [29, 29] (2 warps) 1.60 ->
// 1.21 at 6, 667 = [29, 23] (4 warps) 1.18 -> 0.86 at 3, 493 = [29, 17] (5 warps) 2.21 -> 1.49
// at 2 (254 -> 168/52), 4205 = [29, 29, 5] 2.54 -> 1.61 at 2; 87 = [29, 3] (35 rows of 3,
// 4 warps) 1.93 -> 2.00 at 3 (254 -> 168/56: the one loss, within 4%). f64 2175 at 3 (193 ->
// 168/176) 1.24 -> 1.31: none in f64. Radices 17 - 23 first (289, 361, 529, 1083: estimates
// 102 - 138, 128 - 166 registers) and 29 after another (522, 1104) ask none: not measured.
int64_t widePrimeMinBlocks(int64_t threads, int64_t localBytes, const Radices& rs,
                           const FftRequest& request) {
  if (request.target != compiler::pipeline::Target::Cuda || threads < 1 || rs.empty() ||
      request.precision != Precision::F32)
    return 0;
  const int64_t first = rs.front();
  if (first <= 16 || first > kLargestDirectPrime || largestPrimeFactor(first) != first) return 0;
  const int64_t estimate = std::min<int64_t>(
      kMostRegisters, butterflyRegisters(first, request.precision, rs.size() == 1));
  if (estimate <= kThreeWarpsRegisterCap) return 0;
  const int64_t warps = (threads + 31) / 32;
  // the blocks the estimate's registers keep: a sub-partition's warps, over the block's 4 parts
  const int64_t now = std::max<int64_t>(1, 4 * subPartitionWarps(estimate) / warps);
  int64_t b = blocksBySharedMemory(request, localBytes, warps);
  while (b > now && 4 * subPartitionRegisterCap(warps, b) < 3 * estimate) --b;
  return b >= 2 && b > now ? b : 0;
}

}  // namespace fftc::fftlib
