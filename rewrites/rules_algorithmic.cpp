// Algorithmic rules: fusion and fission, split-join, layout identities, map interchange, and
// the two rules section 4 of the LIFT FFT paper compiles a Stockham pass with.
#include "ir/builders.h"
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;
using detail::innerMap;
using detail::isCallOf;
using detail::unary;

namespace {

bool sequentialMap(FunKind k) {
  return k == FunKind::Map || k == FunKind::MapSeq;
}

FunPtr remakeMap(const FunPtr& m, FunPtr f) {
  return m->withChildren({std::move(f)}, {});
}

}  // namespace

// map(f) o map(g) -> map(fun x => f(g(x)))   (both map, or both mapSeq)
Rule mapFusion() {
  return Rule({"mapFusion", "algorithmic", "map(f) o map(g) -> map(f o g)",
               "both maps of one kind (map or mapSeq)",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* outer = unary<AbstractMap>(e);
                 if (!outer || !sequentialMap(outer->kind())) return std::nullopt;
                 const auto* inner = unary<AbstractMap>(arg0(e));
                 if (!inner || inner->kind() != outer->kind()) return std::nullopt;
                 Match m;
                 m.funs = {{"outer", outer->ptr()}, {"f", outer->f()}, {"g", inner->f()}};
                 m.exprs = {{"x", arg0(arg0(e))}};
                 return m;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 FunPtr fg = lambda1("x", [&](const ExprPtr& x) {
                   return applyFun(m.f("f"), {applyFun(m.f("g"), {x})});
                 });
                 return FunCall::make(remakeMap(m.f("outer"), fg), {m.e("x")});
               }});
}

// map(fun x => f(e)) -> map(f) o map(fun x => e)   when x is not free in f and e is not x
Rule mapFission() {
  return Rule({"mapFission", "algorithmic", "map(fun x => f(e)) -> map(f) o map(fun x => e)",
               "x not free in f; e mentions x and is not x itself",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* m = unary<ir::Map>(e);
                 if (!m) return std::nullopt;
                 const auto* l = m->f()->as<Lambda>();
                 if (!l) return std::nullopt;
                 const auto* body = asCall(l->body());
                 if (!body || body->args().size() != 1) return std::nullopt;
                 const ExprPtr& inner = body->arg(0);
                 if (usesAny(body->f(), l->params()) || !usesAny(inner, l->params()))
                   return std::nullopt;
                 if (inner->is<Param>()) return std::nullopt;
                 Match r;
                 r.funs = {{"f", body->f()}};
                 r.exprs = {{"e", inner}, {"x", arg0(e)}};
                 r.params = l->params();
                 return r;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 ExprPtr first =
                     FunCall::make(ir::Map::make(Lambda::make(m.params, m.e("e"))), {m.e("x")});
                 return FunCall::make(ir::Map::make(etaFun(m.f("f"))), {first});
               }});
}

// map(f) -> join o map(map(f)) o split(k)
Rule splitJoin(ArithExpr k) {
  std::string name = "splitJoin(" + k.str() + ")";
  return Rule(
      {name, "algorithmic", "map(f) -> join o map(map(f)) o split(k)",
       "k > 0 divides the array size n (provably)",
       detail::matchMapCall,
       [k](const Match& m, const RuleContext&) {
         const Type& t = m.e("x")->type();
         return provablyPositive(k) && t.isArray() && provablyDivisible(t.size(), k);
       },
       [k](const Match& m) -> ExprPtr {
         FunPtr mm = m.f("map");
         ExprPtr chunks = FunCall::make(Split::make(k), {m.e("x")});
         FunPtr inner = lambda1("c", [&](const ExprPtr& c) { return FunCall::make(mm, {c}); });
         return FunCall::make(Join::make(), {FunCall::make(ir::Map::make(inner), {chunks})});
       }});
}

// join o map(map(f)) o split(k) -> map(f)
Rule joinSplit() {
  return Rule({"joinSplit", "algorithmic", "join o map(map(f)) o split(k) -> map(f)",
               "the sizes agree (k divides n provably)",
               [](const ExprPtr& e) -> std::optional<Match> {
                 if (!isCallOf(e, FunKind::Join)) return std::nullopt;
                 const auto* outer = unary<ir::Map>(arg0(e));
                 if (!outer) return std::nullopt;
                 FunPtr inner = innerMap(outer->f(), FunKind::Map);
                 if (!inner || !isCallOf(arg0(arg0(e)), FunKind::Split)) return std::nullopt;
                 Match m;
                 m.funs = {{"inner", inner}};
                 m.exprs = {{"x", arg0(arg0(arg0(e)))}};
                 return m;
               },
               [](const Match& m, const RuleContext&) {
                 return sizesEqual(m.root->type().size(), m.e("x")->type().size());
               },
               [](const Match& m) -> ExprPtr { return FunCall::make(m.f("inner"), {m.e("x")}); }});
}

// transpose o transpose -> id
Rule transposeTransposeId() {
  return Rule({"transposeTransposeId", "algorithmic", "transpose o transpose -> id", "",
               [](const ExprPtr& e) -> std::optional<Match> {
                 if (!isCallOf(e, FunKind::Transpose) || !isCallOf(arg0(e), FunKind::Transpose))
                   return std::nullopt;
                 Match m;
                 m.exprs = {{"x", arg0(arg0(e))}};
                 return m;
               },
               nullptr, [](const Match& m) -> ExprPtr { return m.e("x"); }});
}

// join o split(k) -> id
Rule joinSplitId() {
  return Rule({"joinSplitId", "algorithmic", "join o split(k) -> id",
               "k divides the size of x (provably)",
               [](const ExprPtr& e) -> std::optional<Match> {
                 if (!isCallOf(e, FunKind::Join) || !isCallOf(arg0(e), FunKind::Split))
                   return std::nullopt;
                 Match m;
                 m.exprs = {{"x", arg0(arg0(e))}};
                 return m;
               },
               [](const Match& m, const RuleContext&) {
                 return sizesEqual(m.root->type().size(), m.e("x")->type().size());
               },
               [](const Match& m) -> ExprPtr { return m.e("x"); }});
}

// split(k) o join -> id   when x: [[a]k]n
Rule splitJoinId() {
  return Rule({"splitJoinId", "algorithmic", "split(k) o join -> id", "the inner size of x is k",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* s = unary<Split>(e);
                 if (!s || !isCallOf(arg0(e), FunKind::Join)) return std::nullopt;
                 // asVector(k) o asScalar, split(k) o join; not asVector(k) o join
                 if (s->vector() != asCall(arg0(e))->f()->as<Join>()->scalar())
                   return std::nullopt;
                 Match m;
                 m.exprs = {{"x", arg0(arg0(e))}};
                 m.sizes = {{"k", s->chunk()}};
                 return m;
               },
               [](const Match& m, const RuleContext&) {
                 const Type& t = m.e("x")->type();
                 return t.isArray() && t.element().isArray() &&
                        sizesEqual(t.element().size(), m.n("k"));
               },
               [](const Match& m) -> ExprPtr { return m.e("x"); }});
}

// map(map(f)) -> transpose o map(map(f)) o transpose
Rule mapMapInterchange() {
  return Rule({"mapMapInterchange", "algorithmic",
               "map(map(f)) -> transpose o map(map(f)) o transpose",
               "the inner map's function does not mention the outer map's parameter",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* outer = unary<ir::Map>(e);
                 if (!outer || !innerMap(outer->f(), FunKind::Map)) return std::nullopt;
                 Match m;
                 m.funs = {{"mm", outer->ptr()}};
                 m.exprs = {{"x", arg0(e)}};
                 return m;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 ExprPtr t = FunCall::make(Transpose::make(), {m.e("x")});
                 return FunCall::make(Transpose::make(), {FunCall::make(m.f("mm"), {t})});
               }});
}

// reduce(f, z) o map(g) -> reduceSeq(fun (acc, x) => f(acc, g(x)), z)
Rule reduceMapFusion() {
  return Rule({"reduceMapFusion", "algorithmic",
               "reduce(f, z) o map(g) -> reduceSeq(fun (acc, x) => f(acc, g(x)), z)",
               "the map is map, mapSeq or mapSeqUnroll; reduceSeqUnroll stays unrolled, reduceSeqPrefetch as it is",
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* r = unary<AbstractReduce>(e);
                 if (!r) return std::nullopt;
                 // a reduceSeqPrefetch's step starts with its element's copies: left as it is
                 if (const auto* seq = dynamic_cast<const ReduceSeq*>(r); seq && seq->prefetch())
                   return std::nullopt;
                 const auto* m = unary<AbstractMap>(arg0(e));
                 if (!m || m->dim() >= 0) return std::nullopt;
                 Match out;
                 out.funs = {{"reduce", r->ptr()}, {"f", r->f()}, {"g", m->f()}};
                 out.exprs = {{"z", r->init()}, {"x", arg0(arg0(e))}};
                 return out;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 ParamPtr acc = Param::make("acc"), x = Param::make("x");
                 ExprPtr body = applyFun(m.f("f"), {acc, applyFun(m.f("g"), {x})});
                 LambdaPtr f = Lambda::make({acc, x}, body);
                 FunPtr red = m.f("reduce")->kind() == FunKind::ReduceSeqUnroll
                                  ? FunPtr(ReduceSeqUnroll::make(f, m.e("z")))
                                  : FunPtr(ReduceSeq::make(f, m.e("z")));
                 return FunCall::make(red, {m.e("x")});
               }});
}

// The paper's rule (section 4), with the zipped row computed from the row (d(x)) and the
// rows' common partner y:
//   map(fun x => g(map(f)(zip(d(x), y)))) <<: xs          xs: [t]n, d(x): [a]m, y: [b]m
//   -> map(g) <<: split(m) <<: map(f) <<: zip(join(map(fun x => d(x)) <<: xs),
//                                             pad(0, (n-1)*m, wrap, y))
// Element i*m+j of the padded y is y[(i*m+j) mod m] = y[j]: each row meets all of y again.
// g is a chain of unary functions not mentioning x (possibly empty); zip may have more
// arguments, all but one independent of x.
namespace {
Rule mapZipFlattenRule(bool viewsOnly) {
  return Rule(
      {viewsOnly ? "mapZipFlattenViews" : "mapZipFlatten", "algorithmic",
       "map(fun x => g(map(f)(zip(d(x), y)))) -> map(g) o split(m) o map(f) o "
       "zip(join(map(fun x => d(x))(xs)), pad(0, (n-1)*m, wrap, y))",
       std::string("x not free in g, f, y; n > 0 rows, m > 0 elements per row") +
           (viewsOnly ? "; g only rearranges data" : ""),
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* outer = unary<ir::Map>(e);
         if (!outer) return std::nullopt;
         const auto* l = outer->f()->as<Lambda>();
         if (!l) return std::nullopt;
         const auto& ps = l->params();
         Match m;
         ExprPtr cur = l->body();
         for (int guard = 0; guard < 64; ++guard) {
           const auto* c = asCall(cur);
           if (!c || c->args().size() != 1 || usesAny(c->f(), ps)) return std::nullopt;
           if (c->f()->kind() == FunKind::Map) {
             const auto* z = asCall(c->arg(0));
             if (z && z->f()->kind() == FunKind::Zip) {
               std::vector<size_t> dep;
               for (size_t i = 0; i < z->args().size(); ++i)
                 if (usesAny(z->arg(i), ps)) dep.push_back(i);
               if (dep.size() == 1) {
                 m.index = dep[0];
                 m.funs = {{"mapf", c->f()}};
                 m.exprs = {{"zip", c->arg(0)}, {"xs", arg0(e)}};
                 m.params = ps;
                 m.sizes = {{"n", arg0(e)->type().size()}, {"m", z->arg(dep[0])->type().size()}};
                 return m;
               }
             }
           }
           m.spine.push_back(c->f());
           cur = c->arg(0);
         }
         return std::nullopt;
       },
       [viewsOnly](const Match& m, const RuleContext&) {
         if (viewsOnly)
           for (const auto& g : m.spine)
             if (!ir::isView(*g)) return false;
         return provablyPositive(m.n("n")) && provablyPositive(m.n("m"));
       },
       [](const Match& m) -> ExprPtr {
         const auto* z = m.e("zip")->as<FunCall>();
         const ArithExpr &n = m.n("n"), &mm = m.n("m");
         const ExprPtr& d = z->arg(m.index);
         ExprPtr rows = m.params.size() == 1 && d == m.params[0]
                            ? m.e("xs")
                            : FunCall::make(ir::Map::make(Lambda::make(m.params, d)), {m.e("xs")});
         std::vector<ExprPtr> zargs;
         for (size_t i = 0; i < z->args().size(); ++i) {
           if (i == m.index) {
             zargs.push_back(FunCall::make(Join::make(), {rows}));
           } else {
             FunPtr p = Pad::make(0, (n - 1) * mm, PadBoundary::Wrap);
             zargs.push_back(FunCall::make(p, {z->arg(i)}));
           }
         }
         ExprPtr flat = FunCall::make(m.f("mapf"), {FunCall::make(z->f(), zargs)});
         ExprPtr res = FunCall::make(Split::make(mm), {flat});
         if (m.spine.empty()) return res;
         FunPtr g = lambda1("c", [&](const ExprPtr& c) {
           ExprPtr x = c;
           for (size_t i = m.spine.size(); i-- > 0;) x = FunCall::make(m.spine[i], {x});
           return x;
         });
         return FunCall::make(ir::Map::make(g), {res});
       }});
}

}  // namespace

Rule mapZipFlatten() {
  return mapZipFlattenRule(false);
}
Rule mapZipFlattenViews() {
  return mapZipFlattenRule(true);
}

}  // namespace fftc::rewrites::rules
