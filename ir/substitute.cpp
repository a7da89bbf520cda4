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

// Counting on the fold: the IR is a DAG, and a shared node counts once per reference.
class UseCounter : public IRFold<UseCount> {
 public:
  explicit UseCounter(const Param* p) : p_(p) {}

 protected:
  UseCount leaf(const ExprPtr& e) override { return {e.get() == p_ ? 1 : 0, false}; }
  UseCount call(const FunCall&, const std::vector<const UseCount*>& cs) override {
    UseCount u;
    for (const UseCount* c : cs) add(u, *c);
    return u;
  }
  // Function children run once per element or call; a Lambda's body once per application.
  UseCount fun(const FunDecl& f, const std::vector<const UseCount*>& cs) override {
    UseCount u;
    const size_t nFuns = f.funChildren().size();
    for (size_t i = 0; i < cs.size(); ++i) add(u, *cs[i], i < nFuns || f.is<Lambda>());
    return u;
  }

 private:
  static void add(UseCount& u, UseCount o, bool nested = false) {
    if (nested && o.count > 0) o.underFunction = true;
    u.count = std::min(2, u.count + o.count);
    u.underFunction = u.underFunction || o.underFunction;
  }
  const Param* p_;
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

FreeParams::Set FreeParams::leaf(const ExprPtr& e) {
  if (const auto* p = e->as<Param>()) return {p};
  return {};
}

namespace {
std::set<const Param*> unite(const std::vector<const std::set<const Param*>*>& sets) {
  std::set<const Param*> out;
  for (const auto* s : sets) out.insert(s->begin(), s->end());
  return out;
}
}  // namespace

FreeParams::Set FreeParams::call(const FunCall&, const std::vector<const Set*>& children) {
  return unite(children);
}

// A Lambda binds its Params; a pattern binds nothing.
FreeParams::Set FreeParams::fun(const FunDecl& f, const std::vector<const Set*>& children) {
  Set out = unite(children);
  if (const auto* l = f.as<Lambda>())
    for (const auto& p : l->params()) out.erase(p.get());
  return out;
}

bool uses(const ExprPtr& e, const Param* p) { return usesOf(e, {p}); }
bool uses(const FunPtr& f, const Param* p) { return usesOf(f, {p}); }
bool usesAny(const ExprPtr& e, const std::vector<ParamPtr>& ps) { return usesOf(e, raw(ps)); }
bool usesAny(const FunPtr& f, const std::vector<ParamPtr>& ps) { return usesOf(f, raw(ps)); }

UseCount countUses(const ExprPtr& e, const Param* p) { return UseCounter(p).of(e); }

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
