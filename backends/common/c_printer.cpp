// The C-like printer (c_printer.h): one statement a line, two-space indentation, minimal
// parentheses around operands that are not atomic.
#include "backends/common/c_printer.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <stdexcept>

namespace fftc::backends {

std::string CDialect::dynamicLocalBase() const {
  throw std::logic_error(name() + " has no dynamic local memory");
}
std::string CDialect::sinCosPi(const std::string& x, const std::string& s, const std::string& c,
                               bool isDouble) const {
  return s + " = " + mathFunction("sinpi", isDouble) + "(" + x + ");\n  " + c + " = " +
         mathFunction("cospi", isDouble) + "(" + x + ");";
}
std::string CDialect::dynamicLocalArray(const std::string&, const std::string&, int64_t) const {
  throw std::logic_error(name() + " has no dynamic local memory");
}

std::string CDialect::typeName(const CType& t) const {
  switch (t.kind) {
    case CType::Kind::Void: return "void";
    case CType::Kind::Bool: return "int";
    case CType::Kind::Int: return "int";
    case CType::Kind::Float: return "float";
    case CType::Kind::Double: return "double";
    case CType::Kind::ComplexFloat: return "float2";
    case CType::Kind::ComplexDouble: return "double2";
    case CType::Kind::Struct: return t.structName;
  }
  return "void";
}

std::string CPrinter::literal(double v, bool isDouble) const {
  if (std::isnan(v)) return isDouble ? "NAN" : "NAN";
  if (std::isinf(v)) return v > 0 ? "INFINITY" : "-INFINITY";
  std::string s;
  // The shortest text that reads back as the same value in its precision.
  for (int p = 1; p <= 17; ++p) {
    s = fmt::format("{:.{}g}", v, p);
    // (a float literal is read as a float, not through a double: strtof, not strtod)
    if (isDouble ? std::strtod(s.c_str(), nullptr) == v
                 : std::strtof(s.c_str(), nullptr) == static_cast<float>(v))
      break;
  }
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  if (!isDouble) s += "f";
  return s;
}

std::string CPrinter::operand(const CExpr& e) const {
  switch (e->kind) {
    case CExprKind::Binary:
    case CExprKind::Compare:
    case CExprKind::Select:
    case CExprKind::Cast:
    case CExprKind::Unary: return "(" + expr(e) + ")";
    case CExprKind::Index: {
      std::string s = expr(e);
      return e->index.kind() == ir::ArithKind::Const || e->index.kind() == ir::ArithKind::Var
                 ? s
                 : "(" + s + ")";
    }
    case CExprKind::RealLit:
      return e->re < 0 ? "(" + expr(e) + ")" : expr(e);
    default: return expr(e);
  }
}

std::string CPrinter::expr(const CExpr& e) const {
  switch (e->kind) {
    case CExprKind::Var: return e->name;
    case CExprKind::Index: return e->index.toC();
    case CExprKind::RealLit: return literal(e->re, e->type.isDouble());
    case CExprKind::ComplexLit:
      return d_.makeComplex(d_.typeName(e->type), literal(e->re, e->type.isDouble()),
                            literal(e->im, e->type.isDouble()));
    case CExprKind::Unary: return e->name + operand(e->args[0]);
    case CExprKind::Binary:
      return operand(e->args[0]) + " " + e->name + " " + operand(e->args[1]);
    case CExprKind::Compare: {
      auto side = [](const ir::ArithExpr& a) {
        std::string s = a.toC();
        return a.kind() == ir::ArithKind::Const || a.kind() == ir::ArithKind::Var ? s
                                                                                 : "(" + s + ")";
      };
      return side(e->index) + " " + e->name + " " + side(e->index2);
    }
    case CExprKind::Call: {
      std::string s = e->name + "(";
      for (size_t i = 0; i < e->args.size(); ++i) s += (i ? ", " : "") + expr(e->args[i]);
      return s + ")";
    }
    case CExprKind::Member: return operand(e->args[0]) + "." + e->name;
    case CExprKind::Subscript: {
      const CExpr& base = e->args[0];
      if (base->kind == CExprKind::Var)
        if (auto it = readOnlyParams_.find(base->name); it != readOnlyParams_.end())
          return d_.readOnlyLoad(base->name, e->index.toC(), it->second);
      return operand(base) + "[" + e->index.toC() + "]";
    }
    case CExprKind::Select:
      return operand(e->args[0]) + " ? " + operand(e->args[1]) + " : " + operand(e->args[2]);
    case CExprKind::Cast: return "(" + d_.typeName(e->type) + ")" + operand(e->args[0]);
    case CExprKind::MakeComplex: {
      // a complex number (two parts) or a vector (cMakeVector): the dialect's constructor
      // with the parts' list, the last one as its second argument
      std::string first = expr(e->args[0]);
      for (size_t i = 1; i + 1 < e->args.size(); ++i) first += ", " + expr(e->args[i]);
      return d_.makeComplex(d_.typeName(e->type), first, expr(e->args.back()));
    }
    case CExprKind::WorkItem: return d_.workItem(e->fn, e->dim);
    case CExprKind::Vector: {
      const std::string& base = e->args[0]->name;
      return d_.vectorLoad(base, e->index.toC(), e->dim, e->type, readOnlyParams_.count(base) > 0);
    }
  }
  throw std::logic_error("CPrinter: unknown expression kind");
}

std::string CPrinter::stmt(const Stmt& s, int indent) const {
  std::string pad(static_cast<size_t>(indent) * 2, ' ');
  auto block = [&](const std::vector<StmtPtr>& body) {
    std::string out;
    for (const auto& c : body) out += stmt(*c, indent + 1);
    return out;
  };
  switch (s.kind) {
    case StmtKind::Block: {
      if (indent < 0) return block(s.body);
      return pad + "{\n" + block(s.body) + pad + "}\n";
    }
    case StmtKind::Decl: {
      if (s.dynamicOffset)
        return pad + d_.dynamicLocalArray(d_.typeName(s.type), s.name, *s.dynamicOffset) + ";\n";
      std::string q = s.arrayCount ? d_.variableSpace(s.space) : "";
      if (s.arrayCount && s.align > 0) q += d_.alignPrefix(s.align);
      std::string out = pad + (q.empty() ? "" : q + " ") + (s.isConst ? "const " : "") +
                        d_.typeName(s.type) + " " + s.name;
      if (s.arrayCount) out += "[" + std::to_string(*s.arrayCount) + "]";
      if (s.arrayCount && s.align > 0) out += d_.alignSuffix(s.align);
      if (s.init) out += " = " + expr(s.init);
      return out + ";\n";
    }
    case StmtKind::Assign:
      if (s.lhs->kind == CExprKind::Vector)
        return pad +
               d_.vectorStore(s.lhs->args[0]->name, s.lhs->index.toC(), s.lhs->dim,
                              s.lhs->type, expr(s.rhs)) +
               ";\n";
      return pad + expr(s.lhs) + " = " + expr(s.rhs) + ";\n";
    case StmtKind::ExprStmt: return pad + expr(s.rhs) + ";\n";
    case StmtKind::For: {
      // A wide loop computes its start and stride in 64 bits too (work-item ids and grid
      // sizes are printed as int otherwise).
      auto operand64 = [&](const CExpr& e) {
        return s.wide && e->kind == CExprKind::WorkItem ? d_.workItem64(e->fn, e->dim) : expr(e);
      };
      std::string bound = s.boundExpr ? expr(s.boundExpr) : s.bound.toC();
      std::string step = s.step ? s.name + " += " + operand64(s.step) : "++" + s.name;
      std::string out = s.unroll ? pad + d_.unrollPragma() + "\n" : "";
      out += pad + "for (" + (s.wide ? d_.int64Type() : std::string("int")) + " " + s.name +
             " = " + operand64(s.init) + "; " + s.name + " < " + bound + "; " + step + ") {\n";
      return out + block(s.body) + pad + "}\n";
    }
    case StmtKind::If:
      return pad + "if (" + expr(s.cond) + ") {\n" + block(s.body) + pad + "}\n";
    case StmtKind::Barrier:
      return pad +
             (clusterKernel_ && !s.blockOnly ? d_.clusterBarrier()
                                             : d_.barrier(s.localFence, s.globalFence)) +
             ";\n";
    case StmtKind::Comment: return pad + "// " + s.name + "\n";
  }
  throw std::logic_error("CPrinter: unknown statement kind");
}

std::string CPrinter::kernel(const KernelFunc& k) const {
  const bool cluster = k.clusterBlocks > 1;
  std::string out = d_.kernelPrefix() + d_.launchBounds(k.maxWorkItems, k.minBlocks) +
                    (cluster ? d_.clusterDims(k.clusterBlocks) : "") + " " + k.name + "(";
  for (size_t i = 0; i < k.params.size(); ++i) {
    const auto& p = k.params[i];
    out += i ? ", " : "";
    if (p.pointer) {
      std::string q = d_.pointerSpace(p.space);
      out += (q.empty() ? "" : q + " ") + (p.readOnly ? "const " : "") + d_.typeName(p.type) +
             "* " + (d_.restrictKeyword().empty() ? "" : d_.restrictKeyword() + " ") + p.name;
    } else {
      out += (p.readOnly ? "const " : "") + d_.typeName(p.type) + " " + p.name;
    }
  }
  out += ") {\n";
  readOnlyParams_.clear();
  for (const auto& p : k.params)
    if (p.pointer && p.readOnly && p.space == MemSpace::Global) readOnlyParams_[p.name] = p.type;
  if (std::any_of(k.body->body.begin(), k.body->body.end(),
                  [](const StmtPtr& c) { return c->kind == StmtKind::Decl && c->dynamicOffset; }))
    out += "  " + d_.dynamicLocalBase() + ";\n";
  // A block reads and writes the others' shared memory only while all of them run: the
  // cluster's barrier after they start and before any ends (CUDA C++ Programming Guide,
  // "Distributed Shared Memory").
  clusterKernel_ = cluster;
  if (cluster) out += "  " + d_.clusterBarrier() + ";\n";
  for (const auto& c : k.body->body) out += stmt(*c, 1);
  if (cluster) out += "  " + d_.clusterBarrier() + ";\n";
  clusterKernel_ = false;
  readOnlyParams_.clear();
  return out + "}\n";
}

std::string CPrinter::helpers(const Module& m) const {
  std::string out;
  for (const auto& [name, def] : helperDefinitions(m)) out += def;
  return out + d_.extraHelpers(m);
}

std::vector<std::pair<std::string, std::string>> CPrinter::helperDefinitions(
    const Module& m) const {
  std::vector<std::pair<std::string, std::string>> out;
  const std::string fp = d_.functionPrefix();
  const std::string l = d_.int64Type();
  out.emplace_back("fftc_floordiv", fp + " int fftc_floordiv(int a, int b) {\n  int q = a / b;\n"
                   "  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}\n");
  out.emplace_back("fftc_floormod", fp + " int fftc_floormod(int a, int b) {\n  int r = a % b;\n"
                   "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}\n");
  out.emplace_back("fftc_floordiv64",
                   fmt::format("{0} {1} fftc_floordiv64({1} a, {1} b) {{\n  {1} q = a / b;\n"
                               "  return (a % b != 0 && ((a < 0) != (b < 0))) ? q - 1 : q;\n}}\n",
                               fp, l));
  out.emplace_back("fftc_floormod64",
                   fmt::format("{0} {1} fftc_floormod64({1} a, {1} b) {{\n  {1} r = a % b;\n"
                               "  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;\n}}\n",
                               fp, l));
  for (bool dbl : {false, true}) {
    if ((dbl && !m.usesDouble) || (!dbl && !m.usesFloat)) continue;
    const std::string c = dbl ? "double2" : "float2";
    const std::string r = dbl ? "double" : "float";
    const std::string s = precisionSuffix(dbl);
    auto mk = [&](const std::string& a, const std::string& b) { return d_.makeComplex(c, a, b); };
    auto fn = [&](const std::string& name, const std::string& params, const std::string& body) {
      const std::string full = "fftc_" + name + "_" + s;
      out.emplace_back(full, fp + " " + c + " " + full + "(" + params + ") {\n  " + body + "\n}\n");
    };
    auto ret = [](const std::string& e) { return "return " + e + ";"; };
    std::string ab = c + " a, " + c + " b";
    fn("cadd", ab, ret(mk("a.x + b.x", "a.y + b.y")));
    fn("csub", ab, ret(mk("a.x - b.x", "a.y - b.y")));
    fn("cmul", ab, ret(mk("a.x * b.x - a.y * b.y", "a.x * b.y + a.y * b.x")));
    fn("cdiv", ab,
       r + " d = b.x * b.x + b.y * b.y;\n  " +
           ret(mk("(a.x * b.x + a.y * b.y) / d", "(a.y * b.x - a.x * b.y) / d")));
    fn("cneg", c + " a", ret(mk("-a.x", "-a.y")));
    fn("cconj", c + " a", ret(mk("a.x", "-a.y")));
    fn("cmuli", c + " a", ret(mk("-a.y", "a.x")));       // a * i
    fn("cmulmi", c + " a", ret(mk("a.y", "-a.x")));      // a * -i
    fn("cscale", c + " a, " + r + " k", ret(mk("a.x * k", "a.y * k")));
    fn("cispi", r + " x",
       ret(mk(d_.mathFunction("cospi", dbl) + "(x)", d_.mathFunction("sinpi", dbl) + "(x)")));
    // cispi(p / q) as the interpreter's cisPiRatio reduces it, in integers: 2p mod 4q gives the
    // quadrant, the remainder u of it the angle (π/2)·min(u, q - u)/q <= π/4, the only rounding
    // (a float quotient at most 1/2 rather than an angle up to 2π: 8x less error)
    const std::string reduce = "if (q < 0) {\n    p = -p;\n    q = -q;\n  }\n  " + l +
                               " m = (2 * p) % (4 * q);\n  if (m < 0) m += 4 * q;\n  ";
    const std::string quadrant = "const int quadrant = (int)(m / q);\n  const " + l +
                                 " u = m - quadrant * q;\n  const int complement = 2 * u > q;\n  ";
    const std::string angle = "const " + r + " g = (" + r + ")(complement ? q - u : u) / (" + r +
                              ")q * (" + r + ")0.5;\n  " + r + " c = " +
                              d_.mathFunction("cospi", dbl) + "(g), s = " +
                              d_.mathFunction("sinpi", dbl) + "(g);\n  ";
    const std::string turn = "if (complement) {\n    const " + r +
                             " t = c;\n    c = s;\n    s = t;\n  }\n  return quadrant == 0 ? " +
                             mk("c", "s") + " : quadrant == 1 ? " + mk("-s", "c") +
                             "\n       : quadrant == 2 ? " + mk("-c", "-s") + " : " +
                             mk("s", "-c") + ";";
    fn("cispiratio", l + " p, " + l + " q", reduce + quadrant + angle + turn);
    // The same for a denominator q in [1, 2^28] (scalarOp proves it): 2p mod 4q = 2 (p mod 2q)
    // in int, no 64-bit division, and one sincospi. When q is a power of two, p mod 2q is p's
    // low bits, and (q at most 2^23 in f32) r / q is exact: sincospi reduces an exact argument
    // exactly (it subtracts a multiple of 1/2), so it gives the value of the reduction below,
    // with no quadrant logic. With a constant q (the FFTs' twiddles) one branch remains, its
    // divisions shifts and masks.
    const std::string reduce32 =
        r + " s, c;\n  const int pow2 = (q & (q - 1)) == 0;\n  int r = pow2 ? "
        "(int)((unsigned)p & (2u * (unsigned)q - 1u)) : p % (2 * q);\n  if (r < 0) r += 2 * q;\n  ";
    const std::string exact = "if (pow2" + std::string(dbl ? "" : " && q <= 8388608") +
                              ") {\n    const " + r + " x = (" + r + ")r / (" + r + ")q;\n    " +
                              d_.sinCosPi("x", "s", "c", dbl) + "\n    return " + mk("c", "s") +
                              ";\n  }\n  ";
    const std::string quadrant32 =
        "const int quadrant = 2 * r / q;\n  const int u = 2 * r - quadrant * q;\n"
        "  const int complement = 2 * u > q;\n  ";
    const std::string angle32 = "const " + r + " g = (" + r + ")(complement ? q - u : u) / (" + r +
                                ")q * (" + r + ")0.5;\n  " + d_.sinCosPi("g", "s", "c", dbl) +
                                "\n  ";
    // the quadrant's turn, times i and times -1, as selects rather than branches
    const std::string turn32 = "if (complement) {\n    const " + r +
                               " t = c;\n    c = s;\n    s = t;\n  }\n  if (quadrant & 1) {\n"
                               "    const " + r + " t = c;\n    c = -s;\n    s = t;\n  }\n"
                               "  if (quadrant & 2) {\n    c = -c;\n    s = -s;\n  }\n  " +
                               ret(mk("c", "s"));
    fn("cispiratio32", "int p, int q", reduce32 + exact + quadrant32 + angle32 + turn32);
    fn("cexp", c + " a",
       r + " e = " + d_.mathFunction("exp", dbl) + "(a.x);\n  " +
           ret(mk("e * " + d_.mathFunction("cos", dbl) + "(a.y)",
                  "e * " + d_.mathFunction("sin", dbl) + "(a.y)")));
  }
  return out;
}

std::string CPrinter::tableElement(const CExpr& e) const {
  if (e->kind == CExprKind::ComplexLit && d_.aggregateTableElements())
    return "{" + literal(e->re, e->type.isDouble()) + ", " + literal(e->im, e->type.isDouble()) +
           "}";
  return expr(e);
}

std::string CPrinter::module(const Module& m) const {
  std::string body;
  for (const auto& s : m.structs) {
    body += "\ntypedef struct {\n";
    for (size_t i = 0; i < s.fields.size(); ++i)
      body += "  " + d_.typeName(s.fields[i]) + " _" + std::to_string(i) + ";\n";
    body += "} " + s.name + ";\n";
  }
  for (const auto& t : m.tables) {
    body += "\n" + d_.tableQualifier() + " " + d_.typeName(t.type) + " " + t.name + "[" +
            std::to_string(t.values.size()) + "] = {";
    for (size_t i = 0; i < t.values.size(); ++i)
      body += (i % 4 == 0 ? "\n    " : " ") + tableElement(t.values[i]) +
              (i + 1 < t.values.size() ? "," : "");
    body += "\n};\n";
  }
  for (const auto& u : m.userFuns) {
    body += "\n" + d_.functionPrefix() + " " + d_.typeName(u.result) + " " + u.name + "(";
    for (size_t i = 0; i < u.params.size(); ++i)
      body += (i ? ", " : "") + d_.typeName(u.params[i].second) + " " + u.params[i].first;
    // A body without `return` is one expression (as LIFT's userfuns allow).
    std::string b = u.body;
    if (b.find("return") == std::string::npos) b = "return " + b + ";";
    body += ") {\n  " + b + "\n}\n";
  }
  for (const auto& k : m.kernels) body += "\n" + kernel(k);
  // Only the helpers the module records (Module::helpers; helpers call no other helpers).
  std::string used;
  for (const auto& [name, def] : helperDefinitions(m))
    if (m.helpers.count(name)) used += def;
  used += d_.extraHelpers(m);
  if (std::any_of(m.kernels.begin(), m.kernels.end(),
                  [](const KernelFunc& k) { return k.clusterBlocks > 1; }))
    used += d_.clusterHelpers();
  return d_.prelude(m) + (used.empty() ? "" : "\n" + used) + body;
}

}  // namespace fftc::backends
