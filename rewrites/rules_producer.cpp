// mapIntoProducer: a map over a permutation view of a computing map's result (zipped, maybe,
// with arrays of the same length) moved into that map's function, so that the pointwise work
// after an FFT pass is done where the pass computes its outputs instead of in a loop of its own.
#include <functional>

#include "ir/beta_reduce.h"
#include "ir/builders.h"
#include "ir/infer.h"
#include "ir/interpreter.h"
#include "ir/substitute.h"
#include "ir/view_predicates.h"
#include "rewrites/match_util.h"
#include "rewrites/rules.h"

namespace fftc::rewrites::rules {

using namespace ir;
using detail::arg0;
using detail::asCall;

namespace {

// A view with an inverse this rule builds: join, split, transpose, id, a map of one, or a
// one-parameter Lambda whose body is a chain of such calls ending at the parameter.
bool invertibleView(const FunDecl& f) {
  switch (f.kind()) {
    case FunKind::Join:
      return !f.as<Join>()->scalar();
    case FunKind::Split:
      return !f.as<Split>()->vector();
    case FunKind::Transpose:
    case FunKind::Id:
      return true;
    case FunKind::Map:
      return invertibleView(*f.as<ir::Map>()->f());
    case FunKind::Lambda: {
      const auto* l = f.as<Lambda>();
      if (l->arity() != 1) return false;
      ExprPtr e = l->body();
      while (const auto* c = asCall(e)) {
        if (c->args().size() != 1 || !invertibleView(*c->f())) return false;
        e = c->arg(0);
      }
      return e == l->params()[0];
    }
    default:
      return false;
  }
}

// v^-1 applied to a, where v's argument had type `in` (so a has the type of v's result, its
// elements aside).
ExprPtr invertAt(const FunPtr& v, const Type& in, ExprPtr a) {
  switch (v->kind()) {
    case FunKind::Join:
      return FunCall::make(Split::make(in.element().size()), {std::move(a)});
    case FunKind::Split:
      return FunCall::make(Join::make(), {std::move(a)});
    case FunKind::Transpose:
      return FunCall::make(Transpose::make(), {std::move(a)});
    case FunKind::Id:
      return a;
    case FunKind::Map: {
      const FunPtr w = v->as<ir::Map>()->f();
      const Type el = in.element();
      FunPtr inv = lambda1("u", [&](const ExprPtr& u) { return invertAt(w, el, u); });
      return FunCall::make(ir::Map::make(inv), {std::move(a)});
    }
    default: {  // a Lambda (invertibleView): undo its body's calls, outermost first
      const auto* l = v->as<Lambda>();
      ExprPtr e = l->body();
      while (const auto* c = asCall(e)) {
        a = invertAt(c->f(), c->arg(0)->type(), std::move(a));
        e = c->arg(0);
      }
      return a;
    }
  }
}

// The calls of invertible views from e down to a computing map (map, mapSeq or mapSeqUnroll
// whose function is not a view), outermost first; false when e is not such a chain.
bool viewsOfProducer(const ExprPtr& e, std::vector<const FunCall*>& views,
                     const FunCall*& producer) {
  ExprPtr cur = e;
  for (int guard = 0; guard < 64; ++guard) {
    const auto* c = asCall(cur);
    if (!c || c->args().size() != 1) return false;
    const FunKind k = c->f()->kind();
    if ((k == FunKind::Map || k == FunKind::MapSeq || k == FunKind::MapSeqUnroll) &&
        !isView(*c->f())) {
      producer = c;
      return true;
    }
    if (!invertibleView(*c->f())) return false;
    views.push_back(c);
    cur = c->arg(0);
  }
  return false;
}

// v with its Lambdas' parameters untyped: the cells it permutes are f's results now, of
// another type maybe (inference types them again).
FunPtr untypedView(const FunPtr& v) {
  if (const auto* m = v->as<ir::Map>()) return ir::Map::make(untypedView(m->f()));
  const auto* l = v->as<Lambda>();
  if (!l) return v;
  ParamPtr p = Param::make(l->params()[0]->name());
  ExprPtr body = substitute(l->body(), {{l->params()[0].get(), p}});
  std::function<ExprPtr(const ExprPtr&)> walk = [&](const ExprPtr& e) -> ExprPtr {
    const auto* c = asCall(e);
    if (!c) return e;
    return FunCall::make(untypedView(c->f()), {walk(c->arg(0))});
  };
  return Lambda::make({p}, walk(body));
}

int arrayDepth(const Type& t) {
  int d = 0;
  for (const Type* u = &t; u->isArray(); u = &u->element()) ++d;
  return d;
}

// f over `parts` nested `depth` arrays deep: depth 0 is f(parts...), depth j a map over
// zip(parts) (or over the one part) of depth j-1.
ExprPtr zipDeep(const FunPtr& f, int depth, std::vector<ExprPtr> parts) {
  if (depth == 0) return applyFun(f, std::move(parts));
  std::vector<ParamPtr> ps;
  for (size_t i = 0; i < parts.size(); ++i) ps.push_back(Param::make("z"));
  FunPtr inner = depth == 1
                     ? f
                     : FunPtr(Lambda::make(
                           ps, zipDeep(f, depth - 1, std::vector<ExprPtr>(ps.begin(), ps.end()))));
  ExprPtr arg = parts.size() == 1 ? parts[0] : FunCall::make(Zip::make(parts.size()), parts);
  return FunCall::make(ir::Map::make(inner), {arg});
}

}  // namespace

// map(f) <<: V(mapK(g) <<: X)  ->  V(mapK(fun x => map^{d-1}(f)(g(x))) <<: X)
// map(f) <<: zip(.., V(mapK(g) <<: X), .., a, ..)
//   -> V(mapK(fun (x, y) => zip^{d-1}(f)(.., g(x), .., y, ..)) <<: zip(X, V^-1(a)))
// V a chain of invertible views (join, split, transpose, maps of them), mapK a computing map,
// its result d arrays deep with V(result) a [E]n of a non-array E. V only permutes the cells
// of mapK's result, so map(f) o V = V o map^d(f), and element j of a meets element V^-1(j)
// of the result: a read through V^-1 lines up with it. mapK keeps its kind.
Rule mapIntoProducer() {
  return Rule(
      {"mapIntoProducer", "algorithmic",
       "map(f) o [zip(..,] V(mapK(g)(X)) [, a, ..)] -> V(mapK(fun (x, y) => "
       "zip^{d-1}(f)(g(x), y))(zip(X, V^-1(a))))",
       "V join/split/transpose/maps of them; mapK map, mapSeq or mapSeqUnroll of a function "
       "that computes; the elements f sees are not arrays; f takes as many arguments as zip "
       "has, when the result's elements are scalars",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* outer = detail::unary<ir::Map>(e);
         if (!outer || isView(*outer->f())) return std::nullopt;
         const ExprPtr& in = arg0(e);
         if (!in->type().isArray() || in->type().element().isArray()) return std::nullopt;
         const auto* z = asCall(in);
         std::vector<ExprPtr> parts = {in};
         if (z && z->f()->kind() == FunKind::Zip) parts = z->args();
         for (size_t i = 0; i < parts.size(); ++i) {
           std::vector<const FunCall*> views;
           const FunCall* producer = nullptr;
           if (!parts[i]->type().isArray() || parts[i]->type().element().isArray() ||
               !viewsOfProducer(parts[i], views, producer))
             continue;
           Match m;
           m.index = i;
           m.funs = {{"f", outer->f()}, {"mapK", producer->f()}};
           m.exprs = {{"x", producer->arg(0)}, {"in", in}, {"part", parts[i]}};
           return m;
         }
         return std::nullopt;
       },
       [](const Match& m, const RuleContext&) {
         // the producer's result, d deep, of non-array cells
         std::vector<const FunCall*> views;
         const FunCall* producer = nullptr;
         viewsOfProducer(m.e("part"), views, producer);
         const Type& pt = views.empty() ? m.e("part")->type() : views.back()->arg(0)->type();
         const int d = arrayDepth(pt);
         if (d < 1) return false;
         const auto* z = m.e("in")->as<FunCall>();
         const size_t k = z && z->f()->kind() == FunKind::Zip ? z->args().size() : 1;
         return d > 1 || k == 1 || m.f("f")->arity() == k;
       },
       [](const Match& m) -> ExprPtr {
         std::vector<const FunCall*> views;
         const FunCall* producer = nullptr;
         viewsOfProducer(m.e("part"), views, producer);
         const Type& pt = views.empty() ? m.e("part")->type() : views.back()->arg(0)->type();
         const int d = arrayDepth(pt);
         const FunPtr& g = m.f("mapK");
         const FunPtr gf = g->funChildren().at(0);
         const auto* z = m.e("in")->as<FunCall>();
         std::vector<ExprPtr> others;  // the zip's other arrays, read through V^-1
         if (z && z->f()->kind() == FunKind::Zip)
           for (size_t i = 0; i < z->args().size(); ++i) {
             if (i == m.index) continue;
             ExprPtr a = z->arg(i);
             for (const FunCall* v : views) a = invertAt(v->f(), v->arg(0)->type(), a);
             others.push_back(a);
           }
         // the producer's own elements: a zip's arrays side by side, or X
         const ExprPtr& x = m.e("x");
         const auto* xz = asCall(x);
         std::vector<ExprPtr> xs = {x};
         if (xz && xz->f()->kind() == FunKind::Zip && gf->arity() == xz->args().size())
           xs = xz->args();
         std::vector<ParamPtr> ps;
         for (size_t i = 0; i < xs.size(); ++i) ps.push_back(Param::make("x"));
         std::vector<ParamPtr> ys;
         for (size_t i = 0; i < others.size(); ++i) ys.push_back(Param::make("y"));
         std::vector<ExprPtr> gArgs(ps.begin(), ps.end());
         std::vector<ExprPtr> parts;
         for (size_t i = 0, o = 0; i < others.size() + 1; ++i)
           parts.push_back(i == m.index ? applyFun(gf, gArgs) : ExprPtr(ys[o++]));
         std::vector<ParamPtr> all = ps;
         all.insert(all.end(), ys.begin(), ys.end());
         LambdaPtr body = Lambda::make(all, zipDeep(m.f("f"), d - 1, parts));
         std::vector<ExprPtr> zipped = xs;
         zipped.insert(zipped.end(), others.begin(), others.end());
         ExprPtr arg =
             zipped.size() == 1 ? zipped[0] : FunCall::make(Zip::make(zipped.size()), zipped);
         ExprPtr r = FunCall::make(g->withChildren({body}, {}), {arg});
         for (size_t i = views.size(); i-- > 0;) r = FunCall::make(untypedView(views[i]->f()), {r});
         return r;
       }});
}

namespace {

// t with its innermost non-array element replaced by int.
std::optional<Type> cellsOfInts(const Type& t) {
  if (!t.isArray()) return Type::intType();
  const auto n = t.size().constant();
  auto el = cellsOfInts(t.element());
  if (!n || !el) return std::nullopt;
  return Type::array(*el, *n);
}

// The cells of t numbered 0, 1, ... in row-major order.
ir::Value numbered(const Type& t, int64_t& next) {
  if (!t.isArray()) return ir::Value::ofInt(next++);
  std::vector<ir::Value> els;
  for (int64_t i = 0; i < *t.size().constant(); ++i) els.push_back(numbered(t.element(), next));
  return ir::Value::array(std::move(els));
}

int64_t cellCount(const Type& t) {
  return t.isArray() ? *t.size().constant() * cellCount(t.element()) : 1;
}

// Whether the views (outermost first, each applied to the next's result, the last to a value
// of type t) compose to the identity on t: evaluated on t's cells numbered (constant sizes, at
// most 2^16 cells).
bool identityOn(const std::vector<const FunCall*>& views, const Type& t) {
  if (views.empty()) return true;
  auto ints = cellsOfInts(t);
  if (!ints || cellCount(*ints) > (1 << 16)) return false;
  ParamPtr p = Param::make("p", *ints);
  ExprPtr e = p;
  for (size_t i = views.size(); i-- > 0;) e = FunCall::make(untypedView(views[i]->f()), {e});
  try {
    const auto f = inferTypes(Lambda::make({p}, e));
    if (!(f->as<Lambda>()->body()->type() == *ints)) return false;
    int64_t next = 0;
    const ir::Value in = numbered(*ints, next);
    return ir::interpretCall(f, {in}) == in;
  } catch (const std::exception&) {
    return false;
  }
}

struct ZipFusionSite {
  size_t index = 0;
  std::vector<const FunCall*> views;
  const FunCall* producer = nullptr;
};

std::optional<ZipFusionSite> zipFusionSite(const ExprPtr& e) {
  const auto* outer = detail::unary<ir::Map>(e);
  if (!outer || isView(*outer->f())) return std::nullopt;
  const ExprPtr& in = arg0(e);
  const auto* z = asCall(in);
  std::vector<ExprPtr> parts = {in};
  if (z && z->f()->kind() == FunKind::Zip) parts = z->args();
  if (parts.size() > 1 && outer->f()->arity() != parts.size() && outer->f()->arity() != 1)
    return std::nullopt;
  for (size_t i = 0; i < parts.size(); ++i) {
    ZipFusionSite s;
    s.index = i;
    if (!viewsOfProducer(parts[i], s.views, s.producer)) continue;
    if (s.views.empty() || identityOn(s.views, s.views.back()->arg(0)->type())) return s;
  }
  return std::nullopt;
}

}  // namespace

// map(f) <<: zip(.., U(mapK(g) <<: X), .., a, ..)
//   -> map(fun (x, .., y, ..) => f(.., g(x), .., y, ..)) <<: zip(X, .., a, ..)
// U a chain of permutation views (maybe none) whose composition is the identity on mapK's
// result (evaluated on its cells: constant sizes): element j of U's result is element j of
// mapK's, so this is map fusion through the zip. Between an FFT's last Stockham pass (radix r,
// outputs k·n/r + j of butterfly j) and a next FFT's first pass of the same radix (inputs j + k·n/r
// of butterfly j) the views are such an identity: the two butterflies become one work-item's, in
// registers.
Rule mapZipFusion() {
  return Rule(
      {"mapZipFusion", "algorithmic",
       "map(f) o zip(.., U(mapK(g)(X)), .., a) -> map(fun (x, y) => f(g(x), y)) o zip(X, a)",
       "U join/split/transpose/maps of them composing to the identity on mapK's result "
       "(constant sizes, at most 2^16 cells); mapK map, mapSeq or mapSeqUnroll of a function "
       "that computes",
       [](const ExprPtr& e) -> std::optional<Match> {
         auto site = zipFusionSite(e);
         if (!site) return std::nullopt;
         Match m;
         m.index = site->index;
         m.funs = {{"f", detail::unary<ir::Map>(e)->f()}, {"mapK", site->producer->f()}};
         m.exprs = {{"x", site->producer->arg(0)}, {"in", arg0(e)}};
         return m;
       },
       nullptr,
       [](const Match& m) -> ExprPtr {
         const FunPtr gf = m.f("mapK")->funChildren().at(0);
         const auto* z = m.e("in")->as<FunCall>();
         std::vector<ExprPtr> others;
         if (z && z->f()->kind() == FunKind::Zip)
           for (size_t i = 0; i < z->args().size(); ++i)
             if (i != m.index) others.push_back(z->arg(i));
         const ExprPtr& x = m.e("x");
         const auto* xz = asCall(x);
         std::vector<ExprPtr> xs = {x};
         if (xz && xz->f()->kind() == FunKind::Zip && gf->arity() == xz->args().size())
           xs = xz->args();
         std::vector<ParamPtr> ps, ys;
         for (size_t i = 0; i < xs.size(); ++i) ps.push_back(Param::make("x"));
         for (size_t i = 0; i < others.size(); ++i) ys.push_back(Param::make("y"));
         std::vector<ExprPtr> parts;
         for (size_t i = 0, o = 0; i < others.size() + 1; ++i)
           parts.push_back(i == m.index ? applyFun(gf, std::vector<ExprPtr>(ps.begin(), ps.end()))
                                        : ExprPtr(ys[o++]));
         const FunPtr& f = m.f("f");
         ExprPtr body = parts.size() == 1 || f->arity() == parts.size()
                            ? applyFun(f, parts)
                            : applyFun(f, {ir::tuple(parts)});
         std::vector<ParamPtr> all = ps;
         all.insert(all.end(), ys.begin(), ys.end());
         std::vector<ExprPtr> zipped = xs;
         zipped.insert(zipped.end(), others.begin(), others.end());
         ExprPtr arg =
             zipped.size() == 1 ? zipped[0] : FunCall::make(Zip::make(zipped.size()), zipped);
         return FunCall::make(ir::Map::make(Lambda::make(all, body)), {arg});
       }});
}

}  // namespace fftc::rewrites::rules
