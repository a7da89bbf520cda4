// Table folding (table_folding.h): generator elements folded at compile time, tables in the
// source or in table buffers.
#include "compiler/codegen/table_folding.h"

#include <algorithm>
#include <array>
#include <complex>
#include <cstring>
#include <span>

#include "compiler/codegen/kernel_gen.h"
#include "compiler/codegen/scalar_ops.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CType;
using backends::MemSpace;
using ir::ArithExpr;
using ir::Type;

// Device bytes of a table of literals.
std::vector<uint8_t> tableBytes(const std::vector<CExpr>& values, const Type& elem) {
  std::vector<std::complex<double>> numbers;
  numbers.reserve(values.size());
  for (const auto& v : values) numbers.push_back(literalOf(v).value_or(0));
  return tableBytes(numbers, elem);
}

std::vector<uint8_t> tableBytes(std::span<const std::complex<double>> values, const Type& elem) {
  const bool dbl = elem.scalarKind() == ir::ScalarKind::Double;
  const size_t each = elem.isInt() ? 4 : (dbl ? 8 : 4) * (elem.isComplex() ? 2 : 1);
  std::vector<uint8_t> out(values.size() * each);
  uint8_t* at = out.data();
  auto put = [&at](const void* p, size_t n) {
    std::memcpy(at, p, n);
    at += n;
  };
  for (const auto& l : values) {
    if (elem.isInt()) {
      auto i = static_cast<int32_t>(l.real());
      put(&i, 4);
    } else if (dbl) {
      double re = l.real(), im = l.imag();
      put(&re, 8);
      if (elem.isComplex()) put(&im, 8);
    } else {
      float re = static_cast<float>(l.real()), im = static_cast<float>(l.imag());
      put(&re, 4);
      if (elem.isComplex()) put(&im, 4);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Bulk folding of a generator's elements (foldGeneratorTable).

namespace {

// A folded value as scalar_ops holds it: an int (an Index of a constant), a real or a complex
// literal, with its IR type.
struct Folded {
  enum class Kind : uint8_t { Int, Real, Complex };
  Kind kind = Kind::Int;
  int64_t i = 0;
  std::complex<double> v;
};

// Integer operations as ArithExpr folds constants (floor division and modulo); nullopt on
// overflow, a zero divisor, or operands so large that ArithExpr's own rewriting (a - b as
// a + -1·b) could overflow where this does not.
std::optional<int64_t> foldInt(ir::BuiltinOp op, int64_t a, int64_t b) {
  constexpr int64_t kLimit = int64_t{1} << 62;
  if (a <= -kLimit || a >= kLimit || b <= -kLimit || b >= kLimit) return std::nullopt;
  int64_t r = 0;
  switch (op) {
    case ir::BuiltinOp::Add: return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case ir::BuiltinOp::Sub: return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case ir::BuiltinOp::Mul: return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case ir::BuiltinOp::Neg: return -a;
    case ir::BuiltinOp::Div: {
      if (b == 0) return std::nullopt;
      int64_t q = a / b;
      if (a % b != 0 && ((a < 0) != (b < 0))) --q;
      return q;
    }
    case ir::BuiltinOp::Mod: {
      if (b == 0) return std::nullopt;
      int64_t m = a % b;
      if (m != 0 && ((m < 0) != (b < 0))) m += b;
      return m;
    }
    default: return std::nullopt;
  }
}

double roundTo(double v, const Type& t) {
  return t.scalarKind() == ir::ScalarKind::Double ? v : static_cast<float>(v);
}

// One element: every node of the program in order, as scalarOp and literalValue would give it.
bool foldElement(const ir::ScalarProgram& p, std::span<const int64_t> args,
                 std::vector<Folded>& slots, ir::interp::CisPiMemo& memo) {
  using Kind = ir::ScalarNode::Kind;
  const auto& nodes = p.nodes();
  for (size_t k = 0; k < nodes.size(); ++k) {
    const ir::ScalarNode& n = nodes[k];
    Folded& out = slots[k];
    if (n.kind == Kind::Arg) {
      out = {Folded::Kind::Int, args[n.arg], {}};
      continue;
    }
    if (n.kind == Kind::Literal) continue;  // set once (foldGeneratorTable)
    const Folded& a = slots[n.in[0]];
    const Folded& b = slots[n.in[n.arity > 1 ? 1 : 0]];
    if (n.type.isInt()) {  // integers stay exact (symbolic in scalarOp)
      if (a.kind != Folded::Kind::Int || b.kind != Folded::Kind::Int) return false;
      auto r = foldInt(n.op, a.i, b.i);
      if (!r) return false;
      out = {Folded::Kind::Int, *r, {}};
      continue;
    }
    if (n.op == ir::BuiltinOp::Mod || !(n.type.isReal() || n.type.isComplex())) return false;
    auto lit = [](const Folded& f) {
      return f.kind == Folded::Kind::Int ? std::complex<double>(static_cast<double>(f.i), 0) : f.v;
    };
    const std::array<std::complex<double>, 2> ops{lit(a), lit(b)};
    auto r = foldScalar(n.op, std::span(ops.data(), n.arity), n.type, &memo);
    if (!r) return false;
    if (n.type.isComplex())
      out = {Folded::Kind::Complex, 0, {roundTo(r->real(), n.type), roundTo(r->imag(), n.type)}};
    else
      out = {Folded::Kind::Real, 0, {roundTo(r->real(), n.type), 0}};
  }
  return true;
}

}  // namespace

std::optional<std::vector<CExpr>> foldGeneratorTable(const ir::ScalarProgram& program,
                                                     const std::vector<int64_t>& sizes) {
  auto f = foldGeneratorValues(program, sizes);
  if (!f) return std::nullopt;
  return literalsOf(*f);
}

std::vector<CExpr> literalsOf(const FoldedValues& f) {
  std::vector<CExpr> out;
  out.reserve(f.values.size());
  for (const auto& v : f.values)
    out.push_back(f.complex ? backends::cComplex(v.real(), v.imag(), f.ct)
                            : backends::cReal(v.real(), f.ct));
  return out;
}

std::optional<FoldedValues> foldGeneratorValues(const ir::ScalarProgram& program,
                                                const std::vector<int64_t>& sizes) {
  const auto& nodes = program.nodes();
  if (program.arity() != 2 * sizes.size() || nodes.empty()) return std::nullopt;
  std::vector<Folded> slots(nodes.size());
  for (size_t k = 0; k < nodes.size(); ++k) {
    if (nodes[k].kind != ir::ScalarNode::Kind::Literal) continue;
    const ir::Literal& l = *nodes[k].literal;
    switch (l.litKind()) {
      case ir::LiteralKind::Int: slots[k] = {Folded::Kind::Int, *l.intValue().constant(), {}}; break;
      case ir::LiteralKind::Real: slots[k] = {Folded::Kind::Real, 0, {l.realValue(), 0}}; break;
      case ir::LiteralKind::Complex: slots[k] = {Folded::Kind::Complex, 0, {l.re(), l.im()}}; break;
    }
  }
  const ir::Type& type = nodes.back().type;
  const CType ct = type.isReal() || type.isComplex() ? scalarCType(type) : CType();
  int64_t total = 1;
  for (auto n : sizes) total *= n;
  std::vector<int64_t> args(2 * sizes.size());
  std::copy(sizes.begin(), sizes.end(), args.begin() + static_cast<ptrdiff_t>(sizes.size()));
  ir::interp::CisPiMemo memo;
  FoldedValues out{{}, ct, type.isComplex()};
  out.values.reserve(static_cast<size_t>(total));
  for (int64_t k = 0; k < total; ++k) {
    int64_t rest = k;
    for (size_t d = sizes.size(); d-- > 0;) {
      args[d] = rest % sizes[d];
      rest /= sizes[d];
    }
    if (!foldElement(program, args, slots, memo)) return std::nullopt;
    const Folded& r = slots.back();
    // an int table: left to the element-wise fold
    if (r.kind == Folded::Kind::Int) return std::nullopt;
    out.values.push_back(r.kind == Folded::Kind::Real ? std::complex<double>(r.v.real(), 0) : r.v);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Generators: folded elements, tables, or inline computation.

ViewPtr KernelGen::generatorElement(const ir::ArrayGen& g, const std::vector<ArithExpr>& idx,
                                    const Type& elem) {
  auto applyAt = [&](const std::vector<ArithExpr>& at) {
    std::vector<Arg> args;
    for (const auto& i : at) args.push_back(Arg{nullptr, scalarView(backends::cIndex(i), Type::intType())});
    for (const auto& n : g.sizes())
      args.push_back(Arg{nullptr, scalarView(backends::cIndex(n), Type::intType())});
    return apply(*g.f(), args, elem, nullptr).view;
  };
  bool constant = std::all_of(idx.begin(), idx.end(), [](const ArithExpr& i) { return i.isConstant(); });
  if (constant) return applyAt(idx);
  if (opt_.tables) {
    auto it = tables_.find(&g);
    if (it == tables_.end()) it = tables_.emplace(&g, makeTable(g, elem)).first;
    if (it->second) {
      ViewPtr v = *it->second;
      for (const auto& i : idx) v = accessView(v, i);
      return v;
    }
  }
  return applyAt(idx);
}

std::optional<ViewPtr> KernelGen::makeTable(const ir::ArrayGen& g, const Type& elem) {
  if (elem.isTuple() || elem.isArray()) return std::nullopt;
  std::vector<int64_t> n;
  int64_t total = 1;
  for (const auto& s : g.sizes()) {
    auto c = s.constant();
    if (!c) return std::nullopt;
    n.push_back(*c);
    total *= *c;
  }
  if (total <= 0 || total > opt_.maxTableElements) return std::nullopt;
  if (opt_.bulkTableFolding) {
    if (auto program = ir::ScalarProgram::compile(*g.f(), 2 * n.size())) {
      if (auto f = foldGeneratorValues(*program, n)) {
        // (element by element, the first operation would have opened the stage)
        if (program->hasOps() && atTopLevel() && cur_ < 0) openStage(false);
        return tableMemory(elem, n, f->values, f->ct, f->complex);
      }
    }
  }
  // Evaluate every element at compile time, in a scratch block that is thrown away.
  auto scratch = backends::sBlock();
  blocks_.push_back(scratch);
  ++dryRun_;
  std::vector<CExpr> values;
  std::vector<int64_t> at(n.size(), 0);
  bool ok = true;
  try {
    for (int64_t k = 0; k < total && ok; ++k) {
      int64_t rest = k;
      for (size_t d = n.size(); d-- > 0;) {
        at[d] = rest % n[d];
        rest /= n[d];
      }
      std::vector<Arg> args;
      for (auto i : at) args.push_back(Arg{nullptr, scalarView(backends::cIndex(i), Type::intType())});
      for (auto s : n) args.push_back(Arg{nullptr, scalarView(backends::cIndex(s), Type::intType())});
      ViewPtr v = apply(*g.f(), args, elem, nullptr).view;
      if (v->kind != ViewKind::Scalar || !backends::isLiteral(v->expr)) ok = false;
      else values.push_back(v->expr);
    }
  } catch (const ir::CompileError&) {
    ok = false;
  }
  --dryRun_;
  blocks_.pop_back();
  if (!ok || !scratch->body.empty()) return std::nullopt;
  return tableMemory(elem, n, std::move(values));
}

ViewPtr KernelGen::tableView(const ir::Table& t) {
  auto it = foldedTables_.find(&t);
  if (it != foldedTables_.end()) return it->second;
  std::vector<int64_t> n;
  Type elem = t.type();
  for (; elem.isArray(); elem = elem.element()) n.push_back(*elem.size().constant());
  return foldedTables_[&t] = tableMemory(elem, n, t.values(), ctype(elem), elem.isComplex());
}

ViewPtr KernelGen::gatherOf(const ViewPtr& parent, const std::vector<int64_t>& idx) {
  auto it = gatherTables_.find(&idx);
  if (it == gatherTables_.end()) {
    std::vector<CExpr> values;
    values.reserve(idx.size());
    for (int64_t j : idx) values.push_back(backends::cIndex(j));
    GatherTable t{std::make_shared<const std::vector<int64_t>>(idx),
                  tableMemory(Type::intType(), {static_cast<int64_t>(idx.size())}, values)};
    it = gatherTables_.emplace(&idx, std::move(t)).first;
  }
  return gatherView(parent, it->second.indices, it->second.table);
}

ViewPtr KernelGen::tableMemory(const Type& elem, const std::vector<int64_t>& n,
                               std::vector<CExpr> values) {
  const auto total = static_cast<int64_t>(values.size());
  if (total * deviceBytes(elem) > opt_.constantTableMaxBytes)
    return tableBuffer(elem, n, tableBytes(values, elem));
  Type full = elem;
  for (size_t d = n.size(); d-- > 0;) full = Type::array(full, n[d]);
  CType ct = ctype(elem);
  auto m = std::make_shared<Memory>();
  m->type = full;
  m->element = elem;
  m->elemC = ct;
  m->count = total;
  m->name = fresh("tab");
  m->role = MemRole::Table;
  m->space = MemSpace::Constant;
  module_.tables.push_back(backends::ConstTable{m->name, ct, values});
  return memView(m, full);
}

ViewPtr KernelGen::tableMemory(const Type& elem, const std::vector<int64_t>& n,
                               std::span<const std::complex<double>> values, const CType& ct,
                               bool complex) {
  if (static_cast<int64_t>(values.size()) * deviceBytes(elem) > opt_.constantTableMaxBytes)
    return tableBuffer(elem, n, tableBytes(values, elem));
  return tableMemory(elem, n, literalsOf({{values.begin(), values.end()}, ct, complex}));
}

ViewPtr KernelGen::tableBuffer(const Type& elem, const std::vector<int64_t>& n,
                               std::vector<uint8_t> bytes) {
  Type full = elem;
  int64_t total = 1;
  for (size_t d = n.size(); d-- > 0;) {
    full = Type::array(full, n[d]);
    total *= n[d];
  }
  auto m = std::make_shared<Memory>();
  m->type = full;
  m->element = elem;
  m->elemC = ctype(elem);
  m->count = total;
  m->name = fresh("tw");
  m->role = MemRole::Table;
  m->space = MemSpace::Global;
  buffers_.push_back(m);
  tableData_[m.get()] = std::move(bytes);
  return memView(m, full);
}

}  // namespace fftc::compiler::codegen
