// Table folding in bulk (foldGeneratorTable) gives the literals that folding element by
// element through code generation gives: the same source and table bytes for generators of
// twiddles, chirps and sin/cos in float and double, and the values checked by hand for one.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>

#include "codegen_support.h"
#include "compiler/codegen/scalar_ops.h"
#include "compiler/codegen/table_folding.h"
#include "ir/builders.h"
#include "ir/scalar_program.h"

namespace fftc::codegen_test {
namespace {

struct Both {
  cg::CompiledKernel bulk, elementwise;
};

Both compileBoth(const std::string& text, ir::ScalarKind precision) {
  cg::CodegenOptions on = options(), off = options();
  off.bulkTableFolding = false;
  return {compileText(text, "k", {}, on, precision), compileText(text, "k", {}, off, precision)};
}

size_t tableCount(const cg::CompiledKernel& k) {
  size_t n = 0;
  for (const auto& b : k.buffers) n += b.role == "table";
  return n;
}

void expectSame(const std::string& text, ir::ScalarKind precision, size_t tables) {
  SCOPED_TRACE(text);
  Both c = compileBoth(text, precision);
  EXPECT_EQ(c.bulk.source, c.elementwise.source);
  EXPECT_EQ(tableCount(c.bulk), tables);
  ASSERT_EQ(c.bulk.buffers.size(), c.elementwise.buffers.size());
  for (size_t i = 0; i < c.bulk.buffers.size(); ++i) {
    EXPECT_EQ(c.bulk.buffers[i].name, c.elementwise.buffers[i].name);
    EXPECT_TRUE(c.bulk.buffers[i].data == c.elementwise.buffers[i].data) << c.bulk.buffers[i].name;
  }
}

const ir::ScalarKind kPrecisions[] = {ir::ScalarKind::Float, ir::ScalarKind::Double};

TEST(BulkTables, TwiddleTablesAsElementByElement) {
  for (auto p : kPrecisions) {
    // a table buffer (3 x 700 complex), array2, the omega formula of common.fdl
    expectSame("kernel k(x: [complex]2100) = mapGlobal(λ(q => q._0 * q._1)) <<: zip(x, join <<: "
               "array2(3, 700, λ((j, k, r, m) => cispi(-1 * 2.0 * ((j * k) % (r * m)) / (r * m)))))",
               p, 1);
    // array3 and a __constant array
    expectSame("kernel k(x: [complex]48) = mapGlobal(λ(q => q._0 * q._1)) <<: zip(x, join <<: "
               "join <<: array3(2, 4, 6, λ((a, b, c, na, nb, nc) => "
               "cispi(2.0 * (((b * na + a) * c) % (na * nb)) / (na * nb)))))",
               p, 0);
  }
}

TEST(BulkTables, ChirpAndSinCosAsElementByElement) {
  for (auto p : kPrecisions) {
    expectSame("kernel k(x: [complex]3000) = mapGlobal(λ(q => q._0 * q._1)) <<: zip(x, "
               "array(3000, λ((i, m) => conj(cispi(1.0 * (((i + m / 2) % m - m / 2) * "
               "((i + m / 2) % m - m / 2) % 2998) / 1499)) * (1.0 / (m * 3)))))",
               p, 1);
    expectSame("kernel k(x: [float]1500) = mapGlobal(λ(q => q._0 * q._1)) <<: zip(x, "
               "array(1500, λ((i, n) => cos(0.1 * i / n) - sin(2.5 * i) / (1.0 + i))))",
               p, 1);
  }
}

TEST(BulkTables, ValuesByHand) {
  // cispi(-2i/4): 1, -i, -1, i, exactly (cispi is exact at multiples of 1/2)
  Both c = compileBoth("kernel k(x: [complex]4) = mapGlobal(λ(q => q._0 * q._1)) <<: "
                       "zip(x, array(4, λ((i, n) => cispi(-2.0 * i / n))))",
                       ir::ScalarKind::Double);
  EXPECT_NE(c.bulk.source.find("(double2)(1.0, 0.0), (double2)(0.0, -1.0), "
                               "(double2)(-1.0, 0.0), (double2)(0.0, 1.0)\n"),
            std::string::npos)
      << c.bulk.source;
  EXPECT_EQ(c.bulk.source, c.elementwise.source);
}

TEST(BulkTables, FoldsAFormulaAndDeclinesAnIntTable) {
  using namespace ir;
  auto i = param("i", Type::intType()), n = param("n", Type::intType());
  // cispi(-2i/n) in float at n = 8: (c, -c) at i = 1 with c = cos(pi/4) rounded to float
  LambdaPtr f = inferTypes(lambda({i, n}, cispi(lit(-2.0, ScalarKind::Float) * i / n)));
  auto program = ScalarProgram::compile(*f, 2);
  ASSERT_TRUE(program.has_value());
  auto values = cg::foldGeneratorTable(*program, {8});
  ASSERT_TRUE(values.has_value());
  ASSERT_EQ(values->size(), 8u);
  const float c = static_cast<float>(std::sqrt(0.5));
  EXPECT_EQ(cg::literalOf((*values)[1]), std::complex<double>(c, -c));
  EXPECT_EQ(cg::literalOf((*values)[2]), std::complex<double>(0, -1));
  EXPECT_EQ(cg::literalOf((*values)[4]), std::complex<double>(-1, 0));
  // an int table, and an integer division by zero: left to folding element by element
  LambdaPtr ints = inferTypes(lambda({i, n}, i * n));
  EXPECT_FALSE(cg::foldGeneratorTable(*ScalarProgram::compile(*ints, 2), {8}).has_value());
  LambdaPtr byZero = inferTypes(lambda({i, n}, cispi(lit(1.0) * (n / (i - i)))));
  EXPECT_FALSE(cg::foldGeneratorTable(*ScalarProgram::compile(*byZero, 2), {8}).has_value());
}

}  // namespace
}  // namespace fftc::codegen_test
