// Shared helpers of the rewrite tests: running programs in the interpreter, and the paper's
// Stockham FFT written with the C++ builders (as tests/ir/fft_programs_test.cpp does).
#pragma once

#include <complex>
#include <string>
#include <functional>
#include <random>
#include <unordered_map>
#include <vector>

#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"
#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/interpreter.h"
#include "ir/traversal.h"
#include "tests/fftlib/fftlib_support.h"

namespace fftc::rewrites::testing {

// the project's fftlib/ folder (the working directory's or a parent's, __FILE__'s last)
using fftlib::test::fftlibDir;

// The first kernel of `text` as the front end elaborates it (no -D, no imports).
inline ir::LambdaPtr kernelOf(const std::string& text) {
  return compiler::frontend::compileSource(text, "test.fdl", {}).kernels.at(0).lambda;
}

inline ir::Value runProgram(const ir::ExprPtr& typed, const std::vector<ir::ParamPtr>& inputs,
                            const std::vector<ir::Value>& args) {
  std::unordered_map<const ir::Param*, ir::Value> env;
  for (size_t i = 0; i < inputs.size(); ++i) env[inputs[i].get()] = args[i];
  return ir::interpret(typed, env);
}

// Visits every FunDecl of a program (callees and nested functions), outermost first, with
// the enclosing FunDecls.
inline void forEachFun(
    const ir::ExprPtr& e,
    const std::function<void(const ir::FunDecl&, const std::vector<const ir::FunDecl*>&)>& fn) {
  struct Walk : ir::IRVisitor {
    using IRVisitor::visit;
    explicit Walk(const std::function<void(const ir::FunDecl&,
                                           const std::vector<const ir::FunDecl*>&)>& v)
        : onFun(v) {}
    void visit(const ir::FunPtr& f) override {
      onFun(*f, stack);
      stack.push_back(f.get());
      visitChildren(f);
      stack.pop_back();
    }
    const std::function<void(const ir::FunDecl&, const std::vector<const ir::FunDecl*>&)>& onFun;
    std::vector<const ir::FunDecl*> stack;
  } walk(fn);
  walk.visit(e);
}

inline int countKind(const ir::ExprPtr& e, ir::FunKind k) {
  int n = 0;
  forEachFun(e, [&](const ir::FunDecl& f, const auto&) { n += f.kind() == k; });
  return n;
}

// ---- the paper's Stockham FFT (section 3.1), sizes outermost first in the generator
namespace fft {
using namespace ir;

inline ExprPtr omega(ExprPtr k, ExprPtr n, ScalarKind p) {
  return cispi(lit(-2.0, p) * k / n);
}

inline FunPtr complexMatVecMult() {
  return fun(
      [](ExprPtr v, ExprPtr m) {
        auto dot = fun(
            [&](ExprPtr row) {
              return reduce(add(), tuple({lit(0), lit(0)})) << map(mult()) << zip(row, v);
            },
            {"row"});
        return map(dot) << m;
      },
      {"v", "M"});
}
inline FunPtr kronIdR(int64_t m, FunPtr matMult) {
  return join() << transpose() << map(std::move(matMult)) << transpose() << split(m);
}
inline FunPtr multPiT(int64_t r) {
  return join() << transpose() << split(r);
}
inline ExprPtr repOfB(int64_t r, int64_t l, ScalarKind p) {
  auto gen = fun([&](ExprPtr j, ExprPtr k, ExprPtr c, ExprPtr numMats, ExprPtr height, ExprPtr) {
    return omega((k * numMats + j) * c, height * numMats, p);
  });
  return array3(l / r, r, r, gen);
}
inline FunPtr multB(int64_t r, int64_t l, ScalarKind p) {
  return fun(
      [&](ExprPtr v) {
        return join() << transpose() << map(complexMatVecMult())
                      << zip(transpose() << split(l / r) << v, repOfB(r, l, p));
      },
      {"v"});
}
inline FunPtr stockPass(int64_t r, int64_t l, int64_t n, ScalarKind p) {
  return compose(kronIdR(n / l, multB(r, l, p)), kronIdR(n / l, multPiT(r)));
}
inline ExprPtr fftStockham(const std::vector<int64_t>& rs, ExprPtr v, ScalarKind p) {
  int64_t n = 1;
  for (auto r : rs) n *= r;
  int64_t l = 1;
  ExprPtr e = std::move(v);
  for (auto r : rs) {
    l *= r;
    e = stockPass(r, l, n, p) << e;
  }
  return e;
}

inline std::vector<std::complex<double>> randomComplex(size_t n, uint64_t seed) {
  return fftlib::uniformInput<double>(n, seed);
}
}  // namespace fft

}  // namespace fftc::rewrites::testing
