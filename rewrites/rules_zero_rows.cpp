// Rules that move zero padding of an outer dimension past the work on the rows (issue 24: an
// N-D transform never transforms the all-zero rows and planes a padding adds). A row function
// that maps the pad's row to a constant row (the FFT of zeros is zeros: linearity) is applied
// to the input's rows only, and the pad of rows turns into a pad of each column when the array
// is transposed, so that the columns' transforms read it as their own zero padding (the order
// examples/conv2d.fdl is written in, found from a program that pads first).
#include <complex>
#include <optional>

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

// The most elements of a pad's row (or of its image under the row function) that a side
// condition evaluates with the interpreter: a row, not a matrix.
constexpr int64_t kMostRowElements = int64_t{1} << 16;

// The one value every element of the closed expression `typed` holds, or nullopt (not closed,
// not an array of reals or complex numbers of constant sizes, larger than kMostRowElements, or
// two different elements).
std::optional<std::complex<double>> uniformValue(const ExprPtr& typed) {
  auto values = closedValue(typed, kMostRowElements);
  if (!values || values->empty()) return std::nullopt;
  for (const auto& v : *values)
    if (v != values->front()) return std::nullopt;
  return values->front();
}

// A literal of the scalar type t (real or complex) holding c; null for any other type.
ExprPtr scalarLiteral(const Type& t, std::complex<double> c) {
  if (t.isComplex()) return Literal::makeComplex(c.real(), c.imag(), t.scalarKind());
  if (t.isReal() && c.imag() == 0) return Literal::makeReal(c.real(), t.scalarKind());
  return nullptr;
}

// An array of type t (at most three dimensions of constant sizes, real or complex elements)
// every element of which is c: array(n0, .., fun (i0, ..) => c), which code generation reads as
// the literal (no table). Null for another type.
ExprPtr uniformArray(const Type& t, std::complex<double> c) {
  std::vector<ArithExpr> sizes;
  Type leaf = t;
  while (leaf.isArray()) {
    if (!leaf.size().constant()) return nullptr;
    sizes.push_back(leaf.size());
    leaf = leaf.element();
  }
  if (sizes.empty() || sizes.size() > 3) return nullptr;
  ExprPtr value = scalarLiteral(leaf, c);
  if (!value) return nullptr;
  std::vector<ParamPtr> ps;  // the indices, then the sizes (ArrayGen's arguments)
  for (size_t i = 0; i < sizes.size(); ++i) ps.push_back(Param::make("i" + std::to_string(i)));
  for (size_t i = 0; i < sizes.size(); ++i) ps.push_back(Param::make("n" + std::to_string(i)));
  return FunCall::make(ArrayGen::make(std::move(sizes), Lambda::make(std::move(ps), value)), {});
}

// The pad or crop a function is: the pattern itself or fun x => p(x) (the rewriter's
// eta-expanded form); null otherwise.
FunPtr padOrCrop(const FunPtr& f) {
  if (f->is<Pad>() || f->is<Crop>()) return f;
  const auto* l = f->as<Lambda>();
  if (!l || l->arity() != 1) return nullptr;
  const auto* c = asCall(l->body());
  if (!c || c->args().size() != 1 || c->arg(0) != l->params()[0]) return nullptr;
  return c->f()->is<Pad>() || c->f()->is<Crop>() ? c->f() : nullptr;
}

}  // namespace

// map(f) o pad(l, r, v) -> pad(l, r, u) o map(f), f(v) = u a constant array of one value
Rule padThroughMap() {
  return Rule(
      {"padThroughMap", "algorithmic",
       "map(f) o pad(l, r, v) -> pad(l, r, u) o map(f), u = f(v) an array of one value c "
       "(array(.., fun .. => c))",
       "v and f closed (their values known at compile time), f(v) an array of reals or complex "
       "numbers whose elements are all c, at most 2^16 of them: a padded row that f maps to zeros "
       "(an fft of a zero row) is never computed",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* m = unary<Map>(e);
         const auto* p = m ? unary<Pad>(arg0(e)) : nullptr;
         if (!p || p->boundary() != PadBoundary::Constant) return std::nullopt;
         const Type& rowType = e->type() ? e->type().element() : Type();
         if (!rowType || !rowType.isArray()) return std::nullopt;
         std::optional<std::complex<double>> c;
         try {
           c = uniformValue(inferTypes(FunCall::make(m->f(), {p->value()})));
         } catch (const std::exception&) {
           return std::nullopt;  // f does not type on its own (not closed)
         }
         if (!c) return std::nullopt;
         ExprPtr u = uniformArray(rowType, *c);
         if (!u) return std::nullopt;
         Match mt;
         mt.funs = {{"map", m->ptr()},
                    {"pad", Pad::make(p->left(), p->right(), PadBoundary::Constant, u, p->loc())}};
         mt.exprs = {{"x", arg0(arg0(e))}};
         return mt;
       },
       nullptr,
       [](const Match& m) -> ExprPtr {
         return FunCall::make(m.f("pad"), {FunCall::make(m.f("map"), {m.e("x")})});
       }});
}

// transpose o pad(l, r, v) -> map(pad(l, r, c)) o transpose, v a row of one value c
Rule transposePad() {
  return Rule(
      {"transposePad", "algorithmic",
       "transpose o pad(l, r, v) -> map(pad(l, r, c)) o transpose, v = array(m, fun i => c)",
       "v closed, a row of reals or complex numbers whose elements are all c (the rows added "
       "to a matrix are the columns' padding of its transpose)",
       [](const ExprPtr& e) -> std::optional<Match> {
         if (!unary<Transpose>(e)) return std::nullopt;
         const auto* p = unary<Pad>(arg0(e));
         if (!p || p->boundary() != PadBoundary::Constant) return std::nullopt;
         const Type& row = p->value()->type();
         if (!row || !row.isArray() || row.element().isArray()) return std::nullopt;
         auto c = uniformValue(p->value());
         ExprPtr value = c ? scalarLiteral(row.element(), *c) : nullptr;
         if (!value) return std::nullopt;
         Match mt;
         mt.funs = {
             {"pad", Pad::make(p->left(), p->right(), PadBoundary::Constant, value, p->loc())}};
         mt.exprs = {{"x", arg0(arg0(e))}};
         return mt;
       },
       nullptr,
       [](const Match& m) -> ExprPtr {
         ExprPtr t = FunCall::make(Transpose::make(), {m.e("x")});
         return FunCall::make(Map::make(m.f("pad")), {t});
       }});
}

// crop(l, r) o transpose -> transpose o map(crop(l, r))
Rule cropTranspose() {
  return Rule({"cropTranspose", "algorithmic",
               "crop(l, r) o transpose -> transpose o map(crop(l, r))",
               "",  // the rows kept of the transpose are the columns kept of each row
               [](const ExprPtr& e) -> std::optional<Match> {
                 const auto* c = unary<Crop>(e);
                 if (!c || !unary<Transpose>(arg0(e))) return std::nullopt;
                 Match mt;
                 mt.funs = {{"crop", c->ptr()}};
                 mt.exprs = {{"x", arg0(arg0(e))}};
                 return mt;
               },
               nullptr,
               [](const Match& m) -> ExprPtr {
                 ExprPtr cropped = FunCall::make(Map::make(m.f("crop")), {m.e("x")});
                 return FunCall::make(Transpose::make(), {cropped});
               }});
}

// map(f) o map(g) -> map(f o g), f or g a pad or crop; map(f) o zip(.., map(g)(a), ..) ->
// map(fun (.., x, ..) => f(.., g(x), ..)) o zip(.., a, ..), g a pad or crop
Rule padCropFusion() {
  return Rule(
      {"padCropFusion", "algorithmic",
       "map(f) o map(g) -> map(f o g); map(f) o zip(.., map(g) <<: a, ..) -> map(fun (.., x, "
       "..) => f(.., g(x), ..)) o zip(.., a, ..)",
       "maps (high-level); g a pad or crop, or (the first form) f a crop; f of as many "
       "parameters as the zip has arrays (the second): a row's padding read by the map that "
       "consumes it, a crop written by the map that computes the row",
       [](const ExprPtr& e) -> std::optional<Match> {
         const auto* outer = unary<Map>(e);
         if (!outer) return std::nullopt;
         const ExprPtr& in = arg0(e);
         if (const auto* inner = unary<Map>(in)) {
           const auto* crop = padOrCrop(outer->f()).get();
           if (!padOrCrop(inner->f()) && !(crop && crop->is<Crop>())) return std::nullopt;
           Match mt;
           mt.funs = {{"f", outer->f()}, {"g", inner->f()}};
           mt.exprs = {{"x", arg0(in)}};
           return mt;
         }
         const auto* zip = asCall(in);
         const auto* f = outer->f()->as<Lambda>();
         if (!zip || !zip->f()->is<Zip>() || !f || f->arity() != zip->args().size())
           return std::nullopt;
         Match mt;
         mt.funs = {{"f", outer->f()}};
         bool any = false;
         for (size_t i = 0; i < zip->args().size(); ++i) {
           const ExprPtr& a = zip->arg(i);
           const auto* m = unary<Map>(a);
           FunPtr g = m ? padOrCrop(m->f()) : nullptr;
           const std::string k = std::to_string(i);
           mt.exprs["a" + k] = g ? arg0(a) : a;
           if (g) mt.funs["g" + k] = m->f();
           any = any || g;
         }
         if (!any) return std::nullopt;
         mt.index = zip->args().size();
         return mt;
       },
       nullptr,
       [](const Match& m) -> ExprPtr {
         if (m.index == 0) {
           // f o g of g's parameters (k of them where g takes a zip's elements apart)
           const auto* gl = m.f("g")->as<Lambda>();
           std::vector<ParamPtr> ps;
           for (size_t i = 0; i < (gl ? gl->arity() : 1); ++i)
             ps.push_back(Param::make("x" + std::to_string(i)));
           std::vector<ExprPtr> xs(ps.begin(), ps.end());
           FunPtr fg = Lambda::make(ps, applyFun(m.f("f"), {applyFun(m.f("g"), std::move(xs))}));
           return FunCall::make(Map::make(fg), {m.e("x")});
         }
         std::vector<ParamPtr> ps;
         std::vector<ExprPtr> zipped, args;
         for (size_t i = 0; i < m.index; ++i) {
           const std::string k = std::to_string(i);
           ps.push_back(Param::make("x" + k));
           zipped.push_back(m.e("a" + k));
           auto g = m.funs.find("g" + k);
           args.push_back(g == m.funs.end() ? ExprPtr(ps.back())
                                            : applyFun(g->second, {ps.back()}));
         }
         FunPtr f = Lambda::make(ps, applyFun(m.f("f"), std::move(args)));
         return FunCall::make(Map::make(f), {FunCall::make(Zip::make(m.index), std::move(zipped))});
       }});
}

}  // namespace fftc::rewrites::rules
