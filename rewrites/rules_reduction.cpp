// Rules that make a reduction parallel: split a reduction into partial reductions of chunks
// (LIFT's partial reduction), and move a map under a split so the chunks' maps fuse with them.
#include "ir/builders.h"
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;
using detail::unary;

namespace {

// The neutral element of an associative and commutative builtin at a scalar type: 0 for add,
// 1 for mult; null for anything else (a lambda's associativity cannot be checked).
ExprPtr neutralOf(const FunDecl& f, const Type& t) {
  const auto* b = f.as<Builtin>();
  if (!b || !(t.isScalar() || t.isComplex())) return nullptr;
  double one;
  if (b->op() == BuiltinOp::Add)
    one = 0;
  else if (b->op() == BuiltinOp::Mul)
    one = 1;
  else
    return nullptr;
  if (t.isInt()) return Literal::makeInt(static_cast<int64_t>(one));
  if (t.isComplex()) return Literal::makeComplex(one, 0, t.scalarKind());
  return Literal::makeReal(one, t.scalarKind());
}

}  // namespace

// reduce(f, z) <<: x -> reduce(f, z) <<: map(reduce(f, e)) <<: split(k) <<: x
// with e the neutral element of f. By associativity and commutativity of f,
//   z f x0 f ... f x(n-1) = z f (e f x0 f .. f x(k-1)) f ... f (e f x(n-k) f ... f x(n-1)).
// Floating-point sums are reassociated: the result differs by rounding only.
Rule splitReduce(ArithExpr k) {
  std::string name = "splitReduce(" + k.str() + ")";
  return Rule(
      {name, "algorithmic", "reduce(f, z) -> reduce(f, z) o map(reduce(f, e)) o split(k)",
       "f is add or mult (e: 0 or 1) on the scalar element type, which is the accumulator's; "
       "k > 1 divides the size n provably, k != n",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* r = unary<ir::Reduce>(e);
         if (!r || !r->f()->is<Builtin>()) return std::nullopt;
         Match m;
         m.funs = {{"reduce", r->ptr()}, {"f", r->f()}};
         m.exprs = {{"x", arg0(e)}, {"z", r->init()}};
         return m;
       },
       [k](const Match& m, const RuleContext&) {
         const Type& t = m.e("x")->type();
         if (!t.isArray() || !(m.root->type() == t.element())) return false;
         if (!neutralOf(*m.f("f"), t.element())) return false;
         return provablyPositive(k - 1) && provablyDivisible(t.size(), k) &&
                !sizesEqual(t.size(), k);
       },
       [k](const Match& m) -> ExprPtr {
         const Type elem = m.e("x")->type().element();
         FunPtr inner = ir::Reduce::make(m.f("f"), neutralOf(*m.f("f"), elem));
         ExprPtr chunks = FunCall::make(Split::make(k), {m.e("x")});
         FunPtr perChunk = lambda1("c", [&](const ExprPtr& c) { return FunCall::make(inner, {c}); });
         ExprPtr partials = FunCall::make(ir::Map::make(perChunk), {chunks});
         return FunCall::make(m.f("reduce"), {partials});
       }});
}

// split(k) <<: map(g) <<: x -> map(map(g)) <<: split(k) <<: x
// Element j of chunk i is g(x[i*k + j]) either way.
Rule splitMap() {
  return Rule({"splitMap", "algorithmic", "split(k) o map(g) -> map(map(g)) o split(k)",
               "the map is map (high-level)",
               [](const ExprPtr& e) -> std::optional<Match> {
                 if (!unary<Split>(e) || !unary<ir::Map>(arg0(e))) return std::nullopt;
                 Match m;
                 m.funs = {{"split", asCall(e)->f()}, {"map", asCall(arg0(e))->f()}};
                 m.exprs = {{"x", arg0(arg0(e))}};
                 return m;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 FunPtr mm = m.f("map");
                 FunPtr inner = lambda1("c", [&](const ExprPtr& c) { return FunCall::make(mm, {c}); });
                 ExprPtr chunks = FunCall::make(m.f("split"), {m.e("x")});
                 return FunCall::make(ir::Map::make(inner), {chunks});
               }});
}

}  // namespace fftc::rewrites::rules
