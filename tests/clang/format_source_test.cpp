// Tests of formatSource: emitted kernels come out in the house layout, and nothing that reaches
// the formatter (even garbage) makes it throw or crash.
#include <gtest/gtest.h>

#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/clang/clang_helpers.h"

namespace fftc::compiler::clang_helpers {
namespace {

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

const char* const kUglyOpenCL =
    "__kernel void scale(__global const float* restrict in,__global float* out,int n){int "
    "i=get_global_id(0);\n"
    "if(i<n){out[i]=2.0f*in[i];}\n"
    "        }\n"
    "__kernel void fft(__global float2*x){__local float2 tmp[64];for(int k=0;k<64;k++){tmp[k]="
    "x[k];}barrier(CLK_LOCAL_MEM_FENCE);x[get_local_id(0)]=(float2)(tmp[0].x,tmp[1].y);}\n";

const char* const kUglyCuda =
    "extern \"C\" __global__ void scale(const float* __restrict__ in,float* out,int n){int "
    "i=blockIdx.x*blockDim.x+threadIdx.x;if(i<n){out[i]=2.0f*in[i];}}\n"
    "__device__ __forceinline__ float2 cmul(float2 a,float2 b){return "
    "make_float2(a.x*b.x-a.y*b.y,a.x*b.y+a.y*b.x);}\n"
    "extern \"C\" __global__ void k(float2* x){__shared__ float2 "
    "t[64];t[threadIdx.x]=x[threadIdx.x];__syncthreads();x[threadIdx.x]=cmul(t[0],t[threadIdx."
    "x]);}\n";

TEST(FormatSource, ReindentsAnOpenCLKernel) {
  const std::string out = formatSource(kUglyOpenCL, Dialect::OpenCL);
  if (!clangHelpersAvailable()) {
    EXPECT_EQ(out, kUglyOpenCL);
    return;
  }
  const std::vector<std::string> got = lines(out);
  const std::vector<std::string> want = {
      "__kernel void scale(__global const float* restrict in, __global float* out, int n) {",
      "  int i = get_global_id(0);",
      "  if (i < n) {",
      "    out[i] = 2.0f * in[i];",
      "  }",
      "}",
      "__kernel void fft(__global float2* x) {",
      "  __local float2 tmp[64];",
      "  for (int k = 0; k < 64; k++) {",
      "    tmp[k] = x[k];",
      "  }",
      "  barrier(CLK_LOCAL_MEM_FENCE);",
      "  x[get_local_id(0)] = (float2)(tmp[0].x, tmp[1].y);",
      "}",
  };
  EXPECT_EQ(got, want) << out;
}

TEST(FormatSource, ReindentsACudaKernel) {
  const std::string out = formatSource(kUglyCuda, Dialect::Cuda);
  if (!clangHelpersAvailable()) {
    EXPECT_EQ(out, kUglyCuda);
    return;
  }
  const std::vector<std::string> got = lines(out);
  ASSERT_EQ(got.size(), 15u) << out;
  EXPECT_EQ(
      got[0],
      "extern \"C\" __global__ void scale(const float* __restrict__ in, float* out, int n) {");
  EXPECT_EQ(got[1], "  int i = blockIdx.x * blockDim.x + threadIdx.x;");
  EXPECT_EQ(got[3], "    out[i] = 2.0f * in[i];");
  EXPECT_EQ(got[6], "__device__ __forceinline__ float2 cmul(float2 a, float2 b) {");
  EXPECT_EQ(got[7], "  return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);");
  EXPECT_EQ(got[10], "  __shared__ float2 t[64];");
  EXPECT_EQ(got[12], "  __syncthreads();");
}

TEST(FormatSource, BreaksLinesAt100Columns) {
  std::string call = "float f(float a){return ";
  for (int i = 0; i < 30; ++i) call += "a*" + std::to_string(i) + ".0f+";
  call += "a;}\n";
  const std::string out = formatSource(call, Dialect::OpenCL);
  if (!clangHelpersAvailable()) {
    EXPECT_EQ(out, call);
    return;
  }
  const std::vector<std::string> got = lines(out);
  EXPECT_GT(got.size(), 3u) << out;
  for (const std::string& line : got) EXPECT_LE(line.size(), 100u) << line;
}

TEST(FormatSource, FormattedTextIsAFixedPoint) {
  const std::string once = formatSource(kUglyOpenCL, Dialect::OpenCL);
  EXPECT_EQ(formatSource(once, Dialect::OpenCL), once);
  EXPECT_EQ(formatSource("", Dialect::Cuda), "");
}

TEST(FormatSource, SurvivesGarbage) {
  std::mt19937 rng(12345);
  const std::vector<std::string> tokens = {
      "{",  "}",   "(",        ")",      "[", "]",  ";",  ",",
      "#",  "#if", "#define",  "\"",     "'", "/*", "*/", "//",
      "\\", "\n",  "__kernel", "float2", "x", "=",  "<<", ">>>",
      "?",  ":",   "template", "<",      ">", "0x", "1e", "extern \"C\""};
  for (int iter = 0; iter < 300; ++iter) {
    std::string input;
    const int n = static_cast<int>(rng() % 400);
    for (int i = 0; i < n; ++i) {
      if (iter % 2 == 0) {
        input += static_cast<char>(rng() % 256);  // raw bytes, NUL and invalid UTF-8 included
      } else {
        input += tokens[rng() % tokens.size()];
        if (rng() % 3 == 0) input += ' ';
      }
    }
    const Dialect dialect = iter % 4 < 2 ? Dialect::OpenCL : Dialect::Cuda;
    const std::string out = formatSource(input, dialect);
    if (!clangHelpersAvailable()) {
      EXPECT_EQ(out, input);
    }
    // Re-layout never drops all the text of a non-blank input.
    if (input.find_first_not_of(" \t\r\n") != std::string::npos) {
      EXPECT_FALSE(out.empty());
    }
  }
}

}  // namespace
}  // namespace fftc::compiler::clang_helpers
