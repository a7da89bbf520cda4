// Type inference: a bottom-up pass that returns a typed copy of the program (see infer.h).
// Functions are typed where they are applied (a Lambda's Params get the argument types), so a
// function used at two types is simply typed twice, once per use.
#include "ir/infer.h"

#include <algorithm>
#include <iterator>
#include <unordered_map>

#include "ir/arith/arith_overflow.h"

namespace fftc::ir {

// Nodes by address; the weak pointer tells a live node from a new one at a freed address.
// `nesting` is the enclosing mapGlobal/Workgroup/Local stack the node was typed in (its
// nesting checks depend on it), packed 4 bits a level.
struct InferMemo {
  struct Entry {
    std::weak_ptr<const Expr> node;
    uint64_t nesting;
  };
  std::unordered_map<const Expr*, Entry> typed;
  ScalarKind real = ScalarKind::Float;
  size_t sweepAt = 1 << 16;

  // Entries of freed nodes are dropped once the table doubled: it stays proportional to the
  // live program, not to every version a normalize went through.
  void sweep() {
    if (typed.size() < sweepAt) return;
    for (auto it = typed.begin(); it != typed.end();)
      it = it->second.node.expired() ? typed.erase(it) : std::next(it);
    sweepAt = std::max<size_t>(1 << 16, 2 * typed.size());
  }
};

std::shared_ptr<InferMemo> makeInferMemo() { return std::make_shared<InferMemo>(); }

namespace {

std::string plural(size_t n, const char* word) {
  return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// The precision that wins where reals meet (C: float op double -> double).
ScalarKind widest(ScalarKind a, ScalarKind b) {
  if (a == ScalarKind::Double || b == ScalarKind::Double) return ScalarKind::Double;
  if (a == ScalarKind::Float || b == ScalarKind::Float) return ScalarKind::Float;
  return ScalarKind::Int;
}

// A tuple of two int/real scalars written where a complex is expected ({0, 0}, {a, b}).
bool isComplexCoercible(const ExprPtr& e) {
  const auto* c = e->as<FunCall>();
  if (!c) return false;
  const auto* b = c->f()->as<Builtin>();
  if (!b || b->op() != BuiltinOp::MakeTuple || c->args().size() != 2) return false;
  for (const auto& a : c->args())
    if (!a->type() || !a->type().isScalar()) return false;
  return true;
}

ExprPtr coerceToComplex(const ExprPtr& e, ScalarKind precision) {
  const auto* c = e->as<FunCall>();
  const auto* l0 = c->arg(0)->as<Literal>();
  const auto* l1 = c->arg(1)->as<Literal>();
  auto constValue = [](const Literal* l) -> std::optional<double> {
    if (l->litKind() == LiteralKind::Real) return l->realValue();
    if (auto v = l->intValue().constant()) return static_cast<double>(*v);
    return std::nullopt;
  };
  if (l0 && l1) {
    auto re = constValue(l0), im = constValue(l1);
    if (re && im) return Literal::makeComplex(*re, *im, precision, e->loc());
  }
  return FunCall::make(Builtin::make(BuiltinOp::MakeComplex, 0, c->f()->loc()), c->args(),
                       e->loc(), Type::complex(precision));
}

// An IRMutator whose FunCall step is the typed one (mutateChildrenTyped): arguments first,
// then the callee typed at their types (mutateCallee). Functions are typed where they are
// applied, so the patterns' function children are typed here, by the rules of each pattern.
class Inferer : public IRMutator {
 public:
  explicit Inferer(const InferOptions& o) : opt_(o) {
    if (opt_.memo && opt_.memo->typed.empty()) opt_.memo->real = opt_.real;
    if (opt_.memo && opt_.memo->real != opt_.real) opt_.memo = nullptr;
  }

  using IRMutator::mutate;
  ExprPtr mutate(const ExprPtr& e) override {
    if (e->kind() != ExprKind::FunCall) return exprUncached(e);
    InferMemo* memo = opt_.memo.get();
    const uint64_t nesting = nestingKey();
    if (memo && renamed_ == 0 && nesting != kNoKey) {
      auto it = memo->typed.find(e.get());
      if (it != memo->typed.end() && it->second.nesting == nesting && !it->second.node.expired())
        return e;
    }
    ExprPtr r = exprUncached(e);
    if (memo && nesting != kNoKey) {
      memo->sweep();
      memo->typed[r.get()] = {r, nesting};
    }
    return r;
  }
  TypedFun apply(const FunPtr& f, std::vector<Type> argTypes, const SourceLoc& callLoc);

 protected:
  // Converts the arguments where the callee expects a complex, then types the callee at them.
  TypedFun mutateCallee(const FunCall& c, std::vector<ExprPtr>& args) override {
    args = coerceArgs(*c.f(), std::move(args));
    std::vector<Type> types;
    types.reserve(args.size());
    for (const auto& a : args) types.push_back(a->type());
    return apply(c.f(), std::move(types), c.loc());
  }

 private:
  TypedFun applyLambda(const Lambda& l, const std::vector<Type>& args, const SourceLoc& loc);
  void bind(const Param* p, const ParamPtr& typed) {
    unbind(p);
    env_[p] = typed;
    if (typed.get() != p) ++renamed_;
  }
  void unbind(const Param* p) {
    auto it = env_.find(p);
    if (it == env_.end()) return;
    if (it->second.get() != p) --renamed_;
    env_.erase(it);
  }
  Type applyBuiltin(const Builtin& b, const std::vector<Type>& args, const SourceLoc& loc);
  TypedFun applyPattern(const FunDecl& f, const std::vector<Type>& args, const SourceLoc& loc);
  TypedFun applyMap(const AbstractMap& m, const Type& arg, const SourceLoc& loc);
  TypedFun applyReduce(const AbstractReduce& r, const Type& arg, const SourceLoc& loc);
  void checkNesting(const AbstractMap& m, const SourceLoc& loc) const;
  // parallel_'s dimension of a mapCluster (a mapWorkgroup(0) of a cluster): its own code.
  static constexpr int kClusterDim = 3;
  static constexpr int kBlockDim = 4;  // a mapBlock's
  static int nestingDim(const AbstractMap& m) {
    const auto* w = m.as<MapWorkgroup>();
    return w && w->cluster() > 1 ? kClusterDim : w && w->blocks() ? kBlockDim : m.dim();
  }
  std::vector<ExprPtr> coerceArgs(const FunDecl& f, std::vector<ExprPtr> args);

  ExprPtr exprUncached(const ExprPtr& e);
  static constexpr uint64_t kNoKey = ~uint64_t{0};
  // parallel_ packed 4 bits a level (kind, dim), with a leading 1; kNoKey when too deep.
  uint64_t nestingKey() const {
    if (parallel_.size() > 15) return kNoKey;
    uint64_t k = 1;
    for (const auto& [kind, dim] : parallel_) {
      uint64_t code = kind == FunKind::MapGlobal ? 0 : kind == FunKind::MapWorkgroup ? 1 : 2;
      k = (k << 4) | (code << 2) | static_cast<uint64_t>(dim & 3);
    }
    return k;
  }

  InferOptions opt_;
  std::unordered_map<const Param*, ParamPtr> env_;   // original Param -> typed Param
  // Bindings in env_ that map a Param to another (a Lambda typed anew): while there are any,
  // memoized nodes may refer to a Param that now stands for another, so the memo is not used.
  int renamed_ = 0;
  std::vector<std::pair<FunKind, int>> parallel_;  // enclosing mapGlobal/Workgroup/Local
};

[[noreturn]] void fail(const SourceLoc& loc, const std::string& msg) { throw CompileError(loc, msg); }

// The location to blame: the call's if known, else the function's.
const SourceLoc& pick(const SourceLoc& callLoc, const FunDecl& f) {
  return callLoc.known() ? callLoc : f.loc();
}

ExprPtr Inferer::exprUncached(const ExprPtr& e) {
  switch (e->kind()) {
    case ExprKind::Param: {
      const auto* p = e->as<Param>();
      if (auto it = env_.find(p); it != env_.end()) return it->second;
      if (!p->type())
        fail(p->loc(), "parameter " + p->name() +
                           " is used outside its function or has no type (a kernel input "
                           "needs a type)");
      return e;
    }
    case ExprKind::Literal: return e;
    case ExprKind::FunCall: return mutateChildrenTyped(e);
  }
  return e;
}

std::vector<ExprPtr> Inferer::coerceArgs(const FunDecl& f, std::vector<ExprPtr> args) {
  if (const auto* b = f.as<Builtin>()) {
    bool arith = b->op() == BuiltinOp::Add || b->op() == BuiltinOp::Sub ||
                 b->op() == BuiltinOp::Mul || b->op() == BuiltinOp::Div;
    if (arith && args.size() == 2) {
      for (int i = 0; i < 2; ++i)
        if (args[1 - i]->type().isComplex() && isComplexCoercible(args[i]))
          args[i] = coerceToComplex(args[i], args[1 - i]->type().scalarKind());
    }
  } else if (const auto* u = f.as<UserFun>()) {
    for (size_t i = 0; i < args.size() && i < u->arity(); ++i)
      if (u->paramTypes()[i].isComplex() && isComplexCoercible(args[i]))
        args[i] = coerceToComplex(args[i], u->paramTypes()[i].scalarKind());
  }
  return args;
}

TypedFun Inferer::apply(const FunPtr& f, std::vector<Type> args, const SourceLoc& callLoc) {
  const SourceLoc& loc = pick(callLoc, *f);
  for (const auto& t : args)
    if (!t) fail(loc, f->name() + ": an argument has no type");
  // A function of k > 1 parameters applied to one k-tuple takes its components.
  size_t k = f->arity();
  if (k > 1 && args.size() == 1 && args[0].isTuple() && args[0].components().size() == k)
    args = std::vector<Type>(args[0].components());
  if (args.size() != k) {
    std::string got;
    for (size_t i = 0; i < args.size(); ++i) got += (i ? ", " : "") + args[i].str();
    fail(loc, f->name() + ": expects " + plural(k, "argument") + ", got " +
                  plural(args.size(), "argument") + (args.empty() ? "" : " (" + got + ")"));
  }
  switch (f->kind()) {
    case FunKind::Lambda: return applyLambda(*f->as<Lambda>(), args, loc);
    case FunKind::Builtin: return {f, applyBuiltin(*f->as<Builtin>(), args, loc)};
    case FunKind::UserFun: {
      const auto* u = f->as<UserFun>();
      for (size_t i = 0; i < k; ++i)
        if (args[i] != u->paramTypes()[i])
          fail(loc, "userfun " + u->name() + ": parameter " + u->paramNames()[i] + " is " +
                        u->paramTypes()[i].str() + " but the argument is " + args[i].str());
      return {f, u->returnType()};
    }
    default:
      // Sizes are folded as they are built (pad's n + l + r, slide's, a generator's): constants
      // past 64 bits are a user error at this pattern, not an internal one.
      try {
        return applyPattern(*f, args, loc);
      } catch (const ArithOverflow& e) {
        fail(loc, f->name() + ": its sizes overflow 64-bit integers (" + e.what() + ")");
      }
  }
}

TypedFun Inferer::applyLambda(const Lambda& l, const std::vector<Type>& args,
                              const SourceLoc& loc) {
  std::vector<ParamPtr> params;
  std::vector<std::pair<const Param*, std::optional<ParamPtr>>> saved;
  bool sameParams = true;
  for (size_t i = 0; i < args.size(); ++i) {
    const ParamPtr& p = l.params()[i];
    ParamPtr typed = p;
    if (p->annotated()) {
      if (p->type() != args[i])
        fail(p->loc().known() ? p->loc() : loc, "parameter " + p->name() + " is declared " +
                                                     p->type().str() + " but the argument is " +
                                                     args[i].str());
    } else if (!p->type() || p->type() != args[i]) {
      typed = p->withType(args[i]);
      sameParams = false;
    }
    params.push_back(typed);
    auto it = env_.find(p.get());
    saved.emplace_back(p.get(), it == env_.end() ? std::nullopt : std::optional(it->second));
    bind(p.get(), typed);
  }
  auto restore = [&] {
    for (auto& [p, old] : saved) old ? bind(p, *old) : unbind(p);
  };
  ExprPtr body;
  try {
    body = mutate(l.body());
  } catch (...) {
    restore();
    throw;
  }
  restore();
  Type result = body->type();
  if (sameParams && body == l.body()) return {l.ptr(), result};
  return {Lambda::make(std::move(params), std::move(body), l.loc()), result};
}

Type Inferer::applyBuiltin(const Builtin& b, const std::vector<Type>& args, const SourceLoc& loc) {
  const std::string name = b.name();
  auto needNumeric = [&](const Type& t) {
    if (!t.isNumeric()) fail(loc, name + ": expects numbers, got " + t.str());
  };
  switch (b.op()) {
    case BuiltinOp::Add:
    case BuiltinOp::Sub:
    case BuiltinOp::Mul:
    case BuiltinOp::Div:
    case BuiltinOp::Mod: {
      needNumeric(args[0]);
      needNumeric(args[1]);
      ScalarKind p = widest(args[0].scalarKind(), args[1].scalarKind());
      if (args[0].isComplex() || args[1].isComplex()) {
        if (b.op() == BuiltinOp::Mod) fail(loc, "mod: not defined on complex values");
        return Type::complex(p);
      }
      return Type::scalar(p);
    }
    case BuiltinOp::Neg: needNumeric(args[0]); return args[0];
    case BuiltinOp::Cos:
    case BuiltinOp::Sin:
    case BuiltinOp::Sqrt:
    case BuiltinOp::Exp:
      if (args[0].isInt()) return Type::real(opt_.real);
      if (args[0].isReal()) return args[0];
      if (b.op() == BuiltinOp::Exp && args[0].isComplex()) return args[0];
      fail(loc, name + ": expects a real, got " + args[0].str());
    case BuiltinOp::Conj:
      if (args[0].isComplex()) return args[0];
      fail(loc, "conj: expects a complex, got " + args[0].str());
    case BuiltinOp::Re:
    case BuiltinOp::Im:
      if (args[0].isComplex()) return Type::real(args[0].scalarKind());
      fail(loc, name + ": expects a complex, got " + args[0].str());
    case BuiltinOp::CisPi:
      if (args[0].isInt()) return Type::complex(opt_.real);
      if (args[0].isReal()) return Type::complex(args[0].scalarKind());
      fail(loc, "cispi: expects a real, got " + args[0].str());
    case BuiltinOp::CisPiRatio:
      if (args[0].isInt() && args[1].isInt()) return Type::complex(b.precision());
      fail(loc, "cispiRatio: expects two ints, got " + args[0].str() + " and " + args[1].str());
    case BuiltinOp::MakeComplex: {
      for (const auto& t : args)
        if (!t.isScalar()) fail(loc, "complex: expects two reals, got " + t.str());
      ScalarKind p = widest(args[0].scalarKind(), args[1].scalarKind());
      return Type::complex(p == ScalarKind::Int ? opt_.real : p);
    }
    case BuiltinOp::MakeTuple: return Type::tuple(args);
  }
  fail(loc, "unknown builtin " + name);
}

void Inferer::checkNesting(const AbstractMap& m, const SourceLoc& loc) const {
  auto show = [](FunKind k, int d) {
    if (d == kClusterDim) return std::string("mapCluster");
    if (d == kBlockDim) return std::string("mapBlock");
    return std::string(k == FunKind::MapGlobal     ? "mapGlobal"
                       : k == FunKind::MapWorkgroup ? "mapWorkgroup"
                                                    : "mapLocal") +
           "(" + std::to_string(d) + ")";
  };
  const int myDim = nestingDim(m);
  const std::string me = show(m.kind(), myDim);
  bool inWorkgroup = false, inCluster = false;
  for (const auto& [k, d] : parallel_) {
    const std::string outer = show(k, d);
    switch (m.kind()) {
      case FunKind::MapGlobal:
        if (k == FunKind::MapGlobal && d == m.dim())
          fail(loc, me + " inside " + outer + ": dimension " + std::to_string(d) +
                        " is already distributed over work-items");
        if (k != FunKind::MapGlobal)
          fail(loc, me + " inside " + outer + ": mapGlobal cannot be nested in work-group "
                                              "or local parallelism");
        break;
      case FunKind::MapWorkgroup:
        if (k == FunKind::MapGlobal)
          fail(loc, me + " inside " + outer + ": global and work-group parallelism do not mix");
        if (k == FunKind::MapLocal)
          fail(loc, me + " inside " + outer + ": work-groups cannot be nested in work-items");
        // A cluster is the work-group level of its kernel: it neither nests nor holds another.
        // A cluster is the work-group level of its kernel: it neither nests nor holds another,
        // but for the one level of its blocks (mapBlock, directly inside it).
        if (myDim == kBlockDim && d == kClusterDim) {
          inCluster = true;
          break;
        }
        if (myDim == kBlockDim && k == FunKind::MapWorkgroup)
          fail(loc, me + " inside " + outer + ": mapBlock must be nested inside a mapCluster, "
                                              "its rows are the cluster's blocks");
        if (d == kClusterDim || d == kBlockDim ||
            ((myDim == kClusterDim || myDim == kBlockDim) && k == FunKind::MapWorkgroup))
          fail(loc, me + " inside " + outer + ": a thread-block cluster is the only work-group "
                                              "level of its work-items");
        if (d == m.dim())
          fail(loc, me + " inside " + outer + ": dimension " + std::to_string(d) +
                        " is already distributed over work-groups");
        break;
      default:  // MapLocal
        if (k == FunKind::MapGlobal)
          fail(loc, me + " inside " + outer + ": mapLocal must be nested in mapWorkgroup, "
                                              "not mapGlobal");
        if (k == FunKind::MapLocal && d == m.dim())
          fail(loc, me + " inside " + outer + ": dimension " + std::to_string(d) +
                        " is already distributed over local work-items");
        // Any dimension: a mapLocal(d) without a mapWorkgroup(d) has one work-group in d
        // (several FFT rows of one work-group on local dimension 1, say).
        if (k == FunKind::MapWorkgroup) inWorkgroup = true;
    }
  }
  if (m.kind() == FunKind::MapLocal && !inWorkgroup)
    fail(loc, me + " must be nested inside a mapWorkgroup");
  if (myDim == kBlockDim && !inCluster)
    fail(loc, "mapBlock must be nested inside a mapCluster: its rows are the cluster's blocks");
}

TypedFun Inferer::applyMap(const AbstractMap& m, const Type& arg, const SourceLoc& loc) {
  if (!arg.isArray()) fail(loc, m.name() + ": expects an array, got " + arg.str());
  bool par = m.dim() >= 0;
  if (par) {
    checkNesting(m, loc);
    parallel_.emplace_back(m.kind(), nestingDim(m));
  }
  TypedFun inner;
  try {
    inner = apply(m.f(), {arg.element()}, m.f()->loc().known() ? m.f()->loc() : loc);
  } catch (...) {
    if (par) parallel_.pop_back();
    throw;
  }
  if (par) parallel_.pop_back();
  return {m.withChildren({inner.f}, {}), Type::array(inner.result, arg.size())};
}

TypedFun Inferer::applyReduce(const AbstractReduce& r, const Type& arg, const SourceLoc& loc) {
  if (!arg.isArray()) fail(loc, r.name() + ": expects an array, got " + arg.str());
  ExprPtr init = mutate(r.init());
  const Type& elem = arg.element();
  if (isComplexCoercible(init)) {
    std::optional<ScalarKind> want;
    if (elem.isComplex()) want = elem.scalarKind();
    if (const auto* u = r.f()->as<UserFun>(); u && u->arity() >= 1 && u->paramTypes()[0].isComplex())
      want = u->paramTypes()[0].scalarKind();
    if (want) init = coerceToComplex(init, *want);
  }
  const SourceLoc& floc = r.f()->loc().known() ? r.f()->loc() : loc;
  TypedFun f;
  if (isComplexCoercible(init) && !init->type().isComplex()) {
    // The elements do not show the accumulator's type (e.g. zipped pairs): `{0, 0}` is a
    // complex when the function only types that way (the paper's reduce(+, {0, 0}) o zip).
    try {
      f = apply(r.f(), {init->type(), elem}, floc);
    } catch (const CompileError&) {
      ScalarKind precision = opt_.real;
      for (const Type& c : elem.isTuple() ? elem.components() : std::vector<Type>{})
        if (c.isComplex()) precision = c.scalarKind();
      init = coerceToComplex(init, precision);
      f = apply(r.f(), {init->type(), elem}, floc);
    }
  } else {
    f = apply(r.f(), {init->type(), elem}, floc);
  }
  const Type& acc = init->type();
  if (f.result != acc)
    fail(loc, r.name() + ": the function returns " + f.result.str() +
                  " but the accumulator (initial value) is " + acc.str());
  return {r.withChildren({f.f}, {init}), acc};
}

TypedFun Inferer::applyPattern(const FunDecl& f, const std::vector<Type>& args,
                               const SourceLoc& loc) {
  const std::string name = f.name();
  auto array = [&](const Type& t, const std::string& what) {
    if (!t.isArray()) fail(loc, name + ": expects " + what + ", got " + t.str());
  };
  auto twoD = [&](const Type& t) {
    if (!t.isArray() || !t.element().isArray())
      fail(loc, name + ": expects a 2-dimensional array, got " + t.str());
  };
  if (const auto* m = f.as<AbstractMap>()) return applyMap(*m, args[0], loc);
  if (const auto* r = f.as<AbstractReduce>()) return applyReduce(*r, args[0], loc);
  if (const auto* t = f.as<AbstractTo>()) {
    TypedFun inner = apply(t->f(), args, loc);
    return {t->withChildren({inner.f}, {}), inner.result};
  }
  switch (f.kind()) {
    case FunKind::Zip: {
      std::vector<Type> comps;
      for (size_t i = 0; i < args.size(); ++i) {
        if (!args[i].isArray())
          fail(loc, "zip: argument " + std::to_string(i + 1) + " is not an array: " +
                        args[i].str());
        if (!sizesEqual(args[i].size(), args[0].size()))
          fail(loc, "zip: sizes differ: " + args[0].size().str() + " and " +
                        args[i].size().str());
        comps.push_back(args[i].element());
      }
      return {f.ptr(), Type::array(Type::tuple(comps), args[0].size())};
    }
    case FunKind::Split: {
      const ArithExpr& m = f.as<Split>()->chunk();
      const bool vec = f.as<Split>()->vector();
      const std::string me = (vec ? "asVector(" : "split(") + m.str() + ")";
      if (vec && args[0].isArray() && !args[0].element().isScalar())
        fail(loc, me + ": expects an array of scalars, got " + args[0].str());
      if (vec && args[0].isArray() && args[0].element().scalarKind() == ScalarKind::Double &&
          m.constant() && *m.constant() > 2)
        fail(loc, me + ": a vector holds at most 16 bytes (double2)");
      if (!args[0].isArray()) fail(loc, me + ": expects an array, got " + args[0].str());
      const ArithExpr& n = args[0].size();
      if (auto mc = m.constant(); mc && *mc <= 0) fail(loc, me + ": the chunk size must be positive");
      if (!provablyDivisible(n, m)) {
        auto rem = (n % m).constant();
        if (rem && *rem != 0) fail(loc, me + ": " + m.str() + " does not divide " + n.str());
      }
      return {f.ptr(), Type::array(vec ? Type::vector(args[0].element(), m)
                                           : Type::array(args[0].element(), m),
                                       n / m)};
    }
    case FunKind::Join: {
      twoD(args[0]);
      if (f.as<Join>()->scalar() != args[0].element().isVector())
        fail(loc, f.as<Join>()->scalar()
                      ? "asScalar: expects an array of vectors, got " + args[0].str()
                      : "join: expects an array of arrays, got an array of vectors " +
                            args[0].str() + " (asScalar joins vectors)");
      const Type& inner = args[0].element();
      return {f.ptr(), Type::array(inner.element(), inner.size() * args[0].size())};
    }
    case FunKind::Transpose: {
      twoD(args[0]);
      const Type& inner = args[0].element();
      return {f.ptr(), Type::array(Type::array(inner.element(), args[0].size()), inner.size())};
    }
    case FunKind::ArrayGen: {
      const auto* g = f.as<ArrayGen>();
      std::vector<Type> ints(2 * g->sizes().size(), Type::intType());
      TypedFun inner = apply(g->f(), ints, g->f()->loc().known() ? g->f()->loc() : loc);
      return {g->withChildren({inner.f}, {}), Type::nestedArray(inner.result, g->sizes())};
    }
    case FunKind::Table: return {f.ptr(), f.as<Table>()->type()};
    case FunKind::Pad: {
      const auto* p = f.as<Pad>();
      array(args[0], "an array");
      const Type& elem = args[0].element();
      ExprPtr value;
      if (p->value()) {
        value = mutate(p->value());
        if (elem.isComplex() && isComplexCoercible(value))
          value = coerceToComplex(value, elem.scalarKind());
        if (value->type() != elem)
          fail(loc, "pad: the constant is " + value->type().str() + " but the elements are " +
                        elem.str());
      } else if (auto n = args[0].size().constant(); n && *n == 0) {
        fail(loc, "pad: " + padBoundaryName(p->boundary()) + " needs a non-empty array");
      }
      FunPtr typed = value ? p->withChildren({}, {value}) : f.ptr();
      return {typed, Type::array(elem, p->left() + args[0].size() + p->right())};
    }
    case FunKind::Crop: {
      const auto* c = f.as<Crop>();
      const std::string me = "crop(" + c->left().str() + ", " + c->right().str() + ")";
      if (!args[0].isArray()) fail(loc, me + ": expects an array, got " + args[0].str());
      const ArithExpr& n = args[0].size();
      if (provablyLess(n, c->left() + c->right()))
        fail(loc, me + ": drops more elements than the array has (" + n.str() + ")");
      return {f.ptr(), Type::array(args[0].element(), n - c->left() - c->right())};
    }
    case FunKind::Gather: {
      const auto& idx = f.as<Gather>()->indices();
      if (!args[0].isArray()) fail(loc, "gather: expects an array, got " + args[0].str());
      const ArithExpr& n = args[0].size();
      // One proof for the largest index covers them all (j <= max < n): a Rader permutation
      // has N - 1 indices and rewriting infers it again after every step (issue 21: 1009 f32
      // spent a quarter of `fftc fft` here). One by one only to name the first index that fails.
      const bool all =
          idx.empty() || provablyLess(ArithExpr(*std::max_element(idx.begin(), idx.end())), n);
      if (!all)
        for (int64_t j : idx)
          if (!provablyLess(ArithExpr(j), n))
            fail(loc, "gather: the index " + std::to_string(j) +
                          " is not provably below the size " + n.str() + " of the array");
      return {f.ptr(), Type::array(args[0].element(), static_cast<int64_t>(idx.size()))};
    }
    case FunKind::Slide: {
      const auto* s = f.as<Slide>();
      const std::string me = "slide(" + s->size().str() + ", " + s->step().str() + ")";
      if (!args[0].isArray()) fail(loc, me + ": expects an array, got " + args[0].str());
      const ArithExpr& n = args[0].size();
      if (provablyLess(n, s->size()))
        fail(loc, me + ": the window " + s->size().str() + " is larger than the array (" +
                      n.str() + ")");
      ArithExpr windows = (n - s->size() + s->step()) / s->step();
      return {f.ptr(), Type::array(Type::array(args[0].element(), s->size()), windows)};
    }
    case FunKind::Iterate: {
      const auto* it = f.as<Iterate>();
      const SourceLoc& floc = it->f()->loc().known() ? it->f()->loc() : loc;
      TypedFun first = apply(it->f(), {args[0]}, floc);
      if (!sameModuloSizes(first.result, args[0]))
        fail(loc, "iterate: the function maps " + args[0].str() + " to " + first.result.str() +
                      "; it must keep the type (sizes may change)");
      // A step that keeps the type ends the walk: every later step is the same step (so
      // iterate(10^9, map(id)) types at once). Steps that change sizes are followed one by
      // one, up to a budget.
      Type t = it->count() == 0 ? args[0] : first.result;
      Type before = args[0];
      for (int64_t i = 1; i < it->count() && t != before; ++i) {
        if (i >= opt_.maxIterateSteps)
          fail(loc, "iterate: " + std::to_string(it->count()) +
                        " steps that change the sizes each time are more than type inference "
                        "follows (" + std::to_string(opt_.maxIterateSteps) + ")");
        before = t;
        t = apply(it->f(), {t}, floc).result;
      }
      return {it->withChildren({first.f}, {}), t};
    }
    case FunKind::Id: return {f.ptr(), args[0]};
    case FunKind::Get: {
      size_t i = f.as<Get>()->index();
      const std::string me = "get(" + std::to_string(i) + ")";
      if (args[0].isComplex()) {
        if (i > 1) fail(loc, me + ": a complex value has components 0 (re) and 1 (im)");
        return {f.ptr(), Type::real(args[0].scalarKind())};
      }
      if (!args[0].isTuple()) fail(loc, me + ": expects a tuple, got " + args[0].str());
      if (i >= args[0].components().size())
        fail(loc, me + ": the tuple " + args[0].str() + " has " +
                      plural(args[0].components().size(), "component"));
      return {f.ptr(), args[0].components()[i]};
    }
    default: break;
  }
  fail(loc, "cannot type " + name);
}

}  // namespace

ExprPtr inferTypes(const ExprPtr& e, const InferOptions& options) {
  Inferer inf(options);
  return inf.mutate(e);
}

LambdaPtr inferTypes(const LambdaPtr& f, const InferOptions& options) {
  std::vector<Type> types;
  for (const auto& p : f->params()) {
    if (!p->type())
      throw CompileError(p->loc().known() ? p->loc() : f->loc(),
                         "parameter " + p->name() + " needs a type");
    types.push_back(p->type());
  }
  Inferer inf(options);
  TypedFun tf = inf.apply(f, types, f->loc());
  return std::static_pointer_cast<const Lambda>(tf.f);
}

TypedFun inferCall(const FunPtr& f, const std::vector<Type>& argTypes, const InferOptions& options) {
  Inferer inf(options);
  return inf.apply(f, argTypes, f->loc());
}

}  // namespace fftc::ir
