// The global transposes of a distributed FFT: which part of each rank's block goes to which rank
// between two stages (box intersections, as heFFTe's reshapes), and where the messages lie: as
// a local FFT's view (packing fused into it), as box copies on the device, or packed on the host.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fftlib/distributed/decomposition.h"
#include "fftlib/fftw_reference.h"

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

// How the messages of exchange `from` (stage from -> from+1) lie in a rank's packed buffer on
// the sending side (`send`) or the receiving one. A message is its region in row-major order,
// and the messages follow each other in rank order. When one axis goes from whole to split
// (sending side) or from split to whole (receiving side) over grid dimension g, and every other
// axis keeps its split or moves the other way, a rank's messages are its block cut along that
// axis into grid[g] parts: `axis` and `parts` say so. Else (pencil's exchange back to the input's
// blocks, where an axis moves between grid dimensions) axis is -1.
struct Stacking {
  int axis = -1;
  int parts = 1;
};
Stacking messageStacking(const Layout& layout, std::size_t from, bool send);

// Whether the messages, stacked along `axis` (Stacking) in rank order, are the block in row-major
// order itself: every axis before it has extent 1 (or the axis is the first).
bool stackIsRowMajor(const Box& box, int axis);

// The layout through which a local FFT reads or writes a block of `box` held as messages stacked
// along `stack.axis` in `stack.parts` equal parts (box.extent(axis) % parts == 0; axis -1: one
// row-major block): a view (fftw_reference.h, DataLayout) of the FFT's logical array, which is
// the block in the axis order `order` (the stage's storage order). The default layout when that
// is the block's row-major order. So the FFT's last pass writes the packed messages, and the next
// stage's first pass reads the received ones, without a copy in between.
fftlib::DataLayout stackedView(const Box& box, const std::vector<int>& order, Stacking stack);

// A box of bytes between two buffers (OpenCL's clEnqueueCopyBufferRect, CUDA's cuMemcpy3D):
// `offset` bytes into each buffer, then origin and region as {bytes, rows, slices}; a row is
// rowPitch bytes after the one before, a slice slicePitch bytes.
struct RectCopy {
  std::size_t srcOffset = 0, dstOffset = 0;
  std::array<std::size_t, 3> srcOrigin{}, dstOrigin{}, region{};
  std::size_t srcRowPitch = 0, srcSlicePitch = 0, dstRowPitch = 0, dstSlicePitch = 0;
};
// `region` (2 or 3 axes) from a row-major block of `srcBox` at byte `srcOffset` to one of `dstBox`
// at `dstOffset` (a message: dstBox = region).
RectCopy regionCopy(const Box& srcBox, std::size_t srcOffset, const Box& dstBox,
                    std::size_t dstOffset, const Box& region, std::size_t elemBytes);

}  // namespace fftc::distributed
