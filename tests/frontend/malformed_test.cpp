// Malformed programs: every stage's errors (lexical, syntactic, elaboration, type inference)
// come out as FILE:LINE:COL: error: MESSAGE with the exact location and message checked here,
// followed by the source line and a caret.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/elaborator.h"
#include "compiler/frontend/frontend.h"
#include "compiler/frontend/imports.h"
#include "compiler/frontend/lexer.h"
#include "compiler/frontend/parser.h"

namespace fe = fftc::compiler::frontend;

namespace {

struct Malformed {
  const char* name;
  std::string source;
  int line, col;
  const char* message;
};

// Sources may hold NUL bytes: keep the literal's full length.
template <size_t N>
std::string S(const char (&literal)[N]) {
  return std::string(literal, N - 1);
}

// clang-format off
const Malformed kCases[] = {
    {"lex_unexpected_char", S("def x = 1 @ 2\n"), 1, 11,
     "unexpected character '@'"},
    {"lex_unterminated_comment", S("def x = 1\n/* never closed\nkernel k(x: [float]4) = x\n"), 2, 1,
     "unterminated block comment"},
    {"lex_unterminated_string", S("userfun f(a: float): float = \"return a;\n"), 1, 30,
     "unterminated string literal"},
    {"lex_huge_int", S("def x = 99999999999999999999\n"), 1, 9,
     "integer literal '99999999999999999999' is too large (the limit is 9223372036854775807)"},
    {"lex_huge_real", S("def x = 1e999\n"), 1, 9,
     "real literal '1e999' is out of range"},
    {"lex_invalid_utf8", S("def x = \xff\n"), 1, 9,
     "invalid UTF-8 byte 0xFF"},
    {"lex_nul", S("def x = 1\x00\n"), 1, 10,
     "NUL character in source"},
    {"lex_unexpected_unicode", S("def x = \xe2\x88\x91\n"), 1, 9,
     "unexpected character U+2211"},
    {"lex_lone_less", S("def f = map(neg) << x\n"), 1, 18,
     "unexpected character '<' (application is written '<<:')"},
    {"lex_bad_suffix", S("def x = 12abc\n"), 1, 9,
     "invalid suffix 'a' on number '12'"},
    {"lex_bad_escape", S("userfun f(a: float): float = \"return \\q;\"\n"), 1, 38,
     "unknown escape sequence '\\q'"},
    {"lex_truncated_utf8", S("def x = 1 \xce"), 1, 11,
     "truncated UTF-8 sequence"},
    {"lex_float_out_of_range", S("def x = 1e39f\n"), 1, 9,
     "float literal '1e39f' is out of range"},
    {"syn_def_missing_eq", S("def f(x) x\n"), 1, 10,
     "expected '=' in def, found identifier 'x'"},
    {"syn_def_missing_name", S("def = 3\n"), 1, 5,
     "expected a name after 'def', found '='"},
    {"syn_top_level_expr", S("map(neg)\n"), 1, 1,
     "expected a declaration ('def', 'userfun', 'kernel' or 'import'), found identifier 'map'"},
    {"syn_unclosed_call", S("def x = f(1, 2\n"), 2, 1,
     "expected ',' or ')' after arguments, found end of file"},
    {"syn_kernel_param_colon", S("kernel k(x [float]N) = x\n"), 1, 12,
     "expected ':' and a type after parameter 'x', found '['"},
    {"syn_unknown_type", S("kernel k(x: [flaot]N) = x\n"), 1, 14,
     "unknown type 'flaot' (types are int, float, double, real, complex, (T1, T2, ...) and [T]n)"},
    {"syn_missing_size", S("kernel k(x: [float]) = x\n"), 1, 20,
     "expected an array size (a number, a name or a parenthesized size expression), found ')'"},
    {"syn_fun_no_param", S("def f = fun => 1\n"), 1, 13,
     "expected a parameter or '(' after 'fun', found '=>'"},
    {"syn_fun_no_arrow", S("def f = fun x x\n"), 1, 15,
     "expected '=>' after lambda parameters, found identifier 'x'"},
    {"syn_pipe_no_in", S("def f = pipe(q 0 .. 3) id\n"), 1, 16,
     "expected 'in' after the pipe variable, found number '0'"},
    {"syn_pipe_no_dotdot", S("def f = pipe(q in 0, 3) id\n"), 1, 20,
     "expected '..' in the pipe range, found ','"},
    {"syn_bad_field", S("def f = fun x => x.a\n"), 1, 20,
     "expected a tuple component such as '_0' after '.', found identifier 'a'"},
    {"syn_paren_tuple", S("def t = (1, 2)\n"), 1, 11,
     "tuples are written with braces: {a, b} rather than (a, b)"},
    {"syn_one_tuple", S("def t = {1}\n"), 1, 9,
     "a tuple needs at least two components"},
    {"syn_deep_parens", S("def x = ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((1))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))\n"), 1, 75,
     "expression nested too deeply (more than 200 levels)"},
    {"syn_long_chain", S("def x = 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1\n"), 1, 807,
     "expression nested too deeply (more than 200 levels)"},
    {"syn_dup_param", S("def f(a, b, a) = a\n"), 1, 13,
     "duplicate parameter 'a'"},
    {"syn_userfun_no_body", S("userfun f(a: float): float = a\n"), 1, 30,
     "expected the userfun body as a string, found identifier 'a'"},
    {"syn_userfun_empty_body", S("userfun f(a: float): float = \"  \"\nkernel k(x: [float]8) = map(f) <<: x\n"), 1, 30,
     "the body of userfun 'f' is empty"},
    {"syn_eof_expr", S("def x =\n"), 2, 1,
     "expected an expression, found end of file"},
    {"syn_trailing_comma", S("def f(x,) = x\n"), 1, 9,
     "expected a parameter name, found ')'"},
    {"syn_lambda_unclosed", S("def f = \xce\xbb(x => x\n"), 2, 1,
     "expected ')' closing the lambda, found end of file"},
    {"elab_unknown_suggest", S("kernel k(x: [float]N) = mpa(neg) <<: x\n"), 1, 25,
     "unknown name 'mpa' (did you mean 'map'?)"},
    {"elab_unknown_plain", S("kernel k(x: [float]N) = frobnicate <<: x\n"), 1, 25,
     "unknown name 'frobnicate'"},
    {"elab_redefinition", S("def a = 1\ndef a = 2\n"), 2, 5,
     "redefinition of 'a' (first defined at t.fdl:1:5)"},
    {"elab_redefine_builtin", S("def map = 1\n"), 1, 5,
     "'map' is a built-in name and cannot be redefined"},
    {"elab_recursion", S("def f(x) = f(x)\nkernel k(x: [float]4) = f(x)\n"), 1, 12,
     "recursive definition: 'f' expands into itself (f -> f)"},
    {"elab_mutual_recursion", S("def a = b\ndef b = a\nkernel k(x: [float]4) = a\n"), 2, 9,
     "recursive definition: 'a' expands into itself (a -> b -> a)"},
    {"elab_runaway", S("def twice(f) = f o f\ndef t = twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(twice(neg))))))))))))))))))))))\nkernel k(x: [float]4) = map(t) <<: x\n"), 3, 25,
     "elaboration budget exceeded (2000000 steps): the program expands to too much code (runaway def expansion?)"},
    {"elab_pipe_too_long", S("kernel k(x: [float]4) = pipe(q in 0 .. 100000) id <<: x\n"), 1, 25,
     "pipe range 0 .. 100000 is too long (at most 4096 iterations)"},
    {"elab_index_out_of_range", S("def rs = [2, 4]\nkernel k(x: [float]8) = split(rs[2]) <<: x\n"), 2, 34,
     "list index 2 is out of range (the list has 2 elements)"},
    {"elab_prod_range", S("def rs = [2, 4]\nkernel k(x: [float]8) = split(prod(rs, 1, 3)) <<: x\n"), 2, 31,
     "prod(rs, 1, 3): the range is not within the list's 2 elements"},
    {"elab_factors_zero", S("kernel k(x: [float]8) = split(len(factors(0))) <<: x\n"), 1, 35,
     "factors(0): the argument must be at least 1"},
    {"elab_index_non_list", S("kernel k(x: [float]8) = split(x[0]) <<: x\n"), 1, 32,
     "only compile-time lists can be indexed with [ ], this is a value"},
    {"elab_apply_value", S("kernel k(x: [float]8) = x(1)\n"), 1, 25,
     "'x' is a value, not a function; it cannot be applied"},
    {"elab_apply_op_value", S("kernel k(x: [float]8) = 1 <<: x\n"), 1, 27,
     "the left side of '<<:' is an integer, not a function"},
    {"elab_split_fun", S("kernel k(x: [float]8) = split(neg) <<: x\n"), 1, 25,
     "the 1st argument of split must be a compile-time integer, but it is a function"},
    {"elab_symbolic_index", S("def rs = [2, 4]\nkernel k(x: [float]N) = split(rs[N]) <<: x\n"), 2, 34,
     "a list index must be a constant, but it is the symbolic size N"},
    {"elab_div_zero", S("kernel k(x: [float]8) = split(4 / 0) <<: x\n"), 1, 33,
     "division by zero in compile-time arithmetic"},
    {"elab_overflow", S("def big = 9223372036854775807 * 2\nkernel k(x: [float]8) = split(big) <<: x\n"), 1, 31,
     "integer overflow in compile-time arithmetic"},
    {"elab_too_many_args", S("kernel k(x: [float]8, y: [float]8) = (fun a => a)(x, y)\n"), 1, 39,
     "too many arguments: this function takes 1, got 2"},
    {"elab_zip_one", S("kernel k(x: [float]8) = zip(x)\n"), 1, 25,
     "zip needs at least 2 arrays, got 1"},
    {"elab_len_non_list", S("kernel k(x: [float]8) = split(len(3)) <<: x\n"), 1, 31,
     "len needs a compile-time list, got an integer"},
    {"elab_zero_size", S("kernel k(x: [float]0) = x\n"), 1, 20,
     "array size must be positive, got 0"},
    {"elab_userfun_array", S("userfun f(a: [float]4): float = \"return 0;\"\n"), 1, 14,
     "userfun parameter 'a' has array type [float]4; user functions take and return scalars and tuples"},
    {"elab_list_real", S("def rs = [1.5]\nkernel k(x: [float]8) = split(rs[0]) <<: x\n"), 1, 11,
     "list elements must be compile-time integers, got a value"},
    {"elab_dim3", S("kernel k(x: [float]8) = mapGlobal(3, neg) <<: x\n"), 1, 25,
     "mapGlobal: dimension 3 is not 0, 1 or 2"},
    {"elab_iterate_neg", S("kernel k(x: [float]8) = iterate(-1, id) <<: x\n"), 1, 25,
     "iterate: the count -1 is negative"},
    {"elab_kernel_list", S("kernel k(x: [float]8) = [1, 2]\n"), 1, 25,
     "the body of kernel 'k' is a list, not an array or scalar value"},
    {"elab_compose_value_left", S("kernel k(x: [float]8) = x o neg\n"), 1, 27,
     "'o' composes functions, but its left operand is a value"},
    {"elab_def_dup_userfun", S("userfun f(a: float): float = \"return a;\"\ndef f = 1\n"), 2, 5,
     "redefinition of 'f' (first defined at t.fdl:1:9)"},
    {"elab_map_missing_fun", S("kernel k(x: [float]8) = map <<: x\n"), 1, 25,
     "the 1st argument of map must be a function, but it is a value"},
    {"elab_pipe_body_value", S("kernel k(x: [float]8) = pipe(q in 0 .. 2) x <<: x\n"), 1, 43,
     "the body of a pipe must be a function, got a value"},
    {"elab_list_arith", S("def rs = [2]\nkernel k(x: [float]8) = split(rs + 1) <<: x\n"), 2, 34,
     "'+' needs numbers, but its left operand is a list"},
    {"elab_unknown_in_unused_def", S("def unused(x) = x + y\nkernel k(x: [float]4) = x\n"), 1, 21,
     "unknown name 'y'"},
    {"elab_pipe_var_scope", S("def f = pipe(q in 0 .. q) id\n"), 1, 24,
     "unknown name 'q'"},
    {"elab_lambda_param_scope", S("def f = (fun a => a) o (fun b => a)\n"), 1, 34,
     "unknown name 'a'"},
    {"type_split_3_of_8", S("kernel k(x: [float]8) = split(3) <<: x\n"), 1, 34,
     "split(3): 3 does not divide 8"},
    {"type_zip_mismatch", S("kernel k(x: [float]4, y: [float]8) = zip(x, y)\n"), 1, 38,
     "zip: sizes differ: 4 and 8"},
    {"type_map_scalar", S("kernel k(x: float) = map(neg) <<: x\n"), 1, 31,
     "map: expects an array, got float"},
    {"type_join_1d", S("kernel k(x: [float]8) = join <<: x\n"), 1, 30,
     "join: expects a 2-dimensional array, got [float]8"},
    {"type_reduce_init", S("kernel k(x: [float]8) = reduce(add, {1, 2, 3}) <<: x\n"), 1, 32,
     "add: expects numbers, got (int, int, int)"},
    {"type_userfun_arg", S("userfun f(a: float): float = \"return a;\"\nkernel k(x: [(float, float)]8) = map(f) <<: x\n"), 1, 9,
     "userfun f: parameter a is float but the argument is (float, float)"},
    {"type_transpose_1d", S("kernel k(x: [float]8) = transpose <<: x\n"), 1, 35,
     "transpose: expects a 2-dimensional array, got [float]8"},
    {"syn_import_not_string", S("import lib\n"), 1, 8,
     "expected the imported file's name as a string after 'import', found identifier 'lib'"},
    {"syn_import_empty", S("def x = 1\nimport \"\"\n"), 2, 8,
     "empty file name in import"},
    {"syn_import_newline", S("import \"a\nb.fdl\"\n"), 1, 8,
     "a control character in the file name of an import"},
    {"syn_import_is_a_keyword", S("def import = 1\n"), 1, 5,
     "expected a name after 'def', found 'import'"},
    {"import_missing_file", S("def x = 1\n  import \"no_such_import_file.fdl\"\n"), 2, 10,
     "cannot read import \"no_such_import_file.fdl\": No such file or directory"},
    {"import_itself", S("import \"./t.fdl\"\n"), 1, 8,
     "import cycle: t.fdl -> t.fdl"},

};
// clang-format on

class MalformedProgram : public ::testing::TestWithParam<Malformed> {};

std::string caseName(const ::testing::TestParamInfo<Malformed>& info) { return info.param.name; }

}  // namespace

TEST_P(MalformedProgram, ReportsExactLocationAndMessage) {
  const Malformed& c = GetParam();
  try {
    fe::compileSource(c.source, "t.fdl");
    FAIL() << "no error for " << c.name;
  } catch (const fftc::ir::CompileError& e) {
    EXPECT_EQ(e.loc().file, "t.fdl");
    EXPECT_EQ(e.loc().line, c.line) << e.what();
    EXPECT_EQ(e.loc().col, c.col) << e.what();
    EXPECT_EQ(e.message(), c.message);
    std::string shown = fe::formatError(e, c.source);
    std::string header = "t.fdl:" + std::to_string(c.line) + ":" + std::to_string(c.col) +
                         ": error: " + c.message + "\n";
    EXPECT_EQ(shown.substr(0, header.size()), header);
    // Then the source line and a caret line ending in '^'.
    size_t caretEnd = shown.rfind("^\n");
    EXPECT_NE(caretEnd, std::string::npos) << shown;
    EXPECT_EQ(caretEnd + 2, shown.size()) << shown;
  }
}

INSTANTIATE_TEST_SUITE_P(All, MalformedProgram, ::testing::ValuesIn(kCases), caseName);

// Each case is rejected by the stage its name gives (lex_, syn_, import_, elab_, type_) and
// passes every stage before it, so the table covers each stage with cases that reach it.
TEST(MalformedProgram, EachCaseFailsInTheStageItsNameGives) {
  const std::vector<std::string> stages = {"lex_", "syn_", "import_", "elab_", "type_"};
  std::map<std::string, int> perStage;
  for (const Malformed& c : kCases) {
    SCOPED_TRACE(c.name);
    const std::string name = c.name;
    size_t stage = stages.size();
    for (size_t i = 0; i < stages.size(); ++i)
      if (name.rfind(stages[i], 0) == 0) stage = i;
    ASSERT_LT(stage, stages.size()) << "the name does not start with a stage";
    ++perStage[stages[stage]];
    // Runs the stages in order; returns the index of the one that threw (stages.size(): none).
    auto failingStage = [&]() -> size_t {
      size_t at = 0;
      try {
        fe::lex(c.source, "t.fdl");
        at = 1;
        fftc::compiler::frontend::ast::Module module = fe::parse(c.source, "t.fdl");
        at = 2;
        fe::ElaborateOptions opts;
        fe::resolveImports(module, opts);
        at = 3;
        opts.typeCheck = false;
        fe::elaborate(module, opts);
        at = 4;
        opts.typeCheck = true;
        fe::elaborate(module, opts);
        return stages.size();
      } catch (const fftc::ir::CompileError& e) {
        EXPECT_EQ(e.message(), c.message);
        return at;
      }
    };
    EXPECT_EQ(failingStage(), stage);
  }
  for (const auto& s : stages) EXPECT_GE(perStage[s], 2) << "too few cases for stage " << s;
}
