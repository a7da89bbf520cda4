// The reference interpreter (see interpreter.h for the semantics it fixes).
#include "ir/interpreter.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <optional>
#include <span>

#include "ir/fft_operation.h"
#include "ir/interp_scalar.h"
#include "ir/scalar_program.h"

namespace fftc::ir {

namespace {

// e^{iπ(quadrant/2 + f/2)} for 0 <= f <= 1, f = num/den: the angle (π/2)·g with g = min(f, 1 - f)
// <= 1/2 is the only inexact step (g in long double, 64 bits), then a swap for the complement and
// a quarter turn per quadrant, both exact. So values at complementary or opposite angles are
// exactly symmetric, and multiples of 1/4 of a turn are exact.
CisPiRounded quarterTurns(int64_t quadrant, long double num, long double den) {
  const bool complement = 2 * num > den;
  const long double g = (complement ? den - num : num) / den;
  const long double halfPi = 1.570796326794896619231321691639751442L;
  long double c = 1, s = 0;
  if (2 * g == 1) {
    c = s = 0.707106781186547524400844362104849039L;  // √½, rounded once
  } else if (g != 0) {
    c = std::cos(halfPi * g);
    s = std::sin(halfPi * g);
  }
  if (complement) std::swap(c, s);
  long double re = c, im = s;
  switch (quadrant & 3) {
    case 1: re = -s, im = c; break;
    case 2: re = -c, im = -s; break;
    case 3: re = s, im = -c; break;
    default: break;
  }
  // + 0 turns -0 into 0: cispi(1) is exactly (-1, 0) as the literal -1 would be
  return {{static_cast<double>(re) + 0.0, static_cast<double>(im) + 0.0},
          {static_cast<float>(re) + 0.0f, static_cast<float>(im) + 0.0f}};
}

}  // namespace

std::complex<double> CisPiRounded::in(ScalarKind kind) const {
  return kind == ScalarKind::Float ? std::complex<double>(f) : d;
}

// 2|x| mod 4 = quadrant + f with f in [0, 1): the remainder, the scaling by 2 and the
// subtraction of the quadrant are exact in binary floating point; cispi(-x) = conj(cispi(x)).
CisPiRounded cisPiRounded(double x) {
  const long double y = 2 * std::fmod(std::fabs(static_cast<long double>(x)), 2.0L);  // [0, 4)
  const long double q = std::floor(y);
  CisPiRounded v = quarterTurns(static_cast<int64_t>(q), y - q, 1.0L);
  if (x < 0) {
    v.d = {v.d.real(), -v.d.imag() + 0.0};
    v.f = {v.f.real(), -v.f.imag() + 0.0f};
  }
  return v;
}

std::complex<double> cisPi(double x) { return cisPiRounded(x).d; }

CisPiRounded cisPiQuarter(int64_t num, int64_t den) {
  return quarterTurns(0, static_cast<long double>(num), static_cast<long double>(den));
}

// p/q = (2p mod 4q) / 2q: quadrant = ⌊(2p mod 4q) / q⌋, f = the remainder / q, all in integers
// (__int128: 4q and 2p fit whatever the 64-bit p and q).
CisPiRounded cisPiRatio(int64_t p, int64_t q) {
  __extension__ typedef __int128 Wide;  // GCC and Clang; -Wpedantic: not ISO C++
  Wide num = p, den = q;
  if (den < 0) num = -num, den = -den;
  Wide r = (2 * num) % (4 * den);
  if (r < 0) r += 4 * den;
  const auto quadrant = static_cast<int64_t>(r / den);
  return quarterTurns(quadrant, static_cast<long double>(r - quadrant * den),
                      static_cast<long double>(den));
}

namespace {

using interp::error;
using interp::floorDiv;
using interp::floorMod;
using interp::padSource;
using interp::kindOf;
using interp::realOf;

// ---- the evaluator

class Interp {
 public:
  explicit Interp(const InterpreterOptions& o) : opt_(o), sizes_(o.sizes) {}

  Value eval(const ExprPtr& e);
  // result: the type of the application (null when unknown)
  Value apply(const FunDecl& f, std::vector<Value> args, const Type& result);
  void bind(const Param* p, Value v) { env_.emplace_back(p, std::move(v)); }
  void bindSizes(const Type& t, const Value& v, const std::string& what);

 private:
  int64_t size(const ArithExpr& e) const;
  Value builtin(const Builtin& b, std::span<const Value> args, const Type& result);
  Value callLambda(const Lambda& l, const FunCall& c);
  // apply without an argument vector for lambdas and builtins (the hot loops of map and reduce)
  Value applyArgs(const FunDecl& f, std::span<const Value> args, const Type& result);
  Value mapZip(const AbstractMap& m, const FunCall& zip, const Type& result);
  Value pattern(const FunDecl& f, const Value& x, const Type& result);
  Value generate(const ArrayGen& g, const Type& result);
  static Value table(const Table& t);

  const InterpreterOptions& opt_;
  std::unordered_map<uint64_t, int64_t> sizes_;
  std::vector<std::pair<const Param*, Value>> env_;
  interp::CisPiMemo cisPi_;
  std::map<std::pair<const ArrayGen*, std::vector<int64_t>>, Value> generated_;  // generate()
};

int64_t Interp::size(const ArithExpr& e) const {
  if (auto c = e.constant()) return *c;
  try {
    return e.evaluate(sizes_);
  } catch (const ArithError& err) {
    error("cannot evaluate size " + e.str() + ": " + err.what() +
          " (bind size variables in InterpreterOptions::sizes)");
  }
}

void Interp::bindSizes(const Type& t, const Value& v, const std::string& what) {
  if (t.isArray()) {
    if (!v.isArray()) error(what + ": expected " + t.str() + ", got " + v.str());
    const ArithExpr& n = t.size();
    if (n.isVar() && !sizes_.count(n.varId()))
      sizes_[n.varId()] = static_cast<int64_t>(v.size());
    if (size(n) != static_cast<int64_t>(v.size()))
      error(what + ": expected " + t.str() + " (" + n.str() + " = " + std::to_string(size(n)) +
            "), got an array of " + std::to_string(v.size()));
    for (const auto& e : v.elems()) bindSizes(t.element(), e, what);
    return;
  }
  if (t.isTuple()) {
    if (!v.isTuple() || v.size() != t.components().size())
      error(what + ": expected " + t.str() + ", got " + v.str());
    for (size_t i = 0; i < v.size(); ++i) bindSizes(t.components()[i], v[i], what);
    return;
  }
  bool ok = t.isComplex() ? v.isComplex()
            : t.isInt()   ? v.kind() == ValueKind::Int
                          : v.kind() == kindOf(t);
  if (!ok) error(what + ": expected " + t.str() + ", got " + v.str());
}

Value Interp::eval(const ExprPtr& e) {
  switch (e->kind()) {
    case ExprKind::Param: {
      const auto* p = e->as<Param>();
      for (size_t i = env_.size(); i-- > 0;)
        if (env_[i].first == p) return env_[i].second;
      error("unbound parameter " + p->name());
    }
    case ExprKind::Literal: {
      const auto* l = e->as<Literal>();
      switch (l->litKind()) {
        case LiteralKind::Int: return Value::ofInt(size(l->intValue()));
        case LiteralKind::Real: return Value::ofReal(l->realValue(), l->precision());
        case LiteralKind::Complex: return Value::ofComplex({l->re(), l->im()}, l->precision());
      }
      break;
    }
    case ExprKind::FunCall: {
      const auto* c = e->as<FunCall>();
      if (!e->type()) error("the program is not typed (run inferTypes first)");
      // fast paths without a heap-allocated argument vector (the interpreter's hot loop)
      if (const auto* b = c->f()->as<Builtin>();
          b && b->op() != BuiltinOp::MakeTuple && c->args().size() == b->arity()) {
        std::array<Value, 2> buf;
        for (size_t i = 0; i < c->args().size(); ++i) buf[i] = eval(c->arg(i));
        return builtin(*b, std::span<const Value>(buf.data(), c->args().size()), e->type());
      }
      if (const auto* l = c->f()->as<Lambda>(); l && l->arity() == c->args().size())
        return callLambda(*l, *c);
      if (const auto* m = c->f()->as<AbstractMap>(); m && c->args().size() == 1)
        if (const auto* z = c->arg(0)->as<FunCall>();
            z && z->f()->is<Zip>() && z->args().size() == z->f()->arity() && z->args().size() > 1)
          return mapZip(*m, *z, e->type());
      std::vector<Value> args;
      args.reserve(c->args().size());
      for (const auto& a : c->args()) args.push_back(eval(a));
      return apply(*c->f(), std::move(args), e->type());
    }
  }
  error("unknown expression");
}

// Arguments are evaluated in the caller's scope: they are pushed unnamed (null key, invisible to
// lookups) and named once all are evaluated.
Value Interp::callLambda(const Lambda& l, const FunCall& c) {
  size_t mark = env_.size();
  for (const auto& a : c.args()) {
    Value v = eval(a);
    env_.emplace_back(nullptr, std::move(v));
  }
  for (size_t i = 0; i < l.arity(); ++i) env_[mark + i].first = l.params()[i].get();
  Value v = eval(l.body());
  env_.resize(mark);
  return v;
}

Value Interp::applyArgs(const FunDecl& f, std::span<const Value> args, const Type& result) {
  const size_t k = f.arity();
  if (k > 1 && args.size() == 1 && args[0].isTuple() && args[0].size() == k)
    args = std::span<const Value>(args[0].elems());
  if (args.size() == k) {
    if (const auto* l = f.as<Lambda>()) {
      const size_t mark = env_.size();
      for (size_t i = 0; i < k; ++i) env_.emplace_back(l->params()[i].get(), args[i]);
      Value v = eval(l->body());
      env_.resize(mark);
      return v;
    }
    if (const auto* b = f.as<Builtin>()) return builtin(*b, args, result);
  }
  return apply(f, std::vector<Value>(args.begin(), args.end()), result);
}

// map(f) <<: zip(a, b, ...) without the tuples: f of k parameters takes the k elements (what
// apply does with the tuple it would get), any other f the tuple.
Value Interp::mapZip(const AbstractMap& m, const FunCall& zip, const Type& result) {
  std::vector<Value> xs;
  xs.reserve(zip.args().size());
  for (const auto& a : zip.args()) xs.push_back(eval(a));
  const size_t n = xs[0].size();
  for (const auto& a : xs)
    if (!a.isArray() || a.size() != n) error("zip: arrays of different sizes");
  const Type elem = result ? result.element() : Type();
  const FunDecl& f = *m.f();
  const bool spread = f.arity() == xs.size() && (f.is<Lambda>() || f.is<Builtin>());
  std::vector<Value> out;
  out.reserve(n);
  std::vector<Value> parts(xs.size());
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < xs.size(); ++j) parts[j] = xs[j][i];
    if (spread) {
      out.push_back(applyArgs(f, parts, elem));
    } else {
      const Value t = Value::tuple(parts);
      out.push_back(applyArgs(f, std::span<const Value>(&t, 1), elem));
    }
  }
  return Value::array(std::move(out));
}

Value Interp::apply(const FunDecl& f, std::vector<Value> args, const Type& result) {
  size_t k = f.arity();
  if (k > 1 && args.size() == 1 && args[0].isTuple() && args[0].size() == k)
    args = std::vector<Value>(args[0].elems());
  if (args.size() != k)
    error(f.name() + ": expects " + std::to_string(k) + " arguments, got " +
          std::to_string(args.size()));
  switch (f.kind()) {
    case FunKind::Lambda: {
      const auto* l = f.as<Lambda>();
      size_t mark = env_.size();
      for (size_t i = 0; i < k; ++i) env_.emplace_back(l->params()[i].get(), std::move(args[i]));
      Value v = eval(l->body());
      env_.resize(mark);
      return v;
    }
    case FunKind::Builtin: return builtin(*f.as<Builtin>(), args, result);
    case FunKind::UserFun: {
      const auto* u = f.as<UserFun>();
      auto it = opt_.userFuns.find(u->name());
      if (it == opt_.userFuns.end())
        error("userfun " + u->name() +
              " has no C++ implementation (register one in InterpreterOptions::userFuns)");
      Value v = it->second(args);
      bindSizes(u->returnType(), v, "userfun " + u->name() + " result");
      return v;
    }
    case FunKind::ArrayGen: return generate(*f.as<ArrayGen>(), result);
    case FunKind::Table: return table(*f.as<Table>());
    case FunKind::Zip: {
      size_t n = args[0].size();
      for (const auto& a : args)
        if (!a.isArray() || a.size() != n) error("zip: arrays of different sizes");
      std::vector<Value> out;
      out.reserve(n);
      for (size_t i = 0; i < n; ++i) {
        std::vector<Value> t;
        for (const auto& a : args) t.push_back(a[i]);
        out.push_back(Value::tuple(std::move(t)));
      }
      return Value::array(std::move(out));
    }
    default: return pattern(f, args[0], result);
  }
}

Value Interp::builtin(const Builtin& b, std::span<const Value> args, const Type& result) {
  if (b.op() == BuiltinOp::MakeTuple) return Value::tuple(std::vector<Value>(args.begin(), args.end()));
  return interp::scalarBuiltin(b.op(), args, result, &cisPi_);
}

Value Interp::table(const Table& t) {
  size_t next = 0;
  auto rec = [&](auto&& self, const Type& type) -> Value {
    if (!type.isArray()) {
      const std::complex<double> v = t.values().at(next++);
      return type.isComplex() ? Value::ofComplex(v, type.scalarKind())
                              : Value::ofReal(v.real(), type.scalarKind());
    }
    std::vector<Value> out;
    const int64_t n = *type.size().constant();
    out.reserve(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) out.push_back(self(self, type.element()));
    return Value::array(std::move(out));
  };
  return rec(rec, t.type());
}

Value Interp::generate(const ArrayGen& g, const Type& result) {
  const size_t k = g.sizes().size();
  std::vector<int64_t> n;
  for (const auto& s : g.sizes()) n.push_back(size(s));
  Type elem = result ? result : Type();
  for (size_t d = 0; d < k && elem; ++d) elem = elem.element();
  std::vector<int64_t> idx(k, 0);
  // The element function compiled once when it is a scalar formula (a twiddle, a chirp): a
  // table then costs its arithmetic, not a walk of the expression tree per element.
  std::optional<ScalarProgram> program = ScalarProgram::compile(*g.f(), 2 * k);
  // Such a generator reads nothing but its indices (the program binds every parameter it
  // reads), so its value depends on its sizes only: a table that a map re-reads for each
  // block (RepOfB in kronIdR(n/L, multB(r, L, s)): n/L times) is computed once.
  std::pair<const ArrayGen*, std::vector<int64_t>> key{&g, n};
  if (program) {
    auto it = generated_.find(key);
    if (it != generated_.end()) return it->second;
  }
  std::optional<ScalarEvaluator> fast;
  if (program) fast.emplace(*program, cisPi_);
  std::vector<int64_t> at(idx.size() + n.size());
  std::copy(n.begin(), n.end(), at.begin() + static_cast<ptrdiff_t>(k));
  // Recursive over dimensions, outermost first.
  auto rec = [&](auto&& self, size_t d) -> Value {
    std::vector<Value> out;
    out.reserve(static_cast<size_t>(std::max<int64_t>(n[d], 0)));
    for (int64_t i = 0; i < n[d]; ++i) {
      idx[d] = i;
      if (d + 1 < k) {
        out.push_back(self(self, d + 1));
      } else if (fast) {
        std::copy(idx.begin(), idx.end(), at.begin());
        out.push_back(fast->run(at));
      } else {
        std::vector<Value> args;
        for (auto v : idx) args.push_back(Value::ofInt(v));
        for (auto v : n) args.push_back(Value::ofInt(v));
        out.push_back(apply(*g.f(), std::move(args), elem));
      }
    }
    return Value::array(std::move(out));
  };
  Value v = rec(rec, 0);
  if (program) generated_.emplace(std::move(key), v);
  return v;
}

// fft(x) (fft_operation.h): the exact DFT, rounded once to the elements' precision.
Value fftOperationValue(int sign, const Value& x, ScalarKind use) {
  if (!x.isArray()) error("fft of a scalar");
  std::vector<std::complex<double>> in;
  in.reserve(x.size());
  ScalarKind precision = ScalarKind::Double;
  for (const auto& e : x.elems()) {
    if (e.kind() != ValueKind::ComplexFloat && e.kind() != ValueKind::ComplexDouble)
      error("fft of an array that is not of complex numbers");
    if (e.kind() == ValueKind::ComplexFloat) precision = ScalarKind::Float;
    in.push_back(e.asComplex());
  }
  if (in.empty()) return x;
  std::vector<Value> out;
  out.reserve(in.size());
  for (const auto& c : exactDftRounded(in, static_cast<int64_t>(in.size()), sign, precision, use))
    out.push_back(Value::ofComplex(c, precision));
  return Value::array(std::move(out));
}

Value Interp::pattern(const FunDecl& f, const Value& x, const Type& result) {
  if (const int sign = fftOperationSign(f)) return fftOperationValue(sign, x, opt_.use);
  if (const auto* m = f.as<AbstractMap>()) {
    Type elem = result ? result.element() : Type();
    std::vector<Value> out;
    out.reserve(x.size());
    for (const auto& e : x.elems()) out.push_back(applyArgs(*m->f(), std::span<const Value>(&e, 1), elem));
    return Value::array(std::move(out));
  }
  if (const auto* r = f.as<AbstractReduce>()) {
    Value acc = eval(r->init());
    Type accType = r->init()->type();
    for (const auto& e : x.elems()) {
      const std::array<Value, 2> step{std::move(acc), e};
      acc = applyArgs(*r->f(), step, accType);
    }
    return acc;
  }
  if (const auto* t = f.as<AbstractTo>()) return apply(*t->f(), {x}, result);
  switch (f.kind()) {
    case FunKind::Split: {
      int64_t m = size(f.as<Split>()->chunk());
      const auto& xs = x.elems();
      if (m <= 0 || xs.size() % static_cast<size_t>(m) != 0)
        error("split(" + std::to_string(m) + ") of an array of " + std::to_string(xs.size()));
      std::vector<Value> out;
      for (size_t i = 0; i < xs.size(); i += static_cast<size_t>(m))
        out.push_back(Value::array(std::vector<Value>(
            xs.begin() + static_cast<ptrdiff_t>(i), xs.begin() + static_cast<ptrdiff_t>(i) + m)));
      return Value::array(std::move(out));
    }
    case FunKind::Join: {
      std::vector<Value> out;
      for (const auto& row : x.elems())
        out.insert(out.end(), row.elems().begin(), row.elems().end());
      return Value::array(std::move(out));
    }
    case FunKind::Transpose: {
      size_t n = x.size(), m = n ? x[0].size() : 0;
      if (n == 0 && result) m = static_cast<size_t>(size(result.size()));
      std::vector<Value> out;
      out.reserve(m);
      for (size_t j = 0; j < m; ++j) {
        std::vector<Value> col;
        col.reserve(n);
        for (size_t i = 0; i < n; ++i) col.push_back(x[i].elems().at(j));
        out.push_back(Value::array(std::move(col)));
      }
      return Value::array(std::move(out));
    }
    case FunKind::Pad: {
      const auto* p = f.as<Pad>();
      int64_t l = size(p->left()), r = size(p->right());
      int64_t n = static_cast<int64_t>(x.size());
      Value constant = p->value() ? eval(p->value()) : Value();
      if (!p->value() && n == 0) error("pad of an empty array");
      std::vector<Value> out;
      out.reserve(static_cast<size_t>(l + n + r));
      for (int64_t j = 0; j < l + n + r; ++j) {
        int64_t i = j - l;
        if (i < 0 || i >= n) {
          if (p->boundary() == PadBoundary::Constant) {
            out.push_back(constant);
            continue;
          }
          i = padSource(p->boundary(), i, n);
        }
        out.push_back(x[static_cast<size_t>(i)]);
      }
      return Value::array(std::move(out));
    }
    case FunKind::Crop: {
      const auto* c = f.as<Crop>();
      int64_t l = size(c->left()), r = size(c->right());
      int64_t n = static_cast<int64_t>(x.size());
      if (l + r > n) error("crop of more elements than the array has");
      const auto& xs = x.elems();
      return Value::array(std::vector<Value>(xs.begin() + l, xs.begin() + (n - r)));
    }
    case FunKind::Gather: {
      const auto& xs = x.elems();
      std::vector<Value> out;
      out.reserve(f.as<Gather>()->indices().size());
      for (int64_t j : f.as<Gather>()->indices()) {
        if (j >= static_cast<int64_t>(xs.size())) error("gather of an index beyond the array");
        out.push_back(xs[static_cast<size_t>(j)]);
      }
      return Value::array(std::move(out));
    }
    case FunKind::Slide: {
      const auto* s = f.as<Slide>();
      int64_t sz = size(s->size()), st = size(s->step());
      int64_t n = static_cast<int64_t>(x.size());
      int64_t windows = floorDiv(n - sz + st, st);
      std::vector<Value> out;
      for (int64_t w = 0; w < windows; ++w) {
        auto b = x.elems().begin() + w * st;
        out.push_back(Value::array(std::vector<Value>(b, b + sz)));
      }
      return Value::array(std::move(out));
    }
    case FunKind::Iterate: {
      const auto* it = f.as<Iterate>();
      Value v = x;
      // Intermediate types may differ in sizes only; scalar kinds (all the evaluation needs)
      // are those of the final result.
      for (int64_t i = 0; i < it->count(); ++i) v = apply(*it->f(), {v}, Type());
      return v;
    }
    case FunKind::Id: return x;
    case FunKind::Get: {
      size_t i = f.as<Get>()->index();
      if (x.isComplex()) {
        double c = i == 0 ? x.asComplex().real() : x.asComplex().imag();
        return realOf(c, x.kind() == ValueKind::ComplexFloat ? ValueKind::Float : ValueKind::Double);
      }
      return x.elems().at(i);
    }
    default: break;
  }
  error("cannot interpret " + f.name());
}

}  // namespace

Value interpret(const ExprPtr& typedExpr, const std::unordered_map<const Param*, Value>& env,
                const InterpreterOptions& options) {
  Interp in(options);
  for (const auto& [p, v] : env) {
    if (p->type()) in.bindSizes(p->type(), v, "parameter " + p->name());
    in.bind(p, v);
  }
  return in.eval(typedExpr);
}

Value interpretCall(const FunPtr& typedFun, const std::vector<Value>& args,
                    const InterpreterOptions& options) {
  Interp in(options);
  if (const auto* l = typedFun->as<Lambda>(); l && l->arity() == args.size()) {
    for (size_t i = 0; i < args.size(); ++i) {
      const auto& p = l->params()[i];
      if (p->type()) in.bindSizes(p->type(), args[i], "parameter " + p->name());
    }
  }
  return in.apply(*typedFun, args, Type());
}

}  // namespace fftc::ir
