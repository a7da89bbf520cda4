// Closed expressions evaluated a whole array at a time (batch_eval.h).
#include "ir/batch_eval.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <utility>

#include "ir/fft_operation.h"
#include "ir/interp_scalar.h"
#include "ir/strided_array.h"
#include "ir/scalar_columns.h"
#include "ir/scalar_program.h"

namespace fftc::ir {

namespace {

using interp::error;
using batch::Arr;
using batch::ArrayPool;
using batch::Cx;
using batch::denseArr;
using batch::gather;
using batch::strided;

// Outside what this evaluator does: the caller interprets the expression instead.
struct Unsupported {};

// A value inside `batch` enclosing maps: its leading `batch` dimensions index those maps'
// elements. A tuple's components carry their own.
struct BV {
  int batch = 0;
  bool tuple = false;
  Arr arr;
  std::vector<BV> parts;

  bool scalar() const { return !tuple && static_cast<int>(arr.shape.size()) == batch; }
};

bool isReal(ValueKind k) {
  return k == ValueKind::Float || k == ValueKind::Double;
}

int rank(ValueKind k) {
  return k == ValueKind::Float || k == ValueKind::ComplexFloat ? 1 : 2;
}

// interp_scalar's promotion where the result type is not at hand (ints are not batched).
ValueKind promote(ValueKind a, ValueKind b) {
  const int r = std::max(rank(a), rank(b));
  if (!isReal(a) || !isReal(b)) return r == 2 ? ValueKind::ComplexDouble : ValueKind::ComplexFloat;
  return r == 2 ? ValueKind::Double : ValueKind::Float;
}

Value boxed(const Cx& c, ValueKind k) {
  switch (k) {
    case ValueKind::Float:
      return Value::ofFloat(static_cast<float>(c.real()));
    case ValueKind::Double:
      return Value::ofDouble(c.real());
    case ValueKind::ComplexFloat:
      return Value::ofComplex(c, ScalarKind::Float);
    default:
      return Value::ofComplex(c, ScalarKind::Double);
  }
}

using interp::binaryElem;

// binaryElem over views of the result's shape.
template <class T, BuiltinOp Op, bool AC, bool BC, bool CR>
void binaryLoop(const Arr& a, const Arr& b, std::vector<Cx>& out) {
  const Cx* av = a.data->data();
  const Cx* bv = b.data->data();
  Cx* ov = out.data();
  strided<2>(a.shape, {&a, &b}, [=](int64_t i, const std::array<int64_t, 2>& o) {
    ov[i] = binaryElem<T, Op, AC, BC, CR>(av[o[0]], bv[o[1]]);
  });
}

// reduce(op, init) of the rows of x (the reduced dimension `d`, after the batch dimensions):
// each row folded in order, init first, as the interpreter folds it (AI: init is complex).
template <class T, BuiltinOp Op, bool AI, bool BC, bool CR>
void foldRows(const Cx& init, const Arr& x, size_t d, std::vector<Cx>& out) {
  Arr rows = x;
  const int64_t n = x.shape[d], step = x.strides[d];
  rows.shape.erase(rows.shape.begin() + static_cast<ptrdiff_t>(d));
  rows.strides.erase(rows.strides.begin() + static_cast<ptrdiff_t>(d));
  const Cx* xv = x.data->data();
  Cx* ov = out.data();
  strided<1>(rows.shape, {&rows}, [=](int64_t i, const std::array<int64_t, 1>& o) {
    Cx acc = binaryElem<T, Op, AI, BC, CR>(init, xv[o[0]]);
    for (int64_t j = 1; j < n; ++j) acc = binaryElem<T, Op, CR, BC, CR>(acc, xv[o[0] + j * step]);
    ov[i] = acc;
  });
}

template <class T, BuiltinOp Op>
void binaryLoopOf(const Arr& a, const Arr& b, bool complexResult, std::vector<Cx>& out) {
  const bool ac = !isReal(a.kind), bc = !isReal(b.kind);
  if (!complexResult) return binaryLoop<T, Op, false, false, false>(a, b, out);
  if (Op == BuiltinOp::Div) throw Unsupported{};  // not spelled out here
  if (ac && bc) return binaryLoop<T, Op, true, true, true>(a, b, out);
  if (ac) return binaryLoop<T, Op, true, false, true>(a, b, out);
  if (bc) return binaryLoop<T, Op, false, true, true>(a, b, out);
  binaryLoop<T, Op, false, false, true>(a, b, out);
}

template <class T>
void binaryLoop(BuiltinOp op, const Arr& a, const Arr& b, bool complexResult,
                std::vector<Cx>& out) {
  switch (op) {
    case BuiltinOp::Add:
      return binaryLoopOf<T, BuiltinOp::Add>(a, b, complexResult, out);
    case BuiltinOp::Sub:
      return binaryLoopOf<T, BuiltinOp::Sub>(a, b, complexResult, out);
    case BuiltinOp::Mul:
      return binaryLoopOf<T, BuiltinOp::Mul>(a, b, complexResult, out);
    default:
      return binaryLoopOf<T, BuiltinOp::Div>(a, b, complexResult, out);
  }
}

class Batched {
 public:
  explicit Batched(ScalarKind use) : use_(use) {}
  BV eval(const ExprPtr& e);

 private:
  BV apply(const FunDecl& f, std::vector<BV> args, const Type& result);
  BV builtin(const Builtin& b, std::vector<BV> args, const Type& result);
  BV pattern(const FunDecl& f, BV x, const Type& result);
  BV map(const AbstractMap& m, BV x, const Type& result);
  BV fftRows(int sign, const BV& x) const;
  BV reduce(const AbstractReduce& r, BV x);
  std::optional<BV> foldAdd(const AbstractReduce& r, const BV& init, const BV& x,
                            const Type& accType) const;
  BV generate(const ArrayGen& g);
  BV literal(const Literal& l) const;

  int depth() const { return static_cast<int>(batchSizes_.size()); }
  BV lift(const BV& v, int to) const;
  BV liftAll(BV v) const { return lift(v, depth()); }
  // Applies a layout change at dimension `dim` of every component.
  template <class F>
  static BV eachArray(BV v, F f);

  ScalarKind use_;  // the precision the values are rounded to afterwards (fftRows)
  std::vector<std::pair<const Param*, BV>> env_;
  std::vector<int64_t> batchSizes_;  // the enclosing maps' sizes, outermost first
  interp::CisPiMemo cisPi_;
  ArrayPool pool_;
  std::map<std::pair<const ArrayGen*, std::vector<int64_t>>, BV> generated_;
};

BV Batched::lift(const BV& v, int to) const {
  if (v.tuple) {
    BV t = v;
    for (auto& p : t.parts) p = lift(p, to);
    return t;
  }
  if (v.batch >= to) return v;
  BV out = v;
  const auto at = static_cast<ptrdiff_t>(v.batch);
  out.arr.shape.insert(out.arr.shape.begin() + at, batchSizes_.begin() + v.batch,
                       batchSizes_.begin() + to);
  out.arr.strides.insert(out.arr.strides.begin() + at, static_cast<size_t>(to - v.batch), 0);
  out.batch = to;
  return out;
}

template <class F>
BV Batched::eachArray(BV v, F f) {
  if (v.tuple) {
    for (auto& p : v.parts) p = eachArray(std::move(p), f);
    return v;
  }
  if (static_cast<int>(v.arr.shape.size()) <= v.batch) error("not an array");
  f(v.arr, static_cast<size_t>(v.batch));
  return v;
}

BV Batched::literal(const Literal& l) const {
  BV v;
  switch (l.litKind()) {
    case LiteralKind::Int:
      throw Unsupported{};
    case LiteralKind::Real: {
      const Value x = Value::ofReal(l.realValue(), l.precision());
      v.arr = denseArr({Cx(x.asReal(), 0.0)}, {}, x.kind());
      break;
    }
    case LiteralKind::Complex: {
      const Value x = Value::ofComplex({l.re(), l.im()}, l.precision());
      v.arr = denseArr({x.asComplex()}, {}, x.kind());
      break;
    }
  }
  return v;
}

BV Batched::eval(const ExprPtr& e) {
  switch (e->kind()) {
    case ExprKind::Param: {
      const auto* p = e->as<Param>();
      for (size_t i = env_.size(); i-- > 0;)
        if (env_[i].first == p) return env_[i].second;
      throw Unsupported{};  // free: not a closed expression
    }
    case ExprKind::Literal:
      return literal(*e->as<Literal>());
    case ExprKind::FunCall: {
      const auto* c = e->as<FunCall>();
      if (!e->type()) throw Unsupported{};
      std::vector<BV> args;
      args.reserve(c->args().size());
      for (const auto& a : c->args()) args.push_back(eval(a));
      return apply(*c->f(), std::move(args), e->type());
    }
  }
  throw Unsupported{};
}

BV Batched::apply(const FunDecl& f, std::vector<BV> args, const Type& result) {
  const size_t k = f.arity();
  if (k > 1 && args.size() == 1 && args[0].tuple && args[0].parts.size() == k) {
    std::vector<BV> parts = std::move(args[0].parts);
    args = std::move(parts);
  }
  if (args.size() != k) throw Unsupported{};
  switch (f.kind()) {
    case FunKind::Lambda: {
      const auto* l = f.as<Lambda>();
      const size_t mark = env_.size();
      for (size_t i = 0; i < k; ++i) env_.emplace_back(l->params()[i].get(), std::move(args[i]));
      BV v = eval(l->body());
      env_.resize(mark);
      return v;
    }
    case FunKind::Builtin:
      return builtin(*f.as<Builtin>(), std::move(args), result);
    case FunKind::ArrayGen:
      return generate(*f.as<ArrayGen>());
    case FunKind::Table: {
      const auto* t = f.as<Table>();
      std::vector<int64_t> shape;
      Type elem = t->type();
      for (; elem.isArray(); elem = elem.element()) shape.push_back(*elem.size().constant());
      const ValueKind kind = interp::kindOf(elem);
      std::vector<Cx> values = t->values();
      if (!elem.isComplex())
        for (auto& v : values) v = Cx(boxed(v, kind).asReal(), 0.0);
      else
        for (auto& v : values) v = boxed(v, kind).asComplex();
      BV out;
      out.arr = denseArr(std::move(values), std::move(shape), kind);
      return out;
    }
    case FunKind::Zip: {
      BV t;
      t.tuple = true;
      for (auto& a : args) t.parts.push_back(liftAll(std::move(a)));
      return t;
    }
    case FunKind::Pad: {  // a dense copy (a constant: a literal padding scalars of its kind)
      const auto* p = f.as<Pad>();
      const auto l = p->left().constant(), r = p->right().constant();
      if (!l || !r || *l < 0 || *r < 0) throw Unsupported{};
      if (p->boundary() == PadBoundary::Constant) {
        if (p->value()->kind() != ExprKind::Literal) throw Unsupported{};
        const BV c = literal(*p->value()->as<Literal>());
        return eachArray(std::move(args[0]), [&](Arr& a, size_t d) {
          if (d + 1 != a.shape.size() || a.kind != c.arr.kind) throw Unsupported{};
          a = batch::paddedConstant(a, *l, *r, (*c.arr.data)[0]);
        });
      }
      return eachArray(std::move(args[0]), [&](Arr& a, size_t d) {
        const int64_t n = a.shape[d];
        if (n == 0) error("pad of an empty array");
        a = batch::padded(a, d, *l, *r,
                          [&](int64_t i) { return interp::padSource(p->boundary(), i, n); });
      });
    }
    case FunKind::Gather: {  // a dense copy, element j from the input's idx[j]
      const auto& idx = f.as<Gather>()->indices();
      return eachArray(std::move(args[0]), [&](Arr& a, size_t d) {
        const int64_t n = a.shape[d], len = static_cast<int64_t>(idx.size());
        for (int64_t j : idx)
          if (j >= n) error("gather of an index beyond the array");
        a = batch::padded(a, d, 0, len - n,
                          [&](int64_t j) { return idx[static_cast<size_t>(j)]; });
      });
    }
    case FunKind::UserFun:
    case FunKind::Slide:
      throw Unsupported{};
    default:
      return pattern(f, std::move(args[0]), result);
  }
}

BV Batched::builtin(const Builtin& b, std::vector<BV> args, const Type& result) {
  if (b.op() == BuiltinOp::MakeTuple) {
    BV t;
    t.tuple = true;
    t.parts = std::move(args);
    return t;
  }
  if (args.size() > 2) throw Unsupported{};
  int to = 0;
  for (const auto& a : args) {
    if (!a.scalar()) throw Unsupported{};
    to = std::max(to, a.batch);
  }
  std::vector<int64_t> shape(batchSizes_.begin(), batchSizes_.begin() + to);
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  // the operands as views of the result's shape (broadcast where they are outside maps)
  std::vector<Arr> xs;
  for (const auto& a : args) xs.push_back(lift(a, to).arr);
  std::vector<Cx> out = pool_.take(static_cast<size_t>(n));
  const BuiltinOp op = b.op();
  ValueKind kind = ValueKind::Int;
  bool done = false;
  if (args.size() == 2 && (op == BuiltinOp::Add || op == BuiltinOp::Sub || op == BuiltinOp::Mul ||
                           op == BuiltinOp::Div)) {
    const ValueKind ka = xs[0].kind, kb = xs[1].kind;
    kind = result ? interp::kindOf(result) : promote(ka, kb);
    const bool complexResult = !isReal(kind);
    // the cases binaryLoop spells out as interp_scalar does; others element by element
    if (kind != ValueKind::Int && !(complexResult && op == BuiltinOp::Div) &&
        (complexResult || (isReal(ka) && isReal(kb)))) {
      if (rank(kind) == 1)
        binaryLoop<float>(op, xs[0], xs[1], complexResult, out);
      else
        binaryLoop<double>(op, xs[0], xs[1], complexResult, out);
      done = true;
    }
  }
  if (!done) {
    // the interpreter's own operation, element by element
    if (n == 0) throw Unsupported{};
    for (auto& x : xs) x = denseArr(*gather(x), shape, x.kind);
    std::array<Value, 2> vs;
    for (int64_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < args.size(); ++j)
        vs[j] = boxed((*xs[j].data)[static_cast<size_t>(i)], xs[j].kind);
      const Value r = interp::scalarBuiltin(op, std::span<const Value>(vs.data(), args.size()),
                                            result, &cisPi_);
      if (i == 0) kind = r.kind();
      if (r.kind() != kind || r.kind() == ValueKind::Int || r.isTuple() || r.isArray())
        throw Unsupported{};
      out[static_cast<size_t>(i)] = r.isComplex() ? r.asComplex() : Cx(r.asReal(), 0.0);
    }
  }
  BV v;
  v.batch = to;
  v.arr = pool_.share(std::move(out), std::move(shape), kind);
  return v;
}

// fft(x) (fft_operation.h): the exact DFT of each row, rounded once to the elements' precision.
BV Batched::fftRows(int sign, const BV& x) const {
  const Arr& a = x.arr;
  if (x.tuple || a.shape.size() != static_cast<size_t>(x.batch) + 1 || isReal(a.kind))
    throw Unsupported{};
  const int64_t n = a.shape.back();
  const auto values = gather(a);  // (the array itself when dense: no copy)
  if (n == 0 || values->empty()) return x;
  std::vector<Cx> out = exactDftRounded(
      *values, n, sign, a.kind == ValueKind::ComplexFloat ? ScalarKind::Float : ScalarKind::Double,
      use_);
  BV v;
  v.batch = x.batch;
  v.arr = denseArr(std::move(out), a.shape, a.kind);
  return v;
}

BV Batched::map(const AbstractMap& m, BV x, const Type& result) {
  if (const int sign = fftOperationSign(m)) return fftRows(sign, x);
  x = liftAll(std::move(x));
  const BV* first = &x;
  while (first->tuple) {
    if (first->parts.empty()) throw Unsupported{};
    first = &first->parts[0];
  }
  if (first->scalar()) error("map of a scalar");
  const int64_t n = first->arr.shape[static_cast<size_t>(first->batch)];
  if (n == 0) throw Unsupported{};
  auto setBatch = [&](auto&& self, BV& v, int b) -> void {
    if (v.tuple) {
      for (auto& p : v.parts) self(self, p, b);
    } else {
      if (v.arr.shape.at(static_cast<size_t>(depth())) != n)
        error("zip: arrays of different sizes");
      v.batch = b;
    }
  };
  setBatch(setBatch, x, depth() + 1);
  batchSizes_.push_back(n);
  BV r = apply(*m.f(), {std::move(x)}, result ? result.element() : Type());
  r = liftAll(std::move(r));
  batchSizes_.pop_back();
  auto unbatch = [&](auto&& self, BV& v) -> void {
    if (v.tuple) {
      for (auto& p : v.parts) self(self, p);
    } else {
      v.batch = depth();
    }
  };
  unbatch(unbatch, r);
  return r;
}

// reduce(add | sub | mul, a scalar init) of rows of scalars: each row folded in one loop (the
// interpreter's order per row), instead of one pass over all rows per element of a row.
std::optional<BV> Batched::foldAdd(const AbstractReduce& r, const BV& init, const BV& x,
                                   const Type& accType) const {
  const auto* b = r.f()->as<Builtin>();
  const auto d = static_cast<size_t>(depth());
  if (!b || b->arity() != 2 || !accType || init.tuple || init.batch != 0 || !init.scalar() ||
      x.arr.shape.size() != d + 1 || x.arr.shape[d] == 0)
    return std::nullopt;
  const BuiltinOp op = b->op();
  if (op != BuiltinOp::Add && op != BuiltinOp::Sub && op != BuiltinOp::Mul) return std::nullopt;
  const ValueKind kind = interp::kindOf(accType);
  const bool cr = !isReal(kind), ai = !isReal(init.arr.kind), bc = !isReal(x.arr.kind);
  if (kind == ValueKind::Int || (!cr && (ai || bc))) return std::nullopt;
  std::vector<int64_t> shape(batchSizes_.begin(), batchSizes_.end());
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  std::vector<Cx> out = pool_.take(static_cast<size_t>(count));
  const Cx first = (*init.arr.data)[static_cast<size_t>(init.arr.offset)];
  auto run = [&]<class T, BuiltinOp Op>() {
    if (!cr) return foldRows<T, Op, false, false, false>(first, x.arr, d, out);
    if (ai && bc) return foldRows<T, Op, true, true, true>(first, x.arr, d, out);
    if (ai) return foldRows<T, Op, true, false, true>(first, x.arr, d, out);
    if (bc) return foldRows<T, Op, false, true, true>(first, x.arr, d, out);
    foldRows<T, Op, false, false, true>(first, x.arr, d, out);
  };
  auto byOp = [&]<class T>() {
    if (op == BuiltinOp::Add)
      run.template operator()<T, BuiltinOp::Add>();
    else if (op == BuiltinOp::Sub)
      run.template operator()<T, BuiltinOp::Sub>();
    else
      run.template operator()<T, BuiltinOp::Mul>();
  };
  if (rank(kind) == 1)
    byOp.template operator()<float>();
  else
    byOp.template operator()<double>();
  BV v;
  v.batch = depth();
  v.arr = pool_.share(std::move(out), std::move(shape), kind);
  return v;
}

BV Batched::reduce(const AbstractReduce& r, BV x) {
  x = liftAll(std::move(x));
  if (x.tuple || x.scalar()) throw Unsupported{};
  const auto d = static_cast<size_t>(depth());
  const int64_t n = x.arr.shape[d];
  BV acc = eval(r.init());
  const Type accType = r.init()->type();
  if (auto folded = foldAdd(r, acc, x, accType)) return std::move(*folded);
  for (int64_t i = 0; i < n; ++i) {
    BV e = x;
    e.arr.offset += i * x.arr.strides[d];
    e.arr.shape.erase(e.arr.shape.begin() + static_cast<ptrdiff_t>(d));
    e.arr.strides.erase(e.arr.strides.begin() + static_cast<ptrdiff_t>(d));
    acc = apply(*r.f(), {std::move(acc), std::move(e)}, accType);
  }
  return acc;
}

BV Batched::generate(const ArrayGen& g) {
  std::vector<int64_t> n;
  for (const auto& s : g.sizes()) {
    auto c = s.constant();
    if (!c || *c <= 0) throw Unsupported{};
    n.push_back(*c);
  }
  std::pair<const ArrayGen*, std::vector<int64_t>> key{&g, n};
  if (auto it = generated_.find(key); it != generated_.end()) return it->second;
  const size_t k = n.size();
  std::optional<ScalarProgram> program = ScalarProgram::compile(*g.f(), 2 * k);
  if (!program) throw Unsupported{};
  std::optional<ScalarTable> table = evaluateTable(*program, n, cisPi_);
  if (!table) throw Unsupported{};
  std::vector<Cx> out = std::move(table->values);
  const ValueKind kind = table->kind;
  BV v;
  v.arr = denseArr(std::move(out), std::move(n), kind);
  generated_.emplace(std::move(key), v);
  return v;
}

BV Batched::pattern(const FunDecl& f, BV x, const Type& result) {
  if (const auto* m = f.as<AbstractMap>()) return map(*m, std::move(x), result);
  if (const auto* r = f.as<AbstractReduce>()) return reduce(*r, std::move(x));
  if (const auto* t = f.as<AbstractTo>()) return apply(*t->f(), {std::move(x)}, result);
  switch (f.kind()) {
    case FunKind::Split: {
      const auto m = f.as<Split>()->chunk().constant();
      if (!m) throw Unsupported{};
      return eachArray(std::move(x), [&](Arr& a, size_t d) {
        const int64_t len = a.shape[d];
        if (*m <= 0 || len % *m != 0)
          error("split(" + std::to_string(*m) + ") of an array of " + std::to_string(len));
        const int64_t s = a.strides[d];
        a.shape[d] = len / *m;
        a.strides[d] = *m * s;
        a.shape.insert(a.shape.begin() + static_cast<ptrdiff_t>(d) + 1, *m);
        a.strides.insert(a.strides.begin() + static_cast<ptrdiff_t>(d) + 1, s);
      });
    }
    case FunKind::Join:
      return eachArray(std::move(x), [](Arr& a, size_t d) {
        if (a.shape.size() < d + 2) error("join of a flat array");
        if (a.strides[d] != a.shape[d + 1] * a.strides[d + 1] && a.shape[d] > 1) {
          std::vector<int64_t> shape = a.shape;
          a = denseArr(*gather(a), std::move(shape), a.kind);
        }
        a.shape[d] *= a.shape[d + 1];
        a.strides[d] = a.strides[d + 1];
        a.shape.erase(a.shape.begin() + static_cast<ptrdiff_t>(d) + 1);
        a.strides.erase(a.strides.begin() + static_cast<ptrdiff_t>(d) + 1);
      });
    case FunKind::Transpose:
      return eachArray(std::move(x), [](Arr& a, size_t d) {
        if (a.shape.size() < d + 2) throw Unsupported{};
        std::swap(a.shape[d], a.shape[d + 1]);
        std::swap(a.strides[d], a.strides[d + 1]);
      });
    case FunKind::Iterate: {
      const auto* it = f.as<Iterate>();
      for (int64_t i = 0; i < it->count(); ++i) x = apply(*it->f(), {std::move(x)}, Type());
      return x;
    }
    case FunKind::Id:
      return x;
    case FunKind::Get: {
      const size_t i = f.as<Get>()->index();
      if (x.tuple) return std::move(x.parts.at(i));
      if (!x.scalar() || isReal(x.arr.kind)) throw Unsupported{};
      std::vector<Cx> parts = *gather(x.arr);
      for (auto& c : parts) c = Cx(i == 0 ? c.real() : c.imag(), 0.0);
      BV v;
      v.batch = x.batch;
      std::vector<int64_t> shape = x.arr.shape;
      v.arr =
          denseArr(std::move(parts), std::move(shape),
                   x.arr.kind == ValueKind::ComplexFloat ? ValueKind::Float : ValueKind::Double);
      return v;
    }
    default:
      throw Unsupported{};
  }
}

}  // namespace

std::optional<std::vector<std::complex<double>>> evaluateBatched(const ExprPtr& typedExpr,
                                                                ScalarKind use) {
  try {
    Batched b(use);
    BV v = b.eval(typedExpr);
    if (v.tuple || v.batch != 0 || v.arr.shape.empty()) return std::nullopt;
    return *gather(v.arr);
  } catch (const Unsupported&) {
    return std::nullopt;
  }
}

}  // namespace fftc::ir
