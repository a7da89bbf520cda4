// Readable text of (typed) programs, close to the language's syntax (`fftc compile --emit ir`).
#pragma once

#include <string>

#include "ir/expr.h"

namespace fftc::ir {

struct PrintOptions {
  bool types = true;      // lambda parameter types and `: T` after each pattern application
  int indentWidth = 2;
};

// E.g. "join <<: transpose <<: map(fun (x: [float]4) => ...) <<: split(4) <<: v".
std::string print(const ExprPtr& e, const PrintOptions& options = {});
std::string print(const FunPtr& f, const PrintOptions& options = {});

}  // namespace fftc::ir
