// The facts pass (kernel_facts.h): one walk over the kernel AST.
#include "compiler/codegen/kernel_facts.h"

#include <cctype>
#include <set>
#include <string>
#include <vector>

namespace fftc::compiler::codegen {

namespace {

using backends::CExpr;
using backends::CExprKind;
using backends::CType;
using backends::Stmt;
using backends::StmtKind;

class FactsWalk {
 public:
  explicit FactsWalk(backends::Module& m) : m_(m) {}

  void type(const CType& t) {
    if (t.isDouble()) m_.usesDouble = true;
  }

  void index(const ir::ArithExpr& e) {
    for (auto& h : e.cHelpers()) m_.helpers.insert(std::move(h));
  }

  void expr(const CExpr& e) {
    if (!e) return;
    type(e->type);
    switch (e->kind) {
      case CExprKind::Index:
      case CExprKind::Subscript: index(e->index); break;
      case CExprKind::Compare:
        index(e->index);
        index(e->index2);
        break;
      case CExprKind::Call:
        if (e->name.rfind("fftc_", 0) == 0) m_.helpers.insert(e->name);
        break;
      default: break;
    }
    for (const auto& a : e->args) expr(a);
  }

  void stmt(const Stmt& s) {
    switch (s.kind) {
      case StmtKind::Decl:
        type(s.type);
        expr(s.init);
        break;
      case StmtKind::Assign:
        expr(s.lhs);
        expr(s.rhs);
        break;
      case StmtKind::ExprStmt: expr(s.rhs); break;
      case StmtKind::For:
        expr(s.init);
        if (s.boundExpr)
          expr(s.boundExpr);
        else
          index(s.bound);
        expr(s.step);
        break;
      case StmtKind::If: expr(s.cond); break;
      default: break;
    }
    for (const auto& c : s.body) stmt(*c);
  }

  void module() {
    for (const auto& s : m_.structs)
      for (const auto& f : s.fields) type(f);
    for (const auto& t : m_.tables) {
      type(t.type);
      for (const auto& v : t.values) expr(v);
    }
    for (const auto& u : m_.userFuns) {
      type(u.result);
      for (const auto& p : u.params) type(p.second);
    }
    for (const auto& k : m_.kernels) {
      for (const auto& p : k.params) type(p.type);
      if (k.body) stmt(*k.body);
    }
  }

 private:
  backends::Module& m_;
};

// The identifiers a kernel's statements read or declare (a superset of the tables it reads:
// a table is read as a subscript of a variable of its name, or, a gather's index table, inside
// an index as the opaque variable "tab[i]", whose i may read another table: view.cpp).
class NamesWalk {
 public:
  std::set<std::string> names;

  void expr(const CExpr& e) {
    if (!e) return;
    if (e->kind == CExprKind::Var) names.insert(e->name);
    index(e->index);
    index(e->index2);
    for (const auto& a : e->args) expr(a);
  }

  void stmt(const Stmt& s) {
    for (const CExpr* e : {&s.init, &s.lhs, &s.rhs, &s.boundExpr, &s.step, &s.cond}) expr(*e);
    index(s.bound);
    for (const auto& c : s.body) stmt(*c);
  }

 private:
  void index(const ir::ArithExpr& a) {
    for (const auto& v : a.freeVars()) {
      const std::string& n = v.varName();
      for (size_t i = 0; i < n.size();) {  // every identifier in the name
        size_t j = i;
        while (j < n.size() && (std::isalnum(static_cast<unsigned char>(n[j])) || n[j] == '_')) ++j;
        if (j > i) names.insert(n.substr(i, j - i));
        i = j + 1;
      }
    }
  }
};

}  // namespace

void dropUnreadTables(backends::Module& module) {
  NamesWalk walk;
  for (const auto& k : module.kernels)
    if (k.body) walk.stmt(*k.body);
  std::erase_if(module.tables, [&](const backends::ConstTable& t) { return !walk.names.count(t.name); });
}

backends::Module stageModule(const backends::Module& module, size_t index) {
  const backends::KernelFunc& k = module.kernels.at(index);
  NamesWalk walk;
  if (k.body) walk.stmt(*k.body);
  backends::Module m;
  m.usesFloat = module.usesFloat;
  m.structs = module.structs;
  m.userFuns = module.userFuns;
  for (const auto& t : module.tables)
    if (walk.names.count(t.name)) m.tables.push_back(t);
  m.kernels.push_back(k);
  recordKernelFacts(m);
  return m;
}

void recordKernelFacts(backends::Module& module) {
  module.usesDouble = false;
  module.helpers.clear();
  FactsWalk(module).module();
}

}  // namespace fftc::compiler::codegen
