// Elaboration of declarations and expressions: name resolution, def expansion (macros),
// compile-time integer and list evaluation, pipe unrolling, kernel parameter types.
#include "compiler/frontend/elaborator.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/pipeline/phase_times.h"
#include "ir/infer.h"

namespace fftc::compiler::frontend {

const char* describe(const Value& v) {
  switch (v.kind) {
    case ValueKind::Int: return "an integer";
    case ValueKind::List: return "a list";
    case ValueKind::Expr: return "a value";
    case ValueKind::Fun: return "a function";
    case ValueKind::Boundary: return "a pad boundary";
    case ValueKind::Bool: return "a boolean";
  }
  return "a value";
}

void Elaborator::fail(const Loc& loc, std::string message) {
  throw ir::CompileError(loc, std::move(message));
}

void Elaborator::step(const Loc& loc) {
  if (++steps_ > opts_.maxSteps) {
    fail(loc, fmt::format("elaboration budget exceeded ({} steps): the program expands to too "
                          "much code (runaway def expansion?)", opts_.maxSteps));
  }
}

Program elaborate(const ast::Module& module, const ElaborateOptions& options) {
  return Elaborator(module, options).run();
}

Elaborator::Elaborator(const ast::Module& module, const ElaborateOptions& options)
    : module_(module), opts_(options) {
  for (const auto& [name, v] : options.defines) {
    if (const auto* i = std::get_if<int64_t>(&v)) {
      defines_[name] = Value::ofInt(ir::ArithExpr(*i));
    } else {
      std::vector<ir::ArithExpr> l;
      for (int64_t x : std::get<std::vector<int64_t>>(v)) l.emplace_back(x);
      defines_[name] = Value::ofList(std::move(l));
    }
  }
  for (const auto& [name, f] : options.functions) {
    auto v = std::make_shared<FunValue>();
    v->kind = FunKind::IR;
    v->ir = f;
    defines_[name] = Value::ofFun(std::move(v));
  }
}

Program Elaborator::run() {
  Program program;
  program.fileName = module_.fileName;
  program.importedFiles = module_.importedFiles;
  collectDecls(program);
  checkNames();
  for (const auto& d : module_.decls) {
    if (d->kind != ast::DeclKind::Kernel) continue;
    const auto& only = opts_.kernels;
    if (only.empty() || std::find(only.begin(), only.end(), d->name) != only.end())
      program.kernels.push_back(elaborateKernel(*d));
  }
  return program;
}

void Elaborator::collectDecls(Program& program) {
  std::unordered_map<std::string, const ast::Decl*> kernels;
  Value dummy;
  for (const auto& dp : module_.decls) {
    const ast::Decl& d = *dp;
    if (d.kind == ast::DeclKind::Import) {  // compileSource resolves imports before this
      fail(d.loc, fmt::format("import \"{}\" was not resolved", d.name));
    }
    if (d.kind == ast::DeclKind::Kernel) {
      if (auto it = kernels.find(d.name); it != kernels.end()) {
        fail(d.loc, fmt::format("redefinition of kernel '{}' (first defined at {})", d.name,
                                it->second->loc.str()));
      }
      kernels[d.name] = &d;
      continue;
    }
    if (lookupBuiltin(d.name, dummy, d.loc, opts_.precision)) {
      fail(d.loc, fmt::format("'{}' is a built-in name and cannot be redefined", d.name));
    }
    const ast::Decl* previous = nullptr;
    if (auto it = defs_.find(d.name); it != defs_.end()) previous = it->second;
    for (const auto& other : module_.decls) {
      if (other.get() == &d) break;
      if (other->kind == ast::DeclKind::UserFun && other->name == d.name) previous = other.get();
    }
    // A file's own def may not redefine an imported one: the error is at the file's own def,
    // whichever comes first.
    if (previous && previous->imported && !d.imported) {
      fail(d.loc, fmt::format("redefinition of '{}' (imported from {})", d.name,
                              previous->loc.str()));
    }
    if (previous && !previous->imported && d.imported) {
      fail(previous->loc, fmt::format("redefinition of '{}' (imported from {})", d.name,
                                      d.loc.str()));
    }
    if (previous) {
      fail(d.loc, fmt::format("redefinition of '{}' (first defined at {})", d.name,
                              previous->loc.str()));
    }
    if (d.kind == ast::DeclKind::Def) {
      defs_[d.name] = &d;
      continue;
    }
    // userfun: scalar parameter and result types; `real` is the program's precision.
    std::vector<std::string> names;
    std::vector<ir::Type> types;
    for (const auto& p : d.typedParams) {
      names.push_back(p.name);
      types.push_back(resolveType(*p.type));
      if (types.back().isArray()) {
        fail(p.type->loc, fmt::format("userfun parameter '{}' has array type {}; user functions "
                                      "take and return scalars and tuples", p.name,
                                      types.back().str()));
      }
    }
    ir::Type result = resolveType(*d.resultType);
    if (result.isArray()) {
      fail(d.resultType->loc, fmt::format("userfun '{}' returns array type {}; user functions "
                                          "take and return scalars and tuples", d.name,
                                          result.str()));
    }
    auto uf = ir::UserFun::make(d.name, names, types, result, d.cBody, d.loc);
    userFuns_[d.name] = uf;
    program.userFuns.push_back(uf);
  }
}

// ---- kernels and types ----

Kernel Elaborator::elaborateKernel(const ast::Decl& d) {
  sizeVars_.clear();
  sizeVarOrder_.clear();
  Kernel k;
  k.name = d.name;
  k.loc = d.loc;
  std::vector<ir::ParamPtr> params;
  Env env;
  inKernelTypes_ = true;
  for (const auto& p : d.typedParams) {
    ir::Type t = resolveType(*p.type);
    auto param = ir::Param::make(p.name, t, p.loc);
    params.push_back(param);
    k.paramNames.push_back(p.name);
    k.paramTypes.push_back(t);
    env = bind(env, p.name, Value::ofExpr(param));
  }
  inKernelTypes_ = false;
  for (const auto& name : sizeVarOrder_) {
    k.sizeVarNames.push_back(name);
    k.sizeVars.push_back(sizeVars_.at(name));
  }
  Value body = eval(*d.body, env);
  // A kernel whose body is a function (e.g. `= fftStockham(rs)`) is applied to its parameters.
  if (body.kind == ValueKind::Fun) {
    std::vector<Value> args;
    for (const auto& p : params) args.push_back(Value::ofExpr(p));
    body = apply(body, std::move(args), d.body->loc);
  }
  if (body.kind != ValueKind::Expr && body.kind != ValueKind::Int) {
    fail(d.body->loc, fmt::format("the body of kernel '{}' is {}, not an array or scalar value",
                                  d.name, describe(body)));
  }
  ir::ExprPtr e = toExpr(body, d.body->loc, "the kernel body");
  k.lambda = ir::Lambda::make(params, e, d.loc);
  if (opts_.typeCheck) {
    ir::InferOptions io;
    io.real = opts_.precision;
    pipeline::PhaseTimer timer("type inference");
    k.lambda = ir::inferTypes(k.lambda, io);
    k.resultType = k.lambda->body()->type();
  }
  sizeVars_.clear();
  sizeVarOrder_.clear();
  return k;
}

ir::Type Elaborator::resolveType(const ast::Type& t) {
  switch (t.kind) {
    case ast::TypeKind::Int: return ir::Type::intType();
    case ast::TypeKind::Float: return ir::Type::floatType();
    case ast::TypeKind::Double: return ir::Type::doubleType();
    case ast::TypeKind::Real: return ir::Type::real(opts_.precision);
    case ast::TypeKind::Complex: return ir::Type::complex(opts_.precision);
    case ast::TypeKind::Tuple: {
      std::vector<ir::Type> cs;
      for (const auto& c : t.elems) cs.push_back(resolveType(*c));
      return ir::Type::tuple(std::move(cs));
    }
    case ast::TypeKind::Array: {
      ir::Type elem = resolveType(*t.elems[0]);
      ir::ArithExpr size = resolveSize(*t.size);
      if (auto c = size.constant(); c && *c <= 0) {
        fail(t.size->loc, fmt::format("array size must be positive, got {}", *c));
      }
      // The element count must fit int64 (code generation multiplies the sizes): reported
      // here, at the type, rather than as an overflow inside the code generator.
      try {
        ir::ArithExpr count = size;
        for (const auto& s : elem.shape()) count = count * s;
      } catch (const ir::ArithError& err) {
        fail(t.loc, fmt::format("array of more than 2^63 elements ({})", err.what()));
      }
      return ir::Type::array(elem, size);
    }
  }
  fail(t.loc, "unknown type");
}

// Sizes in parameter types: integers, -D bindings, defs, and (in kernels) size variables,
// created on first mention.
ir::ArithExpr Elaborator::resolveSize(const ast::Expr& e) {
  switch (e.kind) {
    case ast::ExprKind::Int: return ir::ArithExpr(e.intValue);
    case ast::ExprKind::Var: {
      if (auto it = defines_.find(e.name); it != defines_.end()) {
        return toInt(it->second, e.loc, fmt::format("-D {}", e.name));
      }
      if (defs_.count(e.name)) return toInt(lookup(e, nullptr), e.loc, fmt::format("size '{}'", e.name));
      if (auto it = sizeVars_.find(e.name); it != sizeVars_.end()) return it->second;
      if (!inKernelTypes_) {
        fail(e.loc, fmt::format("unknown size '{}': userfun types need constant sizes", e.name));
      }
      ir::ArithExpr v = ir::ArithExpr::sizeVar(e.name);
      sizeVars_.emplace(e.name, v);
      sizeVarOrder_.push_back(e.name);
      return v;
    }
    case ast::ExprKind::Binary:
      return checkedArith(e.op, resolveSize(*e.elems[0]), resolveSize(*e.elems[1]), e.loc);
    default: fail(e.loc, "invalid size expression");
  }
}

// ---- expressions ----

Value Elaborator::eval(const ast::Expr& e, const Env& env) {
  step(e.loc);
  if (++depth_ > opts_.maxDepth) {
    --depth_;
    fail(e.loc, fmt::format("expansion nested too deeply (more than {} levels): recursive or "
                            "runaway def expansion?", opts_.maxDepth));
  }
  struct Unwind {
    int& d;
    ~Unwind() { --d; }
  } unwind{depth_};
  try {
    return evalInner(e, env);
  } catch (const ir::ArithError& err) {
    fail(e.loc, fmt::format("invalid size arithmetic: {}", err.what()));
  }
}

Value Elaborator::evalInner(const ast::Expr& e, const Env& env) {
  using K = ast::ExprKind;
  switch (e.kind) {
    case K::Var: return lookup(e, env);
    case K::Int: return Value::ofInt(ir::ArithExpr(e.intValue));
    case K::Real:
      return Value::ofExpr(ir::Literal::makeReal(e.realValue,
                                                 e.realIsFloat ? ir::ScalarKind::Float : opts_.precision,
                                                 e.loc),
                           ScalarHint::Real);
    case K::Tuple: return evalTuple(e, env);
    case K::List: {
      std::vector<ir::ArithExpr> items;
      for (const auto& x : e.elems) {
        Value v = eval(*x, env);
        if (v.kind != ValueKind::Int) {
          fail(x->loc, fmt::format("list elements must be compile-time integers, got {}", describe(v)));
        }
        items.push_back(v.i);
      }
      return Value::ofList(std::move(items));
    }
    case K::Lambda: {
      auto f = std::make_shared<FunValue>();
      f->kind = FunKind::Closure;
      f->loc = e.loc;
      f->lambda = &e;
      f->env = env;
      return Value::ofFun(f);
    }
    case K::Call: {
      Value callee = eval(*e.elems[0], env);
      std::vector<Value> args;
      for (size_t i = 1; i < e.elems.size(); ++i) args.push_back(eval(*e.elems[i], env));
      if (callee.kind != ValueKind::Fun) {
        std::string what = e.elems[0]->kind == K::Var ? fmt::format("'{}'", e.elems[0]->name)
                                                      : std::string("this expression");
        fail(e.loc, fmt::format("{} is {}, not a function; it cannot be applied", what,
                                describe(callee)));
      }
      return apply(callee, std::move(args), e.loc);
    }
    case K::Apply: {
      Value f = eval(*e.elems[0], env);
      Value x = eval(*e.elems[1], env);
      if (f.kind != ValueKind::Fun) {
        fail(e.loc, fmt::format("the left side of '<<:' is {}, not a function", describe(f)));
      }
      return apply(f, {std::move(x)}, e.loc);
    }
    case K::Compose: {
      Value f = eval(*e.elems[0], env);
      Value g = eval(*e.elems[1], env);
      if (f.kind != ValueKind::Fun) {
        fail(e.loc, fmt::format("'o' composes functions, but its left operand is {}", describe(f)));
      }
      // The paper writes `reduce(+, 0) o map(*) o zip(row, v)`: a value on the right of the
      // last `o` is an argument, so that reads as reduce(+, 0) <<: map(*) <<: zip(row, v).
      if (g.kind != ValueKind::Fun) return apply(f, {std::move(g)}, e.loc);
      auto c = std::make_shared<FunValue>();
      c->kind = FunKind::Compose;
      c->loc = e.loc;
      c->f = f.fun;
      c->g = g.fun;
      return Value::ofFun(c);
    }
    case K::Binary: return evalBinary(e, env);
    case K::Neg: return negate(eval(*e.elems[0], env), e.loc);
    case K::Field: {
      Value t = eval(*e.elems[0], env);
      auto get = ir::Get::make(static_cast<size_t>(e.intValue), e.loc);
      return Value::ofExpr(call(get, {toExpr(t, e.loc, "the operand of '._'")}, e.loc));
    }
    case K::Index: return evalIndex(e, env);
    case K::Pipe: return evalPipe(e, env);
    case K::Compare: return evalCompare(e, env);
    case K::And:
    case K::Or: return evalLogic(e, env);
    case K::Not: return Value::ofBool(!condition(e.elems[0]->loc, eval(*e.elems[0], env), "the operand of '!'"));
    case K::If: return evalIf(e, env);
    case K::OpRef: {
      static const BuiltinId ids[] = {BuiltinId::Add, BuiltinId::Sub, BuiltinId::Mult,
                                      BuiltinId::Div, BuiltinId::Mod};
      return Value::ofFun(makeBuiltin(ids[static_cast<int>(e.op)], e.loc));
    }
  }
  fail(e.loc, "unsupported expression");
}

// Inlines a def: binds its parameters to the argument values and evaluates its body in the
// global scope. The expansion stack catches recursion: a def that expands into itself is an
// error even where an `if` would end it (repetition is written with pipe, whose length is known).
Value Elaborator::expandDef(const ast::Decl& d, std::vector<Value> args, const Loc& useLoc) {
  size_t count = static_cast<size_t>(std::count(expanding_.begin(), expanding_.end(), &d));
  if (count >= 4) {
    auto first = std::find(expanding_.begin(), expanding_.end(), &d);
    // Report the shortest cycle: from the first expansion of d to its second.
    auto second = std::find(first + 1, expanding_.end(), &d);
    std::string chain;
    for (auto it = first; it != second; ++it) chain += (*it)->name + " -> ";
    chain += d.name;
    fail(useLoc, fmt::format("recursive definition: '{}' expands into itself ({})", d.name, chain));
  }
  Env env;
  for (size_t i = 0; i < d.params.size(); ++i) env = bind(env, d.params[i].name, std::move(args[i]));
  expanding_.push_back(&d);
  struct Pop {
    std::vector<const ast::Decl*>& s;
    ~Pop() { s.pop_back(); }
  } pop{expanding_};
  return eval(*d.body, env);
}

// ---- IR construction ----

ir::ExprPtr Elaborator::call(ir::FunPtr f, std::vector<ir::ExprPtr> args, const Loc& loc) {
  int d = irDepth_.of(f);
  for (const auto& a : args) d = std::max(d, irDepth_.of(a));
  if (d + 1 > opts_.maxIrDepth) {
    fail(loc, fmt::format("the program expands to an expression nested too deeply (more than {} "
                          "levels): runaway def expansion?", opts_.maxIrDepth));
  }
  return ir::FunCall::make(std::move(f), std::move(args), loc);
}

// ---- arithmetic ----

ir::ArithExpr Elaborator::checkedArith(ast::BinOp op, const ir::ArithExpr& a,
                                       const ir::ArithExpr& b, const Loc& loc) {
  auto ca = a.constant();
  auto cb = b.constant();
  if ((op == ast::BinOp::Div || op == ast::BinOp::Mod) && cb && *cb == 0) {
    fail(loc, "division by zero in compile-time arithmetic");
  }
  if (ca && cb) {
    int64_t x = *ca, y = *cb, r = 0;
    bool overflow = false;
    switch (op) {
      case ast::BinOp::Add: overflow = __builtin_add_overflow(x, y, &r); break;
      case ast::BinOp::Sub: overflow = __builtin_sub_overflow(x, y, &r); break;
      case ast::BinOp::Mul: overflow = __builtin_mul_overflow(x, y, &r); break;
      case ast::BinOp::Div:
        if (x == INT64_MIN && y == -1) {
          overflow = true;
        } else {
          r = x / y;
          if ((x % y != 0) && ((x < 0) != (y < 0))) --r;  // floor
        }
        break;
      case ast::BinOp::Mod:
        if (y == -1) {
          r = 0;
        } else {
          r = x % y;
          if (r != 0 && ((r < 0) != (y < 0))) r += y;  // floor: sign of the divisor
        }
        break;
    }
    if (overflow) fail(loc, "integer overflow in compile-time arithmetic");
    return ir::ArithExpr(r);
  }
  try {
    switch (op) {
      case ast::BinOp::Add: return a + b;
      case ast::BinOp::Sub: return a - b;
      case ast::BinOp::Mul: return a * b;
      case ast::BinOp::Div: return a / b;
      case ast::BinOp::Mod: return a % b;
    }
  } catch (const ir::ArithError& err) {
    fail(loc, fmt::format("invalid size arithmetic: {}", err.what()));
  }
  return a;
}

Value Elaborator::evalBinary(const ast::Expr& e, const Env& env) {
  Value a = eval(*e.elems[0], env);
  Value b = eval(*e.elems[1], env);
  return arith(e.op, a, b, e.loc);
}

Value Elaborator::arith(ast::BinOp op, const Value& a, const Value& b, const Loc& loc) {
  if (a.kind == ValueKind::Int && b.kind == ValueKind::Int) {
    return Value::ofInt(checkedArith(op, a.i, b.i, loc));
  }
  for (const Value* v : {&a, &b}) {
    if (v->kind != ValueKind::Int && v->kind != ValueKind::Expr) {
      fail(loc, fmt::format("'{}' needs numbers, but its {} operand is {}", ast::binOpSpelling(op),
                            v == &a ? "left" : "right", describe(*v)));
    }
  }
  static const ir::BuiltinOp ops[] = {ir::BuiltinOp::Add, ir::BuiltinOp::Sub, ir::BuiltinOp::Mul,
                                      ir::BuiltinOp::Div, ir::BuiltinOp::Mod};
  std::string what = fmt::format("an operand of '{}'", ast::binOpSpelling(op));
  ir::ExprPtr x = toExpr(a, loc, what);
  ir::ExprPtr y = toExpr(b, loc, what);
  ScalarHint ha = a.kind == ValueKind::Int ? ScalarHint::Int : a.hint;
  ScalarHint hb = b.kind == ValueKind::Int ? ScalarHint::Int : b.hint;
  ScalarHint h = ScalarHint::None;
  if (ha != ScalarHint::None && hb != ScalarHint::None) {
    h = (ha == ScalarHint::Real || hb == ScalarHint::Real) ? ScalarHint::Real : ScalarHint::Int;
  }
  auto node = call(ir::Builtin::make(ops[static_cast<int>(op)], 0, loc), {x, y}, loc);
  return Value::ofExpr(node, h);
}

Value Elaborator::negate(const Value& a, const Loc& loc) {
  if (a.kind == ValueKind::Int) {
    return Value::ofInt(checkedArith(ast::BinOp::Sub, ir::ArithExpr(0), a.i, loc));
  }
  if (a.kind != ValueKind::Expr) fail(loc, fmt::format("'-' needs a number, got {}", describe(a)));
  // Fold the sign into real literals so that `-2.0` is a literal.
  if (const auto* lit = a.expr->as<ir::Literal>(); lit && lit->litKind() == ir::LiteralKind::Real) {
    return Value::ofExpr(ir::Literal::makeReal(-lit->realValue(), lit->precision(), loc),
                         ScalarHint::Real);
  }
  auto node = call(ir::Builtin::make(ir::BuiltinOp::Neg, 0, loc), {a.expr}, loc);
  return Value::ofExpr(node, a.hint);
}

// {a, b}: a complex number when both parts are known numeric scalars and one is real
// ({cos(x), sin(x)}, {1.0, 0}); a complex literal when both are literals; otherwise a tuple
// (which type inference still turns into a complex where one is expected, e.g. {0, 0}).
Value Elaborator::evalTuple(const ast::Expr& e, const Env& env) {
  std::vector<Value> parts;
  for (const auto& x : e.elems) parts.push_back(eval(*x, env));
  auto hintOf = [](const Value& v) {
    return v.kind == ValueKind::Int ? ScalarHint::Int : v.kind == ValueKind::Expr ? v.hint : ScalarHint::None;
  };
  if (parts.size() == 2) {
    ScalarHint h0 = hintOf(parts[0]), h1 = hintOf(parts[1]);
    if (h0 != ScalarHint::None && h1 != ScalarHint::None &&
        (h0 == ScalarHint::Real || h1 == ScalarHint::Real)) {
      auto literalValue = [](const Value& v, double& out, bool& isFloat) {
        if (v.kind == ValueKind::Int) {
          if (auto c = v.i.constant()) {
            out = static_cast<double>(*c);
            return true;
          }
          return false;
        }
        const auto* lit = v.expr->as<ir::Literal>();
        if (!lit) return false;
        if (lit->litKind() == ir::LiteralKind::Real) {
          out = lit->realValue();
          isFloat = isFloat || lit->precision() == ir::ScalarKind::Float;
          return true;
        }
        if (lit->litKind() == ir::LiteralKind::Int) {
          if (auto c = lit->intValue().constant()) {
            out = static_cast<double>(*c);
            return true;
          }
        }
        return false;
      };
      double re = 0, im = 0;
      bool isFloat = false;
      if (literalValue(parts[0], re, isFloat) && literalValue(parts[1], im, isFloat)) {
        return Value::ofExpr(ir::Literal::makeComplex(re, im, opts_.precision, e.loc));
      }
      auto mk = ir::Builtin::make(ir::BuiltinOp::MakeComplex, 0, e.loc);
      return Value::ofExpr(call(mk,
                                             {toExpr(parts[0], e.elems[0]->loc, "a complex part"),
                                              toExpr(parts[1], e.elems[1]->loc, "a complex part")},
                                             e.loc));
    }
  }
  std::vector<ir::ExprPtr> comps;
  for (size_t i = 0; i < parts.size(); ++i) {
    comps.push_back(toExpr(parts[i], e.elems[i]->loc, "a tuple component"));
  }
  auto mk = ir::Builtin::make(ir::BuiltinOp::MakeTuple, comps.size(), e.loc);
  return Value::ofExpr(call(mk, std::move(comps), e.loc));
}

Value Elaborator::evalIndex(const ast::Expr& e, const Env& env) {
  Value list = eval(*e.elems[0], env);
  Value index = eval(*e.elems[1], env);
  if (list.kind != ValueKind::List) {
    fail(e.loc, fmt::format("only compile-time lists can be indexed with [ ], this is {}",
                            describe(list)));
  }
  int64_t i = toConstInt(index, e.elems[1]->loc, "a list index");
  if (i < 0 || i >= static_cast<int64_t>(list.list.size())) {
    fail(e.elems[1]->loc, fmt::format("list index {} is out of range (the list has {} elements)",
                                      i, list.list.size()));
  }
  return Value::ofInt(list.list[static_cast<size_t>(i)]);
}

// pipe(q in A .. B) E = E[q:=B-1] o ... o E[q:=A]: E[A] is applied first.
Value Elaborator::evalPipe(const ast::Expr& e, const Env& env) {
  int64_t from = toConstInt(eval(*e.elems[0], env), e.elems[0]->loc, "the start of a pipe range");
  int64_t to = toConstInt(eval(*e.elems[1], env), e.elems[1]->loc, "the end of a pipe range");
  if (to > from && to - from > opts_.maxPipeLength) {
    fail(e.loc, fmt::format("pipe range {} .. {} is too long (at most {} iterations)", from, to,
                            opts_.maxPipeLength));
  }
  FunRef acc;
  for (int64_t q = from; q < to; ++q) {
    Value stage = eval(*e.elems[2], bind(env, e.params[0].name, Value::ofInt(ir::ArithExpr(q))));
    if (stage.kind != ValueKind::Fun) {
      fail(e.elems[2]->loc, fmt::format("the body of a pipe must be a function, got {}", describe(stage)));
    }
    if (!acc) {
      acc = stage.fun;
      continue;
    }
    auto c = std::make_shared<FunValue>();
    c->kind = FunKind::Compose;
    c->loc = e.loc;
    c->f = stage.fun;
    c->g = acc;
    acc = c;
  }
  if (!acc) return Value::ofFun(makeBuiltin(BuiltinId::Id, e.loc));
  return Value::ofFun(acc);
}

}  // namespace fftc::compiler::frontend
