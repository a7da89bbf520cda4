// Scalar operations with folding (scalar_ops.h). Folded reals are rounded to the result's
// precision after every operation, as the interpreter does.
#include "compiler/codegen/scalar_ops.h"

#include "ir/interpreter.h"

#include <cmath>
#include <cstdint>

#include "backends/common/c_printer.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CExprKind;
using backends::CType;
using ir::BuiltinOp;
using ir::Type;

namespace {

[[noreturn]] void fail(const std::string& msg) {
  throw ir::CompileError({}, "code generation: " + msg);
}

bool isDouble(const Type& t) { return t.scalarKind() == ir::ScalarKind::Double; }
const char* sfx(const Type& t) { return backends::precisionSuffix(isDouble(t)); }

double round(double v, const Type& t) { return isDouble(t) ? v : static_cast<float>(v); }

CExpr lit(std::complex<double> v, const Type& t) {
  if (t.isComplex()) return backends::cComplex(round(v.real(), t), round(v.imag(), t), scalarCType(t));
  return backends::cReal(round(v.real(), t), scalarCType(t));
}

CExpr helper(const std::string& name, const Type& t, std::vector<CExpr> args) {
  return backends::cCall("fftc_" + name + "_" + sfx(t), std::move(args), scalarCType(t));
}

// The largest denominator fftc_cispiratio32 takes: 4q and 2 (p mod 2q) fit an int.
constexpr int64_t kNarrowRatioLimit = int64_t{1} << 28;

std::string cOperator(BuiltinOp op) {
  switch (op) {
    case BuiltinOp::Add: return "+";
    case BuiltinOp::Sub: return "-";
    case BuiltinOp::Mul: return "*";
    case BuiltinOp::Div: return "/";
    default: return "?";
  }
}

}  // namespace

std::optional<std::complex<double>> foldScalar(BuiltinOp op,
                                               std::span<const std::complex<double>> a,
                                               const Type& r, ir::interp::CisPiMemo* memo) {
  using C = std::complex<double>;
  auto rc = [&](C v) { return C(round(v.real(), r), round(v.imag(), r)); };
  switch (op) {
    case BuiltinOp::Add: return rc(a[0] + a[1]);
    case BuiltinOp::Sub: return rc(a[0] - a[1]);
    case BuiltinOp::Mul: {
      if (!r.isComplex()) return rc(a[0] * a[1]);
      // (ac - bd, ad + bc) with each product rounded, as in float code
      double ac = round(a[0].real() * a[1].real(), r), bd = round(a[0].imag() * a[1].imag(), r);
      double ad = round(a[0].real() * a[1].imag(), r), bc = round(a[0].imag() * a[1].real(), r);
      return rc(C(ac - bd, ad + bc));
    }
    case BuiltinOp::Div:
      if (!r.isComplex() && a[1] == C(0)) return std::nullopt;
      return rc(a[0] / a[1]);
    case BuiltinOp::Neg: return rc(-a[0]);
    case BuiltinOp::Cos: return rc(std::cos(a[0].real()));
    case BuiltinOp::Sin: return rc(std::sin(a[0].real()));
    case BuiltinOp::Sqrt: return rc(std::sqrt(a[0].real()));
    case BuiltinOp::Exp: return rc(r.isComplex() ? std::exp(a[0]) : C(std::exp(a[0].real())));
    case BuiltinOp::Conj: return rc(std::conj(a[0]));
    case BuiltinOp::Re: return rc(a[0].real());
    case BuiltinOp::Im: return rc(a[0].imag());
    case BuiltinOp::CisPi: {
      const double x = round(a[0].real(), r);
      return (memo ? (*memo)(x) : ir::cisPiRounded(x)).in(r.scalarKind());
    }
    case BuiltinOp::CisPiRatio: {
      // ints held as doubles: exact below 2^53
      const double p = a[0].real(), q = a[1].real();
      if (q == 0 || std::fabs(p) >= 0x1p53 || std::fabs(q) >= 0x1p53) return std::nullopt;
      const auto pi = static_cast<int64_t>(p), qi = static_cast<int64_t>(q);
      return (memo ? memo->ratio(pi, qi) : ir::cisPiRatio(pi, qi)).in(r.scalarKind());
    }
    case BuiltinOp::MakeComplex: return rc(C(a[0].real(), a[1].real()));
    default: return std::nullopt;
  }
}


CType scalarCType(const Type& t) {
  if (t.isComplex())
    return CType::of(isDouble(t) ? CType::Kind::ComplexDouble : CType::Kind::ComplexFloat);
  if (t.isInt()) return CType::of(CType::Kind::Int);
  if (t.isReal()) return CType::of(isDouble(t) ? CType::Kind::Double : CType::Kind::Float);
  fail("not a scalar type: " + t.str());
}

std::optional<std::complex<double>> literalOf(const CExpr& e) {
  switch (e->kind) {
    case CExprKind::RealLit: return std::complex<double>(e->re, 0);
    case CExprKind::ComplexLit: return std::complex<double>(e->re, e->im);
    case CExprKind::Index:
      if (auto c = e->index.constant()) return std::complex<double>(static_cast<double>(*c), 0);
      return std::nullopt;
    default: return std::nullopt;
  }
}

CExpr convert(const ScalarVal& v, const Type& to) {
  if (v.t == to) return v.e;
  if (auto l = literalOf(v.e)) {
    if (to.isInt()) fail("conversion of a real to int");
    return lit(*l, to);
  }
  if (to.isComplex()) {
    if (v.t.isComplex())
      return backends::cCall(isDouble(to) ? "convert_double2" : "convert_float2", {v.e},
                             scalarCType(to));
    Type rt = Type::real(to.scalarKind());
    return backends::cMakeComplex(convert(v, rt), backends::cReal(0, scalarCType(rt)),
                                  scalarCType(to));
  }
  if (to.isReal()) return backends::cCast(scalarCType(to), v.e);
  fail("conversion of " + v.t.str() + " to " + to.str());
}

ScalarVal literalValue(const ir::Literal& l) {
  switch (l.litKind()) {
    case ir::LiteralKind::Int: return {backends::cIndex(l.intValue()), l.type()};
    case ir::LiteralKind::Real: return {backends::cReal(l.realValue(), scalarCType(l.type())), l.type()};
    case ir::LiteralKind::Complex:
      return {backends::cComplex(l.re(), l.im(), scalarCType(l.type())), l.type()};
  }
  fail("unknown literal");
}

ScalarVal scalarOp(BuiltinOp op, const std::vector<ScalarVal>& args, const Type& r) {
  // Integers stay symbolic: indices such as (k * numMats + j) * l simplify and fold.
  if (r.isInt()) {
    std::vector<ir::ArithExpr> a;
    bool symbolic = true;
    for (const auto& v : args) {
      if (v.e->kind == CExprKind::Index) a.push_back(v.e->index);
      else symbolic = false;
    }
    if (symbolic) {
      auto nonZero = [&](const ir::ArithExpr& d) { return ir::provablyNonZero(d); };
      switch (op) {
        case BuiltinOp::Add: return {backends::cIndex(a[0] + a[1]), r};
        case BuiltinOp::Sub: return {backends::cIndex(a[0] - a[1]), r};
        case BuiltinOp::Mul: return {backends::cIndex(a[0] * a[1]), r};
        case BuiltinOp::Neg: return {backends::cIndex(-a[0]), r};
        case BuiltinOp::Div:
          if (nonZero(a[1])) return {backends::cIndex(a[0] / a[1]), r};
          break;
        case BuiltinOp::Mod:
          if (nonZero(a[1])) return {backends::cIndex(a[0] % a[1]), r};
          break;
        default: break;
      }
    }
    CType it = CType::of(CType::Kind::Int);
    switch (op) {
      case BuiltinOp::Add:
      case BuiltinOp::Sub:
      case BuiltinOp::Mul: return {backends::cBinary(cOperator(op), args[0].e, args[1].e, it), r};
      case BuiltinOp::Neg: return {backends::cUnary("-", args[0].e, it), r};
      case BuiltinOp::Div: return {backends::cCall("fftc_floordiv", {args[0].e, args[1].e}, it), r};
      case BuiltinOp::Mod: return {backends::cCall("fftc_floormod", {args[0].e, args[1].e}, it), r};
      default: fail("integer " + ir::builtinName(op));
    }
  }

  // Fold literal operands.
  std::vector<std::complex<double>> lits;
  for (const auto& v : args) {
    if (auto l = literalOf(v.e)) lits.push_back(*l);
  }
  if (lits.size() == args.size() && op != BuiltinOp::Mod) {
    if (auto f = foldScalar(op, lits, r)) return {lit(*f, r), r};
  }

  // Operand conversion: ints meet reals as reals, reals meet complex values as complex ones.
  auto conv = [&](size_t i, const Type& t) { return convert(args[i], t); };
  const Type rr = r.isComplex() ? Type::real(r.scalarKind()) : r;

  switch (op) {
    case BuiltinOp::Add:
    case BuiltinOp::Sub:
    case BuiltinOp::Mul:
    case BuiltinOp::Div: {
      if (!r.isComplex())
        return {backends::cBinary(cOperator(op), conv(0, r), conv(1, r), scalarCType(r)), r};
      if (op == BuiltinOp::Mul) {
        // a complex times a real (or int) scales; by 1, -1, i, -i is a copy, negation or swap
        for (size_t k = 0; k < 2; ++k) {
          const ScalarVal& o = args[1 - k];
          const ScalarVal& c = args[k];
          if (auto l = literalOf(c.e)) {
            if (*l == std::complex<double>(1, 0)) return {conv(1 - k, r), r};
            if (*l == std::complex<double>(-1, 0)) return {helper("cneg", r, {conv(1 - k, r)}), r};
            if (*l == std::complex<double>(0, 1)) return {helper("cmuli", r, {conv(1 - k, r)}), r};
            if (*l == std::complex<double>(0, -1)) return {helper("cmulmi", r, {conv(1 - k, r)}), r};
          }
          if (!c.t.isComplex() && o.t.isComplex())
            return {helper("cscale", r, {conv(1 - k, r), convert(c, rr)}), r};
        }
        return {helper("cmul", r, {conv(0, r), conv(1, r)}), r};
      }
      if (op == BuiltinOp::Div && !args[1].t.isComplex())
        return {helper("cscale", r,
                       {conv(0, r), backends::cBinary("/", backends::cReal(1, scalarCType(rr)),
                                                      convert(args[1], rr), scalarCType(rr))}),
                r};
      const char* name = op == BuiltinOp::Add ? "cadd" : op == BuiltinOp::Sub ? "csub" : "cdiv";
      return {helper(name, r, {conv(0, r), conv(1, r)}), r};
    }
    case BuiltinOp::Mod:
      return {backends::cCall("fmod", {conv(0, r), conv(1, r)}, scalarCType(r)), r};
    case BuiltinOp::Neg:
      if (r.isComplex()) return {helper("cneg", r, {conv(0, r)}), r};
      return {backends::cUnary("-", conv(0, r), scalarCType(r)), r};
    case BuiltinOp::Cos:
    case BuiltinOp::Sin:
    case BuiltinOp::Sqrt:
    case BuiltinOp::Exp: {
      if (r.isComplex()) return {helper("cexp", r, {conv(0, r)}), r};
      std::string name = ir::builtinName(op);
      return {backends::cCall(name, {conv(0, r)}, scalarCType(r)), r};
    }
    case BuiltinOp::Conj: return {helper("cconj", r, {conv(0, r)}), r};
    case BuiltinOp::Re:
    case BuiltinOp::Im: {
      CExpr a = args[0].e;
      return {backends::cMember(a, op == BuiltinOp::Re ? "x" : "y", scalarCType(r)), r};
    }
    case BuiltinOp::CisPi: return {helper("cispi", r, {convert(args[0], rr)}), r};
    case BuiltinOp::CisPiRatio: {
      // A denominator known to lie in [1, 2^28] (the twiddles' and chirps' n, a constant) is
      // reduced in int (fftc_cispiratio32): 2p mod 4q = 2 (p mod 2q) fits, as p does when it
      // is a kernel's int or an index proved to lie in int's range (the chirps' n^2 mod 2N is
      // computed in 64 bits, then reduced). Else in 64 bits.
      const CExpr& p = args[0].e;
      const CExpr& q = args[1].e;
      constexpr int64_t kIntMin = INT32_MIN, kIntMax = INT32_MAX;
      const bool pFits = p->kind != CExprKind::Index ||
                         (p->index.constLowerBound().value_or(kIntMin - 1) >= kIntMin &&
                          p->index.constUpperBound().value_or(kIntMax + 1) <= kIntMax);
      const bool narrow =
          pFits && q->kind == CExprKind::Index && q->index.constLowerBound().value_or(0) >= 1 &&
          q->index.constUpperBound().value_or(kNarrowRatioLimit + 1) <= kNarrowRatioLimit;
      return {helper(narrow ? "cispiratio32" : "cispiratio", r, {p, q}), r};
    }
    case BuiltinOp::MakeComplex:
      return {backends::cMakeComplex(convert(args[0], rr), convert(args[1], rr), scalarCType(r)), r};
    case BuiltinOp::MakeTuple: fail("tuple construction is not a scalar operation");
  }
  fail("unknown builtin");
}

}  // namespace fftc::compiler::codegen
