// Running a translated userfun body (c_program.h): C's semantics on the types clang resolved.
// Clang made every conversion explicit (Cast nodes, a compound assignment's computation type),
// so each operation here computes in the type its node or its operands carry.
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>

#include "compiler/clang/c_program.h"

namespace fftc::compiler::clang_helpers {
namespace {

int widthOf(CScalar s) {
  switch (s) {
    case CScalar::Bool: return 1;
    case CScalar::Char: case CScalar::UChar: return 8;
    case CScalar::Short: case CScalar::UShort: return 16;
    case CScalar::Int: case CScalar::UInt: return 32;
    default: return 64;
  }
}

bool isSigned(CScalar s) {
  return s == CScalar::Char || s == CScalar::Short || s == CScalar::Int || s == CScalar::Long;
}

bool floating(CScalar s) { return s == CScalar::Float || s == CScalar::Double; }

// An integer wrapped to the width of `s` (two's complement) and extended back to 64 bits.
int64_t wrap(uint64_t v, CScalar s) {
  const int w = widthOf(s);
  if (s == CScalar::Bool) return v != 0;
  if (w == 64) return static_cast<int64_t>(v);
  const uint64_t mask = (uint64_t{1} << w) - 1;
  v &= mask;
  if (isSigned(s) && (v >> (w - 1)) != 0) v |= ~mask;
  return static_cast<int64_t>(v);
}

CVal convertScalar(const CVal& v, CScalar to) {
  if (floating(to)) return CVal::ofReal(v.real(), to);
  if (to == CScalar::Bool) return CVal::ofInt(v.isFloating() ? v.f != 0 : v.i != 0, to);
  if (!v.isFloating()) return CVal::ofInt(v.i, to);
  // C leaves out-of-range conversions undefined; saturating keeps this evaluator defined.
  const double t = std::trunc(v.f);
  if (std::isnan(t)) return CVal::ofInt(0, to);
  if (t >= 9.2233720368547758e18) return CVal::ofInt(std::numeric_limits<int64_t>::max(), to);
  if (t <= -9.2233720368547758e18) return CVal::ofInt(std::numeric_limits<int64_t>::min(), to);
  return CVal::ofInt(static_cast<int64_t>(t), to);
}

CVal convert(const CVal& v, const CTy& to) {
  switch (to.kind) {
    case CTy::Kind::Scalar:
      if (v.kind != CTy::Kind::Scalar) throw std::runtime_error("a vector or struct used as a scalar");
      return convertScalar(v, to.scalar);
    case CTy::Kind::Vector: {
      CVal out;
      out.kind = CTy::Kind::Vector;
      out.scalar = to.scalar;
      for (int l = 0; l < to.lanes; ++l) {
        const CVal& lane = v.kind == CTy::Kind::Vector ? v.parts.at(static_cast<size_t>(l)) : v;
        out.parts.push_back(convertScalar(lane, to.scalar));
      }
      return out;
    }
    default: return v;  // structs convert only to themselves
  }
}

bool truth(const CVal& v) { return v.isFloating() ? v.f != 0 : v.i != 0; }

// One arithmetic operator on two scalars of kind `s` (a shift's count may be any int).
CVal scalarBinary(const std::string& op, const CVal& a, const CVal& b, CScalar s) {
  if (floating(s)) {
    const bool f32 = s == CScalar::Float;
    const double x = a.real(), y = b.real();
    auto arith = [&](auto fx, auto fy) -> double {
      if (op == "+") return fx + fy;
      if (op == "-") return fx - fy;
      if (op == "*") return fx * fy;
      if (op == "/") return fx / fy;
      throw std::runtime_error("operator " + op + " on floating-point operands");
    };
    return CVal::ofReal(f32 ? static_cast<double>(arith(static_cast<float>(x), static_cast<float>(y)))
                            : arith(x, y),
                        s);
  }
  const uint64_t x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
  if (op == "+") return CVal::ofInt(static_cast<int64_t>(x + y), s);
  if (op == "-") return CVal::ofInt(static_cast<int64_t>(x - y), s);
  if (op == "*") return CVal::ofInt(static_cast<int64_t>(x * y), s);
  if (op == "&") return CVal::ofInt(static_cast<int64_t>(x & y), s);
  if (op == "|") return CVal::ofInt(static_cast<int64_t>(x | y), s);
  if (op == "^") return CVal::ofInt(static_cast<int64_t>(x ^ y), s);
  if (op == "<<" || op == ">>") {
    const int count = static_cast<int>(b.i & (widthOf(s) - 1));
    if (op == "<<") return CVal::ofInt(static_cast<int64_t>(x << count), s);
    return CVal::ofInt(isSigned(s) ? a.i >> count : static_cast<int64_t>(
                                                        static_cast<uint64_t>(wrap(x, s)) >> count),
                       s);
  }
  if (op == "/" || op == "%") {
    if (b.i == 0) throw std::runtime_error("integer division by zero");
    if (isSigned(s)) {
      if (a.i == std::numeric_limits<int64_t>::min() && b.i == -1)
        return CVal::ofInt(op == "/" ? a.i : 0, s);
      return CVal::ofInt(op == "/" ? a.i / b.i : a.i % b.i, s);
    }
    const uint64_t ux = static_cast<uint64_t>(wrap(x, s)), uy = static_cast<uint64_t>(wrap(y, s));
    return CVal::ofInt(static_cast<int64_t>(op == "/" ? ux / uy : ux % uy), s);
  }
  throw std::runtime_error("operator " + op);
}

int compare(const CVal& a, const CVal& b) {
  if (a.isFloating()) {
    const double x = a.real(), y = b.real();
    return x < y ? -1 : x > y ? 1 : x == y ? 0 : 2;  // 2: unordered (NaN)
  }
  if (!isSigned(a.scalar)) {
    const auto x = static_cast<uint64_t>(a.i), y = static_cast<uint64_t>(b.i);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  return a.i < b.i ? -1 : a.i > b.i ? 1 : 0;
}

bool comparison(const std::string& op, int c) {
  if (op == "==") return c == 0;
  if (op == "!=") return c != 0;
  if (c == 2) return false;
  if (op == "<") return c < 0;
  if (op == ">") return c > 0;
  if (op == "<=") return c <= 0;
  return c >= 0;  // ">="
}

bool isComparison(const std::string& op) {
  return op == "==" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=";
}

// Lanes of a vector operation: scalars broadcast.
const CVal& lane(const CVal& v, size_t l) { return v.kind == CTy::Kind::Vector ? v.parts.at(l) : v; }

CVal binary(const std::string& op, const CVal& a, const CVal& b, const CTy& result) {
  if (result.kind == CTy::Kind::Vector) {
    CVal out = CVal::zero(result);
    for (size_t l = 0; l < out.parts.size(); ++l) {
      if (isComparison(op)) {
        // OpenCL: a true lane of a vector comparison is -1
        out.parts[l] = CVal::ofInt(comparison(op, compare(lane(a, l), lane(b, l))) ? -1 : 0,
                                   result.scalar);
      } else {
        out.parts[l] = scalarBinary(op, lane(a, l), lane(b, l), result.scalar);
      }
    }
    return out;
  }
  if (isComparison(op)) return CVal::ofInt(comparison(op, compare(a, b)), result.scalar);
  return scalarBinary(op, a, b, result.scalar);
}

// ---- math functions: computed in double, rounded to the result type

using Math1 = double (*)(double);
using Math2 = double (*)(double, double);
using Math3 = double (*)(double, double, double);

const std::map<std::string, Math1>& math1() {
  static const std::map<std::string, Math1> table{
      {"sin", [](double x) { return std::sin(x); }},
      {"cos", [](double x) { return std::cos(x); }},
      {"tan", [](double x) { return std::tan(x); }},
      {"asin", [](double x) { return std::asin(x); }},
      {"acos", [](double x) { return std::acos(x); }},
      {"atan", [](double x) { return std::atan(x); }},
      {"sinh", [](double x) { return std::sinh(x); }},
      {"cosh", [](double x) { return std::cosh(x); }},
      {"tanh", [](double x) { return std::tanh(x); }},
      {"asinh", [](double x) { return std::asinh(x); }},
      {"acosh", [](double x) { return std::acosh(x); }},
      {"atanh", [](double x) { return std::atanh(x); }},
      {"exp", [](double x) { return std::exp(x); }},
      {"exp2", [](double x) { return std::exp2(x); }},
      {"exp10", [](double x) { return std::pow(10.0, x); }},
      {"expm1", [](double x) { return std::expm1(x); }},
      {"log", [](double x) { return std::log(x); }},
      {"log2", [](double x) { return std::log2(x); }},
      {"log10", [](double x) { return std::log10(x); }},
      {"log1p", [](double x) { return std::log1p(x); }},
      {"sqrt", [](double x) { return std::sqrt(x); }},
      {"rsqrt", [](double x) { return 1.0 / std::sqrt(x); }},
      {"recip", [](double x) { return 1.0 / x; }},
      {"cbrt", [](double x) { return std::cbrt(x); }},
      {"fabs", [](double x) { return std::fabs(x); }},
      {"floor", [](double x) { return std::floor(x); }},
      {"ceil", [](double x) { return std::ceil(x); }},
      {"trunc", [](double x) { return std::trunc(x); }},
      {"round", [](double x) { return std::round(x); }},
      {"rint", [](double x) { return std::nearbyint(x); }},
      {"erf", [](double x) { return std::erf(x); }},
      {"erfc", [](double x) { return std::erfc(x); }},
      {"tgamma", [](double x) { return std::tgamma(x); }},
      {"lgamma", [](double x) { return std::lgamma(x); }},
      {"sinpi", [](double x) { return std::sin(std::numbers::pi * x); }},
      {"cospi", [](double x) { return std::cos(std::numbers::pi * x); }},
      {"tanpi", [](double x) { return std::tan(std::numbers::pi * x); }},
      {"sign", [](double x) { return x > 0 ? 1.0 : x < 0 ? -1.0 : x; }},
  };
  return table;
}

const std::map<std::string, Math2>& math2() {
  static const std::map<std::string, Math2> table{
      {"pow", [](double x, double y) { return std::pow(x, y); }},
      {"powr", [](double x, double y) { return std::pow(x, y); }},
      {"pown", [](double x, double y) { return std::pow(x, y); }},
      {"fmin", [](double x, double y) { return std::fmin(x, y); }},
      {"fmax", [](double x, double y) { return std::fmax(x, y); }},
      {"min", [](double x, double y) { return y < x ? y : x; }},
      {"max", [](double x, double y) { return x < y ? y : x; }},
      {"fmod", [](double x, double y) { return std::fmod(x, y); }},
      {"atan2", [](double x, double y) { return std::atan2(x, y); }},
      {"hypot", [](double x, double y) { return std::hypot(x, y); }},
      {"copysign", [](double x, double y) { return std::copysign(x, y); }},
      {"fdim", [](double x, double y) { return std::fdim(x, y); }},
      {"remainder", [](double x, double y) { return std::remainder(x, y); }},
      {"step", [](double edge, double x) { return x < edge ? 0.0 : 1.0; }},
      {"add", [](double x, double y) { return x + y; }},
      {"sub", [](double x, double y) { return x - y; }},
      {"mul", [](double x, double y) { return x * y; }},
      {"div", [](double x, double y) { return x / y; }},
  };
  return table;
}

const std::map<std::string, Math3>& math3() {
  static const std::map<std::string, Math3> table{
      {"fma", [](double x, double y, double z) { return std::fma(x, y, z); }},
      {"mad", [](double x, double y, double z) { return x * y + z; }},
      {"clamp", [](double x, double lo, double hi) { return x < lo ? lo : hi < x ? hi : x; }},
      {"mix", [](double x, double y, double a) { return x + (y - x) * a; }},
  };
  return table;
}

// The base name of a math function as OpenCL C and CUDA spell it: native_cos, half_cos, cosf,
// __cosf and cos are all cos; __fadd_rn is add, __fdividef div.
std::string baseName(std::string name) {
  for (const char* prefix : {"native_", "half_", "__"})
    if (name.rfind(prefix, 0) == 0) name = name.substr(std::strlen(prefix));
  if (name.size() > 3 && name.compare(name.size() - 3, 3, "_rn") == 0) {
    name = name.substr(0, name.size() - 3);
    if (name == "fmaf") return "fma";
    if (name.size() == 4 && (name[0] == 'f' || name[0] == 'd')) return name.substr(1);  // fadd
    return name;
  }
  if (name == "fdividef") return "div";
  auto known = [](const std::string& n) {
    return math1().count(n) || math2().count(n) || math3().count(n) || n == "abs";
  };
  if (!known(name) && name.size() > 1 && name.back() == 'f' && known(name.substr(0, name.size() - 1)))
    return name.substr(0, name.size() - 1);
  return name;
}

CVal intBuiltin(const std::string& name, const std::vector<CVal>& a, CScalar s) {
  auto lt = [](const CVal& x, const CVal& y) { return compare(x, y) < 0; };
  if (name == "abs" && a.size() == 1)
    return CVal::ofInt(isSigned(a[0].scalar) && a[0].i < 0 ? static_cast<int64_t>(
                                                                 0 - static_cast<uint64_t>(a[0].i))
                                                           : a[0].i,
                       s);
  if (name == "min" && a.size() == 2) return CVal::ofInt(lt(a[1], a[0]) ? a[1].i : a[0].i, s);
  if (name == "max" && a.size() == 2) return CVal::ofInt(lt(a[0], a[1]) ? a[1].i : a[0].i, s);
  if (name == "clamp" && a.size() == 3)
    return CVal::ofInt(lt(a[0], a[1]) ? a[1].i : lt(a[2], a[0]) ? a[2].i : a[0].i, s);
  throw std::runtime_error("the integer function " + name);
}

CVal scalarBuiltin(const std::string& name, const std::vector<CVal>& a, CScalar s) {
  bool ints = !floating(s);
  for (const CVal& v : a) ints = ints && !v.isFloating();
  if (ints) return intBuiltin(name, a, s);
  if (name == "abs" && a.size() == 1) return CVal::ofReal(std::fabs(a[0].real()), s);
  if (a.size() == 1)
    if (auto it = math1().find(name); it != math1().end()) return CVal::ofReal(it->second(a[0].real()), s);
  if (a.size() == 2)
    if (auto it = math2().find(name); it != math2().end())
      return CVal::ofReal(it->second(a[0].real(), a[1].real()), s);
  if (a.size() == 3)
    if (auto it = math3().find(name); it != math3().end())
      return CVal::ofReal(it->second(a[0].real(), a[1].real(), a[2].real()), s);
  throw std::runtime_error("the function " + name + " with " + std::to_string(a.size()) +
                           " arguments");
}

enum class Flow { Normal, Break, Continue, Return };

class Evaluator {
 public:
  Evaluator(const CProgram& p, int64_t budget) : p_(p), budget_(budget) {}

  CVal call(size_t fn, std::vector<CVal> args) {
    if (++depth_ > 64) throw std::runtime_error("calls nested more than 64 deep");
    const CFunction& f = p_.functions.at(fn);
    std::vector<CVal> frame(static_cast<size_t>(std::max(f.slots, f.params)));
    for (size_t i = 0; i < args.size() && i < frame.size(); ++i) frame[i] = std::move(args[i]);
    std::vector<CVal>* saved = frame_;
    frame_ = &frame;
    returned_ = CVal::zero(f.result);
    Flow flow = stmt(f.body);
    frame_ = saved;
    --depth_;
    if (flow != Flow::Return && f.result.kind != CTy::Kind::Void)
      throw std::runtime_error(f.name + " ends without returning a value");
    return std::move(returned_);
  }

 private:
  void tick() {
    if (--budget_ < 0) throw std::runtime_error("more steps than the budget (a loop that never ends?)");
  }

  Flow stmt(const CNode& n) {
    tick();
    switch (n.op) {
      case COp::Block:
        for (const CNode& k : n.kids)
          if (Flow f = stmt(k); f != Flow::Normal) return f;
        return Flow::Normal;
      case COp::Decl:
        slot(n.i) = n.kids.empty() ? CVal::zero(n.type) : expr(n.kids[0]);
        return Flow::Normal;
      case COp::ExprStmt: expr(n.kids[0]); return Flow::Normal;
      case COp::If:
        if (truth(expr(n.kids[0]))) return stmt(n.kids[1]);
        return n.kids.size() > 2 ? stmt(n.kids[2]) : Flow::Normal;
      case COp::For:
      case COp::While:
      case COp::Do: return loop(n);
      case COp::Return:
        if (!n.kids.empty()) returned_ = expr(n.kids[0]);
        return Flow::Return;
      case COp::Break: return Flow::Break;
      case COp::Continue: return Flow::Continue;
      case COp::Nop: return Flow::Normal;
      default: expr(n); return Flow::Normal;
    }
  }

  Flow loop(const CNode& n) {
    const CNode* cond = n.op == COp::For ? &n.kids[1] : n.op == COp::While ? &n.kids[0] : &n.kids[1];
    const CNode& body = n.op == COp::For ? n.kids[3] : n.op == COp::While ? n.kids[1] : n.kids[0];
    if (n.op == COp::For) stmt(n.kids[0]);
    bool first = n.op == COp::Do;
    for (;;) {
      tick();
      if (!first && cond->op != COp::Nop && !truth(expr(*cond))) return Flow::Normal;
      first = false;
      Flow f = stmt(body);
      if (f == Flow::Return) return f;
      if (f == Flow::Break) return Flow::Normal;
      if (n.op == COp::For && n.kids[2].op != COp::Nop) expr(n.kids[2]);
    }
  }

  CVal& slot(int64_t i) { return frame_->at(static_cast<size_t>(i)); }

  CVal* ref(const CNode& n) {
    switch (n.op) {
      case COp::Var: return &slot(n.i);
      case COp::Field: return &ref(n.kids[0])->parts.at(static_cast<size_t>(n.i));
      case COp::Swizzle:
        if (n.lanes.size() == 1) return &ref(n.kids[0])->parts.at(static_cast<size_t>(n.lanes[0]));
        break;
      default: break;
    }
    throw std::runtime_error("an assignment to an expression the interpreter cannot write");
  }

  void store(const CNode& lhs, CVal v) {
    if (lhs.op == COp::Swizzle && lhs.lanes.size() > 1) {
      CVal* base = ref(lhs.kids[0]);
      for (size_t l = 0; l < lhs.lanes.size(); ++l)
        base->parts.at(static_cast<size_t>(lhs.lanes[l])) = v.parts.at(l);
      return;
    }
    *ref(lhs) = std::move(v);
  }

  // -x as C computes it: floating values change sign (-0.0 from 0.0), ints wrap.
  static CVal negate(CVal a) {
    if (a.kind == CTy::Kind::Vector) {
      for (CVal& p : a.parts) p = negate(p);
      return a;
    }
    if (a.isFloating()) {
      a.f = -a.f;
      return a;
    }
    return CVal::ofInt(static_cast<int64_t>(0 - static_cast<uint64_t>(a.i)), a.scalar);
  }

  CVal unary(const CNode& n) {
    const std::string& op = n.text;
    if (op == "++pre" || op == "--pre" || op == "post++" || op == "post--") {
      CVal old = expr(n.kids[0]);
      const CVal one = convert(CVal::ofInt(1, CScalar::Int), n.kids[0].type);
      CVal now = binary(op.find("++") != std::string::npos ? "+" : "-", old, one, n.kids[0].type);
      store(n.kids[0], now);
      return op[0] == 'p' ? old : now;
    }
    CVal a = expr(n.kids[0]);
    if (op == "+") return a;
    if (op == "-") return negate(a);
    if (op == "~") return binary("^", a, convert(CVal::ofInt(-1, CScalar::Long), n.type), n.type);
    if (op == "!") return CVal::ofInt(!truth(a), n.type.scalar);
    throw std::runtime_error("the operator " + op);
  }

  CVal expr(const CNode& n) {
    switch (n.op) {
      case COp::IntLit: return CVal::ofInt(n.i, n.type.scalar);
      case COp::FloatLit: return CVal::ofReal(n.f, n.type.scalar);
      case COp::Var: return slot(n.i);
      case COp::Field: return expr(n.kids[0]).parts.at(static_cast<size_t>(n.i));
      case COp::Swizzle: {
        CVal base = expr(n.kids[0]);
        if (n.lanes.size() == 1) return base.parts.at(static_cast<size_t>(n.lanes[0]));
        CVal out = CVal::zero(n.type);
        for (size_t l = 0; l < n.lanes.size(); ++l)
          out.parts[l] = base.parts.at(static_cast<size_t>(n.lanes[l]));
        return out;
      }
      case COp::Unary: return unary(n);
      case COp::Binary: {
        if (n.text == "&&" || n.text == "||") {
          const bool a = truth(expr(n.kids[0]));
          if (n.text == "&&" ? !a : a) return CVal::ofInt(a, n.type.scalar);
          return CVal::ofInt(truth(expr(n.kids[1])), n.type.scalar);
        }
        if (n.text == ",") {
          expr(n.kids[0]);
          return expr(n.kids[1]);
        }
        CVal a = expr(n.kids[0]);
        return binary(n.text, a, expr(n.kids[1]), n.type);
      }
      case COp::Assign: {
        CVal v = expr(n.kids[1]);
        if (n.text != "=") {
          const CVal lhs = convert(expr(n.kids[0]), n.aux);
          v = convert(binary(n.text, lhs, v, n.aux), n.type);
        }
        store(n.kids[0], v);
        return v;
      }
      case COp::Cond: return truth(expr(n.kids[0])) ? expr(n.kids[1]) : expr(n.kids[2]);
      case COp::Cast: return convert(expr(n.kids[0]), n.type);
      case COp::Zero: return CVal::zero(n.type);
      case COp::Build: return build(n);
      case COp::Call: {
        std::vector<CVal> args;
        for (const CNode& k : n.kids) args.push_back(expr(k));
        return call(static_cast<size_t>(n.i), std::move(args));
      }
      case COp::Builtin: return builtin(n);
      default: throw std::runtime_error("a statement where an expression is expected");
    }
  }

  CVal build(const CNode& n) {
    CVal out = CVal::zero(n.type);
    if (n.type.kind == CTy::Kind::Vector) {
      size_t l = 0;
      for (const CNode& k : n.kids) {
        CVal v = expr(k);
        if (v.kind == CTy::Kind::Vector) {
          for (const CVal& p : v.parts)
            if (l < out.parts.size()) out.parts[l++] = convertScalar(p, n.type.scalar);
        } else if (l < out.parts.size()) {
          out.parts[l++] = convertScalar(v, n.type.scalar);
        }
      }
      return out;
    }
    if (n.type.kind == CTy::Kind::Struct) {
      for (size_t f = 0; f < n.kids.size() && f < out.parts.size(); ++f)
        out.parts[f] = convert(expr(n.kids[f]), n.type.fields[f]);
      return out;
    }
    return n.kids.empty() ? out : convert(expr(n.kids[0]), n.type);
  }

  CVal builtin(const CNode& n) {
    std::vector<CVal> args;
    for (const CNode& k : n.kids) args.push_back(expr(k));
    const std::string name = baseName(n.text);
    if (n.type.kind != CTy::Kind::Vector) return scalarBuiltin(name, args, n.type.scalar);
    CVal out = CVal::zero(n.type);
    for (size_t l = 0; l < out.parts.size(); ++l) {
      std::vector<CVal> laneArgs;
      for (const CVal& a : args) laneArgs.push_back(lane(a, l));
      out.parts[l] = scalarBuiltin(name, laneArgs, n.type.scalar);
    }
    return out;
  }

  const CProgram& p_;
  int64_t budget_;
  int depth_ = 0;
  std::vector<CVal>* frame_ = nullptr;
  CVal returned_;
};

}  // namespace

CVal CVal::ofInt(int64_t v, CScalar s) {
  CVal out;
  out.scalar = s;
  if (floating(s)) return ofReal(static_cast<double>(v), s);
  out.i = wrap(static_cast<uint64_t>(v), s);
  return out;
}

CVal CVal::ofReal(double v, CScalar s) {
  if (!floating(s)) return convertScalar(ofReal(v, CScalar::Double), s);
  CVal out;
  out.scalar = s;
  out.f = s == CScalar::Float ? static_cast<double>(static_cast<float>(v)) : v;
  return out;
}

CVal CVal::zero(const CTy& t) {
  CVal out;
  out.kind = t.kind == CTy::Kind::Void ? CTy::Kind::Scalar : t.kind;
  out.scalar = t.scalar;
  if (t.kind == CTy::Kind::Vector)
    out.parts.assign(static_cast<size_t>(t.lanes), ofInt(0, t.scalar));
  if (t.kind == CTy::Kind::Struct)
    for (const CTy& f : t.fields) out.parts.push_back(zero(f));
  return out;
}

double CVal::real() const {
  if (isFloating()) return f;
  if (scalar == CScalar::ULong) return static_cast<double>(static_cast<uint64_t>(i));
  return static_cast<double>(i);
}

CVal runCProgram(const CProgram& program, const std::vector<CVal>& args, int64_t stepBudget) {
  if (program.functions.empty()) throw std::runtime_error("no function to run");
  Evaluator e(program, stepBudget);
  return e.call(0, args);
}

}  // namespace fftc::compiler::clang_helpers
