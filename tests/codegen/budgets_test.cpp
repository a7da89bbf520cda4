// Issue 20: compilation has a budget at every stage and no recursion that input can drive past
// the stack; compile time grows about linearly with a program's length; index width follows
// the sizes (64-bit loop variables and indices where 32 bits cannot hold them).
#include <algorithm>
#include <cstdint>
#include <numeric>

#include "compiler/pipeline/pipeline.h"
#include "ir/interpreter.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

namespace pl = fftc::compiler::pipeline;

// compileText for a kernel that may still be high-level: lowered by lowerDefault first.
cg::CompiledKernel buildText(const std::string& text, const std::string& name,
                             fe::Program* keep = nullptr) {
  fe::Program p = fe::compileSource(text, "test.fdl");
  const fe::Kernel* k = p.kernel(name);
  if (!k) throw std::runtime_error("no kernel " + name);
  cg::CompiledKernel ck = pl::build(*k, "", pl::Target::OpenCL, options()).compiled;
  if (keep) *keep = p;
  return ck;
}

std::string errorOf(const std::string& text, const std::string& name) {
  try {
    buildText(text, name);
  } catch (const ir::CompileError& e) {
    EXPECT_TRUE(e.loc().known()) << e.message();
    return e.message();
  }
  ADD_FAILURE() << "compiled: " << text;
  return "";
}

// iterate(30000, map(id)) made a view chain 30000 maps deep whose recursive walk overflowed the
// stack (SIGSEGV). Code generation unrolls iterate: 30000 steps are over its budget, an error
// at the iterate before any view is built.
TEST(Budgets, IterateOverTheUnrollBudgetIsALocatedError) {
  for (const char* count : {"30000", "100000", "1000000000"}) {
    SCOPED_TRACE(count);
    std::string msg = errorOf(std::string("kernel k(x: [float]16) = iterate(") + count +
                                  ", map(id)) <<: x\n",
                              "k");
    EXPECT_NE(msg.find("iterate steps"), std::string::npos) << msg;
    EXPECT_NE(msg.find("budget of 4096"), std::string::npos) << msg;
  }
}

// Within the iterate budget, wrapping pads nest an index 4096 levels deep (a % in a % ...):
// the printer and the simplifier recurse once a level, so the index nesting has a budget too
// (this was a stack overflow).
TEST(Budgets, DeeplyNestedIndexIsALocatedError) {
  std::string msg = errorOf(
      "kernel k(x: [float]16) = mapGlobal(fun a => a) <<: iterate(4096, pad(1, 0, wrap)) <<: "
      "x\n",
      "k");
  EXPECT_NE(msg.find("more than the budget of 512"), std::string::npos) << msg;
  // 100 levels are fine, and right.
  EXPECT_MATCHES(checkText(
      "kernel k(x: [float]16) = mapGlobal(fun a => a) <<: iterate(100, pad(1, 0, wrap)) <<: x\n",
      "k"));
}

// Within the budget, a chain of 4096 map views is walked by a loop (no stack depth per view)
// and computes what the interpreter computes.
TEST(Budgets, DeepViewChainWithinTheBudgetRuns) {
  const std::string text =
      "kernel k(x: [float]16) = mapGlobal(fun a => a) <<: iterate(4096, map(id)) <<: x\n";
  EXPECT_MATCHES(checkText(text, "k"));
}

// Unrolled loops copy their body once per element: a huge mapSeqUnroll is an error, not hours
// of code generation.
TEST(Budgets, UnrolledLoopsOverTheBudgetAreALocatedError) {
  std::string msg = errorOf(
      "kernel k(x: [float]1048576) = mapSeqUnroll(fun a => a) <<: x\n", "k");
  EXPECT_NE(msg.find("unrolled loop bodies"), std::string::npos) << msg;
}

// A pipe of n split/map/join steps took time cubic in n (100 steps: 2.9 s, 200: 23 s) in the
// rewriting (each position was found again from the root, every rewrite re-typed the whole
// program). 660 steps (1980 levels, the front end's nesting budget is 2000) must compile
// within the test's default timeout. The lowered program adds 660 to every element (the
// interpreter, checked by hand); a 20-step pipe of the same form runs on the device (660
// kernels are a long build for PoCL, and nothing about them differs but their number).
std::string pipeText(int steps) {
  return "kernel k(x: [float]64) = (pipe(q in 0 .. " + std::to_string(steps) +
         ") (join o map(map(fun a => a + 1.0f)) o split(2))) <<: x\n";
}

TEST(Budgets, LongPipeCompiles) {
  fe::Program p = fe::compileSource(pipeText(660), "test.fdl");
  pl::Built built = pl::build(*p.kernel("k"), "", pl::Target::OpenCL, options());
  EXPECT_EQ(built.compiled.stages.size(), 660u);
  std::vector<double> in(64);
  std::iota(in.begin(), in.end(), 0.0);
  ir::Value out = ir::interpretCall(built.lowered.kernel.lambda,
                                    {ir::Value::realArray(in, ir::ScalarKind::Float)});
  std::vector<double> got = out.toRealVector();
  ASSERT_EQ(got.size(), 64u);
  for (size_t i = 0; i < 64; ++i) EXPECT_EQ(got[i], in[i] + 660) << i;
}

TEST(Budgets, PipeOfTheSameFormRuns) {
  fe::Program p;
  cg::CompiledKernel ck = buildText(pipeText(20), "k", &p);
  EXPECT_EQ(ck.stages.size(), 20u);
  EXPECT_MATCHES(ex::checkAgainstInterpreter(context(), p.kernel("k")->lambda, ck, {}, 1));
}

// [float]2147483656 compiled to `for (int gid = ...; gid < 2147483656L; ...)`: an int never
// reaches the bound (a silently wrong kernel). Loops whose bound an int cannot reach get a
// 64-bit variable, and so do grid-stride loops past 2^30 (the stride would overflow an int).
TEST(Budgets, LoopVariablesAreWideWhereTheBoundNeedsIt) {
  struct Case {
    std::string size;
    bool wide;
  };
  for (const Case& c : {Case{"2147483656", true}, Case{"4611686018427387904", true},
                        Case{"1073741825", true}, Case{"1073741824", false},
                        Case{"4096", false}}) {
    SCOPED_TRACE(c.size);
    cg::CompiledKernel ck =
        compileText("kernel k(x: [float]" + c.size + ") = mapGlobal(fun a => a) <<: x\n", "k");
    const bool suffix = std::stoll(c.size) > 2147483647;
    EXPECT_EQ(ck.source.find("for (long gid = (long)get_global_id(0); gid < " + c.size +
                             (suffix ? "L" : "")) != std::string::npos,
              c.wide)
        << ck.source;
    EXPECT_EQ(ck.source.find("for (int gid") != std::string::npos, !c.wide) << ck.source;
  }
  // A sequential loop needs 64 bits from 2^31 iterations on.
  cg::CompiledKernel seq = compileText(
      "kernel k(x: [[float]2147483648]1) = mapGlobal(reduceSeq(add, 0.0f)) <<: x\n", "k");
  EXPECT_NE(seq.source.find("for (long j"), std::string::npos) << seq.source;
  cg::CompiledKernel seq31 = compileText(
      "kernel k(x: [[float]2147483647]1) = mapGlobal(reduceSeq(add, 0.0f)) <<: x\n", "k");
  EXPECT_NE(seq31.source.find("for (int j"), std::string::npos) << seq31.source;
}

// A view whose index crosses 2^31 on PoCL: x (10 floats) padded by clamping with 2^31 elements
// on each side (2^32 + 10 virtual elements), read through slide(1, 2^29 + 1): window w reads
// element w * (2^29 + 1) of the pad, x[clamp(w * (2^29 + 1) - 2^31, 0, 9)], and the index
// passes 2^31 from w = 4 on. No buffer of 2^31 elements exists: the pad and the slide are
// views. Checked by hand (the interpreter would build the 2^32 elements); in 32 bits the
// index would wrap (w = 8 would read x[8], and w = 4..7 far outside x).
const std::string kWideView =
    "kernel k(x: [float]10) = mapGlobal(fun a => a) <<: join <<: slide(1, 536870913) <<: "
    "pad(2147483648, 2147483648, clamp) <<: x\n";

TEST(Budgets, ViewIndexPast2To31RunsOnTheDevice) {
  cg::CompiledKernel ck = compileText(kWideView, "k");
  EXPECT_NE(ck.source.find("max(0L, 536870913 * ((long)gid) - 2147483648L)"), std::string::npos)
      << ck.source;
  std::vector<double> in(10);
  std::iota(in.begin(), in.end(), 1.0);
  ex::RunResult r =
      ex::runCompiled(context(), ck, {ir::Value::realArray(in, ir::ScalarKind::Float)}, {});
  std::vector<double> out = r.output.toRealVector();
  ASSERT_EQ(out.size(), 9u) << ck.source;
  for (int64_t w = 0; w < 9; ++w) {
    int64_t index = std::clamp<int64_t>(w * 536870913 - 2147483648, 0, 9);
    EXPECT_EQ(out[static_cast<size_t>(w)], in[static_cast<size_t>(index)])
        << "window " << w << "\n" << ck.source;
  }
}

}  // namespace
}  // namespace fftc::codegen_test
