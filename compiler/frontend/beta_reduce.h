// Beta reduction of `(fun (p1..pk) => body)(a1..ak)` during elaboration, where it cannot change
// what is computed or how often: so `stCombine <<: stPerm <<: v` inlines into one pipeline of
// patterns, as the paper's Listing 2 shows ("the LIFT compiler inlines all of these functions").
#pragma once

#include <optional>
#include <vector>

#include "ir/expr.h"

namespace fftc::compiler::frontend {

// The body with each pi replaced by ai, if for every i: ai is a Param or a Literal (always
// safe), or pi occurs at most once and not inside a nested function (map's f, a lambda), where
// the substitution could evaluate ai once per element. nullopt otherwise (keep the call).
std::optional<ir::ExprPtr> betaReduce(const ir::LambdaPtr& f, const std::vector<ir::ExprPtr>& args);

}  // namespace fftc::compiler::frontend
