// Compile-time values of the elaborator: integers and lists evaluated at compile time, runtime
// values (IR expressions), and functions that are still being built (closures, partially
// applied defs and patterns, compositions) before they become IR.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "compiler/frontend/ast.h"
#include "ir/arith/arith_expr.h"
#include "ir/expr.h"

namespace fftc::compiler::frontend {

struct FunValue;
using FunRef = std::shared_ptr<const FunValue>;
struct EnvNode;
using Env = std::shared_ptr<const EnvNode>;

// Bool: the result of a comparison or of && || ! (compile time only; an `if` chooses with it).
enum class ValueKind { Int, List, Expr, Fun, Boundary, Bool };

// What the elaborator knows about a runtime scalar without type inference; decides whether
// {a, b} is a complex number (both numeric, one real) or a tuple.
enum class ScalarHint { None, Int, Real };

struct Value {
  ValueKind kind = ValueKind::Int;
  ir::ArithExpr i;                    // Int: constant or symbolic in size variables
  std::vector<ir::ArithExpr> list;    // List
  ir::ExprPtr expr;                   // Expr
  FunRef fun;                         // Fun
  ir::PadBoundary boundary = ir::PadBoundary::Wrap;  // Boundary: wrap, clamp, mirror
  ScalarHint hint = ScalarHint::None; // Expr
  bool truth = false;                 // Bool

  static Value ofInt(ir::ArithExpr v) {
    Value r;
    r.kind = ValueKind::Int;
    r.i = std::move(v);
    return r;
  }
  static Value ofList(std::vector<ir::ArithExpr> v) {
    Value r;
    r.kind = ValueKind::List;
    r.list = std::move(v);
    return r;
  }
  static Value ofExpr(ir::ExprPtr e, ScalarHint h = ScalarHint::None) {
    Value r;
    r.kind = ValueKind::Expr;
    r.expr = std::move(e);
    r.hint = h;
    return r;
  }
  static Value ofFun(FunRef f) {
    Value r;
    r.kind = ValueKind::Fun;
    r.fun = std::move(f);
    return r;
  }
  static Value ofBool(bool b) {
    Value r;
    r.kind = ValueKind::Bool;
    r.truth = b;
    return r;
  }
  static Value ofBoundary(ir::PadBoundary b) {
    Value r;
    r.kind = ValueKind::Boundary;
    r.boundary = b;
    return r;
  }
};

// "an integer", "a list", "a value", "a function", "a pad boundary", "a boolean".
const char* describe(const Value& v);

// Built-in names: patterns, scalar functions, compile-time helpers.
enum class BuiltinId {
  Map, MapSeq, MapSeqUnroll, MapGlobal, MapWorkgroup, MapLocal, MapCluster, MapBlock,
  Reduce, ReduceSeq, ReduceSeqUnroll, ReduceSeqPrefetch,
  Zip, Split, Join, AsVector, AsScalar, Transpose, Array, Array2, Array3, Pad, Crop, Slide, Iterate, Id, Get, Gather,
  ToGlobal, ToLocal, ToPrivate,
  Add, Sub, Mult, Div, Mod, Neg, Cos, Sin, Exp, Sqrt, Conj, Re, Im, CisPi, CisPiRatio, Complex,
  Len, Prod, Factors, PrimitiveRoot, PowMods, DiscreteLogs,
};

enum class FunKind { Closure, Def, Builtin, Compose, IR };

struct FunValue {
  FunKind kind = FunKind::IR;
  ir::SourceLoc loc;
  const ast::Expr* lambda = nullptr;  // Closure
  Env env;                            // Closure: captured scope
  const ast::Decl* def = nullptr;     // Def
  BuiltinId builtin = BuiltinId::Id;  // Builtin
  std::vector<Value> args;            // Def, Builtin: arguments given so far
  FunRef f, g;                        // Compose: f o g
  ir::FunPtr ir;                      // IR: a userfun
};

// Lexical scope: an immutable linked list, so closures capture it cheaply.
struct EnvNode {
  std::string name;
  Value value;
  Env next;
};

inline Env bind(Env env, std::string name, Value v) {
  return std::make_shared<const EnvNode>(EnvNode{std::move(name), std::move(v), std::move(env)});
}

}  // namespace fftc::compiler::frontend
