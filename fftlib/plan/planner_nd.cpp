// The planner's multi-dimensional and real part (planner.h: chooseNdPlan, chooseRealPlan): a
// request -> nd.fdl's kernel nd, r2c or c2r with, per dimension, the 1D heuristics' radices
// (Stockham or Bluestein) and the dimensions that share a pass.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numeric>

#include "backends/common/device_error.h"
#include "fftlib/plan/planner.h"

namespace fftc::fftlib {

using backends::UserError;

std::vector<int64_t> requestDims(const FftRequest& r) {
  if (r.dims.size() >= 2) return r.dims;
  return {r.size};
}

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

// Validates the dimensions, size, batch, variant and radices of an N-D or real request.
void checkShape(const FftRequest& r, const std::vector<int64_t>& dims) {
  int64_t total = 1;
  for (int64_t d : dims) {
    if (d < 1)
      throw UserError(
          fmt::format("dimension {} in {}: must be at least 1", d, fmt::join(dims, "x")));
    if (total > (int64_t{1} << 30) / d)
      throw UserError(
          fmt::format("size {}: more than 2^30 elements (32-bit indices)", fmt::join(dims, "x")));
    total *= d;
  }
  if (r.size != total)
    throw UserError(fmt::format("size {} with dimensions {}: the size must be their product {}",
                                r.size, fmt::join(dims, "x"), total));
  if (r.batch < 1) throw UserError(fmt::format("batch {}: must be at least 1", r.batch));
  if (total > (int64_t{1} << 30) / r.batch)
    throw UserError(fmt::format("N x batch = {} x {}: more than 2^30 elements (32-bit indices)",
                                total, r.batch));
  if (r.variant != Variant::Auto && r.variant != Variant::Stockham)
    throw UserError(
        fmt::format("variant {}: N-D and real transforms run Stockham (or "
                    "Bluestein) along each dimension; use auto",
                    variantName(r.variant)));
  if (!r.radices.empty())
    throw UserError("radices: N-D and real transforms choose each dimension's radices themselves");
  if (r.workgroupSize > 0 || r.fftsPerGroup > 0)
    throw UserError(
        "work-group shape: N-D and real transforms choose each pass's work-groups themselves");
  if (r.levels != 0 || !r.levelSizes.empty())
    throw UserError("levels: a parameter of the 1D hierarchical variant, not of N-D or real plans");
}

// nd.fdl's bindings for the 1D FFT sizes `ns` (Stockham when smooth, else Bluestein).
void bindDimensions(PlanChoice& c, const std::vector<int64_t>& ns, const FftRequest& r) {
  std::vector<int64_t> offs{0}, bl;
  for (int64_t n : ns) {
    const bool blue = !isSmooth(n);
    auto rs = blue ? chooseRadices(bluesteinSize(n, r.precision)) : chooseRadices(n);
    c.dimRadices.push_back(rs);
    c.dimBluestein.push_back(blue);
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
  c.defines["gs"] = c.passGroups;
  c.defines["dir"] = int64_t{r.direction == Direction::Forward ? -1 : 1};
  c.defines["scale"] = int64_t{r.scale ? 1 : 0};
  c.defines["B"] = r.batch;
}

// Passes over global memory of nd's grouping: a group of several dimensions is one pass (one
// work-item per block), a dimension alone one pass per radix, or for Bluestein at least two
// (its forward and inverse FFTs; 17x16 makes 2 + 1).
size_t groupedPasses(const PlanChoice& c) {
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
                 std::vector<std::vector<int64_t>>& stageLocal) {
  const int64_t n = std::accumulate(rs.begin(), rs.end(), int64_t{1}, std::multiplies<>()),
                perFft = n / *std::min_element(rs.begin(), rs.end());
  const int64_t elemBytes = r.precision == Precision::F64 ? 16 : 8;
  if (!strided) {
    const int64_t f =
        largestFittingDivisor(n, r, rows, std::max<int64_t>(256 / perFft, 1));
    stageLocal.push_back({perFft, f});
    return f;
  }
  const int64_t most = std::min<int64_t>(128 / elemBytes, 1024 / perFft);
  const int64_t f = largestFittingDivisor(n, r, rows, std::max<int64_t>(most, 1));
  stageLocal.push_back({f, perFft});
  return f;
}

// Whether the one-pass tile of strided dimension j (lines on local dimension 0) would be
// narrower than a 32-byte memory sector: few lines of a long dimension fit local memory (2048
// f32: one), and each load then uses a quarter of its sector. The four-step's two passes with
// wide tiles beat it (H100, 2026-11-21: 2048x2048 in one pass of one-line tiles took 3.2x
// cuFFT's time).
bool narrowTile(const FftRequest& r, const std::vector<int64_t>& ns, size_t j) {
  const int64_t elemBytes = r.precision == Precision::F64 ? 16 : 8;
  int64_t t = 1;
  for (size_t k = j + 1; k < ns.size(); ++k) t *= ns[k];
  const auto rs = chooseRadices(ns[j]);
  const int64_t perFft = ns[j] / *std::min_element(rs.begin(), rs.end());
  const int64_t most = std::max<int64_t>(std::min<int64_t>(128 / elemBytes, 1024 / perFft), 1);
  return largestFittingDivisor(ns[j], r, t, most) * elemBytes < 32;
}

// nd.fdl's ndLocal when every dimension is Stockham's and fits local memory in one pass or
// in the four-step's two, the request leaves the grouping to the planner, and it makes fewer
// passes than the grouping: each pass's work-group shape by linePass.
bool useLocalPasses(const FftRequest& r, PlanChoice& c) {
  if (!r.passGroups.empty()) return false;
  const auto& ns = c.dims;
  const size_t d = ns.size();
  std::vector<int64_t> splits(d, 0);  // n1 of a four-step dimension, else 0
  size_t passes = 0;
  for (size_t j = 0; j < d; ++j) {
    if (ns[j] < 2) return false;
    if (c.dimBluestein[j]) {  // one pass when M fits, never four-step
      if (!localKernelFits(c.dimRadices[j], r)) return false;
    } else if (!localFits(ns[j], r)) {
      splits[j] = fourStepSplit(ns[j], r);
      if (splits[j] == 0) return false;
    } else if (j + 1 < d && narrowTile(r, ns, j)) {
      splits[j] = fourStepSplit(ns[j], r);  // 0: one pass after all
    }
    passes += splits[j] ? 2 : 1;
  }
  // The innermost two dimensions in one pass when their plane fits local memory (two padded
  // arrays), has at least 256 elements (a work-group's worth) and its rows' and columns'
  // butterflies and lines fit 1024 work-items.
  bool plane = false;
  if (d >= 2 && !splits[d - 1] && !splits[d - 2] && !c.dimBluestein[d - 1] &&
      !c.dimBluestein[d - 2]) {
    const int64_t na = ns[d - 2], nb = ns[d - 1];
    const auto butterflies = [&](int64_t n) {
      const auto rs = chooseRadices(n);
      return n / *std::min_element(rs.begin(), rs.end());
    };
    plane = na * nb >= 256 && localFits(na * nb, r) &&
            std::max(butterflies(na), butterflies(nb)) * std::max(na, nb) <= 1024;
    if (plane) --passes;
  }
  if (groupedPasses(c) <= passes) return false;
  std::vector<int64_t> rsAll, offs{0}, mids, hs, fs(d, 1), f2s(d, 1), lds(d, 0);
  const auto bound = std::move(c.dimRadices);  // bindDimensions': Bluestein keeps M's
  c.dimRadices.clear();
  for (size_t j = 0; j < d; ++j) {
    std::vector<int64_t> rs1 = c.dimBluestein[j] ? bound[j]
                                                 : chooseRadices(splits[j] ? splits[j] : ns[j]);
    std::vector<int64_t> rs2 = splits[j] ? chooseRadices(ns[j] / splits[j]) : std::vector<int64_t>{};
    rsAll.insert(rsAll.end(), rs1.begin(), rs1.end());
    mids.push_back(static_cast<int64_t>(rsAll.size()));
    rsAll.insert(rsAll.end(), rs2.begin(), rs2.end());
    offs.push_back(static_cast<int64_t>(rsAll.size()));
    hs.push_back(splits[j] ? 1 : 0);
    rs1.insert(rs1.end(), rs2.begin(), rs2.end());
    c.dimRadices.push_back(rs1);
  }
  c.stageLocal.clear();
  if (plane) c.stageLocal.push_back({});  // the plane's pass: the generated kernel's own shape
  for (size_t j = plane ? d - 2 : d; j-- > 0;) {  // the passes' order: innermost first
    int64_t t = 1;
    for (size_t k = j + 1; k < d; ++k) t *= ns[k];
    const auto at = [&](int64_t a, int64_t b) {
      return std::vector<int64_t>(rsAll.begin() + a, rsAll.begin() + b);
    };
    if (splits[j]) {
      const int64_t n1 = splits[j], n2 = ns[j] / n1;
      fs[j] = linePass(r, at(mids[j], offs[j + 1]), true, n1 * t, c.stageLocal);  // pass A
      f2s[j] = linePass(r, at(offs[j], mids[j]), true, n2 * t, c.stageLocal);     // pass B
    } else {
      lds[j] = t == 1 ? 1 : 0;
      int64_t rows = t;
      if (t == 1) {  // the contiguous rows of the whole batch
        rows = r.batch;
        for (int64_t n : ns) rows *= n;
        rows /= ns[j];
      }
      fs[j] = linePass(r, at(offs[j], offs[j + 1]), t > 1, rows, c.stageLocal);
    }
  }
  c.radices = rsAll;
  c.kernel = "ndLocal";
  c.defines["rsAll"] = rsAll;
  c.defines["offs"] = offs;
  c.defines["n1End"] = mids;
  c.defines["fourStep"] = hs;
  c.defines["linesPerGroup"] = fs;
  c.defines["linesPerGroupB"] = f2s;
  c.defines["lineLocalDim"] = lds;
  c.defines["plane"] = int64_t{plane ? 1 : 0};
  c.planePass = plane;
  c.fourStepSplits = splits;
  c.fftsPerGroup = *std::min_element(fs.begin(), fs.end());
  return true;
}

// nd.fdl's r2cLocal / c2rLocal when every complex FFT (the other dimensions', and the real
// lines' of size n_last/2 or n_last) is at least 2 and fits local memory (Bluestein's: its M):
// every
// pass in local memory (the real lines on local dimension 1, Fr per work-group; the others as
// ndLocal's strided passes), instead of a pass per radix.
void useLocalRealPasses(const FftRequest& r, PlanChoice& c, const std::vector<int64_t>& ns) {
  for (size_t j = 0; j < ns.size(); ++j)
    if (ns[j] < 2 || (c.dimBluestein[j] ? !localKernelFits(c.dimRadices[j], r)
                                        : !localFits(ns[j], r)))
      return;
  const size_t last = ns.size() - 1;
  const int64_t hr = c.dims.back() / 2 + 1;
  int64_t lines = r.batch;  // the real lines
  for (size_t j = 0; j < last; ++j) lines *= ns[j];
  std::vector<std::vector<int64_t>> lineStage, complexStages;
  const int64_t fr = linePass(r, c.dimRadices[last], false, lines, lineStage);
  std::vector<int64_t> fs(ns.size(), 1), lds(ns.size(), 0);
  for (size_t j = last; j-- > 0;) {  // innermost complex dimension first
    int64_t t = hr;
    for (size_t k = j + 1; k < last; ++k) t *= ns[k];
    fs[j] = linePass(r, c.dimRadices[j], true, t, complexStages);
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
  c.fftsPerGroup = fr;
}

}  // namespace

PlanChoice chooseNdPlan(const FftRequest& r) {
  const auto& dims = r.dims;
  if (dims.size() < 2)
    throw UserError(fmt::format("{} dimensions: N-D transforms take at least 2", dims.size()));
  checkShape(r, dims);
  PlanChoice c;
  c.kernel = "nd";
  c.dims = dims;
  c.passGroups = r.passGroups.empty() ? chooseGroups(dims, r.batch) : r.passGroups;
  checkGroups(c.passGroups, dims.size());
  bindDimensions(c, dims, r);
  if (useLocalPasses(r, c)) {
    c.passGroups.clear();
    for (size_t j = 0; j <= dims.size(); ++j) c.passGroups.push_back(static_cast<int64_t>(j));
  }
  return c;
}

PlanChoice chooseRealPlan(const FftRequest& r) {
  const auto dims = requestDims(r);
  checkShape(r, dims);
  PlanChoice c;
  c.kernel = r.direction == Direction::Forward ? "r2c" : "c2r";
  c.dims = dims;
  for (size_t j = 0; j <= dims.size(); ++j) c.passGroups.push_back(static_cast<int64_t>(j));
  // A real plan's passes are one per dimension; naming them (passGroups = [0, 1, ..., D])
  // asks for nd.fdl's passes over global memory instead of the local-memory kernels.
  if (!r.passGroups.empty() && r.passGroups != c.passGroups)
    throw UserError(fmt::format("pass groups [{}]: a real transform takes [] or one pass per "
                                "dimension, [{}]",
                                fmt::join(r.passGroups, ", "), fmt::join(c.passGroups, ", ")));
  const int64_t nr = dims.back();
  const bool even = nr % 2 == 0;
  std::vector<int64_t> ns(dims.begin(), dims.end() - 1);
  ns.push_back(even ? nr / 2 : nr);  // the complex FFT of the real lines
  bindDimensions(c, ns, r);
  c.defines["nr"] = nr;
  c.defines["even"] = int64_t{even ? 1 : 0};
  if (r.passGroups.empty()) useLocalRealPasses(r, c, ns);
  return c;
}

std::string describeDims(const PlanChoice& c) {
  std::string s = fmt::format(", dimensions {}:", fmt::join(c.dims, " x "));
  std::string groups;
  for (size_t p = 0; p + 1 < c.passGroups.size(); ++p) {
    std::string g;
    for (int64_t j = c.passGroups[p]; j < c.passGroups[p + 1]; ++j)
      g += fmt::format("{}{}", j > c.passGroups[p] ? "x" : "", c.dims[static_cast<size_t>(j)]);
    groups += (p ? ", " : "") + g;
  }
  for (size_t d = 0; d < c.dims.size(); ++d) {
    if (c.dimBluestein[d])
      s += fmt::format(
          " {} bluestein M = {} [{}]", c.dims[d],
          [&] {
            int64_t m = 1;
            for (int64_t x : c.dimRadices[d]) m *= x;
            return m;
          }(),
          fmt::join(c.dimRadices[d], ", "));
    else
      s += fmt::format(" {} [{}]", c.dims[d], fmt::join(c.dimRadices[d], ", "));
    if (d + 1 < c.dims.size()) s += " x";
  }
  if (c.kernel.rfind("r2c", 0) == 0 || c.kernel.rfind("c2r", 0) == 0)
    s += fmt::format("\nreal ({}): the last dimension's {} reals by a complex FFT of {} size",
                     c.kernel, c.dims.back(), c.dims.back() % 2 ? "the same" : "half the");
  if (c.kernel == "ndLocal") {
    std::string fourStep;
    for (size_t j = 0; j < c.fourStepSplits.size(); ++j)
      if (c.fourStepSplits[j])
        fourStep += fmt::format("; {} as {} x {} in two passes (four-step)", c.dims[j],
                                c.fourStepSplits[j], c.dims[j] / c.fourStepSplits[j]);
    const auto& fs = std::get<std::vector<int64_t>>(c.defines.at("linesPerGroup"));
    if (c.planePass)
      fourStep += fmt::format("; the innermost {} x {} plane in one pass", c.dims[c.dims.size() - 2],
                              c.dims.back());
    return s + fmt::format("\na pass per dimension, each line FFT in local memory "
                           "(ndLocal; lines per work-group {}){}",
                           fmt::join(fs.begin(), fs.end() - (c.planePass ? 2 : 0), ", "),
                           fourStep);
  }
  return s + fmt::format("\npasses by dimension group (gs = [{}]): {}",
                         fmt::join(c.passGroups, ", "), groups);
}

std::string describePasses(const CompiledFft& p) {
  const auto& r = p.request;
  const double arrayBytes =
      static_cast<double>(r.size * r.batch) * (r.precision == Precision::F64 ? 16.0 : 8.0);
  return fmt::format(
      "passes over global memory: {} stages, {:.2f} x (read + write of the "
      "whole array)\n",
      p.stages.size(), static_cast<double>(p.bytesMoved) / (2 * arrayBytes));
}

}  // namespace fftc::fftlib
