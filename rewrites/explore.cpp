// Breadth-first enumeration of rewrite sequences with alpha-equivalence deduplication.
#include "rewrites/explore.h"

#include <algorithm>
#include <unordered_map>

#include "rewrites/equality.h"

namespace fftc::rewrites {

namespace {

// Programs seen so far, by alpha hash.
class Seen {
 public:
  bool insert(const ExprPtr& e) {
    auto& bucket = byHash_[alphaHash(e)];
    for (const auto& x : bucket)
      if (alphaEqual(x, e)) return false;
    bucket.push_back(e);
    return true;
  }

 private:
  std::unordered_map<size_t, std::vector<ExprPtr>> byHash_;
};

}  // namespace

ExploreResult explore(const ExprPtr& program, const ExploreOptions& options) {
  ExploreResult out;
  ExprPtr start = ir::inferTypes(program, options.infer);
  Seen raw, finished;
  auto finish = [&](const ExprPtr& e) {
    if (!options.finish) return e;
    RewriteOptions ro;
    ro.maxSteps = options.finishSteps;
    ro.infer = options.infer;
    RewriteResult r = rewrite(e, *options.finish, ro);
    out.finishBudgetHit = out.finishBudgetHit || r.budgetHit;
    return r.program;
  };
  // true when the finished program is new (then it is the last variant)
  auto emit = [&](const ExprPtr& e, const std::vector<std::string>& steps) {
    ExprPtr f = finish(e);
    if (!finished.insert(f)) {
      ++out.duplicates;
      return false;
    }
    out.variants.push_back({f, steps});
    return true;
  };
  const bool beam = options.beamWidth > 0 && options.score;
  raw.insert(start);
  emit(start, {});
  if (beam) options.score(out.variants.back());
  using Item = std::pair<ExprPtr, std::vector<std::string>>;
  std::vector<Item> frontier{{start, {}}};
  for (int depth = 0; depth < options.maxDepth && !frontier.empty(); ++depth) {
    std::vector<Item> next;
    std::vector<std::pair<double, Item>> scored;  // beam: the new variants of this depth
    for (const auto& [prog, steps] : frontier) {
      for (const Rule& rule : options.rules) {
        size_t tried = 0;
        for (const Path& p : allPaths(prog)) {
          if (tried >= options.maxPositionsPerRule) break;
          ApplyOptions ao{options.infer};
          Applied a = applyAt(rule, prog, p, ao);
          if (!a.changed) continue;
          ++tried;
          if (!raw.insert(a.program)) {
            ++out.duplicates;
            continue;
          }
          if (out.variants.size() >= options.maxVariants) {
            out.capped = true;
            return out;
          }
          std::vector<std::string> s = steps;
          s.push_back(rule.name() + " @ " + pathStr(p));
          const bool fresh = emit(a.program, s);
          if (!beam) {
            next.push_back({a.program, std::move(s)});
          } else if (fresh) {
            if (auto v = options.score(out.variants.back()))
              scored.push_back({*v, {a.program, std::move(s)}});
          }
        }
      }
    }
    if (beam) {
      std::stable_sort(scored.begin(), scored.end(),
                       [](const auto& a, const auto& b) { return a.first < b.first; });
      if (scored.size() > options.beamWidth) scored.resize(options.beamWidth);
      for (auto& [v, item] : scored) next.push_back(std::move(item));
    }
    frontier = std::move(next);
  }
  return out;
}

}  // namespace fftc::rewrites
