// The blocks a multiprocessor a CUDA kernel asks of ptxas (__launch_bounds__(T, blocks),
// LocalChoice::minBlocksPerSm / RaderPassChoice's): the register and shared-memory counts of
// sm_90 the three rules share, and the rule of a direct prime radix above 16 first
// (widePrimeMinBlocks). The other two keep their own files: raderPassMinBlocks
// (rader_radices.cpp, plan_choice.h) and loopedMinBlocks (plan_heuristics.cpp).
//
// Two register models live here. ptxas sm_90 caps a thread by a multiprocessor's four
// sub-partitions (subPartitionRegisterCap; measured, bench/results/
// 2026-11-30-sm90-primes24-min_blocks.csv), which widePrimeMinBlocks uses. raderPassMinBlocks
// and loopedMinBlocks were measured (sessions 23, 24) with the older multiprocessor-wide model
// (multiprocessorRegisterCap / multiprocessorRegisterBlocks: 64 K registers over the block's
// warps), which overstates the registers where a block's warps do not split evenly over the
// four sub-partitions. Switching those two to the sub-partition model is the known next step;
// it changes plans that were not measured with it, so they keep the older model until they are.
#pragma once

#include <algorithm>
#include <cstdint>

#include "fftlib/plan/plan_choice.h"

namespace fftc::fftlib {

// sm_90: 16 K registers a sub-partition, four a multiprocessor; at most 64 warps and 32 blocks
// resident on one; at most 255 registers a thread.
inline constexpr int64_t kSubPartitionRegisters = 16384;
inline constexpr int64_t kMultiprocessorRegisters = 4 * kSubPartitionRegisters;
inline constexpr int64_t kMultiprocessorWarps = 64;
inline constexpr int64_t kMultiprocessorBlocks = 32;
inline constexpr int64_t kMostRegisters = 255;

// The registers a thread of `registers` is given: a warp's come 256 at a time, a multiple of 8
// a thread.
constexpr int64_t allocatedRegisters(int64_t registers) {
  return (registers + 7) / 8 * 8;
}

// The registers ptxas leaves a thread where `warps` warps share one sub-partition.
constexpr int64_t subPartitionWarpsRegisterCap(int64_t warps) {
  return std::min<int64_t>(kMostRegisters, kSubPartitionRegisters / (32 * warps) / 8 * 8);
}

// The registers ptxas (sm_90) leaves a thread of `warps`-warp blocks asked `blocks` a
// multiprocessor (__launch_bounds__(T, blocks)): a multiprocessor's four sub-partitions hold
// 16 K registers each, its warps spread over them, 256 registers a warp at a time; at most
// 255. ptxas sm_90 (bench/results/2026-11-30-sm90-primes24-min_blocks.csv): f32 783 (3 warps)
// 168 at 3 and 4 blocks, 128 at 5; 841 (2 warps) uncapped (223) at 3 and 4, 168 at 5 and 6;
// 529 (4 warps) 128 at 4.
constexpr int64_t subPartitionRegisterCap(int64_t warps, int64_t blocks) {
  return subPartitionWarpsRegisterCap((blocks * warps + 3) / 4);
}

// The warps of `registers` registers a thread one sub-partition holds.
constexpr int64_t subPartitionWarps(int64_t registers) {
  return kSubPartitionRegisters / (32 * allocatedRegisters(registers));
}

// The cap of three warps a sub-partition (12 warps a multiprocessor): 168 registers.
inline constexpr int64_t kThreeWarpsRegisterCap = subPartitionWarpsRegisterCap(3);
static_assert(kThreeWarpsRegisterCap == 168);

// The multiprocessor-wide model (raderPassMinBlocks, loopedMinBlocks; see above): the registers
// a thread of `warps`-warp blocks keeps at `blocks` a multiprocessor, and the blocks of
// `warps`-warp threads of `registers` registers a multiprocessor holds.
constexpr int64_t multiprocessorRegisterCap(int64_t warps, int64_t blocks) {
  return std::min<int64_t>(kMostRegisters,
                           kMultiprocessorRegisters / (32 * warps * blocks) / 8 * 8);
}
constexpr int64_t multiprocessorRegisterBlocks(int64_t warps, int64_t registers) {
  return kMultiprocessorRegisters / (32 * warps * allocatedRegisters(registers));
}

// The blocks of `bytes` of shared memory each (and 1 KiB the system reserves a block) that the
// request's budget (localMemoryBudget) holds, at most 32; with `warps` > 0 also at most the
// blocks of that many warps 64 warps hold.
int64_t blocksBySharedMemory(const FftRequest& request, int64_t bytes, int64_t warps = 0);

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
