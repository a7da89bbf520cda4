// The reference interpreter's scalar arithmetic (interpreter.h fixes its semantics), shared by
// the interpreter and the bulk evaluation of generators (scalar_program.h), so both agree bit for bit.
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "ir/expr.h"
#include "ir/interpreter.h"
#include "ir/value.h"

namespace fftc::ir::interp {

[[noreturn]] void error(const std::string& msg);  // throws InterpreterError

ValueKind kindOf(const Type& t);  // the value kind of a scalar type
int64_t floorDiv(int64_t a, int64_t b);
int64_t floorMod(int64_t a, int64_t b);
Value realOf(double v, ValueKind k);  // Float rounds

// cisPi and cisPiRatio by their arguments: a table evaluates few distinct angles many times
// (ω_L^{jk·l} of RepOfB is one of L angles for L·r elements), and each is a long double sin and
// cos. Both are pure functions of their arguments, so a remembered value is the same bits.
class CisPiMemo {
 public:
  CisPiRounded operator()(double x);             // cisPiRounded(x)
  CisPiRounded ratio(int64_t p, int64_t q);      // cisPiRatio(p, q)

 private:
  // Open addressing by a mixed hash of the key (the bits of 2k/L differ in few high places:
  // std::unordered_map's identity hash chained them), linear probing, a power-of-two size. A
  // real x is the key {0, its bits}; a ratio {q, p} (q != 0).
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
};

// A builtin other than MakeTuple applied to scalar values, computed in the precision of
// `result` (the call's type; when null, of the promoted operands). A memo, when given,
// remembers cisPi's and cisPiRatio's values.
Value scalarBuiltin(BuiltinOp op, std::span<const Value> args, const Type& result,
                    CisPiMemo* memo = nullptr);

}  // namespace fftc::ir::interp
