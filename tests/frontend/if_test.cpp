// The compile-time conditional `if c then a else b` and its conditions (comparisons of
// compile-time integers, && || !): parsing and precedence, which branch is chosen (read off
// result types and run through the interpreter), and each error with its FILE:LINE:COL.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "compiler/frontend/ast.h"
#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "compiler/frontend/parser.h"
#include "ir/interpreter.h"
#include "tests/frontend/compile_support.h"

namespace fe = fftc::compiler::frontend;
namespace ir = fftc::ir;

namespace {

// The body of `def x = SRC`, fully parenthesized.
std::string shown(const std::string& src) {
  fe::ast::Module m = fe::parse("def x = " + src, "p.fdl");
  return fe::ast::show(*m.decls.at(0)->body);
}

using fftc::test::compile;

// The compile-time integer `expr` (after `prelude`), read back as the row length of
// split(expr) over 720 elements: 720 is divisible by every value the cases produce.
int64_t valueOf(const std::string& expr, const std::string& prelude = "",
                fe::ElaborateOptions opts = {}) {
  fe::Program p =
      compile(prelude + "\nkernel k(x: [float]720) = split(" + expr + ") <<: x\n", opts);
  auto n = p.kernels.at(0).resultType.element().size().constant();
  return n ? *n : -1;
}

std::vector<double> run(const std::string& src, const std::vector<double>& in,
                        fe::ElaborateOptions opts = {}) {
  fe::Program p = compile(src, opts);
  ir::Value x = ir::Value::realArray(in, ir::ScalarKind::Float);
  return ir::interpretCall(p.kernels.at(0).lambda, {x}).toRealVector();
}

}  // namespace

TEST(IfSyntax, PrecedenceAndExtent) {
  struct Row {
    const char* src;
    const char* expected;
  };
  const Row rows[] = {
      // || below &&, && below comparisons, comparisons below arithmetic, ! with unary minus
      {"a + 1 < b * 2 && !c || d", "((((a + 1) < (b * 2)) && (!c)) || d)"},
      {"a == b || a != b && a >= b", "((a == b) || ((a != b) && (a >= b)))"},
      {"-a <= -b", "((-a) <= (-b))"},
      {"a > b o f", "((a > b) o f)"},
      // the else branch extends as far right as possible, like a lambda body
      {"if a < b then f else g o h", "(if (a < b) then f else (g o h))"},
      {"(if c then f else g) o h", "((if c then f else g) o h)"},
      {"f o if c then g else h", "(f o (if c then g else h))"},
      {"x <<: if c then f else g <<: y", "(x <<: (if c then f else (g <<: y)))"},
      {"if c then if d then 1 else 2 else 3", "(if c then (if d then 1 else 2) else 3)"},
      {"pipe(q in 0 .. 3) if q == 1 then f else id",
       "(pipe(q in 0 .. 3) (if (q == 1) then f else id))"},
  };
  for (const auto& r : rows) EXPECT_EQ(shown(r.src), r.expected) << r.src;
}

TEST(IfChoice, ComparisonsAndLogicOnConstants) {
  struct Row {
    const char* expr;
    int64_t expected;
  };
  const Row rows[] = {
      {"if 1 < 2 then 2 else 3", 2},
      {"if 2 < 2 then 2 else 3", 3},
      {"if 2 <= 2 then 2 else 3", 2},
      {"if 3 <= 2 then 2 else 3", 3},
      {"if 3 > 2 then 2 else 3", 2},
      {"if 2 > 2 then 2 else 3", 3},
      {"if 2 >= 2 then 2 else 3", 2},
      {"if 1 >= 2 then 2 else 3", 3},
      {"if 4 == 4 then 2 else 3", 2},
      {"if 4 == 5 then 2 else 3", 3},
      {"if 4 != 5 then 2 else 3", 2},
      {"if 4 != 4 then 2 else 3", 3},
      {"if -1 < 0 then 2 else 3", 2},
      {"if 7 / 2 == 3 then 2 else 3", 2},
      {"if !(1 == 1) then 2 else 3", 3},
      {"if !0 then 2 else 3", 2},
      {"if 1 then 2 else 3", 2},
      {"if 0 then 2 else 3", 3},
      {"if 1 < 2 && 2 < 1 then 2 else 3", 3},
      {"if 1 < 2 && 1 then 2 else 3", 2},
      {"if 2 < 1 || 1 < 2 then 2 else 3", 2},
      {"if 0 || 2 < 1 then 2 else 3", 3},
      // the branches are any expressions, and an if is an operand like any other
      {"1 + (if 1 then 2 else 4) * 2", 5},
      {"if 0 then 2 else if 1 then 4 else 5", 4},
  };
  for (const auto& r : rows) EXPECT_EQ(valueOf(r.expr), r.expected) << r.expr;
}

TEST(IfChoice, ListsDefsAndBindings) {
  const std::string rs = "def rs = [2, 3, 4]\ndef flag = 0\ndef big = prod(rs) > 20";
  EXPECT_EQ(valueOf("if rs[1] == 3 then 4 else 5", rs), 4);
  EXPECT_EQ(valueOf("if len(rs) > 2 then prod(rs, 0, 2) else 1", rs), 6);
  EXPECT_EQ(valueOf("if big then 4 else 5", rs), 4);  // a def names a boolean
  EXPECT_EQ(valueOf("if flag then 4 else 5", rs), 5);
  fe::ElaborateOptions on;
  on.defines["flag"] = int64_t{1};  // -D flag=1 replaces the default
  EXPECT_EQ(valueOf("if flag then 4 else 5", rs, on), 4);
  // && and || evaluate the right operand only when the left one does not decide
  EXPECT_EQ(valueOf("if len(rs) > 5 && rs[5] == 1 then 2 else 3", rs), 3);
  EXPECT_EQ(valueOf("if len(rs) < 5 || rs[5] == 1 then 2 else 3", rs), 2);
  // only the chosen branch is evaluated
  EXPECT_EQ(valueOf("if 1 then 2 else rs[7]", rs), 2);
  EXPECT_EQ(valueOf("if 0 then rs[7] else 4", rs), 4);
  EXPECT_EQ(valueOf("if rs[0] == 2 then 4 else split", rs), 4);
}

// A size variable is at least 1, and its ranges decide some comparisons without a value.
TEST(IfChoice, SymbolicSizesWhereTheirRangeDecides) {
  struct Row {
    const char* cond;
    int64_t expected;
  };
  const Row rows[] = {{"N >= 1", 2}, {"N < 1", 3},      {"N + 1 > N", 2},
                      {"N == N", 2}, {"N - N != 0", 3}, {"2 * N >= N + 1", 2}};
  for (const auto& r : rows) {
    fe::Program p = compile(std::string("kernel k(x: [float]N, y: [float]6) = split(if ") + r.cond +
                            " then 2 else 3) <<: y");
    EXPECT_EQ(p.kernels.at(0).resultType.element().size().constant(), r.expected) << r.cond;
  }
}

// The interpreter runs what the chosen branch built: functions, runtime values, pipe stages.
TEST(IfChoice, ChosenFunctionsRun) {
  const std::vector<double> x{1, 2, 3};
  fe::ElaborateOptions on, off;
  on.defines["flag"] = int64_t{1};
  off.defines["flag"] = int64_t{0};
  const std::string fn = "kernel k(x: [float]3) = map(if flag then neg else id) <<: x";
  EXPECT_EQ(run(fn, x, on), (std::vector<double>{-1, -2, -3}));
  EXPECT_EQ(run(fn, x, off), x);
  const std::string value = "kernel k(x: [float]3) = if flag then map(neg) <<: x else x";
  EXPECT_EQ(run(value, x, on), (std::vector<double>{-1, -2, -3}));
  EXPECT_EQ(run(value, x, off), x);
  // doubling at q = 0 and q = 2, not at q = 1: four times x
  EXPECT_EQ(run("kernel k(x: [float]3) = (pipe(q in 0 .. 3) "
                "(if q != 1 then map(fun v => v * 2.0) else id)) <<: x",
                x),
            (std::vector<double>{4, 8, 12}));
}

namespace {

struct BadIf {
  const char* name;
  std::string source;
  int line, col;
  const char* message;
};

const std::string kDefs = "def rs = [2, 2]\n";  // line 1

// clang-format off
const BadIf kBad[] = {
    // a runtime value as condition, or compared
    {"runtime_condition", "kernel k(x: [float]4) = map(fun v => if v then v else v) <<: x\n", 1, 41,
     "the condition of 'if' must be known at compile time, but it is a runtime value"},
    {"runtime_comparison", "kernel k(x: [float]4) = map(fun v => if v > 0 then v else v) <<: x\n", 1, 41,
     "'>' compares compile-time integers, but its left operand is a runtime value"},
    // conditions that are neither booleans nor the integers 0 and 1
    {"real_condition", "kernel k(x: [float]4) = split(if 1.5 then 1 else 2) <<: x\n", 1, 34,
     "the condition of 'if' must be a boolean or the integer 0 or 1, but it is a real literal"},
    {"list_condition", kDefs + "kernel k(x: [float]4) = split(if rs then 1 else 2) <<: x\n", 2, 34,
     "the condition of 'if' must be a boolean or the integer 0 or 1, but it is a list"},
    {"function_condition", "kernel k(x: [float]4) = split(if map then 1 else 2) <<: x\n", 1, 34,
     "the condition of 'if' must be a boolean or the integer 0 or 1, but it is a function"},
    {"integer_condition", "kernel k(x: [float]4) = split(if 2 then 1 else 2) <<: x\n", 1, 34,
     "the condition of 'if' is the integer 2: a condition is a boolean (a comparison such as "
     "'n > 1') or the integer 0 or 1"},
    {"symbolic_condition", "kernel k(x: [float]N, y: [float]4) = split(if N then 1 else 2) <<: y\n", 1, 47,
     "the condition of 'if' must be known at compile time, but it is the symbolic size N (bind it "
     "with -D, or compare it)"},
    {"undecided_comparison", "kernel k(x: [float]N, y: [float]4) = split(if N > 4 then 1 else 2) <<: y\n", 1, 49,
     "cannot decide 'N > 4' at compile time: it depends on the sizes' values (bind them with -D)"},
    {"not_integer", "kernel k(x: [float]4) = split(if !3 then 1 else 2) <<: x\n", 1, 35,
     "the operand of '!' is the integer 3: a condition is a boolean (a comparison such as 'n > 1') "
     "or the integer 0 or 1"},
    {"and_list", kDefs + "kernel k(x: [float]4) = split(if 1 == 1 && rs then 1 else 2) <<: x\n", 2, 44,
     "the right operand of '&&' must be a boolean or the integer 0 or 1, but it is a list"},
    {"compare_boolean", "kernel k(x: [float]4) = split(if (1 < 2) == 1 then 1 else 2) <<: x\n", 1, 37,
     "'==' compares compile-time integers, but its left operand is a boolean"},
    {"boolean_as_size", "kernel k(x: [float]4) = split(1 < 2) <<: x\n", 1, 25,
     "the 1st argument of split must be a compile-time integer, but it is a boolean"},
    // syntax: a missing then or else, chained comparisons, single & and |
    {"missing_then", "def f = if 1 id else neg\n", 1, 14,
     "expected 'then' after the condition of 'if', found identifier 'id'"},
    {"missing_else", "def f = if 1 then id\nkernel k(x: [float]4) = f <<: x\n", 2, 1,
     "expected 'else' after the 'then' branch (an 'if' needs both branches), found 'kernel'"},
    {"missing_else_at_end", "def f = if 1 then id", 1, 21,
     "expected 'else' after the 'then' branch (an 'if' needs both branches), found end of file"},
    {"chained_comparison", "def b = 1 < 2 < 3\n", 1, 15,
     "comparisons do not chain: write 'a < b && b < c'"},
    {"single_ampersand", "def b = 1 & 2\n", 1, 11,
     "unexpected character '&' (logical and is written '&&')"},
    {"single_bar", "def b = 1 | 2\n", 1, 11,
     "unexpected character '|' (logical or is written '||')"},
    // names are checked in both branches, chosen or not
    {"unknown_name_in_other_branch", "kernel k(x: [float]4) = split(if 1 then 2 else nope) <<: x\n", 1, 48,
     "unknown name 'nope'"},
};
// clang-format on

class IfError : public ::testing::TestWithParam<BadIf> {};

}  // namespace

TEST_P(IfError, ReportsFileLineColumnAndMessage) {
  const BadIf& c = GetParam();
  try {
    fe::compileSource(c.source, "e.fdl");
    FAIL() << "no error for " << c.name;
  } catch (const ir::CompileError& e) {
    EXPECT_EQ(e.message(), c.message);
    const std::string header = "e.fdl:" + std::to_string(c.line) + ":" + std::to_string(c.col) +
                               ": error: " + c.message + "\n";
    const std::string text = fe::formatError(e, c.source);
    EXPECT_EQ(text.substr(0, header.size()), header) << text;
  }
}

INSTANTIATE_TEST_SUITE_P(All, IfError, ::testing::ValuesIn(kBad),
                         [](const ::testing::TestParamInfo<BadIf>& i) { return i.param.name; });
