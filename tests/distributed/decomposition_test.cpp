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
