// The blocks a multiprocessor a CUDA one-kernel plan with a direct prime radix above 16 first
// asks of ptxas (issue 23, session 24; rader_radices.cpp). raderPassMinBlocks (plan_choice.h)
// is the Rader pass's.
#pragma once

#include <cstdint>

#include "fftlib/plan/plan_choice.h"

namespace fftc::fftlib {

// The registers ptxas (sm_90) leaves a thread of `warps`-warp blocks asked `blocks` a
// multiprocessor (__launch_bounds__(T, blocks)): a multiprocessor's four sub-partitions hold
// 16 K registers each, its warps spread over them, 256 registers a warp at a time; at most
// 255. ptxas sm_90 (bench/results/2026-11-30-sm90-primes24-min_blocks.csv): f32 783 (3 warps)
// 168 at 3 and 4 blocks, 128 at 5; 841 (2 warps) uncapped (223) at 3 and 4, 168 at 5 and 6;
// 529 (4 warps) 128 at 4.
int64_t subPartitionRegisterCap(int64_t warps, int64_t blocks);

// The blocks a multiprocessor a CUDA Local plan (not a Rader pass, not looped) asks of ptxas
// (LocalChoice::minBlocksPerSm, __launch_bounds__' second argument; 0: none) where its first
// pass is a direct prime radix (symDft: 17 .. kLargestDirectPrime) whose butterfly's estimate
// (butterflyRegisters, f32) exceeds the 168 registers of three warps a sub-partition: the most
// blocks that shared memory (`localBytes` a block + 1 KiB) and 64 warps allow whose cap
// (subPartitionRegisterCap) keeps 3/4 of the estimate, where that is more than the estimate's
// own blocks (its registers' warps a sub-partition, over the block's warps). f32 only: f64
// 2175 lost (see the .cpp for the measures).
int64_t widePrimeMinBlocks(int64_t threads, int64_t localBytes, const Radices& rs,
                           const FftRequest& request);

}  // namespace fftc::fftlib
