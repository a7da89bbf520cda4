// Exploration: enumerate rewrite sequences from a rule set up to a depth, deduplicate the
// programs modulo alpha-equivalence, and hand the distinct variants to the tuner to rank.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rewrites/rules.h"
#include "rewrites/strategy.h"

namespace fftc::rewrites {

struct Variant {
  ExprPtr program;                 // typed (finished when ExploreOptions::finish is set)
  std::vector<std::string> steps;  // "rule @ path", in the order applied; {} for the input
};

struct ExploreOptions {
  std::vector<Rule> rules;          // e.g. instantiateRules({"splitJoin", "mapFusion"}, {2, 4})
  int maxDepth = 2;                 // rewrite steps per sequence
  size_t maxVariants = 256;         // size cap on distinct variants (the input counts)
  size_t maxPositionsPerRule = 64;  // per variant and rule: the first positions in pre-order
  // Applied to every variant after its sequence (e.g. lowerDefault()), so that each one is
  // runnable; variants equal after it are merged. Budget per application: finishSteps.
  std::optional<Strategy> finish;
  int64_t finishSteps = 20000;
  ir::InferOptions infer;
  // Beam search (with beamWidth > 0 and a score): the variants new at each depth are scored
  // (lower is better; nullopt drops one, e.g. it does not compile) and only the beamWidth best
  // are rewritten further, so that sequences deeper than breadth first can afford are reached
  // through their best prefixes (LIFT explores GEMM's tilings so). The input is scored first.
  size_t beamWidth = 0;
  std::function<std::optional<double>(const Variant&)> score;
};

struct ExploreResult {
  std::vector<Variant> variants;  // distinct, in breadth-first order; the input first
  size_t duplicates = 0;          // sequences that reached an already known program
  bool capped = false;            // maxVariants stopped the enumeration
  bool finishBudgetHit = false;   // some finish run hit its budget
};

ExploreResult explore(const ExprPtr& program, const ExploreOptions& options);

}  // namespace fftc::rewrites
