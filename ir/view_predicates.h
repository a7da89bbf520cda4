// The one answer to "is this only data layout (a view, no code)?" and to "can an output be
// written through it?", for the rewriter, the folder and the code generator alike.
#pragma once

#include <vector>

#include "ir/expr.h"

namespace fftc::ir {

// Patterns that run no loop of their own: the views below, plus generators and tables (their
// elements are computed where they are read) and a pad with a constant (the constant is
// written). Copying a call of one duplicates no loop (see isCheap in beta_reduce.h).
bool isDataLayout(const FunDecl& f);

// A function that only rearranges its arguments, so that code generation reads it as a view
// and emits no code for it: zip, split, join, transpose, get, slide, id, a pad that is not
// constant, gather, a high-level map of a view, and a Lambda whose body is a view of its Params.
bool isView(const FunDecl& f);
// A Param, or a view applied to views.
bool isViewExpr(const ExprPtr& e);

// A view an output can be written through (the code generator inverts it onto the
// destination): join, split, transpose, id, crop, a gather whose list is a permutation (written
// through the inverse permutation), a high-level map of such a function, and a
// one-Param Lambda whose body is a chain of such views applied to that Param.
bool isWritableView(const FunDecl& f);

// The copies of a reduction step's element into local memory (rewrites' stageLocal): the
// `toLocal` calls of `step`'s body (a Lambda of (acc, element)) that run once a step (in the
// arguments of its calls and the bodies of Lambdas applied there, not inside a map's or a
// reduction's function), whose argument is a view of the element alone and whose function
// only copies (maps whose functions copy, views; at least one map). What
// reduceSeqPrefetch's code generation loads one step early (docs/codegen.md).
std::vector<const FunCall*> stagedElementCopies(const Lambda& step);

}  // namespace fftc::ir
