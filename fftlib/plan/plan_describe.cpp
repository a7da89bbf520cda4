// The plan as text (planner.h: CompiledFft::describe, which `fftc fft` prints): the request,
// the typed choice, the layouts, the strategy and the stages.
#include <cmath>
#include <functional>
#include <numeric>
#include <type_traits>
#include <variant>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fftlib/plan/planner.h"

namespace fftc::fftlib {
namespace {

// The dimensions of an N-D or real plan and its passes.
std::string describeDims(const PlanChoice& c, const NdChoice& nd) {
  std::string s = fmt::format(", dimensions {}:", fmt::join(nd.dims, " x "));
  std::string groups;
  for (size_t p = 0; p + 1 < nd.passGroups.size(); ++p) {
    std::string g;
    for (int64_t j = nd.passGroups[p]; j < nd.passGroups[p + 1]; ++j)
      g += fmt::format("{}{}", j > nd.passGroups[p] ? "x" : "", nd.dims[static_cast<size_t>(j)]);
    groups += (p ? ", " : "") + g;
  }
  for (size_t d = 0; d < nd.dims.size(); ++d) {
    if (nd.dimBluestein[d])
      s += fmt::format(" {} bluestein M = {} [{}]", nd.dims[d],
                       std::accumulate(nd.dimRadices[d].begin(), nd.dimRadices[d].end(), int64_t{1},
                                       std::multiplies<>()),
                       fmt::join(nd.dimRadices[d], ", "));
    else
      s += fmt::format(" {} [{}]", nd.dims[d], fmt::join(nd.dimRadices[d], ", "));
    if (d + 1 < nd.dims.size()) s += " x";
  }
  if (c.kernel.rfind("r2c", 0) == 0 || c.kernel.rfind("c2r", 0) == 0)
    s += fmt::format("\nreal ({}): the last dimension's {} reals by a complex FFT of {} size",
                     c.kernel, nd.dims.back(), nd.dims.back() % 2 ? "the same" : "half the");
  if (c.kernel == "ndLocal" && nd.fusedSplit) {
    const int64_t n1 = nd.fusedSplit, n2 = nd.dims[1] / n1;
    return s + fmt::format(
                   "\nthree dimensions in two passes (ndLocal fused3): {} as {} x {}; pass 1 the "
                   "{} x {} planes (X and the first {}-point FFTs), pass 2 blocks of {} x {} x {} "
                   "(the {}-point FFTs and Z)",
                   nd.dims[1], n1, n2, n2, nd.dims[2], n2, nd.dims[0], n1, nd.fusedColumns, n1);
  }
  if (c.kernel == "ndLocal") {
    std::string fourStep;
    for (size_t j = 0; j < nd.fourStepSplits.size(); ++j)
      if (nd.fourStepSplits[j])
        fourStep += fmt::format("; {} as {} x {} in two passes (four-step)", nd.dims[j],
                                nd.fourStepSplits[j], nd.dims[j] / nd.fourStepSplits[j]);
    const auto& fs = nd.linesPerGroup;
    if (nd.planePass)
      fourStep += fmt::format("; the innermost {} x {} plane in one pass",
                              nd.dims[nd.dims.size() - 2], nd.dims.back());
    return s + fmt::format(
                   "\na pass per dimension, each line FFT in local memory "
                   "(ndLocal; lines per work-group {}){}",
                   fmt::join(fs.begin(), fs.end() - (nd.planePass ? 2 : 0), ", "), fourStep);
  }
  return s + fmt::format("\npasses by dimension group (gs = [{}]): {}",
                         fmt::join(nd.passGroups, ", "), groups);
}

// ", radices ..." after the variant: what the typed choice holds.
std::string describeChoice(const PlanChoice& c) {
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, NdChoice>) {
          return describeDims(c, v);
        } else if constexpr (std::is_same_v<T, HierarchicalChoice>) {
          return fmt::format(
              ", radices rs1 = {} x rs2 = {}{}, {} columns per work-group at least",
              listText(v.levels[0]), listText(v.levels[1]),
              v.levels.size() < 3 ? "" : fmt::format(" x rs3 = {}", listText(v.levels[2])),
              v.leastColumns());
        } else if constexpr (std::is_same_v<T, LocalChoice>) {
          return fmt::format(
              ", radices {}, {} work-items per FFT, {} FFTs per work-group{}{}{}{}{}",
              listText(v.radices), v.shape.workgroupSize, v.shape.fftsPerGroup,
              v.clusterBlocks > 1
                  ? fmt::format(" (a thread-block cluster of {} work-groups an FFT, {} "
                                "work-items each)",
                                v.clusterBlocks, v.shape.workgroupSize / v.clusterBlocks)
                  : "",
              v.oneArray ? ", one local array (each pass reads, waits, writes)" : "",
              v.loopedWorkItems > 0 ? ", a work-item looping over its butterflies of each pass"
                                    : "",
              v.raderPass.empty()
                  ? ""
                  : fmt::format(", radix {} a Rader pass (its butterflies' convolutions by "
                                "FFTs of {} over the work-group, radices {})",
                                product(v.raderPass) + 1, product(v.raderPass),
                                listText(v.raderPass)),
              v.minBlocksPerSm > 0
                  ? fmt::format(", {} blocks a multiprocessor asked of ptxas", v.minBlocksPerSm)
                  : "");
        } else if constexpr (std::is_same_v<T, BluesteinChoice>) {
          if (v.rader)
            return fmt::format(
                ", Rader's cyclic convolution of N - 1 = {} in one kernel, radices {}, {} "
                "work-items per FFT, {} FFTs per work-group",
                v.m, listText(v.radicesM), v.shape.workgroupSize, v.shape.fftsPerGroup);
          if (v.n1End > 0) {
            const auto cut = v.radicesM.begin() + static_cast<std::ptrdiff_t>(v.n1End);
            return fmt::format(", M = {} = n1 {} x n2 {} in three passes, {} lines per work-group",
                               v.m, listText(Radices(v.radicesM.begin(), cut)),
                               listText(Radices(cut, v.radicesM.end())), listText(v.linesPerGroup));
          }
          return fmt::format(", M = {}, radices of M {}", v.m, listText(v.radicesM));
        } else {
          return fmt::format(", radices {}", listText(v.radices));
        }
      },
      c.detail);
}

}  // namespace

std::string describePasses(const CompiledFft& p) {
  const auto& r = p.request;
  const double arrayBytes = static_cast<double>(r.size * r.batch * complexBytes(r.precision));
  return fmt::format(
      "passes over global memory: {} stages, {:.2f} x (read + write of the "
      "whole array)\n",
      p.stages.size(), static_cast<double>(p.bytesMoved) / (2 * arrayBytes));
}

double CompiledFft::flopsPerBatch() const {
  const double n = static_cast<double>(request.size);
  return n > 1 ? 5.0 * n * std::log2(n) * static_cast<double>(request.batch) : 0.0;
}

std::string CompiledFft::describe() const {
  const auto& r = request;
  std::string s =
      fmt::format("{}: N = {}, batch {}, {}, {}{}, target {}\n", compiled.name, r.size, r.batch,
                  precisionName(r.precision), directionName(r.direction),
                  r.scale ? ", scaled by 1/N" : "", compiler::pipeline::targetName(r.target));
  s += fmt::format("variant: {} ({}:{})", variantName(choice.variant), choice.file, choice.kernel);
  s += describeChoice(choice);
  for (bool input : {true, false})
    if (!(input ? r.inLayout : r.outLayout).isDefault())
      s += fmt::format("\n{} layout: {} ({} elements in the buffer)", input ? "input" : "output",
                       layoutText(r, input),
                       compiled.buffer(input ? inputBuffer : outputBuffer)->count.str());
  // callbacks: the plan is the program around them, its fft expanded in the variant's form
  if (!r.pre.empty() || !r.post.empty())
    s += fmt::format("\ncallbacks: load {}, store {} (fused: map(store) o fft o map(load))",
                     r.pre.empty() ? "none" : r.pre.name + " of " + r.pre.file,
                     r.post.empty() ? "none" : r.post.name + " of " + r.post.file);
  s += fmt::format(
      "\nlowered by {}{}\n", strategy,
      fallbackReason.empty()
          ? ""
          : fmt::format(" ({} failed: {})",
                        request.strategy.empty() ? "lowerFft" : request.strategy, fallbackReason));
  s += fmt::format("stages: {}\n", stages.size());
  for (const auto& st : stages) {
    s += fmt::format("  {:<28} global {:<12} local {:<8} {:>12} bytes\n", st.kernel,
                     listText(st.global), st.local.empty() ? "auto" : listText(st.local),
                     st.bytesMoved);
  }
  s += fmt::format("expected bytes moved: {} ({:.1f} per element)\n", bytesMoved,
                   static_cast<double>(bytesMoved) / static_cast<double>(r.size * r.batch));
  s += describePasses(*this);
  return s;
}

}  // namespace fftc::fftlib
