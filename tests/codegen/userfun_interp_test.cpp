// The interpreter's userfun implementations from C bodies (compiler/codegen/userfun_interp.h):
// the same values, checked by hand, whether the body is parsed as OpenCL C or as CUDA; a
// C++ implementation given by the caller takes precedence.
#include "compiler/clang/clang_helpers.h"
#include "compiler/codegen/userfun_interp.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

using ir::Value;

Value floats(std::initializer_list<float> xs) {
  std::vector<Value> v;
  for (float x : xs) v.push_back(Value::ofFloat(x));
  return Value::array(std::move(v));
}

TEST(UserFunInterp, BothDialectsGiveTheHandCheckedValues) {
  if (!compiler::clang_helpers::clangHelpersAvailable()) GTEST_SKIP() << "no clang plugin";
  fe::ElaborateOptions eo;
  eo.defines = {{"N", int64_t{3}}};
  fe::Program p =
      fe::compileSource(readFile(sourceRoot() + "/examples/userfun.fdl"), "userfun.fdl", eo);
  const Value x = floats({2.0f, -1.0f, 0.5f}), y = floats({1.0f, 1.0f, -4.0f});
  for (const char* target : {"opencl", "cuda"}) {
    SCOPED_TRACE(target);
    ir::InterpreterOptions o;
    cg::addUserFunBodies(p.kernel("saxpy")->lambda, o, target);
    // 2.5 x + y
    EXPECT_EQ(ir::interpretCall(p.kernel("saxpy")->lambda, {x, y}, o), floats({6.0f, -1.5f, -2.75f}));
    ir::InterpreterOptions q;
    cg::addUserFunBodies(p.kernel("power")->lambda, q, target);
    std::vector<Value> ns{Value::ofInt(3), Value::ofInt(-2), Value::ofInt(0)};
    // (x + 1)^n: 3^3, 0^-2 = 1/0 = inf, 1.5^0
    const Value got = ir::interpretCall(p.kernel("power")->lambda, {x, Value::array(ns)}, q);
    EXPECT_EQ(got[0].asReal(), 27.0);
    EXPECT_TRUE(std::isinf(got[1].asReal()));
    EXPECT_EQ(got[2].asReal(), 1.0);
  }
  // a registered implementation is kept
  ir::InterpreterOptions mine;
  mine.userFuns["axpy"] = [](const std::vector<Value>&) { return Value::ofFloat(7.0f); };
  cg::addUserFunBodies(p.kernel("saxpy")->lambda, mine);
  EXPECT_EQ(ir::interpretCall(p.kernel("saxpy")->lambda, {x, y}, mine), floats({7.0f, 7.0f, 7.0f}));
}

}  // namespace
}  // namespace fftc::codegen_test
