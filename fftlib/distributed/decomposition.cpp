// Slab and pencil decompositions: the stages and each rank's boxes (decomposition.h).
#include "fftlib/distributed/decomposition.h"

#include <algorithm>
#include <fmt/format.h>

#include "backends/common/device_error.h"

namespace fftc::distributed {

using backends::UserError;

std::string decompositionName(Decomposition d) {
  return d == Decomposition::Slab ? "slab" : "pencil";
}

Decomposition parseDecomposition(std::string_view text) {
  if (text == "slab") return Decomposition::Slab;
  if (text == "pencil") return Decomposition::Pencil;
  throw UserError(fmt::format("--distributed '{}': expected slab or pencil", text));
}

int64_t Box::count() const {
  int64_t n = 1;
  for (std::size_t a = 0; a < lo.size(); ++a) n *= std::max<int64_t>(0, extent(a));
  return n;
}

Box Box::intersect(const Box& other) const {
  Box r{lo, hi};
  for (std::size_t a = 0; a < lo.size(); ++a) {
    r.lo[a] = std::max(lo[a], other.lo[a]);
    r.hi[a] = std::max(r.lo[a], std::min(hi[a], other.hi[a]));  // empty: hi == lo
  }
  return r;
}

std::string Box::text() const {
  std::string s;
  for (std::size_t a = 0; a < lo.size(); ++a)
    s += fmt::format("{}[{},{})", a ? "x" : "", lo[a], hi[a]);
  return s;
}

std::pair<int64_t, int64_t> splitRange(int64_t n, int64_t p, int64_t r) {
  const int64_t base = n / p, extra = n % p;
  const int64_t first = r * base + std::min(r, extra);
  return {first, first + base + (r < extra ? 1 : 0)};
}

std::vector<int> Stage::storageOrder() const {
  std::vector<int> order;
  for (int a = 0; a < static_cast<int>(split.size()); ++a)
    if (std::find(fftAxes.begin(), fftAxes.end(), a) == fftAxes.end()) order.push_back(a);
  order.insert(order.end(), fftAxes.begin(), fftAxes.end());
  return order;
}

int Layout::ranks() const {
  int p = 1;
  for (int g : grid) p *= g;
  return p;
}

std::vector<int> Layout::coordinates(int rank) const {
  std::vector<int> c(grid.size());
  for (std::size_t g = grid.size(); g-- > 0;) {
    c[g] = rank % grid[g];
    rank /= grid[g];
  }
  return c;
}

Box Layout::box(std::size_t stage, int rank) const {
  const auto c = coordinates(rank);
  Box b{std::vector<int64_t>(dims.size(), 0), dims};
  for (std::size_t a = 0; a < dims.size(); ++a) {
    const int g = stages[stage].split[a];
    if (g >= 0) std::tie(b.lo[a], b.hi[a]) = splitRange(dims[a], grid[g], c[g]);
  }
  return b;
}

std::vector<int> pencilGrid(int ranks) {
  int p0 = 1;
  for (int d = 1; d * d <= ranks; ++d)
    if (ranks % d == 0) p0 = d;
  return {p0, ranks / p0};
}

Layout makeLayout(const std::vector<int64_t>& dims, Decomposition decomposition, int ranks,
                  std::vector<int> grid, bool inverse, OutputDistribution output) {
  if (dims.size() < 2 || dims.size() > 3)
    throw UserError(fmt::format("a distributed FFT has 2 or 3 dimensions, not {}", dims.size()));
  if (ranks < 1) throw UserError("a distributed FFT needs at least one process");
  Layout l;
  l.dims = dims;
  const bool threeD = dims.size() == 3;
  if (decomposition == Decomposition::Slab) {
    if (!grid.empty() && !(grid.size() == 1 && grid[0] == ranks))
      throw UserError(fmt::format("a slab decomposition's grid is the {} processes", ranks));
    l.grid = {ranks};
    // The first axis split, the rest transformed; then the second axis split, the first
    // transformed (FFTW-MPI's slabs and its transposed output).
    l.stages = {threeD ? Stage{{0, -1, -1}, {1, 2}} : Stage{{0, -1}, {1}},
                threeD ? Stage{{-1, 0, -1}, {0}} : Stage{{-1, 0}, {0}}};
  } else {
    if (!threeD)
      throw UserError("a pencil decomposition needs 3 dimensions (2D: --distributed slab)");
    if (grid.empty()) grid = pencilGrid(ranks);
    if (grid.size() != 2 || grid[0] < 1 || grid[1] < 1 || grid[0] * grid[1] != ranks)
      throw UserError(fmt::format("a pencil grid P0xP1 must multiply to the {} processes", ranks));
    l.grid = grid;
    // z-pencils, y-pencils, x-pencils: each exchange moves the split off the next axis to be
    // transformed (within a row or column of the grid).
    l.stages = {Stage{{0, 1, -1}, {2}}, Stage{{0, -1, 1}, {1}}, Stage{{-1, 0, 1}, {0}}};
  }
  if (output == OutputDistribution::SameAsInput) {
    l.stages.push_back(Stage{l.stages.front().split, {}});
  } else if (inverse) {
    std::reverse(l.stages.begin(), l.stages.end());
  }
  return l;
}

}  // namespace fftc::distributed
