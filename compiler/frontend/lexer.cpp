// The .fdl lexer. One pass over the bytes; locations count code points so that carets line
// up under multi-byte characters such as `λ`.
#include "compiler/frontend/lexer.h"

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

namespace fftc::compiler::frontend {

std::string tokName(Tok kind) {
  switch (kind) {
    case Tok::End: return "end of file";
    case Tok::Ident: return "identifier";
    case Tok::Int: return "integer";
    case Tok::Real: return "real number";
    case Tok::String: return "string";
    case Tok::KwDef: return "'def'";
    case Tok::KwUserfun: return "'userfun'";
    case Tok::KwKernel: return "'kernel'";
    case Tok::KwImport: return "'import'";
    case Tok::KwFun: return "'fun'";
    case Tok::KwIn: return "'in'";
    case Tok::KwPipe: return "'pipe'";
    case Tok::KwO: return "'o'";
    case Tok::KwIf: return "'if'";
    case Tok::KwThen: return "'then'";
    case Tok::KwElse: return "'else'";
    case Tok::LParen: return "'('";
    case Tok::RParen: return "')'";
    case Tok::LBracket: return "'['";
    case Tok::RBracket: return "']'";
    case Tok::LBrace: return "'{'";
    case Tok::RBrace: return "'}'";
    case Tok::Comma: return "','";
    case Tok::Colon: return "':'";
    case Tok::Semicolon: return "';'";
    case Tok::Assign: return "'='";
    case Tok::Arrow: return "'=>'";
    case Tok::Dot: return "'.'";
    case Tok::DotDot: return "'..'";
    case Tok::Plus: return "'+'";
    case Tok::Minus: return "'-'";
    case Tok::Star: return "'*'";
    case Tok::Slash: return "'/'";
    case Tok::Percent: return "'%'";
    case Tok::ApplyOp: return "'<<:'";
    case Tok::EqEq: return "'=='";
    case Tok::NotEq: return "'!='";
    case Tok::Less: return "'<'";
    case Tok::LessEq: return "'<='";
    case Tok::Greater: return "'>'";
    case Tok::GreaterEq: return "'>='";
    case Tok::AndAnd: return "'&&'";
    case Tok::OrOr: return "'||'";
    case Tok::Bang: return "'!'";
  }
  return "token";
}

namespace {

constexpr uint32_t kLambda = 0x03BB;
constexpr uint32_t kPi = 0x03C0;

bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isIdentChar(char c) { return isIdentStart(c) || isDigit(c); }

class Lexer {
 public:
  Lexer(std::string_view text, const std::string& fileName) : text_(text), file_(fileName) {
    // A UTF-8 byte order mark is not part of the program.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;
  }

  std::vector<Token> run() {
    std::vector<Token> out;
    while (true) {
      skipSpaceAndComments();
      Token t = next();
      bool end = t.kind == Tok::End;
      out.push_back(std::move(t));
      if (end) return out;
    }
  }

 private:
  std::string_view text_;
  std::string file_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;

  ir::SourceLoc here() const { return ir::SourceLoc{file_, line_, col_}; }
  [[noreturn]] void fail(const ir::SourceLoc& loc, std::string msg) const {
    throw ir::CompileError(loc, std::move(msg));
  }

  bool atEnd() const { return pos_ >= text_.size(); }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }

  // Decodes the code point at pos_ without consuming it; returns its byte length, or fails on
  // malformed UTF-8 (overlong forms, surrogates and values past U+10FFFF included).
  size_t decode(uint32_t& cp) const {
    auto b0 = static_cast<unsigned char>(text_[pos_]);
    if (b0 < 0x80) {
      cp = b0;
      return 1;
    }
    size_t len = 0;
    uint32_t minValue = 0;
    if ((b0 & 0xE0) == 0xC0) {
      len = 2, cp = b0 & 0x1F, minValue = 0x80;
    } else if ((b0 & 0xF0) == 0xE0) {
      len = 3, cp = b0 & 0x0F, minValue = 0x800;
    } else if ((b0 & 0xF8) == 0xF0) {
      len = 4, cp = b0 & 0x07, minValue = 0x10000;
    } else {
      fail(here(), fmt::format("invalid UTF-8 byte 0x{:02X}", b0));
    }
    if (pos_ + len > text_.size()) fail(here(), "truncated UTF-8 sequence");
    for (size_t i = 1; i < len; ++i) {
      auto b = static_cast<unsigned char>(text_[pos_ + i]);
      if ((b & 0xC0) != 0x80) fail(here(), fmt::format("invalid UTF-8 sequence (byte 0x{:02X})", b));
      cp = (cp << 6) | (b & 0x3F);
    }
    if (cp < minValue || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
      fail(here(), "invalid UTF-8 sequence");
    }
    return len;
  }

  // Consumes one code point (validating it), keeping line and column up to date.
  uint32_t advance() {
    uint32_t cp = 0;
    size_t len = decode(cp);
    if (cp == 0) fail(here(), "NUL character in source");
    pos_ += len;
    if (cp == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    return cp;
  }

  void skipSpaceAndComments() {
    while (!atEnd()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!atEnd() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        ir::SourceLoc start = here();
        advance();
        advance();
        while (true) {
          if (atEnd()) fail(start, "unterminated block comment");
          if (peek() == '*' && peek(1) == '/') {
            advance();
            advance();
            break;
          }
          advance();
        }
      } else {
        return;
      }
    }
  }

  Token make(Tok kind, ir::SourceLoc loc, std::string text = {}) {
    Token t;
    t.kind = kind;
    t.loc = std::move(loc);
    t.text = std::move(text);
    return t;
  }

  Token next() {
    ir::SourceLoc loc = here();
    if (atEnd()) return make(Tok::End, loc);
    char c = peek();
    if (isIdentStart(c)) return identOrKeyword(loc);
    if (isDigit(c)) return number(loc);
    if (c == '"') return string(loc);
    auto one = [&](Tok kind, int n = 1) {
      std::string spelled(text_.substr(pos_, static_cast<size_t>(n)));
      for (int i = 0; i < n; ++i) advance();
      return make(kind, loc, spelled);
    };
    switch (c) {
      case '(': return one(Tok::LParen);
      case ')': return one(Tok::RParen);
      case '[': return one(Tok::LBracket);
      case ']': return one(Tok::RBracket);
      case '{': return one(Tok::LBrace);
      case '}': return one(Tok::RBrace);
      case ',': return one(Tok::Comma);
      case ':': return one(Tok::Colon);
      case ';': return one(Tok::Semicolon);
      case '+': return one(Tok::Plus);
      case '-': return one(Tok::Minus);
      case '*': return one(Tok::Star);
      case '/': return one(Tok::Slash);
      case '%': return one(Tok::Percent);
      case '=':
        if (peek(1) == '=') return one(Tok::EqEq, 2);
        return peek(1) == '>' ? one(Tok::Arrow, 2) : one(Tok::Assign);
      case '.': return peek(1) == '.' ? one(Tok::DotDot, 2) : one(Tok::Dot);
      case '<':
        if (peek(1) == '<' && peek(2) == ':') return one(Tok::ApplyOp, 3);
        // `<<` is never two comparisons (`a < < b` has no meaning): a mistyped application.
        if (peek(1) == '<') fail(loc, "unexpected character '<' (application is written '<<:')");
        return peek(1) == '=' ? one(Tok::LessEq, 2) : one(Tok::Less);
      case '>': return peek(1) == '=' ? one(Tok::GreaterEq, 2) : one(Tok::Greater);
      case '!': return peek(1) == '=' ? one(Tok::NotEq, 2) : one(Tok::Bang);
      case '&':
        if (peek(1) == '&') return one(Tok::AndAnd, 2);
        fail(loc, "unexpected character '&' (logical and is written '&&')");
      case '|':
        if (peek(1) == '|') return one(Tok::OrOr, 2);
        fail(loc, "unexpected character '|' (logical or is written '||')");
      default: break;
    }
    uint32_t cp = advance();
    if (cp == kLambda) return make(Tok::KwFun, loc, "λ");
    if (cp == kPi) return make(Tok::Ident, loc, "pi");
    if (cp >= 0x21 && cp < 0x7F) fail(loc, fmt::format("unexpected character '{}'", static_cast<char>(cp)));
    fail(loc, fmt::format("unexpected character U+{:04X}", cp));
  }

  Token identOrKeyword(const ir::SourceLoc& loc) {
    size_t start = pos_;
    while (!atEnd() && isIdentChar(peek())) advance();
    std::string word(text_.substr(start, pos_ - start));
    if (word == "def") return make(Tok::KwDef, loc, word);
    if (word == "userfun") return make(Tok::KwUserfun, loc, word);
    if (word == "kernel") return make(Tok::KwKernel, loc, word);
    if (word == "import") return make(Tok::KwImport, loc, word);
    if (word == "fun") return make(Tok::KwFun, loc, word);
    if (word == "in") return make(Tok::KwIn, loc, word);
    if (word == "pipe") return make(Tok::KwPipe, loc, word);
    if (word == "o") return make(Tok::KwO, loc, word);
    if (word == "if") return make(Tok::KwIf, loc, word);
    if (word == "then") return make(Tok::KwThen, loc, word);
    if (word == "else") return make(Tok::KwElse, loc, word);
    return make(Tok::Ident, loc, word);
  }

  // 42, 1.5, 2e-3, 1.5f, 2f. `1..3` is an integer followed by `..`, so a '.' makes a real
  // only when a digit follows it.
  Token number(const ir::SourceLoc& loc) {
    size_t start = pos_;
    while (!atEnd() && isDigit(peek())) advance();
    bool isReal = false;
    if (peek() == '.' && isDigit(peek(1))) {
      isReal = true;
      advance();
      while (!atEnd() && isDigit(peek())) advance();
    }
    if ((peek() == 'e' || peek() == 'E') &&
        (isDigit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && isDigit(peek(2))))) {
      isReal = true;
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (!atEnd() && isDigit(peek())) advance();
    }
    std::string spelled(text_.substr(start, pos_ - start));
    bool isFloat = false;
    if (peek() == 'f' && !isIdentChar(peek(1))) {
      isFloat = true;
      isReal = true;
      advance();
    }
    if (isIdentChar(peek())) {
      fail(loc, fmt::format("invalid suffix '{}' on number '{}'", peek(), spelled));
    }
    Token t = make(isReal ? Tok::Real : Tok::Int, loc, spelled + (isFloat ? "f" : ""));
    if (isReal) {
      errno = 0;
      t.realValue = std::strtod(spelled.c_str(), nullptr);
      // Underflow to zero/denormal is harmless; overflow to infinity is not.
      if (errno == ERANGE && (t.realValue > 1.0 || t.realValue < -1.0)) {
        fail(loc, fmt::format("real literal '{}' is out of range", spelled));
      }
      if (isFloat && t.realValue > 3.4028234663852886e38) {
        fail(loc, fmt::format("float literal '{}' is out of range", t.text));
      }
      t.realIsFloat = isFloat;
    } else {
      int64_t v = 0;
      for (char d : spelled) {
        if (__builtin_mul_overflow(v, int64_t{10}, &v) || __builtin_add_overflow(v, int64_t{d - '0'}, &v)) {
          fail(loc, fmt::format("integer literal '{}' is too large (the limit is {})", spelled,
                                INT64_MAX));
        }
      }
      t.intValue = v;
    }
    return t;
  }

  Token string(const ir::SourceLoc& loc) {
    advance();  // opening quote
    std::string value;
    while (true) {
      if (atEnd()) fail(loc, "unterminated string literal");
      char c = peek();
      if (c == '"') {
        advance();
        break;
      }
      if (c == '\\') {
        ir::SourceLoc escLoc = here();
        advance();
        if (atEnd()) fail(loc, "unterminated string literal");
        char e = peek();
        switch (e) {
          case 'n': value += '\n'; break;
          case 't': value += '\t'; break;
          case '\\': value += '\\'; break;
          case '"': value += '"'; break;
          case '\n': value += '\n'; break;
          default:
            if (e >= 0x21 && e < 0x7F) fail(escLoc, fmt::format("unknown escape sequence '\\{}'", e));
            fail(escLoc, "unknown escape sequence");
        }
        advance();
        continue;
      }
      size_t start = pos_;
      advance();
      value.append(text_.substr(start, pos_ - start));
    }
    return make(Tok::String, loc, value);
  }
};

}  // namespace

std::vector<Token> lex(std::string_view text, const std::string& fileName) {
  return Lexer(text, fileName).run();
}

}  // namespace fftc::compiler::frontend
