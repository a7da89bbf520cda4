// Table folding (table_folding.h): generator elements folded at compile time, tables in the
// source or in table buffers.
#include "compiler/codegen/table_folding.h"

#include "compiler/codegen/kernel_gen.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CType;
using backends::MemSpace;
using ir::ArithExpr;
using ir::Type;

// Device bytes of a table of literals.
std::vector<uint8_t> tableBytes(const std::vector<CExpr>& values, const Type& elem) {
  std::vector<uint8_t> out;
  auto put = [&](const void* p, size_t n) {
    const auto* b = static_cast<const uint8_t*>(p);
    out.insert(out.end(), b, b + n);
  };
  const bool dbl = elem.scalarKind() == ir::ScalarKind::Double;
  for (const auto& v : values) {
    auto l = literalOf(v).value_or(0);
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
  const CType ct = ctype(elem);
  std::vector<CExpr> values;
  values.reserve(t.values().size());
  for (const auto& v : t.values())
    values.push_back(elem.isComplex() ? backends::cComplex(v.real(), v.imag(), ct)
                                      : backends::cReal(v.real(), ct));
  return foldedTables_[&t] = tableMemory(elem, n, std::move(values));
}

ViewPtr KernelGen::tableMemory(const Type& elem, const std::vector<int64_t>& n,
                               std::vector<CExpr> values) {
  const auto total = static_cast<int64_t>(values.size());
  Type full = elem;
  for (size_t d = n.size(); d-- > 0;) full = Type::array(full, n[d]);
  CType ct = ctype(elem);
  const int64_t bytes = total * deviceBytes(elem);
  auto m = std::make_shared<Memory>();
  m->type = full;
  m->element = elem;
  m->elemC = ct;
  m->count = total;
  if (bytes <= opt_.constantTableMaxBytes) {
    m->name = fresh("tab");
    m->role = MemRole::Table;
    m->space = MemSpace::Constant;
    module_.tables.push_back(backends::ConstTable{m->name, ct, values});
  } else {
    m->name = fresh("tw");
    m->role = MemRole::Table;
    m->space = MemSpace::Global;
    buffers_.push_back(m);
    tableData_[m.get()] = values;
  }
  return memView(m, full);
}

}  // namespace fftc::compiler::codegen
