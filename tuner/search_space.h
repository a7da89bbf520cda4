// The constrained search space as ATF's chain of trees (Rasch et al., TACO 2021): parameters
// split into independent groups, one tree per group, indexed without enumerating the product.
#pragma once

#include "tuner/parameter.h"

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace fftc::tuner {

struct SpaceLimits {
  // Building throws TunerError past this many tree nodes (all groups together).
  std::uint64_t maxNodes = 100'000'000;
};

// One tree of the chain: level l holds the values of the group's l-th parameter. Nodes of a
// level are stored in depth-first order, so the children of a node are contiguous in the next
// level and leaves are numbered left to right; nodes without a valid completion are pruned.
class GroupTree {
 public:
  struct Level {
    std::vector<Value> table;               // distinct values of this level
    std::vector<std::uint32_t> valueId;     // per node: index into table
    std::vector<std::uint64_t> firstChild;  // per node + sentinel: children in the next level
    std::vector<std::uint64_t> firstLeaf;   // per node + sentinel: leaves below earlier nodes
  };

  std::uint64_t leaves() const { return leaves_; }
  std::size_t depth() const { return levels_.size(); }
  std::uint64_t nodes() const;

  // The node index at each level on the path to leaf k (k < leaves()).
  std::vector<std::uint64_t> path(std::uint64_t leaf) const;
  // The leaf reached by following `values` down the tree, if every value is there.
  std::optional<std::uint64_t> find(const std::vector<const Value*>& values) const;
  const Value& valueAt(std::size_t level, std::uint64_t node) const;
  // A leaf next to `leaf` in parameter space: one level's value moves to a sibling (usually
  // the adjacent one) and the levels below keep their values where the tree allows it.
  std::uint64_t neighbour(std::uint64_t leaf, std::mt19937_64& rng) const;

 private:
  friend class SearchSpace;
  std::uint64_t childrenBegin(std::size_t level, std::uint64_t node) const;
  std::uint64_t childrenEnd(std::size_t level, std::uint64_t node) const;
  std::uint64_t firstLeafOf(std::size_t level, std::uint64_t node) const;
  std::uint64_t descend(std::size_t level, std::uint64_t node,
                        const std::vector<std::uint64_t>& oldPath) const;

  std::vector<Level> levels_;
  std::uint64_t leaves_ = 0;
};

struct SpaceGroup {
  std::vector<std::size_t> parameters;  // indices into the space's parameters, in order
  GroupTree tree;
};

// A search space: the configurations of the parameters that satisfy all constraints, numbered
// 0 .. size()-1. Configuration k is found in O(depth log width): k is split into one leaf
// index per group (mixed radix over the groups' leaf counts, first group most significant),
// and each tree is descended through the leaf counts of its nodes.
class SearchSpace {
 public:
  explicit SearchSpace(std::vector<Parameter> parameters, SpaceLimits limits = {});

  std::uint64_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const std::vector<Parameter>& parameters() const { return parameters_; }
  const ParameterNames& names() const { return names_; }
  const std::vector<SpaceGroup>& groups() const { return groups_; }

  Configuration at(std::uint64_t index) const;
  std::optional<std::uint64_t> indexOf(const Configuration& c) const;
  // A configuration written as JSON ({"name": value, ...}); throws TunerError on unknown or
  // missing parameters, nullopt if the configuration is not in the space.
  std::optional<std::uint64_t> indexOf(const boost::json::object& config) const;
  Configuration configuration(const boost::json::object& config) const;  // no space check

  // Per group: the leaf index of configuration `index` in that group's tree, and back.
  std::vector<std::uint64_t> coordinates(std::uint64_t index) const;
  std::uint64_t index(const std::vector<std::uint64_t>& coordinates) const;
  // A neighbour in parameter space: one group moves to a neighbouring leaf (GroupTree);
  // returns `index` itself only when the space has a single configuration.
  std::uint64_t neighbour(std::uint64_t index, std::mt19937_64& rng) const;

  // Statistics for the report printed before searching.
  std::uint64_t nodes() const;
  std::uint64_t constraintChecks() const { return constraintChecks_; }
  double buildSeconds() const { return buildSeconds_; }
  // The product of the range sizes (nullopt when some range is generated).
  std::optional<double> cartesianSize() const;
  std::string describe() const;  // "1234 configurations in 2 groups (of 1e6 ...), built in 3 ms"

 private:
  void buildGroups();
  void buildTree(SpaceGroup& group);

  std::vector<Parameter> parameters_;
  ParameterNames names_;
  SpaceLimits limits_;
  std::vector<SpaceGroup> groups_;
  std::vector<std::uint64_t> strides_;  // mixed-radix weight of each group
  std::uint64_t size_ = 0;
  std::uint64_t constraintChecks_ = 0;
  double buildSeconds_ = 0;
};

}  // namespace fftc::tuner
