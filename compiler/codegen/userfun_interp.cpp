// Userfun bodies for the interpreter (userfun_interp.h): the translation unit clang parses, the
// conversion of interpreter values to C values and back, and the registration.
#include "compiler/codegen/userfun_interp.h"

#include <memory>
#include <mutex>
#include <stdexcept>
#include <unordered_set>

#include "backends/common/cuda_dialect.h"
#include "backends/common/opencl_dialect.h"
#include "compiler/clang/clang_helpers.h"
#include "compiler/codegen/scalar_ops.h"
#include "ir/diagnostic.h"
#include "ir/traversal.h"

namespace fftc::compiler::codegen {
namespace {

namespace ch = clang_helpers;
using ir::Type;
using ir::Value;

// Tuple types get structs named as the kernel's are (tupleK, in order of first use) and
// declared before the structs that contain them.
struct Structs {
  std::vector<std::pair<std::string, std::string>> defs;  // type code, definition
  backends::CType of(const Type& t, const backends::CDialect& d) {
    if (!t.isTuple()) return scalarCType(t);
    std::string fields;
    for (size_t i = 0; i < t.components().size(); ++i)
      fields += " " + d.typeName(of(t.components()[i], d)) + " _" + std::to_string(i) + ";";
    for (size_t i = 0; i < defs.size(); ++i)
      if (defs[i].first == fields) return backends::CType::structType("tuple" + std::to_string(i));
    const std::string name = "tuple" + std::to_string(defs.size());
    defs.emplace_back(fields, "typedef struct {" + fields + " } " + name + ";\n");
    return backends::CType::structType(name);
  }
};

ch::CVal toC(const Value& v, const Type& t, const ch::CTy& c) {
  using ch::CScalar;
  if (t.isTuple()) {
    ch::CVal out = ch::CVal::zero(c);
    for (size_t i = 0; i < t.components().size() && i < out.parts.size(); ++i)
      out.parts[i] = toC(v[i], t.components()[i], c.fields.at(i));
    return out;
  }
  const bool dbl = t.scalarKind() == ir::ScalarKind::Double;
  if (t.isComplex()) {
    // float2 is an OpenCL vector or CUDA's struct: two parts either way
    ch::CVal out = ch::CVal::zero(c);
    const std::complex<double> z = v.asComplex();
    out.parts.at(0) = ch::CVal::ofReal(z.real(), dbl ? CScalar::Double : CScalar::Float);
    out.parts.at(1) = ch::CVal::ofReal(z.imag(), dbl ? CScalar::Double : CScalar::Float);
    return out;
  }
  if (t.isInt()) return ch::CVal::ofInt(v.asInt(), CScalar::Int);
  return ch::CVal::ofReal(v.asReal(), dbl ? CScalar::Double : CScalar::Float);
}

Value fromC(const ch::CVal& c, const Type& t) {
  if (t.isTuple()) {
    std::vector<Value> parts;
    for (size_t i = 0; i < t.components().size(); ++i)
      parts.push_back(fromC(c.parts.at(i), t.components()[i]));
    return Value::tuple(std::move(parts));
  }
  if (t.isComplex())
    return Value::ofComplex({c.parts.at(0).real(), c.parts.at(1).real()}, t.scalarKind());
  if (t.isInt()) return Value::ofInt(c.isFloating() ? static_cast<int64_t>(c.real()) : c.i);
  return Value::ofReal(c.real(), t.scalarKind());
}

// One userfun: translated on its first call (so a program whose userfun is never called does
// not need clang), then run on each call.
class BodyImpl {
 public:
  BodyImpl(std::shared_ptr<const ir::UserFun> u, const backends::CDialect& d)
      : u_(std::move(u)), src_(userFunSource(*u_, d)),
        dialect_(d.name() == "cuda" ? ch::Dialect::Cuda : ch::Dialect::OpenCL) {}

  Value operator()(const std::vector<Value>& args) {
    const ch::CProgram& p = program();
    std::vector<ch::CVal> cargs;
    const ch::CFunction& f = p.functions[0];
    for (size_t i = 0; i < args.size() && i < f.paramTypes.size(); ++i)
      cargs.push_back(toC(args[i], u_->paramTypes()[i], f.paramTypes[i]));
    try {
      return fromC(ch::runCProgram(p, cargs), u_->returnType());
    } catch (const std::runtime_error& e) {
      throw ir::InterpreterError("userfun " + u_->name() + ": " + e.what());
    }
  }

 private:
  const ch::CProgram& program() {
    std::call_once(once_, [&] {
      program_ = ch::lowerUserFunBody(src_.prelude, src_.signature, src_.body, dialect_);
    });
    if (program_.error.empty()) return program_;
    const int col = program_.errorLine == 1 ? program_.errorCol - src_.shift : program_.errorCol;
    const std::string where = program_.errorLine > 0 ? "line " + std::to_string(program_.errorLine) +
                                                           ", column " + std::to_string(col) + " of "
                                                     : "";
    throw ir::CompileError(u_->loc(), "in " + where + "the body of userfun " + u_->name() + ": " +
                                          program_.error);
  }

  std::shared_ptr<const ir::UserFun> u_;
  UserFunSource src_;
  ch::Dialect dialect_;
  std::once_flag once_;
  ch::CProgram program_;
};

class UserFunCollector : public ir::IRVisitor {
 public:
  using IRVisitor::visit;
  void visit(const ir::FunPtr& f) override {
    if (!seen_.insert(f.get()).second) return;
    if (f->is<ir::UserFun>())
      found.push_back(std::static_pointer_cast<const ir::UserFun>(f));
    visitChildren(f);
  }
  void visit(const ir::ExprPtr& e) override {
    if (seen_.insert(e.get()).second) visitChildren(e);
  }
  std::vector<std::shared_ptr<const ir::UserFun>> found;

 private:
  std::unordered_set<const void*> seen_;
};

}  // namespace

UserFunSource userFunSource(const ir::UserFun& u, const backends::CDialect& d) {
  UserFunSource s;
  Structs structs;
  std::string sig = d.functionPrefix() + " " + d.typeName(structs.of(u.returnType(), d)) + " " +
                    u.name() + "(";
  for (size_t i = 0; i < u.paramTypes().size(); ++i)
    sig += (i ? ", " : "") + d.typeName(structs.of(u.paramTypes()[i], d)) + " " +
           u.paramNames()[i];
  s.signature = sig + ")";
  backends::Module m;
  m.usesDouble = true;
  m.usesFloat = true;
  s.prelude = backends::CPrinter(d).helpers(m);
  for (const auto& [code, def] : structs.defs) s.prelude += def;
  s.body = u.body();
  if (s.body.find("return") == std::string::npos) {
    s.body = "return " + s.body + ";";
    s.shift = 7;
  }
  return s;
}

void addUserFunBodies(const ir::FunPtr& fun, ir::InterpreterOptions& options,
                      const backends::CDialect& dialect) {
  UserFunCollector c;
  c.visit(fun);
  for (const auto& u : c.found) {
    if (options.userFuns.count(u->name())) continue;
    auto impl = std::make_shared<BodyImpl>(u, dialect);
    options.userFuns[u->name()] = [impl](const std::vector<Value>& args) { return (*impl)(args); };
  }
}

void addUserFunBodies(const ir::FunPtr& fun, ir::InterpreterOptions& options,
                      const std::string& target) {
  if (target == "cuda") {
    addUserFunBodies(fun, options, backends::CudaDialect());
    return;
  }
  addUserFunBodies(fun, options, backends::OpenCLDialect());
}

}  // namespace fftc::compiler::codegen
