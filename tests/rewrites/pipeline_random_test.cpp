// Random well-typed high-level programs (random_program.h) through the whole compile pipeline as
// `fftc compile` runs it (compiler/pipeline/fuzz.h: lowerDefault, then codegen for OpenCL and
// CUDA): none may crash or raise anything but a one-line user error, and most must compile.
// FFTC_RANDOM_PIPELINE=K changes the count (default 400); FFTC_RANDOM_PIPELINE_FIRST=S the
// first seed, so a long run can continue where another stopped.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "compiler/pipeline/fuzz.h"
#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/printer.h"
#include "tests/rewrites/random_program.h"

namespace fftc::rewrites {
namespace {

namespace pl = compiler::pipeline;

long envCount(const char* name, long fallback) {
  const char* v = std::getenv(name);
  return v ? std::atol(v) : fallback;
}

// The kernel the front end would make of `prog`: its inputs as parameters, typed.
compiler::frontend::Kernel asKernel(const testing::RandomProgram& prog) {
  compiler::frontend::Kernel k;
  k.name = "random";
  k.loc = ir::SourceLoc{"random.fdl", 1, 1};
  k.lambda = ir::inferTypes(ir::lambda(prog.inputs, prog.body));
  for (const auto& p : prog.inputs) {
    k.paramNames.push_back(p->name());
    k.paramTypes.push_back(p->type());
  }
  k.resultType = k.lambda->body()->type();
  return k;
}

TEST(RandomPipeline, HighLevelProgramsCompileOrGiveAOneLineError) {
  const long count = envCount("FFTC_RANDOM_PIPELINE", 400);
  const long first = envCount("FFTC_RANDOM_PIPELINE_FIRST", 0);
  long compiled = 0, rejected = 0;
  for (long seed = first; seed < first + count && !HasFailure(); ++seed) {
    testing::ProgramGenerator gen(static_cast<uint64_t>(seed) * 7919 + 3, 2 + seed % 3);
    const testing::RandomProgram prog = gen.generate();
    if (prog.inputs.empty()) continue;  // a kernel needs an input; the generator may make none
    SCOPED_TRACE("seed " + std::to_string(seed) + ":\n" + ir::print(prog.body, {false, 2}));
    const compiler::frontend::Kernel kernel = asKernel(prog);
    for (pl::Target target : {pl::Target::OpenCL, pl::Target::Cuda}) {
      try {
        const auto ck = pl::compileKernelLikeTheCli(kernel, target);
        EXPECT_FALSE(ck.module.kernels.empty());
        ++compiled;
      } catch (const ir::CompileError& e) {
        // A well-typed program may still be beyond codegen (a user error, one line).
        EXPECT_EQ(e.message().find('\n'), std::string::npos) << e.message();
        ++rejected;
      }
    }
  }
  std::cout << "random programs from seed " << first << ": " << compiled
            << " kernels compiled, " << rejected << " rejected\n";
  // The generator makes programs the pipeline is meant to handle: nearly all must compile, or
  // this test stops reaching codegen.
  EXPECT_GT(compiled, 9 * (compiled + rejected) / 10);
}

}  // namespace
}  // namespace fftc::rewrites
