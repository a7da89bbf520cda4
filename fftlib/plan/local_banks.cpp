// The padding period of a Local plan's local arrays (plan_choice.h localPaddingFor): a model of
// the shared-memory banks its Stockham passes' stores meet.
#include <algorithm>
#include <limits>
#include <set>

#include "compiler/codegen/codegen.h"
#include "fftlib/plan/plan_choice.h"

namespace fftc::fftlib {
namespace {

constexpr int64_t kBanks = 32;  // 4-byte banks of a multiprocessor's shared memory
constexpr int64_t kWarp = 32;

// Wavefronts of one warp storing element stride·t (t = 0 .. 31) of an array padded every
// `every` elements (i + i / every), each element `words` 4-byte words: the most distinct words
// one bank serves.
int64_t storeWavefronts(int64_t stride, int64_t every, int64_t words) {
  std::set<int64_t> perBank[kBanks];
  for (int64_t t = 0; t < kWarp; ++t) {
    const int64_t i = stride * t;
    const int64_t word = (i + (every > 0 ? i / every : 0)) * words;
    for (int64_t w = 0; w < words; ++w) perBank[(word + w) % kBanks].insert(word + w);
  }
  size_t most = 0;
  for (const auto& b : perBank) most = std::max(most, b.size());
  return static_cast<int64_t>(most);
}

}  // namespace

int64_t localPaddingFor(const Radices& rs, Precision precision) {
  const int64_t standard = compiler::codegen::CodegenOptions{}.localPadding;
  if (std::all_of(rs.begin(), rs.end(), [](int64_t r) { return (r & (r - 1)) == 0; }))
    return standard;
  const int64_t words = precision == Precision::F64 ? 4 : 2;
  auto cost = [&](int64_t every) {
    int64_t sum = 0;
    for (int64_t r : rs) sum += storeWavefronts(r, every, words);
    return sum;
  };
  int64_t best = standard, bestCost = cost(standard);
  for (int64_t every = 32; every >= 8; --every)
    if (const int64_t c = cost(every); c < bestCost) {
      best = every;
      bestCost = c;
    }
  // The model sees the stores only (a pass's loads are a butterfly's inputs n / r apart, its
  // warp's adjacent): a period that only halves fewer store wavefronts than that may cost
  // more in the loads (72 = [8, 9]: 7 -> 4 store wavefronts, the emitted kernel's 43 -> 52).
  return 2 * bestCost <= cost(standard) ? best : standard;
}

}  // namespace fftc::fftlib
