// The elaborator (internal to the front end): evaluates a parsed module into IR kernels.
// Defs are macros, compile-time integers/lists are folded, patterns become IR nodes.
#pragma once

#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/frontend/ast.h"
#include "compiler/frontend/frontend.h"
#include "compiler/frontend/values.h"
#include "ir/traversal.h"

namespace fftc::compiler::frontend {

// Elaborates every kernel of `module` (see frontend.h for the semantics).
Program elaborate(const ast::Module& module, const ElaborateOptions& options);

class Elaborator {
 public:
  Elaborator(const ast::Module& module, const ElaborateOptions& options);
  Program run();

 private:
  using Loc = ir::SourceLoc;
  const ast::Module& module_;
  const ElaborateOptions& opts_;
  std::unordered_map<std::string, const ast::Decl*> defs_;
  std::unordered_map<std::string, ir::FunPtr> userFuns_;
  std::unordered_map<std::string, Value> defines_;
  // Size variables of the kernel being elaborated, by name.
  std::unordered_map<std::string, ir::ArithExpr> sizeVars_;
  std::vector<std::string> sizeVarOrder_;
  bool inKernelTypes_ = false;
  // Budgets and the def expansion stack (for recursion errors).
  int64_t steps_ = 0;
  int depth_ = 0;
  std::vector<const ast::Decl*> expanding_;
  // Nesting depth of the IR built so far, remembered by node: deeply nested IR would overflow
  // the stack of later recursive passes.
  ir::NestingDepth irDepth_;

  // ---- declarations (elaborator.cpp)
  void collectDecls(Program& program);
  // Name resolution of every def and kernel body, used or not (defs are only elaborated when
  // a kernel uses them, but a typo in an unused def is still an error).
  void checkNames();
  void checkNames(const ast::Expr& e, std::vector<std::string>& scope,
                  const std::vector<std::string>& sizeNames);
  Kernel elaborateKernel(const ast::Decl& d);
  ir::Type resolveType(const ast::Type& t);
  ir::ArithExpr resolveSize(const ast::Expr& e);

  // ---- expressions (elaborator.cpp)
  Value eval(const ast::Expr& e, const Env& env);
  Value evalInner(const ast::Expr& e, const Env& env);
  Value lookup(const ast::Expr& var, const Env& env);
  Value expandDef(const ast::Decl& d, std::vector<Value> args, const Loc& useLoc);
  Value evalBinary(const ast::Expr& e, const Env& env);
  Value arith(ast::BinOp op, const Value& a, const Value& b, const Loc& loc);
  Value negate(const Value& a, const Loc& loc);
  Value evalTuple(const ast::Expr& e, const Env& env);
  Value evalPipe(const ast::Expr& e, const Env& env);
  Value evalIndex(const ast::Expr& e, const Env& env);

  // ---- compile-time conditions and the conditional (conditional.cpp)
  Value evalIf(const ast::Expr& e, const Env& env);
  Value evalCompare(const ast::Expr& e, const Env& env);
  Value evalLogic(const ast::Expr& e, const Env& env);
  // A condition's truth: a boolean, or the integer 0 or 1; `what` names it in errors.
  bool condition(const Loc& loc, const Value& v, const std::string& what);
  std::vector<std::string> visibleNames(const Env& env) const;

  // ---- application and conversion to IR (apply.cpp)
 public:
  Value apply(const Value& f, std::vector<Value> args, const Loc& loc);
  Value applyFun(const FunValue& f, std::vector<Value> args, const Loc& loc);
  Value applyClosure(const FunValue& f, std::vector<Value> args, const Loc& loc);
  Value applyBuiltin(const FunValue& f, std::vector<Value> args, const Loc& loc);
  Value applyIR(const ir::FunPtr& f, std::vector<Value> args, const Loc& loc, ScalarHint hint);
  // A runtime value (ints become literals); errors name `what` ("the argument of map").
  ir::ExprPtr toExpr(const Value& v, const Loc& loc, const std::string& what);
  // A function as an IR FunDecl. `arity`: how many parameters a Lambda built for a def or
  // closure gets (0 = its own count); generators pass 2k, binding only the first params.
  ir::FunPtr toFun(const Value& v, const Loc& loc, const std::string& what, size_t arity = 0);
  ir::ArithExpr toInt(const Value& v, const Loc& loc, const std::string& what);
  int64_t toConstInt(const Value& v, const Loc& loc, const std::string& what);
  ir::FunPtr builtinFun(BuiltinId id, const std::vector<Value>& statics, const Loc& loc);
  ir::LambdaPtr lambdaFor(const FunValue& f, size_t arity, const Loc& loc,
                          size_t sizeArgs = 0, const std::vector<ir::ArithExpr>& sizes = {});
  ir::ArithExpr checkedArith(ast::BinOp op, const ir::ArithExpr& a, const ir::ArithExpr& b,
                             const Loc& loc);

  // Every FunCall is built here: it checks the IR nesting depth.
  ir::ExprPtr call(ir::FunPtr f, std::vector<ir::ExprPtr> args, const Loc& loc);

  static FunRef makeBuiltin(BuiltinId id, const Loc& loc, std::vector<Value> args = {});
  static bool lookupBuiltin(const std::string& name, Value& out, const Loc& loc,
                            ir::ScalarKind precision);
  static const std::vector<std::string>& builtinNames();
  static std::string builtinName(BuiltinId id);
  [[noreturn]] static void fail(const Loc& loc, std::string message);
  void step(const Loc& loc);
};

}  // namespace fftc::compiler::frontend
