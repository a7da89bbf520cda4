// Breadth-first enumeration of rewrite sequences with alpha-equivalence deduplication.
#include "rewrites/explore.h"

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
  auto emit = [&](const ExprPtr& e, const std::vector<std::string>& steps) {
    ExprPtr f = finish(e);
    if (!finished.insert(f)) {
      ++out.duplicates;
      return;
    }
    out.variants.push_back({f, steps});
  };
  raw.insert(start);
  emit(start, {});
  std::vector<std::pair<ExprPtr, std::vector<std::string>>> frontier{{start, {}}};
  for (int depth = 0; depth < options.maxDepth && !frontier.empty(); ++depth) {
    std::vector<std::pair<ExprPtr, std::vector<std::string>>> next;
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
          emit(a.program, s);
          next.push_back({a.program, std::move(s)});
        }
      }
    }
    frontier = std::move(next);
  }
  return out;
}

}  // namespace fftc::rewrites
