// C++ builders for IR programs, so tests and the FFT library can write programs without text:
//   auto x = param("x", Type::array(Type::complex(ScalarKind::Float), 64));
//   ExprPtr y = join() << transpose() << map(f) << transpose() << split(4) << x;
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "ir/expr.h"

namespace fftc::ir {

// ---- values
ParamPtr param(std::string name, Type type = {});
ExprPtr lit(int64_t v);
ExprPtr lit(int v);
ExprPtr litSize(ArithExpr v);                                          // int literal, maybe symbolic
ExprPtr lit(double v, ScalarKind precision = ScalarKind::Double);      // a real
ExprPtr litF(double v);                                                // a float real
ExprPtr litComplex(double re, double im, ScalarKind precision = ScalarKind::Double);
ExprPtr tuple(std::vector<ExprPtr> components);  // {a, b, ...}: Builtin(MakeTuple) call

// ---- application and functions
ExprPtr call(FunPtr f, std::vector<ExprPtr> args);
template <class... A>
ExprPtr call(FunPtr f, ExprPtr a0, A&&... rest) {
  return call(std::move(f), std::vector<ExprPtr>{std::move(a0), ExprPtr(std::forward<A>(rest))...});
}
LambdaPtr lambda(std::vector<ParamPtr> params, ExprPtr body);
// compose(f1, f2, ..., fk) = fun x => f1(f2(..fk(x))); fk may take several args: the lambda
// then has fk's arity.
FunPtr compose(std::vector<FunPtr> fs);
inline FunPtr compose(FunPtr f, FunPtr g) { return compose(std::vector<FunPtr>{std::move(f), std::move(g)}); }

// fun([](ExprPtr x, ExprPtr y) { return x * y; }): a Lambda whose Params (named x0, x1, ... or
// by `names`) are passed to the C++ callable; 1..6 parameters.
template <class F>
LambdaPtr fun(F&& body, std::vector<std::string> names = {});

// `f << g << ... << x` reads like the language's `f <<: g <<: x`: a chain of functions is a
// Chain, applying it to an expression builds the nested FunCalls f(g(x)) directly (no lambda).
// A Chain converts to a FunPtr (a composition lambda) where a function is expected.
struct Chain {
  std::vector<FunPtr> fs;
  operator FunPtr() const { return compose(fs); }  // NOLINT(google-explicit-constructor)
};
Chain operator<<(FunPtr f, FunPtr g);
Chain operator<<(Chain c, FunPtr g);
ExprPtr operator<<(FunPtr f, ExprPtr x);
ExprPtr operator<<(const Chain& c, ExprPtr x);

// ---- scalar operators on expressions (Builtin calls)
ExprPtr operator+(ExprPtr a, ExprPtr b);
ExprPtr operator-(ExprPtr a, ExprPtr b);
ExprPtr operator*(ExprPtr a, ExprPtr b);
ExprPtr operator/(ExprPtr a, ExprPtr b);
ExprPtr operator%(ExprPtr a, ExprPtr b);
ExprPtr operator-(ExprPtr a);

// ---- built-in scalar functions as functions (for map(mult), reduce(add, ..))
FunPtr builtin(BuiltinOp op, size_t tupleArity = 0);
FunPtr add();
FunPtr sub();
FunPtr mult();
FunPtr neg();
// ... and applied
ExprPtr cos(ExprPtr x);
ExprPtr sin(ExprPtr x);
ExprPtr exp(ExprPtr x);
ExprPtr sqrt(ExprPtr x);
ExprPtr conj(ExprPtr x);
ExprPtr re(ExprPtr x);
ExprPtr im(ExprPtr x);
ExprPtr cispi(ExprPtr x);
// cispi(p / q) for ints p and q, exact, a complex in `precision`
ExprPtr cispiRatio(ExprPtr p, ExprPtr q, ScalarKind precision = ScalarKind::Float);
ExprPtr complex(ExprPtr re, ExprPtr im);

FunPtr userFun(std::string name, std::vector<std::pair<std::string, Type>> params,
               Type returnType, std::string body);

// ---- high-level patterns
FunPtr map(FunPtr f);
FunPtr reduce(FunPtr f, ExprPtr init);
FunPtr zip(size_t n);
ExprPtr zip(std::vector<ExprPtr> arrays);
inline ExprPtr zip(ExprPtr a, ExprPtr b) { return zip(std::vector<ExprPtr>{std::move(a), std::move(b)}); }
FunPtr split(ArithExpr m);
FunPtr join();
FunPtr transpose();
ExprPtr array(ArithExpr n, FunPtr f);
ExprPtr array2(ArithExpr n0, ArithExpr n1, FunPtr f);
ExprPtr array3(ArithExpr n0, ArithExpr n1, ArithExpr n2, FunPtr f);
ExprPtr arrayGen(std::vector<ArithExpr> sizes, FunPtr f);
FunPtr pad(ArithExpr l, ArithExpr r, PadBoundary b);  // Wrap, Clamp, Mirror
FunPtr pad(ArithExpr l, ArithExpr r, ExprPtr constant);
FunPtr crop(ArithExpr l, ArithExpr r);
FunPtr slide(ArithExpr size, ArithExpr step);
FunPtr iterate(int64_t k, FunPtr f);
FunPtr id();
FunPtr get(size_t i);
ExprPtr get(size_t i, ExprPtr tupleValue);

// ---- low-level patterns
FunPtr mapGlobal(int dim, FunPtr f);
FunPtr mapGlobal(FunPtr f);  // dimension 0
FunPtr mapWorkgroup(int dim, FunPtr f);
FunPtr mapWorkgroup(FunPtr f);
FunPtr mapLocal(int dim, FunPtr f);
FunPtr mapLocal(FunPtr f);
FunPtr mapSeq(FunPtr f);
FunPtr mapSeqUnroll(FunPtr f);
FunPtr reduceSeq(FunPtr f, ExprPtr init);
FunPtr reduceSeqUnroll(FunPtr f, ExprPtr init);
FunPtr toGlobal(FunPtr f);
FunPtr toLocal(FunPtr f);
FunPtr toPrivate(FunPtr f);

// ---------------------------------------------------------------------------------------------
template <class F>
LambdaPtr fun(F&& body, std::vector<std::string> names) {
  auto mk = [&](size_t k) {
    std::vector<ParamPtr> ps;
    for (size_t i = 0; i < k; ++i)
      ps.push_back(param(i < names.size() ? names[i] : "x" + std::to_string(i)));
    return ps;
  };
  if constexpr (std::is_invocable_r_v<ExprPtr, F, ExprPtr>) {
    auto p = mk(1);
    return lambda(p, body(p[0]));
  } else if constexpr (std::is_invocable_r_v<ExprPtr, F, ExprPtr, ExprPtr>) {
    auto p = mk(2);
    return lambda(p, body(p[0], p[1]));
  } else if constexpr (std::is_invocable_r_v<ExprPtr, F, ExprPtr, ExprPtr, ExprPtr>) {
    auto p = mk(3);
    return lambda(p, body(p[0], p[1], p[2]));
  } else if constexpr (std::is_invocable_r_v<ExprPtr, F, ExprPtr, ExprPtr, ExprPtr, ExprPtr>) {
    auto p = mk(4);
    return lambda(p, body(p[0], p[1], p[2], p[3]));
  } else if constexpr (std::is_invocable_r_v<ExprPtr, F, ExprPtr, ExprPtr, ExprPtr, ExprPtr,
                                             ExprPtr>) {
    auto p = mk(5);
    return lambda(p, body(p[0], p[1], p[2], p[3], p[4]));
  } else {
    static_assert(std::is_invocable_r_v<ExprPtr, F, ExprPtr, ExprPtr, ExprPtr, ExprPtr, ExprPtr,
                                        ExprPtr>,
                  "fun: the body must take 1..6 ExprPtr and return an ExprPtr");
    auto p = mk(6);
    return lambda(p, body(p[0], p[1], p[2], p[3], p[4], p[5]));
  }
}

}  // namespace fftc::ir
