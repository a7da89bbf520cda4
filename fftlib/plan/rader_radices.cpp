// The radices of Rader's cyclic convolution (rader.fdl raderLocal, plan_choice.h raderRadices):
// the radix list of N - 1 whose two FFTs take the fewest issue slots per row of the kernel; and
// Rader as a pass of a one-kernel plan (raderPassPlan, common.fdl raderStockPass).
#include <algorithm>
#include <limits>

#include "compiler/codegen/codegen.h"
#include "fftlib/plan/min_blocks.h"
#include "fftlib/plan/plan_choice.h"

namespace fftc::fftlib {
namespace {

// A radix's butterfly in a work-item, a relative measure: r · Σ w(f) over r's prime factors f,
// a factor 2 counting 1 (additions only) and an odd f counting f (a dense or symmetric f-point
// product). Against the PTX instructions of the emitted CUDA passes (sm_90): radix 15 855
// (120 units), 6 ~210 (24), 7 ~200 (49), 9 ~400 (54), 16 ~400 (64): 4 to 7 instructions a unit.
int64_t passWork(int64_t r) {
  int64_t sum = 0, m = r;
  for (int64_t f = 2; f * f <= m; ++f)
    for (; m % f == 0; m /= f) sum += f == 2 ? 1 : f;
  if (m > 1) sum += m == 2 ? 1 : m;
  return r * sum;
}

// The issue slots of one row of raderLocal for p = m + 1 and radices rs, in passWork's units.
// Its w = m / min(rs) work-items run every pass in lockstep: a pass of m / r butterflies costs
// w · ceil((m / r) / w) butterflies' time whatever the number of them that work, because the
// idle work-items of a warp issue with the busy ones. Both FFTs of m (forward and inverse),
// then the pointwise product by the spectrum (m elements) and the output (p elements, the
// permuted scatter with X_0): about 5 and 10 units an element (35 and 70 PTX instructions).
// 31 with [2, 15]: 15 work-items, 2 of which compute the radix-15 pass (855 instructions),
// 4320 units; [6, 5]: 6 work-items, every one busy, 1098.
int64_t rowCost(const Radices& rs, int64_t m) {
  const int64_t w = m / *std::min_element(rs.begin(), rs.end());
  int64_t passes = 0;
  for (int64_t r : rs) passes += (m / r + w - 1) / w * passWork(r);
  return w * (2 * passes + 5 * ((m + w - 1) / w) + 10 * ((m + 1 + w - 1) / w));
}

// Every radix list of m with radices of at most `most`, non-increasing, each a radix of the
// library: at most 16, or a prime up to kLargestDirectPrime (symDft).
void radixLists(int64_t m, int64_t most, Radices& prefix, std::vector<Radices>& out) {
  if (m == 1) {
    if (!prefix.empty()) out.push_back(prefix);
    return;
  }
  for (int64_t r = std::min(m, most); r >= 2; --r) {
    if (m % r != 0) continue;
    if (r > 16 && (r > kLargestDirectPrime || largestPrimeFactor(r) != r)) continue;
    prefix.push_back(r);
    radixLists(m / r, r, prefix, out);
    prefix.pop_back();
  }
}

// chooseRadices' order for a multiset: powers of two first, each part largest first.
Radices inPlannerOrder(Radices rs) {
  auto pow2 = [](int64_t r) { return (r & (r - 1)) == 0; };
  std::stable_sort(rs.begin(), rs.end(),
                   [&](int64_t a, int64_t b) { return pow2(a) != pow2(b) ? pow2(a) : a > b; });
  return rs;
}

}  // namespace

// chooseRadices(m) (the fewest passes) unless a list takes at most 3/4 of its row cost: the
// margin keeps the lists where the units order candidates less surely than they differ (401:
// [16, 5, 5] 25040 against [5, 5, 4, 4] 20200, the same PTX count per row) and moves those that
// idle most of a row (31 [2, 15] -> [6, 5], 37 [9, 4] -> [6, 6], 61 [15, 4] -> [10, 6]).
Radices raderConvolutionRadices(int64_t m) {
  Radices best = chooseRadices(m);
  const int64_t base = rowCost(best, m);
  int64_t bestCost = std::numeric_limits<int64_t>::max();
  Radices prefix, found;
  std::vector<Radices> lists;
  radixLists(m, m, prefix, lists);
  for (const Radices& rs : lists) {
    if (m / *std::min_element(rs.begin(), rs.end()) > 1024) continue;
    const int64_t cost = rowCost(rs, m);
    if (cost < bestCost || (cost == bestCost && rs.size() < found.size())) {
      bestCost = cost;
      found = rs;
    }
  }
  // none within 1024 work-items (8191: every list of 8190 has a radix below 8): the planner's
  return !found.empty() && 4 * bestCost <= 3 * base ? inPlannerOrder(found) : best;
}

Radices raderRadices(int64_t n, const FftRequest& request) {
  if (n < 31 || largestPrimeFactor(n) != n || largestPrimeFactor(n - 1) > kLargestDirectPrime)
    return {};
  const Radices rs = raderConvolutionRadices(n - 1);
  const bool fits =
      localFits(n - 1, request, 1, 3) && (n - 1) / *std::min_element(rs.begin(), rs.end()) <= 1024;
  return fits ? rs : Radices{};
}

bool raderPassPrime(int64_t p) {
  return p > kLargestRaderRadix && largestPrimeFactor(p) == p && plannedByRadices(p - 1);
}

std::optional<RaderPassPlan> raderPassPlan(int64_t n, const FftRequest& request) {
  if (n < 2 * (kLargestRaderRadix + 1) || largestPrimeFactor(n) == n) return std::nullopt;
  // the one prime factor above kLargestRaderRadix, p, and m = n / p^k
  int64_t p = 0, k = 0, m = n;
  for (int64_t f = 2; f * f <= m; ++f)
    for (; m % f == 0; m /= f)
      if (f > kLargestRaderRadix) {
        if (p != 0 && p != f) return std::nullopt;
        p = f;
      }
  if (m > kLargestRaderRadix) {
    if (p != 0 && p != m) return std::nullopt;
    p = m;
  }
  if (p == 0 || !raderPassPrime(p)) return std::nullopt;
  m = n;
  for (; m % p == 0; m /= p) ++k;
  if (!plannedByRadices(m) ||
      raderPassLocalBytes(n, p, 1, request.precision) > localMemoryFor(request, 1))
    return std::nullopt;
  RaderPassPlan plan;
  plan.radices.assign(static_cast<size_t>(k), p);
  if (m > 1)
    for (int64_t r : chooseRadices(m)) plan.radices.push_back(r);
  plan.convolution = raderConvolutionRadices(p - 1);
  // A convolution with a direct prime radix above 16 (46 = [2, 23]: 23 as one dense butterfly)
  // lost to Bluestein in one kernel on an H200 (f32 376 = [47, 8] 0.88 -> 1.41x cuFFT's time,
  // f64 1.56 -> 3.12; f64 2209 = [47, 47] 1.53 -> 1.85), and won against Bluestein's passes over
  // global memory (2961 = [47, 9, 7]: 3.36 -> 1.42x, f64 2.58 -> 1.17;
  // bench/results/2026-11-29-nvidia-h200-session20-rader_pass.csv). A request naming the
  // pass's radices (a tuner) gets it.
  const bool densePrime = std::any_of(plan.convolution.begin(), plan.convolution.end(),
                                      [](int64_t r) { return r > 16 && !raderRadix(r); });
  if (densePrime && request.radices.empty() &&
      localKernelFits(chooseRadices(bluesteinSize(n, request.precision)), request))
    return std::nullopt;
  // the widest pass's butterflies, the convolution's (p - 1)·(n / p) elements in its passes
  int64_t w = 1, widest = 2;
  bool raderInside = false;
  for (int64_t r : plan.radices)
    if (r != p) {
      w = std::max(w, n / r);
      widest = std::max(widest, r);
      raderInside = raderInside || raderRadix(r);
    }
  for (int64_t r : plan.convolution) {
    w = std::max(w, (p - 1) * (n / p) / r);
    widest = std::max(widest, r);
    raderInside = raderInside || raderRadix(r);
  }
  w = std::min(w, raderInside ? kRaderWorkItems : int64_t{1024});
  // fewer work-items while the widest butterfly would fit the registers of fewer; where it
  // takes more than a thread's 255 at any count (f64 23, 37), 256, each with 255 (ptxas sm_90,
  // f64 2961 = [47, 9, 7] with [2, 23]: 1024 work-items took 64 registers and spilled 2780
  // bytes)
  if (butterflyRegisters(widest, request.precision) > 255)
    w = std::min(w, kRaderWorkItems);
  else
    while (w > 64 && !butterflyInRegisters(widest, w, request.precision))
      w = std::max<int64_t>(64, (w + 1) / 2);
  plan.workItems = w;
  int64_t f = std::max<int64_t>(std::min(256 / w, request.batch), 1);
  while (f > 1 && raderPassLocalBytes(n, p, f, request.precision) > localMemoryFor(request, f)) --f;
  plan.fftsPerGroup = f;
  // The registers' estimate (raderPassMinBlocks) takes a Rader radix of the convolution at its
  // own convolution's widest radix: it is a pass over the work-group (common.fdl
  // raderBatchFftR), not one butterfly in a work-item. ptxas sm_90 (session 24, main a5d0b78,
  // __launch_bounds__(T) / (T, 2)): f32 2384 = [149, 16], 148 = [4, 37], 48 / 67 registers
  // (37 as a butterfly, 222, asked 2 blocks; 16: 64), 1192 48 / 56, 346 = [173, 2], 172 =
  // [4, 43], 32 / 48 (43: 258; 42 = [7, 6], 16), 622 36 / 51, 664 38 / 51.
  int64_t registersWidest = 2;
  for (int64_t r : plan.radices)
    if (r != p) registersWidest = std::max(registersWidest, r);
  for (int64_t r : plan.convolution)
    if (!raderRadix(r)) {
      registersWidest = std::max(registersWidest, r);
    } else {
      const Radices inner = raderConvolutionRadices(r - 1);
      registersWidest = std::max(registersWidest, *std::max_element(inner.begin(), inner.end()));
    }
  plan.widest = registersWidest;
  return plan;
}

int64_t raderPassLocalBytes(int64_t n, int64_t p, int64_t fftsPerGroup, Precision precision) {
  const compiler::codegen::CodegenOptions options;
  auto padded = [&](int64_t count) { return options.paddedLocalCount(count, count); };
  const int64_t storage =
      std::max(padded(fftsPerGroup * n), padded(fftsPerGroup * (p - 1) * (n / p)));
  // a Rader radix of the convolution is a Rader pass of its own (common.fdl raderBatchFftR):
  // its arrays take a fourth storage
  const Radices conv = raderConvolutionRadices(p - 1);
  const bool nested =
      std::any_of(conv.begin(), conv.end(), [](int64_t r) { return raderRadix(r); });
  return (nested ? 4 : 3) * storage * complexBytes(precision);
}

int64_t raderPassMinBlocks(int64_t threads, int64_t localBytes, int64_t widest,
                           const FftRequest& request) {
  // the multiprocessor-wide register model (min_blocks.h: measured so; ptxas's sub-partition
  // one, which widePrimeMinBlocks uses, would change unmeasured plans: the next step)
  constexpr int64_t kResidentThreads = 768;
  if (request.target != compiler::pipeline::Target::Cuda || threads < 1) return 0;
  const int64_t warps = (threads + 31) / 32;
  auto registersAt = [&](int64_t b) { return multiprocessorRegisterCap(warps, b); };
  const int64_t estimate =
      std::min<int64_t>(kMostRegisters, butterflyRegisters(widest, request.precision));
  const int64_t byRegisters = multiprocessorRegisterBlocks(warps, estimate);
  const int64_t byShared = blocksBySharedMemory(request, localBytes, warps);
  if (byRegisters >= byShared || byRegisters * warps * 32 >= kResidentThreads) return 0;
  int64_t b = std::min(byShared, (kResidentThreads + warps * 32 - 1) / (warps * 32));
  while (b > byRegisters && 2 * registersAt(b) < estimate) --b;
  return b > std::max<int64_t>(byRegisters, 1) ? b : 0;
}

}  // namespace fftc::fftlib
