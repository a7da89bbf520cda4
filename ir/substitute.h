// Free Params and capture-free substitution: replacing Params by expressions, and copies in
// which every Lambda binds new Params. Used by beta reduction, the rewrite rules and the front end.
#pragma once

#include <set>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/traversal.h"

namespace fftc::ir {

// Some occurrence of p (of one of ps) in e or f.
bool uses(const ExprPtr& e, const Param* p);
bool uses(const FunPtr& f, const Param* p);
bool usesAny(const ExprPtr& e, const std::vector<ParamPtr>& ps);
bool usesAny(const FunPtr& f, const std::vector<ParamPtr>& ps);

// The Params a node reads that it does not bind itself (a closed expression has none), for
// each distinct node once; a FreeParams kept across queries answers again from memory.
class FreeParams : public IRFold<std::set<const Param*>> {
 protected:
  using Set = std::set<const Param*>;
  Set leaf(const ExprPtr& e) override;
  Set call(const FunCall& c, const std::vector<const Set*>& children) override;
  Set fun(const FunDecl& f, const std::vector<const Set*>& children) override;
};

struct UseCount {
  int count = 0;               // occurrences on all paths from the root, capped at 2
  bool underFunction = false;  // some occurrence is evaluated once per element or call: in a
                               // nested function (map's f) or the body of a Lambda
};
// Occurrences in a function's own expressions (reduce's init, pad's constant) are evaluated
// once with the call, so they are not under a function unless that function is itself nested.
UseCount countUses(const ExprPtr& e, const Param* p);

using Substitution = std::unordered_map<const Param*, ExprPtr>;
// e with Params replaced (no capture is possible: Params are identities, not names). A
// replacement that contains a Lambda and is used more than once is copied with fresh Params for
// every further use, so a Lambda never binds the same Param at two places of a tree. Shared
// subtrees are substituted once and stay shared. Returns e itself when nothing was replaced.
ExprPtr substitute(const ExprPtr& e, const Substitution& s);
// A copy of e in which every Lambda binds new Params (same names and types).
ExprPtr freshen(const ExprPtr& e);

}  // namespace fftc::ir
