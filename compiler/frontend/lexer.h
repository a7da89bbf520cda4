// The .fdl lexer: turns UTF-8 source text into tokens with 1-based line/column locations.
// Lexical errors (invalid UTF-8, NUL bytes, unterminated comments/strings, huge literals) throw.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "ir/diagnostic.h"

namespace fftc::compiler::frontend {

enum class Tok {
  End,
  Ident,     // also `π`, which lexes as the identifier "pi"
  Int,       // 42
  Real,      // 1.5 2e-3 1.5f (realIsFloat_ says whether the `f` suffix was given)
  String,    // "C body" (escapes decoded)
  KwDef,
  KwUserfun,
  KwKernel,
  KwImport,
  KwFun,     // `fun` and `λ`
  KwIn,
  KwPipe,
  KwO,       // composition `o`
  KwIf,
  KwThen,
  KwElse,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Comma,
  Colon,
  Semicolon,
  Assign,    // =
  Arrow,     // =>
  Dot,       // .
  DotDot,    // ..
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  ApplyOp,   // <<:
  EqEq,      // ==  (comparisons and logic on compile-time values: `if` conditions)
  NotEq,     // !=
  Less,      // <
  LessEq,    // <=
  Greater,   // >
  GreaterEq, // >=
  AndAnd,    // &&
  OrOr,      // ||
  Bang,      // !
};

// Human-readable spelling for messages: "'<<:'", "identifier", "end of file".
std::string tokName(Tok kind);

struct Token {
  Tok kind = Tok::End;
  ir::SourceLoc loc;
  std::string text;        // identifier name, decoded string, literal spelling
  int64_t intValue = 0;
  double realValue = 0.0;
  bool realIsFloat = false;
};

// Lexes the whole input. Columns count Unicode code points (a tab counts as one column).
std::vector<Token> lex(std::string_view text, const std::string& fileName);

}  // namespace fftc::compiler::frontend
