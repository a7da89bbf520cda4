// The .fdl syntax tree: what the parser builds and the elaborator walks. It mirrors the source
// closely (operators, sugar and all) so that errors point at what the user wrote.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/diagnostic.h"

namespace fftc::compiler::frontend::ast {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;
struct Type;
using TypePtr = std::unique_ptr<Type>;

enum class ExprKind {
  Var,      // name
  Int,      // intValue
  Real,     // realValue, realIsFloat
  Tuple,    // {a, b, ...}: elems
  List,     // [2, 4, 8]: elems
  Lambda,   // fun x => e, fun (x, y) => e: params, tupleParams, body (elems[0])
  Call,     // f(a, b): callee (elems[0]), args (elems[1..])
  Apply,    // f <<: x: elems[0], elems[1]
  Compose,  // f o g: elems[0], elems[1]
  Binary,   // a + b ...: op, elems[0], elems[1]
  Neg,      // -a: elems[0]
  Field,    // x._0: elems[0], intValue = component
  Index,    // rs[i]: elems[0], elems[1]
  Pipe,     // pipe(q in A .. B) E: params[0] = q, elems = {A, B, E}
  OpRef,    // `+`, `-`, `*`, `/` used as a function value (the paper's reduce(+, 0)): op
  // Compile-time conditions and the conditional (docs/language.md, "Compile-time conditionals")
  Compare,  // a == b, a < b ...: cmp, elems[0], elems[1]
  And,      // a && b: elems[0], elems[1] (b evaluated only when a is true)
  Or,       // a || b: elems[0], elems[1] (b evaluated only when a is false)
  Not,      // !a: elems[0]
  If,       // if c then a else b: elems = {c, a, b} (only the chosen branch is evaluated)
};

enum class BinOp { Add, Sub, Mul, Div, Mod };
enum class CmpOp { Eq, Ne, Lt, Le, Gt, Ge };

const char* binOpSpelling(BinOp op);
const char* cmpOpSpelling(CmpOp op);

struct Param {
  std::string name;
  ir::SourceLoc loc;
};

struct Expr {
  ExprKind kind;
  ir::SourceLoc loc;
  std::string name;
  int64_t intValue = 0;
  double realValue = 0.0;
  bool realIsFloat = false;
  BinOp op = BinOp::Add;
  CmpOp cmp = CmpOp::Eq;
  std::vector<Param> params;  // Lambda parameters, Pipe variable
  bool tupleParams = false;   // fun (x, y) => e rather than fun x => e
  std::vector<ExprPtr> elems;
  int depth = 1;              // height of this subtree (bounded by the parser)

  Expr(ExprKind k, ir::SourceLoc l) : kind(k), loc(std::move(l)) {}
};

enum class TypeKind { Int, Float, Double, Real, Complex, Tuple, Array };

struct Type {
  TypeKind kind;
  ir::SourceLoc loc;
  std::vector<TypePtr> elems;  // Tuple components; Array: elems[0] is the element type
  ExprPtr size;                // Array size expression (integers, names, + - * / %)

  Type(TypeKind k, ir::SourceLoc l) : kind(k), loc(std::move(l)) {}
};

struct TypedParam {
  std::string name;
  ir::SourceLoc loc;
  TypePtr type;
};

// Import: `import "path"`, name = the path as written, loc = the string's location. The
// parser keeps it; resolveImports (imports.h) replaces it by the imported defs and userfuns.
enum class DeclKind { Def, UserFun, Kernel, Import };

struct Decl {
  DeclKind kind;
  ir::SourceLoc loc;        // of the declared name (Import: of the path string)
  std::string name;
  // Set by resolveImports on the declarations it brings in from another file (their locations
  // name that file); the importing file's own declarations have it false.
  bool imported = false;
  // Def: compile-time parameters, hasParams distinguishes `def f() = ...` from `def f = ...`.
  std::vector<Param> params;
  bool hasParams = false;
  // UserFun and Kernel parameters, UserFun result type and C body.
  std::vector<TypedParam> typedParams;
  TypePtr resultType;
  std::string cBody;
  ExprPtr body;             // Def and Kernel

  Decl(DeclKind k, ir::SourceLoc l) : kind(k), loc(std::move(l)) {}
};

struct Module {
  std::string fileName;
  std::vector<std::unique_ptr<Decl>> decls;
  // After resolveImports: the files imported, directly or not, each once, in load order (the
  // names as in the imported declarations' locations).
  std::vector<std::string> importedFiles;
};

// Prints an expression back in concrete syntax (fully parenthesized); used by tests and
// debugging output.
std::string show(const Expr& e);
std::string show(const Type& t);

}  // namespace fftc::compiler::frontend::ast
