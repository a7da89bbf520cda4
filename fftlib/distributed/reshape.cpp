// Box intersections, message views, box copies and host packing for the global transposes
// (reshape.h).
#include "fftlib/distributed/reshape.h"

#include <complex>
#include <cstring>
#include <numeric>
#include <stdexcept>

namespace fftc::distributed {
namespace {

// The element strides of a block of `box` stored row-major in `order`, indexed by global axis.
std::vector<int64_t> strides(const Box& box, const std::vector<int>& order) {
  std::vector<int64_t> s(order.size());
  int64_t step = 1;
  for (std::size_t k = order.size(); k-- > 0;) {
    s[static_cast<std::size_t>(order[k])] = step;
    step *= box.extent(static_cast<std::size_t>(order[k]));
  }
  return s;
}

int64_t offset(const Box& box, const std::vector<int64_t>& stride, const std::vector<int64_t>& x) {
  int64_t o = 0;
  for (std::size_t a = 0; a < x.size(); ++a) o += (x[a] - box.lo[a]) * stride[a];
  return o;
}

// E: a type of elemBytes bytes, so that the strided inner loop copies whole elements.
template <typename E>
void copyTyped(const std::byte* src, const Box& srcBox, const std::vector<int>& srcOrder,
               std::byte* dst, const Box& dstBox, const std::vector<int>& dstOrder,
               const Box& region) {
  const auto ss = strides(srcBox, srcOrder), ds = strides(dstBox, dstOrder);
  const auto inner = static_cast<std::size_t>(dstOrder.back());
  const int64_t run = region.extent(inner), srcStep = ss[inner];
  const E* s = reinterpret_cast<const E*>(src);
  E* d = reinterpret_cast<E*>(dst);
  // An odometer over the outer axes of dstOrder (the inner one stays at region.lo).
  std::vector<int64_t> x = region.lo;
  const std::size_t outer = dstOrder.size() - 1;
  while (true) {
    const E* from = s + offset(srcBox, ss, x);
    E* to = d + offset(dstBox, ds, x);
    if (srcStep == 1) {
      std::memcpy(to, from, static_cast<std::size_t>(run) * sizeof(E));
    } else {
      for (int64_t i = 0; i < run; ++i) to[i] = from[i * srcStep];
    }
    std::size_t k = outer;
    while (k-- > 0) {
      const auto a = static_cast<std::size_t>(dstOrder[k]);
      if (++x[a] < region.hi[a]) break;
      x[a] = region.lo[a];
    }
    if (k == static_cast<std::size_t>(-1)) return;
  }
}

}  // namespace

void copyRegion(const std::byte* src, const Box& srcBox, const std::vector<int>& srcOrder,
                std::byte* dst, const Box& dstBox, const std::vector<int>& dstOrder,
                const Box& region, std::size_t elemBytes) {
  if (region.count() == 0) return;
  struct Bytes8 { std::byte b[8]; };
  struct Bytes16 { std::byte b[16]; };
  switch (elemBytes) {
    case 8: return copyTyped<Bytes8>(src, srcBox, srcOrder, dst, dstBox, dstOrder, region);
    case 16: return copyTyped<Bytes16>(src, srcBox, srcOrder, dst, dstBox, dstOrder, region);
    case 4: return copyTyped<float>(src, srcBox, srcOrder, dst, dstBox, dstOrder, region);
    default: break;
  }
  // Any other element size: byte copies of one element at a time (not used by the FFTs).
  const auto ss = strides(srcBox, srcOrder), ds = strides(dstBox, dstOrder);
  std::vector<int64_t> x = region.lo;
  for (int64_t n = region.count(); n-- > 0;) {
    std::memcpy(dst + offset(dstBox, ds, x) * static_cast<int64_t>(elemBytes),
                src + offset(srcBox, ss, x) * static_cast<int64_t>(elemBytes), elemBytes);
    for (std::size_t k = x.size(); k-- > 0;) {
      if (++x[k] < region.hi[k]) break;
      x[k] = region.lo[k];
    }
  }
}

int64_t Exchange::sendTotal() const {
  return std::accumulate(sendCounts.begin(), sendCounts.end(), int64_t{0});
}
int64_t Exchange::recvTotal() const {
  return std::accumulate(recvCounts.begin(), recvCounts.end(), int64_t{0});
}

Exchange makeExchange(const Layout& layout, std::size_t from, int rank) {
  Exchange e;
  const int p = layout.ranks();
  const Box mineBefore = layout.box(from, rank), mineAfter = layout.box(from + 1, rank);
  int64_t sendAt = 0, recvAt = 0;
  for (int q = 0; q < p; ++q) {
    e.sendRegions.push_back(mineBefore.intersect(layout.box(from + 1, q)));
    e.recvRegions.push_back(layout.box(from, q).intersect(mineAfter));
    e.sendCounts.push_back(e.sendRegions.back().count());
    e.recvCounts.push_back(e.recvRegions.back().count());
    e.sendOffsets.push_back(sendAt);
    e.recvOffsets.push_back(recvAt);
    sendAt += e.sendCounts.back();
    recvAt += e.recvCounts.back();
  }
  return e;
}

Stacking messageStacking(const Layout& layout, std::size_t from, bool send) {
  const auto& before = layout.stages[from].split;
  const auto& after = layout.stages[from + 1].split;
  Stacking s;
  for (std::size_t a = 0; a < before.size(); ++a) {
    const int was = before[a], is = after[a];
    if (was == is) continue;
    if (was >= 0 && is >= 0) return {};  // moves between grid dimensions
    const int grid = send ? is : was;    // whole -> split (send) or split -> whole (receive)
    if (grid < 0) continue;
    if (s.axis >= 0) return {};
    s = {static_cast<int>(a), layout.grid[static_cast<std::size_t>(grid)]};
  }
  return s;
}

bool stackIsRowMajor(const Box& box, int axis) {
  for (int a = 0; a < axis; ++a)
    if (box.extent(static_cast<std::size_t>(a)) > 1) return false;
  return true;
}

fftlib::DataLayout stackedView(const Box& box, const std::vector<int>& order, Stacking stack) {
  // One message's box: the block with the stacked axis cut into `parts`.
  Box part = box;
  if (stack.axis >= 0) {
    const auto a = static_cast<std::size_t>(stack.axis);
    if (box.extent(a) % stack.parts != 0)
      throw std::logic_error("distributed: a stacked view of an uneven split");
    part.hi[a] = part.lo[a] + box.extent(a) / stack.parts;
  }
  std::vector<int> natural(box.lo.size());
  for (std::size_t a = 0; a < natural.size(); ++a) natural[a] = static_cast<int>(a);
  const auto inner = strides(part, natural);
  const bool rowMajor = order == natural && (stack.axis < 0 || stackIsRowMajor(box, stack.axis));
  fftlib::DataLayout l;
  if (rowMajor || box.count() == 0) return l;
  // The logical array is row-major over `order`; the stacked axis's index k * m + j splits into
  // the message k (outer) and j within it.
  for (int a : order) {
    const auto k = static_cast<std::size_t>(a);
    if (a == stack.axis) {
      l.viewDims.push_back(stack.parts);
      l.viewStrides.push_back(part.count());
    }
    l.viewDims.push_back(part.extent(k));
    l.viewStrides.push_back(inner[k]);
  }
  return l;
}

RectCopy regionCopy(const Box& srcBox, std::size_t srcOffset, const Box& dstBox,
                    std::size_t dstOffset, const Box& region, std::size_t elemBytes) {
  // Axes from the innermost: x (bytes), y (rows), z (slices); a 2D box has one slice.
  const std::size_t d = region.lo.size();
  auto axis = [&](const Box& b, std::size_t k, bool origin) -> std::size_t {
    if (k >= d) return origin ? 0 : 1;
    const std::size_t a = d - 1 - k;
    return static_cast<std::size_t>(origin ? region.lo[a] - b.lo[a] : b.extent(a));
  };
  RectCopy c;
  c.srcOffset = srcOffset;
  c.dstOffset = dstOffset;
  for (std::size_t k = 0; k < 3; ++k) {
    c.srcOrigin[k] = axis(srcBox, k, true) * (k == 0 ? elemBytes : 1);
    c.dstOrigin[k] = axis(dstBox, k, true) * (k == 0 ? elemBytes : 1);
    c.region[k] = (k < d ? static_cast<std::size_t>(region.extent(d - 1 - k)) : 1) *
                  (k == 0 ? elemBytes : 1);
  }
  c.srcRowPitch = axis(srcBox, 0, false) * elemBytes;
  c.srcSlicePitch = c.srcRowPitch * axis(srcBox, 1, false);
  c.dstRowPitch = axis(dstBox, 0, false) * elemBytes;
  c.dstSlicePitch = c.dstRowPitch * axis(dstBox, 1, false);
  return c;
}

}  // namespace fftc::distributed
