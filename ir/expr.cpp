// Construction, checking make() functions and generic rebuilding of IR nodes.
#include "ir/expr.h"

#include <atomic>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace fftc::ir {

namespace {
std::atomic<uint64_t> nextParamId{1};

void expectCount(const char* what, size_t got, size_t want) {
  if (got != want)
    throw std::invalid_argument(std::string("withChildren: ") + what + ": expected " +
                                std::to_string(want) + " children, got " + std::to_string(got));
}

std::string realStr(double v, ScalarKind p) {
  char buf[64];
  std::snprintf(buf, sizeof buf, p == ScalarKind::Float ? "%.9g" : "%.17g", v);
  std::string s = buf;
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";  // keep it a real ("n": nan/inf)
  if (p == ScalarKind::Float) s += "f";
  return s;
}
}  // namespace

// ---- Param, Literal, FunCall

Param::Param(std::string name, Type t, SourceLoc loc, bool annotated)
    : Expr(ExprKind::Param, std::move(t), std::move(loc)),
      name_(std::move(name)),
      id_(nextParamId++),
      annotated_(annotated) {}

ParamPtr Param::make(std::string name, Type type, SourceLoc loc) {
  bool annotated = static_cast<bool>(type);
  return std::make_shared<const Param>(std::move(name), std::move(type), std::move(loc),
                                       annotated);
}

ParamPtr Param::withType(Type t) const {
  return std::make_shared<const Param>(name_, std::move(t), loc(), annotated_);
}

Literal::Literal(LiteralKind k, Type t, ArithExpr i, double re, double im, SourceLoc loc)
    : Expr(ExprKind::Literal, std::move(t), std::move(loc)),
      litKind_(k),
      int_(std::move(i)),
      re_(re),
      im_(im) {}

LiteralPtr Literal::makeInt(ArithExpr value, SourceLoc loc) {
  return std::make_shared<const Literal>(LiteralKind::Int, Type::intType(), std::move(value), 0.0,
                                         0.0, std::move(loc));
}

LiteralPtr Literal::makeReal(double value, ScalarKind precision, SourceLoc loc) {
  if (precision == ScalarKind::Int) throw std::invalid_argument("makeReal: precision int");
  if (precision == ScalarKind::Float) value = static_cast<float>(value);
  return std::make_shared<const Literal>(LiteralKind::Real, Type::real(precision), ArithExpr(),
                                         value, 0.0, std::move(loc));
}

LiteralPtr Literal::makeComplex(double re, double im, ScalarKind precision, SourceLoc loc) {
  if (precision == ScalarKind::Int) throw std::invalid_argument("makeComplex: precision int");
  if (precision == ScalarKind::Float) {
    re = static_cast<float>(re);
    im = static_cast<float>(im);
  }
  return std::make_shared<const Literal>(LiteralKind::Complex, Type::complex(precision),
                                         ArithExpr(), re, im, std::move(loc));
}

std::string Literal::valueStr() const {
  switch (litKind_) {
    case LiteralKind::Int: return int_.str();
    case LiteralKind::Real: return realStr(re_, precision());
    case LiteralKind::Complex:
      return "{" + realStr(re_, precision()) + ", " + realStr(im_, precision()) + "}";
  }
  return "?";
}

FunCall::FunCall(FunPtr f, std::vector<ExprPtr> args, SourceLoc loc, Type type)
    : Expr(ExprKind::FunCall, std::move(type), std::move(loc)),
      f_(std::move(f)),
      args_(std::move(args)) {}

FunCallPtr FunCall::make(FunPtr f, std::vector<ExprPtr> args, SourceLoc loc, Type type) {
  if (!f) throw std::invalid_argument("FunCall::make: null function");
  for (const auto& a : args)
    if (!a) throw std::invalid_argument("FunCall::make: null argument");
  return std::make_shared<const FunCall>(std::move(f), std::move(args), std::move(loc),
                                         std::move(type));
}

ExprPtr FunCall::rebuild(FunPtr f, std::vector<ExprPtr> args, Type type) const {
  bool same = f == f_ && args == args_ && type == this->type() &&
              static_cast<bool>(type) == static_cast<bool>(this->type());
  if (same) return ptr();
  return make(std::move(f), std::move(args), loc(), std::move(type));
}

// ---- FunDecl

std::string FunDecl::name() const {
  switch (kind_) {
    case FunKind::Lambda: return "fun";
    case FunKind::UserFun: return "userfun";
    case FunKind::Builtin: return "builtin";
    case FunKind::Map: return "map";
    case FunKind::Reduce: return "reduce";
    case FunKind::Zip: return "zip";
    case FunKind::Split: return "split";
    case FunKind::Join: return "join";
    case FunKind::Transpose: return "transpose";
    case FunKind::ArrayGen: return "array";
    case FunKind::Pad: return "pad";
    case FunKind::Crop: return "crop";
    case FunKind::Slide: return "slide";
    case FunKind::Iterate: return "iterate";
    case FunKind::Id: return "id";
    case FunKind::Get: return "get";
    case FunKind::Gather: return "gather";
    case FunKind::Table: return "table";
    case FunKind::MapGlobal: return "mapGlobal";
    case FunKind::MapWorkgroup: return "mapWorkgroup";
    case FunKind::MapLocal: return "mapLocal";
    case FunKind::MapSeq: return "mapSeq";
    case FunKind::MapSeqUnroll: return "mapSeqUnroll";
    case FunKind::ReduceSeq: return "reduceSeq";
    case FunKind::ReduceSeqUnroll: return "reduceSeqUnroll";
    case FunKind::ToGlobal: return "toGlobal";
    case FunKind::ToLocal: return "toLocal";
    case FunKind::ToPrivate: return "toPrivate";
  }
  return "?";
}

FunPtr FunDecl::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount(name().c_str(), funs.size() + exprs.size(), 0);
  return ptr();
}

LambdaPtr Lambda::make(std::vector<ParamPtr> params, ExprPtr body, SourceLoc loc) {
  if (params.empty()) throw CompileError(loc, "a function needs at least one parameter");
  if (!body) throw std::invalid_argument("Lambda::make: null body");
  for (const auto& p : params)
    if (!p) throw std::invalid_argument("Lambda::make: null parameter");
  return std::make_shared<const Lambda>(std::move(params), std::move(body), std::move(loc));
}

Lambda::Lambda(std::vector<ParamPtr> params, ExprPtr body, SourceLoc loc)
    : FunDecl(FunKind::Lambda, std::move(loc)), params_(std::move(params)), body_(std::move(body)) {}

FunPtr Lambda::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount("fun", funs.size(), 0);
  expectCount("fun", exprs.size(), 1);
  if (exprs[0] == body_) return ptr();
  return make(params_, std::move(exprs[0]), loc());
}

UserFun::UserFun(std::string name, std::vector<std::string> paramNames,
                 std::vector<Type> paramTypes, Type returnType, std::string body, SourceLoc loc)
    : FunDecl(FunKind::UserFun, std::move(loc)),
      name_(std::move(name)),
      paramNames_(std::move(paramNames)),
      paramTypes_(std::move(paramTypes)),
      returnType_(std::move(returnType)),
      body_(std::move(body)) {}

std::shared_ptr<const UserFun> UserFun::make(std::string name, std::vector<std::string> paramNames,
                                             std::vector<Type> paramTypes, Type returnType,
                                             std::string body, SourceLoc loc) {
  if (paramNames.size() != paramTypes.size())
    throw std::invalid_argument("UserFun::make: names and types differ in number");
  auto check = [&](const Type& t, const std::string& what) {
    if (!t) throw CompileError(loc, "userfun " + name + ": " + what + " has no type");
    if (t.isArray())
      throw CompileError(loc, "userfun " + name + ": " + what + " is an array (" + t.str() +
                                  "); user functions take and return scalars and tuples");
  };
  for (size_t i = 0; i < paramTypes.size(); ++i)
    check(paramTypes[i], "parameter " + paramNames[i]);
  check(returnType, "the result");
  return std::make_shared<const UserFun>(std::move(name), std::move(paramNames),
                                         std::move(paramTypes), std::move(returnType),
                                         std::move(body), std::move(loc));
}

std::string builtinName(BuiltinOp op) {
  switch (op) {
    case BuiltinOp::Add: return "add";
    case BuiltinOp::Sub: return "sub";
    case BuiltinOp::Mul: return "mult";
    case BuiltinOp::Div: return "div";
    case BuiltinOp::Mod: return "mod";
    case BuiltinOp::Neg: return "neg";
    case BuiltinOp::Cos: return "cos";
    case BuiltinOp::Sin: return "sin";
    case BuiltinOp::Exp: return "exp";
    case BuiltinOp::Sqrt: return "sqrt";
    case BuiltinOp::Conj: return "conj";
    case BuiltinOp::Re: return "re";
    case BuiltinOp::Im: return "im";
    case BuiltinOp::CisPi: return "cispi";
    case BuiltinOp::CisPiRatio: return "cispiRatio";
    case BuiltinOp::MakeComplex: return "complex";
    case BuiltinOp::MakeTuple: return "tuple";
  }
  return "?";
}

Builtin::Builtin(BuiltinOp op, size_t arity, SourceLoc loc, ScalarKind precision)
    : FunDecl(FunKind::Builtin, std::move(loc)), op_(op), arity_(arity), precision_(precision) {}

std::shared_ptr<const Builtin> Builtin::make(BuiltinOp op, size_t tupleArity, SourceLoc loc,
                                             ScalarKind precision) {
  size_t arity = 1;
  switch (op) {
    case BuiltinOp::Add:
    case BuiltinOp::Sub:
    case BuiltinOp::Mul:
    case BuiltinOp::Div:
    case BuiltinOp::Mod:
    case BuiltinOp::CisPiRatio:
    case BuiltinOp::MakeComplex: arity = 2; break;
    case BuiltinOp::MakeTuple:
      if (tupleArity < 1) throw CompileError(loc, "a tuple needs at least one component");
      arity = tupleArity;
      break;
    default: arity = 1;
  }
  if (op == BuiltinOp::CisPiRatio && precision == ScalarKind::Int)
    throw CompileError(loc, "cispiRatio: its result needs a real precision");
  return std::make_shared<const Builtin>(op, arity, std::move(loc), precision);
}

// ---- patterns

namespace {
std::string parMapName(FunKind k) {
  return k == FunKind::MapGlobal ? "mapGlobal" : k == FunKind::MapLocal ? "mapLocal" : "mapWorkgroup";
}
}  // namespace

#define FFTC_IR_MAP_MAKE(Cls)                                                             \
  std::shared_ptr<const Cls> Cls::make(FunPtr f, SourceLoc loc) {                         \
    if (!f) throw std::invalid_argument(#Cls "::make: null function");                    \
    return std::make_shared<const Cls>(std::move(f), std::move(loc));                     \
  }                                                                                       \
  FunPtr Cls::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {  \
    expectCount(#Cls, funs.size(), 1);                                                    \
    expectCount(#Cls, exprs.size(), 0);                                                   \
    if (funs[0] == f_) return ptr();                                                      \
    return make(std::move(funs[0]), loc());                                               \
  }
FFTC_IR_MAP_MAKE(Map)
FFTC_IR_MAP_MAKE(MapSeq)
FFTC_IR_MAP_MAKE(MapSeqUnroll)
FFTC_IR_MAP_MAKE(ToGlobal)
FFTC_IR_MAP_MAKE(ToLocal)
FFTC_IR_MAP_MAKE(ToPrivate)
#undef FFTC_IR_MAP_MAKE

#define FFTC_IR_PAR_MAP_MAKE(Cls)                                                         \
  std::shared_ptr<const Cls> Cls::make(int dim, FunPtr f, SourceLoc loc) {                \
    if (!f) throw std::invalid_argument(#Cls "::make: null function");                    \
    if (dim < 0 || dim > 2)                                                               \
      throw CompileError(loc, parMapName(FunKind::Cls) + ": dimension " +                 \
                                  std::to_string(dim) + " is not 0, 1 or 2");             \
    return std::make_shared<const Cls>(dim, std::move(f), std::move(loc));                \
  }                                                                                       \
  FunPtr Cls::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {  \
    expectCount(#Cls, funs.size(), 1);                                                    \
    expectCount(#Cls, exprs.size(), 0);                                                   \
    if (funs[0] == f_) return ptr();                                                      \
    return make(dim_, std::move(funs[0]), loc());                                         \
  }
FFTC_IR_PAR_MAP_MAKE(MapGlobal)
FFTC_IR_PAR_MAP_MAKE(MapLocal)
#undef FFTC_IR_PAR_MAP_MAKE

std::shared_ptr<const MapWorkgroup> MapWorkgroup::make(int dim, FunPtr f, SourceLoc loc) {
  if (!f) throw std::invalid_argument("MapWorkgroup::make: null function");
  if (dim < 0 || dim > 2)
    throw CompileError(loc, "mapWorkgroup: dimension " + std::to_string(dim) +
                                " is not 0, 1 or 2");
  return std::make_shared<const MapWorkgroup>(dim, 1, std::move(f), std::move(loc));
}

std::shared_ptr<const MapWorkgroup> MapWorkgroup::makeCluster(int64_t blocks, FunPtr f,
                                                              SourceLoc loc) {
  if (!f) throw std::invalid_argument("MapWorkgroup::makeCluster: null function");
  if (blocks < 1 || blocks > kMaxClusterBlocks)
    throw CompileError(loc, "mapCluster: a cluster of " + std::to_string(blocks) +
                                " work-groups (1 to " + std::to_string(kMaxClusterBlocks) +
                                ")");
  return std::make_shared<const MapWorkgroup>(0, blocks, std::move(f), std::move(loc));
}

std::shared_ptr<const MapWorkgroup> MapWorkgroup::makeBlocks(FunPtr f, SourceLoc loc) {
  if (!f) throw std::invalid_argument("MapWorkgroup::makeBlocks: null function");
  return std::make_shared<const MapWorkgroup>(1, kBlocks, std::move(f), std::move(loc));
}

std::string MapWorkgroup::name() const {
  return cluster_ > 1 ? "mapCluster" : blocks() ? "mapBlock" : "mapWorkgroup";
}

FunPtr MapWorkgroup::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount("MapWorkgroup", funs.size(), 1);
  expectCount("MapWorkgroup", exprs.size(), 0);
  if (funs[0] == f_) return ptr();
  return std::make_shared<const MapWorkgroup>(dim_, cluster_, std::move(funs[0]), loc());
}

#define FFTC_IR_REDUCE_MAKE(Cls)                                                          \
  std::shared_ptr<const Cls> Cls::make(FunPtr f, ExprPtr init, SourceLoc loc) {           \
    if (!f || !init) throw std::invalid_argument(#Cls "::make: null function or init");   \
    return std::make_shared<const Cls>(std::move(f), std::move(init), std::move(loc));    \
  }                                                                                       \
  FunPtr Cls::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {  \
    expectCount(#Cls, funs.size(), 1);                                                    \
    expectCount(#Cls, exprs.size(), 1);                                                   \
    if (funs[0] == f_ && exprs[0] == init_) return ptr();                                 \
    return make(std::move(funs[0]), std::move(exprs[0]), loc());                          \
  }
FFTC_IR_REDUCE_MAKE(Reduce)
FFTC_IR_REDUCE_MAKE(ReduceSeqUnroll)
#undef FFTC_IR_REDUCE_MAKE

std::shared_ptr<const ReduceSeq> ReduceSeq::make(FunPtr f, ExprPtr init, SourceLoc loc) {
  if (!f || !init) throw std::invalid_argument("ReduceSeq::make: null function or init");
  return std::make_shared<const ReduceSeq>(std::move(f), std::move(init), std::move(loc));
}
std::shared_ptr<const ReduceSeq> ReduceSeq::makePrefetch(FunPtr f, ExprPtr init,
                                                         SourceLoc loc) {
  if (!f || !init) throw std::invalid_argument("ReduceSeq::makePrefetch: null function or init");
  return std::make_shared<const ReduceSeq>(std::move(f), std::move(init), std::move(loc), true);
}
std::string ReduceSeq::name() const { return prefetch_ ? "reduceSeqPrefetch" : "reduceSeq"; }
FunPtr ReduceSeq::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount("ReduceSeq", funs.size(), 1);
  expectCount("ReduceSeq", exprs.size(), 1);
  if (funs[0] == f_ && exprs[0] == init_) return ptr();
  return std::make_shared<const ReduceSeq>(std::move(funs[0]), std::move(exprs[0]), loc(),
                                           prefetch_);
}

AddressSpace AbstractTo::space() const {
  switch (kind()) {
    case FunKind::ToGlobal: return AddressSpace::Global;
    case FunKind::ToLocal: return AddressSpace::Local;
    default: return AddressSpace::Private;
  }
}

std::shared_ptr<const Zip> Zip::make(size_t n, SourceLoc loc) {
  if (n < 2) throw CompileError(loc, "zip: needs at least 2 arrays, got " + std::to_string(n));
  return std::make_shared<const Zip>(n, std::move(loc));
}

std::shared_ptr<const Split> Split::make(ArithExpr chunk, SourceLoc loc) {
  if (auto c = chunk.constant(); c && *c <= 0)
    throw CompileError(loc, "split(" + chunk.str() + "): the chunk size must be positive");
  return std::make_shared<const Split>(std::move(chunk), std::move(loc));
}

std::shared_ptr<const Split> Split::makeVector(ArithExpr width, SourceLoc loc) {
  auto c = width.constant();
  if (!c || (*c != 2 && *c != 4))
    throw CompileError(loc, "asVector(" + width.str() + "): the width must be 2 or 4");
  return std::make_shared<const Split>(std::move(width), std::move(loc), true);
}

std::shared_ptr<const Join> Join::make(SourceLoc loc) {
  return std::make_shared<const Join>(std::move(loc));
}
std::shared_ptr<const Join> Join::makeScalar(SourceLoc loc) {
  return std::make_shared<const Join>(std::move(loc), true);
}
std::shared_ptr<const Transpose> Transpose::make(SourceLoc loc) {
  return std::make_shared<const Transpose>(std::move(loc));
}
std::shared_ptr<const Id> Id::make(SourceLoc loc) { return std::make_shared<const Id>(std::move(loc)); }
std::shared_ptr<const Get> Get::make(size_t index, SourceLoc loc) {
  return std::make_shared<const Get>(index, std::move(loc));
}

std::shared_ptr<const Gather> Gather::make(std::vector<int64_t> indices, SourceLoc loc) {
  const auto n = static_cast<int64_t>(indices.size());
  std::vector<int64_t> inverse(indices.size(), -1);
  bool permutation = true;
  for (size_t i = 0; i < indices.size(); ++i) {
    const int64_t j = indices[i];
    if (j < 0) throw CompileError(loc, "gather: the index " + std::to_string(j) + " is negative");
    if (j >= n || inverse[static_cast<size_t>(j)] >= 0) permutation = false;
    else inverse[static_cast<size_t>(j)] = static_cast<int64_t>(i);
  }
  if (!permutation) inverse.clear();
  return std::make_shared<const Gather>(
      std::make_shared<const std::vector<int64_t>>(std::move(indices)),
      std::make_shared<const std::vector<int64_t>>(std::move(inverse)), std::move(loc));
}

std::shared_ptr<const ArrayGen> ArrayGen::make(std::vector<ArithExpr> sizes, FunPtr f,
                                               SourceLoc loc) {
  if (!f) throw std::invalid_argument("ArrayGen::make: null function");
  if (sizes.empty() || sizes.size() > 3)
    throw CompileError(loc, "array generators have 1 to 3 dimensions, got " +
                                std::to_string(sizes.size()));
  for (const auto& s : sizes)
    if (auto c = s.constant(); c && *c < 0)
      throw CompileError(loc, "array size " + s.str() + " is negative");
  return std::make_shared<const ArrayGen>(std::move(sizes), std::move(f), std::move(loc));
}

std::shared_ptr<const Table> Table::make(Type type, std::vector<std::complex<double>> values,
                                         SourceLoc loc) {
  int64_t count = 1;
  Type elem = type;
  while (elem.isArray()) {
    auto n = elem.size().constant();
    if (!n || *n < 0) throw std::invalid_argument("Table::make: a size is not a constant");
    count *= *n;
    elem = elem.element();
  }
  if (!type.isArray() || !(elem.isReal() || elem.isComplex()))
    throw std::invalid_argument("Table::make: not an array of reals or complex numbers");
  if (static_cast<int64_t>(values.size()) != count)
    throw std::invalid_argument("Table::make: " + std::to_string(values.size()) +
                                " values for " + std::to_string(count) + " elements");
  return std::make_shared<const Table>(
      std::move(type), std::make_shared<const std::vector<std::complex<double>>>(std::move(values)),
      std::move(loc));
}

std::string ArrayGen::name() const {
  return sizes_.size() == 1 ? "array" : "array" + std::to_string(sizes_.size());
}

FunPtr ArrayGen::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount("array", funs.size(), 1);
  expectCount("array", exprs.size(), 0);
  if (funs[0] == f_) return ptr();
  return make(sizes_, std::move(funs[0]), loc());
}

std::string padBoundaryName(PadBoundary b) {
  switch (b) {
    case PadBoundary::Wrap: return "wrap";
    case PadBoundary::Clamp: return "clamp";
    case PadBoundary::Mirror: return "mirror";
    case PadBoundary::Constant: return "constant";
  }
  return "?";
}

std::shared_ptr<const Pad> Pad::make(ArithExpr left, ArithExpr right, PadBoundary boundary,
                                     ExprPtr value, SourceLoc loc) {
  if ((boundary == PadBoundary::Constant) != static_cast<bool>(value))
    throw std::invalid_argument("Pad::make: a value is needed exactly for a constant boundary");
  for (const auto* s : {&left, &right})
    if (auto c = s->constant(); c && *c < 0)
      throw CompileError(loc, "pad: the padding " + s->str() + " is negative");
  return std::make_shared<const Pad>(std::move(left), std::move(right), boundary, std::move(value),
                                     std::move(loc));
}

std::vector<ExprPtr> Pad::exprChildren() const {
  if (value_) return {value_};
  return {};
}

FunPtr Pad::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount("pad", funs.size(), 0);
  expectCount("pad", exprs.size(), value_ ? 1 : 0);
  if (!value_ || exprs[0] == value_) return ptr();
  return make(left_, right_, boundary_, std::move(exprs[0]), loc());
}

std::shared_ptr<const Slide> Slide::make(ArithExpr size, ArithExpr step, SourceLoc loc) {
  for (const auto* s : {&size, &step})
    if (auto c = s->constant(); c && *c <= 0)
      throw CompileError(loc, "slide(" + size.str() + ", " + step.str() + "): " + s->str() +
                                  " is not positive");
  return std::make_shared<const Slide>(std::move(size), std::move(step), std::move(loc));
}

std::shared_ptr<const Crop> Crop::make(ArithExpr left, ArithExpr right, SourceLoc loc) {
  for (const auto* s : {&left, &right})
    if (auto c = s->constant(); c && *c < 0)
      throw CompileError(loc, "crop: the amount " + s->str() + " is negative");
  return std::make_shared<const Crop>(std::move(left), std::move(right), std::move(loc));
}

std::shared_ptr<const Iterate> Iterate::make(int64_t count, FunPtr f, SourceLoc loc) {
  if (!f) throw std::invalid_argument("Iterate::make: null function");
  if (count < 0)
    throw CompileError(loc, "iterate: the count " + std::to_string(count) + " is negative");
  return std::make_shared<const Iterate>(count, std::move(f), std::move(loc));
}

FunPtr Iterate::withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const {
  expectCount("iterate", funs.size(), 1);
  expectCount("iterate", exprs.size(), 0);
  if (funs[0] == f_) return ptr();
  return make(count_, std::move(funs[0]), loc());
}

}  // namespace fftc::ir
