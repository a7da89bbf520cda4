// Beta reduction and the beta-eta normal form (beta_reduce.h).
#include "ir/beta_reduce.h"

#include "ir/substitute.h"
#include "ir/traversal.h"
#include "ir/view_predicates.h"

namespace fftc::ir {

bool isCheap(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return true;
  if (!isDataLayout(*c->f())) return false;
  for (const auto& a : c->args())
    if (!isCheap(a)) return false;
  return true;
}

namespace {
// The k values a k-ary Lambda binds when applied to args, or nullopt.
std::optional<std::vector<ExprPtr>> components(size_t k, const std::vector<ExprPtr>& args) {
  if (k <= 1 || args.size() != 1) {
    if (args.size() != k) return std::nullopt;
    return args;
  }
  const auto* t = args[0]->as<FunCall>();
  const auto* b = t ? t->f()->as<Builtin>() : nullptr;
  if (b && b->op() == BuiltinOp::MakeTuple && t->args().size() == k) return t->args();
  if (!isCheap(args[0]) || (args[0]->type() && !args[0]->type().isTuple())) return std::nullopt;
  std::vector<ExprPtr> comps;
  for (size_t i = 0; i < k; ++i)
    comps.push_back(FunCall::make(Get::make(i), {i == 0 ? args[0] : freshen(args[0])}));
  return comps;
}
}  // namespace

std::optional<ExprPtr> betaReduce(const Lambda& f, const std::vector<ExprPtr>& args) {
  auto comps = components(f.arity(), args);
  if (!comps) return std::nullopt;
  Substitution s;
  for (size_t i = 0; i < comps->size(); ++i) {
    const Param* p = f.params()[i].get();
    if (!isCheap((*comps)[i])) {
      UseCount u = countUses(f.body(), p);
      if (u.count > 1 || u.underFunction) return std::nullopt;
    }
    s[p] = (*comps)[i];
  }
  return substitute(f.body(), s);
}

ExprPtr applyFun(const FunPtr& f, std::vector<ExprPtr> args) {
  if (const auto* l = f->as<Lambda>())
    if (auto r = betaReduce(*l, args)) return *r;
  return FunCall::make(f, std::move(args));
}

FunPtr etaFun(const FunPtr& f) {
  if (!f->isPattern() || f->arity() == 0) return f;
  std::vector<ParamPtr> ps;
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < f->arity(); ++i) {
    ps.push_back(Param::make(f->arity() == 1 ? "x" : "x" + std::to_string(i)));
    args.push_back(ps.back());
  }
  return Lambda::make(std::move(ps), FunCall::make(f, std::move(args)));
}

namespace {

bool etaChildOf(const FunDecl& parent) {
  return parent.is<AbstractMap>() || parent.is<AbstractReduce>() ||
         parent.kind() == FunKind::Iterate;
}

// One bottom-up sweep: function children of map/reduce/iterate eta-expanded, applied Lambdas
// beta-reduced where betaReduce allows.
class Normalizer : public IRMutator {
 public:
  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr& e) override {
    ExprPtr r = mutateChildren(e);
    if (const auto* c = r->as<FunCall>())
      if (const auto* l = c->f()->as<Lambda>())
        if (auto b = betaReduce(*l, c->args())) return *b;
    return r;
  }

 protected:
  FunPtr mutateFunChild(const FunDecl& parent, const FunPtr& child) override {
    FunPtr g = mutate(child);
    return etaChildOf(parent) ? etaFun(g) : g;
  }
};

}  // namespace

ExprPtr betaEta(const ExprPtr& e) {
  ExprPtr cur = e;
  for (int i = 0; i < 16; ++i) {
    Normalizer n;
    ExprPtr next = n.mutate(cur);
    if (next == cur) break;
    cur = next;
  }
  return cur;
}

}  // namespace fftc::ir
