// The planner's heuristics for 1D complex transforms (plan_choice.h): the variant, the
// work-group shapes of the local-memory kernels, the hierarchical levels, and each typed choice
// instantiated as a kernel of the FFT library with its -D bindings.
#include "fftlib/plan/plan_choice.h"
#include "fftlib/plan/min_blocks.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "backends/common/device_error.h"

namespace fftc::fftlib {
namespace {

using backends::UserError;

}  // namespace

bool localFits(int64_t n, const FftRequest& request, int64_t fftsPerGroup, int64_t arrays) {
  const int64_t elem = complexBytes(request.precision);
  // as the code generator pads an array of these elements (not one of odd rows of n: a
  // one-dimensional copy of them is padded when n x fftsPerGroup is even)
  const int64_t count = n * fftsPerGroup;
  const int64_t padded = compiler::codegen::CodegenOptions{}.paddedLocalCount(count, count);
  return n >= 2 && arrays * padded * elem <= localMemoryFor(request, fftsPerGroup);
}

namespace {

int64_t butterflyWork(int64_t r);

// The values of `k` butterflies of radix r that a work-item of a block of w keeps in registers
// until the pass's barrier (common.fdl's onWorkItems): ptxas gives each of w threads 65536 / w
// registers (at most 255); one butterfly's values may take half of them (a third beyond radix
// 16, whose butterflies keep more temporaries: butterflyRegisters), the other k - 1
// butterflies' results one register each per real (the measures: butterflyInRegisters).
bool butterfliesInRegisters(int64_t r, int64_t k, int64_t w, Precision p) {
  const int64_t registers = std::min<int64_t>(255, 65536 / std::max<int64_t>(w, 1));
  return butterflyRegisters(r, p) + (k - 1) * r * (p == Precision::F64 ? 4 : 2) <= registers;
}

}  // namespace

int64_t uniformOneArrayWorkItems(const Radices& rs) {
  // a Rader radix's butterfly takes 150-255 registers (kLargestRaderRadix): not one work-item
  // per butterfly of the widest pass (61 x 128 = [16, 8, 61]: 976)
  if (rs.empty() || hasRaderRadix(rs)) return 0;
  const int64_t n = product(rs);
  if (rs.size() < 3) return n / *std::min_element(rs.begin(), rs.end());
  const int64_t q = rs[1];  // every pass from local memory to local memory: q
  for (size_t i = 1; i + 1 < rs.size(); ++i)
    if (rs[i] != q) return 0;
  // the first and the last pass: at most q, or a divisor of q (q / r butterflies a work-item)
  for (int64_t end : {rs.front(), rs.back()})
    if (end < q && q % end != 0) return 0;
  return n / q <= 1024 ? n / q : 0;
}

namespace {

// Whether w work-items, each looping over its share of every pass of one local array, fit their
// registers: the k butterflies of a pass from local memory to local memory are held at once, the
// first and the last pass's one at a time (loopedShape, and a request's work-group size).
// (loopedFits of radices of n that passed its first checks)
bool loopedFitsRegisters(const Radices& rs, int64_t n, int64_t w, Precision p) {
  for (size_t i = 0; i < rs.size(); ++i) {
    const bool inner = i > 0 && i + 1 < rs.size();
    if (!butterfliesInRegisters(rs[i], inner ? (n / rs[i] + w - 1) / w : 1, w, p)) return false;
  }
  return true;
}

bool loopedFits(const Radices& rs, int64_t w, Precision p) {
  if (rs.size() < 3 || hasRaderRadix(rs) || w > 1024) return false;
  return loopedFitsRegisters(rs, product(rs), w, p);
}

// loopedOneArrayWorkItems's work-group size and its time, {0, 0} when none fits.
std::pair<int64_t, int64_t> loopedShape(const Radices& rs, Precision p) {
  if (rs.size() < 3 || hasRaderRadix(rs)) return {0, 0};
  const int64_t n = product(rs);
  // loopedOneArrayRadices asks this of every order of n's radices (thousands for f32 8448, on
  // every plan and every warm load of one: 6 ms of a 8 ms warm plan), so the radices' checks
  // and work are taken out of the loop over w
  std::vector<int64_t> work(rs.size());
  const size_t count = rs.size();
  for (size_t i = 0; i < count; ++i) work[i] = butterflyWork(rs[i]);
  int64_t best = 0, bestTime = 0;
  for (int64_t w = 32; w <= 1024; w += 32) {
    int64_t time = 0;
    for (size_t i = 0; i < count; ++i) time += (n / rs[i] + w - 1) / w * work[i];
    if ((best == 0 || time < bestTime) && loopedFitsRegisters(rs, n, w, p)) {
      best = w;
      bestTime = time;
    }
  }
  return {best, bestTime};
}

}  // namespace

int64_t loopedOneArrayWorkItems(const Radices& rs, Precision p) { return loopedShape(rs, p).first; }

int64_t oneArrayWorkItems(const Radices& rs, Precision p) {
  const int64_t w = uniformOneArrayWorkItems(rs);
  return w > 0 ? w : loopedOneArrayWorkItems(rs, p);
}

bool oneArrayRadices(const Radices& rs, Precision p) { return oneArrayWorkItems(rs, p) > 0; }

bool oneArrayKernelFits(const Radices& rs, const FftRequest& request) {
  return oneArrayRadices(rs, request.precision) && localFits(product(rs), request, 1, 1);
}

namespace {

// Whether a work-item of a one-array kernel of w work-items keeps its widest butterfly in
// registers (butterflyInRegisters, plan_choice.h). Beyond it the kernels spilled (ptxas sm_90,
// f32 16384): [32, 16, 32] in 1024 threads, 64 registers, 772 bytes of spill stores a thread
// (0.894 ms on an H200 against 0.553 for two levels); [16, 32, 32] in 512, 128 registers, 128
// bytes; [16, 16, 16, 4] in 1024 takes 53 registers and none.
bool radicesInRegisters(const Radices& rs, Precision p) {
  const int64_t w = uniformOneArrayWorkItems(rs);
  return w > 0 && butterflyInRegisters(*std::max_element(rs.begin(), rs.end()), w, p);
}

}  // namespace

// The radices of n in one array on loopedOneArrayWorkItems' work-items: of the orders of
// radices of at most 16 (a wider butterfly's registers, beside the others a work-item keeps:
// f32 16384 [32, 16, 32] spilled) in the fewest passes or one more (where those do not fit the
// registers), the fewest passes (each reads and writes the whole array and waits twice), then
// the least time (loopedShape), the fewest work-items, the widest first pass. f32 8448: [16, 4, 11, 12] on 768 (chooseRadices' [16, 16, 11, 3] took 960, its
// radix-3 pass three butterflies a work-item and its middle passes 528 and 768 of them);
// {} where none fits the registers.
Radices loopedOneArrayRadices(int64_t n, const FftRequest& request) {
  constexpr int64_t kMost = 16;
  // the fewest radices of at most 16 whose product is n (-1: none), memoized by divisor (n is
  // bounded only by the budget, which --local-memory sets: no array of n)
  std::map<int64_t, int64_t> fewest;
  auto least = [&](auto&& self, int64_t m) -> int64_t {
    if (m == 1) return 0;
    if (auto it = fewest.find(m); it != fewest.end()) return it->second;
    int64_t f = -1;
    for (int64_t r = 2; r <= kMost; ++r)
      if (m % r == 0)
        if (int64_t k = self(self, m / r); k >= 0 && (f < 0 || k + 1 < f)) f = k + 1;
    fewest[m] = f;
    return f;
  };
  const int64_t passes = least(least, n);
  if (passes < 0) return {};
  Radices best, c;
  std::tuple<size_t, int64_t, int64_t, int64_t> bestKey{};
  // the orders of exactly `length` radices; a prefix that cannot reach 1 in the passes left is
  // not followed (fewest: the fewest radices of what is left)
  auto walk = [&](auto&& self, int64_t rest, int64_t length) -> void {
    if (rest == 1) {
      if (uniformOneArrayWorkItems(c) > 0) return;  // not looped (oneArrayWorkItems)
      const auto [w, time] = loopedShape(c, request.precision);
      const std::tuple key{c.size(), time, w, -c.front()};
      if (w > 0 && (best.empty() || key < bestKey)) {
        best = c;
        bestKey = key;
      }
      return;
    }
    const int64_t left = length - static_cast<int64_t>(c.size());
    for (int64_t r = 2; r <= kMost; ++r) {
      if (rest % r != 0) continue;
      const int64_t after = least(least, rest / r);
      if (after < 0 || after > left - 1) continue;
      if (after < left - 1 && rest / r == 1) continue;
      c.push_back(r);
      self(self, rest / r, length);
      c.pop_back();
    }
  };
  // the fewest passes first: a longer order comes after every order that fits (the key's first
  // part), so it is looked at only when none of the fewest passes fits
  walk(walk, n, passes);
  if (best.empty()) walk(walk, n, passes + 1);
  return best;
}

Radices oneArrayRadicesFor(int64_t n, const FftRequest& request, bool looped) {
  constexpr int64_t kMostRadix = 32;
  if (n < 2 || !localFits(n, request, 1, 1)) return {};
  // two arrays fit, but the two-array kernel's widest pass has more than 1024 butterflies (f32
  // 8448 = [16, 16, 11, 3]: 2816): one array, its passes looped
  if (localFits(n, request))
    return looped && !localKernelFits(chooseRadices(n), request) ? loopedOneArrayRadices(n, request)
                                                                 : Radices{};
  // [first, q x k, last] whose butterflies stay in registers: radices of at most 16 where they
  // can (wider ones need fewer work-items, so fewer warps: f32 8192 [16, 32, 16] takes 256
  // work-items of 175 registers), then the fewest passes, the smallest largest radix, the
  // widest middle radix (the fewest work-items), the widest first pass (a narrow last pass
  // loops over its butterflies). On an H200
  // (bench/results/2026-11-29-nvidia-h200-one_array_shapes.csv) f32 16384 [16, 16, 16, 4]
  // 0.376 ms ([4, 16, 16, 16] 0.503, [32, 16, 32] 0.897), f64 8192 [16, 16, 16, 2] 0.381
  // ([2, 16, 16, 16] 0.562, [16, 8, 8, 8] 0.538), f32 8192 [16, 16, 16, 2] 0.298 ([16, 8, 8, 8]
  // 0.380).
  auto key = [](const Radices& c) {
    const int64_t widest = std::ranges::max(c);
    return std::tuple{widest > 16, c.size(), widest, -c[c.size() / 2], -c.front()};
  };
  Radices best;
  for (int64_t q = std::max<int64_t>(2, (n + 1023) / 1024); q <= kMostRadix; ++q) {
    if (n % q != 0) continue;
    int64_t rest = n;  // n / q^middles
    for (int middles = 1; rest % q == 0; ++middles) {
      rest /= q;
      for (int64_t first = 2; first <= kMostRadix; ++first) {
        if (rest % first != 0) continue;
        const int64_t last = rest / first;
        if (last < 2 || last > kMostRadix) continue;
        Radices c{first};
        c.insert(c.end(), static_cast<size_t>(middles), q);
        c.push_back(last);
        if (radicesInRegisters(c, request.precision) && (best.empty() || key(c) < key(best)))
          best = c;
      }
    }
  }
  if (!best.empty()) return best;
  // none in registers (f64 10000: [10, 10, 10, 10] spills 168 bytes, 0.68 ms on an H200 against
  // 1.01 for two levels, 2026-11-26): the default radices where they share one array, else the
  // fewest passes, then the smallest largest radix
  auto spilling = [&] {
    if (Radices rs = chooseRadices(n); uniformOneArrayWorkItems(rs) > 0) return rs;
    Radices most;
    for (int64_t least = std::max<int64_t>(2, (n + 1023) / 1024); least <= kMostRadix; ++least) {
      if (n % least != 0) continue;
      int64_t rest = n;
      for (int middles = 0;; ++middles, rest /= least) {
        for (int64_t first = least; first <= kMostRadix; ++first) {
          if (rest % first != 0) continue;
          const int64_t last = rest / first;
          if (last < least || last > kMostRadix) continue;
          Radices c{first};
          c.insert(c.end(), static_cast<size_t>(middles), least);
          c.push_back(last);
          if (uniformOneArrayWorkItems(c) > 0 &&
              (most.empty() || std::tuple{c.size(), std::ranges::max(c)} <
                                   std::tuple{most.size(), std::ranges::max(most)}))
            most = c;
        }
        if (rest % least != 0) break;
      }
    }
    return most;
  };
  best = spilling();
  // before those, where they have a radix above 16 (f64 8448 [22, 16, 24] spilled 672 bytes
  // and ran as two levels, cuda_plan.cpp) or there are none (16807 = 7^5: 2401 butterflies a
  // pass), radices whose passes loop over the work-group in registers (loopedOneArrayRadices)
  if (looped && (best.empty() || std::ranges::max(best) > 16))
    if (Radices l = loopedOneArrayRadices(n, request); !l.empty()) return l;
  return best;
}

bool oneArrayTile(const Radices& rs) {
  // (a Rader radix's butterfly wants every work-item of its pass: oneArrayWorkItems)
  if (rs.size() < 2 || hasRaderRadix(rs)) return false;
  return product(rs) / rs[1] <= 1024 &&
         std::all_of(rs.begin() + 1, rs.end(), [&](int64_t q) { return q == rs[1]; });
}

int64_t tileWorkItems(const Radices& rs) {
  return product(rs) / (oneArrayTile(rs) ? rs[1] : *std::min_element(rs.begin(), rs.end()));
}

int64_t largestFittingDivisor(int64_t n, const FftRequest& request, int64_t rows, int64_t most) {
  for (int64_t f = std::min(rows, most); f >= 2; --f)
    if (rows % f == 0 && localFits(n, request, f)) return f;
  return 1;
}

namespace {
int64_t workItemsPerRow(const Radices& rs);
}  // namespace

// A row with a Rader radix (raderRadix) within kRaderWorkItems work-items: its butterfly's
// registers (up to 255 at 61) for every work-item of the block.
bool localKernelFits(const std::vector<int64_t>& rs, const FftRequest& request) {
  const int64_t n = product(rs);
  return !rs.empty() && localFits(n, request) &&
         n / *std::min_element(rs.begin(), rs.end()) <= 1024 &&
         (!hasRaderRadix(rs) || workItemsPerRow(rs) <= kRaderWorkItems);
}

int64_t HierarchicalChoice::leastColumns() const {
  return columns.empty() ? 0 : *std::min_element(columns.begin(), columns.end());
}

namespace {

// F rows of n elements per work-group, at most `most`: the largest divisor of the batch when it
// fills at least half of the most that fit, else the most that fit, the last group partial
// (common.fdl's rowsInGroups). Divisors alone gave a prime batch groups of one row: f32 27-point
// FFTs, batch 2485513, ran in work-groups of 9 work-items at 4.2x cuFFT's time on an H100.
int64_t rowsPerGroup(int64_t n, const FftRequest& r, int64_t most) {
  most = std::max<int64_t>(std::min(most, r.batch), 1);
  while (most > 1 && !localFits(n, r, most)) --most;
  const int64_t divisor = largestFittingDivisor(n, r, r.batch, most);
  return 2 * divisor >= most ? divisor : most;
}

// A radix-r butterfly's work, a relative measure: the small FFT over r's prime factors as
// r/f dense f x f products per factor f, r · Σ f. (A prime radix is symDft now, about a quarter
// of the dense products; the measure still orders the radices the same way, and the 0.4 rule
// of workItemsPerRow was measured with it.)
int64_t butterflyWork(int64_t r) {
  int64_t sum = 0, m = r;
  for (int64_t f = 2; f * f <= m; ++f)
    for (; m % f == 0; m /= f) sum += f;
  if (m > 1) sum += m;
  return r * sum;
}

// The work-items of one row: n / min(r), one per butterfly of the widest pass, unless the
// radices are so unequal that most of them would idle through the passes of large radices.
// A row of w work-items spends w · Σ_q ceil((n / r_q) / w) · butterflyWork(r_q) of its
// work-items' time; w = n / r for another radix r of the list is taken when that is at most
// 0.4 of it. [2, 13] (26): 13 work-items per row, of which 11 idle through the radix-13 pass
// while 2 compute it, 2249 units; 2 work-items, 7 radix-2 butterflies each, then one radix-13
// each, 394. Where the times are closer, the widest pass keeps one work-item per butterfly:
// fewer work-items per row mean more rows in a work-group's local memory, fewer groups per
// SM. On an H200 (f32, batch x N = 2^26, against cuFFT in one process, old -> new shape,
// bench/results/2026-11-26-nvidia-h200-odd_radix_ab.csv): 26 3.60 -> 1.76 (0.18 of the time),
// 22 4.27 -> 1.77 (0.21), 60 [4, 15] 1.56 -> 1.18 (0.36), 243 [9, 9, 3] 1.82 -> 1.34 (0.38),
// but 27 [9, 3] 1.29 -> 1.95 (0.43): not taken.
int64_t workItemsPerRow(const Radices& rs) {
  const int64_t n = product(rs);
  auto time = [&](int64_t w) {
    int64_t t = 0;
    for (int64_t r : rs) t += (n / r + w - 1) / w * butterflyWork(r);
    return w * t;
  };
  const int64_t widest = n / *std::min_element(rs.begin(), rs.end());
  int64_t best = widest;
  for (int64_t r : rs)
    if (5 * time(n / r) <= 2 * time(widest) && time(n / r) < time(best)) best = n / r;
  return best;
}

// The work-group shape of a local-memory kernel over rows of n = prod(rs) elements
// (stockhamLocal with n = N, bluesteinLocal with n = M): F rows (rowsPerGroup) of
// workItemsPerRow work-items each, at most 256 work-items in all, within local memory.
constexpr int64_t kWarpRows = 32;  // an NVIDIA warp's threads: rows of one work-item each

LocalShape chooseLocalShape(const FftRequest& r, const Radices& rs, bool oneArray = false) {
  const int64_t n = product(rs);
  const int64_t minRadix = *std::min_element(rs.begin(), rs.end());
  // the most butterflies of one pass; one array: those of its passes from local memory to
  // local memory, the first and last looping over theirs (oneArrayWorkItems)
  const int64_t perFft = oneArray ? oneArrayWorkItems(rs, r.precision) : n / minRadix;
  if (!localFits(n, r, 1, oneArray ? 1 : 2))
    throw UserError(
        fmt::format("local variant: N = {} {} does not fit in {} bytes of local "
                    "memory (two buffers of N elements)",
                    n, precisionName(r.precision), localMemoryBudget(r)));
  int64_t f = r.fftsPerGroup;
  if (oneArray) {
    // one row: a budget beyond 48 KiB is a one-row budget (localMemoryFor), and the one array
    // is only chosen where two of one row do not fit
    if (f > 1)
      throw UserError(
          fmt::format("ffts per group {}: N = {} {} fits in {} bytes of local memory "
                      "only as one row in one array",
                      f, n, precisionName(r.precision), localMemoryBudget(r)));
    // the request's work-items, each looping over its share of every pass (as
    // loopedOneArrayWorkItems' do), where the butterflies a work-item holds fit its registers
    if (r.workgroupSize > 0 && r.workgroupSize != perFft) {
      if (!loopedFits(rs, r.workgroupSize, r.precision))
        throw UserError(fmt::format(
            "work-group size {}: N = {} in one local array takes {} work-items (one butterfly "
            "each per pass from local memory to local memory), or at most 1024 whose "
            "butterflies of a pass fit their registers",
            r.workgroupSize, n, perFft));
      return {.workgroupSize = r.workgroupSize, .fftsPerGroup = 1};
    }
    return {.workgroupSize = perFft, .fftsPerGroup = 1};
  }
  if (f > 0) {
    if (!localFits(n, r, f))
      throw UserError(
          fmt::format("ffts per group {}: {} rows of N = {} do not fit in {} bytes "
                      "of local memory",
                      f, f, n, localMemoryFor(r, f)));
  }
  const int64_t wg = r.workgroupSize > 0 ? r.workgroupSize : workItemsPerRow(rs);
  if (f <= 0) f = rowsPerGroup(n, r, std::max<int64_t>(256 / wg, 1));
  // A row a work-item: whole warps of rows, as many as fit (at most 256; the last group
  // partial), rather than a divisor of the batch that is not whole warps (f32 11's 149 rows,
  // f64 17's 78). On an H200 (fft_bench, ratio to cuFFT's time, before -> after,
  // bench/results/2026-11-29-nvidia-h200-session19-whole_warps.csv): f32 11 1.16 -> 1.01, 22
  // 1.01 -> 0.94, 26 1.01 -> 0.91, 60 1.10 -> 1.07; f64 12 1.16 -> 1.09, 13 1.14 -> 1.08, 22
  // 1.05 -> 1.00, 26 1.18 -> 1.13 (f64 17 0.330 -> 0.258 ms at 32 or 64 rows); but f32 33
  // 1.04 -> 1.13 (93 rows, the most that 48 KiB holds, against 64).
  if (wg == 1 && r.fftsPerGroup <= 0 && f % kWarpRows != 0) {
    int64_t most = std::min<int64_t>(256, r.batch);
    while (most >= kWarpRows && !localFits(n, r, most)) --most;
    if (most >= kWarpRows) f = most / kWarpRows * kWarpRows;
  }
  if (wg * f > 1024)
    throw UserError(
        fmt::format("work-group size {} x {} ffts per group: more than 1024 "
                    "work-items",
                    wg, f));
  return {.workgroupSize = wg, .fftsPerGroup = f};
}

// The variants whose kernels are passes over global memory, a work-item per butterfly: a
// work-group shape is not theirs to take (it was silently ignored before).
void refuseShape(const FftRequest& r, Variant v) {
  if (r.workgroupSize > 0 || r.fftsPerGroup > 0)
    throw UserError(fmt::format(
        "variant {}: its passes over global memory take one work-item per butterfly; of the "
        "work-group shape, the work-group size applies to local and bluestein in local memory, "
        "the FFTs per group also to hierarchical",
        v == Variant::Bluestein ? "bluestein (M beyond local memory)" : variantName(v)));
}

// ---- Hierarchical: hierarchical.fdl hierarchicalLocal (two levels) or hierarchicalLocal3.

// The narrowest tile of two levels: F columns of at least 64 bytes (two memory sectors).
constexpr int64_t kTileMinBytes = 64;

// The rows of a tile: the largest F <= 128 bytes of elements that divides the rows and fits
// (the padded, skewed local arrays the tile keeps, `arrays`: one where its passes share it,
// oneArrayTile; at most 1024 work-items); 0 when none does. The request's F (fftsPerGroup) is
// taken as it is when it fits the budget. The automatic widths count one array where the tile
// keeps one (since session 16: f32 2^17 and 2^18, f64 2^16 and 2^17 then take 8-column, f64
// 4-column, tiles in two levels instead of three; on an H200 f32 2^17 0.82 -> 0.59 ms, 2^18
// 0.82 -> 0.59, f64 2^17 0.78 -> 0.62, with the tiles' rows skewed and the copy-out spread,
// bench/results/2026-11-29-nvidia-h200-two_levels.csv) and stay within 48 KiB
// (localMemoryFor); wideTileColumns goes beyond.

// The bytes of a tile of f rows of n in `arrays` arrays, as code generation lays it out:
// padded, its rows skewed (localRowSkew).
int64_t tileBytes(int64_t n, int64_t f, int64_t arrays, Precision precision) {
  return arrays *
         compiler::codegen::CodegenOptions{.localRowSkew = true}.skewedLocalCount(n * f, f) *
         complexBytes(precision);
}

int64_t tileColumns(int64_t n, const std::vector<int64_t>& rs, int64_t rows, const FftRequest& r,
                    int64_t arrays) {
  const int64_t workItems = tileWorkItems(rs);
  // a tile with a Rader radix: its butterfly's registers in every work-item of the block
  const int64_t items = hasRaderRadix(rs) ? kRaderWorkItems : 1024;
  auto fits = [&](int64_t f, int64_t limit) {
    return rows % f == 0 && n >= 2 && tileBytes(n, f, arrays, r.precision) <= limit &&
           f * workItems <= items;
  };
  if (r.fftsPerGroup > 0)
    return fits(r.fftsPerGroup, localMemoryBudget(r)) ? r.fftsPerGroup : 0;
  const int64_t most = std::min<int64_t>(128 / complexBytes(r.precision), items / workItems);
  if (most < 1 || !localFits(n, r, 1)) return 0;
  int64_t best = 1;
  for (int64_t f = std::min(rows, most); f >= 2; --f)
    if (fits(f, localMemoryFor(r, f))) {
      best = f;
      break;
    }
  // No divisor of the rows from two sectors to 128 bytes (a batch with large prime factors,
  // rows of f64 2291 x 121 for 14641): the least divisor up to 256 bytes that fits, rather
  // than tiles of one column, whose blocks of n / R work-items read 16 of every 32-byte
  // sector (f64 14641: [1, 11] work-items, 32 blocks and 352 threads an SM; 11 columns:
  // 121 work-items, 7 blocks, 847 threads, ptxas sm_90).
  const int64_t minWidth = kTileMinBytes / complexBytes(r.precision);
  if (best < minWidth)
    for (int64_t f = most + 1; f <= 2 * most && f <= rows; ++f)
      if (fits(f, localMemoryFor(r, f))) return f;
  return best;
}

}  // namespace

// A tile beyond 48 KiB (issue 22), for a level whose tiles within 48 KiB are narrower than
// kTileMinBytes, under a budget above it (a CUDA device's shared memory): the fewest columns
// of at least kTileMinBytes (at most 128 bytes) that divide the rows, in one local array (oneArrayTile) of at most
// a third of the budget (three blocks a multiprocessor of an H100/H200: 227 KiB of 228 a
// block) and at most 512 work-items (two blocks by threads, and by registers up to 64 a
// work-item); 0 when none does. f32 1024 x 8 columns (64 KiB) lets 2^19 and 2^20 run in two
// levels, f64 1024 x 4 2^19 (2^20, both levels wide at 512 threads an SM: wideSplitPays).
int64_t wideTileColumns(int64_t n, const std::vector<int64_t>& rs, int64_t rows,
                        const FftRequest& r) {
  const int64_t budget = localMemoryBudget(r);
  if (budget <= kLocalMemoryBytes || r.fftsPerGroup > 0 || !oneArrayTile(rs)) return 0;
  const int64_t minWidth = kTileMinBytes / complexBytes(r.precision);
  const int64_t most = std::min(rows, 128 / complexBytes(r.precision));
  for (int64_t f = minWidth; f <= most && f * tileWorkItems(rs) <= 512; ++f)
    if (rows % f == 0 && tileBytes(n, f, 1, r.precision) <= budget / 3) return f;
  return 0;
}

// An N-D column dimension's tile beyond 48 KiB where wideTileColumns has none (issue 22 item
// 4): the fewest columns of at least 64 bytes (8 f32, 4 f64), at most 128, that divide the
// rows, in one local array of at most the whole budget on at most 1024 work-items; else the
// fewest of at least a 32-byte sector (4 f32, 2 f64) in one array of at most a third of the
// budget on at most 512 work-items, else of the whole budget on at most 1024 (one block a
// multiprocessor); each work-item keeping its widest butterfly in registers
// (butterflyInRegisters); 0 when none does, or when rs's first radix exceeds the others. 2048
// f32 [8, 16, 16] x 8 (128 KiB, 1024 work-items; f64 x 4, 512) and 4096 f32 [16, 16, 16] x 4
// (128 KiB, 1024) then take one pass where the four-step took two.
// The 64-byte tile first (session 24, H200,
// bench/results/2026-11-30-nvidia-h200-session24-large_ab.csv and ..-session24-ncu.csv): f32
// 2^20's [4, 16, 16] tiles of 4 columns (32 bytes, 256 work-items, 4 - 5 blocks an SM) took
// 0.900 ms against 0.711 for 8 columns (64 bytes, 512, 2 blocks), the same 1024 threads
// resident; and 2048^2 f32's sector tile (x 4, 512 work-items, 2 blocks) ran its pass at 38%
// of DRAM peak, 134 us at batch 4, against 91 us (56%) for 2^20's 64-byte pass of the same
// bytes, with 2.7x its shared-memory bank conflicts. The 64-byte tile of 2048 keeps the
// resident threads of the sector tile (f32: one block of 1024 against two of 512; f64: one of
// 512 against two of 256); its own time is the lead's A/B of session 24, not yet measured.
int64_t sectorTileColumns(int64_t n, const std::vector<int64_t>& rs, int64_t rows,
                          const FftRequest& r) {
  const int64_t budget = localMemoryBudget(r);
  // (wideTileRadices' r0 may exceed R: 3000 = [200, 15], a 200-point butterfly a work-item)
  if (budget <= kLocalMemoryBytes || r.fftsPerGroup > 0 || !oneArrayTile(rs) || rs[0] > rs[1])
    return 0;
  const int64_t sector = std::max<int64_t>(32 / complexBytes(r.precision), 1);
  const int64_t most = std::min(rows, 128 / complexBytes(r.precision));
  struct Bound {
    int64_t minWidth, limit, items;
  };
  const Bound bounds[] = {
      {2 * sector, budget, 1024}, {sector, budget / 3, 512}, {sector, budget, 1024}};
  for (const auto& [minWidth, limit, items] : bounds)
    for (int64_t f = minWidth; f <= most && f * tileWorkItems(rs) <= items; ++f)
      if (rows % f == 0 && tileBytes(n, f, 1, r.precision) <= limit &&
          butterflyInRegisters(*std::max_element(rs.begin(), rs.end()), f * tileWorkItems(rs),
                               r.precision))
        return f;
  return 0;
}

namespace {

// The threads of a multiprocessor that a wide tile (wideTileColumns) keeps resident: its
// blocks of F x tileWorkItems(rs) work-items that the registers hold, each work-item keeping
// its widest butterfly (butterflyRegisters: 2 registers a complex value in f32, 4
// in f64, twice over for the temporaries, three times beyond radix 16), at most three (a third of the shared memory each)
// and 2048 threads (sm_90). f32 [4, 16, 16] x 8: 512 threads of 64 registers, two blocks,
// 1024; f64 x 4: 256 of 128, two, 512 (ptxas sm_90: 51 and 98 registers, two blocks each,
// bench/results/2026-11-29-sm90-wide_tiles.csv).
int64_t wideTileResidentThreads(const Radices& rs, int64_t columns, Precision p) {
  constexpr int64_t kRegisters = 65536, kThreads = 2048, kBlocksBySharedMemory = 3;
  const int64_t threads = columns * tileWorkItems(rs);
  const int64_t perThread = butterflyRegisters(*std::max_element(rs.begin(), rs.end()), p);
  const int64_t blocks =
      std::min({kRegisters / (perThread * threads), kBlocksBySharedMemory, kThreads / threads});
  return blocks * threads;
}

// Whether a split whose every level is a wide tile (`wide`, `fs` their columns) is worth a
// level: a wide tile's pass, two or three blocks a multiprocessor whose first pass loops over
// its loads (a radix-4 pass: four loads a work-item at a time), ran at two thirds of a plain
// tile's bandwidth share on an H200, 1.45x a three-level pass's time with 1024 threads
// resident (f32 2^20: 0.406 against 0.282 ms a pass), 1.6x with 512 (f64 2^20: 0.429 against
// 0.268); so two such passes beat three plain ones at half of a multiprocessor's threads (f32
// 2^20 0.813 ms against 0.845) and not at a quarter (f64 2^20 0.857 against 0.805;
// bench/results/2026-11-29-nvidia-h200-wide_tiles_ab.csv); at 800 they did (f64 10^6, [10, 10,
// 10] x 4: 0.866 ms against 0.943, bench/results/2026-11-29-nvidia-h200-fft_bench-session18.csv),
// so the bound is 768, three eighths. A split with a plain level gains either way (f64 2^19:
// one wide level, 0.755 against 0.788).
bool wideSplitPays(const std::vector<std::vector<int64_t>>& levels, const std::vector<int64_t>& fs,
                   const std::vector<bool>& wide, Precision p) {
  const size_t k = levels.size();
  if (!std::all_of(wide.begin(), wide.end(), [](bool w) { return w; })) return true;
  for (size_t s = 0; s < k; ++s)  // stage s transforms level k-1-s
    if (wideTileResidentThreads(levels[k - 1 - s], fs[s], p) < 768) return false;
  return true;
}

}  // namespace

// The radices of a wide tile of n (wideTileColumns): [r0, R, ..., R], the largest R <= 16 of
// which n is r0 times a power (r0 <= R), so that the tile's rows take the fewest work-items
// (n / R, tileWorkItems) and its passes after the first share one array: 1024 = [4, 16, 16],
// 64 work-items a row (512 for 8 columns) where chooseRadices' [16, 8, 8] takes 128 (1024,
// one block a multiprocessor at 56 registers); {} when no R has a power in n.
Radices wideTileRadices(int64_t n) {
  for (int64_t q = 16; q >= 2; --q) {
    if (n % q != 0 || n == q) continue;
    Radices rs;
    int64_t m = n;
    for (; m % q == 0 && m > q; m /= q) rs.push_back(q);
    rs.insert(rs.begin(), m);
    return rs;
  }
  return {};
}

namespace {

// The radices of a level's tile of n: chooseRadices', unless [r0, R, ..., R] (r0 <= R <= 25,
// r0 = 1 left out: oneArrayTile's shape, n / R work-items a row) takes fewer passes; of those
// the fewest passes, then the fewest work-items (the largest R). A tile of unequal radices
// takes n / (least radix) work-items a row: 100000's levels [10, 5, 5] and [16, 5, 5] took 50
// and 80, x 16 and 11 columns = 800 and 880 threads of 49 - 51 registers, one block an SM (f64
// 90 registers, 400 threads); [10, 25] and [16, 25] take 10 and 16: 160 - 176 threads of 64
// registers, 5 - 6 blocks (f64 130 - 138, 4 - 5 blocks; ptxas sm_90). R stops at 25 (5^2):
// the powers of two keep chooseRadices' (a pass fewer needs radix 32: 1024 = [32, 32]).
Radices tileLevelRadices(int64_t n) {
  Radices best = chooseRadices(n);
  for (int64_t q = 25; q >= 2; --q) {
    if (n % q != 0 || n == q) continue;
    Radices rs;
    int64_t m = n;
    for (; m % q == 0; m /= q) rs.push_back(q);
    if (m > q) continue;
    if (m > 1) rs.insert(rs.begin(), m);
    if (rs.size() < best.size()) best = std::move(rs);
  }
  return best;
}

// The radices split into k levels, outermost first, by one rule with or without the request's
// radices: n_1 = the largest (product of a prefix of the radices | divisor of N) at most
// N^(1/k), then the rest likewise (n_2 at most (N/n_1)^(1/(k-1)), ...); each level takes at
// least one radix. Without radices each n_g is then split by chooseRadices. So the heuristic
// plan's radices, given back, split as the heuristic did (the tuner's space holds that plan).
// With the request's level sizes, those (the radices cut where the running product reaches
// n1, n1·n2; UserError when it steps over one).
std::vector<std::vector<int64_t>> splitLevels(const FftRequest& r, int k) {
  std::vector<std::vector<int64_t>> levels;
  if (!r.levelSizes.empty()) {
    if (r.radices.empty()) {
      for (int64_t n : r.levelSizes) levels.push_back(tileLevelRadices(n));
      return levels;
    }
    size_t i = 0;
    for (int64_t n : r.levelSizes) {
      std::vector<int64_t> rs;
      int64_t p = 1;
      while (i < r.radices.size() && p < n) {
        p *= r.radices[i];
        rs.push_back(r.radices[i++]);
      }
      if (p != n)
        throw UserError(fmt::format("level sizes {}: not products of consecutive radices {}",
                                    listText(r.levelSizes), listText(r.radices)));
      levels.push_back(rs);
    }
    return levels;
  }
  if (!r.radices.empty()) {
    if (r.radices.size() < static_cast<size_t>(k)) return {};
    size_t i = 0;
    int64_t rest = r.size;
    for (int g = 0; g < k; ++g) {
      const double goal = std::pow(static_cast<double>(rest), 1.0 / (k - g)) * (1 + 1e-9);
      std::vector<int64_t> rs;
      int64_t p = 1;
      while (i < r.radices.size() &&
             (g + 1 == k || (r.radices.size() - i > static_cast<size_t>(k - g - 1) &&
                             (rs.empty() || static_cast<double>(p * r.radices[i]) <= goal)))) {
        p *= r.radices[i];
        rs.push_back(r.radices[i++]);
      }
      levels.push_back(rs);
      rest /= p;
    }
    return levels;
  }
  int64_t rest = r.size;
  for (int g = 0; g < k; ++g) {
    int64_t n = rest;
    if (g + 1 < k) {
      n = 1;
      const double goal = std::pow(static_cast<double>(rest), 1.0 / (k - g)) * (1 + 1e-9);
      for (int64_t d = 2; static_cast<double>(d) <= goal; ++d)
        if (rest % d == 0) n = d;
    }
    if (n < 2) return {};
    levels.push_back(tileLevelRadices(n));
    rest /= n;
  }
  return levels;
}

// Two or three levels and each stage's tile columns, under the request's levels, level sizes,
// radices and FFTs per group (UserError when no split fits).
HierarchicalChoice chooseHierarchical(const FftRequest& r) {
  if (!r.radices.empty() && product(r.radices) != r.size)
    throw UserError(fmt::format("radices {}: their product is {}, not the size {}",
                                listText(r.radices), product(r.radices), r.size));
  if (r.workgroupSize > 0)
    throw UserError(
        "hierarchical variant: the work-items per row are set by the radices "
        "(n_i / min radix per level); give --ffts-per-group only");
  // Two levels when every stage's tile is at least 64 bytes wide (two memory sectors), else
  // three; the widest tiles of the two when neither is. (On an H100, f32 2^17 and 2^18 with
  // two levels of 4-column tiles took 1.9x and 2.2x cuFFT's time, with three levels 1.5x.)
  // Wide tiles (beyond 48 KiB) count as 64 bytes wide, but two levels of them only where
  // wideSplitPays; else three levels when they fit, else the two.
  const int64_t minWidth = kTileMinBytes / complexBytes(r.precision);
  std::vector<std::vector<int64_t>> best;
  std::vector<int64_t> bestF;
  std::vector<int> counts = {2, 3};
  if (r.levels != 0) counts = {static_cast<int>(r.levels)};  // validated by choosePlan
  if (!r.levelSizes.empty()) counts = {static_cast<int>(r.levelSizes.size())};
  for (int k : counts) {
    auto levels = splitLevels(r, k);
    if (levels.empty()) continue;
    // stage s transforms level k-1-s; its rows are the batch times the other levels' sizes
    std::vector<int64_t> fs;
    std::vector<bool> wideStages;
    for (int s = 0; s < k; ++s) {
      auto& rs = levels[static_cast<size_t>(k - 1 - s)];
      const int64_t n = product(rs), rows = r.batch * (r.size / n);
      int64_t f = tileColumns(n, rs, rows, r, oneArrayTile(rs) ? 1 : 2);
      bool isWide = false;
      if (f < minWidth) {  // beyond 48 KiB, with the wide tile's radices unless the request's
        Radices wide = r.radices.empty() ? wideTileRadices(n) : rs;
        if (const int64_t g = wide.empty() ? 0 : wideTileColumns(n, wide, rows, r); g > 0) {
          rs = std::move(wide);
          f = g;
          isWide = true;
        }
      }
      fs.push_back(f);
      wideStages.push_back(isWide);
    }
    const int64_t least = *std::min_element(fs.begin(), fs.end());
    if (least >= minWidth ||
        (least > 0 && (bestF.empty() || least > *std::min_element(bestF.begin(), bestF.end())))) {
      best = levels;
      bestF = fs;
      // every level wide at a low occupancy: the next count's plain levels when they fit
      // (wideSplitPays), else these
      if (least >= minWidth &&
          (k == counts.back() || wideSplitPays(levels, fs, wideStages, r.precision)))
        break;
    }
  }
  if (best.empty())
    throw UserError(fmt::format(
        "hierarchical variant: N = {} {} has no split into {} levels whose tiles fit in {} "
        "bytes of local memory{}",
        r.size, precisionName(r.precision),
        counts.size() == 1 ? std::to_string(counts.front()) : "2 or 3",
        r.fftsPerGroup > 0 ? localMemoryBudget(r) : localMemoryFor(r, 2),  // automatic: 48 KiB
        r.fftsPerGroup > 0 ? fmt::format(" with {} columns per work-group", r.fftsPerGroup) : ""));
  return {.levels = best, .columns = bestF};
}

bool hierarchicalFits(const FftRequest& r) {
  try {
    (void)chooseHierarchical(r);
    return true;
  } catch (const UserError&) {
    return false;
  }
}

// Auto: the first that applies of Stockham (N = 1: a copy), Local (one kernel through local
// memory), Hierarchical (one pass per level, each through local memory), the twiddle variant
// (the butterflies as small FFTs: r loads, not r^2), Bluestein (N not planned by
// radices: plannedByRadices, unless a prime whose Rader butterfly fits a work-item:
// primeInOneWorkItem).
Variant chooseVariant(const FftRequest& r) {
  if (r.variant != Variant::Auto) return r.variant;
  if (r.size == 1) return Variant::Stockham;
  // a prime factor above kLargestRaderRadix as a Rader pass in one kernel (raderPassPlan; a
  // request naming its radices gets it too, as the tuner names the planner's plans)
  if (const auto plan = raderPassPlan(r.size, r);
      plan && (r.radices.empty() || r.radices == plan->radices))
    return Variant::Local;
  const bool smooth = plannedByRadices(r.size, r.precision);
  if (smooth && (r.radices.empty() || product(r.radices) == r.size) &&
      (localKernelFits(r.radices.empty() ? localRadices(r.size, r.precision) : r.radices, r) ||
       (r.radices.empty() ? !oneArrayRadicesFor(r.size, r).empty()
                          : oneArrayKernelFits(r.radices, r))))
    return Variant::Local;
  // levels and level sizes are the hierarchical variant's alone: a request with them whose
  // tiles do not fit gets that variant's reason (`--levels 2 --ffts-per-group 16` for 2^17 was
  // refused by the twiddle variant for its work-group shape)
  if ((!r.radices.empty() || smooth) &&
      (hierarchicalFits(r) || r.levels != 0 || !r.levelSizes.empty()))
    return Variant::Hierarchical;
  if (!r.radices.empty() || smooth) return Variant::StockhamTwiddle;
  return Variant::Bluestein;
}

// The one-kernel local-memory instantiation: F (FFTs per work-group) bound, the stage's shape.
void bindLocalShape(PlanChoice& c, const LocalShape& shape) {
  c.defines["F"] = shape.fftsPerGroup;
  c.stageLocal = {{shape.workgroupSize, shape.fftsPerGroup}};
}

// Local with a Rader pass (raderPassPlan): stockhamLocal with rs and rsR, the request's
// work-group shape where it has one.
PlanChoice chooseRaderPassPlan(const FftRequest& r, const RaderPassPlan& plan) {
  PlanChoice c;
  c.variant = Variant::Local;
  c.radices = plan.radices;
  c.file = "fft.fdl";
  c.kernel = "stockhamLocal";
  c.defines["rs"] = plan.radices;
  c.defines["rsR"] = plan.convolution;
  LocalShape shape{.workgroupSize = r.workgroupSize > 0 ? r.workgroupSize : plan.workItems,
                   .fftsPerGroup = r.fftsPerGroup > 0 ? r.fftsPerGroup : plan.fftsPerGroup};
  const int64_t p = plan.radices.front();
  const int64_t bytes = raderPassLocalBytes(r.size, p, shape.fftsPerGroup, r.precision);
  if (bytes > localMemoryFor(r, shape.fftsPerGroup) ||
      shape.workgroupSize * shape.fftsPerGroup > 1024)
    throw UserError(fmt::format(
        "local variant with a Rader pass: {} rows of N = {} {} ({} bytes in its local "
        "storages) in {} work-items do not fit in {} bytes of local memory and 1024 work-items",
        shape.fftsPerGroup, r.size, precisionName(r.precision), bytes,
        shape.workgroupSize * shape.fftsPerGroup, localMemoryFor(r, shape.fftsPerGroup)));
  bindLocalShape(c, shape);
  c.detail = LocalChoice{.radices = plan.radices,
                         .shape = shape,
                         .raderPass = plan.convolution,
                         .minBlocksPerSm = raderPassMinBlocks(
                             shape.workgroupSize * shape.fftsPerGroup, bytes, plan.widest, r)};
  return c;
}

// A looped one-array kernel (loopedOneArrayWorkItems) that registers hold to one block a
// multiprocessor while shared memory and threads hold two: two asked of ptxas
// (__launch_bounds__(T, 2)), where that cap keeps at least half of the widest butterfly's
// estimated registers (butterflyRegisters, as raderPassMinBlocks). f32 8448 [16, 4, 11, 12] on
// 768 work-items: 55 -> 40 registers, 48 bytes spilled, one -> two blocks, 0.83x the time on
// an H200 (session 23, `--min-blocks 2`); 16807 f32 (134 KB) and f64 8448 keep one block by
// shared memory. CUDA only; 0 otherwise.
int64_t loopedMinBlocks(int64_t looped, int64_t localBytes, int64_t widest, const FftRequest& r) {
  // the multiprocessor-wide register model (min_blocks.h: measured so; ptxas's sub-partition
  // one would change unmeasured plans: the next step)
  constexpr int64_t kThreads = 2048;
  if (r.target != compiler::pipeline::Target::Cuda || looped < 1 || 2 * looped > kThreads) return 0;
  const int64_t warps = (looped + 31) / 32;
  const int64_t estimate =
      std::min<int64_t>(kMostRegisters, butterflyRegisters(widest, r.precision));
  const int64_t byRegisters = multiprocessorRegisterBlocks(warps, estimate);
  // (at most 1024 threads, 32 warps: the 64 warps' bound keeps 2 blocks)
  const int64_t byShared = blocksBySharedMemory(r, localBytes, warps);
  const int64_t atTwo = multiprocessorRegisterCap(warps, 2);
  return byRegisters < 2 && byShared >= 2 && 2 * atTwo >= estimate ? 2 : 0;
}

// An odd size whose two local arrays shared memory holds to two blocks a multiprocessor (under a
// budget above the default: a CUDA device's share, issue 23): the work-items of one array of its
// radices, each looping over two butterflies of every pass from local memory to local memory
// (half the uniform work-items, rounded up to whole warps), where those fit their registers; 0
// where the rule does not apply. On an H200 (fftc run, fft_bench's batch, median of 10; two
// arrays -> one array on the uniform work-items -> one array on half of them,
// bench/results/2026-11-30-nvidia-h200-session24-odd_one_array.csv): f32 6561 [9, 9, 9, 9]
// 0.389 -> 0.324 (729) -> 0.304 ms (384; 256: 0.313, 448: 0.342), f64 3125 [5, 5, 5, 5, 5]
// 0.418 -> 0.341 (625) -> 0.321 (320; 256: 0.412), f64 2401 [7, 7, 7, 7] 0.313 -> 0.289 (343)
// -> 0.292 (192). Capping the registers for a block more (--min-blocks 4) spilled and lost
// (6561 0.487, 3125 0.532). Even sizes, sizes whose two arrays hold three blocks or more (f64
// 2197: 70 KB), and radices above 9 (two butterflies of f32 4913's radix 17 or f64 3375's 15 a
// work-item: not measured) keep two arrays.
int64_t oddOneArrayWorkItems(const FftRequest& r, const Radices& rs) {
  if (r.size % 2 == 0 || r.workgroupSize > 0 || r.fftsPerGroup > 0 ||
      r.localMemoryBytes <= kLocalMemoryBytes)
    return 0;
  const int64_t uniform = uniformOneArrayWorkItems(rs);
  if (uniform == 0 || std::ranges::max(rs) > 9 || !oneArrayKernelFits(rs, r)) return 0;
  const int64_t twoArrays =
      2 * compiler::codegen::CodegenOptions{}.paddedLocalCount(r.size, r.size) *
      complexBytes(r.precision);
  if (blocksBySharedMemory(r, twoArrays) != 2) return 0;
  const int64_t w = ((uniform + 1) / 2 + 31) / 32 * 32;
  return w < uniform && loopedFits(rs, w, r.precision) ? w : 0;
}

// Stockham, twiddle, Cooley-Tukey and Local: fft.fdl with rs.
PlanChoice choosePasses(const FftRequest& r, Variant v) {
  if (!r.radices.empty() && product(r.radices) != r.size)
    throw UserError(fmt::format("radices {}: their product is {}, not the size {}",
                                listText(r.radices), product(r.radices), r.size));
  if (v == Variant::Local)
    if (const auto plan = raderPassPlan(r.size, r);
        plan && (r.radices.empty() || r.radices == plan->radices))
      return chooseRaderPassPlan(r, *plan);
  PlanChoice c;
  c.variant = v;
  // one kernel: a row that fits a work-item's registers is one radix (rowInOneWorkItem)
  c.radices = !r.radices.empty()   ? r.radices
              : v == Variant::Local ? localRadices(r.size, r.precision)
                                    : chooseRadices(r.size);
  c.file = "fft.fdl";
  c.defines["rs"] = c.radices;
  if (v != Variant::Local) {
    refuseShape(r, v);
    c.kernel = v == Variant::Stockham          ? "stockham"
               : v == Variant::StockhamTwiddle ? "stockhamTwiddle"
                                               : "cooleyTukey";
    c.detail = GlobalPassesChoice{c.radices};
    return c;
  }
  // One local array where two do not fit the budget and one does (the radices chosen for it
  // when the request has none).
  bool oneArray = false;
  if (r.radices.empty() && !localKernelFits(c.radices, r)) {
    if (Radices one = oneArrayRadicesFor(r.size, r); !one.empty()) {
      c.radices = one;
      c.defines["rs"] = one;
      oneArray = true;
    }
  } else if ((!localFits(r.size, r) || !localKernelFits(c.radices, r)) &&
             oneArrayKernelFits(c.radices, r)) {  // as oneArrayRadicesFor: a request naming the
    oneArray = true;                               // planner's radices gets the planner's plan
  }
  // Two blocks a multiprocessor where two arrays hold one: under a budget above the default
  // (a CUDA device's share), when two arrays take more than half of it and one array fits in
  // half, one array (on an H200: f64 4096 [16, 16, 16] 0.396 -> 0.280 ms, f32 8192
  // [16, 8, 8, 8] 0.396 -> 0.381; bench/results/2026-11-29-nvidia-h200-one_array_local.csv).
  if (!oneArray && r.localMemoryBytes > kLocalMemoryBytes) {
    FftRequest half = r;
    half.localMemoryBytes = r.localMemoryBytes / 2;
    // (the looped passes only where no two-array kernel runs: not measured against one)
    const Radices one = r.radices.empty() ? oneArrayRadicesFor(r.size, half, false) : r.radices;
    if (!localFits(r.size, half) && uniformOneArrayWorkItems(one) > 0 &&
        oneArrayKernelFits(one, half)) {
      c.radices = one;
      c.defines["rs"] = one;
      oneArray = true;
    }
  }
  // an odd size that two arrays hold to two blocks an SM: one array, two butterflies a work-item
  FftRequest shapeRequest = r;
  if (!oneArray)
    if (const int64_t w = oddOneArrayWorkItems(r, c.radices); w > 0) {
      oneArray = true;
      shapeRequest.workgroupSize = w;
    }
  const LocalShape shape = chooseLocalShape(shapeRequest, c.radices, oneArray);
  c.kernel = "stockhamLocal";
  bindLocalShape(c, shape);
  c.localReuseInPass = oneArray;
  // passes whose butterflies are not the work-group's: each work-item loops over its share
  // (fft.fdl's W, common.fdl's onWorkItems)
  const int64_t uniform = uniformOneArrayWorkItems(c.radices);
  const int64_t looped =
      oneArray && (uniform == 0 || shape.workgroupSize != uniform) ? shape.workgroupSize : 0;
  if (looped > 0) c.defines["W"] = looped;
  if (c.radices.size() == 1 && shape.workgroupSize == 1) {  // one work-item per row:
    c.kernel = "stockhamLocalCopy";                         // the coalescing copies
    c.stageLocal = {{shape.fftsPerGroup, 1}};
  }
  // the padding period the passes' stores meet the fewest banks with, where the arrays still
  // fit padded so
  const int64_t every = localPaddingFor(c.radices, r.precision);
  const int64_t count = r.size * shape.fftsPerGroup;
  const int64_t padded =
      compiler::codegen::CodegenOptions{.localPadding = every}.paddedLocalCount(count, r.size);
  if (every != compiler::codegen::CodegenOptions{}.localPadding &&
      (oneArray ? 1 : 2) * padded * complexBytes(r.precision) <=
          localMemoryFor(r, shape.fftsPerGroup))
    c.localPadding = every;
  // (a looped kernel is one array: the blocks rules below take the same bytes)
  const int64_t localBytes = (oneArray ? 1 : 2) * padded * complexBytes(r.precision);
  c.detail = LocalChoice{
      .radices = c.radices,
      .shape = shape,
      .oneArray = oneArray,
      .loopedWorkItems = looped,
      .minBlocksPerSm =
          looped > 0 ? loopedMinBlocks(looped, localBytes, std::ranges::max(c.radices), r)
                     : widePrimeMinBlocks(shape.workgroupSize * shape.fftsPerGroup, localBytes,
                                          c.radices, r)};
  return c;
}

// Radices of a power of two n whose smallest is at least `least` where chooseRadices' would
// leave a block of a cluster more than 1024 work-items: radix 16s, the remaining factor of two
// spread over them (2^17: [16, 16, 16, 32]; 2^15: [32, 32, 32]); empty when there is none.
Radices clusterRadices(int64_t n, int64_t least) {
  if (n < 16 || (n & (n - 1)) != 0) return {};
  int k = 0;
  while ((int64_t{1} << k) < n) ++k;
  std::vector<int> parts(static_cast<size_t>(k / 4), 4);
  for (int rem = k % 4, i = 0; rem > 0; --rem, ++i) ++parts[static_cast<size_t>(i) % parts.size()];
  Radices rs;
  for (int p : parts) rs.push_back(int64_t{1} << p);
  std::sort(rs.begin(), rs.end(), std::greater<>());
  return rs.back() >= least && rs.front() <= 64 ? rs : Radices{};
}

// The radices of a block's M-point FFT (M a power of two): the fewest passes of at most radix
// 16 whose every pass has at most 1024 butterflies, the bits spread evenly (8192: [16, 8, 8, 8]
// on 1024 work-items). clusterRadices' [32, 16, 16] on 512 spilled 56 B a work-item (ptxas sm_90,
// 128 registers); with 16 at most, 52 registers and no spills. Empty when none does.
Radices blockRadices(int64_t m) {
  if (m < 2 || (m & (m - 1)) != 0) return {};
  int bits = 0;
  while ((int64_t{1} << bits) < m) ++bits;
  for (int passes = (bits + 3) / 4; passes <= bits; ++passes) {
    const int least = bits / passes;
    if ((m >> least) > 1024) continue;
    Radices rs;
    for (int q = 0; q < passes; ++q) rs.push_back(int64_t{1} << (least + (q < bits % passes ? 1 : 0)));
    return rs;
  }
  return {};
}

// A one-kernel plan over clusters of c blocks of perBlock work-items each (fourStepCluster,
// stockhamCluster), its passes in one local array or two.
PlanChoice clusterChoice(const char* file, const char* kernel, const Radices& rs, int64_t c,
                         int64_t perBlock, bool oneArray) {
  PlanChoice p;
  p.variant = Variant::Local;
  p.radices = rs;
  p.file = file;
  p.kernel = kernel;
  p.defines["rs"] = rs;
  p.stageLocal = {{perBlock, 1}};
  p.localReuseInPass = oneArray;
  p.detail = LocalChoice{.radices = rs,
                         .shape = LocalShape{perBlock * c, 1},
                         .oneArray = oneArray,
                         .clusterBlocks = c};
  return p;
}

// cluster.fdl fourStepCluster where it fits: N = M C, each block's M-point FFT in its own local
// memory (two arrays of M, or one where that fits more blocks a multiprocessor) beside its share
// of the distributed array the blocks exchange through (M: the load's and the result's),
// radices of M with at most 1024 butterflies a pass, and C last. Empty when three arrays of M do not fit a block or the passes would need more
// work-items than a block has.
std::optional<PlanChoice> fourStepClusterPlan(const FftRequest& r, int64_t c) {
  const int64_t m = r.size / c;
  // the arrays as code generation pads them
  const int64_t array =
      compiler::codegen::CodegenOptions{}.paddedLocalCount(m) * complexBytes(r.precision);
  const int64_t budget = localMemoryBudget(r);
  if (r.size % c != 0 || 3 * array > budget) return std::nullopt;
  // the request's radices when they end in C (M's, then C), else clusterRadices'
  if (!r.radices.empty() && (r.radices.back() != c || product(r.radices) != r.size))
    return std::nullopt;
  Radices rs = r.radices.empty() ? blockRadices(m) : Radices(r.radices.begin(), r.radices.end() - 1);
  if (rs.empty()) return std::nullopt;
  const int64_t w = m / *std::min_element(rs.begin(), rs.end());
  // the last pass: M / C butterflies a block, w at a time
  if (w > 1024 || m % w != 0 || m % c != 0 || (m / c > w && (m / c) % w != 0)) return std::nullopt;
  rs.push_back(c);
  // the block's FFT in one array (each pass reads, waits, writes) where that lets a multiprocessor
  // hold more of the blocks (2^15 over 8: 96 -> 64 KiB, 2 -> 3 blocks)
  PlanChoice p = clusterChoice("cluster.fdl", "fourStepCluster", rs, c, w,
                               budget / (2 * array) > budget / (3 * array));
  p.defines["W"] = w;
  return p;
}

// Cluster (FftRequest::clusterBlocks): cluster.fdl fourStepCluster where it fits (above), else
// stockhamCluster, the whole row in one kernel over
// a thread-block cluster of C work-groups, its local arrays distributed over their shared
// memories (a share of N / C elements each). Two arrays where two shares fit the budget, else
// one (each pass reads, waits, writes); the blocks take the longest pass's butterflies over C.
PlanChoice chooseClusterPlan(const FftRequest& r) {
  const int64_t c = r.clusterBlocks;
  if (r.variant != Variant::Auto && r.variant != Variant::Local)
    throw UserError(fmt::format("cluster {}: the one-kernel FFT over a cluster, not the {} variant",
                                c, variantName(r.variant)));
  if (!r.pre.empty() || !r.post.empty() || !r.inLayout.isDefault() || !r.outLayout.isDefault())
    throw UserError(fmt::format("cluster {}: dense layouts without callbacks only", c));
  if (r.workgroupSize > 0 || r.fftsPerGroup > 0)
    throw UserError(fmt::format("cluster {}: the cluster plan chooses its work-groups itself", c));
  if (!plannedByRadices(r.size, r.precision))
    throw UserError(fmt::format("cluster {}: N = {} is not planned by radices", c, r.size));
  if (auto p = fourStepClusterPlan(r, c)) return *p;
  Radices rs = r.radices.empty() ? chooseRadices(r.size) : r.radices;
  if (rs.empty() || product(rs) != r.size)
    throw UserError(fmt::format("cluster {}: radices {} are not of N = {}", c, listText(rs), r.size));
  if (r.radices.empty() && r.size / *std::min_element(rs.begin(), rs.end()) / c > 1024)
    if (Radices wide = clusterRadices(r.size, r.size / (1024 * c)); !wide.empty()) rs = wide;
  const int64_t share = r.size / c * complexBytes(r.precision);
  const int64_t budget = localMemoryBudget(r);
  if (share > budget)
    throw UserError(fmt::format("cluster {}: a block's share of N = {} is {} bytes of local "
                                "memory, more than the {} a work-group may take (--local-memory)",
                                c, r.size, share, budget));
  const int64_t least = *std::min_element(rs.begin(), rs.end());
  const int64_t butterflies = r.size / least;  // of the pass of the smallest radix
  if (butterflies % c != 0)
    throw UserError(fmt::format("cluster {}: the {} butterflies of a radix-{} pass of N = {} are "
                                "not shared evenly by its blocks",
                                c, butterflies, least, r.size));
  const int64_t perBlock = butterflies / c;
  if (perBlock > 1024)
    throw UserError(fmt::format("cluster {}: the {} butterflies of a radix-{} pass of N = {} take "
                                "{} work-items a block, more than 1024 (a larger cluster, or "
                                "larger radices)",
                                c, butterflies, least, r.size, perBlock));
  PlanChoice p = clusterChoice("fft.fdl", "stockhamCluster", rs, c, perBlock, 2 * share > budget);
  p.defines["C"] = c;
  return p;
}

// Hierarchical: hierarchical.fdl with rs1, rs2[, rs3] and each stage's columns F1, F2[, F3].
PlanChoice chooseHierarchicalPlan(const FftRequest& r) {
  HierarchicalChoice h = chooseHierarchical(r);
  const auto k = h.levels.size();
  PlanChoice c;
  c.variant = Variant::Hierarchical;
  for (const auto& rs : h.levels) c.radices.insert(c.radices.end(), rs.begin(), rs.end());
  c.file = "hierarchical.fdl";
  c.kernel = k == 3 ? "hierarchicalLocal3" : "hierarchicalLocal";
  c.defines["rs1"] = h.levels[0];
  c.defines["rs2"] = h.levels[1];
  if (k == 3) c.defines["rs3"] = h.levels[2];
  for (size_t s = 0; s < k; ++s) {  // stage s transforms level k-1-s
    const auto& rs = h.levels[k - 1 - s];
    c.defines[fmt::format("F{}", s + 1)] = h.columns[s];
    c.stageLocal.push_back({h.columns[s], tileWorkItems(rs)});
  }
  // the first stage's copy-out spreads its tile over these work-items a row (hierarchical.fdl's
  // twiddledTileFor), the launch shape's
  c.defines["W1"] = c.stageLocal.front()[1];
  // each stage's tile row takes its first pass's butterflies at once on these (fftTileW)
  for (size_t s = 1; s < k; ++s) c.defines[fmt::format("W{}", s + 1)] = c.stageLocal[s][1];
  // The tiles' passes share one local array wherever code generation finds it legal (each
  // pass reads its elements, waits, writes): half the local memory a block where a tile had
  // two, and ptxas gives the radix-16 tiles fewer registers (f32 68 -> 48, f64 122 -> 96); no
  // pass of fft_bench's plans at 2^14 .. 2^24 lost occupancy or spilled
  // (bench/results/2026-11-29-sm90-tile_occupancy.csv).
  c.localReuseInPass = true;
  // The tile's F rows one element apart in the banks (CodegenOptions::localRowSkew): its
  // work-items take the F rows at one offset, which without it met in the same banks.
  c.localRowSkew = true;
  c.detail = std::move(h);
  return c;
}

// bluesteinFourStep's split M = n1·n2 and its passes' lines per work-group, when both halves
// fit a local line kernel (false: none does). Without the request's radices, n1 is
// fourStepSplit's (the largest divisor of M at most sqrt(M) whose halves fit) and each half is
// chooseRadices'; with them, the cut after the prefix of the largest product at most sqrt(M)
// whose halves fit, so that the heuristic's radices given back split as it did.
bool chooseBluesteinFourStep(const FftRequest& r, BluesteinChoice& b, PlanChoice& c) {
  Radices rs1, rs2;
  const auto sqrtM = static_cast<int64_t>(std::sqrt(static_cast<double>(b.m)));
  if (r.radices.empty()) {
    const int64_t n1 = fourStepSplit(b.m, r);
    if (n1 == 0) return false;
    rs1 = chooseRadices(n1);
    rs2 = chooseRadices(b.m / n1);
  } else {
    for (size_t k = 1; k < r.radices.size(); ++k) {
      Radices head(r.radices.begin(), r.radices.begin() + static_cast<std::ptrdiff_t>(k)),
          tail(r.radices.begin() + static_cast<std::ptrdiff_t>(k), r.radices.end());
      if (product(head) <= sqrtM && localKernelFits(head, r) && localKernelFits(tail, r)) {
        rs1 = std::move(head);
        rs2 = std::move(tail);
      }
    }
  }
  if (rs1.empty() || !localKernelFits(rs1, r) || !localKernelFits(rs2, r)) return false;
  if (r.workgroupSize > 0)
    throw UserError(
        "bluestein in three passes (M beyond local memory): the work-items per line are set "
        "by the radices (n_i / min radix); give --ffts-per-group only");
  const int64_t n1 = product(rs1), n2 = product(rs2);
  // passes 1 and 3: B·n1 strided lines of n2 (local dimension 0); pass 2: B·n2 rows of n1
  c.stageLocal.clear();
  int64_t f1 = linePass(r, rs2, true, r.batch * n1, c.stageLocal);
  int64_t f2 = linePass(r, rs1, false, r.batch * n2, c.stageLocal);
  if (const int64_t f = r.fftsPerGroup; f > 0) {  // the request's, for every pass
    const int64_t most1 = n1 / *std::min_element(rs1.begin(), rs1.end()),
                  most2 = n2 / *std::min_element(rs2.begin(), rs2.end());
    if ((r.batch * n1) % f != 0 || (r.batch * n2) % f != 0 || !localFits(n1, r, f) ||
        !localFits(n2, r, f) || f * std::max(most1, most2) > 1024)
      throw UserError(fmt::format(
          "ffts per group {}: bluestein in three passes (M = {} = {} x {}) takes groups of "
          "lines that divide B·n1 = {} and B·n2 = {} and fit local memory",
          f, b.m, n1, n2, r.batch * n1, r.batch * n2));
    f1 = f2 = f;
    c.stageLocal = {{f, most2}, {most1, f}};
  }
  c.stageLocal.push_back(c.stageLocal.front());  // pass 3: pass 1's lines again
  b.radicesM = rs1;
  b.radicesM.insert(b.radicesM.end(), rs2.begin(), rs2.end());
  b.n1End = static_cast<int64_t>(rs1.size());
  b.linesPerGroup = {f1, f2, f1};
  c.kernel = "bluesteinFourStep";
  c.radices = b.radicesM;
  c.defines["rsM"] = b.radicesM;
  c.defines["n1End"] = b.n1End;
  c.defines["F1"] = f1;
  c.defines["F2"] = f2;
  c.defines["F3"] = f1;
  return true;
}

// Bluestein: bluestein.fdl with N and rsM, in one kernel through local memory when M fits (as
// the Local variant), else in three passes (bluesteinFourStep) when M splits into two halves
// that each fit a local line kernel, else a pass over global memory per step (bluesteinGlobal:
// M beyond local memory squared, or a request's radices that split no other way).
// Rader (rader.fdl raderLocal) for the variant's automatic choice on a prime whose N - 1 fits
// (raderRadices), and for a Bluestein request whose radices have the product N - 1 of a prime N
// (the tuner's way to name it: Bluestein's M is at least 2N - 1 otherwise); a request with a
// work-group shape, or other radices, gets Bluestein's kernels as before. F rows a work-group
// as the Local variant's rule (rowsPerGroup), within the three local arrays of N - 1 of a row;
// a row takes the widest pass's work-items, (N - 1) / min(r), not workItemsPerRow's fewer: on
// an H200 (bench/results/2026-11-26-nvidia-h200-rader_workitems_ab.csv) 61 [4, 15] went from
// 1.52 to 1.22x cuFFT's time (f64 1.19 -> 0.87), 31 [2, 15] from 7.9 to 6.9, the rest equal.
// A request's F that Rader's kernel refuses (`refused`: why) goes to Bluestein, whose three
// passes over global memory may take it (f32 1901 F = 2); where Bluestein's kernel in local
// memory refuses it too, the error is Rader's (chooseBluesteinPlan).
std::optional<PlanChoice> chooseRaderPlan(const FftRequest& r, std::string& refused) {
  const bool prime = r.size >= 3 && largestPrimeFactor(r.size) == r.size;
  const bool named = !r.radices.empty() && product(r.radices) == r.size - 1 && prime;
  if ((r.variant != Variant::Auto || !r.radices.empty()) && !named) return std::nullopt;
  if (r.workgroupSize > 0) return std::nullopt;
  const Radices rs = named ? r.radices : raderRadices(r.size, r);
  if (rs.empty()) return std::nullopt;
  // a request's rows a work-group (an A/B of f64 43's 22 rows in 48 KiB, 4 blocks an SM, against
  // 10 - 11, 9 - 10 blocks) where their three arrays and F x the row's work-items fit; else
  // Bluestein's, as before (named radices of N - 1 have no Bluestein: an error)
  if (const int64_t f = r.fftsPerGroup; f > 0) {
    const int64_t items = (r.size - 1) / *std::min_element(rs.begin(), rs.end());
    if (f * items > 1024 || !localFits(r.size - 1, r, f, 3)) {
      refused = fmt::format("ffts per group {}: rader's three local arrays of F x (N - 1) = "
                            "{} x {} {} do not fit in {} bytes of local memory with at most "
                            "1024 work-items ({} x {})",
                            f, f, r.size - 1, precisionName(r.precision),
                            localMemoryBudget(r), f, items);
      if (named) throw UserError(refused);
      return std::nullopt;
    }
  }
  if (named && !(localFits(r.size - 1, r, 1, 3) &&
                 (r.size - 1) / *std::min_element(rs.begin(), rs.end()) <= 1024))
    throw UserError(fmt::format("rader radices {}: three local arrays of N - 1 = {} {} do not fit "
                                "in {} bytes of local memory with at most 1024 work-items",
                                listText(rs), r.size - 1, precisionName(r.precision),
                                localMemoryBudget(r)));
  const int64_t m = r.size - 1, wg = m / *std::min_element(rs.begin(), rs.end());
  int64_t f = std::max<int64_t>(std::min(256 / wg, r.batch), 1);
  while (f > 1 && !localFits(m, r, f, 3)) --f;
  const int64_t divisor = largestFittingDivisor(m, r, r.batch, f);
  if (2 * divisor >= f && localFits(m, r, divisor, 3)) f = divisor;
  if (r.fftsPerGroup > 0) f = r.fftsPerGroup;
  PlanChoice c;
  c.variant = Variant::Bluestein;
  c.radices = rs;
  c.file = "rader.fdl";
  c.kernel = "raderLocal";
  c.defines["N"] = r.size;
  c.defines["rs"] = rs;
  BluesteinChoice b{.radicesM = rs, .m = m, .rader = true, .local = true,
                    .shape = {.workgroupSize = wg, .fftsPerGroup = f}};
  bindLocalShape(c, b.shape);
  c.detail = std::move(b);
  return c;
}

PlanChoice chooseBluesteinPlan(const FftRequest& r) {
  std::string raderRefused;
  if (auto rader = chooseRaderPlan(r, raderRefused)) return *rader;
  const int64_t need = 2 * r.size - 1;
  BluesteinChoice b;
  if (!r.radices.empty()) {
    if (product(r.radices) < need)
      throw UserError(
          fmt::format("bluestein radices {}: their product M = {} must be at least 2N - 1 = {}",
                      listText(r.radices), product(r.radices), need));
    b.radicesM = r.radices;
  } else {
    b.radicesM = chooseRadices(bluesteinSize(r.size, r.precision));
  }
  b.m = product(b.radicesM);
  PlanChoice c;
  c.variant = Variant::Bluestein;
  c.radices = b.radicesM;
  c.file = "bluestein.fdl";
  c.defines["N"] = r.size;
  c.defines["rsM"] = b.radicesM;
  b.local = localKernelFits(b.radicesM, r);
  if (b.local) {
    c.kernel = "bluesteinLocal";
    try {
      b.shape = chooseLocalShape(r, b.radicesM);
    } catch (const UserError&) {
      if (!raderRefused.empty()) throw UserError(raderRefused);  // a Rader prime: Rader's limit
      throw;
    }
    bindLocalShape(c, b.shape);
  } else if (!chooseBluesteinFourStep(r, b, c)) {
    refuseShape(r, Variant::Bluestein);
    c.kernel = "bluesteinGlobal";
  }
  c.detail = std::move(b);
  return c;
}

}  // namespace

// The narrowest tiles first (fewest columns, the most work-groups): two 32-byte sectors, as
// the hierarchical tiles (kTileMinBytes), else one sector.
int64_t columnTileLines(int64_t n, int64_t workItems, int64_t rows, const FftRequest& r) {
  const int64_t elem = complexBytes(r.precision);
  for (const int64_t bytes : {kTileMinBytes, kTileMinBytes / 2}) {
    const int64_t f = bytes / elem;
    if (f < 2 || f > rows || f * workItems > 1024) continue;
    // two arrays, padded, each row skewed over the banks (CodegenOptions::localRowSkewSpread)
    const compiler::codegen::CodegenOptions o{.localRowSkew = true, .localRowSkewSpread = true};
    const int64_t skew =
        o.localPadEvery(n * f) > 0 ? (f - 1) * std::max<int64_t>(1, 128 / (f * elem)) : 0;
    if (2 * (o.paddedLocalCount(n * f) + skew) * elem <= localMemoryBudget(r)) return f;
  }
  return 0;
}

std::vector<int64_t> levelSizes(const PlanChoice& c) {
  std::vector<int64_t> sizes;
  if (const auto* h = c.as<HierarchicalChoice>())
    for (const auto& level : h->levels) sizes.push_back(product(level));
  return sizes;
}

PlanChoice choosePlan(const FftRequest& request, const PlanLimits& limits) {
  const FftRequest r = withLimits(request, limits);
  if (r.real) return chooseRealPlan(r);
  if (r.dims.size() >= 2) return chooseNdPlan(r);
  checkRequest(r);
  const Variant v = r.clusterBlocks > 0 ? Variant::Local : chooseVariant(r);
  PlanChoice c = r.clusterBlocks > 0        ? chooseClusterPlan(r)
                 : v == Variant::Hierarchical ? chooseHierarchicalPlan(r)
                 : v == Variant::Bluestein  ? chooseBluesteinPlan(r)
                                            : choosePasses(r, v);
  if ((r.levels != 0 || !r.levelSizes.empty()) && c.variant != Variant::Hierarchical)
    throw UserError(fmt::format("{}: a parameter of the hierarchical variant, not of {}",
                                r.levels != 0 ? fmt::format("levels {}", r.levels)
                                              : "level sizes " + listText(r.levelSizes),
                                variantName(c.variant)));
  c.defines["dir"] = int64_t{r.direction == Direction::Forward ? -1 : 1};
  c.defines["scale"] = int64_t{r.scale ? 1 : 0};
  c.defines["B"] = r.batch;
  return c;
}

}  // namespace fftc::fftlib
