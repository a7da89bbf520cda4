// ArithExpr: hash-consed, range-aware symbolic integer arithmetic; every index fftc generates
// goes through it. Semantics, canonical forms and the rules are documented in docs/arith.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

namespace fftc::ir {

struct ArithError : std::runtime_error {
  using runtime_error::runtime_error;
};

// Node kinds. Sums and products are n-ary and canonical (see docs/arith.md); FloorDiv and
// FloorMod use floor semantics; PosInf/NegInf only appear as bounds.
enum class ArithKind : uint8_t { Const, Var, Sum, Prod, FloorDiv, FloorMod, Min, Max, PosInf, NegInf };

struct ArithNode;  // internal, ir/arith/arith_node.h

class ArithExpr {
 public:
  ArithExpr();                                   // the constant 0
  ArithExpr(int64_t c);                          // NOLINT(google-explicit-constructor): constants
  ArithExpr(int c) : ArithExpr(static_cast<int64_t>(c)) {}  // NOLINT
  ArithExpr(const ArithExpr& o) noexcept;
  ArithExpr(ArithExpr&& o) noexcept;
  ArithExpr& operator=(const ArithExpr& o) noexcept;
  ArithExpr& operator=(ArithExpr&& o) noexcept;
  ~ArithExpr();

  // Each call makes a NEW variable (unique id); names are only for printing.
  // Range [lo, hiExclusive); either end may be an infinity sentinel.
  static ArithExpr var(std::string name, ArithExpr lo, ArithExpr hiExclusive);
  static ArithExpr sizeVar(std::string name);                    // [1, +inf)
  static ArithExpr loopVar(std::string name, ArithExpr extent);  // [0, extent)
  static ArithExpr unboundedVar(std::string name);               // (-inf, +inf)
  static ArithExpr posInf();
  static ArithExpr negInf();

  // --- inspection
  ArithKind kind() const;
  std::optional<int64_t> constant() const;
  bool isConstant() const { return kind() == ArithKind::Const; }
  bool isInfinite() const { return kind() == ArithKind::PosInf || kind() == ArithKind::NegInf; }
  bool isVar() const { return kind() == ArithKind::Var; }
  uint64_t varId() const;                // throws ArithError if not a variable
  const std::string& varName() const;    // throws ArithError if not a variable
  ArithExpr varLo() const;               // inclusive lower end of a variable's range
  ArithExpr varHi() const;               // exclusive upper end of a variable's range
  const std::vector<ArithExpr>& operands() const;  // children (empty for Const, Var, inf)
  const ArithNode* node() const { return node_; }

  // --- arithmetic: every operation builds the simplified canonical form
  friend ArithExpr operator+(const ArithExpr& a, const ArithExpr& b);
  friend ArithExpr operator-(const ArithExpr& a, const ArithExpr& b);
  friend ArithExpr operator*(const ArithExpr& a, const ArithExpr& b);
  friend ArithExpr operator-(const ArithExpr& a);
  friend ArithExpr operator/(const ArithExpr& a, const ArithExpr& b);  // FLOOR division
  friend ArithExpr operator%(const ArithExpr& a, const ArithExpr& b);  // floor mod: sign of b
  friend ArithExpr min(const ArithExpr& a, const ArithExpr& b);
  friend ArithExpr max(const ArithExpr& a, const ArithExpr& b);
  ArithExpr& operator+=(const ArithExpr& b) { return *this = *this + b; }
  ArithExpr& operator-=(const ArithExpr& b) { return *this = *this - b; }
  ArithExpr& operator*=(const ArithExpr& b) { return *this = *this * b; }

  // Structural equality = pointer identity (hash-consed).
  bool operator==(const ArithExpr& o) const { return node_ == o.node_; }
  bool operator!=(const ArithExpr& o) const { return node_ != o.node_; }
  size_t hash() const { return std::hash<const void*>()(node_); }

  std::string str() const;  // readable, e.g. "(id / 2048) + 4096 * k"
  // C/OpenCL/CUDA expression; floor division/modulo become `/ % >> &` where the numerator is
  // provably non-negative and the divisor positive, else fftc_floordiv/fftc_floormod calls
  // (fftc_floordiv64/fftc_floormod64 when 64-bit); defined by the backend prelude.
  std::string toC() const;
  // The helper functions toC() calls (fftc_floordiv, fftc_floormod and their 64-bit forms), so
  // code generation records the helpers a kernel needs without reading printed text.
  std::vector<std::string> cHelpers() const;
  // True when every subexpression's value provably fits in int32 (so toC needs no 64-bit).
  bool fitsInt32() const;

  // Throws ArithError if a variable is unbound, on division by zero or on int64 overflow.
  int64_t evaluate(const std::unordered_map<uint64_t, int64_t>& varValues) const;
  // Replaces variables and re-simplifies; returns *this (same node) if nothing is replaced.
  ArithExpr substitute(const std::unordered_map<uint64_t, ArithExpr>& byVarId) const;
  std::vector<ArithExpr> freeVars() const;  // sorted by id, each once
  bool dependsOn(const ArithExpr& var) const;
  size_t nodeCount() const;                 // tree size (shared subtrees counted each time)

  // --- analysis (bottom-up and cached): inclusive bounds, possibly symbolic in the variables
  // that have no finite bound in that direction, possibly +-infinity sentinels.
  ArithExpr lowerBound() const;
  ArithExpr upperBound() const;
  std::optional<int64_t> constLowerBound() const;
  std::optional<int64_t> constUpperBound() const;
  // Largest constant g known to divide every value (0 for the constant 0).
  int64_t knownFactor() const;

 private:
  explicit ArithExpr(const ArithNode* n) noexcept : node_(n) {}  // adopts one reference
  const ArithNode* node_;
  friend struct ArithAccess;  // internal construction (arith_node.h)
};

// Proofs over all variable values within their ranges (false = not provable).
bool provablyLess(const ArithExpr& a, const ArithExpr& b);
bool provablyLessEq(const ArithExpr& a, const ArithExpr& b);
bool provablyNonNegative(const ArithExpr& a);
bool provablyPositive(const ArithExpr& a);
bool provablyNonZero(const ArithExpr& a);
bool provablyDivisible(const ArithExpr& a, const ArithExpr& b);  // b divides a, e.g. (M*j, M)

// Rebuilds `e` bottom-up through the simplifier. On a canonical expression this returns the
// same node (idempotence). `converged` is false if a budget stopped a rewrite on the way.
ArithExpr simplify(const ArithExpr& e, bool* converged = nullptr);

// Budgets and counters of the simplifier, per thread. A budget hit leaves a correct but less
// simplified expression and increments budgetHits.
struct ArithBudget {
  int maxDepth = 48;            // nesting of rule applications / proofs
  int64_t maxSteps = 20000;     // rule attempts per top-level operation
  size_t maxExpandTerms = 64;   // products of sums are expanded up to this many terms
};
struct ArithStats {
  uint64_t ruleApplications = 0;
  uint64_t budgetHits = 0;
};
ArithBudget& arithBudget();  // thread-local, adjustable (tests lower it)
ArithStats& arithStats();    // thread-local counters

}  // namespace fftc::ir

template <>
struct std::hash<fftc::ir::ArithExpr> {
  size_t operator()(const fftc::ir::ArithExpr& e) const noexcept { return e.hash(); }
};
