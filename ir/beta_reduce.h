// The one beta reduction of the IR, `(fun (p1..pk) => body)(a1..ak)` -> body[pi := ai] where
// that neither duplicates nor moves work into a loop, and the beta-eta normal form built on it.
#pragma once

#include <optional>
#include <vector>

#include "ir/expr.h"

namespace fftc::ir {

// Params, Literals and data-layout patterns (isDataLayout) over cheap expressions: copying one
// duplicates no work (a generator evaluates an element where it is read).
bool isCheap(const ExprPtr& e);

// The body of f with each Param replaced by its argument, when for every i: ai is cheap, or pi
// occurs at most once and not under a function (countUses in substitute.h). A k-ary Lambda
// applied to one tuple binds the tuple's components (a tuple() call's arguments, or get(i) of a
// cheap tuple). nullopt when that cannot be done: the caller keeps the call.
std::optional<ExprPtr> betaReduce(const Lambda& f, const std::vector<ExprPtr>& args);
// f applied to args: beta-reduced where betaReduce can, else the FunCall.
ExprPtr applyFun(const FunPtr& f, std::vector<ExprPtr> args);

// A function usable as a pattern's function child in eta-expanded form: a pattern p becomes
// fun x => p(x); Lambdas, Builtins, UserFuns and generators are returned as they are.
FunPtr etaFun(const FunPtr& f);

// The normal form the rewriter starts from: the function children of map/reduce/iterate are
// eta-expanded (map(map(f)) becomes map(fun x => map(f)(x))) so that every pattern application
// is a FunCall, and applied Lambdas are beta-reduced where betaReduce allows. Returns e itself
// when it is already in this form. The result is untyped where it changed (re-infer).
ExprPtr betaEta(const ExprPtr& e);

}  // namespace fftc::ir
