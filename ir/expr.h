// The expression IR, as in LIFT: Expr = Param | Literal | FunCall(FunDecl, args) and
// FunDecl = Lambda | UserFun | Builtin | one class per pattern. Nodes are immutable and shared.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "ir/arith/arith_expr.h"
#include "ir/diagnostic.h"
#include "ir/type.h"

namespace fftc::ir {

class Expr;
class Param;
class Literal;
class FunCall;
class FunDecl;
class Lambda;
using ExprPtr = std::shared_ptr<const Expr>;
using ParamPtr = std::shared_ptr<const Param>;
using LiteralPtr = std::shared_ptr<const Literal>;
using FunCallPtr = std::shared_ptr<const FunCall>;
using FunPtr = std::shared_ptr<const FunDecl>;
using LambdaPtr = std::shared_ptr<const Lambda>;

// ---------------------------------------------------------------------------------------------
// Expressions. type() is null until inference; inferTypes (infer.h) returns a typed copy in
// which every Expr carries its type (types live in the nodes, a node is typed exactly once).
// Casting is LLVM-style: e->as<FunCall>() is null when e is not a FunCall.

enum class ExprKind : uint8_t { Param, Literal, FunCall };

class Expr : public std::enable_shared_from_this<Expr> {
 public:
  virtual ~Expr() = default;
  Expr(const Expr&) = delete;
  Expr& operator=(const Expr&) = delete;

  ExprKind kind() const { return kind_; }
  const Type& type() const { return type_; }
  const SourceLoc& loc() const { return loc_; }

  template <class T>
  const T* as() const {
    return T::classof(kind_) ? static_cast<const T*>(this) : nullptr;
  }
  template <class T>
  bool is() const {
    return T::classof(kind_);
  }
  ExprPtr ptr() const { return shared_from_this(); }

 protected:
  Expr(ExprKind k, Type t, SourceLoc loc) : kind_(k), type_(std::move(t)), loc_(std::move(loc)) {}

 private:
  ExprKind kind_;
  Type type_;
  SourceLoc loc_;
};

// A variable bound by a Lambda (or free: a kernel input). Identity is the node itself (compare
// pointers); the name is only for printing. `annotated` = the type was written by the user
// (kernel and userfun parameters): inference checks it instead of overwriting it.
class Param final : public Expr {
 public:
  static bool classof(ExprKind k) { return k == ExprKind::Param; }
  // annotated = bool(type)
  static ParamPtr make(std::string name, Type type = {}, SourceLoc loc = {});

  const std::string& name() const { return name_; }
  uint64_t id() const { return id_; }  // unique per Param node, for printing and hashing
  bool annotated() const { return annotated_; }
  // A new Param (new identity) with the given inferred type, same name, loc and annotation.
  ParamPtr withType(Type t) const;

  // private in spirit: use make()
  Param(std::string name, Type t, SourceLoc loc, bool annotated);

 private:
  std::string name_;
  uint64_t id_;
  bool annotated_;
};

// Literals are scalars: an int (an ArithExpr: a constant, or symbolic in size variables such as
// N; the interpreter evaluates it with the size bindings), a real of a given precision, or a
// complex value. Tuple literals are FunCalls of Builtin(MakeTuple) (builders::tuple).
enum class LiteralKind : uint8_t { Int, Real, Complex };

class Literal final : public Expr {
 public:
  static bool classof(ExprKind k) { return k == ExprKind::Literal; }
  static LiteralPtr makeInt(ArithExpr value, SourceLoc loc = {});
  // Float literals are rounded to float here, so the stored double is exactly the float value.
  static LiteralPtr makeReal(double value, ScalarKind precision, SourceLoc loc = {});
  static LiteralPtr makeComplex(double re, double im, ScalarKind precision, SourceLoc loc = {});

  LiteralKind litKind() const { return litKind_; }
  const ArithExpr& intValue() const { return int_; }  // Int
  double realValue() const { return re_; }           // Real
  double re() const { return re_; }                  // Complex (and Real)
  double im() const { return im_; }                  // Complex
  ScalarKind precision() const { return type().scalarKind(); }
  std::string valueStr() const;  // "42", "1.5f", "{1.0, -0.5}"

  Literal(LiteralKind k, Type t, ArithExpr i, double re, double im, SourceLoc loc);

 private:
  LiteralKind litKind_;
  ArithExpr int_;
  double re_, im_;
};

// f(args...). Generators (array/array2/array3) are FunCalls with no arguments.
class FunCall final : public Expr {
 public:
  static bool classof(ExprKind k) { return k == ExprKind::FunCall; }
  static FunCallPtr make(FunPtr f, std::vector<ExprPtr> args, SourceLoc loc = {}, Type type = {});

  const FunPtr& f() const { return f_; }
  const std::vector<ExprPtr>& args() const { return args_; }
  const ExprPtr& arg(size_t i) const { return args_.at(i); }
  // Returns this node when f, args (by pointer) and type are unchanged, else a new FunCall.
  ExprPtr rebuild(FunPtr f, std::vector<ExprPtr> args, Type type) const;

  FunCall(FunPtr f, std::vector<ExprPtr> args, SourceLoc loc, Type type);

 private:
  FunPtr f_;
  std::vector<ExprPtr> args_;
};

// ---------------------------------------------------------------------------------------------
// Function declarations. Functions are not values: they appear as the callee of a FunCall or
// as the argument of a pattern (map's f). They carry no type; the types at a use are those of
// the FunCall's args and result (and, after inference, of a Lambda's Params).

enum class FunKind : uint8_t {
  Lambda, UserFun, Builtin,
  // high-level patterns
  Map, Reduce, Zip, Split, Join, Transpose, ArrayGen, Pad, Crop, Slide, Iterate, Id, Get, Gather,
  // a constant array computed at compile time (rewrites/fold_closed.h)
  Table,
  // low-level patterns
  MapGlobal, MapWorkgroup, MapLocal, MapSeq, MapSeqUnroll, ReduceSeq, ReduceSeqUnroll,
  ToGlobal, ToLocal, ToPrivate,
};

class FunDecl : public std::enable_shared_from_this<FunDecl> {
 public:
  virtual ~FunDecl() = default;
  FunDecl(const FunDecl&) = delete;
  FunDecl& operator=(const FunDecl&) = delete;

  FunKind kind() const { return kind_; }
  const SourceLoc& loc() const { return loc_; }
  // Number of arguments a FunCall of it takes (a k-ary function also accepts one k-tuple).
  virtual size_t arity() const = 0;
  // The language's name: "map", "mapGlobal", "array2", "add", a userfun's name, "fun".
  virtual std::string name() const;

  // The children every walk goes through (traversal.h): nested functions (map's f, iterate's
  // f, a generator's f) and nested expressions (a Lambda's body, reduce's init, pad's constant).
  virtual std::vector<FunPtr> funChildren() const { return {}; }
  virtual std::vector<ExprPtr> exprChildren() const { return {}; }
  // A copy with new children (same counts as the getters); returns this node itself when every
  // child is the same pointer. Throws std::invalid_argument on wrong counts.
  virtual FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const;

  bool isPattern() const { return kind_ >= FunKind::Map; }
  bool isLowLevel() const { return kind_ >= FunKind::MapGlobal; }
  // Whether it is only data layout (a view): see view_predicates.h.

  template <class T>
  const T* as() const {
    return T::classof(kind_) ? static_cast<const T*>(this) : nullptr;
  }
  template <class T>
  bool is() const {
    return T::classof(kind_);
  }
  FunPtr ptr() const { return shared_from_this(); }

 protected:
  FunDecl(FunKind k, SourceLoc loc) : kind_(k), loc_(std::move(loc)) {}

 private:
  FunKind kind_;
  SourceLoc loc_;
};

// fun (p1, ..., pk) => body. Applied to k arguments, or to one k-tuple whose components bind
// the params (so map(fun (x, y) => ...) works over zip(xs, ys)).
class Lambda final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Lambda; }
  static LambdaPtr make(std::vector<ParamPtr> params, ExprPtr body, SourceLoc loc = {});
  const std::vector<ParamPtr>& params() const { return params_; }
  const ExprPtr& body() const { return body_; }
  size_t arity() const override { return params_.size(); }
  std::string name() const override { return "fun"; }
  std::vector<ExprPtr> exprChildren() const override { return {body_}; }
  FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override;

  Lambda(std::vector<ParamPtr> params, ExprPtr body, SourceLoc loc);

 private:
  std::vector<ParamPtr> params_;
  ExprPtr body_;
};

// userfun NAME(a: T, ...): R = "C body". Scalar (non-array) params and result. The interpreter
// runs a C++ implementation registered under NAME (InterpreterOptions::userFuns).
class UserFun final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::UserFun; }
  static std::shared_ptr<const UserFun> make(std::string name, std::vector<std::string> paramNames,
                                             std::vector<Type> paramTypes, Type returnType,
                                             std::string body, SourceLoc loc = {});
  std::string name() const override { return name_; }
  const std::vector<std::string>& paramNames() const { return paramNames_; }
  const std::vector<Type>& paramTypes() const { return paramTypes_; }
  const Type& returnType() const { return returnType_; }
  const std::string& body() const { return body_; }
  size_t arity() const override { return paramTypes_.size(); }

  UserFun(std::string name, std::vector<std::string> paramNames, std::vector<Type> paramTypes,
          Type returnType, std::string body, SourceLoc loc);

 private:
  std::string name_;
  std::vector<std::string> paramNames_;
  std::vector<Type> paramTypes_;
  Type returnType_;
  std::string body_;
};

// Scalar operations: the operators of the language (a + b is FunCall(Builtin(Add), {a, b})),
// the built-in functions usable as arguments (add sub mult neg; `id` is the Id pattern), the
// math builtins, and tuple construction ({a, b} with non-literal parts).
//   Add Sub Mul Div Mod: int, real, complex (Mod: int and real); int meets real -> real; real
//                        meets complex -> complex; float meets double -> double (as in C).
//                        Int Div/Mod use FLOOR semantics (like ArithExpr): -7 / 2 == -4,
//                        -7 % 2 == 1. Real Mod is a - b * floor(a / b).
//   Neg; Cos Sin Sqrt: real; Exp: real or complex; Conj: complex; Re Im: complex -> real;
//   CisPi(x) = cos(pi x) + i sin(pi x): real -> complex; CisPiRatio(p, q) = CisPi(p / q) for
//   ints p, q (q != 0), the quotient never rounded: int x int -> complex; MakeComplex(re, im);
//   MakeTuple(n).
enum class BuiltinOp : uint8_t {
  Add, Sub, Mul, Div, Mod, Neg, Cos, Sin, Exp, Sqrt, Conj, Re, Im, CisPi, CisPiRatio, MakeComplex,
  MakeTuple,
};
std::string builtinName(BuiltinOp op);  // "add" "sub" "mult" "div" "mod" "neg" "cos" ... "complex" "tuple"

class Builtin final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Builtin; }
  // arity is only used for MakeTuple (>= 1); the other ops have fixed arities. precision only
  // for CisPiRatio: its operands are ints, so none gives its complex result a precision (the
  // front end gives the program's; rewriting and re-typing keep it with the node).
  static std::shared_ptr<const Builtin> make(BuiltinOp op, size_t tupleArity = 0,
                                             SourceLoc loc = {},
                                             ScalarKind precision = ScalarKind::Float);
  BuiltinOp op() const { return op_; }
  size_t arity() const override { return arity_; }
  ScalarKind precision() const { return precision_; }
  std::string name() const override { return builtinName(op_); }

  Builtin(BuiltinOp op, size_t arity, SourceLoc loc, ScalarKind precision);

 private:
  BuiltinOp op_;
  size_t arity_;
  ScalarKind precision_;
};

// ---------------------------------------------------------------------------------------------
// Patterns.

// map and its low-level variants: [a]n -> [b]n for f: a -> b.
class AbstractMap : public FunDecl {
 public:
  static bool classof(FunKind k) {
    return k == FunKind::Map || (k >= FunKind::MapGlobal && k <= FunKind::MapSeqUnroll);
  }
  const FunPtr& f() const { return f_; }
  size_t arity() const override { return 1; }
  std::vector<FunPtr> funChildren() const override { return {f_}; }
  // mapGlobal/mapWorkgroup/mapLocal: the dimension 0..2; -1 for the others.
  virtual int dim() const { return -1; }

 protected:
  AbstractMap(FunKind k, FunPtr f, SourceLoc loc) : FunDecl(k, std::move(loc)), f_(std::move(f)) {}
  FunPtr f_;
};

#define FFTC_IR_MAP_CLASS(Cls)                                                              \
  class Cls final : public AbstractMap {                                                    \
   public:                                                                                  \
    static bool classof(FunKind k) { return k == FunKind::Cls; }                            \
    static std::shared_ptr<const Cls> make(FunPtr f, SourceLoc loc = {});                   \
    FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override; \
    Cls(FunPtr f, SourceLoc loc) : AbstractMap(FunKind::Cls, std::move(f), std::move(loc)) {} \
  };
FFTC_IR_MAP_CLASS(Map)
FFTC_IR_MAP_CLASS(MapSeq)
FFTC_IR_MAP_CLASS(MapSeqUnroll)
#undef FFTC_IR_MAP_CLASS

// mapGlobal(d, f), mapWorkgroup(d, f), mapLocal(d, f); make() throws CompileError unless
// 0 <= d <= 2.
#define FFTC_IR_PAR_MAP_CLASS(Cls)                                                          \
  class Cls final : public AbstractMap {                                                    \
   public:                                                                                  \
    static bool classof(FunKind k) { return k == FunKind::Cls; }                            \
    static std::shared_ptr<const Cls> make(int dim, FunPtr f, SourceLoc loc = {});          \
    int dim() const override { return dim_; }                                               \
    FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override; \
    Cls(int dim, FunPtr f, SourceLoc loc)                                                   \
        : AbstractMap(FunKind::Cls, std::move(f), std::move(loc)), dim_(dim) {}             \
                                                                                            \
   private:                                                                                 \
    int dim_;                                                                               \
  };
FFTC_IR_PAR_MAP_CLASS(MapGlobal)
FFTC_IR_PAR_MAP_CLASS(MapLocal)
#undef FFTC_IR_PAR_MAP_CLASS

// mapWorkgroup(d, f), and mapCluster(C, f): a mapWorkgroup(0) whose every iteration is run by a
// thread-block cluster of C work-groups (CUDA sm_90) instead of one. Inside it the work-group is
// the cluster: a mapLocal(0) spans the C blocks' work-items, a local array is distributed over
// their shared memories (element i in block i / (n/C)), a barrier is the cluster's
// (docs/language.md, "Thread-block clusters"). cluster() is 1 for a plain mapWorkgroup.
class MapWorkgroup final : public AbstractMap {
 public:
  static bool classof(FunKind k) { return k == FunKind::MapWorkgroup; }
  static std::shared_ptr<const MapWorkgroup> make(int dim, FunPtr f, SourceLoc loc = {});
  // mapCluster(C, f); throws CompileError unless 1 <= C <= kMaxClusterBlocks.
  static std::shared_ptr<const MapWorkgroup> makeCluster(int64_t blocks, FunPtr f,
                                                         SourceLoc loc = {});
  // mapBlock(f), directly inside a mapCluster(C, ...): f over an array of C rows, row k run by
  // block k of the cluster alone; inside f the work-group is that block again (its mapLocal(0),
  // its own local arrays and barriers). Its dimension is 1 (a mapLocal(0) inside is the block's).
  static std::shared_ptr<const MapWorkgroup> makeBlocks(FunPtr f, SourceLoc loc = {});
  static constexpr int64_t kMaxClusterBlocks = 8;  // portable on Hopper (16 needs an opt-in)
  int dim() const override { return dim_; }
  int64_t cluster() const { return cluster_; }
  bool blocks() const { return cluster_ == kBlocks; }  // a mapBlock
  static constexpr int64_t kBlocks = -1;              // cluster() of a mapBlock
  std::string name() const override;
  FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override;
  MapWorkgroup(int dim, int64_t cluster, FunPtr f, SourceLoc loc)
      : AbstractMap(FunKind::MapWorkgroup, std::move(f), std::move(loc)), dim_(dim),
        cluster_(cluster) {}

 private:
  int dim_;
  int64_t cluster_;
};

// reduce(f, init) and its sequential variants: [b]n -> a for f: (a, b) -> a, init: a.
// init is an expression of the enclosing scope (it may use enclosing Params); FunCall args
// are just the array.
class AbstractReduce : public FunDecl {
 public:
  static bool classof(FunKind k) {
    return k == FunKind::Reduce || k == FunKind::ReduceSeq || k == FunKind::ReduceSeqUnroll;
  }
  const FunPtr& f() const { return f_; }
  const ExprPtr& init() const { return init_; }
  size_t arity() const override { return 1; }
  std::vector<FunPtr> funChildren() const override { return {f_}; }
  std::vector<ExprPtr> exprChildren() const override { return {init_}; }

 protected:
  AbstractReduce(FunKind k, FunPtr f, ExprPtr init, SourceLoc loc)
      : FunDecl(k, std::move(loc)), f_(std::move(f)), init_(std::move(init)) {}
  FunPtr f_;
  ExprPtr init_;
};

#define FFTC_IR_REDUCE_CLASS(Cls)                                                           \
  class Cls final : public AbstractReduce {                                                 \
   public:                                                                                  \
    static bool classof(FunKind k) { return k == FunKind::Cls; }                            \
    static std::shared_ptr<const Cls> make(FunPtr f, ExprPtr init, SourceLoc loc = {});     \
    FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override; \
    Cls(FunPtr f, ExprPtr init, SourceLoc loc)                                              \
        : AbstractReduce(FunKind::Cls, std::move(f), std::move(init), std::move(loc)) {}    \
  };
FFTC_IR_REDUCE_CLASS(Reduce)
FFTC_IR_REDUCE_CLASS(ReduceSeqUnroll)
#undef FFTC_IR_REDUCE_CLASS

// reduceSeq(f, init), and reduceSeqPrefetch(f, init) (prefetch()): a reduceSeq whose element's
// copies into local memory are software-pipelined. Its meaning is reduceSeq's (the
// interpreter and type inference treat it so); code generation loads element i+1's part of
// those copies into each work-item's registers before step i computes, and stores them into
// local memory at the start of step i+1 (docs/codegen.md, "Prefetched chunks").
class ReduceSeq final : public AbstractReduce {
 public:
  static bool classof(FunKind k) { return k == FunKind::ReduceSeq; }
  static std::shared_ptr<const ReduceSeq> make(FunPtr f, ExprPtr init, SourceLoc loc = {});
  static std::shared_ptr<const ReduceSeq> makePrefetch(FunPtr f, ExprPtr init,
                                                       SourceLoc loc = {});
  bool prefetch() const { return prefetch_; }
  std::string name() const override;
  FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override;
  ReduceSeq(FunPtr f, ExprPtr init, SourceLoc loc, bool prefetch = false)
      : AbstractReduce(FunKind::ReduceSeq, std::move(f), std::move(init), std::move(loc)),
        prefetch_(prefetch) {}

 private:
  bool prefetch_;
};

// zip of n >= 2 arrays of one size: [a1]n, ..., [ak]n -> [(a1, ..., ak)]n.
class Zip final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Zip; }
  static std::shared_ptr<const Zip> make(size_t n, SourceLoc loc = {});
  size_t arity() const override { return n_; }
  Zip(size_t n, SourceLoc loc) : FunDecl(FunKind::Zip, std::move(loc)), n_(n) {}

 private:
  size_t n_;
};

// split(m): [a]n -> [[a]m](n/m).
// asVector(m) (vector()): [t]n -> [<t>m](n/m), t a scalar: split whose chunks are vectors
// (Type::vector), which code generation copies with one vector load or store when they are
// contiguous and aligned in memory.
class Split final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Split; }
  static std::shared_ptr<const Split> make(ArithExpr chunk, SourceLoc loc = {});
  static std::shared_ptr<const Split> makeVector(ArithExpr width, SourceLoc loc = {});
  const ArithExpr& chunk() const { return chunk_; }
  bool vector() const { return vector_; }
  size_t arity() const override { return 1; }
  Split(ArithExpr chunk, SourceLoc loc, bool vector = false)
      : FunDecl(FunKind::Split, std::move(loc)), chunk_(std::move(chunk)), vector_(vector) {}

 private:
  ArithExpr chunk_;
  bool vector_;
};

// join: [[a]m]n -> [a](m*n).
// asScalar (scalar()): [<t>m]n -> [t](m*n), join of vectors only.
class Join final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Join; }
  static std::shared_ptr<const Join> make(SourceLoc loc = {});
  static std::shared_ptr<const Join> makeScalar(SourceLoc loc = {});
  bool scalar() const { return scalar_; }
  size_t arity() const override { return 1; }
  explicit Join(SourceLoc loc, bool scalar = false)
      : FunDecl(FunKind::Join, std::move(loc)), scalar_(scalar) {}

 private:
  bool scalar_;
};

// transpose: [[a]m]n -> [[a]n]m.
class Transpose final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Transpose; }
  static std::shared_ptr<const Transpose> make(SourceLoc loc = {});
  size_t arity() const override { return 1; }
  explicit Transpose(SourceLoc loc) : FunDecl(FunKind::Transpose, std::move(loc)) {}
};

// array(n, f), array2(n0, n1, f), array3(n0, n1, n2, f): a FunCall with no arguments whose
// value has type [[..[a]n_{k-1}..]n1]n0; element (i0, .., i_{k-1}) = f(i0, .., i_{k-1}, n0, ..,
// n_{k-1}), all 2k arguments ints. Sizes outermost first. 1 <= k <= 3.
class ArrayGen final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::ArrayGen; }
  static std::shared_ptr<const ArrayGen> make(std::vector<ArithExpr> sizes, FunPtr f,
                                              SourceLoc loc = {});
  const std::vector<ArithExpr>& sizes() const { return sizes_; }
  const FunPtr& f() const { return f_; }
  size_t arity() const override { return 0; }
  std::string name() const override;  // "array", "array2", "array3"
  std::vector<FunPtr> funChildren() const override { return {f_}; }
  FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override;
  ArrayGen(std::vector<ArithExpr> sizes, FunPtr f, SourceLoc loc)
      : FunDecl(FunKind::ArrayGen, std::move(loc)), sizes_(std::move(sizes)), f_(std::move(f)) {}

 private:
  std::vector<ArithExpr> sizes_;
  FunPtr f_;
};

// A table: a constant array whose elements were computed at compile time (the closed
// sub-expressions that rewrites::foldClosed evaluates with the interpreter). A FunCall with no
// arguments, like a generator; its value has type `type` ([..[s]n_{k-1}..]n0 of a real or
// complex scalar s, constant sizes) and the elements `values` in row-major order (reals with
// im = 0), rounded to the scalar's precision. Not part of the surface language.
class Table final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Table; }
  static std::shared_ptr<const Table> make(Type type,
                                           std::vector<std::complex<double>> values,
                                           SourceLoc loc = {});
  const Type& type() const { return type_; }
  const std::vector<std::complex<double>>& values() const { return *values_; }
  size_t arity() const override { return 0; }
  std::string name() const override { return "table"; }
  Table(Type type, std::shared_ptr<const std::vector<std::complex<double>>> values, SourceLoc loc)
      : FunDecl(FunKind::Table, std::move(loc)), type_(std::move(type)), values_(std::move(values)) {}

 private:
  Type type_;
  std::shared_ptr<const std::vector<std::complex<double>>> values_;
};

// pad(l, r, b): [a]n -> [a](l+n+r). Reading index j of the result reads the input at i = j - l
// when 0 <= i < n, otherwise:
//   Wrap: i mod n (floor);  Clamp: min(max(i, 0), n-1);
//   Mirror: reflect with the edge repeated (numpy "symmetric"): m = i mod 2n, then
//           m < n ? m : 2n-1-m   (so ... x1 x0 | x0 x1 ... x_{n-1} | x_{n-1} x_{n-2} ...);
//   Constant: the value (an expression of the element type, e.g. a literal).
enum class PadBoundary : uint8_t { Wrap, Clamp, Mirror, Constant };
std::string padBoundaryName(PadBoundary b);  // "wrap", "clamp", "mirror", "constant"

class Pad final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Pad; }
  // value must be non-null iff boundary == Constant.
  static std::shared_ptr<const Pad> make(ArithExpr left, ArithExpr right, PadBoundary boundary,
                                         ExprPtr value = nullptr, SourceLoc loc = {});
  const ArithExpr& left() const { return left_; }
  const ArithExpr& right() const { return right_; }
  PadBoundary boundary() const { return boundary_; }
  const ExprPtr& value() const { return value_; }  // Constant only
  size_t arity() const override { return 1; }
  std::vector<ExprPtr> exprChildren() const override;
  FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override;
  Pad(ArithExpr l, ArithExpr r, PadBoundary b, ExprPtr v, SourceLoc loc)
      : FunDecl(FunKind::Pad, std::move(loc)), left_(std::move(l)), right_(std::move(r)),
        boundary_(b), value_(std::move(v)) {}

 private:
  ArithExpr left_, right_;
  PadBoundary boundary_;
  ExprPtr value_;
};

// crop(l, r): [a](l+n+r) -> [a]n, the elements l .. l+n-1: pad's inverse (crop(l, r) o pad(l, r, b)
// is the identity). Read, it is an offset; as the destination of a computed array, the
// elements it drops are not written (code generation guards those stores), so that a kernel
// may compute whole work-groups of rows and keep only the rows that exist.
class Crop final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Crop; }
  static std::shared_ptr<const Crop> make(ArithExpr left, ArithExpr right, SourceLoc loc = {});
  const ArithExpr& left() const { return left_; }
  const ArithExpr& right() const { return right_; }
  size_t arity() const override { return 1; }
  Crop(ArithExpr l, ArithExpr r, SourceLoc loc)
      : FunDecl(FunKind::Crop, std::move(loc)), left_(std::move(l)), right_(std::move(r)) {}

 private:
  ArithExpr left_, right_;
};

// slide(s, t): [a]n -> [[a]s]((n-s+t)/t); window w is elements w*t .. w*t+s-1.
class Slide final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Slide; }
  static std::shared_ptr<const Slide> make(ArithExpr size, ArithExpr step, SourceLoc loc = {});
  const ArithExpr& size() const { return size_; }
  const ArithExpr& step() const { return step_; }
  size_t arity() const override { return 1; }
  Slide(ArithExpr s, ArithExpr t, SourceLoc loc)
      : FunDecl(FunKind::Slide, std::move(loc)), size_(std::move(s)), step_(std::move(t)) {}

 private:
  ArithExpr size_, step_;
};

// iterate(k, f): f applied k >= 0 times (k a compile-time int). f may change array sizes but
// not the shape of the type (its result must equal its argument modulo sizes).
class Iterate final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Iterate; }
  static std::shared_ptr<const Iterate> make(int64_t count, FunPtr f, SourceLoc loc = {});
  int64_t count() const { return count_; }
  const FunPtr& f() const { return f_; }
  size_t arity() const override { return 1; }
  std::vector<FunPtr> funChildren() const override { return {f_}; }
  FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override;
  Iterate(int64_t count, FunPtr f, SourceLoc loc)
      : FunDecl(FunKind::Iterate, std::move(loc)), count_(count), f_(std::move(f)) {}

 private:
  int64_t count_;
  FunPtr f_;
};

// id: T -> T (any type; also the built-in scalar function `id`).
class Id final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Id; }
  static std::shared_ptr<const Id> make(SourceLoc loc = {});
  size_t arity() const override { return 1; }
  explicit Id(SourceLoc loc) : FunDecl(FunKind::Id, std::move(loc)) {}
};

// get(i), x._i: component i of a tuple; on a complex value get(0) is re and get(1) is im.
class Get final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Get; }
  static std::shared_ptr<const Get> make(size_t index, SourceLoc loc = {});
  size_t index() const { return index_; }
  size_t arity() const override { return 1; }
  Get(size_t index, SourceLoc loc) : FunDecl(FunKind::Get, std::move(loc)), index_(index) {}

 private:
  size_t index_;
};

// gather(idx): [a]m -> [a]n, n = len(idx): element i is the input's element idx[i], a
// compile-time list of indices in [0, m) (LIFT's gather with an index table; Rader's generator
// permutation x_{g^q mod p}). A view: reading element i reads the input at the table's entry i.
// When idx is a permutation of 0 .. n-1 (m = n) it is also writable: element j of the input is
// written at inverse()[j].
class Gather final : public FunDecl {
 public:
  static bool classof(FunKind k) { return k == FunKind::Gather; }
  // Throws CompileError when an index is negative.
  static std::shared_ptr<const Gather> make(std::vector<int64_t> indices, SourceLoc loc = {});
  const std::vector<int64_t>& indices() const { return *indices_; }
  // The inverse permutation, empty when indices is not a permutation of 0 .. n-1.
  const std::vector<int64_t>& inverse() const { return *inverse_; }
  size_t arity() const override { return 1; }
  std::string name() const override { return "gather"; }
  Gather(std::shared_ptr<const std::vector<int64_t>> indices,
         std::shared_ptr<const std::vector<int64_t>> inverse, SourceLoc loc)
      : FunDecl(FunKind::Gather, std::move(loc)), indices_(std::move(indices)),
        inverse_(std::move(inverse)) {}

 private:
  std::shared_ptr<const std::vector<int64_t>> indices_, inverse_;
};

// toGlobal(f), toLocal(f), toPrivate(f): f, with its result stored in that address space.
enum class AddressSpace : uint8_t { Global, Local, Private };

class AbstractTo : public FunDecl {
 public:
  static bool classof(FunKind k) { return k >= FunKind::ToGlobal && k <= FunKind::ToPrivate; }
  const FunPtr& f() const { return f_; }
  AddressSpace space() const;
  size_t arity() const override { return f_->arity(); }
  std::vector<FunPtr> funChildren() const override { return {f_}; }

 protected:
  AbstractTo(FunKind k, FunPtr f, SourceLoc loc) : FunDecl(k, std::move(loc)), f_(std::move(f)) {}
  FunPtr f_;
};

#define FFTC_IR_TO_CLASS(Cls)                                                               \
  class Cls final : public AbstractTo {                                                     \
   public:                                                                                  \
    static bool classof(FunKind k) { return k == FunKind::Cls; }                            \
    static std::shared_ptr<const Cls> make(FunPtr f, SourceLoc loc = {});                   \
    FunPtr withChildren(std::vector<FunPtr> funs, std::vector<ExprPtr> exprs) const override; \
    Cls(FunPtr f, SourceLoc loc) : AbstractTo(FunKind::Cls, std::move(f), std::move(loc)) {} \
  };
FFTC_IR_TO_CLASS(ToGlobal)
FFTC_IR_TO_CLASS(ToLocal)
FFTC_IR_TO_CLASS(ToPrivate)
#undef FFTC_IR_TO_CLASS

}  // namespace fftc::ir
