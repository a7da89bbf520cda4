// Box intersections and host packing for the global transposes (reshape.h).
#include "fftlib/distributed/reshape.h"

#include <complex>
#include <cstring>
#include <numeric>

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

}  // namespace fftc::distributed
