// The global transposes of a distributed FFT, on the host: which part of each rank's block goes
// to which rank between two stages (box intersections, as heFFTe's reshapes), and packing and
// unpacking those parts between a block's storage order and the contiguous message.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "fftlib/distributed/decomposition.h"

namespace fftc::distributed {

// Copies `region` (global coordinates, inside both boxes) from `src`, a block of `srcBox` stored
// row-major in the axis order `srcOrder` (srcOrder[0] outermost), to `dst`, a block of `dstBox`
// in `dstOrder`. A message is the block of the region itself (srcBox = region). Elements of
// `elemBytes` bytes; the innermost loop runs along dstOrder's last axis (one memcpy where both
// sides are contiguous along it).
void copyRegion(const std::byte* src, const Box& srcBox, const std::vector<int>& srcOrder,
                std::byte* dst, const Box& dstBox, const std::vector<int>& dstOrder,
                const Box& region, std::size_t elemBytes);

// One rank's side of the exchange between stage `from` and stage from+1 of `layout`: for every
// peer q, the region it sends to q (its block in `from` ∩ q's block in from+1) and the one it
// receives from q, with the messages' element counts and offsets (peer order, packed).
struct Exchange {
  std::vector<Box> sendRegions, recvRegions;
  std::vector<int64_t> sendCounts, sendOffsets, recvCounts, recvOffsets;
  [[nodiscard]] int64_t sendTotal() const;
  [[nodiscard]] int64_t recvTotal() const;
};
Exchange makeExchange(const Layout& layout, std::size_t from, int rank);

}  // namespace fftc::distributed
