// Tests of checkUserFunBody: errors in a userfun body come back at their line and column within
// the body (hand-checked positions below), correct bodies pass, and garbage never crashes.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "compiler/clang/clang_helpers.h"

namespace fftc::compiler::clang_helpers {
namespace {

// What the kernel printers emit ahead of userfuns: complex helpers on float2.
const char* const kPreludeOpenCL =
    "typedef float2 cfloat;\n"
    "inline float2 cmul(float2 a, float2 b) {\n"
    "  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n"
    "}\n";
const char* const kPreludeCuda =
    "__device__ __forceinline__ float2 cmul(float2 a, float2 b) {\n"
    "  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n"
    "}\n";

const char* prelude(Dialect dialect) {
  return dialect == Dialect::OpenCL ? kPreludeOpenCL : kPreludeCuda;
}

std::string show(const std::vector<BodyDiagnostic>& diagnostics) {
  std::string text;
  for (const BodyDiagnostic& d : diagnostics) {
    text += std::to_string(d.line) + ":" + std::to_string(d.col) + ": " + d.message + "\n";
  }
  return text;
}

// Without LLVM (FFTC_WITH_CLANG=OFF: the sanitizer and fuzz builds) the helpers check nothing and
// the tests below check that fallback; a build with LLVM must have loaded its plugin, or every
// check here would pass on the fallback instead.
TEST(ClangHelpers, LoadedWhenBuiltWithClang) {
#ifdef FFTC_HAVE_CLANG
  EXPECT_TRUE(clangHelpersAvailable()) << clangHelpersStatus();
#else
  EXPECT_FALSE(clangHelpersAvailable());
  EXPECT_TRUE(checkUserFunBody("", "float f(float a)", "return b;", Dialect::OpenCL).empty());
#endif
}

// For the tests that only mean something with clang: they skip, saying so, in a build without
// LLVM (ClangHelpers.LoadedWhenBuiltWithClang guards the other case).
#ifdef FFTC_HAVE_CLANG
#define REQUIRE_CLANG_HELPERS() ASSERT_TRUE(clangHelpersAvailable()) << clangHelpersStatus()
#else
#define REQUIRE_CLANG_HELPERS() GTEST_SKIP() << "built with FFTC_WITH_CLANG=OFF"
#endif

class CheckUserFun : public ::testing::TestWithParam<Dialect> {
 protected:
  std::vector<BodyDiagnostic> check(std::string_view signature, std::string_view body) {
    return checkUserFunBody(prelude(GetParam()), signature, body, GetParam());
  }
  // The body has exactly one error, at (line, col), whose message contains `words`.
  void expectError(std::string_view signature, std::string_view body, int line, int col,
                   std::string_view words) {
    const std::vector<BodyDiagnostic> got = check(signature, body);
    if (!clangHelpersAvailable()) {
      EXPECT_TRUE(got.empty());
      return;
    }
    ASSERT_EQ(got.size(), 1u) << "body:\n" << body << "\ngot:\n" << show(got);
    EXPECT_EQ(got[0].line, line) << show(got);
    EXPECT_EQ(got[0].col, col) << show(got);
    EXPECT_NE(got[0].message.find(words), std::string::npos) << show(got);
  }
};

INSTANTIATE_TEST_SUITE_P(Dialects, CheckUserFun, ::testing::Values(Dialect::OpenCL, Dialect::Cuda),
                         [](const ::testing::TestParamInfo<Dialect>& param) {
                           return param.param == Dialect::OpenCL ? "OpenCL" : "Cuda";
                         });

TEST_P(CheckUserFun, CorrectBodiesHaveNoDiagnostics) {
  EXPECT_EQ(show(check("float add(float a, float b)", "return a + b;")), "");
  EXPECT_EQ(show(check("float2 mul(float2 a, float2 b)", "return cmul(a, b);")), "");
  EXPECT_EQ(show(check("float2 mulRe(float2 a, float b)",
                       "float2 r = a;\n"
                       "r.x = r.x * b;\n"
                       "r.y *= b;\n"
                       "return r;")),
            "");
  EXPECT_EQ(show(check("double sq(double a, double b)", "return a * a + b;")), "");
}

TEST_P(CheckUserFun, BadOperatorSequence) {
  // `a +* b` parses as `a + (*b)`: dereferencing a float, at the `*`.
  expectError("float add(float a, float b)", "return a +* b;", 1, 11, "indirection");
}

TEST_P(CheckUserFun, UndeclaredIdentifier) {
  expectError("float add(float a, float b)", "return a + c;", 1, 12, "undeclared identifier 'c'");
}

TEST_P(CheckUserFun, MissingSemicolonPointsAfterTheStatement) {
  expectError("float add(float a, float b)", "return a + b", 1, 13, "expected ';'");
}

TEST_P(CheckUserFun, MemberOfAScalar) {
  expectError("float re(float a, float b)", "return a.x;", 1, 9, "not a structure or union");
}

TEST_P(CheckUserFun, MultiLineBodiesMapLines) {
  const char* body =
      "float t = a * b;\n"
      "  float u = t + a;\n"
      "\n"
      "    return u + undefinedThing;\n";
  expectError("float f(float a, float b)", body, 4, 16, "undeclared identifier 'undefinedThing'");
  expectError("float f(float a, float b)", "float t = a * b;\n  return t.y + b;", 2, 11,
              "not a structure or union");
  // CRLF line ends count as one line end each.
  expectError("float f(float a, float b)", "float t = a;\r\nreturn t + q;\r\n", 2, 12,
              "undeclared identifier 'q'");
}

TEST_P(CheckUserFun, UnbalancedBracesPointAtTheBodyEnd) {
  expectError("float f(float a, float b)", "{ return a;", 1, 12, "expected '}'");
  expectError("float f(float a, float b)", "return a; }\n\n", 1, 12, "extraneous closing brace");
}

TEST_P(CheckUserFun, LineDirectivesDoNotMovePositions) {
  expectError("float f(float a, float b)", "#line 900\nreturn a + c;", 2, 12,
              "undeclared identifier 'c'");
}

TEST_P(CheckUserFun, ErrorsOutsideTheBodyHaveLineZero) {
  REQUIRE_CLANG_HELPERS();
  const std::vector<BodyDiagnostic> sig = check("float f(flot a, float b)", "return b;");
  ASSERT_EQ(sig.size(), 1u) << show(sig);
  EXPECT_EQ(sig[0].line, 0);
  EXPECT_EQ(sig[0].col, 0);
  EXPECT_EQ(sig[0].message.rfind("in the signature: unknown type name 'flot'", 0), 0u) << show(sig);

  const std::vector<BodyDiagnostic> pre = checkUserFunBody(
      "int broken(void) { return undeclaredThing; }", "float f(float a)", "return a;", GetParam());
  ASSERT_EQ(pre.size(), 1u) << show(pre);
  EXPECT_EQ(pre[0].line, 0);
  EXPECT_EQ(pre[0].message.rfind("in the prelude: ", 0), 0u) << show(pre);
}

TEST_P(CheckUserFun, SeveralErrorsComeSortedByPosition) {
  REQUIRE_CLANG_HELPERS();
  const std::vector<BodyDiagnostic> got =
      check("float f(float a, float b)", "float t = zz;\nreturn a + yy;");
  ASSERT_EQ(got.size(), 2u) << show(got);
  EXPECT_EQ(std::pair(got[0].line, got[0].col), std::pair(1, 11));
  EXPECT_EQ(std::pair(got[1].line, got[1].col), std::pair(2, 12));
}

TEST(CheckUserFunOpenCL, AcceptsOpenCLBuiltins) {
  const auto check = [](std::string_view signature, std::string_view body) {
    return show(checkUserFunBody(kPreludeOpenCL, signature, body, Dialect::OpenCL));
  };
  EXPECT_EQ(check("float f(float a, float b)", "return native_cos(a) + mad(a, b, a);"), "");
  EXPECT_EQ(check("float2 f(float2 a, float2 b)", "return (float2)(a.x + b.y, a.y) * a.yx;"), "");
  EXPECT_EQ(check("cfloat f(cfloat a, float w)",
                  "float s; float c = sincos(w, &s);\n"
                  "uint k = 3u;\n"
                  "return cmul(a, (float2)(c, s)) * (float)k + native_sin(w);"),
            "");
  EXPECT_EQ(check("double2 f(double2 a, double b)", "return fma(a, (double2)(b), a).yx;"), "");
}

TEST(CheckUserFunOpenCL, RejectsCFunctionsThatOpenCLLacks) {
  const std::vector<BodyDiagnostic> got = checkUserFunBody(
      kPreludeOpenCL, "float f(float a, float b)", "return cosf(a) + b;", Dialect::OpenCL);
  if (!clangHelpersAvailable()) {
    EXPECT_TRUE(got.empty());
    return;
  }
  ASSERT_EQ(got.size(), 1u) << show(got);
  EXPECT_EQ(std::pair(got[0].line, got[0].col), std::pair(1, 8));
  EXPECT_NE(got[0].message.find("cosf"), std::string::npos);
}

TEST(CheckUserFunCuda, AcceptsWhatNvrtcProvides) {
  const auto check = [](std::string_view signature, std::string_view body) {
    return show(checkUserFunBody(kPreludeCuda, signature, body, Dialect::Cuda));
  };
  EXPECT_EQ(check("__device__ float2 f(float2 a, float w)",
                  "float s, c;\n"
                  "sincosf(w, &s, &c);\n"
                  "return cmul(a, make_float2(c, s));"),
            "");
  EXPECT_EQ(check("__device__ __forceinline__ double f(double a, double b)",
                  "return fma(a, b, sqrt(a)) + cos(b) + __fdividef(1.0f, 2.0f);"),
            "");
  // OpenCL's built-ins do not exist in CUDA.
  const std::vector<BodyDiagnostic> got = checkUserFunBody(
      kPreludeCuda, "float f(float a, float b)", "return native_cos(a);", Dialect::Cuda);
  if (clangHelpersAvailable()) {
    ASSERT_EQ(got.size(), 1u) << show(got);
    EXPECT_EQ(std::pair(got[0].line, got[0].col), std::pair(1, 8));
  }
}

// Every reported position lies inside the body (or is line 0 for errors outside it).
void expectPositionsInBody(const std::vector<BodyDiagnostic>& got, const std::string& body) {
  const std::string trimmed = body.substr(0, body.find_last_not_of(" \t\r\n\f\v") + 1);
  const int lineCount = 1 + static_cast<int>(std::count(trimmed.begin(), trimmed.end(), '\n'));
  for (const BodyDiagnostic& d : got) {
    if (d.line == 0) {
      EXPECT_EQ(d.col, 0);
      continue;
    }
    EXPECT_GE(d.line, 1);
    EXPECT_LE(d.line, lineCount) << d.message;
    EXPECT_GE(d.col, 1);
    EXPECT_LE(d.col, static_cast<int>(trimmed.size()) + 1);
  }
}

TEST(CheckUserFunFuzz, GarbageBodiesDoNotCrash) {
  std::mt19937 rng(2024);
  const std::vector<std::string> tokens = {
      "{",  "}",    "(",        ")",         "[",        "]",          ";",
      ",",  "#",    "#if 1",    "#define X", "#include", "\"",         "'",
      "/*", "*/",   "//",       "\\",        "\n",       "return",     "a",
      "b",  ".x",   "float2",   "(float2)",  "=",        "+",          "*",
      "&",  "->",   "::",       "template",  "<",        ">",          "0x",
      "1e", "goto", "__kernel", "struct",    "sizeof",   "native_cos", "make_float2",
      "}}", "int",  "?"};
  int withErrors = 0;
  for (int iter = 0; iter < 300; ++iter) {
    std::string body;
    const int n = static_cast<int>(rng() % 200);
    for (int i = 0; i < n; ++i) {
      if (iter % 2 == 0) {
        body += static_cast<char>(rng() % 256);  // raw bytes, NUL and invalid UTF-8 included
      } else {
        body += tokens[rng() % tokens.size()];
        body += ' ';
      }
    }
    const Dialect dialect = iter % 4 < 2 ? Dialect::OpenCL : Dialect::Cuda;
    const std::vector<BodyDiagnostic> got =
        checkUserFunBody(prelude(dialect), "float f(float a, float b)", body, dialect);
    expectPositionsInBody(got, body);
    if (!got.empty()) ++withErrors;
  }
  // Random text is almost never a valid body: the checker really parsed it.
  if (clangHelpersAvailable()) {
    EXPECT_GT(withErrors, 250);
  }
}

}  // namespace
}  // namespace fftc::compiler::clang_helpers
