// The rewrite rule abstraction: a name, a pattern over the IR, a side condition and a result.
// Applying a rule never changes what a program computes; it reports success iff it changed it.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ir/infer.h"
#include "rewrites/ir_util.h"

namespace fftc::rewrites {

// A rule produced a program that does not type or changed the type of what it rewrote: a bug
// in the rule, never a user error.
struct RewriteError : std::logic_error {
  using logic_error::logic_error;
};

// What a pattern binds, by the names of the rule's equation (f, g, x, k, ...).
struct Match {
  std::map<std::string, ExprPtr> exprs;
  std::map<std::string, FunPtr> funs;
  std::map<std::string, ir::ArithExpr> sizes;
  std::vector<FunPtr> spine;     // a chain of unary functions (mapZipFlatten's g)
  std::vector<ParamPtr> params;  // the Params of a matched Lambda
  size_t index = 0;              // a position among arguments (mapZipFlatten's zip argument)
  ExprPtr root;                  // the matched expression itself

  const ExprPtr& e(const std::string& n) const { return exprs.at(n); }
  const FunPtr& f(const std::string& n) const { return funs.at(n); }
  const ir::ArithExpr& n(const std::string& k) const { return sizes.at(k); }
};

// Where a rule is applied: the functions enclosing the position (outermost first), computed
// when a side condition first asks.
class RuleContext {
 public:
  // `path` must outlive the context: it is not copied, since a rule is tried at every position
  // a traversal visits and most never ask (a copy per try made traversals of deep programs
  // quadratic per visit).
  RuleContext(ExprPtr root, const Path& path) : root_(std::move(root)), path_(&path) {}
  RuleContext(ExprPtr root, Path&& path) = delete;
  explicit RuleContext(std::vector<FunPtr> enclosing) : enclosing_(std::move(enclosing)) {}

  const std::vector<FunPtr>& enclosing() const {
    if (!enclosing_) enclosing_ = enclosingAt(root_, *path_);
    return *enclosing_;
  }
  bool inside(ir::FunKind k) const;
  bool inside(ir::FunKind k, int dim) const;  // a parallel map of that dimension
  // Inside the function of a map/reduce variant, iterate or generator (a loop body).
  bool insideLoop() const;

 private:
  ExprPtr root_;
  const Path* path_ = nullptr;
  mutable std::optional<std::vector<FunPtr>> enclosing_;
};

class Rule {
 public:
  using Pattern = std::function<std::optional<Match>(const ExprPtr& typed)>;
  using Condition = std::function<bool(const Match&, const RuleContext&)>;
  using Result = std::function<ExprPtr(const Match&)>;

  struct Def {
    std::string name;       // as the strategy language spells it: "splitJoin(4)"
    std::string group;      // "algorithmic", "lowering", "memory"
    std::string equation;   // "map(f) o map(g) -> map(f o g)"
    std::string condition;  // the side condition in words ("" when there is none)
    Pattern pattern;
    Condition sideCondition;  // may be empty: always true
    Result result;
  };

  explicit Rule(Def def);

  const std::string& name() const { return def_->name; }
  const std::string& group() const { return def_->group; }
  const std::string& equation() const { return def_->equation; }
  const std::string& condition() const { return def_->condition; }

  // The rewritten expression, or nullptr when the pattern or the side condition does not hold.
  // `typed` must come from a typed program; the result may contain untyped parts.
  ExprPtr rewriteHere(const ExprPtr& typed, const RuleContext& ctx) const;

 private:
  std::shared_ptr<const Def> def_;
};

struct ApplyOptions {
  ir::InferOptions infer;
};

struct Applied {
  ExprPtr program;  // the same pointer as the input when !changed
  bool changed = false;
};

// Applies `rule` at `path` of the typed program `root` and re-infers the types of the whole
// result. Throws RewriteError when the result does not type or the rewritten expression's type
// changed. Returns {root, false} when the rule does not apply there (or the path is invalid).
Applied applyAt(const Rule& rule, const ExprPtr& root, const Path& path,
                const ApplyOptions& options = {});
// Every position of `root` where `rule` applies (pre-order).
std::vector<Path> matchPositions(const Rule& rule, const ExprPtr& root);

}  // namespace fftc::rewrites
