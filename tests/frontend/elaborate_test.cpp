// Elaboration: compile-time evaluation (prod, len, indexing, pipe order), -D bindings, size
// variables, precision, def macros and partial application, the paper's listings, and running
// elaborated programs through the interpreter against hand-computed values.
#include <gtest/gtest.h>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "ir/builders.h"
#include "ir/interpreter.h"
#include "tests/frontend/compile_support.h"
#include "tests/frontend/test_paths.h"

namespace fe = fftc::compiler::frontend;
namespace ir = fftc::ir;

namespace {

const ir::Type F = ir::Type::floatType();

ir::Type arr(ir::Type t, ir::ArithExpr n) { return ir::Type::array(std::move(t), std::move(n)); }

using fftc::test::compile;

ir::Type resultOf(const std::string& src, fe::ElaborateOptions opts = {}) {
  fe::Program p = compile(src, std::move(opts));
  EXPECT_EQ(p.kernels.size(), 1u);
  return p.kernels.at(0).resultType;
}

std::string errorOf(const std::string& src, fe::ElaborateOptions opts = {}) {
  try {
    fe::compileSource(src, "e.fdl", opts);
  } catch (const ir::CompileError& e) {
    return e.message();
  }
  return "(no error)";
}

}  // namespace

TEST(CompileTime, ProdLenIndex) {
  const char* prelude = "def rs = [2, 3, 4]\n";
  // prod(rs, 1, 3) = 3 * 4 = 12, prod(rs) = 24, len(rs) = 3, rs[2] = 4, rs[len(rs) - 3] = 2.
  EXPECT_EQ(resultOf(std::string(prelude) + "kernel k(x: [float]24) = split(prod(rs, 1, 3)) <<: x"),
            arr(arr(F, 12), 2));
  EXPECT_EQ(resultOf(std::string(prelude) + "kernel k(x: [float]48) = split(prod(rs)) <<: x"),
            arr(arr(F, 24), 2));
  EXPECT_EQ(resultOf(std::string(prelude) + "kernel k(x: [float]24) = split(len(rs)) <<: x"),
            arr(arr(F, 3), 8));
  EXPECT_EQ(resultOf(std::string(prelude) + "kernel k(x: [float]24) = split(rs[2]) <<: x"),
            arr(arr(F, 4), 6));
  EXPECT_EQ(resultOf(std::string(prelude) + "kernel k(x: [float]24) = split(rs[len(rs) - 3]) <<: x"),
            arr(arr(F, 2), 12));
  EXPECT_EQ(resultOf(std::string(prelude) + "kernel k(x: [float]24) = split(prod(rs, 1, 1)) <<: x"),
            arr(arr(F, 1), 24));
  // factors(60) = [2, 2, 3, 5]: len 4, the last 5, the product 60; factors(1) = [].
  const char* f60 = "def fs = factors(60)\n";
  EXPECT_EQ(resultOf(std::string(f60) + "kernel k(x: [float]60) = split(fs[3]) <<: x"),
            arr(arr(F, 5), 12));
  EXPECT_EQ(resultOf(std::string(f60) + "kernel k(x: [float]60) = split(len(fs)) <<: x"),
            arr(arr(F, 4), 15));
  EXPECT_EQ(resultOf(std::string(f60) + "kernel k(x: [float]120) = split(prod(fs)) <<: x"),
            arr(arr(F, 60), 2));
  EXPECT_EQ(resultOf("kernel k(x: [float]6) = split(len(factors(1)) + 1) <<: x"),
            arr(arr(F, 1), 6));
  EXPECT_EQ(resultOf("kernel k(x: [float]97) = split(prod(factors(97))) <<: x"),  // a prime
            arr(arr(F, 97), 1));
  // Integer arithmetic folds with floor division/modulo: (7 / 2) * (-7 % 3 + 1) = 3 * 3.
  EXPECT_EQ(resultOf("kernel k(x: [float]18) = split((7 / 2) * (-7 % 3 + 1)) <<: x"),
            arr(arr(F, 9), 2));
}

TEST(CompileTime, PipeAppliesTheFirstStageFirst) {
  // E[0] = split(2) first, then E[1] = split(3): [[[float]2]3]4. The other order would give
  // [[[float]3]2]4.
  EXPECT_EQ(resultOf("def rs = [2, 3]\n"
                     "kernel k(x: [float]24) = pipe(q in 0 .. len(rs)) split(rs[q]) <<: x"),
            arr(arr(arr(F, 2), 3), 4));
  // An empty range is the identity; ranges may start anywhere.
  EXPECT_EQ(resultOf("kernel k(x: [float]24) = pipe(q in 3 .. 3) split(q) <<: x"), arr(F, 24));
  EXPECT_EQ(resultOf("kernel k(x: [float]24) = pipe(q in 2 .. 4) split(q) <<: x"),
            arr(arr(arr(F, 2), 3), 4));
  // Nested pipes and a lambda body.
  EXPECT_EQ(resultOf("kernel k(x: [float]64) = pipe(i in 0 .. 2) pipe(j in 0 .. 2) "
                     "(fun v => split(2) <<: v) <<: x"),
            arr(arr(arr(arr(arr(F, 2), 2), 2), 2), 4));
}

TEST(Defines, FixSizeVariablesAndReplaceDefs) {
  const char* src = "def m = 2\nkernel k(x: [float]N) = split(m) <<: x";
  fe::Program sym = compile(src);
  const fe::Kernel& k = sym.kernels[0];
  ASSERT_EQ(k.sizeVarNames, std::vector<std::string>{"N"});
  ir::ArithExpr n = k.sizeVars[0];
  EXPECT_FALSE(n.isConstant());
  EXPECT_EQ(k.paramTypes[0], arr(F, n));
  EXPECT_EQ(k.resultType, arr(arr(F, 2), n / 2));

  fe::ElaborateOptions opts;
  opts.defines["N"] = int64_t{16};
  opts.defines["m"] = int64_t{4};
  opts.defines["unused"] = std::vector<int64_t>{1, 2};
  fe::Program fixed = compile(src, opts);
  EXPECT_TRUE(fixed.kernels[0].sizeVars.empty());
  EXPECT_EQ(fixed.kernels[0].paramTypes[0], arr(F, 16));
  EXPECT_EQ(fixed.kernels[0].resultType, arr(arr(F, 4), 4));

  // A list binding replaces a list def; sizes computed from it follow.
  fe::ElaborateOptions lo;
  lo.defines["rs"] = std::vector<int64_t>{4, 4};
  EXPECT_EQ(resultOf("def rs = [2, 2, 2]\ndef N = prod(rs)\n"
                     "kernel k(x: [float]N) = split(rs[0]) <<: x", lo),
            arr(arr(F, 4), 4));
}

// ElaborateOptions::kernels: only the named kernels are instantiated, so -D bindings that suit
// one kernel of a file (m = 3 for `a`) need not suit another (`b` splits 8 by m).
TEST(Defines, OnlyTheRequestedKernelsAreElaborated) {
  const char* src = "def m = 2\n"
                    "kernel a(x: [float]9) = split(m) <<: x\n"
                    "kernel b(x: [float]8) = split(m) <<: x\n";
  fe::ElaborateOptions opts;
  opts.defines["m"] = int64_t{3};
  EXPECT_THROW(fe::compileSource(src, "e.fdl", opts), ir::CompileError);  // b: 3 does not divide 8
  opts.kernels = {"a"};
  fe::Program p = compile(src, opts);
  ASSERT_EQ(p.kernels.size(), 1u);
  EXPECT_EQ(p.kernels[0].resultType, arr(arr(F, 3), 3));
  opts.kernels = {"c"};  // an unknown name elaborates nothing (the caller asks for its kernel)
  EXPECT_TRUE(compile(src, opts).kernels.empty());
}

// ElaborateOptions::functions: an IR function of the embedding program bound to a name, used
// by a def that takes a function (as fft_ops_passes gives hierarchical.fdl's tile its row FFT),
// and replacing a def of that name like a -D binding. The interpreter checks the values.
TEST(Defines, FunctionsBoundByTheEmbeddingProgram) {
  auto v = ir::param("v");
  const ir::FunPtr triple = ir::lambda({v}, v * ir::litF(3.0));
  const char* src = "def twice(f) = f o f\n"
                    "def g = fun v => v\n"
                    "kernel k(x: [float]3) = map(twice(g)) <<: x\n";
  fe::ElaborateOptions opts;
  opts.functions["g"] = triple;
  fe::Program p = compile(src, opts);
  const ir::Value x = ir::Value::realArray(std::vector<double>{1, 2, -1}, ir::ScalarKind::Float);
  EXPECT_EQ(ir::interpretCall(p.kernels.at(0).lambda, {x}).toRealVector(),
            (std::vector<double>{9, 18, -9}));
  EXPECT_EQ(ir::interpretCall(compile(src).kernels.at(0).lambda, {x}).toRealVector(),
            (std::vector<double>{1, 2, -1}));  // the def's own g without the binding
  // a bound name needs no def
  EXPECT_EQ(resultOf("kernel k(x: [float]3) = map(h) <<: x", [&] {
              fe::ElaborateOptions o;
              o.functions["h"] = triple;
              return o;
            }()),
            arr(F, 3));
}

TEST(Defines, ParseDefineValue) {
  EXPECT_EQ(fe::parseDefineValue("64"), fe::DefineValue{int64_t{64}});
  EXPECT_EQ(fe::parseDefineValue(" -3 "), fe::DefineValue{int64_t{-3}});
  EXPECT_EQ(fe::parseDefineValue("4,4,16"), (fe::DefineValue{std::vector<int64_t>{4, 4, 16}}));
  EXPECT_EQ(fe::parseDefineValue("[8, 8]"), (fe::DefineValue{std::vector<int64_t>{8, 8}}));
  EXPECT_EQ(fe::parseDefineValue("[]"), (fe::DefineValue{std::vector<int64_t>{}}));
  EXPECT_EQ(fe::parseDefineValue("[5]"), (fe::DefineValue{std::vector<int64_t>{5}}));
  EXPECT_FALSE(fe::parseDefineValue(""));
  EXPECT_FALSE(fe::parseDefineValue("abc"));
  EXPECT_FALSE(fe::parseDefineValue("4,,4"));
  EXPECT_FALSE(fe::parseDefineValue("[4"));
  EXPECT_FALSE(fe::parseDefineValue("99999999999999999999"));
}

TEST(SizeVariables, SymbolicArithmetic) {
  fe::Program p = compile("kernel k(x: [[float]M]N, y: [float](2 * N)) = join <<: x");
  const fe::Kernel& k = p.kernels[0];
  ASSERT_EQ(k.sizeVarNames, (std::vector<std::string>{"M", "N"}));
  ir::ArithExpr m = k.sizeVars[0], n = k.sizeVars[1];
  EXPECT_EQ(k.paramTypes[1], arr(F, 2 * n));
  EXPECT_EQ(k.resultType, arr(F, m * n));
  // Size variables are visible in the kernel body (and in defs it uses).
  fe::Program q = compile("def h = N / 4\nkernel k(x: [float]N) = split(h) <<: x");
  ir::ArithExpr n2 = q.kernels[0].sizeVars[0];
  EXPECT_EQ(q.kernels[0].resultType, arr(arr(F, n2 / 4), n2 / (n2 / 4)));
}

TEST(Precision, RealFollowsTheOption) {
  const char* src = "kernel k(x: [real]4, y: [complex]4) = map(fun a => a * 2.0) <<: x";
  fe::ElaborateOptions f64;
  f64.precision = ir::ScalarKind::Double;
  fe::Program d = compile(src, f64);
  EXPECT_EQ(d.kernels[0].paramTypes[0], arr(ir::Type::doubleType(), 4));
  EXPECT_EQ(d.kernels[0].paramTypes[1], arr(ir::Type::complex(ir::ScalarKind::Double), 4));
  EXPECT_EQ(d.kernels[0].resultType, arr(ir::Type::doubleType(), 4));
  fe::Program f = compile(src);
  EXPECT_EQ(f.kernels[0].resultType, arr(F, 4));
  // The f suffix is always float.
  EXPECT_EQ(resultOf("kernel k(x: [float]4) = map(fun a => a * 2.0f) <<: x", f64), arr(F, 4));
}

TEST(Defs, PartialAndOverApplication) {
  const char* defs =
      "def kronIdR(m, matMult) = fun v => join <<: transpose <<: map(matMult) <<: transpose "
      "<<: split(m) <<: v\n"
      "def multPiT(r) = fun v => join <<: transpose <<: split(r) <<: v\n";
  // kronIdR(2) is a partially applied def; kronIdR(2, f, x) applies the result to x.
  EXPECT_EQ(resultOf(std::string(defs) + "def k2 = kronIdR(2)\n"
                                         "kernel k(x: [float]8) = k2(multPiT(2)) <<: x"),
            arr(F, 8));
  EXPECT_EQ(resultOf(std::string(defs) + "kernel k(x: [float]8) = kronIdR(2, multPiT(2), x)"),
            arr(F, 8));
  // A kernel whose body is a function is applied to the kernel's parameters.
  EXPECT_EQ(resultOf(std::string(defs) + "kernel k(x: [float]8) = kronIdR(2, multPiT(2))"),
            arr(F, 8));
  // Functions as def arguments, composition, operator sections, get and ._i.
  EXPECT_EQ(resultOf("def twice(f) = f o f\n"
                     "kernel k(x: [float]8, y: [float]8) = "
                     "map(twice(fun p => {p._1, get(0) <<: p})) <<: zip(x, y)"),
            arr(ir::Type::tuple({F, F}), 8));
}

TEST(Defs, RecursionAndRunawayExpansionAreErrors) {
  EXPECT_EQ(errorOf("def f(x) = g(x)\ndef g(x) = f(x)\nkernel k(x: [float]4) = f(x)"),
            "recursive definition: 'f' expands into itself (f -> g -> f)");
  // Exponential growth is stopped by the IR depth budget or the step budget.
  std::string twice = "def twice(f) = f o f\ndef t = ";
  for (int i = 0; i < 40; ++i) twice += "twice(";
  twice += "neg";
  for (int i = 0; i < 40; ++i) twice += ")";
  twice += "\nkernel k(x: [float]4) = map(t) <<: x";
  EXPECT_NE(errorOf(twice).find("runaway def expansion"), std::string::npos);
  std::string wide = "def w(f) = fun x => f(x) + f(x)\ndef t = ";
  for (int i = 0; i < 40; ++i) wide += "w(";
  wide += "neg";
  for (int i = 0; i < 40; ++i) wide += ")";
  wide += "\nkernel k(x: [float]4) = map(t) <<: x";
  fe::ElaborateOptions small;
  small.maxSteps = 20000;
  EXPECT_NE(errorOf(wide, small).find("budget exceeded"), std::string::npos);
}

TEST(Names, DidYouMean) {
  EXPECT_EQ(errorOf("def dotproduct = 1\nkernel k(x: [float]4) = split(dotprodcut) <<: x"),
            "unknown name 'dotprodcut' (did you mean 'dotproduct'?)");
  EXPECT_EQ(errorOf("kernel k(x: [float]4) = trnaspose <<: x"),
            "unknown name 'trnaspose' (did you mean 'transpose'?)");
  EXPECT_EQ(errorOf("kernel k(x: [float]4) = map(fun elem => elme) <<: x"),
            "unknown name 'elme' (did you mean 'elem'?)");
}

// ---- the paper's listings, written as in the paper ----

TEST(PaperListings, Listing1Verbatim) {
  // Listing 1, with `0.0f` for the paper's `0` (the matrix holds floats).
  const char* src =
      "def dotproduct = λ((v, w) =>\n"
      "  reduce(+, 0.0f) <<: map(*) <<: zip(v, w))\n"
      "\n"
      "def matVecMult = λ((M, v) =>\n"
      "  map(λ(rowM => dotproduct(rowM, v))) <<: M)\n"
      "kernel mv(M: [[float]3]2, v: [float]3) = matVecMult(M, v)\n";
  fe::Program p = compile(src);
  const fe::Kernel& k = p.kernels[0];
  EXPECT_EQ(k.resultType, arr(F, 2));
  ir::Value m = ir::Value::realArray(std::vector<double>{1, 2, 3, 4, 5, 6}, ir::ScalarKind::Float, {2, 3});
  ir::Value v = ir::Value::realArray(std::vector<double>{1, 0, -1}, ir::ScalarKind::Float);
  ir::Value y = ir::interpretCall(k.lambda, {m, v});
  EXPECT_EQ(y.toRealVector(), (std::vector<double>{-2, -2}));  // 1-3, 4-6
}

TEST(PaperListings, Listing2InlinedPassEqualsStockPass) {
  // Listing 2 (the inlined Stockham pass) almost verbatim: generator sizes listed outermost
  // first (array3(L/r, r, r, ...)), `o` chains ending in a value read as application, and the
  // `)` that the printed listing misses at the end of line 9; line 10 reads split(n/L) where
  // the paper prints split(n/r) (the combine step is kronIdR(n/L, multB(r, L)), as in 3.1).
  const char* src =
      "def omega(k, n) = { cos(-2 * π * k / n), sin(-2 * π * k / n) }\n"
      "def genRepB(j, k, l, numMats, height, width) =\n"
      "  omega((k * numMats + j) * l, height * numMats)\n"
      "def stockPass(r, L, n) = λ(v =>\n"
      "  join <<: transpose <<: map(λ(v =>\n"
      "    join <<: transpose <<: map(λ((v, RepOfBj) =>\n"
      "      map(λ(rowBj =>\n"
      "        reduce(+,{0,0}) o map(*) o zip(rowBj,v))\n"
      "        )\n"
      "        <<: RepOfBj))\n"
      "        <<: zip(transpose <<: split(L/r,v),\n"
      "          array3(L/r,r,r, genRepB))))\n"
      "      <<: transpose <<: split(n/L)\n"
      "      <<: join <<: transpose\n"
      "      <<: map(join o transpose o split(r))\n"
      "      <<: transpose <<: split(n/L) <<: v )\n"
      "def rs = [4, 2, 8]\n"
      "kernel fft(x: [complex]64) = pipe(q in 0 .. 3) stockPass(rs[q], prod(rs, 0, q + 1), 64) <<: x\n";
  fe::Program p = compile(src);
  fe::ElaborateOptions opts;
  opts.defines["rs"] = std::vector<int64_t>{4, 2, 8};
  std::string path = (fftc::test::examplesDir() / "stockham.fdl").string();
  fe::Program ref = fe::parseFile(path, opts);
  std::vector<std::complex<double>> x(64);
  for (size_t i = 0; i < x.size(); ++i) x[i] = {static_cast<double>(i % 7) - 3, static_cast<double>(i % 5)};
  ir::Value in = ir::Value::complexArray(x, ir::ScalarKind::Float);
  auto a = ir::interpretCall(p.kernels[0].lambda, {in}).toComplexVector();
  auto b = ir::interpretCall(ref.kernel("fft")->lambda, {in}).toComplexVector();
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(std::abs(a[i] - b[i]), 0.0, 1e-3) << i;
}

TEST(PaperListings, AbstractionsTypeCheckOneByOne) {
  const char* lib =
      "def kronIdR(m, matMult) = λ(v =>\n"
      "  join <<: transpose <<: map(matMult)\n"
      "  <<: transpose <<: split(m) <<: v)\n"
      "def multPiT(r) = λ(v =>\n"
      "  join <<: transpose <<: split(r) <<: v)\n"
      "def omega(k, n) = cispi(-2.0 * k / n)\n"
      "def genRepB(j, k, l, numMats, height, width) =\n"
      "  omega((k * numMats + j) * l, height * numMats)\n"
      "def RepOfB(r, L) = array3(L / r, r, r, genRepB)\n"
      "def complexMatVecMult = λ((x, M) =>\n"
      "  map(λ(row => reduce(add, {0, 0}) <<: map(mult) <<: zip(row, x))) <<: M)\n"
      "def multB(r, L) = λ(v =>\n"
      "  join <<: transpose <<: map(complexMatVecMult)\n"
      "  <<: zip(transpose <<: split(L/r) <<: v,\n"
      "    RepOfB(r, L)))\n";
  const ir::Type C = ir::Type::complex(ir::ScalarKind::Float);
  EXPECT_EQ(resultOf(std::string(lib) + "kernel k(x: [complex]16) = kronIdR(4, multPiT(2)) <<: x"),
            arr(C, 16));
  EXPECT_EQ(resultOf(std::string(lib) + "kernel k(x: [complex]16) = multPiT(4) <<: x"), arr(C, 16));
  EXPECT_EQ(resultOf(std::string(lib) + "kernel k(x: [complex]8) = RepOfB(4, 8)"),
            arr(arr(arr(C, 4), 4), 2));
  EXPECT_EQ(resultOf(std::string(lib) + "kernel k(x: [complex]8) = multB(4, 8) <<: x"), arr(C, 8));
}

TEST(Interpreter, ScalarLambdasAndTuples) {
  // {1.0, 2} is a complex literal; {a, b} of runtime ints is a tuple; re/im/conj/cispi work.
  fe::Program p = compile(
      "kernel k(x: [int]3) = map(fun a => {a * 2, a % 2}) <<: x\n"
      "kernel c(x: [complex]2) = map(fun z => conj(z) * {1.0, 2}) <<: x\n");
  ir::Value x = ir::Value::array({ir::Value::ofInt(1), ir::Value::ofInt(-3), ir::Value::ofInt(4)});
  EXPECT_EQ(ir::interpretCall(p.kernel("k")->lambda, {x}).str(), "[(2, 1), (-6, 1), (8, 0)]");
  std::vector<std::complex<double>> z{{1, 1}, {0, -1}};
  auto y = ir::interpretCall(p.kernel("c")->lambda,
                             {ir::Value::complexArray(z, ir::ScalarKind::Float)})
               .toComplexVector();
  EXPECT_EQ(y[0], std::complex<double>(3, 1));   // (1 - i)(1 + 2i) = 3 + i
  EXPECT_EQ(y[1], std::complex<double>(-2, 1));  // i (1 + 2i) = -2 + i
}

TEST(Inlining, BetaReductionOnlyWhereNoWorkIsDuplicated) {
  auto calleeKind = [](const fe::Program& p, const char* kernel) {
    const auto* fc = p.kernel(kernel)->lambda->body()->as<ir::FunCall>();
    return fc ? fc->f()->kind() : ir::FunKind::Id;
  };
  const char* src =
      "def dot = λ((v, w) => reduce(add, 0.0f) <<: map(mult) <<: zip(v, w))\n"
      "kernel d(x: [float]4, y: [float]4) = dot(x, y)\n"
      // a non-trivial argument used twice, or inside map's function, keeps the call
      "kernel twice(x: float) = (fun a => a * a) <<: x * 2.0f\n"
      "kernel inner(x: [float]4, s: float) = (fun t => map(fun e => e * t) <<: x) <<: s * 2.0f\n"
      // used once at the top level: inlined
      "kernel once(x: float) = (fun a => a + 1.0f) <<: x * 2.0f\n";
  fe::Program p = compile(src);
  EXPECT_EQ(calleeKind(p, "d"), ir::FunKind::Reduce);
  EXPECT_EQ(calleeKind(p, "twice"), ir::FunKind::Lambda);
  EXPECT_EQ(calleeKind(p, "inner"), ir::FunKind::Lambda);
  EXPECT_EQ(calleeKind(p, "once"), ir::FunKind::Builtin);
  fe::ElaborateOptions noInline;
  noInline.inlineLambdas = false;
  fe::Program q = compile(src, noInline);
  EXPECT_EQ(calleeKind(q, "d"), ir::FunKind::Lambda);
  EXPECT_EQ(calleeKind(q, "once"), ir::FunKind::Lambda);
  // Both forms compute the same.
  ir::Value x = ir::Value::realArray(std::vector<double>{1, 2, 3, 4}, ir::ScalarKind::Float);
  ir::Value y = ir::Value::realArray(std::vector<double>{1, 1, 2, 0}, ir::ScalarKind::Float);
  EXPECT_EQ(ir::interpretCall(p.kernel("d")->lambda, {x, y}).asReal(), 9.0);
  EXPECT_EQ(ir::interpretCall(q.kernel("d")->lambda, {x, y}).asReal(), 9.0);
  ir::Value three = ir::Value::ofFloat(3.0f);
  EXPECT_EQ(ir::interpretCall(p.kernel("twice")->lambda, {three}).asReal(), 36.0);
  EXPECT_EQ(ir::interpretCall(p.kernel("once")->lambda, {three}).asReal(), 7.0);
}

// The IR depth bound (ElaborateOptions::maxIrDepth) counts nesting as ir::NestingDepth does,
// checked by hand: x is 1 deep, split(2)(x) 2, join(split(2)(x)) 3, so k join/split pairs are
// 2k + 1 deep. The bound admits exactly that depth and refuses one less.
TEST(Elaborate, IrDepthBoundCountedByHand) {
  for (int k = 1; k <= 3; ++k) {
    std::string src = "kernel k(x: [float]64) = ";
    for (int i = 0; i < k; ++i) src += "join <<: split(2) <<: ";
    src += "x\n";
    const int depth = 2 * k + 1;
    fe::ElaborateOptions fits;
    fits.maxIrDepth = depth;
    EXPECT_EQ(resultOf(src, fits), arr(F, 64)) << src;
    fe::ElaborateOptions tooShallow;
    tooShallow.maxIrDepth = depth - 1;
    EXPECT_EQ(errorOf(src, tooShallow),
              "the program expands to an expression nested too deeply (more than " +
                  std::to_string(depth - 1) + " levels): runaway def expansion?")
        << src;
  }
}
