// Strided buffer layouts (CodegenOptions::inputLayouts / outputLayout, FFTW's plan_many
// embed/stride/dist): random layouts of the input and the output on PoCL against the
// interpreter (exec scatters the inputs into and gathers the output from the strided buffers
// with its own integer loops), the manifest, the index simplification and the errors.
#include <random>

#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

// Row-major dims for a [[complex]n]b value: [b, n] or [b, a, n/a].
std::vector<int64_t> randomDims(int64_t b, int64_t n, std::mt19937_64& rng) {
  std::vector<int64_t> divisors;
  for (int64_t a = 2; a < n; ++a)
    if (n % a == 0) divisors.push_back(a);
  if (divisors.empty() || rng() % 2 == 0) return {b, n};
  const int64_t a = divisors[rng() % divisors.size()];
  return {b, a, n / a};
}

// Strides that never map two elements to one address: the dims in a random order, each stride
// at least the extent of the ones inside it, with random gaps (FFTW's interleaved batches when
// the batch dimension comes innermost).
std::vector<int64_t> injectiveStrides(const std::vector<int64_t>& dims, std::mt19937_64& rng) {
  std::vector<size_t> order(dims.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  std::vector<int64_t> strides(dims.size());
  int64_t span = 1;
  for (size_t k : order) {  // innermost first
    strides[k] = span + static_cast<int64_t>(rng() % 3);
    span = strides[k] * dims[k];
  }
  return strides;
}

const char* kKernels[] = {
    // one stage, rows in order
    "kernel k(x: [[complex]N]B) = mapGlobal(λ(row => mapSeq(fun a => a * a + a) <<: row)) <<: x",
    // one stage through transposes: columns read and written
    "kernel k(x: [[complex]N]B) = transpose <<: mapGlobal(λ(c => mapSeq(fun a => a * a) <<: c)) "
    "<<: transpose <<: x",
    // two stages, the second reading a permutation of the first's result
    "kernel k(x: [[complex]N]B) = split(N) <<: mapGlobal(fun a => a + a * a) <<: join <<: "
    "transpose <<: split(B) <<: mapGlobal(fun a => a * a) <<: join <<: x",
};

TEST(StridedLayouts, RandomLayoutsMatchTheInterpreter) {
  std::mt19937_64 rng(7);
  for (int t = 0; t < 36; ++t) {
    const int64_t b = 1 + static_cast<int64_t>(rng() % 4);
    const int64_t n = std::vector<int64_t>{4, 6, 8, 12}[rng() % 4];
    auto o = options();
    const auto inDims = randomDims(b, n, rng), outDims = randomDims(b, n, rng);
    const bool inStrided = t % 3 != 2, outStrided = t % 3 != 1;
    // (an input layout may read one address twice, but the interpreter's random input would
    // then not be the one the buffer holds)
    if (inStrided) o.inputLayouts["x"] = cg::BufferLayout{inDims, injectiveStrides(inDims, rng)};
    if (outStrided) o.outputLayout = cg::BufferLayout{outDims, injectiveStrides(outDims, rng)};
    const char* text = kKernels[t % 3];
    SCOPED_TRACE(::testing::Message() << "case " << t << ": " << text << " B=" << b << " N=" << n);
    auto c = checkText(text, "k", {{"N", n}, {"B", b}}, {}, static_cast<uint64_t>(t), o);
    EXPECT_MATCHES(c);
  }
}

TEST(StridedLayouts, TheManifestGivesTheExtentAndTheLayout) {
  auto o = options();
  o.inputLayouts["x"] = cg::BufferLayout{{3, 8}, {20, 2}};  // 2 * 7 + 20 * 2 + 1 = 55
  o.outputLayout = cg::BufferLayout{{3, 8}, {1, 3}};         // interleaved: 1 * 2 + 3 * 7 + 1
  auto ck = compileText(kKernels[0], "k", {{"N", 8}, {"B", 3}}, o);
  const auto* in = ck.buffer("x");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->count.str(), "55");
  ASSERT_TRUE(in->layout.has_value());
  EXPECT_EQ(in->layout->strides, (std::vector<int64_t>{20, 2}));
  const std::string m = cg::manifestText(ck);
  EXPECT_NE(m.find("\"count\": \"24\""), std::string::npos) << m;
  EXPECT_NE(m.find("\"strides\": [1,3]"), std::string::npos) << m;
}

TEST(StridedLayouts, TheDenseLayoutGivesTheSameKernel) {
  // Row-major strides are the identity: the simplifier removes the divisions again.
  auto dense = compileText(kKernels[1], "k", {{"N", 8}, {"B", 4}});
  auto o = options();
  o.inputLayouts["x"] = cg::BufferLayout{{4, 2, 4}, {8, 4, 1}};
  o.outputLayout = cg::BufferLayout{{4, 8}, {8, 1}};
  auto same = compileText(kKernels[1], "k", {{"N", 8}, {"B", 4}}, o);
  EXPECT_EQ(same.source, dense.source);
}

TEST(StridedLayouts, LayoutsThatDoNotFitAreCompileErrors) {
  auto o = options();
  o.inputLayouts["x"] = cg::BufferLayout{{3, 7}, {7, 1}};  // 21 elements for 24
  EXPECT_THROW((void)compileText(kKernels[0], "k", {{"N", 8}, {"B", 3}}, o), ir::CompileError);
  o.inputLayouts.clear();
  o.inputLayouts["y"] = cg::BufferLayout{{24}, {1}};
  EXPECT_THROW((void)compileText(kKernels[0], "k", {{"N", 8}, {"B", 3}}, o), ir::CompileError);
  o.inputLayouts.clear();
  o.outputLayout = cg::BufferLayout{{3, 8}, {8, 0}};  // a stride below 1
  EXPECT_THROW((void)compileText(kKernels[0], "k", {{"N", 8}, {"B", 3}}, o), ir::CompileError);
}

}  // namespace
}  // namespace fftc::codegen_test
