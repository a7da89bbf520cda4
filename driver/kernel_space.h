// The tuning space of a general kernel (issue 26, `fftc tune FILE.fdl`; docs/tuner.md): the
// rewrite choice and the numeric parameters in one ATF search space. A skeleton is a rewrite
// sequence of explore's with its numeric arguments (tile sizes, chunk sizes, vector widths)
// taken out as named slots; the space has a choice parameter over the skeletons and the slots
// as parameters whose values depend on it, constrained by the rules' side conditions (the rules
// are applied as the chain of trees is built, so no configuration whose rules do not apply is
// in the space) and by the device's limits on a work-group (its work-items and local memory, as
// code generation sizes them).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "tuner/search_space.h"

namespace fftc::driver {

struct Skeleton {
  // The strategy with its slots as names and lowerDefault last, e.g. "prepare; tile2D(s1, s2);
  // at([0, 1, 0, 0, 0], mapReduceInterchange); lowerDefault"; "lowerDefault" alone is the
  // kernel as lowerDefault lowers it.
  std::string text;
  std::vector<std::string> steps;      // each step's strategy text, slots as names
  std::vector<std::string> slots;      // the slot names, in order of first appearance
  std::vector<std::string> slotRules;  // the rule each slot is an argument of
};

// A skeleton from explore's steps ("tile2D(4, 4) @ 0.1"; `prepared`: positions of prepare's
// normal form, which then comes first): every integer argument of a rule becomes a slot s1,
// s2, ... in order, except a lowering rule's dimension (mapGlobal(1)), which stays.
Skeleton skeletonOf(const std::vector<std::string>& exploreSteps, bool prepared);

// A skeleton written by the user: a strategy (a `;` sequence) whose rules' arguments may be
// names, each a slot (the same name twice: one value), e.g. "tile2D(R, C); at([0, 1, 0, 0, 0],
// mapReduceInterchange)"; lowerDefault is appended unless it ends the text. A UserError (one
// line) for a text that does not parse or names an unknown rule.
Skeleton parseSkeleton(const std::string& text);

// The strategy of a skeleton with a value for each of its slots (by name).
std::string instantiate(const Skeleton& s, const std::map<std::string, int64_t>& values);

// What a configuration's kernel asks of a work-group: its work-items and local memory (the
// largest stage's), as code generation sizes them.
struct WorkGroupNeeds {
  int64_t items = 1;
  int64_t localBytes = 0;
};

struct KernelSpaceOptions {
  std::vector<int64_t> values;                         // a slot's values by default
  std::map<std::string, std::vector<int64_t>> ranges;  // a slot's values by name (--range)
  // The device's limits (0: none), checked on what `needs` says of a configuration's strategy
  // (nullopt: code generation cannot do it; the cost then says why, the space keeps it).
  int64_t maxWorkGroup = 0, maxLocalBytes = 0;
  std::function<std::optional<WorkGroupNeeds>(const std::string& strategy)> needs;
  // Building stops with a UserError past this many rewrites and compilations of the constraints
  // (0: no limit): slots of many values in deep skeletons multiply (--max-checks).
  size_t maxChecks = 0;
};

// The divisors of the -D sizes ("M=16" ...: the integer values) above 1, ascending: the
// default values of the slots (the sizes the rules split).
std::vector<int64_t> divisorValues(const std::vector<std::string>& defines);

class KernelSpace {
 public:
  // `typedBody`: the kernel's typed body, where the skeletons' strategies start. Throws
  // UserError when a --range names no slot or a slot has no values.
  KernelSpace(ir::ExprPtr typedBody, std::vector<Skeleton> skeletons, KernelSpaceOptions o);

  const tuner::SearchSpace& space() const { return *space_; }
  const std::vector<Skeleton>& skeletons() const { return skeletons_; }
  // The parameter names: "skeleton", then the slots of all skeletons (first appearance).
  const std::vector<std::string>& slotNames() const { return slotNames_; }
  // The strategy a configuration stands for (ready for `compile --rewrite`).
  std::string strategy(const tuner::Configuration& c) const;
  // The configurations of each skeleton (in skeletons() order), and lowerDefault's index.
  std::vector<uint64_t> perSkeleton() const;
  std::optional<uint64_t> baselineIndex() const;
  // What the constraints cost: rewrites applied (memoized by prefix) while building.
  size_t rewritesApplied() const;
  size_t kernelsCompiled() const;  // by the work-group check (KernelSpaceOptions::needs)

 private:
  struct Memo;
  std::vector<Skeleton> skeletons_;
  std::vector<std::string> slotNames_;
  std::shared_ptr<Memo> memo_;
  std::unique_ptr<tuner::SearchSpace> space_;
};

}  // namespace fftc::driver
