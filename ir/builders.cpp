// C++ builders for IR programs.
#include "ir/builders.h"

#include <stdexcept>

namespace fftc::ir {

ParamPtr param(std::string name, Type type) { return Param::make(std::move(name), std::move(type)); }
ExprPtr lit(int64_t v) { return Literal::makeInt(ArithExpr(v)); }
ExprPtr lit(int v) { return Literal::makeInt(ArithExpr(static_cast<int64_t>(v))); }
ExprPtr litSize(ArithExpr v) { return Literal::makeInt(std::move(v)); }
ExprPtr lit(double v, ScalarKind precision) { return Literal::makeReal(v, precision); }
ExprPtr litF(double v) { return Literal::makeReal(v, ScalarKind::Float); }
ExprPtr litComplex(double re, double im, ScalarKind precision) {
  return Literal::makeComplex(re, im, precision);
}
ExprPtr tuple(std::vector<ExprPtr> components) {
  size_t n = components.size();
  return FunCall::make(Builtin::make(BuiltinOp::MakeTuple, n), std::move(components));
}

ExprPtr call(FunPtr f, std::vector<ExprPtr> args) {
  return FunCall::make(std::move(f), std::move(args));
}

LambdaPtr lambda(std::vector<ParamPtr> params, ExprPtr body) {
  return Lambda::make(std::move(params), std::move(body));
}

FunPtr compose(std::vector<FunPtr> fs) {
  if (fs.empty()) return Id::make();
  if (fs.size() == 1) return fs[0];
  size_t k = fs.back()->arity();
  if (k == 0) throw std::invalid_argument("compose: the last function takes no argument");
  std::vector<ParamPtr> ps;
  std::vector<ExprPtr> args;
  for (size_t i = 0; i < k; ++i) {
    ps.push_back(Param::make(k == 1 ? "x" : "x" + std::to_string(i)));
    args.push_back(ps.back());
  }
  ExprPtr e = FunCall::make(fs.back(), std::move(args));
  for (size_t i = fs.size() - 1; i-- > 0;) e = FunCall::make(fs[i], {e});
  return Lambda::make(std::move(ps), std::move(e));
}

Chain operator<<(FunPtr f, FunPtr g) { return Chain{{std::move(f), std::move(g)}}; }
Chain operator<<(Chain c, FunPtr g) {
  c.fs.push_back(std::move(g));
  return c;
}
ExprPtr operator<<(FunPtr f, ExprPtr x) { return FunCall::make(std::move(f), {std::move(x)}); }
ExprPtr operator<<(const Chain& c, ExprPtr x) {
  ExprPtr e = std::move(x);
  for (size_t i = c.fs.size(); i-- > 0;) e = FunCall::make(c.fs[i], {e});
  return e;
}

namespace {
ExprPtr apply(BuiltinOp op, std::vector<ExprPtr> args) {
  return FunCall::make(Builtin::make(op), std::move(args));
}
}  // namespace

ExprPtr operator+(ExprPtr a, ExprPtr b) { return apply(BuiltinOp::Add, {std::move(a), std::move(b)}); }
ExprPtr operator-(ExprPtr a, ExprPtr b) { return apply(BuiltinOp::Sub, {std::move(a), std::move(b)}); }
ExprPtr operator*(ExprPtr a, ExprPtr b) { return apply(BuiltinOp::Mul, {std::move(a), std::move(b)}); }
ExprPtr operator/(ExprPtr a, ExprPtr b) { return apply(BuiltinOp::Div, {std::move(a), std::move(b)}); }
ExprPtr operator%(ExprPtr a, ExprPtr b) { return apply(BuiltinOp::Mod, {std::move(a), std::move(b)}); }
ExprPtr operator-(ExprPtr a) { return apply(BuiltinOp::Neg, {std::move(a)}); }

FunPtr builtin(BuiltinOp op, size_t tupleArity) { return Builtin::make(op, tupleArity); }
FunPtr add() { return Builtin::make(BuiltinOp::Add); }
FunPtr sub() { return Builtin::make(BuiltinOp::Sub); }
FunPtr mult() { return Builtin::make(BuiltinOp::Mul); }
FunPtr neg() { return Builtin::make(BuiltinOp::Neg); }
ExprPtr cos(ExprPtr x) { return apply(BuiltinOp::Cos, {std::move(x)}); }
ExprPtr sin(ExprPtr x) { return apply(BuiltinOp::Sin, {std::move(x)}); }
ExprPtr exp(ExprPtr x) { return apply(BuiltinOp::Exp, {std::move(x)}); }
ExprPtr sqrt(ExprPtr x) { return apply(BuiltinOp::Sqrt, {std::move(x)}); }
ExprPtr conj(ExprPtr x) { return apply(BuiltinOp::Conj, {std::move(x)}); }
ExprPtr re(ExprPtr x) { return apply(BuiltinOp::Re, {std::move(x)}); }
ExprPtr im(ExprPtr x) { return apply(BuiltinOp::Im, {std::move(x)}); }
ExprPtr cispi(ExprPtr x) { return apply(BuiltinOp::CisPi, {std::move(x)}); }
ExprPtr cispiRatio(ExprPtr p, ExprPtr q, ScalarKind precision) {
  return FunCall::make(Builtin::make(BuiltinOp::CisPiRatio, 0, {}, precision),
                       {std::move(p), std::move(q)});
}
ExprPtr complex(ExprPtr r, ExprPtr i) {
  return apply(BuiltinOp::MakeComplex, {std::move(r), std::move(i)});
}

FunPtr userFun(std::string name, std::vector<std::pair<std::string, Type>> params,
               Type returnType, std::string body) {
  std::vector<std::string> names;
  std::vector<Type> types;
  for (auto& [n, t] : params) {
    names.push_back(n);
    types.push_back(t);
  }
  return UserFun::make(std::move(name), std::move(names), std::move(types), std::move(returnType),
                       std::move(body));
}

FunPtr map(FunPtr f) { return Map::make(std::move(f)); }
FunPtr reduce(FunPtr f, ExprPtr init) { return Reduce::make(std::move(f), std::move(init)); }
FunPtr zip(size_t n) { return Zip::make(n); }
ExprPtr zip(std::vector<ExprPtr> arrays) {
  size_t n = arrays.size();
  return FunCall::make(Zip::make(n), std::move(arrays));
}
FunPtr split(ArithExpr m) { return Split::make(std::move(m)); }
FunPtr join() { return Join::make(); }
FunPtr transpose() { return Transpose::make(); }
ExprPtr arrayGen(std::vector<ArithExpr> sizes, FunPtr f) {
  return FunCall::make(ArrayGen::make(std::move(sizes), std::move(f)), {});
}
ExprPtr array(ArithExpr n, FunPtr f) { return arrayGen({std::move(n)}, std::move(f)); }
ExprPtr array2(ArithExpr n0, ArithExpr n1, FunPtr f) {
  return arrayGen({std::move(n0), std::move(n1)}, std::move(f));
}
ExprPtr array3(ArithExpr n0, ArithExpr n1, ArithExpr n2, FunPtr f) {
  return arrayGen({std::move(n0), std::move(n1), std::move(n2)}, std::move(f));
}
FunPtr pad(ArithExpr l, ArithExpr r, PadBoundary b) {
  if (b == PadBoundary::Constant)
    throw std::invalid_argument("pad: a constant boundary needs its value");
  return Pad::make(std::move(l), std::move(r), b);
}
FunPtr pad(ArithExpr l, ArithExpr r, ExprPtr constant) {
  return Pad::make(std::move(l), std::move(r), PadBoundary::Constant, std::move(constant));
}
FunPtr crop(ArithExpr l, ArithExpr r) { return Crop::make(std::move(l), std::move(r)); }
FunPtr slide(ArithExpr size, ArithExpr step) { return Slide::make(std::move(size), std::move(step)); }
FunPtr iterate(int64_t k, FunPtr f) { return Iterate::make(k, std::move(f)); }
FunPtr id() { return Id::make(); }
FunPtr get(size_t i) { return Get::make(i); }
ExprPtr get(size_t i, ExprPtr tupleValue) { return FunCall::make(Get::make(i), {std::move(tupleValue)}); }

FunPtr mapGlobal(int dim, FunPtr f) { return MapGlobal::make(dim, std::move(f)); }
FunPtr mapGlobal(FunPtr f) { return MapGlobal::make(0, std::move(f)); }
FunPtr mapWorkgroup(int dim, FunPtr f) { return MapWorkgroup::make(dim, std::move(f)); }
FunPtr mapWorkgroup(FunPtr f) { return MapWorkgroup::make(0, std::move(f)); }
FunPtr mapLocal(int dim, FunPtr f) { return MapLocal::make(dim, std::move(f)); }
FunPtr mapLocal(FunPtr f) { return MapLocal::make(0, std::move(f)); }
FunPtr mapSeq(FunPtr f) { return MapSeq::make(std::move(f)); }
FunPtr mapSeqUnroll(FunPtr f) { return MapSeqUnroll::make(std::move(f)); }
FunPtr reduceSeq(FunPtr f, ExprPtr init) { return ReduceSeq::make(std::move(f), std::move(init)); }
FunPtr reduceSeqUnroll(FunPtr f, ExprPtr init) {
  return ReduceSeqUnroll::make(std::move(f), std::move(init));
}
FunPtr toGlobal(FunPtr f) { return ToGlobal::make(std::move(f)); }
FunPtr toLocal(FunPtr f) { return ToLocal::make(std::move(f)); }
FunPtr toPrivate(FunPtr f) { return ToPrivate::make(std::move(f)); }

}  // namespace fftc::ir
