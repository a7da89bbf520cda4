// The textual strategy language of `fftc compile --rewrite '...'`:
//
//   strategy := choice (';' choice)*            sequence
//   choice   := term ('<+' term)*               left choice
//   term     := NAME | NAME '(' arg (',' arg)* ')' | '(' strategy ')'
//   arg      := INTEGER | '[' INTEGER (',' INTEGER)* ']' | strategy
//
// NAME is a combinator (seq lChoice try repeat topDown bottomUp normalize all one some
// allTopDown outer at id fail), a rule with its integer parameters (splitJoin(4), mapGlobal(1))
// or a named strategy (lowerDefault, lowerFft, ...). Examples:
//   topDown(mapFusion); lowerGlobal        repeat(lChoice(mapFusion, reduceMapFusion))
//   normalize(splitJoin(4)) <+ id          at([0, 1], mapSeq)
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rewrites/strategy.h"

namespace fftc::rewrites {

// what() is "strategy:1:COL: error: MESSAGE", then the text and a caret under the column.
struct StrategyParseError : std::runtime_error {
  StrategyParseError(std::string text, size_t column, std::string message);
  size_t column() const { return column_; }  // 1-based
  const std::string& message() const { return message_; }

 private:
  size_t column_;
  std::string message_;
};

Strategy parseStrategy(std::string_view text);

// The names the language knows, for messages and `fftc help rewrite`.
std::vector<std::string> combinatorNames();

}  // namespace fftc::rewrites
