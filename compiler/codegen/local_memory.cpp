// The local-memory pass (local_memory.h).
#include "compiler/codegen/local_memory.h"

#include <algorithm>
#include <map>

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CExprNode;
using backends::Stmt;

std::vector<LocalLife> localLives(const std::vector<MemoryPtr>& locals, const AccessTrace& trace) {
  std::vector<LocalLife> lives;
  for (const auto& m : locals)
    lives.push_back(LocalLife{m->stage, m->element.str() + "x" + m->count.str()});
  for (const auto& e : trace) {
    if (e.kind != TraceEvent::Kind::Access || !e.memory || e.memory->localOrder < 0) continue;
    auto& life = lives.at(static_cast<size_t>(e.memory->localOrder));
    if (e.writing)
      life.firstWrite = std::min(life.firstWrite, e.wgStatement);
    else
      life.lastRead = std::max(life.lastRead, e.wgStatement);
  }
  return lives;
}

std::vector<int> reusePlan(const std::vector<LocalLife>& lives) {
  constexpr int kNever = std::numeric_limits<int>::max();
  std::vector<size_t> order;
  for (size_t i = 0; i < lives.size(); ++i)
    if (lives[i].firstWrite != kNever) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return lives[a].firstWrite < lives[b].firstWrite; });
  std::vector<std::vector<size_t>> groups;
  for (size_t i : order) {
    const LocalLife& a = lives[i];
    auto fits = [&](const std::vector<size_t>& g) {
      return lives[g[0]].stage == a.stage && lives[g[0]].type == a.type &&
             std::all_of(g.begin(), g.end(), [&](size_t k) {
               return lives[k].lastRead < a.firstWrite && lives[k].firstWrite < a.firstWrite;
             });
    };
    auto g = std::find_if(groups.begin(), groups.end(), fits);
    if (g != groups.end())
      g->push_back(i);
    else
      groups.push_back({i});
  }
  std::vector<int> plan(lives.size(), -1);
  for (const auto& g : groups) {
    const size_t owner = *std::min_element(g.begin(), g.end());
    for (size_t k : g)
      if (k != owner) plan[k] = static_cast<int>(owner);
  }
  return plan;
}

namespace {

// Renames variables in expressions (a new node only where something changed).
CExpr rename(const CExpr& e, const std::map<std::string, std::string>& names) {
  if (!e) return e;
  std::vector<CExpr> args;
  bool changed = false;
  for (const auto& a : e->args) {
    args.push_back(rename(a, names));
    changed = changed || args.back() != a;
  }
  auto it = e->kind == backends::CExprKind::Var ? names.find(e->name) : names.end();
  if (!changed && it == names.end()) return e;
  auto n = std::make_shared<CExprNode>(*e);
  n->args = std::move(args);
  if (it != names.end()) n->name = it->second;
  return n;
}

void rename(Stmt& s, const std::map<std::string, std::string>& names) {
  s.init = rename(s.init, names);
  s.lhs = rename(s.lhs, names);
  s.rhs = rename(s.rhs, names);
  s.boundExpr = rename(s.boundExpr, names);
  s.step = rename(s.step, names);
  s.cond = rename(s.cond, names);
  for (const auto& c : s.body) rename(*c, names);
}

}  // namespace

void allocateLocalMemory(const std::vector<MemoryPtr>& locals, const std::vector<int>& plan,
                         const CodegenOptions& options, std::vector<StageDraft>& stages) {
  std::vector<std::string> names;  // the generator's names, in allocation order
  for (const auto& m : locals) names.push_back(m->name);
  std::map<std::string, std::string> renamed;
  size_t owners = 0;
  for (size_t i = 0; i < locals.size(); ++i) {
    Memory& m = *locals[i];
    const int owner = i < plan.size() ? plan[i] : -1;
    std::string name;
    if (owner >= 0) {
      const Memory& o = *locals.at(static_cast<size_t>(owner));
      name = o.name;
      m.storage = o.storage;
    } else {
      name = names.at(owners++);
      m.storage = m.localOrder;
      const int64_t padded = options.paddedLocalCount(*m.count.constant());
      StageDraft& st = stages.at(static_cast<size_t>(m.stage));
      st.localDecls.push_back(
          backends::sArrayDecl(m.elemC, name, padded, backends::MemSpace::Local));
      st.localDeclBytes.push_back(padded * deviceBytes(m.element));
      st.localBytes += st.localDeclBytes.back();
    }
    if (name != m.name) renamed[m.name] = name;
    m.name = name;
  }
  if (renamed.empty()) return;
  for (auto& st : stages) rename(*st.body, renamed);
}

}  // namespace fftc::compiler::codegen
