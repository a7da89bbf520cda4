// Rules that make a reduction parallel: split a reduction into partial reductions of chunks
// (LIFT's partial reduction), and move a map under a split so the chunks' maps fuse with them.
#include "ir/builders.h"
#include "rewrites/fold_closed.h"
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

namespace {

// The side condition of the partial reductions: f is add or mult on the element type of x,
// which is the accumulator's type; k > 1 provably divides the size of x and is not all of it.
bool partialReductionApplies(const Match& m, const ArithExpr& k) {
  const Type& t = m.e("x")->type();
  if (!t.isArray() || !(m.root->type() == t.element())) return false;
  if (!neutralOf(*m.f("f"), t.element())) return false;
  return provablyPositive(k - 1) && provablyDivisible(t.size(), k) && !sizesEqual(t.size(), k);
}

// c => reduce(f, e) <<: c, with e the neutral element of f at `elem`
FunPtr chunkReduction(const FunPtr& f, const Type& elem) {
  FunPtr inner = ir::Reduce::make(f, neutralOf(*f, elem));
  return lambda1("c", [&](const ExprPtr& c) { return FunCall::make(inner, {c}); });
}

// transpose <<: split(n/k) <<: x: n/k rows of k elements, row i = x[i], x[i + n/k], ...
ExprPtr stridedRows(const ExprPtr& x, const ArithExpr& k) {
  const ArithExpr rows = x->type().size() / k;
  return FunCall::make(Transpose::make(), {FunCall::make(Split::make(rows), {x})});
}

}  // namespace

// reduce(f, z) <<: x -> reduce(f, z) <<: map(reduce(f, e)) <<: transpose <<: split(n/k) <<: x
// LIFT's reorderStride under a partial reduction: partial i reduces x[i], x[i + n/k], ...,
// x[i + (k-1) n/k]. The partials cover every element once, so by associativity and
// commutativity of f the total is the same (up to rounding for floats); once the map is
// parallel, consecutive work-items read consecutive elements at every step (coalesced), where
// splitReduce's chunks put them k elements apart.
Rule splitStrideReduce(ArithExpr k) {
  std::string name = "splitStrideReduce(" + k.str() + ")";
  return Rule(
      {name, "algorithmic",
       "reduce(f, z) -> reduce(f, z) o map(reduce(f, e)) o transpose o split(n/k)",
       "as splitReduce(k): f is add or mult (e: 0 or 1) on the element type, which is the "
       "accumulator's; k > 1 divides the size n provably, k != n",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* r = unary<ir::Reduce>(e);
         if (!r || !r->f()->is<Builtin>()) return std::nullopt;
         Match m;
         m.funs = {{"reduce", r->ptr()}, {"f", r->f()}};
         m.exprs = {{"x", arg0(e)}, {"z", r->init()}};
         return m;
       },
       [k](const Match& m, const RuleContext&) { return partialReductionApplies(m, k); },
       [k](const Match& m) -> ExprPtr {
         const Type elem = m.e("x")->type().element();
         FunPtr perChunk = chunkReduction(m.f("f"), elem);
         ExprPtr partials = FunCall::make(ir::Map::make(perChunk), {stridedRows(m.e("x"), k)});
         return FunCall::make(m.f("reduce"), {partials});
       }});
}

// reduce(f, z) <<: map(g) <<: y -> reduce(f, z) <<: map(fun c => reduce(f, e) <<: map(g) <<: c)
//                                   <<: split(k) <<: y
// splitReduce(k), splitMap and mapFusion in one step: chunk i reduces g of y's elements
// i*k .. i*k + k-1. Lowered with the chunk map on work-groups, the map over a chunk is spread
// over the group's work-items (mapLocal) and the chunk's reduction sums their results in local
// memory: the work-group level of a parallel reduction (the map's elements being the strided
// partial sums of splitStrideReduce).
Rule splitReduceMap(ArithExpr k) {
  std::string name = "splitReduceMap(" + k.str() + ")";
  return Rule(
      {name, "algorithmic",
       "reduce(f, z) o map(g) -> reduce(f, z) o map(reduce(f, e) o map(g)) o split(k)",
       "the map is map (high-level); f is add or mult (e: 0 or 1) on the map's element type, "
       "which is the accumulator's; k > 1 divides the size n provably, k != n",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* r = unary<ir::Reduce>(e);
         if (!r || !r->f()->is<Builtin>() || !unary<ir::Map>(arg0(e))) return std::nullopt;
         Match m;
         m.funs = {{"reduce", r->ptr()}, {"f", r->f()}, {"map", asCall(arg0(e))->f()}};
         m.exprs = {{"x", arg0(e)}, {"y", arg0(arg0(e))}, {"z", r->init()}};
         return m;
       },
       [k](const Match& m, const RuleContext&) { return partialReductionApplies(m, k); },
       [k](const Match& m) -> ExprPtr {
         const Type elem = m.e("x")->type().element();
         FunPtr inner = ir::Reduce::make(m.f("f"), neutralOf(*m.f("f"), elem));
         FunPtr mm = m.f("map");
         FunPtr perChunk = lambda1("c", [&](const ExprPtr& c) {
           return FunCall::make(inner, {FunCall::make(mm, {c})});
         });
         ExprPtr chunks = FunCall::make(Split::make(k), {m.e("y")});
         return FunCall::make(m.f("reduce"), {FunCall::make(ir::Map::make(perChunk), {chunks})});
       }});
}

// map(f) <<: x -> join <<: transpose <<: map(map(f)) <<: transpose <<: split(n/k) <<: x
// Thread coarsening with coalesced accesses: row i of transpose(split(n/k, x)) holds x[i],
// x[i + n/k], ..., x[i + (k-1) n/k]; mapping f over it and writing back through transpose and
// join puts f(x[j]) at j again. Lowered, the n/k rows are the work-items and each maps f over
// its k elements sequentially: k independent loads in flight per work-item, and at each step
// consecutive work-items touch consecutive elements.
Rule splitStrideMap(ArithExpr k) {
  std::string name = "splitStrideMap(" + k.str() + ")";
  return Rule(
      {name, "algorithmic", "map(f) -> join o transpose o map(map(f)) o transpose o split(n/k)",
       "the map is map (high-level); k > 1 divides the size n provably, k != n",
       detail::matchMapCall,
       [k](const Match& m, const RuleContext&) {
         const Type& t = m.e("x")->type();
         return t.isArray() && provablyPositive(k - 1) && provablyDivisible(t.size(), k) &&
                !sizesEqual(t.size(), k);
       },
       [k](const Match& m) -> ExprPtr {
         FunPtr mm = m.f("map");
         FunPtr inner = lambda1("c", [&](const ExprPtr& c) { return FunCall::make(mm, {c}); });
         ExprPtr rows = FunCall::make(ir::Map::make(inner), {stridedRows(m.e("x"), k)});
         return FunCall::make(Join::make(), {FunCall::make(Transpose::make(), {rows})});
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

// reduce(add, z) <<: map(mult) <<: zip(w, y)
//   -> reduce(add, z) <<: map(mult) <<: zip(gather(K) <<: w, gather(K) <<: y)
// with w closed (a constant array: a generator, a table) and K the indices of its elements
// that are not zero at compile time (likewise zip(y, w)). The dropped terms are 0 * y_k: for
// finite y_k that is +0 or -0, and adding it leaves the sum as it is, up to the sign of a zero
// sum; for an infinite or NaN y_k it is NaN, which the rewritten sum does not see (the rule
// assumes finite values, as -ffinite-math-only does). A stencil's zero weights (the 5-point
// cross in a 3 x 3 window) go from the unrolled code, and a loop over the rest is shorter.
Rule dropZeroTerms() {
  return Rule(
      {"dropZeroTerms", "algorithmic",
       "reduce(add, z) o map(mult) o zip(w, y) -> reduce(add, z) o map(mult) o zip(gather(K) "
       "<<: w, gather(K) <<: y), K the indices of w's non-zero elements",
       "w is closed and constant (its value is computed at compile time, at most 2^16 "
       "elements of reals or complex numbers) and has a zero and a non-zero element; y's "
       "elements are finite (0 * inf is NaN)",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* r = unary<ir::Reduce>(e);
         const auto* add = r ? r->f()->as<Builtin>() : nullptr;
         if (!add || add->op() != BuiltinOp::Add) return std::nullopt;
         const auto* m = unary<ir::Map>(arg0(e));
         const auto* mult = m ? m->f()->as<Builtin>() : nullptr;
         if (!mult || mult->op() != BuiltinOp::Mul) return std::nullopt;
         const auto* zip = asCall(arg0(arg0(e)));
         if (!zip || !zip->f()->is<Zip>() || zip->args().size() != 2) return std::nullopt;
         constexpr int64_t kMostWeights = int64_t{1} << 16;
         for (size_t side = 0; side < 2; ++side) {
           const ExprPtr& w = zip->arg(side);
           const Type& t = w->type();
           if (!t || !t.isArray() || !(t.element().isReal() || t.element().isComplex())) continue;
           auto values = closedValue(w, kMostWeights);
           if (!values) continue;
           std::vector<int64_t> kept;
           for (size_t i = 0; i < values->size(); ++i)
             if ((*values)[i] != std::complex<double>(0)) kept.push_back(static_cast<int64_t>(i));
           if (kept.empty() || kept.size() == values->size()) continue;
           FunPtr nonZero = Gather::make(std::move(kept));
           ExprPtr keptW = FunCall::make(nonZero, {w});
           ExprPtr keptY = FunCall::make(nonZero, {zip->arg(1 - side)});
           Match mt;
           mt.funs = {{"reduce", r->ptr()}, {"map", m->ptr()}, {"zip", zip->f()}};
           mt.exprs = {{"a", side == 0 ? keptW : keptY}, {"b", side == 0 ? keptY : keptW}};
           return mt;
         }
         return std::nullopt;
       },
       nullptr,
       [](const Match& m) -> ExprPtr {
         ExprPtr zipped = FunCall::make(m.f("zip"), {m.e("a"), m.e("b")});
         return FunCall::make(m.f("reduce"), {FunCall::make(m.f("map"), {zipped})});
       }});
}

}  // namespace fftc::rewrites::rules
