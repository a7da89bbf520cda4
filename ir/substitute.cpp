// Free Params, use counting and substitution (substitute.h), on the IR traversal.
#include "ir/substitute.h"

#include <algorithm>

#include "ir/traversal.h"

namespace fftc::ir {

namespace {

class UseFinder : public IRVisitor {
 public:
  explicit UseFinder(std::vector<const Param*> ps) : ps_(std::move(ps)) {}
  using IRVisitor::visit;
  void visit(const ExprPtr& e) override {
    if (e->is<Param>()) {
      stop_ = stop_ || std::find(ps_.begin(), ps_.end(), e.get()) != ps_.end();
      return;
    }
    visitChildren(e);
  }
  bool found() const { return stop_; }

 private:
  std::vector<const Param*> ps_;
};

template <class Node>
bool usesOf(const Node& n, std::vector<const Param*> ps) {
  UseFinder v(std::move(ps));
  v.visit(n);
  return v.found();
}

std::vector<const Param*> raw(const std::vector<ParamPtr>& ps) {
  std::vector<const Param*> out;
  for (const auto& p : ps) out.push_back(p.get());
  return out;
}

// Counting with memoization: the IR is a DAG, and a shared node counts once per reference.
class UseCounter {
 public:
  explicit UseCounter(const Param* p) : p_(p) {}

  UseCount expr(const ExprPtr& e) {
    if (e->is<Param>()) return UseCount{e.get() == p_ ? 1 : 0, false};
    const auto* c = e->as<FunCall>();
    if (!c) return {};
    if (auto it = exprMemo_.find(e.get()); it != exprMemo_.end()) return it->second;
    UseCount u = fun(c->f());
    for (const auto& a : c->args()) add(u, expr(a));
    return exprMemo_[e.get()] = u;
  }

  UseCount fun(const FunPtr& f) {
    if (auto it = funMemo_.find(f.get()); it != funMemo_.end()) return it->second;
    UseCount u;
    bool body = f->is<Lambda>();  // a Lambda's body runs once per application
    for (const auto& c : f->funChildren()) add(u, fun(c), true);
    for (const auto& c : f->exprChildren()) add(u, expr(c), body);
    return funMemo_[f.get()] = u;
  }

 private:
  static void add(UseCount& u, UseCount o, bool nested = false) {
    if (nested && o.count > 0) o.underFunction = true;
    u.count = std::min(2, u.count + o.count);
    u.underFunction = u.underFunction || o.underFunction;
  }
  const Param* p_;
  std::unordered_map<const Expr*, UseCount> exprMemo_;
  std::unordered_map<const FunDecl*, UseCount> funMemo_;
};

class Freshener : public IRGraphMutator {
 public:
  using IRGraphMutator::mutate;

 protected:
  ExprPtr mutateNew(const ExprPtr& e) override {
    if (const auto* p = e->as<Param>()) {
      auto it = ren_.find(p);
      return it == ren_.end() ? e : it->second;
    }
    return mutateChildren(e);
  }
  FunPtr mutateNew(const FunPtr& f) override {
    const auto* l = f->as<Lambda>();
    if (!l) return mutateChildren(f);
    std::vector<ParamPtr> ps;
    for (const auto& p : l->params()) {
      ParamPtr q = p->withType(p->type());
      ren_[p.get()] = q;
      ps.push_back(q);
    }
    return Lambda::make(std::move(ps), mutate(l->body()), l->loc());
  }

 private:
  std::unordered_map<const Param*, ExprPtr> ren_;
};

class Substituter : public IRGraphMutator {
 public:
  explicit Substituter(const Substitution& s) : s_(s) {}
  using IRGraphMutator::mutate;

 protected:
  ExprPtr mutateNew(const ExprPtr& e) override {
    const auto* p = e->as<Param>();
    if (!p) return mutateChildren(e);
    auto it = s_.find(p);
    if (it == s_.end()) return e;
    if (seen_[p]++ == 0 || !containsLambda(it->second)) return it->second;
    return freshen(it->second);
  }

 private:
  static bool containsLambda(const ExprPtr& e) {
    return containsFun(e, [](const FunDecl& f) { return f.is<Lambda>(); });
  }
  const Substitution& s_;
  std::unordered_map<const Param*, int> seen_;
};

}  // namespace

bool uses(const ExprPtr& e, const Param* p) { return usesOf(e, {p}); }
bool uses(const FunPtr& f, const Param* p) { return usesOf(f, {p}); }
bool usesAny(const ExprPtr& e, const std::vector<ParamPtr>& ps) { return usesOf(e, raw(ps)); }
bool usesAny(const FunPtr& f, const std::vector<ParamPtr>& ps) { return usesOf(f, raw(ps)); }

UseCount countUses(const ExprPtr& e, const Param* p) { return UseCounter(p).expr(e); }

ExprPtr substitute(const ExprPtr& e, const Substitution& s) {
  if (s.empty()) return e;
  Substituter sub(s);
  return sub.mutate(e);
}

ExprPtr freshen(const ExprPtr& e) {
  Freshener f;
  return f.mutate(e);
}

}  // namespace fftc::ir
