#include "tuner/search_space.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <numeric>

namespace fftc::tuner {

// ---- GroupTree: navigation ----

std::uint64_t GroupTree::nodes() const {
  std::uint64_t n = 0;
  for (const auto& l : levels_) n += l.valueId.size();
  return n;
}

std::uint64_t GroupTree::childrenBegin(std::size_t level, std::uint64_t node) const {
  return levels_[level].firstChild[node];
}

std::uint64_t GroupTree::childrenEnd(std::size_t level, std::uint64_t node) const {
  return levels_[level].firstChild[node + 1];
}

std::uint64_t GroupTree::firstLeafOf(std::size_t level, std::uint64_t node) const {
  return level + 1 == levels_.size() ? node : levels_[level].firstLeaf[node];
}

const Value& GroupTree::valueAt(std::size_t level, std::uint64_t node) const {
  const auto& l = levels_[level];
  return l.table[l.valueId[node]];
}

std::vector<std::uint64_t> GroupTree::path(std::uint64_t leaf) const {
  std::vector<std::uint64_t> p(levels_.size());
  // Inner nodes all have leaves (empty subtrees are pruned), so firstLeaf is strictly
  // increasing along a level and the node holding leaf k is found by binary search.
  for (std::size_t l = 0; l + 1 < levels_.size(); ++l) {
    const auto& fl = levels_[l].firstLeaf;
    p[l] =
        static_cast<std::uint64_t>(std::upper_bound(fl.begin(), fl.end() - 1, leaf) - fl.begin()) -
        1;
  }
  p.back() = leaf;
  return p;
}

std::optional<std::uint64_t> GroupTree::find(const std::vector<const Value*>& values) const {
  std::uint64_t begin = 0, end = levels_.empty() ? 0 : levels_[0].valueId.size();
  std::uint64_t node = 0;
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    const auto& table = levels_[l].table;
    auto it = std::find(table.begin(), table.end(), *values[l]);
    if (it == table.end()) return std::nullopt;
    auto id = static_cast<std::uint32_t>(it - table.begin());
    const auto& ids = levels_[l].valueId;
    auto hit = std::find(ids.begin() + static_cast<std::ptrdiff_t>(begin),
                         ids.begin() + static_cast<std::ptrdiff_t>(end), id);
    if (hit == ids.begin() + static_cast<std::ptrdiff_t>(end)) return std::nullopt;
    node = static_cast<std::uint64_t>(hit - ids.begin());
    if (l + 1 < levels_.size()) {
      begin = childrenBegin(l, node);
      end = childrenEnd(l, node);
    }
  }
  return node;
}

// Below level `level` (where the path now goes through `node`), keep the old path's values
// where the tree has them, else the child at the same position (clamped).
std::uint64_t GroupTree::descend(std::size_t level, std::uint64_t node,
                                 const std::vector<std::uint64_t>& oldPath) const {
  for (std::size_t m = level + 1; m < levels_.size(); ++m) {
    std::uint64_t b = childrenBegin(m - 1, node), e = childrenEnd(m - 1, node);
    const auto id = levels_[m].valueId[oldPath[m]];
    std::uint64_t pick = e;
    for (std::uint64_t c = b; c < e && pick == e; ++c)
      if (levels_[m].valueId[c] == id) pick = c;
    if (pick == e) {
      std::uint64_t rel = oldPath[m] - childrenBegin(m - 1, oldPath[m - 1]);
      pick = b + std::min(rel, e - b - 1);
    }
    node = pick;
  }
  return firstLeafOf(levels_.size() - 1, node);
}

std::uint64_t GroupTree::neighbour(std::uint64_t leaf, std::mt19937_64& rng) const {
  auto p = path(leaf);
  auto siblings = [&](std::size_t l) -> std::pair<std::uint64_t, std::uint64_t> {
    if (l == 0) return {0, levels_[0].valueId.size()};
    return {childrenBegin(l - 1, p[l - 1]), childrenEnd(l - 1, p[l - 1])};
  };
  std::vector<std::size_t> movable;
  for (std::size_t l = 0; l < levels_.size(); ++l) {
    auto [b, e] = siblings(l);
    if (e - b > 1) movable.push_back(l);
  }
  if (movable.empty()) return leaf;
  std::size_t l = movable[std::uniform_int_distribution<std::size_t>(0, movable.size() - 1)(rng)];
  auto [b, e] = siblings(l);
  std::uint64_t j = p[l];
  // Mostly a step to the adjacent value (ranges are usually ordered), sometimes a jump.
  if (std::uniform_int_distribution<int>(0, 3)(rng) != 0) {
    bool up = std::uniform_int_distribution<int>(0, 1)(rng) == 1;
    if (j + 1 == e) up = false;
    if (j == b) up = true;
    j = up ? j + 1 : j - 1;
  } else {
    std::uint64_t k = std::uniform_int_distribution<std::uint64_t>(b, e - 2)(rng);
    j = k >= j ? k + 1 : k;
  }
  return descend(l, j, p);
}

// ---- SearchSpace: construction ----

SearchSpace::SearchSpace(std::vector<Parameter> parameters, SpaceLimits limits)
    : parameters_(std::move(parameters)), limits_(limits) {
  auto start = std::chrono::steady_clock::now();
  if (parameters_.empty()) throw TunerError("a search space needs at least one parameter");
  auto names = std::make_shared<std::vector<std::string>>();
  for (const auto& p : parameters_) {
    if (std::find(names->begin(), names->end(), p.name()) != names->end())
      throw TunerError(fmt::format("tuning parameter '{}' is declared twice", p.name()));
    for (const auto& d : p.dependencies())
      if (std::find(names->begin(), names->end(), d) == names->end())
        throw TunerError(fmt::format(
            "tuning parameter '{}' depends on '{}', which is not declared before it", p.name(), d));
    names->push_back(p.name());
  }
  names_ = std::move(names);
  buildGroups();
  size_ = 1;
  strides_.assign(groups_.size(), 1);
  for (std::size_t g = groups_.size(); g-- > 0;) {
    buildTree(groups_[g]);
    strides_[g] = size_;
    if (__builtin_mul_overflow(size_, groups_[g].tree.leaves(), &size_))
      throw TunerError("the search space has more than 2^64 configurations");
  }
  if (size_ == 0) strides_.assign(groups_.size(), 0);
  buildSeconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Independent groups: connected components of "reads" (union-find over dependencies).
void SearchSpace::buildGroups() {
  std::vector<std::size_t> parent(parameters_.size());
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](std::size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const auto& names = *names_;
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    for (const auto& d : parameters_[i].dependencies()) {
      auto j = static_cast<std::size_t>(std::find(names.begin(), names.end(), d) - names.begin());
      parent[root(i)] = root(j);
    }
  std::map<std::size_t, std::size_t> groupOfRoot;  // in order of first parameter
  for (std::size_t i = 0; i < parameters_.size(); ++i) {
    auto [it, fresh] = groupOfRoot.try_emplace(root(i), groups_.size());
    if (fresh) groups_.emplace_back();
    groups_[it->second].parameters.push_back(i);
  }
}

namespace {
// Depth-first construction of one tree; a branch stops as soon as a constraint fails, and a
// node whose subtree ends up without leaves is removed again (it is the last one appended on
// its level, and its descendants have already removed themselves).
struct TreeBuilder {
  const std::vector<Parameter>& parameters;
  const std::vector<std::size_t>& order;
  std::vector<GroupTree::Level>& levels;
  std::vector<std::map<Value, std::uint32_t>> ids;
  Configuration partial;
  std::uint64_t& checks;
  std::uint64_t& nodes;
  std::uint64_t maxNodes;

  std::uint32_t intern(std::size_t l, const Value& v) {
    auto [it, fresh] = ids[l].try_emplace(v, static_cast<std::uint32_t>(levels[l].table.size()));
    if (fresh) levels[l].table.push_back(v);
    return it->second;
  }

  std::uint64_t build(std::size_t l) {
    const std::size_t pi = order[l];
    const Parameter& p = parameters[pi];
    const bool last = l + 1 == order.size();
    std::uint64_t leaves = 0;
    for (auto& v : p.range().valuesFor(partial)) {
      partial.set(pi, v);
      checks += p.constraints().size();
      if (!p.admits(v, partial)) continue;
      if (++nodes > maxNodes)
        throw TunerError(fmt::format("the search space needs more than {} tree nodes", maxNodes));
      auto& level = levels[l];
      level.valueId.push_back(intern(l, v));
      if (last) {
        ++leaves;
        continue;
      }
      level.firstChild.push_back(levels[l + 1].valueId.size());
      level.firstLeaf.push_back(levels.back().valueId.size());
      std::uint64_t below = build(l + 1);
      if (below == 0) {
        level.valueId.pop_back();
        level.firstChild.pop_back();
        level.firstLeaf.pop_back();
        --nodes;
      }
      leaves += below;
    }
    partial.unset(pi);
    return leaves;
  }
};
}  // namespace

void SearchSpace::buildTree(SpaceGroup& group) {
  auto& tree = group.tree;
  tree.levels_.assign(group.parameters.size(), {});
  std::uint64_t nodes = this->nodes();
  TreeBuilder b{parameters_,
                group.parameters,
                tree.levels_,
                std::vector<std::map<Value, std::uint32_t>>(group.parameters.size()),
                Configuration(names_, std::vector<std::optional<Value>>(parameters_.size())),
                constraintChecks_,
                nodes,
                limits_.maxNodes};
  tree.leaves_ = b.build(0);
  for (std::size_t l = 0; l + 1 < tree.levels_.size(); ++l) {
    tree.levels_[l].firstChild.push_back(tree.levels_[l + 1].valueId.size());
    tree.levels_[l].firstLeaf.push_back(tree.leaves_);
  }
}

// ---- SearchSpace: indexing ----

std::vector<std::uint64_t> SearchSpace::coordinates(std::uint64_t index) const {
  if (index >= size_)
    throw TunerError(fmt::format("configuration {} is outside the space of {}", index, size_));
  std::vector<std::uint64_t> c(groups_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g)
    c[g] = index / strides_[g] % groups_[g].tree.leaves();
  return c;
}

std::uint64_t SearchSpace::index(const std::vector<std::uint64_t>& coordinates) const {
  std::uint64_t k = 0;
  for (std::size_t g = 0; g < groups_.size(); ++g) k += coordinates[g] * strides_[g];
  return k;
}

Configuration SearchSpace::at(std::uint64_t index) const {
  auto coords = coordinates(index);
  std::vector<std::optional<Value>> values(parameters_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    const auto& group = groups_[g];
    auto p = group.tree.path(coords[g]);
    for (std::size_t l = 0; l < p.size(); ++l)
      values[group.parameters[l]] = group.tree.valueAt(l, p[l]);
  }
  return {names_, std::move(values)};
}

std::optional<std::uint64_t> SearchSpace::indexOf(const Configuration& c) const {
  if (c.names() != *names_) return std::nullopt;
  std::vector<std::uint64_t> coords(groups_.size());
  for (std::size_t g = 0; g < groups_.size(); ++g) {
    std::vector<const Value*> vs;
    for (auto pi : groups_[g].parameters) {
      if (!c.isSet(pi)) return std::nullopt;
      vs.push_back(&c.value(pi));
    }
    auto leaf = groups_[g].tree.find(vs);
    if (!leaf) return std::nullopt;
    coords[g] = *leaf;
  }
  return index(coords);
}

Configuration SearchSpace::configuration(const boost::json::object& config) const {
  std::vector<std::optional<Value>> values(parameters_.size());
  for (const auto& [key, v] : config) {
    auto it = std::find(names_->begin(), names_->end(), std::string_view(key));
    if (it == names_->end())
      throw TunerError(fmt::format("unknown tuning parameter '{}'", std::string_view(key)));
    values[static_cast<std::size_t>(it - names_->begin())] = valueFromJson(v);
  }
  for (std::size_t i = 0; i < values.size(); ++i)
    if (!values[i])
      throw TunerError(fmt::format("configuration {} has no value for '{}'",
                                   boost::json::serialize(config), (*names_)[i]));
  return {names_, std::move(values)};
}

std::optional<std::uint64_t> SearchSpace::indexOf(const boost::json::object& config) const {
  return indexOf(configuration(config));
}

std::uint64_t SearchSpace::neighbour(std::uint64_t index, std::mt19937_64& rng) const {
  std::vector<std::size_t> movable;
  for (std::size_t g = 0; g < groups_.size(); ++g)
    if (groups_[g].tree.leaves() > 1) movable.push_back(g);
  if (movable.empty()) return index;
  auto coords = coordinates(index);
  auto g = movable[std::uniform_int_distribution<std::size_t>(0, movable.size() - 1)(rng)];
  coords[g] = groups_[g].tree.neighbour(coords[g], rng);
  return this->index(coords);
}

std::uint64_t SearchSpace::nodes() const {
  std::uint64_t n = 0;
  for (const auto& g : groups_) n += g.tree.nodes();
  return n;
}

std::optional<double> SearchSpace::cartesianSize() const {
  double n = 1;
  for (const auto& p : parameters_) {
    if (!p.range().isFixed()) return std::nullopt;
    n *= static_cast<double>(p.range().fixedValues().size());
  }
  return n;
}

std::string SearchSpace::describe() const {
  auto cart = cartesianSize();
  return fmt::format(
      "{} configurations of {} parameters in {} independent groups{}; {} tree "
      "nodes, {} constraint checks, built in {:.3f} s",
      size_, parameters_.size(), groups_.size(),
      cart ? fmt::format(" (of {:.4g} in the Cartesian product)", *cart) : "", nodes(),
      constraintChecks_, buildSeconds_);
}

}  // namespace fftc::tuner
