#include "rewrites/fold_closed.h"

#include <utility>
#include <vector>

#include "ir/batch_eval.h"
#include "ir/diagnostic.h"
#include "ir/interpreter.h"
#include "ir/substitute.h"
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
    if (!free_.of(e).empty() || !containsFun(e, computes)) return nullptr;  // cheap test first
    // the interpreter cannot run a userfun's C body: do not start what must fail
    if (containsFun(e, [](const FunDecl& f) { return f.kind() == FunKind::UserFun; }))
      return nullptr;
    std::vector<std::complex<double>> values;
    try {
      // a whole array at a time (the same bits), else element by element
      if (auto batched = evaluateBatched(e)) {
        values = std::move(*batched);
        if (static_cast<int64_t>(values.size()) != count) return nullptr;
        return FunCall::make(Table::make(type, std::move(values), e->loc()), {}, e->loc());
      }
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
  FreeParams free_;  // remembered across the walk: each node is asked about once
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
