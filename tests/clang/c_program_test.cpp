// Tests of lowerUserFunBody and runCProgram: userfun bodies translated by clang and run by the
// evaluator give what the same C computes when compiled here (the oracle is a C++ lambda of the
// same text), in both dialects; what the evaluator does not run is refused at its position.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "compiler/clang/clang_helpers.h"

namespace fftc::compiler::clang_helpers {
namespace {

#ifdef FFTC_HAVE_CLANG
#define REQUIRE_CLANG_HELPERS() ASSERT_TRUE(clangHelpersAvailable()) << clangHelpersStatus()
#else
#define REQUIRE_CLANG_HELPERS() GTEST_SKIP() << "built with FFTC_WITH_CLANG=OFF"
#endif

const char* const kPreludeOpenCL =
    "inline float2 cmul(float2 a, float2 b) {\n"
    "  return (float2)(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n"
    "}\n"
    "typedef struct { float _0; int _1; } tuple0;\n";
const char* const kPreludeCuda =
    "__device__ __forceinline__ float2 cmul(float2 a, float2 b) {\n"
    "  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);\n"
    "}\n"
    "typedef struct { float _0; int _1; } tuple0;\n";

CProgram lower(Dialect d, const std::string& sig, const std::string& body) {
  return lowerUserFunBody(d == Dialect::OpenCL ? kPreludeOpenCL : kPreludeCuda, sig, body, d);
}

CVal f32(float v) { return CVal::ofReal(v, CScalar::Float); }
CVal i32(int v) { return CVal::ofInt(v, CScalar::Int); }

// A row: a body over (float a, float b, int n) returning float, and the same C as C++.
struct Row {
  const char* body;
  std::function<float(float, float, int)> oracle;
};

// The oracle bodies are the row's text compiled by the host compiler (float arithmetic is
// IEEE single precision there too, without contraction: -ffp-contract is off for this file's
// operations in -O2 GCC only across statements, so only exactly representable results are
// compared where an fma could differ).
const std::vector<Row>& rows() {
  static const std::vector<Row> r = {
      {"return a * b + a;", [](float a, float b, int) { return a * b + a; }},
      {"return a - b / 3.0f;", [](float a, float b, int) { return a - b / 3.0f; }},
      {"float t = a; t += b; t *= 2; return t;",
       [](float a, float b, int) { float t = a; t += b; t *= 2; return t; }},
      {"return n / 3 + n % 3;", [](float, float, int n) { return static_cast<float>(n / 3 + n % 3); }},
      {"return (float)(n >> 1) + (float)(n << 2) + (float)(~n & 5);",
       [](float, float, int n) { return (float)(n >> 1) + (float)(n << 2) + (float)(~n & 5); }},
      {"unsigned u = (unsigned)n; return (float)(u / 7u);",
       [](float, float, int n) { unsigned u = (unsigned)n; return (float)(u / 7u); }},
      {"return a > b ? a : (b < 0.0f && n != 0 ? -b : b);",
       [](float a, float b, int n) { return a > b ? a : (b < 0.0f && n != 0 ? -b : b); }},
      {"float s = 0.0f; for (int i = 0; i < 10; ++i) { if (i == n) continue; if (i > 7) break; s += a * i; } return s;",
       [](float a, float, int n) {
         float s = 0.0f;
         for (int i = 0; i < 10; ++i) { if (i == n) continue; if (i > 7) break; s += a * i; }
         return s;
       }},
      {"int k = 0; do { k++; } while (k < n); while (k > 2) k -= 2; return (float)k;",
       [](float, float, int n) { int k = 0; do { k++; } while (k < n); while (k > 2) k -= 2; return (float)k; }},
      {"int i = (int)(a * 100.0f); return (float)i;",
       [](float a, float, int) { int i = (int)(a * 100.0f); return (float)i; }},
      {"return sqrt(a * a + b * b) + fabs(b) + floor(a * 10.0f);",
       [](float a, float b, int) {
         return static_cast<float>(std::sqrt(static_cast<double>(a * a + b * b))) +
                std::fabs(b) + std::floor(a * 10.0f);
       }},
      {"return fmin(a, b) + fmax(a, b) + (float)min(n, 3) + (float)abs(n);",
       [](float a, float b, int n) {
         return std::fmin(a, b) + std::fmax(a, b) + (float)std::min(n, 3) + (float)std::abs(n);
       }},
      {"int k = n; int x = k++; int y = ++k; k--; return (float)(x * 100 + y * 10 + k);",
       [](float, float, int n) { return (float)(n * 100 + (n + 2) * 10 + n + 1); }},
      {"return 2147483647 + n > 0 ? 1.0f : 0.0f;",
       // int overflow wraps (two's complement) in the evaluator, as every GPU does
       [](float, float, int n) {
         return static_cast<int32_t>(static_cast<uint32_t>(2147483647) + static_cast<uint32_t>(n)) > 0 ? 1.0f : 0.0f;
       }},
  };
  return r;
}

class LowerUserFun : public ::testing::TestWithParam<Dialect> {};

INSTANTIATE_TEST_SUITE_P(Dialects, LowerUserFun, ::testing::Values(Dialect::OpenCL, Dialect::Cuda),
                         [](const ::testing::TestParamInfo<Dialect>& param) {
                           return param.param == Dialect::OpenCL ? "OpenCL" : "Cuda";
                         });

TEST_P(LowerUserFun, BodiesComputeWhatCComputes) {
  REQUIRE_CLANG_HELPERS();
  const std::string prefix = GetParam() == Dialect::Cuda ? "__device__ inline " : "inline ";
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> real(-2.0f, 2.0f);
  std::uniform_int_distribution<int> ints(-9, 9);
  for (const Row& row : rows()) {
    SCOPED_TRACE(row.body);
    CProgram p = lower(GetParam(), prefix + "float f(float a, float b, int n)", row.body);
    ASSERT_EQ(p.error, "");
    for (int trial = 0; trial < 20; ++trial) {
      const float a = real(rng), b = real(rng);
      const int n = ints(rng);
      const CVal got = runCProgram(p, {f32(a), f32(b), i32(n)});
      const float want = row.oracle(a, b, n);
      EXPECT_NEAR(got.real(), want, 1e-6 * (1 + std::fabs(want))) << a << " " << b << " " << n;
    }
  }
}

TEST_P(LowerUserFun, VectorsStructsAndPreludeCalls) {
  REQUIRE_CLANG_HELPERS();
  const bool cl = GetParam() == Dialect::OpenCL;
  const std::string prefix = cl ? "inline " : "__device__ inline ";
  // complex product through the prelude's cmul, then a field write
  CProgram p = lower(GetParam(), prefix + "float2 f(float2 a, float2 b)",
                     "float2 r = cmul(a, b);\nr.y *= 2.0f;\nreturn r;");
  ASSERT_EQ(p.error, "");
  auto complexArg = [&](float re, float im) {
    CVal v = CVal::zero(p.functions[0].paramTypes[0]);
    v.parts[0] = f32(re);
    v.parts[1] = f32(im);
    return v;
  };
  // (1 + 2i)(3 - i) = 5 + 5i; the imaginary part doubled
  CVal r = runCProgram(p, {complexArg(1, 2), complexArg(3, -1)});
  ASSERT_EQ(r.parts.size(), 2u);
  EXPECT_EQ(r.parts[0].real(), 5.0);
  EXPECT_EQ(r.parts[1].real(), 10.0);
  // a tuple struct
  CProgram t = lower(GetParam(), prefix + "float g(tuple0 p)", "return p._0 * (float)p._1;");
  ASSERT_EQ(t.error, "");
  CVal tuple = CVal::zero(t.functions[0].paramTypes[0]);
  tuple.parts[0] = f32(1.5f);
  tuple.parts[1] = i32(-4);
  EXPECT_EQ(runCProgram(t, {tuple}).real(), -6.0);
}

TEST(LowerUserFunOpenCL, VectorLiteralsSwizzlesAndSplats) {
  REQUIRE_CLANG_HELPERS();
  CProgram p = lower(Dialect::OpenCL, "inline float f(float a)",
                     "float4 v = (float4)((float2)(a, 2.0f), 3.0f, 4.0f);\n"
                     "float4 w = v * 2.0f;\n"
                     "v.xy = w.wz;\n"
                     "return v.x * 1000.0f + v.y * 100.0f + v.z * 10.0f + v.w;");
  ASSERT_EQ(p.error, "");
  // w = (2a, 4, 6, 8); v = (8, 6, 3, 4)
  EXPECT_EQ(runCProgram(p, {f32(7.0f)}).real(), 8000.0 + 600.0 + 30.0 + 4.0);
}

TEST_P(LowerUserFun, WhatIsNotRunIsRefusedAtItsPosition) {
  REQUIRE_CLANG_HELPERS();
  const std::string prefix = GetParam() == Dialect::Cuda ? "__device__ inline " : "inline ";
  // an out-parameter: the address-of operator at column 8 of line 2
  CProgram p = lower(GetParam(), prefix + "float f(float a)", "float s = a;\nfloat* q = &s;\nreturn *q;");
  EXPECT_EQ(p.errorLine, 2);
  EXPECT_NE(p.error.find("the interpreter does not run"), std::string::npos) << p.error;
  EXPECT_TRUE(p.functions.empty());
  // a local array
  p = lower(GetParam(), prefix + "float f(float a)", "float w[2] = {a, a};\nreturn w[0];");
  EXPECT_EQ(p.errorLine, 1);
  EXPECT_NE(p.error.find("the interpreter does not run"), std::string::npos) << p.error;
  // a body clang rejects: clang's message, at its position
  p = lower(GetParam(), prefix + "float f(float a)", "return a + c;");
  EXPECT_EQ(p.errorLine, 1);
  EXPECT_EQ(p.errorCol, 12);
  EXPECT_NE(p.error.find("undeclared identifier 'c'"), std::string::npos) << p.error;
}

TEST(RunCProgram, EndlessLoopsAndDivisionByZeroThrow) {
  REQUIRE_CLANG_HELPERS();
  CProgram p = lower(Dialect::OpenCL, "inline int f(int n)", "while (n >= 0) n = n | 1;\nreturn n;");
  ASSERT_EQ(p.error, "");
  EXPECT_THROW(runCProgram(p, {i32(1)}, 10000), std::runtime_error);
  CProgram d = lower(Dialect::OpenCL, "inline int f(int n)", "return 7 / n;");
  ASSERT_EQ(d.error, "");
  EXPECT_EQ(runCProgram(d, {i32(-2)}).i, -3);  // C truncates
  EXPECT_THROW(runCProgram(d, {i32(0)}), std::runtime_error);
}

TEST(RunCProgram, WithoutThePluginTheErrorSaysWhy) {
  if (clangHelpersAvailable()) GTEST_SKIP() << "the plugin is loaded";
  CProgram p = lower(Dialect::OpenCL, "inline float f(float a)", "return a;");
  EXPECT_NE(p.error.find("through clang"), std::string::npos) << p.error;
}

}  // namespace
}  // namespace fftc::compiler::clang_helpers
