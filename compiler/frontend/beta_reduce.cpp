// Safe beta reduction on the untyped IR the elaborator builds: use counting with memoization
// (the IR is a DAG; a shared subtree counts once per reference) and generic substitution
// through FunCall::rebuild and FunDecl::withChildren.
#include "compiler/frontend/beta_reduce.h"

#include <algorithm>
#include <unordered_map>

namespace fftc::compiler::frontend {

namespace {

// How often a Param occurs (capped at 2) and whether any occurrence is inside a nested function.
struct Uses {
  int count = 0;
  bool underFunction = false;
  Uses& operator+=(const Uses& o) {
    count = std::min(2, count + o.count);
    underFunction = underFunction || o.underFunction;
    return *this;
  }
};

class UseCounter {
 public:
  explicit UseCounter(const ir::Param* p) : p_(p) {}

  Uses expr(const ir::ExprPtr& e) {
    if (e->is<ir::Param>()) return Uses{e.get() == p_ ? 1 : 0, false};
    if (!e->is<ir::FunCall>()) return {};
    if (auto it = exprMemo_.find(e.get()); it != exprMemo_.end()) return it->second;
    const auto* fc = e->as<ir::FunCall>();
    Uses u = fun(fc->f());
    for (const auto& a : fc->args()) u += expr(a);
    exprMemo_[e.get()] = u;
    return u;
  }

  // Occurrences in a function's own expressions (reduce's init, pad's value) are evaluated with
  // the call; those in its nested functions (and a lambda's body) once per element or call.
  Uses fun(const ir::FunPtr& f) {
    if (auto it = funMemo_.find(f.get()); it != funMemo_.end()) return it->second;
    Uses u;
    bool nested = f->is<ir::Lambda>();
    for (const auto& c : f->exprChildren()) {
      Uses cu = expr(c);
      if (nested && cu.count > 0) cu.underFunction = true;
      u += cu;
    }
    for (const auto& c : f->funChildren()) {
      Uses cu = fun(c);
      if (cu.count > 0) cu.underFunction = true;
      u += cu;
    }
    funMemo_[f.get()] = u;
    return u;
  }

 private:
  const ir::Param* p_;
  std::unordered_map<const void*, Uses> exprMemo_, funMemo_;
};

class Substituter {
 public:
  explicit Substituter(std::unordered_map<const ir::Param*, ir::ExprPtr> map) : map_(std::move(map)) {}

  ir::ExprPtr expr(const ir::ExprPtr& e) {
    if (const auto* p = e->as<ir::Param>()) {
      auto it = map_.find(p);
      return it == map_.end() ? e : it->second;
    }
    const auto* fc = e->as<ir::FunCall>();
    if (!fc) return e;
    if (auto it = exprMemo_.find(e.get()); it != exprMemo_.end()) return it->second;
    std::vector<ir::ExprPtr> args;
    for (const auto& a : fc->args()) args.push_back(expr(a));
    ir::ExprPtr r = fc->rebuild(fun(fc->f()), std::move(args), fc->type());
    exprMemo_[e.get()] = r;
    return r;
  }

  ir::FunPtr fun(const ir::FunPtr& f) {
    if (auto it = funMemo_.find(f.get()); it != funMemo_.end()) return it->second;
    std::vector<ir::FunPtr> funs;
    for (const auto& c : f->funChildren()) funs.push_back(fun(c));
    std::vector<ir::ExprPtr> exprs;
    for (const auto& c : f->exprChildren()) exprs.push_back(expr(c));
    ir::FunPtr r = f->withChildren(std::move(funs), std::move(exprs));
    funMemo_[f.get()] = r;
    return r;
  }

 private:
  std::unordered_map<const ir::Param*, ir::ExprPtr> map_;
  std::unordered_map<const void*, ir::ExprPtr> exprMemo_;
  std::unordered_map<const void*, ir::FunPtr> funMemo_;
};

bool trivial(const ir::ExprPtr& e) { return e->is<ir::Param>() || e->is<ir::Literal>(); }

}  // namespace

std::optional<ir::ExprPtr> betaReduce(const ir::LambdaPtr& f, const std::vector<ir::ExprPtr>& args) {
  if (args.size() != f->params().size()) return std::nullopt;
  std::unordered_map<const ir::Param*, ir::ExprPtr> map;
  for (size_t i = 0; i < args.size(); ++i) {
    const ir::ParamPtr& p = f->params()[i];
    if (!trivial(args[i])) {
      Uses u = UseCounter(p.get()).expr(f->body());
      if (u.count > 1 || u.underFunction) return std::nullopt;
    }
    map.emplace(p.get(), args[i]);
  }
  return Substituter(std::move(map)).expr(f->body());
}

}  // namespace fftc::compiler::frontend
