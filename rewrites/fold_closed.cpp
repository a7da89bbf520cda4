#include "rewrites/fold_closed.h"

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "ir/batch_eval.h"
#include "ir/diagnostic.h"
#include "ir/fft_operation.h"
#include "ir/infer.h"
#include "ir/interpreter.h"
#include "ir/substitute.h"
#include "ir/view_predicates.h"
#include "rewrites/ir_util.h"

namespace fftc::rewrites {

using namespace ir;

namespace {

// A copy of a closed expression with its f32 literals made f64 (the values are the same), and
// its cispiRatio builtins and fft operations (the ops whose precision the node carries).
class ToDouble : public IRGraphMutator {
 protected:
  FunPtr mutateNew(const FunPtr& f) override {
    if (const int sign = fftOperationSign(*f))
      return fftOperation(sign, ScalarKind::Double, f->loc());
    const auto* b = f->as<Builtin>();
    if (b == nullptr || b->op() != BuiltinOp::CisPiRatio) return mutateChildren(f);
    return Builtin::make(b->op(), 0, b->loc(), ScalarKind::Double);
  }
  ExprPtr mutateNew(const ExprPtr& e) override {
    const auto* l = e->as<Literal>();
    if (l == nullptr) return mutateChildren(e);
    if (l->litKind() == LiteralKind::Int || l->precision() != ScalarKind::Float) return e;
    if (l->litKind() == LiteralKind::Real)
      return Literal::makeReal(l->realValue(), ScalarKind::Double, l->loc());
    return Literal::makeComplex(l->re(), l->im(), ScalarKind::Double, l->loc());
  }
};

// The value of closed `e` by the interpreter: an f32 expression is evaluated in f64 (its
// literals and every operation, twiddles included) and rounded to f32 once, so that a table
// (Bluestein's chirp spectrum D_M b, an FFT) carries the rounding of one value instead of the
// error of an f32 FFT; where the f64 copy does not type, in f32. Its fft operations are then
// FFTW's in double, not long double (exactDftRounded's `use`: ample for a float).
std::vector<std::complex<double>> evaluate(const ExprPtr& e, const Type& elem) {
  // a whole array at a time (ir::evaluateBatched, the interpreter's bits), else element by
  // element by the interpreter itself
  const ScalarKind use = elem.scalarKind() == ScalarKind::Float ? ScalarKind::Float
                                                                 : ScalarKind::Double;
  auto values = [&](const ExprPtr& x) {
    if (auto batched = evaluateBatched(x, use)) return std::move(*batched);
    InterpreterOptions options;
    options.use = use;
    const Value v = interpret(x, {}, options);
    if (elem.isComplex()) return v.toComplexVector();
    std::vector<double> r = v.toRealVector();
    return std::vector<std::complex<double>>(r.begin(), r.end());
  };
  if (elem.scalarKind() != ScalarKind::Float) return values(e);
  ExprPtr wide;
  try {
    wide = inferTypes(ToDouble().mutate(e), InferOptions{.real = ScalarKind::Double});
  } catch (const CompileError&) {
    return values(e);
  }
  std::vector<std::complex<double>> out = values(wide);
  for (auto& v : out) v = {static_cast<float>(v.real()), static_cast<float>(v.imag())};
  return out;
}

// The number of elements of `type` and its scalar element type, when it is an array of reals
// or complex numbers whose sizes are constants, at most `most` elements in all.
std::optional<std::pair<int64_t, Type>> constantArray(const Type& type, int64_t most) {
  if (!type || !type.isArray()) return std::nullopt;
  int64_t count = 1;
  Type elem = type;
  for (; elem.isArray(); elem = elem.element()) {
    auto n = elem.size().constant();
    if (!n || *n < 0 || (*n > 0 && count > most / *n)) return std::nullopt;
    count *= *n;
  }
  if (!(elem.isReal() || elem.isComplex())) return std::nullopt;
  return std::pair{count, elem};
}

// The value of closed `e`, `count` elements of `elem`, or nullopt where the interpreter cannot
// compute it (a userfun, which has no C++ implementation: not even started).
std::optional<std::vector<std::complex<double>>> closedValues(const ExprPtr& e, const Type& elem,
                                                              int64_t count) {
  if (containsFun(e, [](const FunDecl& f) {
        return f.kind() == FunKind::UserFun && !isFftOperationMarker(f);
      }))
    return std::nullopt;
  std::vector<std::complex<double>> values;
  try {
    values = evaluate(e, elem);
  } catch (const InterpreterError&) {
    return std::nullopt;
  }
  if (static_cast<int64_t>(values.size()) != count) return std::nullopt;
  return values;
}

class Folder : public IRMutator {
 public:
  explicit Folder(const FoldOptions& options) : options_(options) {}
  using IRMutator::mutate;

  ExprPtr mutate(const ExprPtr& e) override {
    if (!e->is<FunCall>()) return e;
    if (replicates(e)) return mutateChildren(e);
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

  // A view that yields more elements than it reads (a pad that wraps or clamps: a table
  // repeated for every transform) stays a view of its folded argument: folded whole, the table
  // would store each element as often as the view repeats it (Bluestein's chirp spectrum,
  // wrapped over the batch, took B x M entries: 256 MiB for 999983 in a batch of 16).
  static bool replicates(const ExprPtr& e) {
    const auto* c = e->as<FunCall>();
    if (!c || c->args().size() != 1 || !ir::isView(*c->f())) return false;
    auto elements = [](Type t) -> std::optional<int64_t> {
      int64_t n = 1;
      for (; t && t.isArray(); t = t.element()) {
        auto k = t.size().constant();
        if (!k) return std::nullopt;
        n *= *k;
      }
      return n;
    };
    const auto out = elements(e->type()), in = elements(c->arg(0)->type());
    return out && in && *out > *in;
  }

  // The table replacing e, or null.
  ExprPtr tryFold(const ExprPtr& e) {
    const int64_t most =
        std::max({options_.maxElements, options_.maxReducingElements, options_.maxFftElements});
    const auto shape = constantArray(e->type(), most);
    if (!shape) return nullptr;
    const auto [count, elem] = *shape;
    if (!free_.of(e).empty() || !containsFun(e, computes)) return nullptr;  // cheap test first
    // a closed fft operation has no other form than its table (fft_operation.h)
    const bool fft = containsFftOperation(e);
    if (count > (fft ? options_.maxFftElements : options_.maxElements) &&
        (fft || count > options_.maxReducingElements ||
         !containsFun(e, [](const FunDecl& f) { return f.is<AbstractReduce>(); })))
      return nullptr;
    auto values = closedValues(e, elem, count);
    if (!values) return nullptr;
    return FunCall::make(Table::make(e->type(), std::move(*values), e->loc()), {}, e->loc());
  }

  const FoldOptions& options_;
  FreeParams free_;  // remembered across the walk: each node is asked about once
};

}  // namespace

std::optional<std::vector<std::complex<double>>> closedValue(const ExprPtr& typed,
                                                             int64_t maxElements) {
  const auto shape = constantArray(typed->type(), maxElements);
  if (!shape || !FreeParams().of(typed).empty()) return std::nullopt;
  return closedValues(typed, shape->second, shape->first);
}

ExprPtr foldClosed(const ExprPtr& typed, const FoldOptions& options) {
  Folder f(options);
  return f.mutate(typed);
}

Strategy foldClosedPass(FoldOptions options) {
  return programPass("foldClosed",
                     [options](const ExprPtr& e, Engine&) { return foldClosed(e, options); });
}

}  // namespace fftc::rewrites
