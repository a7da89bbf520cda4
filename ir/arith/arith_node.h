// Internals of ArithExpr shared by the ir/arith/*.cpp files: the node layout, raw construction,
// the linear view of sums, the deterministic order, the budget guard and the rule entry points.
#pragma once

#include <atomic>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "ir/arith/arith_expr.h"

namespace fftc::ir {

// Constant bounds use INT64_MIN / INT64_MAX as -inf / +inf.
inline constexpr int64_t kNegInf = INT64_MIN;
inline constexpr int64_t kPosInf = INT64_MAX;

struct ArithNode {
  ArithKind kind = ArithKind::Const;
  int64_t value = 0;           // Const
  uint64_t varId = 0;          // Var
  std::string name;            // Var
  std::vector<ArithExpr> ops;  // children; a Var keeps {lo, hiExclusive}
  size_t hash = 0;             // interning hash (pointer based, not deterministic)
  // Analysis computed once at creation (bottom-up, O(1) per node).
  int64_t lo = kNegInf, hi = kPosInf;  // constant inclusive bounds
  int64_t factor = 1;                  // known constant divisor (0: the node is 0)
  int level = 0;                       // Var: 1 + level of its range; else max over children
  bool hasVars = false;
  bool fits32 = true;   // every subexpression within int32
  bool interned = false;
  mutable std::atomic<uint32_t> refs{1};
  // Symbolic bounds, computed lazily; owning references (nullptr: not computed yet).
  mutable std::atomic<const ArithNode*> lbCache{nullptr};
  mutable std::atomic<const ArithNode*> ubCache{nullptr};
};

struct ArithAccess {
  static ArithExpr adopt(const ArithNode* n) { return ArithExpr(n); }
  static const ArithNode* retain(const ArithExpr& e);  // +1 reference, returns the node
  static ArithExpr share(const ArithNode* n) {           // a new handle on n (+1 reference)
    n->refs.fetch_add(1, std::memory_order_relaxed);
    return ArithExpr(n);
  }
};

void releaseNode(const ArithNode* n) noexcept;

// Raw, hash-consed construction: no rules; the caller guarantees canonical operands.
ArithExpr makeRaw(ArithKind kind, std::vector<ArithExpr> ops);
ArithExpr makeConst(int64_t c);

// Rule-applying constructors (what the public operators call).
ArithExpr makeSum(std::vector<ArithExpr> terms);
ArithExpr makeProd(std::vector<ArithExpr> factors);
ArithExpr makeDiv(const ArithExpr& a, const ArithExpr& b);
ArithExpr makeMod(const ArithExpr& a, const ArithExpr& b);
ArithExpr makeMin(const ArithExpr& a, const ArithExpr& b);
ArithExpr makeMax(const ArithExpr& a, const ArithExpr& b);

// Deterministic total order used for canonical operand order (never pointer based, so that
// printed kernels are identical from run to run).
int compareExpr(const ArithExpr& a, const ArithExpr& b);

// Linear view of an expression: sum of coef * monomial plus a constant. A monomial is an atom
// or a Prod without constant factor.
struct LinTerm {
  int64_t coef;
  ArithExpr mono;
};
struct Linear {
  std::vector<LinTerm> terms;
  int64_t constant = 0;
};
Linear toLinear(const ArithExpr& e);
// Splits a canonical monomial-with-coefficient into (coef, monomial).
LinTerm splitCoef(const ArithExpr& term);
ArithExpr fromLinear(const Linear& l);  // through makeSum (rules apply)

// Budget guard: one per rule-applying call. ok() is false once the depth or step budget is
// exceeded; the caller then builds the canonical form without rules.
class RuleScope {
 public:
  RuleScope();
  ~RuleScope();
  RuleScope(const RuleScope&) = delete;
  RuleScope& operator=(const RuleScope&) = delete;
  bool ok() const { return ok_; }

 private:
  bool ok_;
};
void noteRule();  // counts one successful rule application

// Checked int64 helpers (no UB): nullopt on overflow.
std::optional<int64_t> checkedAdd(int64_t a, int64_t b);
std::optional<int64_t> checkedMul(int64_t a, int64_t b);
std::optional<int64_t> checkedFloorDiv(int64_t a, int64_t b);  // b != 0
std::optional<int64_t> checkedFloorMod(int64_t a, int64_t b);  // b != 0
int64_t gcd64(int64_t a, int64_t b);                            // of |a|, |b|; saturates

// Constant-interval analysis at creation (arith_bounds.cpp).
void computeAnalysis(ArithNode& n);
// Monotonicity of e in variable v: 0 absent, +1 non-decreasing, -1 non-increasing, 2 unknown.
int monotonicity(const ArithExpr& e, const ArithExpr& v);

inline const ArithNode& nodeOf(const ArithExpr& e) { return *e.node(); }

}  // namespace fftc::ir
