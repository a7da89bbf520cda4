// The reference interpreter's scalar arithmetic (interpreter.h fixes its semantics), shared by
// the interpreter and the bulk evaluation of generators (scalar_program.h), so both agree bit for bit.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/expr.h"
#include "ir/interpreter.h"
#include "ir/value.h"

namespace fftc::ir::interp {

[[noreturn]] void error(const std::string& msg);  // throws InterpreterError

ValueKind kindOf(const Type& t);  // the value kind of a scalar type
int64_t floorDiv(int64_t a, int64_t b);
int64_t floorMod(int64_t a, int64_t b);
// The element of an array of n (n >= 1) that index i of its pad with a wrap, clamp or mirror
// boundary reads (i outside 0 .. n-1: the padding; mirror repeats the edge element).
int64_t padSource(PadBoundary b, int64_t i, int64_t n);
Value realOf(double v, ValueKind k);  // Float rounds

// cisPi and cisPiRatio by their arguments: a table evaluates few distinct angles many times
// (ω_L^{jk·l} of RepOfB is one of L angles for L·r elements), and each is a long double sin and
// cos. Both are pure functions of their arguments, so a remembered value is the same bits.
class CisPiMemo {
 public:
  CisPiRounded operator()(double x);             // cisPiRounded(x)
  CisPiRounded ratio(int64_t p, int64_t q);      // cisPiRatio(p, q)
  // Asks the memory system for ratio(p, q)'s entry ahead of the call: a block's prefetches
  // before its calls overlap their cache misses (a chirp's angles j² mod 2N fall anywhere in a
  // dense array of N entries: one miss per element, 15% of a cold plan of 999983 one at a time).
  void prefetch(int64_t p, int64_t q);

 private:
  // cisPiRatio(p, q) is the first-quadrant value at (2p mod 4q) - quadrant·q over q, turned by
  // its quadrant: those values are kept, up to 4x fewer, in a dense array per denominator
  // (index: the remainder; a table's angles share few denominators and sweep their
  // remainders) while they fit kDenseEntries (48 MB), else in the hash table, key {|q|, rem}.
  static constexpr size_t kDenseEntries = size_t{1} << 21;
  CisPiRounded* quarterValues(int64_t den);  // null: past kDenseEntries
  // Open addressing by a mixed hash of the key (the bits of 2k/L differ in few high places:
  // std::unordered_map's identity hash chained them), linear probing, a power-of-two size. A
  // real x is the key {0, its bits}; a ratio's first-quadrant value {|q|, rem} (q != 0).
  struct Key {
    uint64_t a, b;
    bool operator==(const Key&) const = default;
  };
  struct Slot {
    Key key;
    CisPiRounded value;
  };
  template <typename F>
  CisPiRounded lookup(Key key, F compute);
  void grow();
  std::vector<Slot> slots_;
  size_t used_ = 0;
  // per denominator, the first-quadrant values by remainder (NaN: not computed yet)
  std::unordered_map<int64_t, std::vector<CisPiRounded>> quarters_;
  size_t quarterEntries_ = 0;
  int64_t lastDen_ = 0;
  CisPiRounded* last_ = nullptr;
};

// The binary operations of scalarBuiltin on one pair of reals or complex numbers held as
// complex doubles (reals with im 0), in T: realOp's and complexOp's expressions (AC, BC: the
// operand is complex; CR: the result is; no complex division). The bulk evaluations
// (batch_eval, scalar_columns) compute with it, so they give the interpreter's bits.
template <class T, BuiltinOp Op, bool AC, bool BC, bool CR>
inline std::complex<double> binaryElem(const std::complex<double>& x,
                                       const std::complex<double>& y) {
  const T p = static_cast<T>(x.real()), q = static_cast<T>(x.imag());
  const T c = static_cast<T>(y.real()), d = static_cast<T>(y.imag());
  T re = 0, im = 0;
  if constexpr (!CR) {
    if constexpr (Op == BuiltinOp::Add) re = p + c;
    else if constexpr (Op == BuiltinOp::Sub) re = p - c;
    else if constexpr (Op == BuiltinOp::Mul) re = p * c;
    else re = p / c;
  } else if constexpr (Op == BuiltinOp::Add) {
    re = p + c;
    im = !AC ? d : !BC ? q : q + d;
  } else if constexpr (Op == BuiltinOp::Sub) {
    re = p - c;
    im = !AC ? -d : !BC ? q : q - d;
  } else if constexpr (!AC) {  // Mul
    re = p * c;
    im = p * d;
  } else if constexpr (!BC) {
    re = p * c;
    im = q * c;
  } else {
    re = p * c - q * d;
    im = p * d + q * c;
  }
  return {static_cast<double>(re), static_cast<double>(im)};
}

// A builtin other than MakeTuple applied to scalar values, computed in the precision of
// `result` (the call's type; when null, of the promoted operands). A memo, when given,
// remembers cisPi's and cisPiRatio's values.
Value scalarBuiltin(BuiltinOp op, std::span<const Value> args, const Type& result,
                    CisPiMemo* memo = nullptr);

}  // namespace fftc::ir::interp
