// Type inference: types every node of a program once, checks sizes (zip, split divisibility,
// reduce, pad, slide), pattern arities and the nesting of low-level patterns.
#pragma once

#include <memory>
#include <vector>

#include "ir/expr.h"
#include "ir/traversal.h"

namespace fftc::ir {

// What earlier runs of inference returned (infer.cpp): a node that an earlier run returned,
// met again in the same parallel nesting while every enclosing Lambda keeps its Params, types
// to itself, so it is not walked again. The rewrite engine keeps one per strategy run: after a
// rule rewrote one position, only the path to it and the new nodes are re-typed instead of the
// whole program (which made a normalize over an n-step pipe cubic in n, issue 20).
struct InferMemo;
std::shared_ptr<InferMemo> makeInferMemo();

struct InferOptions {
  // The precision that ints get where they must become real and no real operand gives one
  // (cos(k), cispi(k), complex(0, 0)): the program's `real` (--precision).
  ScalarKind real = ScalarKind::Float;
  // Null: every run types the whole program. Shared by copies of the options.
  std::shared_ptr<InferMemo> memo;
  // iterate(k, f) whose f changes the type (sizes) at every step is typed step by step, at
  // most this many steps (a step that keeps the type ends the walk: the rest are the same).
  int64_t maxIterateSteps = 4096;
};

// Returns a typed copy of `e`: every Expr in it has type() set; Lambda Params are replaced by
// typed Params (new identities) unless they already carried the right type. Nodes that were
// already typed as inference types them are kept (pointer identity): inferTypes on a typed
// program returns the same pointer. Free Params (kernel inputs) must carry a type.
// Throws CompileError (with the offending node's SourceLoc) on any type error.
//
// Implicit conversions made here (so later stages never see them untyped):
//  - a tuple of two int/real scalars ({0, 0}, {a, b}) where a complex is expected (reduce's
//    init over complex elements, a userfun's complex parameter, an operand of complex
//    arithmetic, a pad constant) becomes complex(a, b), a complex Literal when both are literals;
//  - int meeting real in arithmetic is not rewritten: the FunCall's type says real and both
//    the interpreter and the code generators convert the int operand.
//
// split(m) of [a]n: accepted when provablyDivisible(n, m); rejected when n % m simplifies to a
// non-zero constant (constant sizes, or e.g. 2*N+1 by 2); otherwise (symbolic, unknown) accepted:
// the user promised divisibility, and -D or the runtime size check catches a violation.
ExprPtr inferTypes(const ExprPtr& e, const InferOptions& options = {});

// Types a function whose Params all carry types (a kernel) and returns the typed Lambda.
LambdaPtr inferTypes(const LambdaPtr& f, const InferOptions& options = {});

// Types `f` applied to arguments of the given types (e.g. map's f to an element type): the
// typed copy of f and the type of f(args).
TypedFun inferCall(const FunPtr& f, const std::vector<Type>& argTypes,
                   const InferOptions& options = {});

}  // namespace fftc::ir
