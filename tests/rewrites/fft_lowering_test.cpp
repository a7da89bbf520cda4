// The paper's Stockham FFT through lowerDefault and lowerFft: results equal to the high-level
// program and to FFTW, and lowerFft's passes have listing 3's shape (one mapGlobal over all
// butterflies of a pass, mapSeq + reduceSeq inside, the twiddles repeated by pad(.., wrap)).
#include <gtest/gtest.h>

#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"
#include "ir/printer.h"
#include "rewrites/named_strategies.h"
#include "rewrites/rules.h"
#include "tests/rewrites/random_program.h"
#include "tests/rewrites/test_util.h"

namespace fftc::rewrites {
namespace {

using namespace ir;
using testing::countKind;
namespace fft = testing::fft;

int64_t product(const std::vector<int64_t>& rs) {
  int64_t n = 1;
  for (auto r : rs) n *= r;
  return n;
}

// Every FunCall of the program (also those inside functions).
void allCalls(const ExprPtr& e, std::vector<const FunCall*>& out) {
  struct Calls : ir::IRVisitor {
    using IRVisitor::visit;
    explicit Calls(std::vector<const FunCall*>& o) : out(o) {}
    void visit(const ExprPtr& x) override {
      if (const auto* c = x->as<FunCall>()) out.push_back(c);
      visitChildren(x);
    }
    std::vector<const FunCall*>& out;
  } calls(out);
  calls.visit(e);
}

const FunDecl* unwrapTo(const FunDecl* f) {
  while (const auto* t = f->as<AbstractTo>()) f = t->f().get();
  return f;
}

// Listing 3: toGlobal(mapGlobal(fun (v, RepOfBj) => mapSeq(fun row => reduceSeq(..)(zip(row, v)))
// (RepOfBj))) <<: zip(join(...), pad(0, (rows-1)*m, wrap, array3(...)))
void expectListing3Pass(const FunCall& g) {
  ASSERT_EQ(g.f()->kind(), FunKind::ToGlobal) << "the pass's result goes to global memory";
  const auto* mg = unwrapTo(g.f().get())->as<MapGlobal>();
  ASSERT_NE(mg, nullptr);
  const auto* butterfly = mg->f()->as<Lambda>();
  ASSERT_NE(butterfly, nullptr);
  const auto* rows = butterfly->body()->as<FunCall>();
  ASSERT_NE(rows, nullptr);
  // a mapSeq, unrolled by lowerFft's unrollSmall (the radices are at most 16)
  const auto* ms = unwrapTo(rows->f().get())->as<AbstractMap>();
  ASSERT_TRUE(ms && (ms->kind() == FunKind::MapSeq || ms->kind() == FunKind::MapSeqUnroll))
      << "the matrix rows are a mapSeq: " << print(butterfly->body());
  const auto* row = ms->f()->as<Lambda>();
  ASSERT_NE(row, nullptr);
  const auto* dot = row->body()->as<FunCall>();
  ASSERT_NE(dot, nullptr);
  const FunKind reduceKind = unwrapTo(dot->f().get())->kind();
  ASSERT_TRUE(reduceKind == FunKind::ReduceSeq || reduceKind == FunKind::ReduceSeqUnroll)
      << "map(mult) fused into the reduction: " << print(row->body());
  ASSERT_EQ(dot->arg(0)->as<FunCall>()->f()->kind(), FunKind::Zip);
  // the flattened input: one zip of all rows with the repeated twiddles
  const auto* z = g.arg(0)->as<FunCall>();
  ASSERT_NE(z, nullptr);
  ASSERT_EQ(z->f()->kind(), FunKind::Zip);
  ASSERT_EQ(z->args().size(), 2u);
  EXPECT_EQ(z->arg(0)->as<FunCall>()->f()->kind(), FunKind::Join);
  const auto* padded = z->arg(1)->as<FunCall>();
  ASSERT_NE(padded, nullptr);
  const auto* pad = padded->f()->as<Pad>();
  ASSERT_NE(pad, nullptr);
  EXPECT_EQ(pad->boundary(), PadBoundary::Wrap);
  EXPECT_EQ(pad->left(), ArithExpr(0));
  EXPECT_EQ(padded->arg(0)->as<FunCall>()->f()->kind(), FunKind::ArrayGen);
}

std::vector<const FunCall*> stages(const ExprPtr& e) {
  std::vector<const FunCall*> calls, out;
  allCalls(e, calls);
  for (const auto* c : calls)
    if (unwrapTo(c->f().get())->kind() == FunKind::MapGlobal) out.push_back(c);
  return out;
}

void expectNoHighLevelCompute(const ExprPtr& e) {
  EXPECT_EQ(countKind(e, FunKind::Reduce), 0);
  testing::forEachFun(e, [](const FunDecl& f, const auto&) {
    if (f.kind() == FunKind::Map) {
      EXPECT_TRUE(ir::isView(f));
    }
  });
}

TEST(LowerFft, OneStockhamPassHasListing3Shape) {
  const ScalarKind p = ScalarKind::Double;
  const int64_t r = 4, l = 16, n = 64;
  auto x = param("x", Type::array(Type::complex(p), n));
  ExprPtr pass = inferTypes(fft::stockPass(r, l, n, p) << ExprPtr(x));
  // listing 2: after inlining, the butterfly is four nested maps deep
  RewriteResult inlined = rewrite(pass, prepare());
  EXPECT_EQ(countKind(inlined.program, FunKind::Map), 5);  // 4 computing + 1 permuting
  RewriteResult low = rewrite(pass, lowerFft());
  ASSERT_FALSE(low.budgetHit) << low.report();
  auto gs = stages(low.program);
  ASSERT_EQ(gs.size(), 1u) << print(low.program);
  expectListing3Pass(*gs[0]);
  // pad(0, (rows - 1) * m, wrap): rows = n / L kron blocks, m = L / r matrices each
  const auto* pad = gs[0]->arg(0)->as<FunCall>()->arg(1)->as<FunCall>()->f()->as<Pad>();
  EXPECT_EQ(pad->right(), ArithExpr((n / l - 1) * (l / r)));
  EXPECT_EQ(countKind(low.program, FunKind::MapSeq) + countKind(low.program, FunKind::MapSeqUnroll), 1);
  EXPECT_EQ(countKind(low.program, FunKind::ReduceSeq) +
                countKind(low.program, FunKind::ReduceSeqUnroll),
            1);
  expectNoHighLevelCompute(low.program);
  // the same values
  auto in = fft::randomComplex(n, 5);
  Value v = Value::complexArray(in, p);
  auto hi = testing::runProgram(pass, {x}, {v}).toComplexVector();
  auto lo = testing::runProgram(low.program, {x}, {v}).toComplexVector();
  ASSERT_EQ(hi.size(), lo.size());
  for (size_t i = 0; i < hi.size(); ++i) EXPECT_LT(std::abs(hi[i] - lo[i]), 1e-12) << i;
}

struct FftCase {
  std::vector<int64_t> rs;
};

void PrintTo(const FftCase& c, std::ostream* os) {
  *os << "radices";
  for (auto r : c.rs) *os << " " << r;
}

class StockhamLowering : public ::testing::TestWithParam<FftCase> {};

TEST_P(StockhamLowering, LowerDefaultAndLowerFftMatchHighLevelAndFftw) {
  const auto& rs = GetParam().rs;
  const ScalarKind p = ScalarKind::Double;
  const int64_t n = product(rs);
  auto x = param("x", Type::array(Type::complex(p), n));
  ExprPtr high = inferTypes(fft::fftStockham(rs, x, p));
  auto in = fft::randomComplex(static_cast<size_t>(n), 11);
  Value v = Value::complexArray(in, p);
  auto hi = testing::runProgram(high, {x}, {v}).toComplexVector();
  auto ref = fftlib::referenceDft1d(fftlib::toLongDouble(v.toComplexVector()), n, 1,
                                    fftlib::Direction::Forward);
  EXPECT_LT(fftlib::l2Error(hi, ref), 1e-12);
  for (const char* name : {"lowerDefault", "lowerFft"}) {
    SCOPED_TRACE(name);
    RewriteResult low = rewrite(high, *namedStrategy(name));
    ASSERT_FALSE(low.budgetHit) << low.report();
    expectNoHighLevelCompute(low.program);
    auto lo = testing::runProgram(low.program, {x}, {v}).toComplexVector();
    ASSERT_EQ(lo.size(), hi.size());
    double maxDiff = 0;
    for (size_t i = 0; i < lo.size(); ++i) maxDiff = std::max(maxDiff, std::abs(lo[i] - hi[i]));
    EXPECT_LT(maxDiff, 1e-12);
    EXPECT_LT(fftlib::l2Error(lo, ref), 1e-12);
    EXPECT_LT(fftlib::linfError(lo, ref), 1e-12);
    auto gs = stages(low.program);
    EXPECT_EQ(gs.size(), rs.size()) << "one mapGlobal stage per pass";
    if (std::string(name) == "lowerFft")
      for (const auto* g : gs) expectListing3Pass(*g);
  }
}

INSTANTIATE_TEST_SUITE_P(Radices, StockhamLowering,
                         ::testing::Values(FftCase{{4, 4, 4}}, FftCase{{2, 8, 4}},
                                           FftCase{{3, 4, 5}}),
                         [](const ::testing::TestParamInfo<FftCase>& pi) {
                           std::string s = "r";
                           for (auto r : pi.param.rs) s += std::to_string(r);
                           return s;
                         });

// examples/stockham.fdl (kept in step by hand), through the front end
constexpr const char* kStockhamFdl = R"(
def kronIdR(m, matMult) = λ(v =>
  join <<: transpose <<: map(matMult)
  <<: transpose <<: split(m) <<: v)
def multPiT(r) = λ(v =>
  join <<: transpose <<: split(r) <<: v)
def omega(k, n) =
  { cos(-2 * π * k / n), sin(-2 * π * k / n) }
def genRepB(j, k, l, numMats, height, width) =
  omega((k * numMats + j) * l, height * numMats)
def RepOfB(r, L) = array3(L / r, r, r, genRepB)
def complexMatVecMult = λ((x, M) =>
  map(λ(row => reduce(add, {0, 0}) <<: map(mult) <<: zip(row, x))) <<: M)
def multB(r, L) = λ(v =>
  join <<: transpose <<: map(complexMatVecMult)
  <<: zip(transpose <<: split(L / r) <<: v,
          RepOfB(r, L)))
def stPerm(r, L, n) = λ(v =>
  kronIdR(n / L, multPiT(r)) <<: v)
def stCombine(r, L, n) = λ(v =>
  kronIdR(n / L, multB(r, L)) <<: v)
def stockPass(r, L, n) = λ(v =>
  stCombine(r, L, n) <<: stPerm(r, L, n) <<: v)
def fftStockham(rs) =
  pipe(q in 0 .. len(rs)) stockPass(rs[q], prod(rs, 0, q + 1), prod(rs))
def rs = [4, 4, 4]
def N = prod(rs)
kernel fft(x: [complex]N) = fftStockham(rs) <<: x
)";

TEST(LowerFft, FrontEndStockhamKernels) {
  for (std::vector<int64_t> rs : {std::vector<int64_t>{4, 4, 4}, {2, 8, 4}, {3, 4, 5}}) {
    SCOPED_TRACE(rs.size());
    compiler::frontend::ElaborateOptions opts;
    opts.precision = ScalarKind::Double;
    opts.defines["rs"] = rs;
    auto prog = compiler::frontend::compileSource(kStockhamFdl, "stockham.fdl", opts);
    const auto* k = prog.kernel("fft");
    ASSERT_NE(k, nullptr);
    const int64_t n = product(rs);
    auto in = fft::randomComplex(static_cast<size_t>(n), 3);
    Value v = Value::complexArray(in, ScalarKind::Double);
    auto hi = interpretCall(k->lambda, {v}).toComplexVector();
    auto ref = fftlib::referenceDft1d(fftlib::toLongDouble(v.toComplexVector()), n, 1,
                                      fftlib::Direction::Forward);
    for (const char* name : {"lowerDefault", "lowerFft"}) {
      SCOPED_TRACE(name);
      RewriteResult info;
      LambdaPtr low = rewriteKernel(k->lambda, *namedStrategy(name), {}, &info);
      ASSERT_FALSE(info.budgetHit) << info.report();
      expectNoHighLevelCompute(low->body());
      auto lo = interpretCall(low, {v}).toComplexVector();
      EXPECT_LT(fftlib::l2Error(lo, ref), 1e-12);
      double maxDiff = 0;
      for (size_t i = 0; i < lo.size(); ++i) maxDiff = std::max(maxDiff, std::abs(lo[i] - hi[i]));
      EXPECT_LT(maxDiff, 1e-12);
      auto gs = stages(low->body());
      EXPECT_EQ(gs.size(), rs.size());
      if (std::string(name) == "lowerFft")
        for (const auto* g : gs) expectListing3Pass(*g);
    }
  }
}

TEST(LowerFft, FloatPrecisionAgainstFftw) {
  const ScalarKind p = ScalarKind::Float;
  std::vector<int64_t> rs{2, 8, 4};
  auto x = param("x", Type::array(Type::complex(p), 64));
  RewriteResult low = rewrite(fft::fftStockham(rs, x, p), lowerFft());
  auto in = fft::randomComplex(64, 9);
  Value v = Value::complexArray(in, p);
  auto lo = testing::runProgram(low.program, {x}, {v}).toComplexVector();
  auto ref = fftlib::referenceDft1d(fftlib::toLongDouble(v.toComplexVector()), 64, 1,
                                    fftlib::Direction::Forward);
  EXPECT_LT(fftlib::l2Error(lo, ref), 1e-5);
  EXPECT_GT(fftlib::l2Error(lo, ref), 1e-12);  // really computed in float
}

}  // namespace
}  // namespace fftc::rewrites

namespace fftc::rewrites {
namespace {

// Listing 1's matrix-vector product over symbolic sizes N x K: the map-zip flattening needs
// the size arithmetic (K + (N-1)*K = N*K, N*K/K = N) to be proven by the simplifier.
TEST(LowerFft, SymbolicMatVecFlattens) {
  auto nv = ArithExpr::sizeVar("N"), kv = ArithExpr::sizeVar("K");
  auto m = param("M", Type::array(Type::array(Type::floatType(), kv), nv));
  auto v = param("v", Type::array(Type::floatType(), kv));
  ExprPtr mv = inferTypes(
      map(fun([&](ExprPtr row) { return reduce(add(), litF(0)) << map(mult()) << zip(row, v); }))
      << ExprPtr(m));
  RewriteResult r = rewrite(mv, rules::mapZipFlatten());
  ASSERT_TRUE(r.success) << r.report();
  EXPECT_EQ(countKind(r.program, FunKind::Pad), 1) << print(r.program);
  // lowerFft does not flatten here: g is a reduction, flattening would make two stages
  RewriteResult f = rewrite(mv, lowerFft());
  ASSERT_FALSE(f.budgetHit);
  EXPECT_EQ(countKind(f.program, FunKind::Pad), 0) << print(f.program);
  EXPECT_EQ(countKind(f.program, FunKind::MapGlobal), 1);
  std::mt19937_64 rng(4);
  InterpreterOptions io;
  io.sizes[nv.varId()] = 5;
  io.sizes[kv.varId()] = 3;
  std::vector<double> md(15), vd(3);
  for (auto& d : md) d = std::uniform_real_distribution<double>(-1, 1)(rng);
  for (auto& d : vd) d = std::uniform_real_distribution<double>(-1, 1)(rng);
  std::unordered_map<const Param*, Value> env{
      {m.get(), Value::realArray(md, ScalarKind::Float, {5, 3})},
      {v.get(), Value::realArray(vd, ScalarKind::Float, {3})}};
  Value want = interpret(mv, env, io);
  for (const auto& p : {r.program, f.program}) {
    std::string why;
    EXPECT_TRUE(testing::valuesClose(want, interpret(p, env, io), 1e-6, &why)) << why;
  }
}

}  // namespace
}  // namespace fftc::rewrites
