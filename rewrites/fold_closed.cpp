#include "rewrites/fold_closed.h"

#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/diagnostic.h"
#include "ir/interpreter.h"
#include "rewrites/ir_util.h"

namespace fftc::rewrites {

using namespace ir;

namespace {

class Folder : public IRMutator {
 public:
  explicit Folder(const FoldOptions& options) : options_(options) {}
  using IRMutator::mutate;

  ExprPtr mutate(const ExprPtr& e) override {
    if (!e->is<FunCall>()) return e;
    if (ExprPtr t = tryFold(e)) return t;
    return mutateChildren(e);
  }

 private:
  // The Params an expression reads that it does not bind itself.
  const std::set<const Param*>& freeParams(const ExprPtr& e) {
    auto it = free_.find(e.get());
    if (it != free_.end()) return it->second;
    std::set<const Param*> out;
    if (const auto* p = e->as<Param>()) {
      out.insert(p);
    } else if (const auto* c = e->as<FunCall>()) {
      for (const auto& a : c->args()) {
        const auto& s = freeParams(a);
        out.insert(s.begin(), s.end());
      }
      funFree(*c->f(), out);
    }
    return free_[e.get()] = std::move(out);
  }
  void funFree(const FunDecl& f, std::set<const Param*>& out) {
    std::set<const Param*> inner;
    for (const auto& g : f.funChildren()) funFree(*g, inner);
    for (const auto& x : f.exprChildren()) {
      const auto& s = freeParams(x);
      inner.insert(s.begin(), s.end());
    }
    if (const auto* l = f.as<Lambda>())
      for (const auto& p : l->params()) inner.erase(p.get());
    out.insert(inner.begin(), inner.end());
  }

  // A map that only rearranges (ir::isView: a view, no loop) computes nothing: folding a closed
  // expression whose only maps are such views would store every element its generators yield
  // again (a table as large as the rearranged array instead of the generator's own).
  static bool computes(const FunDecl& f) {
    if (const auto* m = f.as<AbstractMap>()) return !ir::isView(*m->f());
    return f.is<AbstractReduce>() || f.kind() == FunKind::Iterate;
  }

  // The table replacing e, or null.
  ExprPtr tryFold(const ExprPtr& e) {
    const Type& type = e->type();
    if (!type || !type.isArray()) return nullptr;
    int64_t count = 1;
    Type elem = type;
    for (; elem.isArray(); elem = elem.element()) {
      auto n = elem.size().constant();
      if (!n) return nullptr;
      count *= *n;
      if (count > options_.maxElements) return nullptr;
    }
    if (!(elem.isReal() || elem.isComplex())) return nullptr;
    if (!freeParams(e).empty() || !containsFun(e, computes)) return nullptr;  // cheap test first
    // the interpreter cannot run a userfun's C body: do not start what must fail
    if (containsFun(e, [](const FunDecl& f) { return f.kind() == FunKind::UserFun; }))
      return nullptr;
    std::vector<std::complex<double>> values;
    try {
      Value v = interpret(e, {});
      values = elem.isComplex() ? v.toComplexVector() : [&] {
        std::vector<double> r = v.toRealVector();
        return std::vector<std::complex<double>>(r.begin(), r.end());
      }();
    } catch (const InterpreterError&) {
      return nullptr;
    }
    if (static_cast<int64_t>(values.size()) != count) return nullptr;
    return FunCall::make(Table::make(type, std::move(values), e->loc()), {}, e->loc());
  }

  const FoldOptions& options_;
  std::unordered_map<const Expr*, std::set<const Param*>> free_;
};

}  // namespace

ExprPtr foldClosed(const ExprPtr& typed, const FoldOptions& options) {
  Folder f(options);
  return f.mutate(typed);
}

Strategy foldClosedPass(FoldOptions options) {
  return programPass("foldClosed",
                     [options](const ExprPtr& e, Engine&) { return foldClosed(e, options); });
}

}  // namespace fftc::rewrites
