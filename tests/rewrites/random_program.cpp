// Random typed high-level programs for the rewrite property tests.
#include "tests/rewrites/random_program.h"

#include <gtest/gtest.h>

#include <cmath>

#include "ir/builders.h"
#include "ir/diagnostic.h"
#include "ir/infer.h"
#include "rewrites/ir_util.h"

namespace fftc::rewrites::testing {

using namespace ir;

RandomProgram ProgramGenerator::generate() {
  scope_.clear();
  inputs_.clear();
  T t = elemType(2);
  int64_t n = size();
  ExprPtr body = gen(chance(0.85) ? Type::array(t, n) : t, depth_);
  return {body, inputs_};
}

ir::Type ProgramGenerator::scalarType() {
  return chance(0.5) ? Type::intType() : Type::floatType();
}

ir::Type ProgramGenerator::elemType(int depth) {
  int r = pick(10);
  if (depth > 0 && r < 3) return Type::array(scalarType(), size());
  if (depth > 0 && r == 3) return Type::tuple({scalarType(), scalarType()});
  return scalarType();
}

int64_t ProgramGenerator::size() {
  static const int64_t sizes[] = {1, 2, 2, 3, 4, 4, 6, 8};
  return sizes[pick(8)];
}

ExprPtr ProgramGenerator::literal(const T& t) {
  if (t.isInt()) return lit(static_cast<int64_t>(pick(7) - 3));
  if (t.isReal()) return litF(static_cast<double>(pick(9) - 4) * 0.5);
  if (t.isTuple()) {
    std::vector<ExprPtr> cs;
    for (const auto& c : t.components()) cs.push_back(literal(c));
    return tuple(cs);
  }
  return nullptr;
}

ExprPtr ProgramGenerator::leaf(const T& t) {
  std::vector<ParamPtr> fit;
  for (const auto& p : scope_)
    if (p->type() == t) fit.push_back(p);
  if (!fit.empty() && (chance(0.8) || !(t.isScalar() || t.isTuple())))
    return fit[static_cast<size_t>(pick(static_cast<int>(fit.size())))];
  if (t.isScalar() || t.isTuple()) {
    // a component of a tuple in scope
    for (const auto& p : scope_)
      if (p->type().isTuple())
        for (size_t i = 0; i < p->type().components().size(); ++i)
          if (p->type().components()[i] == t && chance(0.5)) return get(i, p);
    return literal(t);
  }
  for (const auto& p : inputs_)
    if (p->type() == t && chance(0.5)) return p;
  auto p = param("in" + std::to_string(inputs_.size()), t);
  inputs_.push_back(p);
  return p;
}

FunPtr ProgramGenerator::lam(const T& paramType, const T& resultType, int depth) {
  auto p = param("p" + std::to_string(scope_.size()), paramType);
  scope_.push_back(p);
  ExprPtr body = gen(resultType, depth);
  scope_.pop_back();
  return lambda({p}, body);
}

ExprPtr ProgramGenerator::gen(const T& t, int depth) {
  if (t.isArray()) return genArray(t, depth);
  if (t.isTuple()) return genTuple(t, depth);
  return genScalar(t, depth);
}

ExprPtr ProgramGenerator::genTuple(const T& t, int depth) {
  if (depth <= 0 || chance(0.4)) return leaf(t);
  std::vector<ExprPtr> cs;
  for (const auto& c : t.components()) cs.push_back(gen(c, depth - 1));
  return tuple(cs);
}

ExprPtr ProgramGenerator::genScalar(const T& t, int depth) {
  if (depth <= 0) return leaf(t);
  switch (pick(8)) {
    case 0:
    case 1:
      return leaf(t);
    case 2: {
      ExprPtr a = gen(t, depth - 1), b = gen(t, depth - 1);
      switch (pick(3)) {
        case 0:
          return a + b;
        case 1:
          return a - b;
        default:
          return a * b;
      }
    }
    case 3: {  // reduce(add, 0) over an array
      return reduce(add(), literal(t)) << gen(Type::array(t, size()), depth - 1);
    }
    case 4: {  // reduce with a lambda
      auto f = fun([](ExprPtr acc, ExprPtr x) { return acc + x * x; }, {"acc", "y"});
      return reduce(f, literal(t)) << gen(Type::array(t, size()), depth - 1);
    }
    case 5: {  // reduce o map: reduceMapFusion's shape
      T s = elemType(depth - 1);
      int64_t k = size();
      return reduce(add(), literal(t))
             << map(lam(s, t, depth - 1)) << gen(Type::array(s, k), depth - 1);
    }
    case 6: {  // a dot product: reduce(add) o map(mult) o zip
      int64_t k = size();
      return reduce(add(), literal(t))
             << map(mult())
             << zip(gen(Type::array(t, k), depth - 1), gen(Type::array(t, k), depth - 1));
    }
    default:
      return -gen(t, depth - 1);
  }
}

ExprPtr ProgramGenerator::mapZipShape(const T& t, int depth) {
  // map(fun x => g(map(f)(zip(d(x), y)))) <<: xs   with t = [E]n
  int64_t n = t.size().constant().value();
  const T& e = t.element();
  int64_t m = size();
  T a = scalarType(), b = scalarType();
  T c;
  bool reduceG = e.isScalar() && chance(0.6);
  if (reduceG)
    c = e;
  else if (e.isArray()) {
    m = e.size().constant().value();
    c = e.element();
    if (c.isArray()) return nullptr;
  } else {
    return nullptr;
  }
  ExprPtr y = gen(Type::array(b, m), depth - 1);
  ExprPtr xs = gen(Type::array(Type::array(a, m), n), depth - 1);
  bool swap = chance(0.5);
  T pairT = swap ? Type::tuple({b, a}) : Type::tuple({a, b});
  FunPtr f = lam(pairT, c, depth - 1);
  auto x = param("x", Type::array(a, m));
  scope_.push_back(x);
  ExprPtr dx = x;
  if (chance(0.4)) dx = map(lam(a, a, 1)) << ExprPtr(x);
  scope_.pop_back();
  ExprPtr z = swap ? zip(y, dx) : zip(dx, y);
  ExprPtr inner = map(f) << z;
  ExprPtr body = reduceG ? (reduce(add(), literal(c)) << inner) : inner;
  return map(lambda({x}, body)) << xs;
}

ExprPtr ProgramGenerator::genArray(const T& t, int depth) {
  if (depth <= 0) return leaf(t);
  int64_t n = t.size().constant().value();
  const T& e = t.element();
  for (int attempt = 0; attempt < 8; ++attempt) {
    switch (pick(15)) {
      case 0:
        return leaf(t);
      case 1:
      case 2: {  // map
        T s = elemType(depth - 1);
        return map(lam(s, e, depth - 1)) << gen(Type::array(s, n), depth - 1);
      }
      case 3: {  // map o map (mapFusion)
        T s = elemType(depth - 1), u = elemType(depth - 1);
        FunPtr g = lam(s, u, depth - 1);
        FunPtr f = lam(u, e, depth - 1);
        return map(f) << map(g) << gen(Type::array(s, n), depth - 1);
      }
      case 4: {  // join
        int64_t k = size();
        if (n % k != 0 || k == 1) break;
        return join() << gen(Type::array(Type::array(e, k), n / k), depth - 1);
      }
      case 5: {  // split, or split(k) o join (splitJoinId)
        if (!e.isArray()) break;
        int64_t k = e.size().constant().value();
        if (chance(0.5))
          return split(k) << join() << gen(Type::array(Type::array(e.element(), k), n), depth - 1);
        return split(k) << gen(Type::array(e.element(), n * k), depth - 1);
      }
      case 6: {  // transpose, or transpose o transpose
        if (!e.isArray()) break;
        int64_t m = e.size().constant().value();
        if (chance(0.4)) return transpose() << transpose() << gen(t, depth - 1);
        return transpose() << gen(Type::array(Type::array(e.element(), n), m), depth - 1);
      }
      case 7: {  // join o split(k) (joinSplitId)
        int64_t k = size();
        if (n % k != 0) break;
        return join() << split(k) << gen(t, depth - 1);
      }
      case 8: {  // join o map(map(f)) o split(k) (joinSplit)
        int64_t k = size();
        if (n % k != 0) break;
        T s = elemType(depth - 1);
        FunPtr f = lam(s, e, depth - 1);
        FunPtr inner = fun([&](ExprPtr c) { return map(f) << c; }, {"c"});
        return join() << map(inner) << split(k) << gen(Type::array(s, n), depth - 1);
      }
      case 9: {  // map(map(f)) (mapMapInterchange)
        if (!e.isArray()) break;
        int64_t m = e.size().constant().value();
        T s = scalarType();
        FunPtr f = lam(s, e.element(), depth - 1);
        FunPtr inner = fun([&](ExprPtr r) { return map(f) << r; }, {"r"});
        return map(inner) << gen(Type::array(Type::array(s, m), n), depth - 1);
      }
      case 10: {  // zip
        if (!e.isTuple() || e.components().size() != 2) break;
        return zip(gen(Type::array(e.components()[0], n), depth - 1),
                   gen(Type::array(e.components()[1], n), depth - 1));
      }
      case 11: {  // pad
        int64_t l = pick(2), r = pick(3);
        if (n - l - r < 1) break;
        PadBoundary b = chance(0.5) ? PadBoundary::Wrap : PadBoundary::Clamp;
        return pad(l, r, b) << gen(Type::array(e, n - l - r), depth - 1);
      }
      case 12: {  // a generator
        if (!e.isInt()) break;
        int64_t c = pick(5) - 2, d = pick(5);
        return array(n, fun([&](ExprPtr i, ExprPtr nn) { return i * lit(c) + nn - lit(d); }));
      }
      case 13:
      case 14: {  // the paper's map-zip shape
        if (ExprPtr r = mapZipShape(t, depth)) return r;
        break;
      }
    }
  }
  return leaf(t);
}

Value randomValue(const Type& t, std::mt19937_64& rng) {
  if (t.isArray()) {
    std::vector<Value> es;
    int64_t n = t.size().constant().value();
    for (int64_t i = 0; i < n; ++i) es.push_back(randomValue(t.element(), rng));
    return Value::array(std::move(es));
  }
  if (t.isTuple()) {
    std::vector<Value> cs;
    for (const auto& c : t.components()) cs.push_back(randomValue(c, rng));
    return Value::tuple(std::move(cs));
  }
  if (t.isInt()) return Value::ofInt(std::uniform_int_distribution<int64_t>(-9, 9)(rng));
  std::uniform_real_distribution<double> u(-2.0, 2.0);
  if (t.isComplex()) return Value::ofComplex({u(rng), u(rng)}, t.scalarKind());
  return Value::ofReal(u(rng), t.scalarKind());
}

namespace {
bool close(double a, double b, double tol) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return std::fabs(a - b) <= tol * (1.0 + std::max(std::fabs(a), std::fabs(b)));
}
}  // namespace

bool valuesClose(const Value& a, const Value& b, double tol, std::string* why) {
  auto bad = [&](const std::string& w) {
    if (why) *why = w + ": " + a.str() + " vs " + b.str();
    return false;
  };
  if (a.kind() != b.kind()) return bad("different kinds");
  switch (a.kind()) {
    case ValueKind::Int:
      return a.asInt() == b.asInt() ? true : bad("ints differ");
    case ValueKind::Float:
    case ValueKind::Double:
      return close(a.asReal(), b.asReal(), tol) ? true : bad("reals differ");
    case ValueKind::ComplexFloat:
    case ValueKind::ComplexDouble:
      return close(a.asComplex().real(), b.asComplex().real(), tol) &&
                     close(a.asComplex().imag(), b.asComplex().imag(), tol)
                 ? true
                 : bad("complex values differ");
    case ValueKind::Tuple:
    case ValueKind::Array: {
      if (a.size() != b.size()) return bad("sizes differ");
      for (size_t i = 0; i < a.size(); ++i)
        if (!valuesClose(a[i], b[i], tol, why)) return false;
      return true;
    }
  }
  return false;
}

int applyEverywhere(const Rule& rule, uint64_t seed, size_t programs) {
  int changed = 0;
  for (size_t i = 0; i < programs; ++i) {
    ProgramGenerator gen(i * 131 + seed, 3);
    auto prog = gen.generate();
    ir::ExprPtr typed;
    try {
      typed = ir::inferTypes(prog.body);
    } catch (const ir::CompileError&) {
      continue;
    }
    for (const Path& at : allPaths(typed)) {
      Applied a = applyAt(rule, typed, at);
      if (!a.changed) {
        EXPECT_EQ(a.program, typed) << rule.name() << ": no match must return the same pointer";
      } else {
        EXPECT_NE(a.program, typed) << rule.name();
        ++changed;
      }
    }
  }
  return changed;
}

}  // namespace fftc::rewrites::testing
