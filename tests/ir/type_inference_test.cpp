// Type inference: the type of every pattern, implicit conversions, pointer identity on typed
// programs, and the error message (and location) of each kind of error.
#include <gtest/gtest.h>

#include "ir/builders.h"
#include "ir/infer.h"

namespace fftc::ir {
namespace {

const Type kInt = Type::intType();
const Type kFloat = Type::floatType();
const Type kCf = Type::complex(ScalarKind::Float);

Type arr(Type t, ArithExpr n) { return Type::array(std::move(t), std::move(n)); }

Type typeOf(const ExprPtr& e) { return inferTypes(e)->type(); }

TEST(TypeInference, HighLevelPatterns) {
  auto x = param("x", arr(kFloat, 8));
  auto m = param("m", arr(arr(kFloat, 4), 2));
  auto i = param("i", arr(kInt, 8));
  EXPECT_EQ(typeOf(map(neg()) << x), arr(kFloat, 8));
  EXPECT_EQ(typeOf(reduce(add(), litF(0)) << x), kFloat);
  EXPECT_EQ(typeOf(zip(x, i)), arr(Type::tuple({kFloat, kInt}), 8));
  EXPECT_EQ(typeOf(zip({x, i, x})), arr(Type::tuple({kFloat, kInt, kFloat}), 8));
  EXPECT_EQ(typeOf(split(4) << x), arr(arr(kFloat, 4), 2));
  EXPECT_EQ(typeOf(join() << m), arr(kFloat, 8));
  EXPECT_EQ(typeOf(transpose() << m), arr(arr(kFloat, 2), 4));
  EXPECT_EQ(typeOf(pad(1, 2, PadBoundary::Wrap) << x), arr(kFloat, 11));
  EXPECT_EQ(typeOf(pad(3, 0, litF(0)) << x), arr(kFloat, 11));
  EXPECT_EQ(typeOf(slide(3, 1) << x), arr(arr(kFloat, 3), 6));
  EXPECT_EQ(typeOf(slide(3, 2) << x), arr(arr(kFloat, 3), 3));
  EXPECT_EQ(typeOf(id() << x), arr(kFloat, 8));
  EXPECT_EQ(typeOf(call(Gather::make({7, 0, 3, 3, 5}), x)), arr(kFloat, 5));
  auto s = param("s", arr(kFloat, 2 + ArithExpr::sizeVar("N")));
  EXPECT_EQ(typeOf(call(Gather::make({1, 0}), s)), arr(kFloat, 2));
  EXPECT_EQ(typeOf(get(1, tuple({litF(1), lit(2)}))), kInt);
  EXPECT_EQ(typeOf(get(1, litComplex(1, 2, ScalarKind::Float))), kFloat);
}

// {0, 0} is a complex accumulator when the reduction only types that way, even though the
// elements (zipped pairs) do not show it: the paper's reduce(multAndSum, {0, 0}) o zip.
TEST(TypeInference, PairInitBecomesComplexForAComplexAccumulator) {
  auto x = param("x", arr(kCf, 4));
  auto y = param("y", arr(kCf, 4));
  auto multAndSum = fun([](ExprPtr acc, ExprPtr p) { return acc + get(0, p) * get(1, p); });
  EXPECT_EQ(typeOf(reduceSeq(multAndSum, tuple({lit(0), lit(0)})) << zip(x, y)), kCf);
  // A pair accumulator that does type as a pair stays a pair.
  auto i = param("i", arr(kInt, 4));
  auto sumPairs = fun([](ExprPtr acc, ExprPtr v) {
    return tuple({get(0, acc) + v, get(1, acc) + v});
  });
  EXPECT_EQ(typeOf(reduce(sumPairs, tuple({lit(0), lit(0)})) << i), Type::tuple({kInt, kInt}));
}

TEST(TypeInference, Generators) {
  EXPECT_EQ(typeOf(array(5, fun([](ExprPtr i, ExprPtr n) { return i * n; }))), arr(kInt, 5));
  auto g2 = fun([](ExprPtr i, ExprPtr j, ExprPtr, ExprPtr) { return cispi(litF(1) * i / j); });
  EXPECT_EQ(typeOf(array2(3, 4, g2)), arr(arr(kCf, 4), 3));
  auto g3 = fun([](ExprPtr a, ExprPtr, ExprPtr, ExprPtr, ExprPtr, ExprPtr) { return tuple({a, a}); });
  EXPECT_EQ(typeOf(array3(2, 3, 4, g3)), arr(arr(arr(Type::tuple({kInt, kInt}), 4), 3), 2));
}

TEST(TypeInference, SymbolicSizes) {
  ArithExpr n = ArithExpr::sizeVar("N");
  auto x = param("x", arr(kFloat, 4 * n));
  EXPECT_EQ(typeOf(split(4) << x), arr(arr(kFloat, 4), n));
  EXPECT_EQ(typeOf(join() << split(4) << x), arr(kFloat, 4 * n));
  // not provably divisible, not provably indivisible: accepted
  auto y = param("y", arr(kFloat, n));
  EXPECT_EQ(typeOf(split(2) << y), arr(arr(kFloat, 2), n / 2));
  auto z = param("z", arr(kFloat, n));
  EXPECT_EQ(typeOf(zip(y, z)), arr(Type::tuple({kFloat, kFloat}), n));
}

TEST(TypeInference, IterateAppliesTheFunctionKTimes) {
  auto x = param("x", arr(kFloat, 16));
  FunPtr halve = map(reduce(add(), litF(0))) << split(2);
  EXPECT_EQ(typeOf(iterate(3, halve) << x), arr(kFloat, 2));
  EXPECT_EQ(typeOf(iterate(0, halve) << x), arr(kFloat, 16));
}

// Issue 20: iterate(10^9, f) typed f 10^9 times (it spun). A step that keeps the type ends
// the walk; steps that change the sizes are followed up to a budget, then a located error.
TEST(TypeInference, IterateStopsAtAFixedPoint) {
  auto x = param("x", arr(kFloat, 16));
  EXPECT_EQ(typeOf(iterate(1000000000, map(id())) << x), arr(kFloat, 16));
  EXPECT_EQ(typeOf(iterate(int64_t{1} << 62, join() << split(4)) << x), arr(kFloat, 16));
  // Sizes change for a while, then stay.
  FunPtr shrink = map(reduce(add(), litF(0))) << split(2);
  EXPECT_EQ(typeOf(iterate(3, shrink) << x), arr(kFloat, 2));
}

TEST(TypeInference, IterateChangingSizesHasABudget) {
  auto x = param("x", arr(kFloat, 16));
  EXPECT_EQ(typeOf(iterate(4096, pad(1, 0, PadBoundary::Wrap)) << x), arr(kFloat, 16 + 4096));
  SourceLoc loc{"it.fdl", 3, 9};
  ExprPtr e = FunCall::make(Iterate::make(5000, pad(1, 0, PadBoundary::Wrap), loc), {x}, loc);
  try {
    inferTypes(e);
    FAIL() << "typed";
  } catch (const CompileError& err) {
    EXPECT_EQ(err.loc().line, 3);
    EXPECT_NE(std::string(err.what()).find("iterate: 5000 steps"), std::string::npos)
        << err.what();
  }
  // The budget is an option.
  InferOptions small;
  small.maxIterateSteps = 10;
  EXPECT_THROW(inferTypes(iterate(11, pad(1, 0, PadBoundary::Wrap)) << x, small), CompileError);
  EXPECT_EQ(inferTypes(iterate(10, pad(1, 0, PadBoundary::Wrap)) << x, small)->type(),
            arr(kFloat, 26));
}

// A memo shared by runs (the rewrite engine's) gives the same typed program as a fresh run, and
// a node met again in the same place is returned as it is.
TEST(TypeInference, MemoGivesTheSameTypes) {
  auto x = param("x", arr(kFloat, 16));
  ExprPtr e = iterate(2, map(neg())) << (join() << (map(map(neg())) << (split(4) << x)));
  InferOptions memo;
  memo.memo = makeInferMemo();
  ExprPtr a = inferTypes(e, memo);
  ExprPtr b = inferTypes(a, memo);
  EXPECT_EQ(a, b);
  EXPECT_EQ(a->type(), inferTypes(e)->type());
  // A typed Lambda (its body memoized at float) applied to ints: its Param changes type, so
  // the body is typed again rather than taken from the memo.
  ExprPtr fx = inferTypes(map(fun([](ExprPtr v) { return neg() << v; })) << x, memo);
  FunPtr typedLambda = fx->as<FunCall>()->f()->funChildren().at(0);
  auto y = param("y", arr(kInt, 16));
  ExprPtr fy = inferTypes(map(typedLambda) << y, memo);
  EXPECT_EQ(fy->type(), arr(kInt, 16));
  const auto* body = fy->as<FunCall>()->f()->funChildren().at(0)->as<Lambda>()->body().get();
  EXPECT_EQ(body->type(), kInt);
}

TEST(TypeInference, LambdasTakeTupleComponents) {
  auto x = param("x", arr(kFloat, 8));
  auto i = param("i", arr(kInt, 8));
  auto f = fun([](ExprPtr a, ExprPtr b) { return a * b; });
  EXPECT_EQ(typeOf(map(f) << zip(x, i)), arr(kFloat, 8));
  EXPECT_EQ(typeOf(map(mult()) << zip(i, i)), arr(kInt, 8));
  EXPECT_EQ(typeOf(call(f, lit(2), lit(3))), kInt);
}

TEST(TypeInference, ScalarPromotionAndComplex) {
  auto k = param("k", kInt);
  auto n = param("n", kInt);
  EXPECT_EQ(typeOf(lit(-2.0, ScalarKind::Float) * k / n), kFloat);
  EXPECT_EQ(typeOf(k / n), kInt);
  EXPECT_EQ(typeOf(litF(1) + lit(1.0)), Type::doubleType());
  EXPECT_EQ(typeOf(cispi(lit(-2.0, ScalarKind::Float) * k / n)), kCf);
  EXPECT_EQ(typeOf(re(litComplex(1, 2, ScalarKind::Float))), kFloat);
  EXPECT_EQ(typeOf(litF(2) * litComplex(1, 2, ScalarKind::Float)), kCf);
  EXPECT_EQ(typeOf(complex(lit(0), lit(1))), kCf);  // ints: InferOptions::real (float)
  InferOptions dbl;
  dbl.real = ScalarKind::Double;
  EXPECT_EQ(inferTypes(cos(k), dbl)->type(), Type::doubleType());
}

TEST(TypeInference, TupleLiteralBecomesComplexWhereExpected) {
  auto x = param("x", arr(kCf, 4));
  ExprPtr typed = inferTypes(reduce(add(), tuple({lit(0), lit(0)})) << x);
  EXPECT_EQ(typed->type(), kCf);
  const auto* r = typed->as<FunCall>()->f()->as<Reduce>();
  ASSERT_NE(r, nullptr);
  const auto* l = r->init()->as<Literal>();
  ASSERT_NE(l, nullptr);
  EXPECT_EQ(l->litKind(), LiteralKind::Complex);
  EXPECT_EQ(l->type(), kCf);
  // in arithmetic with a complex
  auto c = param("c", kCf);
  EXPECT_EQ(typeOf(c + tuple({litF(1), litF(0)})), kCf);
  // a real tuple stays a tuple elsewhere
  EXPECT_EQ(typeOf(tuple({lit(0), litF(0)})), Type::tuple({kInt, kFloat}));
}

TEST(TypeInference, LowLevelPatterns) {
  auto m = param("m", arr(arr(kFloat, 4), 2));
  EXPECT_EQ(typeOf(mapGlobal(0, mapSeq(neg())) << m), arr(arr(kFloat, 4), 2));
  EXPECT_EQ(typeOf(mapWorkgroup(0, toGlobal(mapLocal(0, id())) ) << m), arr(arr(kFloat, 4), 2));
  EXPECT_EQ(typeOf(mapGlobal(1, mapGlobal(0, neg())) << m), arr(arr(kFloat, 4), 2));
  auto m4 = param("m4", arr(arr(arr(arr(kFloat, 5), 4), 3), 2));
  EXPECT_EQ(typeOf(mapWorkgroup(1, mapWorkgroup(0, mapLocal(0, mapLocal(1, neg())))) << m4),
            m4->type());
  EXPECT_EQ(typeOf(mapSeqUnroll(reduceSeq(add(), litF(0))) << m), arr(kFloat, 2));
  EXPECT_EQ(typeOf(mapSeq(reduceSeqUnroll(add(), litF(0))) << m), arr(kFloat, 2));
  EXPECT_EQ(typeOf(toPrivate(mapSeq(toLocal(id()))) << m), arr(arr(kFloat, 4), 2));
}

TEST(TypeInference, UserFunctions) {
  auto f = userFun("scale", {{"a", kCf}, {"s", kFloat}}, kCf, "return a * s;");
  auto x = param("x", arr(kCf, 4));
  EXPECT_EQ(typeOf(map(fun([&](ExprPtr e) { return call(f, e, litF(2)); })) << x), arr(kCf, 4));
  // a tuple literal is accepted for a complex parameter
  EXPECT_EQ(typeOf(call(f, tuple({lit(1), lit(0)}), litF(2))), kCf);
}

TEST(TypeInference, TypedProgramsAreReturnedUnchanged) {
  auto x = param("x", arr(kFloat, 8));
  ExprPtr e = join() << map(map(fun([](ExprPtr v) { return v * v; }))) << split(4) << x;
  ExprPtr typed = inferTypes(e);
  EXPECT_NE(typed, e);  // the builders' lambdas had untyped params
  EXPECT_EQ(inferTypes(typed), typed);
  // the untyped input is untouched (nodes are immutable)
  EXPECT_FALSE(e->type());
  // the typed lambda parameter carries the element type
  const auto* mapCall = typed->as<FunCall>()->arg(0)->as<FunCall>();
  const auto* inner = mapCall->f()->as<Map>()->f()->as<Map>()->f()->as<Lambda>();
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(inner->params()[0]->type(), kFloat);
}

TEST(TypeInference, OneLambdaUsedAtTwoTypes) {
  auto sq = fun([](ExprPtr v) { return v * v; });
  auto x = param("x", arr(kFloat, 8));
  auto i = param("i", arr(kInt, 8));
  EXPECT_EQ(typeOf(zip(map(sq) << x, map(sq) << i)), arr(Type::tuple({kFloat, kInt}), 8));
}

TEST(TypeInference, KernelLambda) {
  ArithExpr n = ArithExpr::sizeVar("N");
  auto x = param("x", arr(kFloat, n));
  LambdaPtr k = inferTypes(lambda({x}, map(neg()) << x));
  EXPECT_EQ(k->body()->type(), arr(kFloat, n));
  EXPECT_EQ(k->params()[0], x);  // annotated params are kept
  TypedFun tf = inferCall(map(fun([](ExprPtr v) { return v + v; })), {arr(kInt, 3)});
  EXPECT_EQ(tf.result, arr(kInt, 3));
}

// ---- errors

struct ErrorCase {
  const char* name;
  std::function<ExprPtr()> program;
  const char* message;  // expected substring of CompileError::message()
};

class TypeErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(TypeErrors, ReportsTheProblem) {
  const ErrorCase& c = GetParam();
  try {
    ExprPtr e = c.program();
    inferTypes(e);
    FAIL() << "no error; expected: " << c.message;
  } catch (const CompileError& err) {
    EXPECT_NE(err.message().find(c.message), std::string::npos)
        << "got: " << err.message() << "\nexpected: " << c.message;
  }
}

ParamPtr vec(const char* name, int64_t n, Type t = Type::floatType()) { return param(name, Type::array(t, n)); }
ParamPtr mat(const char* name, int64_t n, int64_t m) {
  return param(name, Type::array(Type::array(Type::floatType(), m), n));
}

const ErrorCase kErrorCases[] = {
    {"ZipSizes", [] { return zip(vec("a", 8), vec("b", 16)); }, "zip: sizes differ: 8 and 16"},
    {"ZipNotArray", [] { return zip(vec("a", 8), param("s", kFloat)); },
     "zip: argument 2 is not an array: float"},
    {"SplitIndivisible", [] { return split(3) << vec("a", 8); }, "split(3): 3 does not divide 8"},
    {"SplitSymbolicIndivisible",
     [] {
       ArithExpr n = ArithExpr::sizeVar("N");
       return split(2) << param("a", Type::array(kFloat, 2 * n + 1));
     },
     "split(2): 2 does not divide"},
    {"SplitScalar", [] { return split(2) << param("s", kFloat); }, "split(2): expects an array, got float"},
    {"Join1D", [] { return join() << vec("a", 8); }, "join: expects a 2-dimensional array, got [float]8"},
    {"Transpose1D", [] { return transpose() << vec("a", 8); }, "transpose: expects a 2-dimensional array"},
    {"MapArity", [] { return call(map(neg()), vec("a", 4), vec("b", 4)); },
     "map: expects 1 argument, got 2 arguments"},
    {"MapScalar", [] { return map(neg()) << param("s", kFloat); }, "map: expects an array, got float"},
    {"ReduceAccumulator", [] { return reduce(add(), lit(0)) << vec("a", 4); },
     "reduce: the function returns float but the accumulator (initial value) is int"},
    {"ReduceScalar", [] { return reduce(add(), litF(0)) << param("s", kFloat); },
     "reduce: expects an array, got float"},
    {"GetOutOfRange", [] { return get(2, tuple({litF(1), lit(2)})); },
     "get(2): the tuple (float, int) has 2 components"},
    {"GetNotTuple", [] { return get(0, litF(1)); }, "get(0): expects a tuple, got float"},
    {"MapGlobalInMapGlobal", [] { return mapGlobal(0, mapGlobal(0, neg())) << mat("m", 2, 4); },
     "mapGlobal(0) inside mapGlobal(0)"},
    {"MapLocalOutsideWorkgroup", [] { return mapLocal(0, neg()) << vec("a", 4); },
     "mapLocal(0) must be nested inside a mapWorkgroup"},
    {"MapLocalInMapLocalSameDimension",
     [] {
       return mapWorkgroup(0, mapLocal(1, mapLocal(1, neg())))
              << param("c", Type::array(Type::array(Type::array(kFloat, 4), 3), 2));
     },
     "dimension 1 is already distributed over local work-items"},
    {"MapWorkgroupInMapGlobal", [] { return mapGlobal(0, mapWorkgroup(1, neg())) << mat("m", 2, 4); },
     "mapWorkgroup(1) inside mapGlobal(0)"},
    {"MapGlobalInMapWorkgroup", [] { return mapWorkgroup(0, mapGlobal(1, neg())) << mat("m", 2, 4); },
     "mapGlobal(1) inside mapWorkgroup(0)"},
    {"MapWorkgroupSameDim",
     [] { return mapWorkgroup(0, mapWorkgroup(0, neg())) << mat("m", 2, 4); },
     "mapWorkgroup(0) inside mapWorkgroup(0)"},
    {"MapLocalInMapLocal",
     [] {
       auto t = param("t", Type::array(Type::array(Type::array(kFloat, 2), 2), 2));
       return mapWorkgroup(0, mapLocal(0, mapLocal(0, neg()))) << t;
     },
     "mapLocal(0) inside mapLocal(0)"},
    {"UserFunArgument",
     [] {
       auto f = userFun("twice", {{"a", kFloat}}, kFloat, "return 2*a;");
       return call(f, lit(1));
     },
     "userfun twice: parameter a is float but the argument is int"},
    {"AddTuples", [] { return tuple({litF(1), litF(2)}) + litF(1); }, "add: expects numbers, got (float, float)"},
    {"CosComplex", [] { return cos(litComplex(1, 0)); }, "cos: expects a real, got complex<double>"},
    {"ReOfReal", [] { return re(litF(1)); }, "re: expects a complex, got float"},
    {"ConjOfInt", [] { return conj(lit(1)); }, "conj: expects a complex, got int"},
    {"ModComplex", [] { return litComplex(1, 0) % litComplex(1, 0); }, "mod: not defined on complex"},
    {"IterateChangesType",
     [] { return iterate(2, map(fun([](ExprPtr v) { return tuple({v, v}); }))) << vec("a", 4); },
     "iterate: the function maps [float]4 to [(float, float)]4"},
    // The index named is the first one that fails, not the largest (one proof for the largest
    // index covers the others only when it holds).
    {"GatherIndexBeyondTheArray",
     [] { return call(Gather::make({3, 9, 1, 12}), vec("a", 8)); },
     "gather: the index 9 is not provably below the size 8 of the array"},
    {"GatherIndexBeyondASymbolicSize",
     [] {
       ArithExpr n = ArithExpr::sizeVar("N");
       return call(Gather::make({0, 2, 1}), param("a", Type::array(kFloat, n + 1)));
     },
     "gather: the index 2 is not provably below the size"},
    {"SlideWindowTooLarge", [] { return slide(5, 1) << vec("a", 4); },
     "slide(5, 1): the window 5 is larger than the array (4)"},
    {"PadConstantType", [] { return pad(1, 1, lit(0)) << vec("a", 4); },
     "pad: the constant is int but the elements are float"},
    {"PadWrapEmpty", [] { return pad(1, 1, PadBoundary::Wrap) << vec("a", 0); },
     "pad: wrap needs a non-empty array"},
    {"UntypedFreeParam", [] { return map(neg()) << param("x"); },
     "parameter x is used outside its function or has no type"},
    {"LambdaArity", [] { return call(fun([](ExprPtr a, ExprPtr b) { return a + b; }), lit(1), lit(2), lit(3)); },
     "fun: expects 2 arguments, got 3 arguments"},
    {"AnnotatedParam",
     [] { return map(lambda({param("v", kInt)}, lit(1))) << vec("a", 4); },
     "parameter v is declared int but the argument is float"},
    {"GeneratorArity", [] { return array(4, fun([](ExprPtr i) { return i; })); },
     "fun: expects 1 argument, got 2 arguments (int, int)"},
    {"DimensionOutOfRange", [] { return mapGlobal(3, neg()) << vec("a", 4); },
     "mapGlobal: dimension 3 is not 0, 1 or 2"},
    {"SplitZero", [] { return split(0) << vec("a", 4); }, "split(0): the chunk size must be positive"},
    {"IterateNegative", [] { return iterate(-1, id()) << vec("a", 4); }, "iterate: the count -1 is negative"},
    {"NegativePad", [] { return pad(-1, 0, PadBoundary::Clamp) << vec("a", 4); }, "pad: the padding -1 is negative"},
    {"CisPiOfComplex", [] { return cispi(litComplex(0, 1)); }, "cispi: expects a real"},
    {"ComplexOfTuple", [] { return complex(tuple({lit(1)}), lit(2)); }, "complex: expects two reals, got (int)"},
};

INSTANTIATE_TEST_SUITE_P(All, TypeErrors, ::testing::ValuesIn(kErrorCases),
                         [](const auto& p) { return std::string(p.param.name); });

TEST(TypeErrorLocation, TheFailingNodeIsBlamed) {
  SourceLoc loc{"fft.fdl", 12, 7};
  auto a = vec("a", 8);
  ExprPtr e = FunCall::make(Split::make(3, loc), {a}, loc);
  try {
    inferTypes(map(neg()) << e);
    FAIL();
  } catch (const CompileError& err) {
    EXPECT_EQ(err.loc().line, 12);
    EXPECT_EQ(err.loc().col, 7);
    EXPECT_STREQ(err.what(), "fft.fdl:12:7: error: split(3): 3 does not divide 8");
  }
}

}  // namespace
}  // namespace fftc::ir
