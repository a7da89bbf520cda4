// The interpreter's scalar arithmetic (interp_scalar.h).
#include "ir/interp_scalar.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "ir/diagnostic.h"
#include "ir/interpreter.h"

namespace fftc::ir::interp {

[[noreturn]] void error(const std::string& msg) { throw InterpreterError(msg); }

// ---- scalar arithmetic, in the precision of the result

ValueKind kindOf(const Type& t) {
  if (t.isComplex())
    return t.scalarKind() == ScalarKind::Float ? ValueKind::ComplexFloat : ValueKind::ComplexDouble;
  switch (t.scalarKind()) {
    case ScalarKind::Int: return ValueKind::Int;
    case ScalarKind::Float: return ValueKind::Float;
    case ScalarKind::Double: return ValueKind::Double;
  }
  return ValueKind::Double;
}

int64_t floorDiv(int64_t a, int64_t b) {
  if (b == 0) error("integer division by zero");
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floorMod(int64_t a, int64_t b) {
  if (b == 0) error("integer modulo by zero");
  int64_t m = a % b;
  if (m != 0 && ((m < 0) != (b < 0))) m += b;
  return m;
}

int64_t padSource(PadBoundary b, int64_t i, int64_t n) {
  if (i >= 0 && i < n) return i;
  switch (b) {
    case PadBoundary::Wrap: return floorMod(i, n);
    case PadBoundary::Clamp: return std::min(std::max<int64_t>(i, 0), n - 1);
    case PadBoundary::Mirror: {
      const int64_t m = floorMod(i, 2 * n);
      return m < n ? m : 2 * n - 1 - m;
    }
    case PadBoundary::Constant: break;
  }
  error("pad: a constant boundary has no source element");
}
Value realOf(double v, ValueKind k) {
  return k == ValueKind::Float ? Value::ofFloat(static_cast<float>(v)) : Value::ofDouble(v);
}

namespace {

int rank(ValueKind k) {  // promotion order: int < float < double; complex keeps the precision
  switch (k) {
    case ValueKind::Int: return 0;
    case ValueKind::Float:
    case ValueKind::ComplexFloat: return 1;
    case ValueKind::Double:
    case ValueKind::ComplexDouble: return 2;
    default: error("expected a number");
  }
}

bool isCx(ValueKind k) { return k == ValueKind::ComplexFloat || k == ValueKind::ComplexDouble; }

// The kind a binary operation computes in when the result type is not at hand.
ValueKind promote(ValueKind a, ValueKind b, ValueKind intOnlyReal = ValueKind::Double) {
  int r = std::max(rank(a), rank(b));
  if (isCx(a) || isCx(b)) return r == 2 ? ValueKind::ComplexDouble : ValueKind::ComplexFloat;
  (void)intOnlyReal;
  return r == 0 ? ValueKind::Int : r == 1 ? ValueKind::Float : ValueKind::Double;
}

int64_t wrapAdd(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
int64_t wrapSub(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
}
int64_t wrapMul(int64_t a, int64_t b) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

template <class T>
Value makeReal(T v) {
  if constexpr (std::is_same_v<T, float>) return Value::ofFloat(v);
  else return Value::ofDouble(v);
}
template <class T>
Value makeCx(T re, T im) {
  return Value::ofComplex({static_cast<double>(re), static_cast<double>(im)},
                          std::is_same_v<T, float> ? ScalarKind::Float : ScalarKind::Double);
}

template <class T>
Value realOp(BuiltinOp op, T a, T b) {
  switch (op) {
    case BuiltinOp::Add: return makeReal<T>(a + b);
    case BuiltinOp::Sub: return makeReal<T>(a - b);
    case BuiltinOp::Mul: return makeReal<T>(a * b);
    case BuiltinOp::Div: return makeReal<T>(a / b);
    case BuiltinOp::Mod: {
      T q = std::floor(a / b);
      return makeReal<T>(a - b * q);
    }
    default: error("not a binary operator");
  }
}

// Complex arithmetic as the generated code does it: operands that are real scalars are not
// widened to complex (x * (c + di) = (xc, xd)), products are (ac - bd, ad + bc), no FMA.
template <class T>
Value complexOp(BuiltinOp op, const Value& av, const Value& bv) {
  bool ac = av.isComplex(), bc = bv.isComplex();
  T a = static_cast<T>(av.asComplex().real()), b = static_cast<T>(av.asComplex().imag());
  T c = static_cast<T>(bv.asComplex().real()), d = static_cast<T>(bv.asComplex().imag());
  switch (op) {
    case BuiltinOp::Add:
      if (!ac) return makeCx<T>(a + c, d);
      if (!bc) return makeCx<T>(a + c, b);
      return makeCx<T>(a + c, b + d);
    case BuiltinOp::Sub:
      if (!ac) return makeCx<T>(a - c, -d);
      if (!bc) return makeCx<T>(a - c, b);
      return makeCx<T>(a - c, b - d);
    case BuiltinOp::Mul:
      if (!ac) return makeCx<T>(a * c, a * d);
      if (!bc) return makeCx<T>(a * c, b * c);
      return makeCx<T>(a * c - b * d, a * d + b * c);
    case BuiltinOp::Div: {
      if (!bc) return makeCx<T>(a / c, b / c);
      T den = c * c + d * d;
      return makeCx<T>((a * c + b * d) / den, (b * c - a * d) / den);
    }
    default: error("mod is not defined on complex values");
  }
}

Value binary(BuiltinOp op, const Value& a, const Value& b, ValueKind k) {
  switch (k) {
    case ValueKind::Int: {
      int64_t x = a.asInt(), y = b.asInt();
      switch (op) {
        case BuiltinOp::Add: return Value::ofInt(wrapAdd(x, y));
        case BuiltinOp::Sub: return Value::ofInt(wrapSub(x, y));
        case BuiltinOp::Mul: return Value::ofInt(wrapMul(x, y));
        case BuiltinOp::Div: return Value::ofInt(floorDiv(x, y));
        case BuiltinOp::Mod: return Value::ofInt(floorMod(x, y));
        default: error("not a binary operator");
      }
    }
    case ValueKind::Float:
      return realOp<float>(op, static_cast<float>(a.asReal()), static_cast<float>(b.asReal()));
    case ValueKind::Double: return realOp<double>(op, a.asReal(), b.asReal());
    case ValueKind::ComplexFloat: return complexOp<float>(op, a, b);
    case ValueKind::ComplexDouble: return complexOp<double>(op, a, b);
    default: error("arithmetic on non-numbers");
  }
}

}  // namespace

namespace {
// A key no argument has: {0, a NaN's bits no computation produces} for an empty slot; that
// argument is not remembered.
constexpr uint64_t kEmpty = 0x7ff8'dead'beef'f00dULL;

uint64_t mix(uint64_t x) {  // splitmix64's finalizer
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}
}  // namespace

template <typename F>
CisPiRounded CisPiMemo::lookup(Key key, F compute) {
  if (key == Key{0, kEmpty}) return compute();
  if (2 * (used_ + 1) > slots_.size()) grow();
  const size_t mask = slots_.size() - 1;
  for (size_t i = mix(key.b ^ mix(key.a)) & mask;; i = (i + 1) & mask) {
    Slot& s = slots_[i];
    if (s.key == key) return s.value;
    if (s.key == Key{0, kEmpty}) {
      s = {key, compute()};
      ++used_;
      return s.value;
    }
  }
}

CisPiRounded CisPiMemo::operator()(double x) {
  return lookup({0, std::bit_cast<uint64_t>(x)}, [x] { return cisPiRounded(x); });
}

namespace {
// quarterTurns' quadrant turn applied to the rounded first-quadrant value: the same bits, as
// rounding commutes with negation (+ 0 turns -0 into 0 as there).
CisPiRounded turn(const CisPiRounded& v, int64_t quadrant) {
  const double c = v.d.real(), s = v.d.imag();
  const float cf = v.f.real(), sf = v.f.imag();
  switch (quadrant & 3) {
    case 1: return {{-s + 0.0, c}, {-sf + 0.0f, cf}};
    case 2: return {{-c + 0.0, -s + 0.0}, {-cf + 0.0f, -sf + 0.0f}};
    case 3: return {{s, -c + 0.0}, {sf, -cf + 0.0f}};
    default: return v;
  }
}
}  // namespace

CisPiRounded* CisPiMemo::quarterValues(int64_t den) {
  if (den == lastDen_) return last_;
  auto it = quarters_.find(den);
  if (it == quarters_.end()) {
    if (static_cast<uint64_t>(den) > kDenseEntries - quarterEntries_) return nullptr;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    it = quarters_.emplace(den, std::vector<CisPiRounded>(static_cast<size_t>(den),
                                                          CisPiRounded{{nan, nan}, {}}))
             .first;
    quarterEntries_ += static_cast<size_t>(den);
  }
  lastDen_ = den;
  last_ = it->second.data();
  return last_;
}

namespace {
// cisPiRatio's reduction: 2p mod 4q = quadrant·q + rem with 0 <= rem < q (q made positive), in
// Int, whose range must hold 4q and 2p.
template <class Int>
void reduceRatio(Int num, Int den, Int& quadrant, Int& rem, Int& positiveDen) {
  if (den < 0) num = -num, den = -den;
  Int r = (2 * num) % (4 * den);
  if (r < 0) r += 4 * den;
  quadrant = r / den;
  rem = r - quadrant * den;
  positiveDen = den;
}
}  // namespace

CisPiRounded CisPiMemo::ratio(int64_t p, int64_t q) {
  if (q == 0) error("cispiRatio: a zero denominator");
  __extension__ typedef __int128 Wide;  // GCC and Clang; -Wpedantic: not ISO C++
  Wide quadrant = 0, rem = 0, den = 0;
  constexpr int64_t kNarrow = int64_t{1} << 60;  // 4q and 2p fit 64 bits: no 128-bit division
  if (p > -kNarrow && p < kNarrow && q > -kNarrow && q < kNarrow) {
    int64_t qd = 0, r = 0, d = 0;
    reduceRatio<int64_t>(p, q, qd, r, d);
    quadrant = qd, rem = r, den = d;
  } else {
    reduceRatio<Wide>(p, q, quadrant, rem, den);
  }
  if (den <= std::numeric_limits<int64_t>::max()) {
    const auto d = static_cast<int64_t>(den);
    if (CisPiRounded* values = quarterValues(d)) {
      CisPiRounded& v = values[static_cast<size_t>(rem)];
      if (std::isnan(v.d.real())) v = cisPiQuarter(static_cast<int64_t>(rem), d);
      return turn(v, static_cast<int64_t>(quadrant));
    }
    const auto m = static_cast<int64_t>(rem);
    return turn(lookup({static_cast<uint64_t>(d), static_cast<uint64_t>(m)},
                       [m, d] { return cisPiQuarter(m, d); }),
                static_cast<int64_t>(quadrant));
  }
  return cisPiRatio(p, q);  // q = INT64_MIN: not remembered
}

void CisPiMemo::prefetch(int64_t p, int64_t q) {
  constexpr int64_t kNarrow = int64_t{1} << 60;
  if (q == 0 || p <= -kNarrow || p >= kNarrow || q <= -kNarrow || q >= kNarrow) return;
  int64_t quadrant = 0, rem = 0, den = 0;
  reduceRatio<int64_t>(p, q, quadrant, rem, den);
  if (CisPiRounded* values = quarterValues(den)) __builtin_prefetch(values + rem);
}

void CisPiMemo::grow() {
  // (bounded: past half a million angles, 40 MB, start again)
  const bool restart = slots_.size() >= (size_t{1} << 20);
  std::vector<Slot> old = restart ? std::vector<Slot>() : std::move(slots_);
  slots_.assign(restart ? size_t{1} << 10 : std::max<size_t>(1024, 2 * old.size()),
                {{0, kEmpty}, {}});
  used_ = 0;
  const size_t mask = slots_.size() - 1;
  for (const Slot& s : old) {
    if (s.key == Key{0, kEmpty}) continue;
    size_t i = mix(s.key.b ^ mix(s.key.a)) & mask;
    while (!(slots_[i].key == Key{0, kEmpty})) i = (i + 1) & mask;
    slots_[i] = s;
    ++used_;
  }
}

Value scalarBuiltin(BuiltinOp op, std::span<const Value> args, const Type& result,
                    CisPiMemo* memo) {
  auto resultKind = [&](ValueKind fallback) { return result ? kindOf(result) : fallback; };
  switch (op) {
    case BuiltinOp::Add:
    case BuiltinOp::Sub:
    case BuiltinOp::Mul:
    case BuiltinOp::Div:
    case BuiltinOp::Mod:
      return binary(op, args[0], args[1], resultKind(promote(args[0].kind(), args[1].kind())));
    case BuiltinOp::Neg: {
      const Value& a = args[0];
      switch (a.kind()) {
        case ValueKind::Int: return Value::ofInt(wrapSub(0, a.asInt()));
        case ValueKind::Float:
        case ValueKind::Double: return realOf(-a.asReal(), a.kind());
        case ValueKind::ComplexFloat: return Value::ofComplex(-a.asComplex(), ScalarKind::Float);
        case ValueKind::ComplexDouble: return Value::ofComplex(-a.asComplex(), ScalarKind::Double);
        default: error("neg: not a number");
      }
    }
    case BuiltinOp::Cos:
    case BuiltinOp::Sin:
    case BuiltinOp::Sqrt:
    case BuiltinOp::Exp: {
      const Value& a = args[0];
      if (a.isComplex()) {  // exp only
        std::complex<double> z = std::exp(a.asComplex());
        return Value::ofComplex(z, a.kind() == ValueKind::ComplexFloat ? ScalarKind::Float
                                                                       : ScalarKind::Double);
      }
      ValueKind k = resultKind(a.kind() == ValueKind::Int ? ValueKind::Double : a.kind());
      double x = a.asReal();
      double y = op == BuiltinOp::Cos   ? std::cos(x)
                 : op == BuiltinOp::Sin ? std::sin(x)
                 : op == BuiltinOp::Exp ? std::exp(x)
                                        : std::sqrt(x);
      return realOf(y, k);
    }
    case BuiltinOp::Conj: {
      const Value& a = args[0];
      return Value::ofComplex(std::conj(a.asComplex()), a.kind() == ValueKind::ComplexFloat
                                                            ? ScalarKind::Float
                                                            : ScalarKind::Double);
    }
    case BuiltinOp::Re:
    case BuiltinOp::Im: {
      const Value& a = args[0];
      double v = op == BuiltinOp::Re ? a.asComplex().real() : a.asComplex().imag();
      return realOf(v, a.kind() == ValueKind::ComplexFloat ? ValueKind::Float : ValueKind::Double);
    }
    case BuiltinOp::CisPi: {
      ValueKind k = resultKind(args[0].kind() == ValueKind::Float ? ValueKind::ComplexFloat
                                                                  : ValueKind::ComplexDouble);
      const ScalarKind sk = k == ValueKind::ComplexFloat ? ScalarKind::Float : ScalarKind::Double;
      // the argument is first rounded to the precision of the computation, like the C code
      double x = args[0].asReal();
      if (sk == ScalarKind::Float) x = static_cast<float>(x);
      return Value::ofComplex((memo ? (*memo)(x) : cisPiRounded(x)).in(sk), sk);
    }
    case BuiltinOp::CisPiRatio: {
      const ScalarKind sk =
          resultKind(ValueKind::ComplexDouble) == ValueKind::ComplexFloat ? ScalarKind::Float
                                                                          : ScalarKind::Double;
      const int64_t p = args[0].asInt(), q = args[1].asInt();
      if (q == 0) error("cispiRatio: a zero denominator");
      return Value::ofComplex((memo ? memo->ratio(p, q) : cisPiRatio(p, q)).in(sk), sk);
    }
    case BuiltinOp::MakeComplex: {
      ValueKind k = resultKind(promote(args[0].kind(), args[1].kind()) == ValueKind::Float
                                   ? ValueKind::ComplexFloat
                                   : ValueKind::ComplexDouble);
      return Value::ofComplex({args[0].asReal(), args[1].asReal()},
                              k == ValueKind::ComplexFloat ? ScalarKind::Float : ScalarKind::Double);
    }
    case BuiltinOp::MakeTuple: error("a tuple is not a scalar");
  }
  error("unknown builtin");
}

}  // namespace fftc::ir::interp
