// The imperative kernel AST that code generation produces and the C-like printers (OpenCL C,
// CUDA C) print: C types, expressions over ArithExpr indices, statements, kernels, a module.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "ir/arith/arith_expr.h"

namespace fftc::backends {

// Where a variable or a pointer's data lives. Constant = read-only tables (`__constant`).
enum class MemSpace : uint8_t { Global, Local, Private, Constant };

// A C value type: scalars, complex (float2/double2 in both dialects), structs by name.
struct CType {
  enum class Kind : uint8_t { Void, Bool, Int, Float, Double, ComplexFloat, ComplexDouble, Struct };
  Kind kind = Kind::Void;
  std::string structName;  // Struct

  static CType of(Kind k) { return CType{k, {}}; }
  static CType structType(std::string name) { return CType{Kind::Struct, std::move(name)}; }
  bool isComplex() const { return kind == Kind::ComplexFloat || kind == Kind::ComplexDouble; }
  bool isReal() const { return kind == Kind::Float || kind == Kind::Double; }
  bool isDouble() const { return kind == Kind::Double || kind == Kind::ComplexDouble; }
  bool operator==(const CType& o) const { return kind == o.kind && structName == o.structName; }
};

// ---- expressions
enum class CExprKind : uint8_t {
  Var,        // name
  Index,      // an integer ArithExpr, printed with toC()
  RealLit,    // real in the precision of `type`
  ComplexLit, // re, im
  Unary,      // op a
  Binary,     // a op b
  Compare,    // ArithExpr a op ArithExpr b (a condition on indices)
  Call,       // name(args)
  Member,     // a.name (struct fields _0.., complex .x/.y)
  Subscript,  // a[index]
  Select,     // c ? a : b
  Cast,       // (type) a
  MakeComplex,// (float2)(a, b) / make_float2(a, b); with n args a vector (float4)(a, b, c, d)
  WorkItem,   // get_global_id(d) etc.
  Vector,     // elements index .. index + dim-1 of array args[0] (a Var) as one vector of `dim`
              // scalars of `type`: a load, or the target of an Assign (a store); the index a
              // multiple of dim and the array aligned to the vector (docs/codegen.md, "Vectors")
};

enum class WorkItemFn : uint8_t { GlobalId, LocalId, GroupId, GlobalSize, LocalSize, NumGroups };

struct CExprNode;
using CExpr = std::shared_ptr<const CExprNode>;

struct CExprNode {
  CExprKind kind = CExprKind::Var;
  CType type;                 // the C type of the value (Void when unknown)
  std::string name;           // Var, Call, Member, Unary/Binary/Compare operator
  ir::ArithExpr index;        // Index, Subscript, Compare (lhs)
  ir::ArithExpr index2;       // Compare (rhs)
  double re = 0, im = 0;      // RealLit, ComplexLit
  std::vector<CExpr> args;    // operands
  WorkItemFn fn = WorkItemFn::GlobalId;
  int dim = 0;
};

// The helper a kernel of a thread-block cluster calls for another block's share of a
// distributed local array: fftc_cluster_array(array, rank) is a pointer to the array of the
// cluster's block `rank` (CUDA: mapa, the generic address of its shared memory).
constexpr char kClusterArray[] = "fftc_cluster_array";

CExpr cVar(std::string name, CType type = {});
CExpr cIndex(ir::ArithExpr e);
CExpr cReal(double v, CType type);
CExpr cComplex(double re, double im, CType type);
CExpr cUnary(std::string op, CExpr a, CType type);
CExpr cBinary(std::string op, CExpr a, CExpr b, CType type);
CExpr cCompare(ir::ArithExpr a, std::string op, ir::ArithExpr b);
CExpr cAnd(CExpr a, CExpr b);
CExpr cCall(std::string name, std::vector<CExpr> args, CType type);
CExpr cMember(CExpr a, std::string field, CType type);
CExpr cSubscript(CExpr base, ir::ArithExpr index, CType type);
CExpr cSelect(CExpr c, CExpr a, CExpr b, CType type);
CExpr cCast(CType type, CExpr a);
CExpr cMakeComplex(CExpr re, CExpr im, CType type);
// A vector of `type` (vectorCType) made of its elements: (float4)(a, b, c, d) / make_float4(..).
CExpr cMakeVector(std::vector<CExpr> parts, CType type);
CExpr cWorkItem(WorkItemFn fn, int dim);
CExpr cVector(CExpr array, ir::ArithExpr index, int width, CType elem);
// The C type of a vector of `width` scalars of `elem` (float4: the built-in type of both
// dialects, printed by name).
CType vectorCType(const CType& elem, int width);

// True for expressions cheap and side-effect free enough to repeat (no temporary needed).
bool isTrivial(const CExpr& e);
// True when the expression is a compile-time literal (real/complex/int constant).
bool isLiteral(const CExpr& e);

// ---- statements
enum class StmtKind : uint8_t { Block, Decl, Assign, For, If, Barrier, Comment, ExprStmt };

struct Stmt;
using StmtPtr = std::shared_ptr<Stmt>;

struct Stmt {
  StmtKind kind = StmtKind::Block;
  std::vector<StmtPtr> body;            // Block, For, If (then)
  // Decl
  CType type;
  std::string name;                     // Decl, For (loop variable), Comment (text)
  MemSpace space = MemSpace::Private;
  std::optional<int64_t> arrayCount;    // Decl of an array
  // A local array carved from the kernel's dynamic local memory at this byte offset (CUDA's
  // `extern __shared__`, when a kernel's local arrays exceed what static arrays may take):
  // printed as a pointer into it (CDialect::dynamicLocalArray).
  std::optional<int64_t> dynamicOffset;
  bool isConst = false;
  int64_t align = 0;                    // Decl of a local array: its alignment in bytes (vectors)
  CExpr init;                           // Decl init, For start
  // Assign / ExprStmt
  CExpr lhs, rhs;
  // For: for (int name = init; name < bound; name += step), `long` (the dialect's int64Type)
  // when `wide`: sFor sets it where an int could not reach the bound (loopNeedsWide).
  ir::ArithExpr bound;
  CExpr boundExpr;                      // used instead of `bound` when set
  CExpr step;                           // null: ++
  bool unroll = false;                  // #pragma unroll
  bool wide = false;                    // a 64-bit loop variable
  // If
  CExpr cond;
  // Barrier
  bool localFence = true, globalFence = false;
  // In a kernel of thread-block clusters: the block's own barrier (it orders only the block's
  // local arrays, a mapBlock's), not the cluster's.
  bool blockOnly = false;
};

StmtPtr sBlock();
StmtPtr sDecl(CType type, std::string name, CExpr init, bool isConst = false);
StmtPtr sArrayDecl(CType type, std::string name, int64_t count, MemSpace space);
StmtPtr sAssign(CExpr lhs, CExpr rhs);
StmtPtr sFor(std::string var, CExpr start, ir::ArithExpr bound, CExpr step);
// Index width follows the sizes: a loop variable is 64-bit when the bound is a constant (or has
// a constant upper bound) that an int variable could not reach without overflowing: 2^31 or
// more for `++` loops; more than 2^30 for loops that step by the grid (`step` set: the last
// index plus the stride, at most the bound again, must stay below 2^31). Symbolic sizes are
// int kernel arguments, so a loop over one stays int.
bool loopNeedsWide(const ir::ArithExpr& bound, bool strided);
StmtPtr sIf(CExpr cond);
StmtPtr sBarrier(bool localFence, bool globalFence);
StmtPtr sComment(std::string text);

// ---- kernels and modules
struct KernelParam {
  std::string name;
  CType type;                  // element type for pointers
  bool pointer = false;
  MemSpace space = MemSpace::Global;
  bool readOnly = false;       // const data
};

struct KernelFunc {
  std::string name;
  std::vector<KernelParam> params;
  StmtPtr body;                // a Block
  // The work-items of one work-group it is launched with (the stage's final geometry), 0 when
  // not known: CUDA's __launch_bounds__, so that the register allocation lets such a block run.
  int64_t maxWorkItems = 0;
  // With maxWorkItems, the blocks that must fit a multiprocessor at once (CUDA's
  // __launch_bounds__ second argument); 0: not given.
  int64_t minBlocks = 0;
  // The work-groups of a thread-block cluster it is launched in (mapCluster: CUDA's
  // __cluster_dims__(C, 1, 1)); its barriers are the cluster's. 1: no clusters.
  int64_t clusterBlocks = 1;
};

struct StructDef {
  std::string name;
  std::vector<CType> fields;   // named _0, _1, ...
};

// A table compiled into the source: `__constant T name[n] = {...}`.
struct ConstTable {
  std::string name;
  CType type;
  std::vector<CExpr> values;   // literals
};

struct UserFunDef {
  std::string name;
  std::vector<std::pair<std::string, CType>> params;
  CType result;
  std::string body;            // the user's C body (statements, or one expression)
};

// Facts about a module are recorded by code generation when it builds the module
// (compiler/codegen/kernel_facts.h); the printer reads them and never searches printed text.
struct Module {
  bool usesDouble = false;  // some C type is double: OpenCL's cl_khr_fp64, the f64 helpers
  bool usesFloat = true;
  std::set<std::string> helpers;  // the helper functions the code calls ("fftc_cmul_f", ...)
  std::vector<StructDef> structs;
  std::vector<ConstTable> tables;
  std::vector<UserFunDef> userFuns;
  std::vector<KernelFunc> kernels;
};

}  // namespace fftc::backends
