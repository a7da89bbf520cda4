// Slab and pencil decompositions (fftlib/distributed/decomposition.h) and the global transposes
// between their stages (reshape.h), with every rank simulated in one process: each stage's
// blocks tile the global array exactly once, and an exchange leaves every rank holding its next
// block in that stage's storage order (values = global indices, so a misplaced element shows).
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "backends/common/device_error.h"
#include "fftlib/distributed/decomposition.h"
#include "fftlib/distributed/reshape.h"

namespace fftc::distributed::test {
namespace {

using Dims = std::vector<int64_t>;

TEST(SplitRange, BalancedHandChecked) {
  // 10 over 4: 3, 3, 2, 2; 3 over 4: 1, 1, 1, 0
  EXPECT_EQ(splitRange(10, 4, 0), (std::pair<int64_t, int64_t>{0, 3}));
  EXPECT_EQ(splitRange(10, 4, 1), (std::pair<int64_t, int64_t>{3, 6}));
  EXPECT_EQ(splitRange(10, 4, 2), (std::pair<int64_t, int64_t>{6, 8}));
  EXPECT_EQ(splitRange(10, 4, 3), (std::pair<int64_t, int64_t>{8, 10}));
  EXPECT_EQ(splitRange(3, 4, 3), (std::pair<int64_t, int64_t>{3, 3}));
}

TEST(PencilGrid, NearSquare) {
  EXPECT_EQ(pencilGrid(4), (std::vector<int>{2, 2}));
  EXPECT_EQ(pencilGrid(6), (std::vector<int>{2, 3}));
  EXPECT_EQ(pencilGrid(7), (std::vector<int>{1, 7}));
  EXPECT_EQ(pencilGrid(8), (std::vector<int>{2, 4}));
}

TEST(MakeLayout, StagesHandChecked) {
  const Layout slab = makeLayout({8, 6, 5}, Decomposition::Slab, 2, {}, false,
                                 OutputDistribution::Transposed);
  ASSERT_EQ(slab.stages.size(), 2u);
  EXPECT_EQ(slab.stages[0].fftAxes, (std::vector<int>{1, 2}));
  EXPECT_EQ(slab.stages[1].fftAxes, (std::vector<int>{0}));
  EXPECT_EQ(slab.stages[1].storageOrder(), (std::vector<int>{1, 2, 0}));
  EXPECT_EQ(slab.box(0, 1).text(), "[4,8)x[0,6)x[0,5)");
  EXPECT_EQ(slab.box(1, 1).text(), "[0,8)x[3,6)x[0,5)");
  // The inverse with the transposed output starts where the forward ends.
  const Layout inv = makeLayout({8, 6, 5}, Decomposition::Slab, 2, {}, true,
                                OutputDistribution::Transposed);
  EXPECT_EQ(inv.box(0, 1), slab.box(1, 1));
  EXPECT_EQ(inv.box(1, 1), slab.box(0, 1));
  const Layout pencil = makeLayout({7, 5, 3}, Decomposition::Pencil, 4, {}, false,
                                   OutputDistribution::SameAsInput);
  ASSERT_EQ(pencil.stages.size(), 4u);  // z, y, x pencils, then back to z
  EXPECT_EQ(pencil.box(0, 3).text(), "[4,7)x[3,5)x[0,3)");  // rank 3 = (1, 1)
  EXPECT_EQ(pencil.box(1, 3).text(), "[4,7)x[0,5)x[2,3)");
  EXPECT_EQ(pencil.box(2, 3).text(), "[0,7)x[3,5)x[2,3)");
  EXPECT_EQ(pencil.box(3, 3), pencil.box(0, 3));
  EXPECT_TRUE(pencil.stages[3].fftAxes.empty());
}

TEST(MakeLayout, RejectsBadRequests) {
  EXPECT_THROW((void)makeLayout({8, 8}, Decomposition::Pencil, 4, {}, false,
                                OutputDistribution::Transposed),
               backends::UserError);
  EXPECT_THROW((void)makeLayout({8, 8, 8}, Decomposition::Pencil, 4, {3, 2}, false,
                                OutputDistribution::Transposed),
               backends::UserError);
  EXPECT_THROW((void)makeLayout({64}, Decomposition::Slab, 2, {}, false,
                                OutputDistribution::Transposed),
               backends::UserError);
  EXPECT_THROW((void)parseDecomposition("brick"), backends::UserError);
}

struct Case {
  Dims dims;
  Decomposition decomposition;
  int ranks;
  bool inverse;
  OutputDistribution output;
};

// Every stage's blocks cover each global element exactly once.
void expectTiling(const Layout& l) {
  const int64_t total = std::accumulate(l.dims.begin(), l.dims.end(), int64_t{1},
                                        std::multiplies<>());
  for (std::size_t s = 0; s < l.stages.size(); ++s) {
    std::vector<int> seen(static_cast<std::size_t>(total), 0);
    for (int r = 0; r < l.ranks(); ++r) {
      const Box b = l.box(s, r);
      if (b.count() == 0) continue;
      std::vector<int64_t> x = b.lo;
      for (int64_t n = 0; n < b.count(); ++n) {
        int64_t flat = 0;
        for (std::size_t a = 0; a < x.size(); ++a) flat = flat * l.dims[a] + x[a];
        ++seen[static_cast<std::size_t>(flat)];
        for (std::size_t a = x.size(); a-- > 0;) {
          if (++x[a] < b.hi[a]) break;
          x[a] = b.lo[a];
        }
      }
    }
    for (int c : seen) ASSERT_EQ(c, 1) << "stage " << s;
  }
}

// The block of `box` of the global index array, stored in `order`.
std::vector<int64_t> blockValues(const Dims& dims, const Box& box, const std::vector<int>& order) {
  std::vector<int64_t> global(static_cast<std::size_t>(
      std::accumulate(dims.begin(), dims.end(), int64_t{1}, std::multiplies<>())));
  std::iota(global.begin(), global.end(), 0);
  std::vector<int64_t> out(static_cast<std::size_t>(box.count()));
  std::vector<int> natural(dims.size());
  std::iota(natural.begin(), natural.end(), 0);
  const Box all{Dims(dims.size(), 0), dims};
  copyRegion(reinterpret_cast<const std::byte*>(global.data()), all, natural,
             reinterpret_cast<std::byte*>(out.data()), box, order, box, sizeof(int64_t));
  return out;
}

// Simulates stage s -> s+1 for all ranks: pack, concatenate as MPI_Alltoallv would, unpack.
void expectExchange(const Layout& l, std::size_t s) {
  const int p = l.ranks();
  const auto before = l.stages[s].storageOrder(), after = l.stages[s + 1].storageOrder();
  std::vector<Exchange> ex;
  std::vector<std::vector<int64_t>> sendBufs;
  for (int r = 0; r < p; ++r) {
    ex.push_back(makeExchange(l, s, r));
    const auto block = blockValues(l.dims, l.box(s, r), before);
    std::vector<int64_t> send(static_cast<std::size_t>(ex[r].sendTotal()));
    for (int q = 0; q < p; ++q)
      copyRegion(reinterpret_cast<const std::byte*>(block.data()), l.box(s, r), before,
                 reinterpret_cast<std::byte*>(send.data() + ex[r].sendOffsets[q]),
                 ex[r].sendRegions[q], before, ex[r].sendRegions[q], sizeof(int64_t));
    sendBufs.push_back(std::move(send));
  }
  for (int r = 0; r < p; ++r) {
    std::vector<int64_t> got(static_cast<std::size_t>(l.box(s + 1, r).count()), -1);
    for (int q = 0; q < p; ++q) {
      ASSERT_EQ(ex[q].sendCounts[r], ex[r].recvCounts[q]);
      copyRegion(reinterpret_cast<const std::byte*>(sendBufs[q].data() + ex[q].sendOffsets[r]),
                 ex[r].recvRegions[q], before, reinterpret_cast<std::byte*>(got.data()),
                 l.box(s + 1, r), after, ex[r].recvRegions[q], sizeof(int64_t));
    }
    EXPECT_EQ(got, blockValues(l.dims, l.box(s + 1, r), after)) << "rank " << r << " stage " << s;
  }
}

TEST(Reshape, EveryStageTilesAndEveryExchangeDelivers) {
  const std::vector<Case> cases = {
      {{8, 6}, Decomposition::Slab, 2, false, OutputDistribution::Transposed},
      {{7, 5}, Decomposition::Slab, 4, true, OutputDistribution::Transposed},
      {{9, 10, 7}, Decomposition::Slab, 4, false, OutputDistribution::SameAsInput},
      {{3, 5, 7}, Decomposition::Slab, 4, false, OutputDistribution::Transposed},  // empty slab
      {{7, 5, 3}, Decomposition::Pencil, 4, false, OutputDistribution::SameAsInput},
      {{11, 13, 5}, Decomposition::Pencil, 6, true, OutputDistribution::Transposed},
      {{2, 3, 2}, Decomposition::Pencil, 8, false, OutputDistribution::Transposed},
  };
  for (const auto& c : cases) {
    const Layout l = makeLayout(c.dims, c.decomposition, c.ranks, {}, c.inverse, c.output);
    SCOPED_TRACE(::testing::Message() << decompositionName(c.decomposition) << " P=" << c.ranks
                                      << " dims " << c.dims.size());
    expectTiling(l);
    for (std::size_t s = 0; s + 1 < l.stages.size(); ++s) expectExchange(l, s);
  }
}

TEST(MessageStacking, HandChecked) {
  const Layout slab = makeLayout({8, 6, 5}, Decomposition::Slab, 2, {}, false,
                                 OutputDistribution::Transposed);
  // Forward slab: a rank's messages cut its block along axis 1; it receives them along axis 0.
  EXPECT_EQ(messageStacking(slab, 0, true).axis, 1);
  EXPECT_EQ(messageStacking(slab, 0, true).parts, 2);
  EXPECT_EQ(messageStacking(slab, 0, false).axis, 0);
  const Layout pencil = makeLayout({7, 5, 3}, Decomposition::Pencil, 6, {2, 3}, false,
                                   OutputDistribution::SameAsInput);
  // z -> y pencils within a grid row (3 ranks): sent along axis 2, received along axis 1.
  EXPECT_EQ(messageStacking(pencil, 0, true).axis, 2);
  EXPECT_EQ(messageStacking(pencil, 0, true).parts, 3);
  EXPECT_EQ(messageStacking(pencil, 0, false).axis, 1);
  // y -> x pencils within a grid column (2 ranks).
  EXPECT_EQ(messageStacking(pencil, 1, false).axis, 0);
  EXPECT_EQ(messageStacking(pencil, 1, false).parts, 2);
  // Back to z pencils: axis 1 moves between grid dimensions, no single cut.
  EXPECT_EQ(messageStacking(pencil, 2, true).axis, -1);
  EXPECT_EQ(messageStacking(pencil, 2, false).axis, -1);
}

// Element e of a view's logical array lies at Σ digit_d · stride_d (codegen's BufferLayout).
int64_t viewAddress(const fftlib::DataLayout& v, int64_t e) {
  int64_t at = 0;
  for (std::size_t d = v.viewDims.size(); d-- > 0;) {
    at += (e % v.viewDims[d]) * v.viewStrides[d];
    e /= v.viewDims[d];
  }
  return at;
}

// A RectCopy done on the host, byte by byte, as OpenCL and CUDA would.
void applyRect(const std::byte* src, std::byte* dst, const RectCopy& c) {
  for (std::size_t z = 0; z < c.region[2]; ++z)
    for (std::size_t y = 0; y < c.region[1]; ++y)
      std::memcpy(dst + c.dstOffset + (c.dstOrigin[2] + z) * c.dstSlicePitch +
                      (c.dstOrigin[1] + y) * c.dstRowPitch + c.dstOrigin[0],
                  src + c.srcOffset + (c.srcOrigin[2] + z) * c.srcSlicePitch +
                      (c.srcOrigin[1] + y) * c.srcRowPitch + c.srcOrigin[0],
                  c.region[0]);
}

// For every rank and exchange: the packed messages (each region row-major, in rank order) made
// by box copies (regionCopy) from the row-major block; where they are the block cut into equal
// parts, the sending FFT's view (stackedView over its storage order) puts every element where
// the messages have it, and the receiving FFT's view reads every element of its block from
// where the received messages have it. Values are global indices.
void expectStackedViews(const Layout& l, std::size_t s) {
  const int p = l.ranks();
  const auto before = l.stages[s].storageOrder(), after = l.stages[s + 1].storageOrder();
  std::vector<int> natural(l.dims.size());
  std::iota(natural.begin(), natural.end(), 0);
  const std::size_t eb = sizeof(int64_t);
  std::vector<std::vector<int64_t>> sendBufs;
  std::vector<Exchange> ex;
  for (int r = 0; r < p; ++r) {
    ex.push_back(makeExchange(l, s, r));
    const Box mine = l.box(s, r);
    const auto block = blockValues(l.dims, mine, natural);
    std::vector<int64_t> send(static_cast<std::size_t>(ex[r].sendTotal()), -1);
    for (int q = 0; q < p; ++q)
      if (ex[r].sendCounts[q] > 0)
        applyRect(reinterpret_cast<const std::byte*>(block.data()),
                  reinterpret_cast<std::byte*>(send.data()),
                  regionCopy(mine, 0, ex[r].sendRegions[q],
                             static_cast<std::size_t>(ex[r].sendOffsets[q]) * eb,
                             ex[r].sendRegions[q], eb));
    // The message to q is its region of the global array, row-major.
    for (int q = 0; q < p; ++q) {
      const auto want = blockValues(l.dims, ex[r].sendRegions[q], natural);
      ASSERT_TRUE(std::equal(want.begin(), want.end(), send.begin() + ex[r].sendOffsets[q]))
          << "rank " << r << " to " << q;
    }
    const Stacking st = messageStacking(l, s, true);
    if (st.axis >= 0 && mine.extent(static_cast<std::size_t>(st.axis)) % st.parts == 0) {
      const auto view = stackedView(mine, before, st);
      const auto logical = blockValues(l.dims, mine, before);
      for (std::size_t e = 0; e < logical.size(); ++e)
        ASSERT_EQ(send[static_cast<std::size_t>(
                      view.isView() ? viewAddress(view, static_cast<int64_t>(e))
                                    : static_cast<int64_t>(e))],
                  logical[e])
            << "rank " << r << " sends element " << e;
    }
    sendBufs.push_back(std::move(send));
  }
  for (int r = 0; r < p; ++r) {
    const Box next = l.box(s + 1, r);
    std::vector<int64_t> recv;
    for (int q = 0; q < p; ++q)
      recv.insert(recv.end(), sendBufs[q].begin() + ex[q].sendOffsets[r],
                  sendBufs[q].begin() + ex[q].sendOffsets[r] + ex[q].sendCounts[r]);
    std::vector<int64_t> unpacked(static_cast<std::size_t>(next.count()), -1);
    for (int q = 0; q < p; ++q)
      if (ex[r].recvCounts[q] > 0)
        applyRect(reinterpret_cast<const std::byte*>(recv.data()),
                  reinterpret_cast<std::byte*>(unpacked.data()),
                  regionCopy(ex[r].recvRegions[q],
                             static_cast<std::size_t>(ex[r].recvOffsets[q]) * eb, next, 0,
                             ex[r].recvRegions[q], eb));
    ASSERT_EQ(unpacked, blockValues(l.dims, next, natural)) << "rank " << r << " unpacks";
    const Stacking st = messageStacking(l, s, false);
    if (st.axis >= 0 && next.extent(static_cast<std::size_t>(st.axis)) % st.parts == 0) {
      const auto view = stackedView(next, after, st);
      const auto logical = blockValues(l.dims, next, after);
      for (std::size_t e = 0; e < logical.size(); ++e)
        ASSERT_EQ(recv[static_cast<std::size_t>(
                      view.isView() ? viewAddress(view, static_cast<int64_t>(e))
                                    : static_cast<int64_t>(e))],
                  logical[e])
            << "rank " << r << " reads element " << e;
    }
  }
}

TEST(Reshape, StackedViewsAndBoxCopiesPlaceEveryElement) {
  const std::vector<Case> cases = {
      {{8, 6}, Decomposition::Slab, 2, false, OutputDistribution::Transposed},
      {{6, 8, 4}, Decomposition::Slab, 2, true, OutputDistribution::SameAsInput},
      {{9, 10, 7}, Decomposition::Slab, 4, false, OutputDistribution::SameAsInput},  // uneven
      {{8, 6, 4}, Decomposition::Pencil, 4, false, OutputDistribution::SameAsInput},
      {{6, 4, 9}, Decomposition::Pencil, 6, true, OutputDistribution::Transposed},
      {{7, 5, 3}, Decomposition::Pencil, 4, false, OutputDistribution::Transposed},  // uneven
  };
  for (const auto& c : cases) {
    const Layout l = makeLayout(c.dims, c.decomposition, c.ranks, {}, c.inverse, c.output);
    SCOPED_TRACE(::testing::Message() << decompositionName(c.decomposition) << " P=" << c.ranks
                                      << " dims " << c.dims[0] << "x" << c.dims[1]);
    for (std::size_t s = 0; s + 1 < l.stages.size(); ++s) expectStackedViews(l, s);
  }
}

// The view of a block stored whole (no stacking) in its storage order: the pencil's y stage
// [0,2)x[0,3)x[0,4) read as (x0, x2 | x1), hand-computed strides 12, 1, 4.
TEST(StackedView, PermutedBlockHandChecked) {
  const Box b{{0, 0, 0}, {2, 3, 4}};
  const auto v = stackedView(b, {0, 2, 1}, {});
  EXPECT_EQ(v.viewDims, (Dims{2, 4, 3}));
  EXPECT_EQ(v.viewStrides, (Dims{12, 1, 4}));
  EXPECT_TRUE(stackedView(b, {0, 1, 2}, {}).isDefault());
  // Cut along axis 1 into 3 parts of 1: part k at 8k, within it x0 stride 4, x2 stride 1.
  const auto w = stackedView(b, {0, 1, 2}, Stacking{1, 3});
  EXPECT_EQ(w.viewDims, (Dims{2, 3, 1, 4}));
  EXPECT_EQ(w.viewStrides, (Dims{4, 8, 4, 1}));
}

// A copy that permutes the storage order, checked element by element by hand: the 2x3 block
// [[0,1,2],[3,4,5]] read in order (1, 0) is its transpose.
TEST(CopyRegion, PermutesHandChecked) {
  const Box b{{0, 0}, {2, 3}};
  const std::vector<int64_t> src = {0, 1, 2, 3, 4, 5};
  std::vector<int64_t> dst(6, -1);
  copyRegion(reinterpret_cast<const std::byte*>(src.data()), b, {0, 1},
             reinterpret_cast<std::byte*>(dst.data()), b, {1, 0}, b, sizeof(int64_t));
  EXPECT_EQ(dst, (std::vector<int64_t>{0, 3, 1, 4, 2, 5}));
}

}  // namespace
}  // namespace fftc::distributed::test
