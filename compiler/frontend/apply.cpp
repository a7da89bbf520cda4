// Application of compile-time functions (closures, defs, built-in patterns, compositions,
// userfuns) and their conversion into IR functions and expressions.
#include <fmt/format.h>

#include <numbers>

#include "compiler/frontend/elaborator.h"
#include "ir/fft_operation.h"
#include "ir/beta_reduce.h"

namespace fftc::compiler::frontend {

namespace {

struct BuiltinInfo {
  const char* name;
  BuiltinId id;
  int statics;  // compile-time parameters before the data arguments (-1: see staticCount)
  int data;     // data arguments (-1: variadic)
};

// clang-format off
const BuiltinInfo kBuiltins[] = {
    {"map", BuiltinId::Map, 1, 1},                {"mapSeq", BuiltinId::MapSeq, 1, 1},
    {"mapSeqUnroll", BuiltinId::MapSeqUnroll, 1, 1},
    {"mapGlobal", BuiltinId::MapGlobal, -1, 1},   {"mapWorkgroup", BuiltinId::MapWorkgroup, -1, 1},
    {"mapLocal", BuiltinId::MapLocal, -1, 1},     {"mapCluster", BuiltinId::MapCluster, 2, 1},
    {"mapBlock", BuiltinId::MapBlock, 1, 1},
    {"reduce", BuiltinId::Reduce, 2, 1},          {"reduceSeq", BuiltinId::ReduceSeq, 2, 1},
    {"reduceSeqUnroll", BuiltinId::ReduceSeqUnroll, 2, 1},
    {"reduceSeqPrefetch", BuiltinId::ReduceSeqPrefetch, 2, 1},
    {"zip", BuiltinId::Zip, 0, -1},               {"split", BuiltinId::Split, 1, 1},
    {"join", BuiltinId::Join, 0, 1},              {"transpose", BuiltinId::Transpose, 0, 1},
    {"asVector", BuiltinId::AsVector, 1, 1},      {"asScalar", BuiltinId::AsScalar, 0, 1},
    {"array", BuiltinId::Array, 2, 0},            {"array2", BuiltinId::Array2, 3, 0},
    {"array3", BuiltinId::Array3, 4, 0},          {"pad", BuiltinId::Pad, 3, 1},
    {"slide", BuiltinId::Slide, 2, 1},            {"crop", BuiltinId::Crop, 2, 1},
               {"iterate", BuiltinId::Iterate, 2, 1},
    {"id", BuiltinId::Id, 0, 1},                  {"get", BuiltinId::Get, 1, 1},
    {"toGlobal", BuiltinId::ToGlobal, 1, -1},     {"toLocal", BuiltinId::ToLocal, 1, -1},
    {"toPrivate", BuiltinId::ToPrivate, 1, -1},
    {"add", BuiltinId::Add, 0, 2},                {"sub", BuiltinId::Sub, 0, 2},
    {"mult", BuiltinId::Mult, 0, 2},              {"div", BuiltinId::Div, 0, 2},
    {"mod", BuiltinId::Mod, 0, 2},                {"neg", BuiltinId::Neg, 0, 1},
    {"cos", BuiltinId::Cos, 0, 1},                {"sin", BuiltinId::Sin, 0, 1},
    {"exp", BuiltinId::Exp, 0, 1},                {"sqrt", BuiltinId::Sqrt, 0, 1},
    {"conj", BuiltinId::Conj, 0, 1},              {"re", BuiltinId::Re, 0, 1},
    {"im", BuiltinId::Im, 0, 1},                  {"cispi", BuiltinId::CisPi, 0, 1},
    {"cispiRatio", BuiltinId::CisPiRatio, 0, 2},  {"complex", BuiltinId::Complex, 0, 2},
    {"len", BuiltinId::Len, 1, 0},                {"prod", BuiltinId::Prod, -1, 0},
    {"factors", BuiltinId::Factors, 1, 0},         {"gather", BuiltinId::Gather, 1, 1},
    {"primitiveRoot", BuiltinId::PrimitiveRoot, 1, 0},
    {"powMods", BuiltinId::PowMods, 3, 0},        {"discreteLogs", BuiltinId::DiscreteLogs, 2, 0},
};
// clang-format on

const BuiltinInfo& info(BuiltinId id) {
  for (const auto& b : kBuiltins) {
    if (b.id == id) return b;
  }
  return kBuiltins[0];
}

bool isScalarOp(BuiltinId id) { return id >= BuiltinId::Add && id <= BuiltinId::Complex; }

ir::BuiltinOp scalarOp(BuiltinId id) {
  switch (id) {
    case BuiltinId::Add: return ir::BuiltinOp::Add;
    case BuiltinId::Sub: return ir::BuiltinOp::Sub;
    case BuiltinId::Mult: return ir::BuiltinOp::Mul;
    case BuiltinId::Div: return ir::BuiltinOp::Div;
    case BuiltinId::Mod: return ir::BuiltinOp::Mod;
    case BuiltinId::Neg: return ir::BuiltinOp::Neg;
    case BuiltinId::Cos: return ir::BuiltinOp::Cos;
    case BuiltinId::Sin: return ir::BuiltinOp::Sin;
    case BuiltinId::Exp: return ir::BuiltinOp::Exp;
    case BuiltinId::Sqrt: return ir::BuiltinOp::Sqrt;
    case BuiltinId::Conj: return ir::BuiltinOp::Conj;
    case BuiltinId::Re: return ir::BuiltinOp::Re;
    case BuiltinId::Im: return ir::BuiltinOp::Im;
    case BuiltinId::CisPi: return ir::BuiltinOp::CisPi;
    case BuiltinId::CisPiRatio: return ir::BuiltinOp::CisPiRatio;
    default: return ir::BuiltinOp::MakeComplex;
  }
}

// primitiveRoot, powMods, discreteLogs: compile-time number theory for Rader's algorithm
bool isModularList(BuiltinId id) {
  return id == BuiltinId::PrimitiveRoot || id == BuiltinId::PowMods ||
         id == BuiltinId::DiscreteLogs;
}

// a·b mod m for 0 <= a, b < m <= 2^31 (the callers' bound): the product fits 62 bits
int64_t mulMod(int64_t a, int64_t b, int64_t m) { return a * b % m; }

bool isPrime(int64_t n) {
  if (n < 2) return false;
  for (int64_t d = 2; d * d <= n; ++d)
    if (n % d == 0) return false;
  return true;
}

// The smallest g whose powers g^0 .. g^{p-2} mod p are all of 1 .. p-1 (p prime): g^{(p-1)/q}
// != 1 for every prime factor q of p - 1.
int64_t smallestPrimitiveRoot(int64_t p) {
  if (p == 2) return 1;
  std::vector<int64_t> qs;
  int64_t n = p - 1;
  for (int64_t q = 2; q * q <= n; ++q)
    if (n % q == 0) {
      qs.push_back(q);
      while (n % q == 0) n /= q;
    }
  if (n > 1) qs.push_back(n);
  auto powMod = [p](int64_t b, int64_t e) {
    int64_t r = 1;
    for (b %= p; e > 0; e >>= 1, b = mulMod(b, b, p))
      if (e & 1) r = mulMod(r, b, p);
    return r;
  };
  for (int64_t g = 2;; ++g) {
    bool root = true;
    for (int64_t q : qs) root = root && powMod(g, (p - 1) / q) != 1;
    if (root) return g;
  }
}

std::string ordinal(size_t i) {
  static const char* names[] = {"1st", "2nd", "3rd", "4th", "5th", "6th"};
  return i < 6 ? names[i] : std::to_string(i + 1) + "th";
}

}  // namespace

std::string Elaborator::builtinName(BuiltinId id) { return info(id).name; }

const std::vector<std::string>& Elaborator::builtinNames() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& b : kBuiltins) n.emplace_back(b.name);
    for (const char* extra : {"wrap", "clamp", "mirror", "pi", "fft", "ifft"}) n.emplace_back(extra);
    return n;
  }();
  return names;
}

FunRef Elaborator::makeBuiltin(BuiltinId id, const Loc& loc, std::vector<Value> args) {
  auto f = std::make_shared<FunValue>();
  f->kind = FunKind::Builtin;
  f->builtin = id;
  f->loc = loc;
  f->args = std::move(args);
  return f;
}

bool Elaborator::lookupBuiltin(const std::string& name, Value& out, const Loc& loc,
                               ir::ScalarKind precision) {
  for (const auto& b : kBuiltins) {
    if (name == b.name) {
      out = Value::ofFun(makeBuiltin(b.id, loc));
      return true;
    }
  }
  if (name == "wrap") out = Value::ofBoundary(ir::PadBoundary::Wrap);
  else if (name == "clamp") out = Value::ofBoundary(ir::PadBoundary::Clamp);
  else if (name == "mirror") out = Value::ofBoundary(ir::PadBoundary::Mirror);
  // fft and ifft: the transform as a function of the program's precision (ir/fft_operation.h)
  else if (name == "fft" || name == "ifft") {
    auto f = std::make_shared<FunValue>();
    f->kind = FunKind::IR;
    f->loc = loc;
    f->ir = ir::fftOperation(name == "fft" ? -1 : 1, precision, loc);
    out = Value::ofFun(std::move(f));
  }
  else if (name == "pi") out = Value::ofExpr(ir::Literal::makeReal(std::numbers::pi, precision, loc), ScalarHint::Real);
  else return false;
  return true;
}

// ---- conversions ----

ir::ExprPtr Elaborator::toExpr(const Value& v, const Loc& loc, const std::string& what) {
  switch (v.kind) {
    case ValueKind::Expr: return v.expr;
    case ValueKind::Int: return ir::Literal::makeInt(v.i, loc);
    default:
      fail(loc, fmt::format("{} must be a runtime value, but it is {}", what, describe(v)));
  }
}

ir::ArithExpr Elaborator::toInt(const Value& v, const Loc& loc, const std::string& what) {
  if (v.kind == ValueKind::Int) return v.i;
  if (v.kind == ValueKind::Expr) {
    if (const auto* lit = v.expr->as<ir::Literal>(); lit && lit->litKind() == ir::LiteralKind::Int) {
      return lit->intValue();
    }
    fail(loc, fmt::format("{} must be a compile-time integer, but it is a runtime value", what));
  }
  fail(loc, fmt::format("{} must be a compile-time integer, but it is {}", what, describe(v)));
}

int64_t Elaborator::toConstInt(const Value& v, const Loc& loc, const std::string& what) {
  ir::ArithExpr a = toInt(v, loc, what);
  auto c = a.constant();
  if (!c) fail(loc, fmt::format("{} must be a constant, but it is the symbolic size {}", what, a.str()));
  return *c;
}

namespace {
size_t naturalArity(const FunValue& f) {
  switch (f.kind) {
    case FunKind::Closure: return f.lambda->params.size();
    case FunKind::Def: {
      size_t r = f.def->params.size() - std::min(f.def->params.size(), f.args.size());
      return r == 0 ? 1 : r;
    }
    case FunKind::Compose: return naturalArity(*f.g);
    case FunKind::IR: return std::max<size_t>(1, f.ir->arity());
    case FunKind::Builtin: {
      int d = info(f.builtin).data;
      return d > 0 ? static_cast<size_t>(d) : 1;
    }
  }
  return 1;
}

std::vector<std::string> paramNames(const FunValue& f, size_t n) {
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) {
    if (f.kind == FunKind::Closure && i < f.lambda->params.size()) {
      names.push_back(f.lambda->params[i].name);
    } else if (f.kind == FunKind::Def && f.args.size() + i < f.def->params.size()) {
      names.push_back(f.def->params[f.args.size() + i].name);
    } else {
      names.push_back(n == 1 ? "x" : "x" + std::to_string(i));
    }
  }
  return names;
}
}  // namespace

// The IR Lambda of a closure/def/composition: fresh Params, the body inlined over them.
// Generators (sizeArgs = k > 0) call f(i0.., n0..): the size parameters are bound to the
// compile-time sizes, so they fold; a function of only the k indices is accepted too.
ir::LambdaPtr Elaborator::lambdaFor(const FunValue& f, size_t arity, const Loc& loc,
                                    size_t sizeArgs, const std::vector<ir::ArithExpr>& sizes) {
  size_t own = naturalArity(f);
  size_t n = arity ? arity : own;
  std::vector<std::string> names = paramNames(f, n);
  std::vector<ir::ParamPtr> params;
  std::vector<Value> args;
  for (size_t i = 0; i < n; ++i) {
    params.push_back(ir::Param::make(names[i], {}, f.loc));
    args.push_back(Value::ofExpr(params.back(), sizeArgs ? ScalarHint::Int : ScalarHint::None));
  }
  if (sizeArgs) {
    for (size_t j = 0; j < sizeArgs; ++j) args[sizeArgs + j] = Value::ofInt(sizes[j]);
    if (own == sizeArgs && (f.kind == FunKind::Closure || f.kind == FunKind::Def)) {
      args.resize(sizeArgs);
    } else if (own != 2 * sizeArgs && (f.kind == FunKind::Closure || f.kind == FunKind::Def)) {
      fail(loc, fmt::format("the function of a {}-dimensional array generator takes the {} indices "
                            "(and optionally the {} sizes), but it takes {} parameters",
                            sizeArgs, sizeArgs, sizeArgs, own));
    }
  }
  Value body;
  if (f.kind == FunKind::Closure) {
    if (args.size() != f.lambda->params.size()) {
      fail(loc, fmt::format("this function takes {} parameters but is used with {}",
                            f.lambda->params.size(), args.size()));
    }
    Env env = f.env;
    for (size_t i = 0; i < args.size(); ++i) env = bind(env, f.lambda->params[i].name, args[i]);
    body = eval(*f.lambda->elems[0], env);
  } else {
    body = applyFun(f, std::move(args), loc);
  }
  if (body.kind == ValueKind::Fun) {
    fail(f.loc, "this function returns a function; functions passed to patterns must return values");
  }
  return ir::Lambda::make(std::move(params), toExpr(body, f.loc, "the result of a function"), f.loc);
}

ir::FunPtr Elaborator::toFun(const Value& v, const Loc& loc, const std::string& what, size_t arity) {
  if (v.kind != ValueKind::Fun) {
    fail(loc, fmt::format("{} must be a function, but it is {}", what, describe(v)));
  }
  const FunValue& f = *v.fun;
  switch (f.kind) {
    case FunKind::IR: return f.ir;
    case FunKind::Closure:
    case FunKind::Compose: return lambdaFor(f, arity, loc);
    case FunKind::Def:
      if (f.args.size() >= f.def->params.size()) {
        Value r = expandDef(*f.def, f.args, loc);
        return toFun(r, loc, what, arity);
      }
      return lambdaFor(f, arity, loc);
    case FunKind::Builtin: {
      const BuiltinInfo& b = info(f.builtin);
      if (isScalarOp(f.builtin) && f.args.empty()) {
        return ir::Builtin::make(scalarOp(f.builtin), 0, f.loc, opts_.precision);
      }
      if (f.builtin == BuiltinId::Id) return ir::Id::make(f.loc);
      if (f.builtin == BuiltinId::Zip) {
        fail(loc, "zip must be given its arrays (zip(x, y)); it cannot be passed as a function");
      }
      if (f.builtin == BuiltinId::Len || f.builtin == BuiltinId::Prod ||
          f.builtin == BuiltinId::Factors || isModularList(f.builtin)) {
        fail(loc, fmt::format("{} is evaluated at compile time; it cannot be used as a function "
                              "on runtime values", b.name));
      }
      size_t statics = b.statics >= 0 ? static_cast<size_t>(b.statics)
                                      : (!f.args.empty() && f.args[0].kind == ValueKind::Int ? 2 : 1);
      if (f.args.size() < statics) {
        fail(loc, fmt::format("'{}' is missing arguments: it takes {} before the data it is applied "
                              "to, got {}", b.name, statics, f.args.size()));
      }
      if (b.data == 0) {
        fail(loc, fmt::format("'{}' builds an array value; it is not a function", b.name));
      }
      return builtinFun(f.builtin, f.args, f.loc);
    }
  }
  fail(loc, fmt::format("{} must be a function", what));
}

// The IR FunDecl of a built-in pattern whose compile-time parameters are all given.
ir::FunPtr Elaborator::builtinFun(BuiltinId id, const std::vector<Value>& s, const Loc& loc) {
  std::string name = info(id).name;
  auto fnArg = [&](size_t i) {
    return toFun(s[i], loc, fmt::format("the {} argument of {}", ordinal(i), name));
  };
  auto intArg = [&](size_t i) {
    return toInt(s[i], loc, fmt::format("the {} argument of {}", ordinal(i), name));
  };
  auto constArg = [&](size_t i) {
    return toConstInt(s[i], loc, fmt::format("the {} argument of {}", ordinal(i), name));
  };
  switch (id) {
    case BuiltinId::Map: return ir::Map::make(fnArg(0), loc);
    case BuiltinId::MapSeq: return ir::MapSeq::make(fnArg(0), loc);
    case BuiltinId::MapSeqUnroll: return ir::MapSeqUnroll::make(fnArg(0), loc);
    case BuiltinId::MapGlobal:
    case BuiltinId::MapWorkgroup:
    case BuiltinId::MapLocal: {
      int64_t dim = s.size() == 2 ? constArg(0) : 0;
      if (dim < 0 || dim > 2) fail(loc, fmt::format("{}: dimension {} is not 0, 1 or 2", name, dim));
      ir::FunPtr f = fnArg(s.size() - 1);
      int d = static_cast<int>(dim);
      if (id == BuiltinId::MapGlobal) return ir::MapGlobal::make(d, f, loc);
      if (id == BuiltinId::MapWorkgroup) return ir::MapWorkgroup::make(d, f, loc);
      return ir::MapLocal::make(d, f, loc);
    }
    case BuiltinId::MapCluster: {
      int64_t blocks = constArg(0);
      if (blocks < 1 || blocks > ir::MapWorkgroup::kMaxClusterBlocks)
        fail(loc, fmt::format("mapCluster: a cluster of {} work-groups (1 to {})", blocks,
                              ir::MapWorkgroup::kMaxClusterBlocks));
      return ir::MapWorkgroup::makeCluster(blocks, fnArg(1), loc);
    }
    case BuiltinId::MapBlock: return ir::MapWorkgroup::makeBlocks(fnArg(0), loc);
    case BuiltinId::Reduce:
    case BuiltinId::ReduceSeq:
    case BuiltinId::ReduceSeqUnroll:
    case BuiltinId::ReduceSeqPrefetch: {
      ir::FunPtr f = fnArg(0);
      ir::ExprPtr init = toExpr(s[1], loc, fmt::format("the initial value of {}", name));
      if (id == BuiltinId::Reduce) return ir::Reduce::make(f, init, loc);
      if (id == BuiltinId::ReduceSeq) return ir::ReduceSeq::make(f, init, loc);
      if (id == BuiltinId::ReduceSeqPrefetch) return ir::ReduceSeq::makePrefetch(f, init, loc);
      return ir::ReduceSeqUnroll::make(f, init, loc);
    }
    case BuiltinId::Split: return ir::Split::make(intArg(0), loc);
    case BuiltinId::Join: return ir::Join::make(loc);
    case BuiltinId::AsVector: return ir::Split::makeVector(intArg(0), loc);
    case BuiltinId::AsScalar: return ir::Join::makeScalar(loc);
    case BuiltinId::Transpose: return ir::Transpose::make(loc);
    case BuiltinId::Id: return ir::Id::make(loc);
    case BuiltinId::Pad: {
      ir::ArithExpr l = intArg(0), r = intArg(1);
      if (s[2].kind == ValueKind::Boundary) return ir::Pad::make(l, r, s[2].boundary, nullptr, loc);
      ir::ExprPtr value = toExpr(s[2], loc, "the boundary of pad (wrap, clamp, mirror or a value)");
      return ir::Pad::make(l, r, ir::PadBoundary::Constant, value, loc);
    }
    case BuiltinId::Slide: return ir::Slide::make(intArg(0), intArg(1), loc);
    case BuiltinId::Crop: return ir::Crop::make(intArg(0), intArg(1), loc);
    case BuiltinId::Gather: {
      if (s[0].kind != ValueKind::List)
        fail(loc, fmt::format("gather needs a compile-time list of indices, got {}",
                              describe(s[0])));
      std::vector<int64_t> idx;
      for (const auto& e : s[0].list) {
        auto c = e.constant();
        if (!c) fail(loc, "gather: the index " + e.str() + " is not a constant");
        idx.push_back(*c);
      }
      return ir::Gather::make(std::move(idx), loc);
    }
    case BuiltinId::Iterate: {
      int64_t k = constArg(0);
      if (k < 0) fail(loc, fmt::format("iterate: the count {} is negative", k));
      return ir::Iterate::make(k, fnArg(1), loc);
    }
    case BuiltinId::Get: {
      int64_t i = constArg(0);
      if (i < 0) fail(loc, fmt::format("get: the index {} is negative", i));
      return ir::Get::make(static_cast<size_t>(i), loc);
    }
    case BuiltinId::ToGlobal: return ir::ToGlobal::make(fnArg(0), loc);
    case BuiltinId::ToLocal: return ir::ToLocal::make(fnArg(0), loc);
    case BuiltinId::ToPrivate: return ir::ToPrivate::make(fnArg(0), loc);
    default: break;
  }
  if (isScalarOp(id)) return ir::Builtin::make(scalarOp(id), 0, loc, opts_.precision);
  fail(loc, fmt::format("'{}' is not a function here", name));
}

// ---- application ----

Value Elaborator::apply(const Value& f, std::vector<Value> args, const Loc& loc) {
  if (f.kind != ValueKind::Fun) {
    fail(loc, fmt::format("{} cannot be applied: it is not a function", describe(f)));
  }
  return applyFun(*f.fun, std::move(args), loc);
}

Value Elaborator::applyFun(const FunValue& f, std::vector<Value> args, const Loc& loc) {
  step(loc);
  switch (f.kind) {
    case FunKind::Closure: return applyClosure(f, std::move(args), loc);
    case FunKind::Builtin: return applyBuiltin(f, std::move(args), loc);
    case FunKind::IR: return applyIR(f.ir, std::move(args), loc, ScalarHint::None);
    case FunKind::Compose: {
      // Flatten the composition tree (long pipes make deep ones) and apply right to left
      // without recursion.
      std::vector<const FunValue*> order;  // innermost (applied first) last
      std::vector<const FunValue*> todo{&f};
      while (!todo.empty()) {
        step(loc);  // a composition tree may have exponentially many leaves (twice(twice(..)))
        const FunValue* c = todo.back();
        todo.pop_back();
        if (c->kind == FunKind::Compose) {
          todo.push_back(c->g.get());
          todo.push_back(c->f.get());
        } else {
          order.push_back(c);
        }
      }
      Value v = applyFun(*order.back(), std::move(args), loc);
      for (size_t i = order.size() - 1; i-- > 0;) v = applyFun(*order[i], {std::move(v)}, loc);
      return v;
    }
    case FunKind::Def: {
      std::vector<Value> all = f.args;
      for (auto& a : args) all.push_back(std::move(a));
      size_t n = f.def->params.size();
      if (all.size() < n) {
        auto partial = std::make_shared<FunValue>(f);
        partial->args = std::move(all);
        return Value::ofFun(partial);
      }
      std::vector<Value> rest(all.begin() + static_cast<std::ptrdiff_t>(n), all.end());
      all.resize(n);
      Value r = expandDef(*f.def, std::move(all), loc);
      if (rest.empty()) return r;
      if (r.kind != ValueKind::Fun) {
        fail(loc, fmt::format("too many arguments: '{}' takes {} and returns {}, which cannot "
                              "take {} more", f.def->name, n, describe(r), rest.size()));
      }
      return applyFun(*r.fun, std::move(rest), loc);
    }
  }
  fail(loc, "cannot apply this function");
}

// A closure applied to runtime values becomes FunCall(Lambda, args) (as in LIFT), beta-reduced
// where that cannot duplicate work (ir/beta_reduce.h); applied to compile-time values (integers,
// lists, functions) it is inlined like a def.
Value Elaborator::applyClosure(const FunValue& f, std::vector<Value> args, const Loc& loc) {
  size_t k = f.lambda->params.size();
  bool allRuntime = std::all_of(args.begin(), args.end(),
                                [](const Value& v) { return v.kind == ValueKind::Expr; });
  if (args.size() == 1 && k > 1 && allRuntime) {
    // One k-tuple for k parameters: the IR binds its components.
    return Value::ofExpr(call(lambdaFor(f, 0, loc), {args[0].expr}, loc));
  }
  if (args.size() < k) {
    fail(loc, fmt::format("this function takes {} argument{}, got {}", k, k == 1 ? "" : "s",
                          args.size()));
  }
  std::vector<Value> rest(args.begin() + static_cast<std::ptrdiff_t>(k), args.end());
  args.resize(k);
  Value r;
  if (std::all_of(args.begin(), args.end(), [](const Value& v) { return v.kind == ValueKind::Expr; })) {
    std::vector<ir::ExprPtr> xs;
    for (const auto& a : args) xs.push_back(a.expr);
    ir::LambdaPtr lam = lambdaFor(f, 0, loc);
    std::optional<ir::ExprPtr> reduced;
    if (opts_.inlineLambdas) reduced = ir::betaReduce(*lam, xs);
    r = Value::ofExpr(reduced ? *reduced : call(lam, std::move(xs), loc));
  } else {
    Env env = f.env;
    for (size_t i = 0; i < k; ++i) env = bind(env, f.lambda->params[i].name, std::move(args[i]));
    r = eval(*f.lambda->elems[0], env);
  }
  if (rest.empty()) return r;
  if (r.kind != ValueKind::Fun) {
    fail(loc, fmt::format("too many arguments: this function takes {}, got {}", k, k + rest.size()));
  }
  return applyFun(*r.fun, std::move(rest), loc);
}

Value Elaborator::applyIR(const ir::FunPtr& f, std::vector<Value> args, const Loc& loc,
                          ScalarHint hint) {
  size_t k = f->arity();
  if (args.size() != k && !(args.size() == 1 && k > 1)) {
    fail(loc, fmt::format("'{}' takes {} argument{}, got {}", f->name(), k, k == 1 ? "" : "s",
                          args.size()));
  }
  std::vector<ir::ExprPtr> xs;
  for (size_t i = 0; i < args.size(); ++i) {
    xs.push_back(toExpr(args[i], loc, fmt::format("the {} argument of {}", ordinal(i), f->name())));
  }
  return Value::ofExpr(call(f, std::move(xs), loc), hint);
}

Value Elaborator::applyBuiltin(const FunValue& f, std::vector<Value> args, const Loc& loc) {
  const BuiltinInfo& b = info(f.builtin);
  std::vector<Value> all = f.args;
  for (auto& a : args) all.push_back(std::move(a));

  if (f.builtin == BuiltinId::Factors) {
    if (all.empty()) return Value::ofFun(makeBuiltin(f.builtin, f.loc));
    if (all.size() != 1) fail(loc, fmt::format("factors takes 1 argument, got {}", all.size()));
    int64_t n = toConstInt(all[0], loc, "the argument of factors");
    if (n < 1) fail(loc, fmt::format("factors({}): the argument must be at least 1", n));
    std::vector<ir::ArithExpr> primes;  // ascending; [] for 1
    for (int64_t p = 2; p * p <= n; ++p)
      for (; n % p == 0; n /= p) primes.emplace_back(p);
    if (n > 1) primes.emplace_back(n);
    return Value::ofList(std::move(primes));
  }
  if (isModularList(f.builtin)) {
    if (all.empty()) return Value::ofFun(makeBuiltin(f.builtin, f.loc));
    if (all.size() != static_cast<size_t>(b.statics))
      fail(loc, fmt::format("{} takes {} arguments, got {}", b.name, b.statics, all.size()));
    std::vector<int64_t> a;
    for (size_t i = 0; i < all.size(); ++i)
      a.push_back(toConstInt(all[i], loc, fmt::format("the {} argument of {}", ordinal(i), b.name)));
    if (f.builtin == BuiltinId::PrimitiveRoot) {
      // primitiveRoot(p): the smallest generator of the multiplicative group mod a prime p
      if (!isPrime(a[0]) || a[0] > (int64_t{1} << 31))
        fail(loc, fmt::format("primitiveRoot({}): the argument must be a prime below 2^31", a[0]));
      return Value::ofInt(ir::ArithExpr(smallestPrimitiveRoot(a[0])));
    }
    // powMods(g, n, m) = [g^i mod m]_{i < n}; discreteLogs(g, p) = [log_g k]_{k < p}, the
    // exponent e < p - 1 with g^e = k mod p, and p - 1 for k = 0 (the slot after the p - 1
    // powers: Rader's X_0), for a primitive root g of a prime p.
    const int64_t m = f.builtin == BuiltinId::PowMods ? a[2] : a[1];
    if (m < 1 || m > (int64_t{1} << 31) || a[0] < 0)
      fail(loc, fmt::format("{}: the modulus {} must be in 1 .. 2^31 and the base non-negative",
                            b.name, m));
    const int64_t n = f.builtin == BuiltinId::PowMods ? a[1] : m - 1;
    if (n < 0 || n > (int64_t{1} << 24))
      fail(loc, fmt::format("{}: {} elements are not a compile-time list (0 .. 2^24)", b.name, n));
    std::vector<int64_t> pw;
    for (int64_t i = 0, v = 1 % m; i < n; ++i, v = mulMod(v, a[0] % m, m)) pw.push_back(v);
    if (f.builtin == BuiltinId::PowMods)
      return Value::ofList(std::vector<ir::ArithExpr>(pw.begin(), pw.end()));
    std::vector<ir::ArithExpr> logs(static_cast<size_t>(m), ir::ArithExpr(-1));
    logs[0] = ir::ArithExpr(m - 1);
    for (int64_t e = 0; e < n; ++e) {
      if (pw[static_cast<size_t>(e)] == 0 || logs[static_cast<size_t>(pw[static_cast<size_t>(e)])] != ir::ArithExpr(-1))
        fail(loc, fmt::format("discreteLogs({}, {}): {} is not a primitive root of the prime {}",
                              a[0], m, a[0], m));
      logs[static_cast<size_t>(pw[static_cast<size_t>(e)])] = ir::ArithExpr(e);
    }
    return Value::ofList(std::move(logs));
  }
  if (f.builtin == BuiltinId::Len || f.builtin == BuiltinId::Prod) {
    if (all.empty()) return Value::ofFun(makeBuiltin(f.builtin, f.loc));
    if (all[0].kind != ValueKind::List) {
      fail(loc, fmt::format("{} needs a compile-time list, got {}", b.name, describe(all[0])));
    }
    const auto& l = all[0].list;
    if (f.builtin == BuiltinId::Len) {
      if (all.size() != 1) fail(loc, fmt::format("len takes 1 argument, got {}", all.size()));
      return Value::ofInt(ir::ArithExpr(static_cast<int64_t>(l.size())));
    }
    if (all.size() != 1 && all.size() != 3) {
      fail(loc, fmt::format("prod takes 1 or 3 arguments (prod(rs) or prod(rs, i, j)), got {}",
                            all.size()));
    }
    int64_t from = 0, to = static_cast<int64_t>(l.size());
    if (all.size() == 3) {
      from = toConstInt(all[1], loc, "the start of prod's range");
      to = toConstInt(all[2], loc, "the end of prod's range");
      if (from < 0 || from > to || to > static_cast<int64_t>(l.size())) {
        fail(loc, fmt::format("prod(rs, {}, {}): the range is not within the list's {} elements",
                              from, to, l.size()));
      }
    }
    ir::ArithExpr p(1);
    for (int64_t i = from; i < to; ++i) p = checkedArith(ast::BinOp::Mul, p, l[static_cast<size_t>(i)], loc);
    return Value::ofInt(p);
  }

  size_t statics = b.statics >= 0 ? static_cast<size_t>(b.statics)
                                  : (!all.empty() && all[0].kind == ValueKind::Int ? 2 : 1);
  if (all.size() < statics || (all.size() == statics && b.data != 0)) {
    return Value::ofFun(makeBuiltin(f.builtin, f.loc, std::move(all)));
  }
  std::vector<Value> data(all.begin() + static_cast<std::ptrdiff_t>(statics), all.end());
  all.resize(statics);

  if (b.data == 0) {  // array generators
    if (!data.empty()) {
      fail(loc, fmt::format("too many arguments for {}: it takes {}, got {}", b.name, statics,
                            statics + data.size()));
    }
    std::vector<ir::ArithExpr> sizes;
    for (size_t i = 0; i + 1 < statics; ++i) {
      sizes.push_back(toInt(all[i], loc, fmt::format("the {} argument of {}", ordinal(i), b.name)));
      if (auto c = sizes.back().constant(); c && *c <= 0) {
        fail(loc, fmt::format("{}: size {} must be positive", b.name, *c));
      }
    }
    const Value& fv = all[statics - 1];
    ir::FunPtr gen;
    if (fv.kind == ValueKind::Fun && fv.fun->kind != FunKind::IR && fv.fun->kind != FunKind::Builtin) {
      gen = lambdaFor(*fv.fun, 2 * sizes.size(), loc, sizes.size(), sizes);
    } else {
      gen = toFun(fv, loc, fmt::format("the function of {}", b.name));
    }
    auto arr = ir::ArrayGen::make(sizes, gen, loc);
    return Value::ofExpr(call(arr, {}, loc));
  }

  if (f.builtin == BuiltinId::Zip) {
    if (data.size() < 2) fail(loc, fmt::format("zip needs at least 2 arrays, got {}", data.size()));
    std::vector<ir::ExprPtr> xs;
    for (size_t i = 0; i < data.size(); ++i) {
      xs.push_back(toExpr(data[i], loc, fmt::format("the {} argument of zip", ordinal(i))));
    }
    auto zip = ir::Zip::make(xs.size(), loc);
    return Value::ofExpr(call(zip, std::move(xs), loc));
  }

  ir::FunPtr fn = builtinFun(f.builtin, all, f.loc);
  if (b.data > 0 && data.size() > static_cast<size_t>(b.data)) {
    fail(loc, fmt::format("too many arguments for {}: it takes {}, got {}", b.name,
                          statics + static_cast<size_t>(b.data), statics + data.size()));
  }
  if (b.data == -1) {  // toGlobal(f)(args...): as many as f takes
    std::vector<ir::ExprPtr> xs;
    for (size_t i = 0; i < data.size(); ++i) xs.push_back(toExpr(data[i], loc, "an argument"));
    return Value::ofExpr(call(fn, std::move(xs), loc));
  }
  ScalarHint hint = ScalarHint::None;
  auto hintOf = [](const Value& v) {
    return v.kind == ValueKind::Int ? ScalarHint::Int : v.kind == ValueKind::Expr ? v.hint : ScalarHint::None;
  };
  switch (f.builtin) {
    case BuiltinId::Cos: case BuiltinId::Sin: case BuiltinId::Sqrt:
    case BuiltinId::Re: case BuiltinId::Im:
      hint = ScalarHint::Real;
      break;
    case BuiltinId::Exp:
      if (hintOf(data[0]) != ScalarHint::None) hint = ScalarHint::Real;
      break;
    case BuiltinId::Neg: case BuiltinId::Id: hint = hintOf(data[0]); break;
    case BuiltinId::Add: case BuiltinId::Sub: case BuiltinId::Mult: case BuiltinId::Div:
    case BuiltinId::Mod:
      if (data.size() == 2 && hintOf(data[0]) != ScalarHint::None && hintOf(data[1]) != ScalarHint::None) {
        hint = (hintOf(data[0]) == ScalarHint::Real || hintOf(data[1]) == ScalarHint::Real)
                   ? ScalarHint::Real : ScalarHint::Int;
      }
      break;
    default: break;
  }
  return applyIR(fn, std::move(data), loc, hint);
}

}  // namespace fftc::compiler::frontend
