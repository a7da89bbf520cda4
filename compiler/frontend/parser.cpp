// Recursive descent parser for .fdl. Precedence, lowest first:
//   <<: (right)   o (right)   || (left)   && (left)   == != < <= > >= (no chains)
//   + - (left)   * / % (left)   unary - !   postfix: f(a) x._0 rs[i]
// `fun x => e`, `if c then a else b` and `pipe(q in A .. B) E` are primaries; a lambda body
// and an else branch extend as far right as possible, a pipe body is one postfix expression
// (parenthesize a composition).
#include "compiler/frontend/parser.h"

#include <algorithm>

#include <fmt/format.h>

#include "compiler/frontend/lexer.h"

namespace fftc::compiler::frontend {

using ast::Expr;
using ast::ExprKind;
using ast::ExprPtr;
using ast::TypeKind;
using ast::TypePtr;

namespace {

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::Ident: return fmt::format("identifier '{}'", t.text);
    case Tok::Int:
    case Tok::Real: return fmt::format("number '{}'", t.text);
    case Tok::String: return "a string";
    default: return tokName(t.kind);
  }
}

class Parser {
 public:
  Parser(std::vector<Token> toks, std::string fileName)
      : toks_(std::move(toks)), file_(std::move(fileName)) {}

  ast::Module module() {
    ast::Module m;
    m.fileName = file_;
    while (!at(Tok::End)) {
      m.decls.push_back(decl());
      while (at(Tok::Semicolon)) ++pos_;
    }
    return m;
  }

 private:
  std::vector<Token> toks_;
  std::string file_;
  size_t pos_ = 0;
  int recursion_ = 0;

  // Counts parser recursion so that "((((((..." fails cleanly.
  struct DepthGuard {
    Parser& p;
    DepthGuard(Parser& parser, const ir::SourceLoc& loc) : p(parser) {
      if (++p.recursion_ > kMaxNestingDepth) {
        throw ir::CompileError(loc, fmt::format("expression nested too deeply (more than {} levels)",
                                                kMaxNestingDepth));
      }
    }
    ~DepthGuard() { --p.recursion_; }
    DepthGuard(const DepthGuard&) = delete;
    DepthGuard& operator=(const DepthGuard&) = delete;
  };

  const Token& cur() const { return toks_[pos_]; }
  const Token& ahead(size_t k) const { return toks_[std::min(pos_ + k, toks_.size() - 1)]; }
  bool at(Tok k) const { return cur().kind == k; }
  Token take() {
    Token t = toks_[pos_];
    if (pos_ + 1 < toks_.size()) ++pos_;
    return t;
  }
  [[noreturn]] void failAt(const Token& t, const std::string& what) const {
    throw ir::CompileError(t.loc, fmt::format("expected {}, found {}", what, describe(t)));
  }
  Token expect(Tok k, const std::string& what) {
    if (!at(k)) failAt(cur(), what);
    return take();
  }

  // Builds a node and enforces the depth limit on the tree itself (left-assoc chains such as
  // a + b + c ... grow the tree without recursing in the parser).
  ExprPtr node(ExprKind kind, const ir::SourceLoc& loc, std::vector<ExprPtr> elems = {}) {
    auto e = std::make_unique<Expr>(kind, loc);
    int d = 0;
    for (const auto& c : elems) d = std::max(d, c->depth);
    e->depth = d + 1;
    if (e->depth > kMaxNestingDepth) {
      throw ir::CompileError(loc, fmt::format("expression nested too deeply (more than {} levels)",
                                              kMaxNestingDepth));
    }
    e->elems = std::move(elems);
    return e;
  }
  static std::vector<ExprPtr> two(ExprPtr a, ExprPtr b) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    v.push_back(std::move(b));
    return v;
  }
  static std::vector<ExprPtr> one(ExprPtr a) {
    std::vector<ExprPtr> v;
    v.push_back(std::move(a));
    return v;
  }

  // ---- declarations ----
  std::unique_ptr<ast::Decl> decl() {
    switch (cur().kind) {
      case Tok::KwDef: return defDecl();
      case Tok::KwUserfun: return userfunDecl();
      case Tok::KwKernel: return kernelDecl();
      case Tok::KwImport: return importDecl();
      default: failAt(cur(), "a declaration ('def', 'userfun', 'kernel' or 'import')");
    }
  }

  // import "path": resolved later (imports.h), relative to this file's directory.
  std::unique_ptr<ast::Decl> importDecl() {
    take();
    Token path = expect(Tok::String, "the imported file's name as a string after 'import'");
    if (path.text.empty()) throw ir::CompileError(path.loc, "empty file name in import");
    // A name spanning lines would make the one-line error about it (cannot read ...) several.
    for (unsigned char c : path.text)
      if (c < 0x20 || c == 0x7f)
        throw ir::CompileError(path.loc, "a control character in the file name of an import");
    auto d = std::make_unique<ast::Decl>(ast::DeclKind::Import, path.loc);
    d->name = path.text;
    return d;
  }

  std::unique_ptr<ast::Decl> defDecl() {
    take();
    Token name = expect(Tok::Ident, "a name after 'def'");
    auto d = std::make_unique<ast::Decl>(ast::DeclKind::Def, name.loc);
    d->name = name.text;
    if (at(Tok::LParen)) {
      take();
      d->hasParams = true;
      if (!at(Tok::RParen)) {
        do {
          Token p = expect(Tok::Ident, "a parameter name");
          for (const auto& q : d->params) {
            if (q.name == p.text) {
              throw ir::CompileError(p.loc, fmt::format("duplicate parameter '{}'", p.text));
            }
          }
          d->params.push_back({p.text, p.loc});
        } while (at(Tok::Comma) && (take(), true));
      }
      expect(Tok::RParen, "',' or ')' after def parameters");
    }
    expect(Tok::Assign, "'=' in def");
    d->body = expr();
    return d;
  }

  std::vector<ast::TypedParam> typedParams(const std::string& what) {
    std::vector<ast::TypedParam> out;
    expect(Tok::LParen, "'(' before " + what + " parameters");
    if (!at(Tok::RParen)) {
      do {
        Token p = expect(Tok::Ident, "a parameter name");
        for (const auto& q : out) {
          if (q.name == p.text) {
            throw ir::CompileError(p.loc, fmt::format("duplicate parameter '{}'", p.text));
          }
        }
        expect(Tok::Colon, fmt::format("':' and a type after parameter '{}'", p.text));
        out.push_back({p.text, p.loc, type()});
      } while (at(Tok::Comma) && (take(), true));
    }
    expect(Tok::RParen, "',' or ')' after " + what + " parameters");
    return out;
  }

  std::unique_ptr<ast::Decl> userfunDecl() {
    take();
    Token name = expect(Tok::Ident, "a name after 'userfun'");
    auto d = std::make_unique<ast::Decl>(ast::DeclKind::UserFun, name.loc);
    d->name = name.text;
    d->typedParams = typedParams("userfun");
    expect(Tok::Colon, "':' and the result type of the userfun");
    d->resultType = type();
    expect(Tok::Assign, "'=' before the userfun body");
    Token body = expect(Tok::String, "the userfun body as a string");
    // An empty body would reach the C compiler as `return ;`, reported at a column before it.
    if (body.text.find_first_not_of(" \t\r\n\f\v") == std::string::npos)
      throw ir::CompileError(body.loc, fmt::format("the body of userfun '{}' is empty", name.text));
    d->cBody = body.text;
    return d;
  }

  std::unique_ptr<ast::Decl> kernelDecl() {
    take();
    Token name = expect(Tok::Ident, "a name after 'kernel'");
    auto d = std::make_unique<ast::Decl>(ast::DeclKind::Kernel, name.loc);
    d->name = name.text;
    d->typedParams = typedParams("kernel");
    expect(Tok::Assign, "'=' before the kernel body");
    d->body = expr();
    return d;
  }

  // ---- types ----
  TypePtr type() {
    DepthGuard guard(*this, cur().loc);
    Token t = cur();
    if (at(Tok::Ident)) {
      take();
      static const std::pair<const char*, TypeKind> kScalars[] = {
          {"int", TypeKind::Int},     {"float", TypeKind::Float},     {"double", TypeKind::Double},
          {"real", TypeKind::Real},   {"complex", TypeKind::Complex}};
      for (const auto& [spelling, kind] : kScalars) {
        if (t.text == spelling) return std::make_unique<ast::Type>(kind, t.loc);
      }
      throw ir::CompileError(
          t.loc, fmt::format("unknown type '{}' (types are int, float, double, real, complex, "
                             "(T1, T2, ...) and [T]n)", t.text));
    }
    if (at(Tok::LParen)) {
      take();
      std::vector<TypePtr> elems;
      elems.push_back(type());
      while (at(Tok::Comma)) {
        take();
        elems.push_back(type());
      }
      expect(Tok::RParen, "',' or ')' in tuple type");
      if (elems.size() == 1) return std::move(elems[0]);
      auto tt = std::make_unique<ast::Type>(TypeKind::Tuple, t.loc);
      tt->elems = std::move(elems);
      return tt;
    }
    if (at(Tok::LBracket)) {
      take();
      auto at_ = std::make_unique<ast::Type>(TypeKind::Array, t.loc);
      at_->elems.push_back(type());
      expect(Tok::RBracket, "']' after the array element type");
      if (!at(Tok::Int) && !at(Tok::Ident) && !at(Tok::LParen)) {
        failAt(cur(), "an array size (a number, a name or a parenthesized size expression)");
      }
      at_->size = sizeExpr();
      return at_;
    }
    failAt(cur(), "a type");
  }

  // Sizes in types: integers, names, + - * / % and parentheses.
  ExprPtr sizeExpr() {
    DepthGuard guard(*this, cur().loc);
    ExprPtr lhs = sizeTerm();
    while (at(Tok::Plus) || at(Tok::Minus)) {
      Token op = take();
      auto e = node(ExprKind::Binary, op.loc, two(std::move(lhs), sizeTerm()));
      e->op = op.kind == Tok::Plus ? ast::BinOp::Add : ast::BinOp::Sub;
      lhs = std::move(e);
    }
    return lhs;
  }
  ExprPtr sizeTerm() {
    ExprPtr lhs = sizeAtom();
    while (at(Tok::Star) || at(Tok::Slash) || at(Tok::Percent)) {
      Token op = take();
      auto e = node(ExprKind::Binary, op.loc, two(std::move(lhs), sizeAtom()));
      e->op = binOpOf(op.kind);
      lhs = std::move(e);
    }
    return lhs;
  }
  ExprPtr sizeAtom() {
    Token t = cur();
    if (at(Tok::Int)) {
      take();
      auto e = node(ExprKind::Int, t.loc);
      e->intValue = t.intValue;
      return e;
    }
    if (at(Tok::Ident)) {
      take();
      auto e = node(ExprKind::Var, t.loc);
      e->name = t.text;
      return e;
    }
    if (at(Tok::LParen)) {
      take();
      ExprPtr e = sizeExpr();
      expect(Tok::RParen, "')' in size expression");
      return e;
    }
    failAt(t, "a size (a number, a name or a parenthesized size expression)");
  }

  static ast::BinOp binOpOf(Tok k) {
    switch (k) {
      case Tok::Plus: return ast::BinOp::Add;
      case Tok::Minus: return ast::BinOp::Sub;
      case Tok::Star: return ast::BinOp::Mul;
      case Tok::Slash: return ast::BinOp::Div;
      default: return ast::BinOp::Mod;
    }
  }

  // ---- expressions ----
  ExprPtr expr() {
    DepthGuard guard(*this, cur().loc);
    // Right-associative chain: a <<: b <<: c = a <<: (b <<: c).
    std::vector<ExprPtr> operands;
    std::vector<ir::SourceLoc> ops;
    operands.push_back(composeExpr());
    while (at(Tok::ApplyOp)) {
      ops.push_back(take().loc);
      operands.push_back(composeExpr());
    }
    return foldRight(std::move(operands), ops, ExprKind::Apply);
  }

  ExprPtr foldRight(std::vector<ExprPtr> operands, const std::vector<ir::SourceLoc>& ops,
                    ExprKind kind) {
    ExprPtr acc = std::move(operands.back());
    for (size_t i = ops.size(); i-- > 0;) {
      acc = node(kind, ops[i], two(std::move(operands[i]), std::move(acc)));
    }
    return acc;
  }

  ExprPtr composeExpr() {
    std::vector<ExprPtr> operands;
    std::vector<ir::SourceLoc> ops;
    operands.push_back(orExpr());
    while (at(Tok::KwO)) {
      ops.push_back(take().loc);
      operands.push_back(orExpr());
    }
    return foldRight(std::move(operands), ops, ExprKind::Compose);
  }

  ExprPtr orExpr() {
    ExprPtr lhs = andExpr();
    while (at(Tok::OrOr)) {
      Token op = take();
      lhs = node(ExprKind::Or, op.loc, two(std::move(lhs), andExpr()));
    }
    return lhs;
  }

  ExprPtr andExpr() {
    ExprPtr lhs = compareExpr();
    while (at(Tok::AndAnd)) {
      Token op = take();
      lhs = node(ExprKind::And, op.loc, two(std::move(lhs), compareExpr()));
    }
    return lhs;
  }

  static bool cmpOpOf(Tok k, ast::CmpOp& out) {
    switch (k) {
      case Tok::EqEq: out = ast::CmpOp::Eq; return true;
      case Tok::NotEq: out = ast::CmpOp::Ne; return true;
      case Tok::Less: out = ast::CmpOp::Lt; return true;
      case Tok::LessEq: out = ast::CmpOp::Le; return true;
      case Tok::Greater: out = ast::CmpOp::Gt; return true;
      case Tok::GreaterEq: out = ast::CmpOp::Ge; return true;
      default: return false;
    }
  }

  // One comparison at most: `a < b < c` would compare a boolean with c, so it is an error that
  // says how to write it.
  ExprPtr compareExpr() {
    ExprPtr lhs = addExpr();
    ast::CmpOp cmp{};
    if (!cmpOpOf(cur().kind, cmp)) return lhs;
    Token op = take();
    auto e = node(ExprKind::Compare, op.loc, two(std::move(lhs), addExpr()));
    e->cmp = cmp;
    ast::CmpOp next{};
    if (cmpOpOf(cur().kind, next)) {
      throw ir::CompileError(cur().loc,
                             fmt::format("comparisons do not chain: write 'a {} b && b {} c'",
                                         op.text, cur().text));
    }
    return e;
  }

  ExprPtr addExpr() {
    ExprPtr lhs = mulExpr();
    while (at(Tok::Plus) || at(Tok::Minus)) {
      Token op = take();
      auto e = node(ExprKind::Binary, op.loc, two(std::move(lhs), mulExpr()));
      e->op = binOpOf(op.kind);
      lhs = std::move(e);
    }
    return lhs;
  }

  ExprPtr mulExpr() {
    ExprPtr lhs = unary();
    while (at(Tok::Star) || at(Tok::Slash) || at(Tok::Percent)) {
      Token op = take();
      auto e = node(ExprKind::Binary, op.loc, two(std::move(lhs), unary()));
      e->op = binOpOf(op.kind);
      lhs = std::move(e);
    }
    return lhs;
  }

  static bool isOperatorToken(Tok k) {
    return k == Tok::Plus || k == Tok::Minus || k == Tok::Star || k == Tok::Slash ||
           k == Tok::Percent;
  }

  ExprPtr unary() {
    DepthGuard guard(*this, cur().loc);
    // The paper's operator sections: reduce(+, 0), map(*).
    if (isOperatorToken(cur().kind) &&
        (ahead(1).kind == Tok::Comma || ahead(1).kind == Tok::RParen)) {
      Token op = take();
      auto e = node(ExprKind::OpRef, op.loc);
      e->op = binOpOf(op.kind);
      return e;
    }
    if (at(Tok::Minus)) {
      Token op = take();
      return node(ExprKind::Neg, op.loc, one(unary()));
    }
    if (at(Tok::Bang)) {
      Token op = take();
      return node(ExprKind::Not, op.loc, one(unary()));
    }
    return postfix();
  }

  ExprPtr postfix() {
    ExprPtr e = primary();
    while (true) {
      if (at(Tok::LParen)) {
        Token lp = take();
        std::vector<ExprPtr> elems;
        ir::SourceLoc loc = e->loc;
        elems.push_back(std::move(e));
        if (!at(Tok::RParen)) {
          do {
            elems.push_back(expr());
          } while (at(Tok::Comma) && (take(), true));
        }
        expect(Tok::RParen, "',' or ')' after arguments");
        e = node(ExprKind::Call, loc, std::move(elems));
      } else if (at(Tok::Dot)) {
        Token dot = take();
        Token field = cur();
        if (field.kind != Tok::Ident || field.text.size() < 2 || field.text[0] != '_' ||
            !std::all_of(field.text.begin() + 1, field.text.end(),
                         [](char c) { return c >= '0' && c <= '9'; })) {
          failAt(field, "a tuple component such as '_0' after '.'");
        }
        take();
        if (field.text.size() > 4) {
          throw ir::CompileError(field.loc, fmt::format("tuple component '{}' is too large", field.text));
        }
        auto f = node(ExprKind::Field, dot.loc, one(std::move(e)));
        f->intValue = std::stoi(field.text.substr(1));
        e = std::move(f);
      } else if (at(Tok::LBracket)) {
        Token lb = take();
        ExprPtr idx = expr();
        expect(Tok::RBracket, "']' after index");
        e = node(ExprKind::Index, lb.loc, two(std::move(e), std::move(idx)));
      } else {
        return e;
      }
    }
  }

  ExprPtr primary() {
    DepthGuard guard(*this, cur().loc);
    Token t = cur();
    switch (t.kind) {
      case Tok::Ident: {
        take();
        auto e = node(ExprKind::Var, t.loc);
        e->name = t.text;
        return e;
      }
      case Tok::Int: {
        take();
        auto e = node(ExprKind::Int, t.loc);
        e->intValue = t.intValue;
        return e;
      }
      case Tok::Real: {
        take();
        auto e = node(ExprKind::Real, t.loc);
        e->realValue = t.realValue;
        e->realIsFloat = t.realIsFloat;
        e->name = t.text;
        return e;
      }
      case Tok::LParen: {
        take();
        ExprPtr e = expr();
        if (at(Tok::Comma)) {
          throw ir::CompileError(cur().loc,
                                 "tuples are written with braces: {a, b} rather than (a, b)");
        }
        expect(Tok::RParen, "')'");
        return e;
      }
      case Tok::LBrace: {
        take();
        std::vector<ExprPtr> elems;
        do {
          elems.push_back(expr());
        } while (at(Tok::Comma) && (take(), true));
        expect(Tok::RBrace, "',' or '}' in tuple");
        if (elems.size() < 2) {
          throw ir::CompileError(t.loc, "a tuple needs at least two components");
        }
        return node(ExprKind::Tuple, t.loc, std::move(elems));
      }
      case Tok::LBracket: {
        take();
        std::vector<ExprPtr> elems;
        if (!at(Tok::RBracket)) {
          do {
            elems.push_back(expr());
          } while (at(Tok::Comma) && (take(), true));
        }
        expect(Tok::RBracket, "',' or ']' in list");
        return node(ExprKind::List, t.loc, std::move(elems));
      }
      case Tok::KwFun: return lambda();
      case Tok::KwPipe: return pipe();
      case Tok::KwIf: return ifExpr();
      case Tok::End: failAt(t, "an expression");
      default: failAt(t, "an expression");
    }
  }

  // fun x => e | fun (x, y) => e | fun(x => e) | fun((x, y) => e), and the same with λ.
  ExprPtr lambda() {
    Token kw = take();
    bool wrapped = at(Tok::LParen) &&
                   ((ahead(1).kind == Tok::Ident && ahead(2).kind == Tok::Arrow) ||
                    ahead(1).kind == Tok::LParen);
    if (wrapped) take();
    auto e = std::make_unique<Expr>(ExprKind::Lambda, kw.loc);
    if (at(Tok::Ident)) {
      Token p = take();
      e->params.push_back({p.text, p.loc});
    } else if (at(Tok::LParen)) {
      take();
      do {
        Token p = expect(Tok::Ident, "a parameter name");
        for (const auto& q : e->params) {
          if (q.name == p.text) {
            throw ir::CompileError(p.loc, fmt::format("duplicate parameter '{}'", p.text));
          }
        }
        e->params.push_back({p.text, p.loc});
      } while (at(Tok::Comma) && (take(), true));
      expect(Tok::RParen, "',' or ')' after lambda parameters");
    } else {
      failAt(cur(), fmt::format("a parameter or '(' after '{}'", kw.text));
    }
    expect(Tok::Arrow, "'=>' after lambda parameters");
    ExprPtr body = expr();
    if (wrapped) expect(Tok::RParen, "')' closing the lambda");
    auto n = node(ExprKind::Lambda, kw.loc, one(std::move(body)));
    n->params = std::move(e->params);
    n->tupleParams = n->params.size() > 1;
    return n;
  }

  // if c then a else b: both branches are required (the conditional chooses a value; there is
  // no statement to skip). The else branch extends as far right as possible, like a lambda body.
  ExprPtr ifExpr() {
    Token kw = take();
    ExprPtr cond = expr();
    expect(Tok::KwThen, "'then' after the condition of 'if'");
    ExprPtr yes = expr();
    if (!at(Tok::KwElse)) {
      failAt(cur(), "'else' after the 'then' branch (an 'if' needs both branches)");
    }
    take();
    ExprPtr no = expr();
    std::vector<ExprPtr> elems;
    elems.push_back(std::move(cond));
    elems.push_back(std::move(yes));
    elems.push_back(std::move(no));
    return node(ExprKind::If, kw.loc, std::move(elems));
  }

  // pipe(q in A .. B) E
  ExprPtr pipe() {
    Token kw = take();
    expect(Tok::LParen, "'(' after 'pipe'");
    Token var = expect(Tok::Ident, "the pipe variable");
    expect(Tok::KwIn, "'in' after the pipe variable");
    ExprPtr from = expr();
    expect(Tok::DotDot, "'..' in the pipe range");
    ExprPtr to = expr();
    expect(Tok::RParen, "')' after the pipe range");
    ExprPtr body = at(Tok::KwFun) ? lambda() : postfixOrNeg();
    std::vector<ExprPtr> elems;
    elems.push_back(std::move(from));
    elems.push_back(std::move(to));
    elems.push_back(std::move(body));
    auto n = node(ExprKind::Pipe, kw.loc, std::move(elems));
    n->params.push_back({var.text, var.loc});
    return n;
  }
  ExprPtr postfixOrNeg() { return unary(); }
};

}  // namespace

ast::Module parse(std::string_view text, const std::string& fileName) {
  return Parser(lex(text, fileName), fileName).module();
}

}  // namespace fftc::compiler::frontend
