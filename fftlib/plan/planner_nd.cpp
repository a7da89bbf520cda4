// The planner's multi-dimensional and real part (plan_choice.h: chooseNdPlan, chooseRealPlan): a
// request -> nd.fdl's kernel nd, r2c or c2r with, per dimension, the 1D heuristics' radices
// (Stockham or Bluestein) and the dimensions that share a pass.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "backends/common/device_error.h"
#include "compiler/codegen/codegen.h"
#include "fftlib/plan/plan_choice.h"

namespace fftc::fftlib {

using backends::UserError;

namespace {

// A block of dimensions that shares one pass is transformed by one work-item (today's
// lowering): at most this many elements, and only while at least kMinBlocks blocks remain
// for the device's parallelism. Tuning parameters (FftRequest::passGroups overrides).
constexpr int64_t kMaxFusedBlock = 1024;
constexpr int64_t kMinBlocks = 256;

// Group bounds, innermost group first grown outwards while the block stays small and the
// blocks many; every other dimension a pass of its own.
std::vector<int64_t> chooseGroups(const std::vector<int64_t>& dims, int64_t batch) {
  const auto d = static_cast<int64_t>(dims.size());
  int64_t start = d - 1, block = dims.back(), outer = batch;
  for (int64_t j = 0; j < d - 1; ++j) outer *= dims[static_cast<size_t>(j)];
  while (start > 0) {
    const int64_t n = dims[static_cast<size_t>(start - 1)];
    if (block * n > kMaxFusedBlock || outer / n < kMinBlocks) break;
    block *= n;
    outer /= n;
    --start;
  }
  std::vector<int64_t> gs;
  for (int64_t j = 0; j <= start; ++j) gs.push_back(j);
  gs.push_back(d);
  return gs;
}

void checkGroups(const std::vector<int64_t>& gs, size_t d) {
  bool ok = gs.size() >= 2 && gs.front() == 0 && gs.back() == static_cast<int64_t>(d);
  for (size_t i = 1; ok && i < gs.size(); ++i) ok = gs[i - 1] < gs[i];
  if (!ok)
    throw UserError(
        fmt::format("pass groups [{}]: expected 0 = g_0 < g_1 < ... = {} (the number "
                    "of dimensions)",
                    fmt::join(gs, ", "), d));
}

// nd.fdl's bindings for the 1D FFT sizes `ns` (Stockham when planned by radices,
// else Bluestein).
void bindDimensions(PlanChoice& c, NdChoice& nd, const std::vector<int64_t>& ns,
                    const FftRequest& r) {
  std::vector<int64_t> offs{0}, bl;
  for (int64_t n : ns) {
    // a prime dimension stays Bluestein's even where its Rader butterfly fits a work-item (the
    // 1D planner's primeInOneWorkItem): as one radix it left ndLocal for passes over global
    // memory, on an H200 f32 64x31 6.6x cuFFT's time, f64 64x31 3.47 ms against 64x37's
    // Bluestein 2.27 (bench/results/2026-11-29-nvidia-h200-nd_prime_dims.csv)
    const bool blue = !plannedByRadices(n);
    auto rs = blue ? chooseRadices(bluesteinSize(n, r.precision)) : chooseRadices(n);
    nd.dimRadices.push_back(rs);
    nd.dimBluestein.push_back(blue);
    c.radices.insert(c.radices.end(), rs.begin(), rs.end());
    offs.push_back(static_cast<int64_t>(c.radices.size()));
    bl.push_back(blue ? 1 : 0);
  }
  c.variant = Variant::Stockham;
  c.file = "nd.fdl";
  c.defines["ns"] = ns;
  c.defines["rsAll"] = c.radices;
  c.defines["offs"] = offs;
  c.defines["bluestein"] = bl;
  c.defines["gs"] = nd.passGroups;
  c.defines["dir"] = int64_t{r.direction == Direction::Forward ? -1 : 1};
  c.defines["scale"] = int64_t{r.scale ? 1 : 0};
  c.defines["B"] = r.batch;
}

// Passes over global memory of nd's grouping: a group of several dimensions is one pass (one
// work-item per block), a dimension alone one pass per radix, or for Bluestein at least two
// (its forward and inverse FFTs; 17x16 makes 2 + 1).
size_t groupedPasses(const NdChoice& c) {
  size_t passes = 0;
  for (size_t p = 0; p + 1 < c.passGroups.size(); ++p) {
    const auto first = static_cast<size_t>(c.passGroups[p]);
    const bool alone = c.passGroups[p + 1] - c.passGroups[p] == 1;
    if (!alone)
      passes += 1;
    else if (c.dimBluestein[first])
      passes += 2;
    else
      passes += std::max<size_t>(c.dimRadices[first].size(), 1);
  }
  return passes;
}

// Whether the one-pass tile of strided dimension j (lines on local dimension 0) would be
// narrower than a 32-byte memory sector: few lines of a long dimension fit local memory (2048
// f32: one), and each load then uses a quarter of its sector. The four-step's two passes with
// wide tiles beat it (H100, 2026-11-21: 2048x2048 in one pass of one-line tiles took 3.2x
// cuFFT's time).
bool narrowTile(const FftRequest& r, const std::vector<int64_t>& ns, size_t j) {
  const int64_t elemBytes = complexBytes(r.precision);
  int64_t t = 1;
  for (size_t k = j + 1; k < ns.size(); ++k) t *= ns[k];
  const auto rs = chooseRadices(ns[j]);
  const int64_t perFft = ns[j] / *std::min_element(rs.begin(), rs.end());
  const int64_t most = std::max<int64_t>(std::min<int64_t>(128 / elemBytes, 1024 / perFft), 1);
  return largestFittingDivisor(ns[j], r, t, most) * elemBytes < 32;
}

// nd.fdl's fused3: three dimensions Z x Y x X (all Stockham's) in two passes, Y = n1·n2 by the
// four-step with n1 and n2 one radix each (a butterfly a line, over both local dimensions),
// pass 1 the n2 x X plane of each (z, y1) (two arrays, as localFits), pass 2 the block
// [Z][n1][F] of each (k2, x group) in one array, F x's one 32-byte sector wide; each pass's
// work-items at most 1024, its line FFTs' barriers outside the loops (pass 1: X's rows on local
// dimension 1, n2 of them, at least the min(X's radices) columns a lane takes; pass 2: Z's
// lines, n1·F, on dimension 0 and its butterflies on 1, at least the nZ / n1 lines over y1 a
// lane takes; either holds when that FFT is one radix, no barrier inside), and the n1- and
// n2-point butterflies, a line's whole FFT, in a work-item's registers (butterflyInRegisters:
// 16 f32 on 1024 work-items, 16 f64 on 512; 37 = [37] on 555 not). n1 the least that fits
// (256 = 16 x 16, 128 = 8 x 16): the smallest block. Returns {n1, F}, or {0, 0}.
std::pair<int64_t, int64_t> chooseFused3(const FftRequest& r, const NdChoice& nd) {
  const auto& ns = nd.dims;
  if (ns.size() != 3 || nd.dimBluestein[0] || nd.dimBluestein[1] || nd.dimBluestein[2])
    return {0, 0};
  const int64_t nz = ns[0], ny = ns[1], nx = ns[2], elem = complexBytes(r.precision);
  const int64_t f = std::max<int64_t>(32 / elem, 1);
  if (!localFits(nz, r) || !localFits(nx, r) || nx % f != 0) return {0, 0};
  const auto butterflies = [](const Radices& rs) {
    const int64_t n = std::accumulate(rs.begin(), rs.end(), int64_t{1}, std::multiplies<>());
    return n / *std::min_element(rs.begin(), rs.end());
  };
  const Radices rx = chooseRadices(nx), rz = chooseRadices(nz);
  const compiler::codegen::CodegenOptions skew{.localRowSkew = true};
  for (int64_t n1 = 2; n1 < ny; ++n1) {
    const int64_t n2 = ny / n1;
    if (ny % n1 != 0 || chooseRadices(n1).size() != 1 || chooseRadices(n2).size() != 1 ||
        nz % n1 != 0)
      continue;
    const int64_t items1 = butterflies(rx) * n2, items2 = n1 * f * butterflies(rz);
    const bool pass1 = localFits(n2 * nx, r) && items1 <= 1024 &&
                       (rx.size() == 1 || *std::min_element(rx.begin(), rx.end()) <= n2) &&
                       butterflyInRegisters(n2, items1, r.precision, true);
    const bool pass2 = items2 <= 1024 && (rz.size() == 1 || nz / n1 <= butterflies(rz)) &&
                       skew.skewedLocalCount(nz * n1 * f, n1 * f) * elem <= localMemoryBudget(r) &&
                       butterflyInRegisters(n1, items2, r.precision, true);
    if (pass1 && pass2) return {n1, f};
  }
  return {0, 0};
}

// nd.fdl's ndLocal when every dimension is Stockham's and fits local memory in one pass or
// in the four-step's two, the request leaves the grouping to the planner, and it makes fewer
// passes than the grouping: each pass's work-group shape by linePass.
bool useLocalPasses(const FftRequest& r, PlanChoice& c, NdChoice& nd) {
  if (!r.passGroups.empty()) return false;
  const auto& ns = nd.dims;
  const size_t d = ns.size();
  std::vector<int64_t> splits(d, 0);  // n1 of a four-step dimension, else 0
  std::vector<int64_t> wideColumns(d, 0);  // the lines of a wide tile's one pass, else 0
  std::vector<Radices> wideRadices(d);      // its radices
  size_t passes = 0;
  for (size_t j = 0; j < d; ++j) {
    if (ns[j] < 2) return false;
    if (nd.dimBluestein[j]) {  // one pass when M fits, never four-step
      if (!localKernelFits(nd.dimRadices[j], r)) return false;
    } else if (!localFits(ns[j], r)) {
      splits[j] = fourStepSplit(ns[j], r);
      if (splits[j] == 0) return false;
    } else if (j + 1 < d && narrowTile(r, ns, j)) {
      // a tile of 64 bytes beyond 48 KiB in one pass, as a hierarchical level's wide tile
      // (one pass at about 1.5 plain ones against the four-step's two), else the four-step
      const int64_t t = std::accumulate(ns.begin() + static_cast<std::ptrdiff_t>(j) + 1,
                                        ns.end(), int64_t{1}, std::multiplies<>());
      wideRadices[j] = wideTileRadices(ns[j]);
      wideColumns[j] = wideRadices[j].empty() ? 0 : wideTileColumns(ns[j], wideRadices[j], t, r);
      if (wideColumns[j] == 0 && !wideRadices[j].empty())  // one sector wide (2048, 4096 f32)
        wideColumns[j] = sectorTileColumns(ns[j], wideRadices[j], t, r);
      if (wideColumns[j] == 0) splits[j] = fourStepSplit(ns[j], r);  // 0: one pass after all
    }
    passes += splits[j] ? 2 : 1;
  }
  // The innermost two dimensions in one pass when nd.fdl's planePass can synchronize it: it
  // maps the rows and then the columns over local dimension 1, and the barriers between the
  // radix passes of a line sit inside those loops of na and nb iterations, which every
  // work-item must run alike: so na = nb, or one of them a single radix pass (no barrier
  // inside; 16 x 64); 64 x 32 and 48 x 40 failed to compile. And when the plane fits local
  // memory (two padded arrays), has at least 256 elements (a work-group's worth) and its rows'
  // and columns' butterflies and lines fit 1024 work-items.
  bool plane = false;
  Radices planeRadices;  // a one-array plane's (both dimensions), else {}
  if (d >= 2 && !splits[d - 1] && !splits[d - 2] && !nd.dimBluestein[d - 1] &&
      !nd.dimBluestein[d - 2]) {
    const int64_t na = ns[d - 2], nb = ns[d - 1];
    const auto butterflies = [&](int64_t n) {
      const auto rs = chooseRadices(n);
      return n / *std::min_element(rs.begin(), rs.end());
    };
    const bool synchronizable =
        na == nb || chooseRadices(na).size() == 1 || chooseRadices(nb).size() == 1;
    plane = synchronizable && na * nb >= 256 && localFits(na * nb, r) &&
            std::max(butterflies(na), butterflies(nb)) * std::max(na, nb) <= 1024;
    // Beyond 48 KiB, a plane whose two arrays do not fit may in one (128 x 128 f32: 128 KiB
    // of 227): wideTileRadices' [r0, R, .., R] on both sides, whose passes after the first
    // share the array, the rows' and columns' n / R work-items a line (the first pass looping
    // over its butterflies), at most 1024 in all, each keeping its widest butterfly in its
    // registers (butterflyInRegisters: 112 x 112 f64, 784 work-items of radix-16 butterflies,
    // spilled 216 bytes; ptxas sm_90). A scaled plane with no pass beyond it keeps
    // its normalization after the columns, in an array of its own (nd.fdl's scaleOuter).
    if (!plane && na == nb && na * nb >= 256 && localMemoryBudget(r) > kLocalMemoryBytes &&
        (d > 2 || !r.scale)) {
      const Radices rs = wideTileRadices(na);
      const compiler::codegen::CodegenOptions skew{.localRowSkew = true};
      if (!rs.empty() && oneArrayTile(rs) && rs[0] <= rs[1] && tileWorkItems(rs) * na <= 1024 &&
          butterflyInRegisters(std::ranges::max(rs), tileWorkItems(rs) * na, r.precision) &&
          skew.skewedLocalCount(na * nb, na) * complexBytes(r.precision) <= localMemoryBudget(r)) {
        plane = true;
        planeRadices = rs;
      }
    }
    if (plane) --passes;
  }
  // three dimensions that take three passes in two (nd.fdl's fused3)
  if (const auto [n1, f] = passes > 2 ? chooseFused3(r, nd) : std::pair<int64_t, int64_t>{};
      n1 > 0 && groupedPasses(nd) > 2) {
    Radices rz = chooseRadices(ns[0]);
    std::ranges::sort(rz);  // Z's passes from local memory to local memory: the most butterflies
    const Radices ry{n1, ns[1] / n1}, rx = chooseRadices(ns[2]);
    Radices rsAll = rz;
    rsAll.insert(rsAll.end(), ry.begin(), ry.end());
    rsAll.insert(rsAll.end(), rx.begin(), rx.end());
    const auto z = static_cast<int64_t>(rz.size());
    c.defines["rsAll"] = rsAll;
    c.defines["offs"] = std::vector<int64_t>{0, z, z + 2, static_cast<int64_t>(rsAll.size())};
    c.defines["n1End"] = std::vector<int64_t>{z, z + 1, static_cast<int64_t>(rsAll.size())};
    c.defines["fuse3"] = int64_t{1};
    for (const char* unused : {"linesPerGroup", "linesPerGroupB", "lineLocalDim", "fourStep"})
      c.defines[unused] = std::vector<int64_t>(3, 1);
    c.defines["lineWidth"] = std::vector<int64_t>(3, 0);
    c.defines["colsF"] = f;
    c.defines["lanesXY"] = ns[2] / *std::ranges::min_element(rx);
    c.defines["lanesZ"] = n1 * f;
    c.radices = rsAll;
    c.kernel = "ndLocal";
    c.stageLocal = {{}, {}};  // the generated kernels' own shapes
    c.localReuseInPass = true;
    c.localRowSkew = true;
    nd.dimRadices = {rz, ry, rx};
    nd.fusedSplit = n1;
    nd.fusedColumns = f;
    nd.linesPerGroup = {f, ns[0] / n1, ns[1] / n1};
    return true;
  }
  if (groupedPasses(nd) <= passes) return false;
  std::vector<int64_t> rsAll, offs{0}, mids, hs, fs(d, 1), f2s(d, 1), lds(d, 0), ws(d, 0);
  const auto bound = std::move(nd.dimRadices);  // bindDimensions': Bluestein keeps M's
  nd.dimRadices.clear();
  for (size_t j = 0; j < d; ++j) {
    // (the plane's two dimensions take its radices, whatever wide tile they had before it)
    std::vector<int64_t> rs1 = nd.dimBluestein[j]                    ? bound[j]
                               : !planeRadices.empty() && j + 1 == d ? planeRadices
                               : !planeRadices.empty() && j + 2 == d
                                   ? Radices(planeRadices.rbegin(), planeRadices.rend())
                               : wideColumns[j] ? wideRadices[j]
                                                : chooseRadices(splits[j] ? splits[j] : ns[j]);
    std::vector<int64_t> rs2 = splits[j] ? chooseRadices(ns[j] / splits[j]) : std::vector<int64_t>{};
    rsAll.insert(rsAll.end(), rs1.begin(), rs1.end());
    mids.push_back(static_cast<int64_t>(rsAll.size()));
    rsAll.insert(rsAll.end(), rs2.begin(), rs2.end());
    offs.push_back(static_cast<int64_t>(rsAll.size()));
    hs.push_back(splits[j] ? 1 : 0);
    rs1.insert(rs1.end(), rs2.begin(), rs2.end());
    nd.dimRadices.push_back(rs1);
  }
  c.stageLocal.clear();
  // the plane's pass: the generated kernel's own shape, or a one-array plane's line work-items
  // on dimension 0 (its lines on 1)
  if (plane)
    c.stageLocal.push_back(planeRadices.empty()
                               ? std::vector<int64_t>{}
                               : std::vector<int64_t>{tileWorkItems(planeRadices), ns[d - 1]});
  for (size_t j = plane ? d - 2 : d; j-- > 0;) {  // the passes' order: innermost first
    int64_t t = 1;
    for (size_t k = j + 1; k < d; ++k) t *= ns[k];
    const auto at = [&](int64_t a, int64_t b) {
      return std::vector<int64_t>(rsAll.begin() + a, rsAll.begin() + b);
    };
    if (splits[j]) {
      const int64_t n1 = splits[j], n2 = ns[j] / n1;
      fs[j] = linePass(r, at(mids[j], offs[j + 1]), true, n1 * t, c.stageLocal, true);  // pass A
      f2s[j] = linePass(r, at(offs[j], mids[j]), true, n2 * t, c.stageLocal, true);     // pass B
    } else if (wideColumns[j]) {  // the tile's work-items a line: tileWorkItems, as hierarchical's
      fs[j] = wideColumns[j];
      ws[j] = tileWorkItems(at(offs[j], offs[j + 1]));
      c.stageLocal.push_back({fs[j], ws[j]});
    } else {
      lds[j] = t == 1 ? 1 : 0;
      int64_t rows = t;
      if (t == 1) {  // the contiguous rows of the whole batch
        rows = r.batch;
        for (int64_t n : ns) rows *= n;
        rows /= ns[j];
      }
      fs[j] = linePass(r, at(offs[j], offs[j + 1]), t > 1, rows, c.stageLocal, true);
    }
  }
  c.radices = rsAll;
  c.kernel = "ndLocal";
  // As hierarchical.fdl's tiles (chooseHierarchicalPlan), which these line passes are: their
  // passes share one local array where code generation finds it legal, and a tile's lines one
  // element apart in the banks.
  c.localReuseInPass = true;
  c.localRowSkew = true;
  c.defines["rsAll"] = rsAll;
  c.defines["offs"] = offs;
  c.defines["n1End"] = mids;
  c.defines["fourStep"] = hs;
  c.defines["linesPerGroup"] = fs;
  c.defines["linesPerGroupB"] = f2s;
  c.defines["lineLocalDim"] = lds;
  // a wide tile's first pass takes a work-item's butterflies at once on these (nd.fdl)
  c.defines["lineWidth"] = ws;
  c.defines["plane"] = int64_t{plane ? 1 : 0};
  nd.planePass = plane;
  nd.fourStepSplits = splits;
  nd.linesPerGroup = fs;
  return true;
}

// nd.fdl's r2cLocal / c2rLocal when every complex FFT (the other dimensions', and the real
// lines' of size n_last/2 or n_last) is at least 2 and fits local memory (Bluestein's: its M):
// every
// pass in local memory (the real lines on local dimension 1, Fr per work-group; the others as
// ndLocal's strided passes), instead of a pass per radix.
void useLocalRealPasses(const FftRequest& r, PlanChoice& c, NdChoice& nd,
                        const std::vector<int64_t>& ns) {
  for (size_t j = 0; j < ns.size(); ++j)
    if (ns[j] < 2 || (nd.dimBluestein[j] ? !localKernelFits(nd.dimRadices[j], r)
                                        : !localFits(ns[j], r)))
      return;
  const size_t last = ns.size() - 1;
  const int64_t hr = nd.dims.back() / 2 + 1;
  int64_t lines = r.batch;  // the real lines
  for (size_t j = 0; j < last; ++j) lines *= ns[j];
  std::vector<std::vector<int64_t>> lineStage, complexStages;
  const int64_t fr = linePass(r, nd.dimRadices[last], false, lines, lineStage);
  std::vector<int64_t> fs(ns.size(), 1), lds(ns.size(), 0);
  for (size_t j = last; j-- > 0;) {  // innermost complex dimension first
    int64_t t = hr;
    for (size_t k = j + 1; k < last; ++k) t *= ns[k];
    fs[j] = linePass(r, nd.dimRadices[j], true, t, complexStages);
  }
  // R2C: the real lines, then the others; C2R: the others, then the real lines
  const bool r2c = r.direction == Direction::Forward;
  c.stageLocal = r2c ? lineStage : complexStages;
  const auto& rest = r2c ? complexStages : lineStage;
  c.stageLocal.insert(c.stageLocal.end(), rest.begin(), rest.end());
  c.kernel += "Local";
  c.defines["realLinesPerGroup"] = fr;
  c.defines["linesPerGroup"] = fs;
  c.defines["lineLocalDim"] = lds;
  c.defines["lineWidth"] = std::vector<int64_t>(ns.size(), 0);
  nd.linesPerGroup = fs;
  nd.linesPerGroup[last] = fr;
}

}  // namespace

// The four-step split n = n1·n2 of a dimension too long for local memory: n1 the largest
// divisor of n at most sqrt(n) whose two sizes both fit (0 when none does).
int64_t fourStepSplit(int64_t n, const FftRequest& r) {
  for (auto n1 = static_cast<int64_t>(std::sqrt(static_cast<double>(n))); n1 >= 2; --n1)
    if (n % n1 == 0 && localFits(n1, r) && localFits(n / n1, r)) return n1;
  return 0;
}

// One local pass over lines of n = Π rs elements: `strided` lines (adjacent lines adjacent in
// memory) on local dimension 0, a tile of adjacent ones at most 128 bytes wide; else
// contiguous rows on local dimension 1, as stockhamLocal. F divides `rows` (the lines of one
// block). Returns F; appends the stage's work-group shape.
int64_t linePass(const FftRequest& r, const std::vector<int64_t>& rs, bool strided, int64_t rows,
                 std::vector<std::vector<int64_t>>& stageLocal, bool skewed) {
  const int64_t n = std::accumulate(rs.begin(), rs.end(), int64_t{1}, std::multiplies<>()),
                perFft = n / *std::min_element(rs.begin(), rs.end());
  const int64_t elemBytes = complexBytes(r.precision);
  const int64_t most = strided ? std::min<int64_t>(128 / elemBytes, 1024 / perFft) : 256 / perFft;
  int64_t f = largestFittingDivisor(n, r, rows, std::max<int64_t>(most, 1));
  // the skew adds an element a line to each of the two arrays
  const compiler::codegen::CodegenOptions skew{.localRowSkew = skewed};
  while (f > 1 && (rows % f != 0 ||
                   2 * skew.skewedLocalCount(n * f, f) * elemBytes > localMemoryFor(r, f)))
    --f;
  stageLocal.push_back(strided ? std::vector<int64_t>{f, perFft} : std::vector<int64_t>{perFft, f});
  return f;
}

PlanChoice chooseNdPlan(const FftRequest& r) {
  const auto& dims = r.dims;
  if (dims.size() < 2)
    throw UserError(fmt::format("{} dimensions: N-D transforms take at least 2", dims.size()));
  checkNdRequest(r, dims);
  PlanChoice c;
  NdChoice nd;
  c.kernel = "nd";
  nd.dims = dims;
  nd.passGroups = r.passGroups.empty() ? chooseGroups(dims, r.batch) : r.passGroups;
  checkGroups(nd.passGroups, dims.size());
  bindDimensions(c, nd, dims, r);
  if (useLocalPasses(r, c, nd)) {
    nd.passGroups.clear();
    for (size_t j = 0; j <= dims.size(); ++j) nd.passGroups.push_back(static_cast<int64_t>(j));
  }
  c.detail = std::move(nd);
  return c;
}

PlanChoice chooseRealPlan(const FftRequest& r) {
  const auto dims = requestDims(r);
  checkNdRequest(r, dims);
  PlanChoice c;
  NdChoice nd;
  c.kernel = r.direction == Direction::Forward ? "r2c" : "c2r";
  nd.dims = dims;
  for (size_t j = 0; j <= dims.size(); ++j) nd.passGroups.push_back(static_cast<int64_t>(j));
  // A real plan's passes are one per dimension; naming them (passGroups = [0, 1, ..., D])
  // asks for nd.fdl's passes over global memory instead of the local-memory kernels.
  if (!r.passGroups.empty() && r.passGroups != nd.passGroups)
    throw UserError(fmt::format("pass groups [{}]: a real transform takes [] or one pass per "
                                "dimension, [{}]",
                                fmt::join(r.passGroups, ", "), fmt::join(nd.passGroups, ", ")));
  const int64_t nr = dims.back();
  const bool even = nr % 2 == 0;
  std::vector<int64_t> ns(dims.begin(), dims.end() - 1);
  ns.push_back(even ? nr / 2 : nr);  // the complex FFT of the real lines
  bindDimensions(c, nd, ns, r);
  c.defines["nr"] = nr;
  c.defines["even"] = int64_t{even ? 1 : 0};
  if (r.passGroups.empty()) useLocalRealPasses(r, c, nd, ns);
  c.detail = std::move(nd);
  return c;
}

}  // namespace fftc::fftlib
