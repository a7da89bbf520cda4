// A plan's stages built concurrently (issue 21; fft_api.h: buildStagePrograms, on PoCL): one
// OpenCL program per stage, program i holding stage i's kernel and no other, built from that
// stage's own source (codegen: StageInfo::source), or with one thread the whole module as one;
// the plan built so computes bit for bit what the whole module built as one program computes
// (exec::runCompiled), within FFTW's tolerance.
#include <gtest/gtest.h>

#include <algorithm>
#include <complex>
#include <set>
#include <string>
#include <vector>

#include "compiler/exec/exec.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/concurrent_build.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/planner.h"
#include "tests/fftplan/requests.h"
#include "tests/support/opencl_device.h"
#include "tests/support/scoped_env.h"

namespace fftc::fftlib::test {
namespace {

namespace cl = backends::opencl;
using ::fftc::testing::ScopedEnv;

TEST(StagePrograms, OneProgramPerStageHoldingItsKernelAlone) {
  const ScopedEnv threads("FFTC_BUILD_THREADS", "2");  // concurrent on any machine
  const auto plan = planFft(shapeRequest({65536}));
  const auto& k = plan->compiled;
  ASSERT_GT(k.stages.size(), 1U) << plan->describe();
  for (const auto& s : k.stages) {
    ASSERT_FALSE(s.source.empty()) << s.kernel;
    EXPECT_NE(s.source.find(s.kernel + "("), std::string::npos) << s.kernel;
    for (const auto& other : k.stages) {  // no other stage's kernel in it
      if (other.kernel != s.kernel) {
        EXPECT_EQ(s.source.find(other.kernel + "("), std::string::npos) << s.kernel;
      }
    }
  }
  const cl::Context& context = fftc::testing::openclContext();
  const std::vector<cl::Program> concurrent = buildStagePrograms(context, k);
  ASSERT_EQ(concurrent.size(), k.stages.size());
  std::set<std::uint64_t> keys;
  for (std::size_t i = 0; i < k.stages.size(); ++i) {
    EXPECT_EQ(concurrent[i].kernelNames(), std::vector<std::string>{k.stages[i].kernel}) << i;
    EXPECT_EQ(concurrent[i].cacheKey(),
              cl::programCacheKey(k.stages[i].source, {}, context.device()))
        << i;
    keys.insert(concurrent[i].cacheKey());
  }
  EXPECT_EQ(keys.size(), k.stages.size());  // built from different sources
  // One thread builds the whole module as one program holding every stage's kernel.
  const ScopedEnv serial("FFTC_BUILD_THREADS", "1");
  EXPECT_EQ(buildThreads(k.stages.size()), 1U);
  const std::vector<cl::Program> one = buildStagePrograms(context, k);
  ASSERT_EQ(one.size(), 1U);
  EXPECT_EQ(one[0].cacheKey(), cl::programCacheKey(k.source, {}, context.device()));
  std::vector<std::string> all;
  for (const auto& s : k.stages) all.push_back(s.kernel);
  std::vector<std::string> names = one[0].kernelNames();
  std::sort(names.begin(), names.end());
  std::sort(all.begin(), all.end());
  EXPECT_EQ(names, all);
}

TEST(StagePrograms, ThePlanComputesWhatTheWholeModuleComputes) {
  const ScopedEnv threads("FFTC_BUILD_THREADS", "2");  // concurrent on any machine
  const FftRequest r = shapeRequest({65536});
  const cl::Context& context = fftc::testing::openclContext();
  Plan plan = Plan::create(context, r);
  ASSERT_GT(plan.info().compiled.stages.size(), 1U);
  const auto x = uniformInput<float>(static_cast<size_t>(r.size * r.batch), 11);
  const auto y = plan.run(x);

  // The module of all stages as one program, its stages launched by the executor.
  const auto& k = plan.info().compiled;
  const compiler::codegen::BufferInfo* input = k.buffer(plan.info().inputBuffer);
  ASSERT_NE(input, nullptr);
  std::vector<int64_t> shape;
  for (ir::Type t = input->type; t.isArray(); t = t.element())
    shape.push_back(*t.size().constant());
  const std::vector<std::complex<double>> xd(x.begin(), x.end());
  const ir::Value in = ir::Value::complexArray(xd, ir::ScalarKind::Float, shape);
  const std::vector<std::complex<double>> whole =
      compiler::exec::runCompiled(context, k, {in}).output.toComplexVector();
  ASSERT_EQ(whole.size(), y.size());
  for (std::size_t i = 0; i < y.size(); ++i)
    ASSERT_EQ(std::complex<double>(y[i]), whole[i]) << "element " << i;

  const auto ref = referenceDft1d(toLongDouble(std::span<const std::complex<float>>(x)), r.size,
                                  r.batch, r.direction);
  EXPECT_LE(linfError(std::span<const std::complex<float>>(y), ref),
            fftTolerance(r.size, r.precision));
}

}  // namespace
}  // namespace fftc::fftlib::test
