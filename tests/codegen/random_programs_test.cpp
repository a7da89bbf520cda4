// Random low-level programs (random_programs.h) compiled, run on the OpenCL device and compared
// with the interpreter. FFTC_RANDOM_PROGRAMS=K changes the count (default 200).
#include <chrono>
#include <cstdlib>

#include "ir/printer.h"
#include "tests/codegen/codegen_support.h"
#include "tests/codegen/random_programs.h"

namespace fftc::codegen_test {
namespace {

// PoCL compiles each program with LLVM (~0.4 s): the programs are compiled in batches whose
// kernels share one OpenCL program (kernel names are unique, the generator makes no tables or
// structs), so a few hundred programs take seconds, not minutes.
TEST(RandomPrograms, MatchTheInterpreter) {
  int count = 300;
  if (const char* env = std::getenv("FFTC_RANDOM_PROGRAMS")) count = std::atoi(env);
  const int batch = 50;
  fftc::testing::RandomProgramGenerator gen(20261121);
  auto start = std::chrono::steady_clock::now();
  int stages2 = 0;
  for (int first = 0; first < count && !::testing::Test::HasFailure(); first += batch) {
    struct Item {
      fftc::testing::RandomProgram p;
      ir::LambdaPtr typed;
      cg::CompiledKernel ck;
    };
    std::vector<Item> items;
    backends::Module merged;
    for (int k = first; k < std::min(count, first + batch); ++k) {
      Item it{gen.next(), nullptr, {}};
      SCOPED_TRACE("program " + std::to_string(k) + ": " + it.p.description);
      try {
        it.typed = ir::inferTypes(it.p.kernel);
      } catch (const ir::CompileError& e) {
        ADD_FAILURE() << "the generator made an ill-typed program: " << e.what();
        continue;
      }
      std::vector<std::string> names;
      for (const auto& q : it.typed->params()) names.push_back(q->name());
      try {
        it.ck = cg::compileLambda(it.typed, "rand" + std::to_string(k), names, {}, options());
      } catch (const std::exception& e) {
        ADD_FAILURE() << e.what() << "\n" << ir::print(it.typed->body());
        continue;
      }
      ASSERT_TRUE(it.ck.module.tables.empty() && it.ck.module.structs.empty());
      for (const auto& kf : it.ck.module.kernels) merged.kernels.push_back(kf);
      stages2 += it.ck.stages.size() > 1;
      items.push_back(std::move(it));
    }
    std::string source = backends::CPrinter(*options().dialect).module(merged);
    for (size_t i = 0; i < items.size(); ++i) {
      Item& it = items[i];
      SCOPED_TRACE("program " + std::to_string(first + static_cast<int>(i)) + ": " +
                   it.p.description);
      std::string own = it.ck.source;
      it.ck.source = source;
      auto c = ex::checkAgainstInterpreter(context(), it.typed, it.ck, {},
                                           static_cast<uint64_t>(first) + i);
      EXPECT_TRUE(c.comparison.ok) << c.comparison.firstMismatch << "\n"
                                   << ir::print(it.typed->body()) << "\n"
                                   << own;
      if (::testing::Test::HasFailure()) break;  // one readable failure, not hundreds
    }
  }
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << count << " random programs (" << stages2 << " with two stages) in " << s << " s\n";
  EXPECT_GT(stages2, 0);
}

}  // namespace
}  // namespace fftc::codegen_test

namespace fftc::codegen_test {
namespace {

// The high-level twins of the programs: same values in the interpreter, and codegen refuses
// them as not low-level (they are inputs for the rewrite system).
TEST(RandomPrograms, HighLevelTwinsAgreeInTheInterpreter) {
  fftc::testing::RandomProgramGenerator low(99), high(99, true);
  for (int k = 0; k < 40; ++k) {
    auto a = low.next(), b = high.next();
    SCOPED_TRACE(a.description);
    ASSERT_EQ(a.description, b.description);
    ir::LambdaPtr ta = ir::inferTypes(a.kernel), tb = ir::inferTypes(b.kernel);
    std::mt19937_64 rng(static_cast<uint64_t>(k));
    std::vector<ir::Value> in;
    for (const auto& p : ta->params()) in.push_back(ex::randomValue(p->type(), rng));
    EXPECT_TRUE(ir::interpretCall(ta, in) == ir::interpretCall(tb, in));
    std::vector<std::string> names;
    for (const auto& q : tb->params()) names.push_back(q->name());
    EXPECT_THROW((void)cg::compileLambda(tb, "h", names, {}, options()), ir::CompileError);
  }
}

}  // namespace
}  // namespace fftc::codegen_test
