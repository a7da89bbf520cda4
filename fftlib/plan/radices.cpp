// The planner's radix heuristics (plan_choice.h): radix lists of a size, which sizes are planned
// by mixed radix (13-smooth) and Bluestein's convolution size (2,3,5,7-smooth or a power of two).
#include <algorithm>
#include <limits>

#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "fftlib/plan/plan_choice.h"
#include "rewrites/fold_closed.h"

namespace fftc::fftlib {
namespace {

using backends::UserError;

// Spreads `bits` factors of two over the fewest radices of at most 2^most each (16 by default),
// as evenly as possible, largest first.
std::vector<int64_t> powerOfTwoRadices(int bits, int most = 4) {
  std::vector<int64_t> out;
  if (bits <= 0) return out;
  const int bins = (bits + most - 1) / most;
  for (int i = 0; i < bins; ++i) {
    const int b = bits / bins + (i < bits % bins ? 1 : 0);
    out.push_back(int64_t{1} << b);
  }
  return out;
}

// Odd prime factors packed into the fewest radices <= 16 (first fit decreasing); a prime
// above 16 is a radix of its own.
std::vector<int64_t> packOdd(std::vector<int64_t> primes) {
  std::sort(primes.rbegin(), primes.rend());
  std::vector<int64_t> bins;
  for (int64_t p : primes) {
    bool placed = false;
    if (p <= 16) {
      // the fullest bin that still fits
      int best = -1;
      for (size_t i = 0; i < bins.size(); ++i)
        if (bins[i] * p <= 16 && (best < 0 || bins[i] > bins[static_cast<size_t>(best)]))
          best = static_cast<int>(i);
      if (best >= 0) {
        bins[static_cast<size_t>(best)] *= p;
        placed = true;
      }
    }
    if (!placed) bins.push_back(p);
  }
  return bins;
}

std::vector<int64_t> orderRadices(std::vector<int64_t> pow2, std::vector<int64_t> other) {
  std::sort(pow2.rbegin(), pow2.rend());
  std::sort(other.rbegin(), other.rend());
  pow2.insert(pow2.end(), other.begin(), other.end());
  return pow2;
}

}  // namespace

int64_t largestPrimeFactor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  return n > 1 ? std::max(largest, n) : largest;
}

bool isSmooth(int64_t n) {
  return n >= 1 && largestPrimeFactor(n) <= kLargestRadixPrime;
}

bool raderRadix(int64_t p) {
  return p > kLargestDirectPrime && p <= kLargestRaderRadix && largestPrimeFactor(p) == p &&
         largestPrimeFactor(p - 1) <= kLargestDirectPrime;
}

int64_t butterflyRegisters(int64_t r, Precision p, bool wholeRow) {
  return (r <= 16 || wholeRow ? 2 : 3) * r * (p == Precision::F64 ? 4 : 2);
}

bool butterflyInRegisters(int64_t r, int64_t workItems, Precision p, bool wholeRow) {
  const int64_t registers = std::min<int64_t>(255, 65536 / std::max<int64_t>(workItems, 1));
  return butterflyRegisters(r, p, wholeRow) <= registers;
}

bool rowInOneWorkItem(int64_t n, Precision precision) {
  const int64_t largest = largestPrimeFactor(n);
  // A composite f64 row takes about 5 registers a complex value, not butterflyRegisters' 8
  // (ptxas sm_90, stockhamLocalCopy with one radix: 33 190 registers, 35 208, 39 224, 40 206,
  // 42 234, 45 232, 50 252, none spilled; 34, 44 254; 36, 38, 46, 48 255 and 16 - 44 bytes
  // spilled, 51 116, 54 188, 57 276); a prime's raderDft keeps two FFTs of p - 1 and the
  // spectrum, 8 (f64 31 255 registers and 148 bytes spilled, 37 852, 43 1152).
  const bool fits = precision == Precision::F64 && largest != n
                        ? 5 * n <= 255
                        : butterflyInRegisters(n, 1, precision, /*wholeRow=*/true);
  if (n < 2 || !(plannedByRadices(n) || raderRadix(n)) ||
      !(largest == n || largest < kLargestDirectPrime) || !fits)
    return false;
  // A composite row pays where its several radices leave work-items idle: one at least three
  // times another, or a factor of 11 or more (a large share of the row in one butterfly).
  const Radices several = chooseRadices(n);
  const auto [lo, hi] = std::minmax_element(several.begin(), several.end());
  return largest == n || several.size() < 2 || *hi >= 3 * *lo || largest >= 11;
}

Radices localRadices(int64_t n, Precision precision) {
  return rowInOneWorkItem(n, precision) ? Radices{n} : chooseRadices(n);
}

bool primeInOneWorkItem(int64_t n, Precision precision) {
  return raderRadix(n) && rowInOneWorkItem(n, precision);
}

bool plannedByRadices(int64_t n, Precision precision) {
  return plannedByRadices(n) || primeInOneWorkItem(n, precision);
}

bool hasRaderRadix(const Radices& rs) {
  return std::any_of(rs.begin(), rs.end(), [](int64_t r) { return raderRadix(r); });
}

bool plannedByRadices(int64_t n) {
  if (n < 1) return false;
  const int64_t largest = largestPrimeFactor(n);
  if (largest <= kLargestDirectPrime) return true;
  if (largest == n) return false;  // a prime: raderLocal (raderRadices) or Bluestein
  for (int64_t m = n, p = 2; m > 1; ++p) {
    if (p * p > m) p = m;  // m is prime
    if (m % p != 0) continue;
    if (p > kLargestDirectPrime && !raderRadix(p)) return false;
    while (m % p == 0) m /= p;
  }
  return true;
}

// Every 2,3,5,7-smooth integer is 2^a·3^b·5^c·7^d: for each 3^b·5^c·7^d below the bound, the
// least power of two that lifts it to n. O(log^3 n) products where counting up from n took a
// trial division per integer (minutes for Bluestein's M of N = 2^24 + 43, whose smooth
// neighbours are tens of thousands apart).
int64_t smoothSizeAtLeast(int64_t n) {
  n = std::max<int64_t>(n, 1);
  const int64_t limit = std::numeric_limits<int64_t>::max() / 2;
  if (n > limit)
    throw UserError(fmt::format("size {}: no 2,3,5,7-smooth size above it fits 64 bits", n));
  int64_t best = int64_t{1} << 62;  // >= n: a power of two at most 2n - 1
  while (best / 2 >= n) best /= 2;
  // the next power of p, or 0 once it would pass `best` (no overflow: best <= 2^62)
  auto next = [&best](int64_t x, int64_t p) { return x <= best / p ? x * p : 0; };
  for (int64_t p7 = 1; p7 != 0; p7 = next(p7, 7))
    for (int64_t p5 = p7; p5 != 0; p5 = next(p5, 5))
      for (int64_t p3 = p5; p3 != 0; p3 = next(p3, 3)) {
        int64_t m = p3;
        while (m < n) m *= 2;  // m < n <= 2^62: no overflow
        best = std::min(best, m);
      }
  return best;
}

static_assert(kBluesteinMaxM == rewrites::FoldOptions{}.maxFftElements,
              "Bluestein's largest M is the largest chirp spectrum foldClosed tabulates");

int64_t bluesteinSize(int64_t n, Precision precision) {
  if (n > (kBluesteinMaxM + 1) / 2)
    throw UserError(fmt::format(
        "FFT size {}: Bluestein's convolution of M >= 2N - 1 points is beyond the {} points "
        "whose chirp spectrum fftc tabulates (sizes with a prime factor above {} are planned "
        "up to N = {})",
        n, kBluesteinMaxM, kLargestDirectPrime, (kBluesteinMaxM + 1) / 2));
  const int64_t need = std::max<int64_t>(2 * n - 1, 1), smooth = smoothSizeAtLeast(need);
  int64_t p2 = 1;
  while (p2 < need) p2 *= 2;
  FftRequest defaults;  // 48 KiB
  defaults.precision = precision;
  const int64_t m =
      localKernelFits(chooseRadices(p2), defaults) || p2 * 10 <= smooth * 11 ? p2 : smooth;
  if (localKernelFits(chooseRadices(m), defaults) || fourStepSplit(m, defaults) > 0) return m;
  // Beyond one kernel and with no split into two halves that fit (f64 2^21 = 1024 x 2048):
  // the least 2,3,5,7-smooth size that splits, so that bluesteinFourStep's three passes hold
  // it (f64 999983: 2016000 = 1400 x 1440) rather than bluesteinGlobal's 21.
  for (int64_t c = smooth; c <= std::min(2 * p2, kBluesteinMaxM); c = smoothSizeAtLeast(c + 1))
    if (fourStepSplit(c, defaults) > 0) return c;
  return m;
}

Radices chainRadices(int64_t n, int64_t largest) {
  const Radices plain = chooseRadices(n);
  int twos = 0, most = 0;
  int64_t m = n;
  for (; m % 2 == 0; m /= 2) ++twos;
  while (most < 30 && (int64_t{2} << most) <= largest) ++most;
  std::vector<int64_t> odd;
  for (int64_t p = 3; p * p <= m; p += 2)
    for (; m % p == 0; m /= p) odd.push_back(p);
  if (m > 1) odd.push_back(m);
  if (most <= 4) return plain;  // chooseRadices' own bound: radix 16
  const Radices wide = orderRadices(powerOfTwoRadices(twos, most), packOdd(odd));
  return wide.size() < plain.size() ? wide : plain;
}

std::vector<int64_t> chooseRadices(int64_t n) {
  if (n < 1) throw UserError(fmt::format("FFT size {}: must be at least 1", n));
  int twos = 0;
  std::vector<int64_t> odd;
  int64_t m = n;
  while (m % 2 == 0) {
    m /= 2;
    ++twos;
  }
  for (int64_t p = 3; p * p <= m; p += 2)
    while (m % p == 0) {
      odd.push_back(p);
      m /= p;
    }
  if (m > 1) odd.push_back(m);
  std::vector<int64_t> oddBins = packOdd(odd);

  // A: power-of-two radices of their own. B: factors of two absorbed into the odd radices
  // first (3 -> 12, 7 -> 14), the rest as in A. Fewest passes wins; a tie goes to A.
  std::vector<int64_t> a = orderRadices(powerOfTwoRadices(twos), oddBins);
  std::vector<int64_t> absorbed = oddBins;
  int left = twos;
  std::sort(absorbed.begin(), absorbed.end());
  for (auto& r : absorbed)
    while (left > 0 && r * 2 <= 16) {
      r *= 2;
      --left;
    }
  std::vector<int64_t> b = orderRadices(powerOfTwoRadices(left), absorbed);
  return b.size() < a.size() ? b : a;
}

}  // namespace fftc::fftlib
