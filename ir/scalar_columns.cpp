// Element programs evaluated a block of elements at a time (scalar_columns.h).
#include "ir/scalar_columns.h"

#include <algorithm>
#include <array>

namespace fftc::ir {

namespace {

using Cx = std::complex<double>;
using interp::binaryElem;

constexpr int64_t kBlock = 2048;  // elements per loop: the columns stay in the cache

// A value of several kinds cannot be a table: the caller interprets instead.
struct MixedKinds {};

bool isCx(ValueKind k) {
  return k == ValueKind::ComplexFloat || k == ValueKind::ComplexDouble;
}
ScalarKind precisionOf(ValueKind k) {
  return k == ValueKind::Float || k == ValueKind::ComplexFloat ? ScalarKind::Float
                                                               : ScalarKind::Double;
}

// One node's values for the elements of a block (one value for all when `constant`).
struct Column {
  ValueKind kind = ValueKind::Int;
  bool constant = false;
  std::vector<int64_t> ints;  // Int
  std::vector<Cx> nums;       // the others, reals with im 0

  size_t at(int64_t i) const { return constant ? 0 : static_cast<size_t>(i); }
  double real(int64_t i) const {  // Value::asReal
    return kind == ValueKind::Int ? static_cast<double>(ints[at(i)]) : nums[at(i)].real();
  }
  Cx cx(int64_t i) const { return kind == ValueKind::Int ? Cx(real(i), 0.0) : nums[at(i)]; }
  Value value(int64_t i) const {
    switch (kind) {
      case ValueKind::Int:
        return Value::ofInt(ints[at(i)]);
      case ValueKind::Float:
        return Value::ofFloat(static_cast<float>(nums[at(i)].real()));
      case ValueKind::Double:
        return Value::ofDouble(nums[at(i)].real());
      default:
        return Value::ofComplex(nums[at(i)], precisionOf(kind));
    }
  }
  void resize(ValueKind k, int64_t n) {
    kind = k;
    if (k == ValueKind::Int)
      ints.resize(static_cast<size_t>(n));
    else
      nums.resize(static_cast<size_t>(n));
  }
  void set(int64_t i, const Value& v) {
    if (v.kind() != kind || v.isTuple() || v.isArray()) throw MixedKinds{};
    if (kind == ValueKind::Int)
      ints[static_cast<size_t>(i)] = v.asInt();
    else
      nums[static_cast<size_t>(i)] = v.asComplex();
  }
};

int64_t wrapped(BuiltinOp op, int64_t x, int64_t y) {
  const auto a = static_cast<uint64_t>(x), b = static_cast<uint64_t>(y);
  switch (op) {
    case BuiltinOp::Add:
      return static_cast<int64_t>(a + b);
    case BuiltinOp::Sub:
      return static_cast<int64_t>(a - b);
    case BuiltinOp::Mul:
      return static_cast<int64_t>(a * b);
    case BuiltinOp::Div:
      return interp::floorDiv(x, y);
    default:
      return interp::floorMod(x, y);
  }
}

template <class T, BuiltinOp Op, bool AC, bool BC, bool CR>
void numsLoop(const Column& a, const Column& b, int64_t m, Column& out) {
  for (int64_t i = 0; i < m; ++i)
    out.nums[static_cast<size_t>(i)] = binaryElem<T, Op, AC, BC, CR>(a.cx(i), b.cx(i));
}

template <class T, BuiltinOp Op>
void numsOf(const Column& a, const Column& b, int64_t m, bool cr, Column& out) {
  const bool ac = isCx(a.kind), bc = isCx(b.kind);
  if (!cr) return numsLoop<T, Op, false, false, false>(a, b, m, out);
  if (ac && bc) return numsLoop<T, Op, true, true, true>(a, b, m, out);
  if (ac) return numsLoop<T, Op, true, false, true>(a, b, m, out);
  if (bc) return numsLoop<T, Op, false, true, true>(a, b, m, out);
  numsLoop<T, Op, false, false, true>(a, b, m, out);
}

template <class T>
void numsBy(BuiltinOp op, const Column& a, const Column& b, int64_t m, bool cr, Column& out) {
  switch (op) {
    case BuiltinOp::Add:
      return numsOf<T, BuiltinOp::Add>(a, b, m, cr, out);
    case BuiltinOp::Sub:
      return numsOf<T, BuiltinOp::Sub>(a, b, m, cr, out);
    case BuiltinOp::Mul:
      return numsOf<T, BuiltinOp::Mul>(a, b, m, cr, out);
    default:
      return numsOf<T, BuiltinOp::Div>(a, b, m, cr, out);
  }
}

// The typed loops where they are scalarBuiltin's cases; true when one ran.
bool typedOp(const ScalarNode& n, const Column& a, const Column* b, int64_t m,
             interp::CisPiMemo& memo, Column& out) {
  if (!n.type) return false;
  const ValueKind rk = interp::kindOf(n.type);
  const BuiltinOp op = n.op;
  const bool arith = op == BuiltinOp::Add || op == BuiltinOp::Sub || op == BuiltinOp::Mul ||
                     op == BuiltinOp::Div || op == BuiltinOp::Mod;
  if (b && arith) {
    if (rk == ValueKind::Int) {
      if (a.kind != ValueKind::Int || b->kind != ValueKind::Int) return false;
      out.resize(rk, m);
      for (int64_t i = 0; i < m; ++i)
        out.ints[static_cast<size_t>(i)] = wrapped(op, a.ints[a.at(i)], b->ints[b->at(i)]);
      return true;
    }
    const bool cr = isCx(rk);
    if (op == BuiltinOp::Mod || (cr && op == BuiltinOp::Div) ||
        (!cr && (isCx(a.kind) || isCx(b->kind))))
      return false;
    out.resize(rk, m);
    if (precisionOf(rk) == ScalarKind::Float)
      numsBy<float>(op, a, *b, m, cr, out);
    else
      numsBy<double>(op, a, *b, m, cr, out);
    return true;
  }
  if (b && op == BuiltinOp::CisPiRatio && isCx(rk) && a.kind == ValueKind::Int &&
      b->kind == ValueKind::Int) {
    // scalarBuiltin's case, the memo's entries of the block fetched first (CisPiMemo::prefetch)
    out.resize(rk, m);
    const ScalarKind sk = precisionOf(rk);
    for (int64_t i = 0; i < m; ++i) memo.prefetch(a.ints[a.at(i)], b->ints[b->at(i)]);
    for (int64_t i = 0; i < m; ++i)
      out.nums[static_cast<size_t>(i)] =
          Value::ofComplex(memo.ratio(a.ints[a.at(i)], b->ints[b->at(i)]).in(sk), sk).asComplex();
    return true;
  }
  if (!b && op == BuiltinOp::CisPi && isCx(rk)) {
    out.resize(rk, m);
    for (int64_t i = 0; i < m; ++i) {
      double x = a.real(i);  // rounded to the computation's precision first, like the C code
      if (rk == ValueKind::ComplexFloat) x = static_cast<float>(x);
      out.nums[static_cast<size_t>(i)] =
          Value::ofComplex(memo(x).in(precisionOf(rk)), precisionOf(rk)).asComplex();
    }
    return true;
  }
  return false;
}

void evalOp(const ScalarNode& n, const std::vector<Column>& cols, int64_t count,
            interp::CisPiMemo& memo, Column& out) {
  const Column& a = cols[n.in[0]];
  const Column* b = n.arity > 1 ? &cols[n.in[1]] : nullptr;
  out.constant = a.constant && (!b || b->constant);
  const int64_t m = out.constant ? 1 : count;
  if (typedOp(n, a, b, m, memo, out)) return;
  std::array<Value, 2> args;
  for (int64_t i = 0; i < m; ++i) {
    args[0] = a.value(i);
    if (b) args[1] = b->value(i);
    const Value r =
        interp::scalarBuiltin(n.op, std::span<const Value>(args.data(), n.arity), n.type, &memo);
    if (i == 0) out.resize(r.kind(), m);
    out.set(i, r);
  }
}

Column constantOf(const Value& v) {
  Column c;
  c.constant = true;
  c.resize(v.kind(), 1);
  c.set(0, v);
  return c;
}

Value literalValue(const Literal& l) {
  switch (l.litKind()) {
    case LiteralKind::Int:
      return Value::ofInt(*l.intValue().constant());
    case LiteralKind::Real:
      return Value::ofReal(l.realValue(), l.precision());
    default:
      return Value::ofComplex({l.re(), l.im()}, l.precision());
  }
}

}  // namespace

std::optional<ScalarTable> evaluateTable(const ScalarProgram& program,
                                         std::span<const int64_t> sizes, interp::CisPiMemo& memo) {
  const auto& nodes = program.nodes();
  const size_t k = sizes.size();
  int64_t total = 1;
  for (int64_t s : sizes) total *= s;
  if (program.arity() != 2 * k || total <= 0 || nodes.empty()) return std::nullopt;
  std::vector<Column> cols(nodes.size());
  for (size_t i = 0; i < nodes.size(); ++i) {
    const ScalarNode& n = nodes[i];
    if (n.kind == ScalarNode::Kind::Literal) cols[i] = constantOf(literalValue(*n.literal));
    if (n.kind == ScalarNode::Kind::Arg && n.arg >= k)
      cols[i] = constantOf(Value::ofInt(sizes[n.arg - k]));
  }
  ScalarTable out;
  out.values.resize(static_cast<size_t>(total));
  std::vector<int64_t> first(k, 0);  // the index of the block's first element
  std::vector<std::vector<int64_t>> index(k, std::vector<int64_t>(static_cast<size_t>(kBlock)));
  try {
    for (int64_t start = 0; start < total; start += kBlock) {
      const int64_t count = std::min(kBlock, total - start);
      std::vector<int64_t> at = first;
      for (int64_t j = 0; j < count; ++j) {
        for (size_t d = 0; d < k; ++d) index[d][static_cast<size_t>(j)] = at[d];
        for (size_t d = k; d-- > 0;) {  // the next index, row-major
          if (++at[d] < sizes[d]) break;
          at[d] = 0;
        }
      }
      first = at;
      for (size_t i = 0; i < nodes.size(); ++i) {
        const ScalarNode& n = nodes[i];
        if (n.kind == ScalarNode::Kind::Arg && n.arg < k) {
          cols[i].constant = false;
          cols[i].kind = ValueKind::Int;
          cols[i].ints.assign(index[n.arg].begin(), index[n.arg].begin() + count);
        } else if (n.kind == ScalarNode::Kind::Op) {
          evalOp(n, cols, count, memo, cols[i]);
        }
      }
      const Column& r = cols.back();
      if (r.kind == ValueKind::Int) return std::nullopt;
      if (start == 0) out.kind = r.kind;
      if (r.kind != out.kind) return std::nullopt;
      for (int64_t j = 0; j < count; ++j) out.values[static_cast<size_t>(start + j)] = r.cx(j);
    }
  } catch (const MixedKinds&) {
    return std::nullopt;
  }
  return out;
}

}  // namespace fftc::ir
