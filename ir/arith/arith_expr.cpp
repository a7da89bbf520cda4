// ArithExpr storage: hash-consing table, reference counting, variables, the public operators,
// evaluation, substitution and the simplifier budget.
#include "ir/arith/arith_expr.h"

#include <fmt/format.h>

#include <algorithm>
#include <mutex>
#include <unordered_set>

#include "ir/arith/arith_node.h"
#include "ir/arith/arith_overflow.h"

namespace fftc::ir {
namespace {

struct NodeHash {
  size_t operator()(const ArithNode* n) const noexcept { return n->hash; }
};
struct NodeEq {
  bool operator()(const ArithNode* a, const ArithNode* b) const noexcept {
    if (a->kind != b->kind || a->value != b->value || a->ops.size() != b->ops.size()) return false;
    for (size_t i = 0; i < a->ops.size(); ++i)
      if (a->ops[i] != b->ops[i]) return false;
    return true;
  }
};

// Leaked on purpose: handles held by static objects may be released after main returns.
struct Table {
  std::mutex mu;
  std::unordered_set<const ArithNode*, NodeHash, NodeEq> nodes;
};
Table& table() {
  static Table* t = new Table;
  return *t;
}

std::atomic<uint64_t> nextVarId{1};

size_t hashOf(const ArithNode& n) {
  size_t h = static_cast<size_t>(n.kind) * 0x9E3779B97F4A7C15ULL;
  auto mix = [&h](size_t v) { h ^= v + 0x9E3779B97F4A7C15ULL + (h << 6) + (h >> 2); };
  mix(std::hash<int64_t>()(n.value));
  for (const ArithExpr& o : n.ops) mix(std::hash<const void*>()(o.node()));
  return h;
}

// Deferred deletion so that dropping a deep expression never recurses deeply.
// The list is heap allocated and owned by a thread_local that frees it when the thread ends.
// Handles in static objects may still be released after that (thread_locals die before
// statics): the list is then made again, and the main thread's TLS keeps it reachable.
thread_local std::vector<const ArithNode*>* pendingList = nullptr;
thread_local bool draining = false;
struct PendingListOwner {
  ~PendingListOwner() {
    delete pendingList;
    pendingList = nullptr;
  }
};
thread_local PendingListOwner pendingListOwner;
std::vector<const ArithNode*>& pendingDelete() {
  if (!pendingList) {
    pendingList = new std::vector<const ArithNode*>;
    (void)&pendingListOwner;  // odr-use: constructs the owner on this thread
  }
  return *pendingList;
}

void drain() noexcept {
  draining = true;
  std::vector<const ArithNode*>& pending = pendingDelete();
  while (!pending.empty()) {
    const ArithNode* n = pending.back();
    pending.pop_back();
    if (const ArithNode* c = n->lbCache.load()) releaseNode(c);
    if (const ArithNode* c = n->ubCache.load()) releaseNode(c);
    delete n;  // releases children: they are queued, not deleted recursively
  }
  draining = false;
}

struct BudgetState {
  int depth = 0;
  int64_t steps = 0;
};
thread_local BudgetState budgetState;
thread_local ArithBudget budget;
thread_local ArithStats stats;

// Constants that are pinned for the life of the program (cheap and very common).
constexpr int64_t kPinLo = -64, kPinHi = 1024;

}  // namespace

const ArithNode* ArithAccess::retain(const ArithExpr& e) {
  e.node()->refs.fetch_add(1, std::memory_order_relaxed);
  return e.node();
}

// Only the last reference takes the table lock; a lookup that resurrects a node also holds
// it, so a node found in the table always has refs >= 1.
void releaseNode(const ArithNode* n) noexcept {
  uint32_t c = n->refs.load(std::memory_order_relaxed);
  while (c > 1) {
    if (n->refs.compare_exchange_weak(c, c - 1, std::memory_order_acq_rel)) return;
  }
  {
    std::lock_guard<std::mutex> lock(table().mu);
    if (n->refs.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    if (n->interned) table().nodes.erase(n);
  }
  pendingDelete().push_back(n);
  if (!draining) drain();
}

ArithExpr makeRaw(ArithKind kind, std::vector<ArithExpr> ops) {
  auto* n = new ArithNode;
  n->kind = kind;
  n->ops = std::move(ops);
  n->hash = hashOf(*n);
  const ArithNode* found = nullptr;
  {
    std::lock_guard<std::mutex> lock(table().mu);
    auto it = table().nodes.find(n);
    if (it != table().nodes.end()) {
      (*it)->refs.fetch_add(1, std::memory_order_relaxed);
      found = *it;
    }
  }
  if (!found) {
    computeAnalysis(*n);
    std::lock_guard<std::mutex> lock(table().mu);
    auto [it, inserted] = table().nodes.insert(n);
    if (inserted) {
      n->interned = true;
      return ArithAccess::adopt(n);
    }
    (*it)->refs.fetch_add(1, std::memory_order_relaxed);  // another thread interned it meanwhile
    found = *it;
  }
  delete n;  // outside the lock: dropping its children may release nodes
  return ArithAccess::adopt(found);
}

ArithExpr makeConst(int64_t c) {
  static const std::vector<ArithExpr>* pinned = [] {
    auto* v = new std::vector<ArithExpr>;
    for (int64_t i = kPinLo; i <= kPinHi; ++i) {
      auto* n = new ArithNode;
      n->kind = ArithKind::Const;
      n->value = i;
      n->hash = hashOf(*n);
      computeAnalysis(*n);
      n->interned = true;
      std::lock_guard<std::mutex> lock(table().mu);
      table().nodes.insert(n);
      v->push_back(ArithAccess::adopt(n));
    }
    return v;
  }();
  if (c >= kPinLo && c <= kPinHi) return (*pinned)[static_cast<size_t>(c - kPinLo)];
  auto* n = new ArithNode;
  n->kind = ArithKind::Const;
  n->value = c;
  n->hash = hashOf(*n);
  std::lock_guard<std::mutex> lock(table().mu);
  auto it = table().nodes.find(n);
  if (it != table().nodes.end()) {
    (*it)->refs.fetch_add(1, std::memory_order_relaxed);
    const ArithNode* found = *it;
    delete n;
    return ArithAccess::adopt(found);
  }
  computeAnalysis(*n);
  n->interned = true;
  table().nodes.insert(n);
  return ArithAccess::adopt(n);
}

// ---------------------------------------------------------------- handle basics
ArithExpr::ArithExpr() : ArithExpr(int64_t{0}) {}
ArithExpr::ArithExpr(int64_t c) : node_(ArithAccess::retain(makeConst(c))) {}
ArithExpr::ArithExpr(const ArithExpr& o) noexcept : node_(o.node_) {
  node_->refs.fetch_add(1, std::memory_order_relaxed);
}
ArithExpr::ArithExpr(ArithExpr&& o) noexcept : node_(o.node_) {
  o.node_->refs.fetch_add(1, std::memory_order_relaxed);  // moved-from stays valid
}
ArithExpr& ArithExpr::operator=(const ArithExpr& o) noexcept {
  if (node_ != o.node_) {
    o.node_->refs.fetch_add(1, std::memory_order_relaxed);
    const ArithNode* old = node_;
    node_ = o.node_;
    releaseNode(old);
  }
  return *this;
}
ArithExpr& ArithExpr::operator=(ArithExpr&& o) noexcept { return *this = static_cast<const ArithExpr&>(o); }
ArithExpr::~ArithExpr() { releaseNode(node_); }

ArithExpr ArithExpr::posInf() {
  static const ArithExpr* e = new ArithExpr(makeRaw(ArithKind::PosInf, {}));
  return *e;
}
ArithExpr ArithExpr::negInf() {
  static const ArithExpr* e = new ArithExpr(makeRaw(ArithKind::NegInf, {}));
  return *e;
}

ArithExpr ArithExpr::var(std::string name, ArithExpr lo, ArithExpr hiExclusive) {
  if (lo.kind() == ArithKind::PosInf || hiExclusive.kind() == ArithKind::NegInf)
    throw ArithError(fmt::format("variable '{}': empty range [{}, {})", name, lo.str(), hiExclusive.str()));
  auto* n = new ArithNode;
  n->kind = ArithKind::Var;
  n->varId = nextVarId.fetch_add(1);
  n->value = static_cast<int64_t>(n->varId);  // distinct hash-consing key
  n->name = std::move(name);
  n->ops = {std::move(lo), std::move(hiExclusive)};
  n->hash = hashOf(*n);
  computeAnalysis(*n);
  return ArithAccess::adopt(n);  // unique by construction, not interned
}
ArithExpr ArithExpr::sizeVar(std::string name) { return var(std::move(name), 1, posInf()); }
ArithExpr ArithExpr::loopVar(std::string name, ArithExpr extent) {
  return var(std::move(name), 0, std::move(extent));
}
ArithExpr ArithExpr::unboundedVar(std::string name) { return var(std::move(name), negInf(), posInf()); }

ArithKind ArithExpr::kind() const { return node_->kind; }
std::optional<int64_t> ArithExpr::constant() const {
  if (node_->kind == ArithKind::Const) return node_->value;
  return std::nullopt;
}
uint64_t ArithExpr::varId() const {
  if (!isVar()) throw ArithError("varId() of a non-variable: " + str());
  return node_->varId;
}
const std::string& ArithExpr::varName() const {
  if (!isVar()) throw ArithError("varName() of a non-variable: " + str());
  return node_->name;
}
ArithExpr ArithExpr::varLo() const {
  if (!isVar()) throw ArithError("varLo() of a non-variable: " + str());
  return node_->ops[0];
}
ArithExpr ArithExpr::varHi() const {
  if (!isVar()) throw ArithError("varHi() of a non-variable: " + str());
  return node_->ops[1];
}
const std::vector<ArithExpr>& ArithExpr::operands() const {
  static const std::vector<ArithExpr> none;
  return isVar() ? none : node_->ops;
}
bool ArithExpr::fitsInt32() const { return node_->fits32; }
int64_t ArithExpr::knownFactor() const { return node_->factor; }
std::optional<int64_t> ArithExpr::constLowerBound() const {
  if (node_->lo == kNegInf) return std::nullopt;
  return node_->lo;
}
std::optional<int64_t> ArithExpr::constUpperBound() const {
  if (node_->hi == kPosInf) return std::nullopt;
  return node_->hi;
}

// ---------------------------------------------------------------- operators
static void rejectInf(const ArithExpr& a, const char* op) {
  if (a.isInfinite()) throw ArithError(fmt::format("'{}' applied to an infinity sentinel", op));
}
ArithExpr operator+(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "+"), rejectInf(b, "+");
  return makeSum({a, b});
}
ArithExpr operator-(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "-"), rejectInf(b, "-");
  return makeSum({a, makeProd({ArithExpr(-1), b})});
}
ArithExpr operator-(const ArithExpr& a) {
  rejectInf(a, "-");
  return makeProd({ArithExpr(-1), a});
}
ArithExpr operator*(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "*"), rejectInf(b, "*");
  return makeProd({a, b});
}
ArithExpr operator/(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "/"), rejectInf(b, "/");
  return makeDiv(a, b);
}
ArithExpr operator%(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "%"), rejectInf(b, "%");
  return makeMod(a, b);
}
ArithExpr min(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "min"), rejectInf(b, "min");
  return makeMin(a, b);
}
ArithExpr max(const ArithExpr& a, const ArithExpr& b) {
  rejectInf(a, "max"), rejectInf(b, "max");
  return makeMax(a, b);
}

// ---------------------------------------------------------------- checked integers
std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> checkedFloorDiv(int64_t a, int64_t b) {
  if (b == -1 && a == INT64_MIN) return std::nullopt;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
std::optional<int64_t> checkedFloorMod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}
int64_t gcd64(int64_t a, int64_t b) {
  uint64_t x = a < 0 ? 0 - static_cast<uint64_t>(a) : static_cast<uint64_t>(a);
  uint64_t y = b < 0 ? 0 - static_cast<uint64_t>(b) : static_cast<uint64_t>(b);
  while (y != 0) {
    uint64_t t = x % y;
    x = y;
    y = t;
  }
  return x > static_cast<uint64_t>(INT64_MAX) ? (int64_t{1} << 62) : static_cast<int64_t>(x);
}

// ---------------------------------------------------------------- order
int compareExpr(const ArithExpr& a, const ArithExpr& b) {
  if (a == b) return 0;
  const ArithNode& x = nodeOf(a);
  const ArithNode& y = nodeOf(b);
  if (x.kind != y.kind) return static_cast<int>(x.kind) < static_cast<int>(y.kind) ? -1 : 1;
  if (x.kind == ArithKind::Var) return x.varId < y.varId ? -1 : 1;
  if (x.value != y.value) return x.value < y.value ? -1 : 1;
  size_t n = std::min(x.ops.size(), y.ops.size());
  for (size_t i = 0; i < n; ++i)
    if (int c = compareExpr(x.ops[i], y.ops[i]); c != 0) return c;
  if (x.ops.size() != y.ops.size()) return x.ops.size() < y.ops.size() ? -1 : 1;
  return 0;
}

// ---------------------------------------------------------------- budget
RuleScope::RuleScope() {
  BudgetState& s = budgetState;
  if (s.depth == 0) s.steps = 0;
  ++s.depth;
  ok_ = s.depth <= budget.maxDepth && ++s.steps <= budget.maxSteps;
  if (!ok_) ++stats.budgetHits;
}
RuleScope::~RuleScope() { --budgetState.depth; }
void noteRule() { ++stats.ruleApplications; }
ArithBudget& arithBudget() { return budget; }
ArithStats& arithStats() { return stats; }

// ---------------------------------------------------------------- traversal
namespace {
ArithExpr rebuild(const ArithExpr& e, const std::unordered_map<uint64_t, ArithExpr>* subst,
                  std::unordered_map<const ArithNode*, ArithExpr>& memo) {
  const ArithNode& n = nodeOf(e);
  if (n.kind == ArithKind::Var) {
    if (subst) {
      auto it = subst->find(n.varId);
      if (it != subst->end()) return it->second;
    }
    return e;
  }
  if (n.ops.empty() || (subst && !n.hasVars)) return e;
  if (auto it = memo.find(e.node()); it != memo.end()) return it->second;
  std::vector<ArithExpr> ops;
  ops.reserve(n.ops.size());
  for (const ArithExpr& o : n.ops) ops.push_back(rebuild(o, subst, memo));
  ArithExpr r;
  switch (n.kind) {
    case ArithKind::Sum: r = makeSum(std::move(ops)); break;
    case ArithKind::Prod: r = makeProd(std::move(ops)); break;
    case ArithKind::FloorDiv: r = makeDiv(ops[0], ops[1]); break;
    case ArithKind::FloorMod: r = makeMod(ops[0], ops[1]); break;
    case ArithKind::Min: r = makeMin(ops[0], ops[1]); break;
    case ArithKind::Max: r = makeMax(ops[0], ops[1]); break;
    default: r = e;
  }
  memo.emplace(e.node(), r);
  return r;
}

void collectVars(const ArithExpr& e, std::vector<ArithExpr>& out,
                 std::unordered_set<const ArithNode*>& seen) {
  const ArithNode& n = nodeOf(e);
  if (!n.hasVars || !seen.insert(e.node()).second) return;
  if (n.kind == ArithKind::Var) {
    out.push_back(e);
    return;
  }
  for (const ArithExpr& o : n.ops) collectVars(o, out, seen);
}
}  // namespace

ArithExpr simplify(const ArithExpr& e, bool* converged) {
  uint64_t hits = stats.budgetHits;
  std::unordered_map<const ArithNode*, ArithExpr> memo;
  ArithExpr r = rebuild(e, nullptr, memo);
  if (converged) *converged = stats.budgetHits == hits;
  return r;
}

ArithExpr ArithExpr::substitute(const std::unordered_map<uint64_t, ArithExpr>& byVarId) const {
  bool any = false;
  for (const ArithExpr& v : freeVars()) any = any || byVarId.count(v.varId()) != 0;
  if (!any) return *this;
  std::unordered_map<const ArithNode*, ArithExpr> memo;
  return rebuild(*this, &byVarId, memo);
}

std::vector<ArithExpr> ArithExpr::freeVars() const {
  std::vector<ArithExpr> out;
  std::unordered_set<const ArithNode*> seen;
  collectVars(*this, out, seen);
  std::sort(out.begin(), out.end(),
            [](const ArithExpr& a, const ArithExpr& b) { return a.varId() < b.varId(); });
  return out;
}

bool ArithExpr::dependsOn(const ArithExpr& v) const {
  if (!v.isVar()) return false;
  if (*this == v) return true;
  for (const ArithExpr& o : operands())
    if (nodeOf(o).hasVars && o.dependsOn(v)) return true;
  return false;
}

size_t ArithExpr::nodeCount() const {
  size_t n = 1;
  for (const ArithExpr& o : operands()) n += o.nodeCount();
  return n;
}

int64_t ArithExpr::evaluate(const std::unordered_map<uint64_t, int64_t>& env) const {
  const ArithNode& n = *node_;
  auto need = [](std::optional<int64_t> v, const char* what) {
    if (!v) throw ArithOverflow(std::string("integer overflow in ") + what);
    return *v;
  };
  switch (n.kind) {
    case ArithKind::Const: return n.value;
    case ArithKind::Var: {
      auto it = env.find(n.varId);
      if (it == env.end())
        throw ArithError(fmt::format("evaluate: variable '{}' (id {}) is unbound", n.name, n.varId));
      return it->second;
    }
    case ArithKind::Sum: {
      int64_t s = 0;
      for (const ArithExpr& o : n.ops) s = need(checkedAdd(s, o.evaluate(env)), "+");
      return s;
    }
    case ArithKind::Prod: {
      int64_t p = 1;
      for (const ArithExpr& o : n.ops) p = need(checkedMul(p, o.evaluate(env)), "*");
      return p;
    }
    case ArithKind::FloorDiv:
    case ArithKind::FloorMod: {
      int64_t a = n.ops[0].evaluate(env), b = n.ops[1].evaluate(env);
      if (b == 0) throw ArithError("evaluate: division by zero in " + str());
      return n.kind == ArithKind::FloorDiv ? need(checkedFloorDiv(a, b), "/")
                                           : need(checkedFloorMod(a, b), "%");
    }
    case ArithKind::Min: return std::min(n.ops[0].evaluate(env), n.ops[1].evaluate(env));
    case ArithKind::Max: return std::max(n.ops[0].evaluate(env), n.ops[1].evaluate(env));
    case ArithKind::PosInf:
    case ArithKind::NegInf: break;
  }
  throw ArithError("evaluate: infinity has no value");
}

}  // namespace fftc::ir
