// Parser: precedence and associativity, lambda forms, sugar, types, comments; printed back
// fully parenthesized by ast::show.
#include <gtest/gtest.h>

#include "compiler/frontend/ast.h"
#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/lexer.h"
#include "compiler/frontend/parser.h"

namespace fe = fftc::compiler::frontend;
namespace ast = fftc::compiler::frontend::ast;

namespace {

// The body of `def x = SRC`, shown.
std::string body(const std::string& src) {
  ast::Module m = fe::parse("def x = " + src, "p.fdl");
  EXPECT_EQ(m.decls.size(), 1u);
  return ast::show(*m.decls[0]->body);
}

}  // namespace

TEST(Parser, PrecedenceTable) {
  struct Row {
    const char* in;
    const char* out;
  };
  const Row rows[] = {
      {"a + b * c", "(a + (b * c))"},
      {"a - b - c", "((a - b) - c)"},
      {"a / b % c", "((a / b) % c)"},
      {"-a * b", "((-a) * b)"},
      {"- - a", "(-(-a))"},
      {"f <<: g <<: x", "(f <<: (g <<: x))"},
      {"f o g o h", "(f o (g o h))"},
      {"f o g <<: x", "((f o g) <<: x)"},
      {"f <<: a + b", "(f <<: (a + b))"},
      {"map(f) <<: zip(v, w)", "(map(f) <<: zip(v, w))"},
      {"f(a)(b)", "f(a)(b)"},
      {"x._0 + y._12", "(x._0 + y._12)"},
      {"rs[q + 1]", "rs[(q + 1)]"},
      {"prod(rs, 0, q + 1)", "prod(rs, 0, (q + 1))"},
      {"{a, b + 1}", "{a, (b + 1)}"},
      {"[2, 4, 8]", "[2, 4, 8]"},
      {"[]", "[]"},
      {"(a + b) * c", "((a + b) * c)"},
      {"reduce(+, 0)", "reduce((+), 0)"},
      {"map(*)", "map((*))"},
      {"-2.0 * k / n", "(((-2.0) * k) / n)"},
      {"1.5f + 2e-3 + 1.5", "((1.5f + 2e-3) + 1.5)"},
      {"2f", "2f"},
  };
  for (const auto& r : rows) EXPECT_EQ(body(r.in), r.out) << r.in;
}

TEST(Parser, LambdaForms) {
  EXPECT_EQ(body("fun x => f <<: x"), "(fun x => (f <<: x))");
  EXPECT_EQ(body("fun (x, y) => x + y"), "(fun (x, y) => (x + y))");
  EXPECT_EQ(body("fun (x) => x"), "(fun x => x)");
  EXPECT_EQ(body("λ(x => x + 1)"), "(fun x => (x + 1))");
  EXPECT_EQ(body("λ((v, w) => v)"), "(fun (v, w) => v)");
  EXPECT_EQ(body("λ x => x"), "(fun x => x)");
  EXPECT_EQ(body("fun(x => x)"), "(fun x => x)");
  // A lambda body extends as far right as possible.
  EXPECT_EQ(body("f o fun x => g <<: x"), "(f o (fun x => (g <<: x)))");
  EXPECT_EQ(body("map(fun row => dot(row, v)) <<: M"), "(map((fun row => dot(row, v))) <<: M)");
}

TEST(Parser, PipeBodyIsOnePostfixExpression) {
  EXPECT_EQ(body("pipe(q in 0 .. len(rs)) pass(rs[q]) <<: v"),
            "((pipe(q in 0 .. len(rs)) pass(rs[q])) <<: v)");
  EXPECT_EQ(body("pipe(q in 1..3) (f o g(q))"), "(pipe(q in 1 .. 3) (f o g(q)))");
  EXPECT_EQ(body("pipe(q in 0 .. 2) fun v => f(q) <<: v"),
            "(pipe(q in 0 .. 2) (fun v => (f(q) <<: v)))");
}

TEST(Parser, Declarations) {
  ast::Module m = fe::parse(
      "// comment\n"
      "def a = 1; def f(x, y) = x /* inline */ + y\n"
      "def g() = 2\n"
      "userfun mul(a: float, b: (int, real)): complex = \"return a * b._0;\"\n"
      "kernel k(x: [[complex]m]n, y: [real](2*N + 1), z: (int, [float]4)) = x\n",
      "d.fdl");
  ASSERT_EQ(m.decls.size(), 5u);
  EXPECT_EQ(m.decls[0]->kind, ast::DeclKind::Def);
  EXPECT_FALSE(m.decls[0]->hasParams);
  EXPECT_EQ(m.decls[1]->params.size(), 2u);
  EXPECT_TRUE(m.decls[2]->hasParams);
  EXPECT_TRUE(m.decls[2]->params.empty());
  const ast::Decl& u = *m.decls[3];
  EXPECT_EQ(u.kind, ast::DeclKind::UserFun);
  EXPECT_EQ(u.cBody, "return a * b._0;");
  EXPECT_EQ(ast::show(*u.typedParams[1].type), "(int, real)");
  EXPECT_EQ(ast::show(*u.resultType), "complex");
  const ast::Decl& k = *m.decls[4];
  EXPECT_EQ(ast::show(*k.typedParams[0].type), "[[complex]m]n");
  EXPECT_EQ(ast::show(*k.typedParams[1].type), "[real]((2 * N) + 1)");
  EXPECT_EQ(ast::show(*k.typedParams[2].type), "(int, [float]4)");
  EXPECT_EQ(k.loc.line, 5);
  EXPECT_EQ(k.loc.col, 8);
}

TEST(Parser, ImportDeclarations) {
  // Kept in place by the parser (compileSource resolves them), anywhere at the top level.
  ast::Module m = fe::parse("def a = 1\nimport \"lib/x.fdl\"; import \"y \\\"q\\\".fdl\"\n", "i.fdl");
  ASSERT_EQ(m.decls.size(), 3u);
  EXPECT_EQ(m.decls[1]->kind, ast::DeclKind::Import);
  EXPECT_EQ(m.decls[1]->name, "lib/x.fdl");
  EXPECT_EQ(m.decls[1]->loc.line, 2);
  EXPECT_EQ(m.decls[1]->loc.col, 8);  // the path string
  EXPECT_EQ(m.decls[2]->name, "y \"q\".fdl");
  EXPECT_EQ(fe::lex("import", "l.fdl")[0].kind, fe::Tok::KwImport);
}

TEST(Parser, LocationsCountCodePoints) {
  // λ is two bytes but one column.
  ast::Module m = fe::parse("def f = λ(v => v) <<: x", "u.fdl");
  const ast::Expr& apply = *m.decls[0]->body;
  EXPECT_EQ(apply.loc.col, 19);
  EXPECT_EQ(apply.elems[1]->loc.col, 23);
}

TEST(Parser, PiIsAnIdentifier) {
  EXPECT_EQ(body("2 * π"), "(2 * pi)");
}

TEST(Parser, StringEscapesAndMultiLineBodies) {
  ast::Module m = fe::parse("userfun f(a: int): int = \"int b = a;\\n  return \\\"b\\\" ? b : 0;\n\"",
                            "s.fdl");
  EXPECT_EQ(m.decls[0]->cBody, "int b = a;\n  return \"b\" ? b : 0;\n");
}

TEST(Parser, NestingLimitIsAnErrorNotACrash) {
  std::string deep = "def x = " + std::string(20000, '(') + "1" + std::string(20000, ')');
  EXPECT_THROW(fe::parse(deep, "deep.fdl"), fftc::ir::CompileError);
  std::string chain = "def x = f";
  for (int i = 0; i < 20000; ++i) chain += " <<: f";
  EXPECT_THROW(fe::parse(chain, "chain.fdl"), fftc::ir::CompileError);
  std::string negs = "def x = " + std::string(20000, '-') + "1";
  EXPECT_THROW(fe::parse(negs, "neg.fdl"), fftc::ir::CompileError);
  std::string lambdas;
  for (int i = 0; i < 5000; ++i) lambdas += "fun x => ";
  EXPECT_THROW(fe::parse("def x = " + lambdas + "x", "lam.fdl"), fftc::ir::CompileError);
  // Just under the limit is fine.
  std::string ok = "def x = " + std::string(60, '(') + "1" + std::string(60, ')');
  EXPECT_NO_THROW(fe::parse(ok, "ok.fdl"));
}

TEST(Lexer, Tokens) {
  auto toks = fe::lex("a <<: b o c => 1..3 1.5f .5", "l.fdl");
  std::vector<fe::Tok> kinds;
  for (const auto& t : toks) kinds.push_back(t.kind);
  std::vector<fe::Tok> want = {fe::Tok::Ident, fe::Tok::ApplyOp, fe::Tok::Ident, fe::Tok::KwO,
                               fe::Tok::Ident, fe::Tok::Arrow,   fe::Tok::Int,   fe::Tok::DotDot,
                               fe::Tok::Int,   fe::Tok::Real,    fe::Tok::Dot,   fe::Tok::Int,
                               fe::Tok::End};
  EXPECT_EQ(kinds, want);
  EXPECT_TRUE(toks[9].realIsFloat);
  EXPECT_DOUBLE_EQ(toks[9].realValue, 1.5);
  EXPECT_EQ(fe::lex("9223372036854775807", "l.fdl")[0].intValue, INT64_MAX);
  // A byte order mark is skipped; CRLF line ends count one line.
  auto bom = fe::lex("\xEF\xBB\xBF" "a\r\nb", "l.fdl");
  EXPECT_EQ(bom[0].loc.col, 1);
  EXPECT_EQ(bom[1].loc.line, 2);
  EXPECT_EQ(bom[1].loc.col, 1);
}

TEST(Diagnostics, CaretUnderTheColumn) {
  std::string src = "def a = 1\n\tdef b = λ(x => y) @\n";
  try {
    fe::parse(src, "c.fdl");
    FAIL();
  } catch (const fftc::ir::CompileError& e) {
    EXPECT_EQ(fe::formatError(e, src),
              "c.fdl:2:20: error: unexpected character '@'\n"
              "\tdef b = λ(x => y) @\n"
              "\t                  ^\n");
  }
}

TEST(Diagnostics, UnknownLocationAndMissingLine) {
  fftc::ir::CompileError noLoc(fftc::ir::SourceLoc{}, "something failed");
  EXPECT_EQ(fe::formatError(noLoc, "def x = 1"), "error: something failed\n");
  fftc::ir::CompileError fileOnly(fftc::ir::SourceLoc{"f.fdl", 0, 0}, "cannot open file");
  EXPECT_EQ(fe::formatError(fileOnly, ""), "f.fdl: error: cannot open file\n");
  fftc::ir::CompileError pastEnd(fftc::ir::SourceLoc{"f.fdl", 9, 3}, "late");
  EXPECT_EQ(fe::formatError(pastEnd, "one line"), "f.fdl:9:3: error: late\n");
  // Control bytes and invalid UTF-8 in the shown line are made printable.
  fftc::ir::CompileError bad(fftc::ir::SourceLoc{"f.fdl", 1, 3}, "bad");
  EXPECT_EQ(fe::formatError(bad, std::string("a\0\xff", 3)), "f.fdl:1:3: error: bad\na ?\n  ^\n");
}

TEST(Diagnostics, ReadsTheFileNamedInTheLocation) {
  fftc::ir::CompileError e(fftc::ir::SourceLoc{"/nonexistent/x.fdl", 1, 1}, "gone");
  EXPECT_EQ(fe::formatError(e), "/nonexistent/x.fdl:1:1: error: gone\n");
}
