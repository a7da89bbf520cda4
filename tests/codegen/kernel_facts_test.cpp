// The facts pass (compiler/codegen/kernel_facts.h): precision and helpers recorded on the kernel
// AST, and the printer taking them from there, not from printed text.
#include "compiler/codegen/kernel_facts.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

using backends::CType;

backends::Module moduleWith(backends::StmtPtr s) {
  backends::Module m;
  backends::KernelFunc k;
  k.name = "k";
  k.body = backends::sBlock();
  k.body->body.push_back(std::move(s));
  m.kernels.push_back(k);
  return m;
}

TEST(KernelFacts, ADoubleDeclarationMakesTheModuleDouble) {
  auto m = moduleWith(backends::sDecl(CType::of(CType::Kind::Double), "x", nullptr));
  cg::recordKernelFacts(m);
  EXPECT_TRUE(m.usesDouble);
  auto f = moduleWith(backends::sDecl(CType::of(CType::Kind::Float), "double_x", nullptr));
  cg::recordKernelFacts(f);
  EXPECT_FALSE(f.usesDouble);  // a name is no type (the old text search said double here)
  EXPECT_EQ(backends::printOpenCL(f).find("cl_khr_fp64"), std::string::npos);
  EXPECT_NE(backends::printOpenCL(m).find("cl_khr_fp64"), std::string::npos);
}

TEST(KernelFacts, HelpersCalledByNameAndByIndices) {
  const CType c = CType::of(CType::Kind::ComplexFloat);
  auto x = ir::ArithExpr::unboundedVar("x");  // may be negative: x / 3 needs fftc_floordiv
  auto call = backends::cCall("fftc_cmul_f", {backends::cVar("a", c), backends::cVar("b", c)}, c);
  auto m = moduleWith(backends::sAssign(backends::cSubscript(backends::cVar("out", c), x / 3, c),
                                        call));
  cg::recordKernelFacts(m);
  EXPECT_EQ(m.helpers, (std::set<std::string>{"fftc_cmul_f", "fftc_floordiv"}));
  const std::string src = backends::printOpenCL(m);
  EXPECT_NE(src.find("float2 fftc_cmul_f("), std::string::npos) << src;
  EXPECT_NE(src.find("int fftc_floordiv("), std::string::npos) << src;
  EXPECT_EQ(src.find("fftc_cadd_f"), std::string::npos) << src;
  EXPECT_EQ(src.find("fftc_floormod"), std::string::npos) << src;
}

// The printer prints what the module records, even when the text mentions another helper.
TEST(KernelFacts, ThePrinterReadsTheRecordNotTheText) {
  auto m = moduleWith(backends::sComment("fftc_cadd_f(a, b) is not called"));
  cg::recordKernelFacts(m);
  EXPECT_TRUE(m.helpers.empty());
  EXPECT_EQ(backends::printOpenCL(m).find("float2 fftc_cadd_f("), std::string::npos);
}

}  // namespace
}  // namespace fftc::codegen_test
