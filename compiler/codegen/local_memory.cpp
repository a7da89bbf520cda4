// The local-memory pass (local_memory.h).
#include "compiler/codegen/local_memory.h"

#include <algorithm>
#include <map>

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CExprNode;
using backends::Stmt;

namespace {

// The elements a local's storage declares: padded (Memory::padEvery, rowSkew), a cluster's
// array each block's share.
int64_t storedElements(const Memory& m) {
  const int64_t count = *m.count.constant();
  int64_t padded = m.padEvery > 0 ? count + (count - 1) / m.padEvery : count;
  if (m.rowSkew > 0) padded += (count - 1) / m.rowSkew * m.rowSkewElements;
  if (m.cluster > 1) padded /= m.cluster;  // each block's share (Memory::cluster)
  return padded;
}

}  // namespace

std::vector<LocalLife> localLives(const std::vector<MemoryPtr>& locals, const AccessTrace& trace) {
  std::vector<LocalLife> lives;
  for (const auto& m : locals) {
    lives.push_back(LocalLife{m->stage, m->element.str() + "x" + m->count.str()});
    if (m->cluster <= 1 && m->count.constant()) {
      lives.back().element = m->element.str();
      lives.back().stored = storedElements(*m);
    }
  }
  for (size_t at = 0; at < trace.size(); ++at) {
    const TraceEvent& e = trace[at];
    if (e.kind != TraceEvent::Kind::Access || !e.memory || e.memory->localOrder < 0) continue;
    auto& life = lives.at(static_cast<size_t>(e.memory->localOrder));
    const int pos = static_cast<int>(at);
    if (e.writing && pos < life.firstWriteAt) {
      life.firstWrite = std::min(life.firstWrite, e.wgStatement);
      life.firstWriteAt = pos;
      life.firstWriteWorkgroup = e.workgroupDepth;
      life.firstWriteLoops = e.loops;
      life.firstWriteBlock = e.block;
      life.firstWriteAfter = e.after;
    } else if (!e.writing && pos > life.lastReadAt) {
      life.lastRead = std::max(life.lastRead, e.wgStatement);
      life.lastReadAt = pos;
      life.lastReadLoops = e.loops;
      life.lastReadBlock = e.block;
      life.lastReadAfter = e.after;
    }
  }
  return lives;
}

namespace {

// Whether `writer` may take the storage of `reader` inside the statement where the reader is
// last read and the writer first written (reusePlan's second rule): the read first, and a
// barrier between them that every work-item reaches exactly once.
bool reusableInPass(const LocalLife& reader, const LocalLife& writer, const StageDraft& stage) {
  if (reader.lastRead != writer.firstWrite || reader.lastReadAt >= writer.firstWriteAt)
    return false;
  const auto& w = writer.firstWriteLoops;
  const auto& r = reader.lastReadLoops;
  const int wg = writer.firstWriteWorkgroup;
  if (wg < 0 || static_cast<size_t>(wg) >= r.size() || r[wg].stmt != w[wg].stmt) return false;
  // The work-group's size in dimension d: the caller's launch shape (a tile's rows on
  // dimension 0, shorter than the loop that copies the tile out), else the longest loop's.
  auto groupSize = [&](int d) {
    return static_cast<size_t>(d) < stage.shape.size() ? stage.shape[static_cast<size_t>(d)]
                                                       : stage.local[d];
  };
  size_t k = static_cast<size_t>(wg) + 1;
  for (; k < w.size() && k < r.size(); ++k) {
    if (r[k].stmt != w[k].stmt) break;
    const auto extent = w[k].extent.constant();
    if (w[k].kind != LoopKind::Local || !extent || w[k].dim < 0 || w[k].dim > 2 ||
        *extent != groupSize(w[k].dim) * w[k].cluster)
      return false;
  }
  // The barrier goes before the writer's loop k, which the reader is not in (it came first and
  // is done); or, in the writer's innermost loop, before the writing statement: the reader must
  // be in an inner loop closed by then, or in an earlier statement of the same block.
  if (k < w.size() || r.size() > w.size()) return true;
  return reader.lastReadBlock && reader.lastReadBlock == writer.firstWriteBlock &&
         reader.lastReadAfter != writer.firstWriteAfter;
}

}  // namespace

std::vector<int> reusePlan(const std::vector<LocalLife>& lives,
                           const std::vector<StageDraft>* inPass) {
  constexpr int kNever = std::numeric_limits<int>::max();
  std::vector<size_t> order;
  for (size_t i = 0; i < lives.size(); ++i)
    if (lives[i].firstWrite != kNever) order.push_back(i);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return lives[a].firstWrite < lives[b].firstWrite; });
  std::vector<std::vector<size_t>> groups;
  std::vector<int64_t> stored;  // each group's storage: its largest member's
  for (size_t i : order) {
    const LocalLife& a = lives[i];
    auto free = [&](const std::vector<size_t>& g) {
      return lives[g[0]].stage == a.stage &&
             std::all_of(g.begin(), g.end(), [&](size_t k) {
               const LocalLife& b = lives[k];
               return b.firstWrite < a.firstWrite &&
                      (b.lastRead < a.firstWrite ||
                       (inPass && reusableInPass(b, a, inPass->at(static_cast<size_t>(a.stage)))));
             });
    };
    auto sameType = [&](const std::vector<size_t>& g) { return lives[g[0]].type == a.type; };
    auto sameElement = [&](const std::vector<size_t>& g) {
      return !a.element.empty() && std::all_of(g.begin(), g.end(), [&](size_t k) {
        return lives[k].element == a.element && lives[k].stored > 0;
      });
    };
    // a free group of a's type and size, else the free group of its element type that a grows
    // least (the first of equals)
    auto g = std::find_if(groups.begin(), groups.end(),
                          [&](const auto& h) { return sameType(h) && free(h); });
    if (g == groups.end() && !a.element.empty() && a.stored > 0)
      for (auto h = groups.begin(); h != groups.end(); ++h) {
        if (!sameElement(*h) || !free(*h)) continue;
        auto growth = [&](auto k) {
          return std::max<int64_t>(0, a.stored - stored[static_cast<size_t>(k - groups.begin())]);
        };
        if (g == groups.end() || growth(h) < growth(g)) g = h;
      }
    if (g != groups.end()) {
      g->push_back(i);
      int64_t& s = stored[static_cast<size_t>(g - groups.begin())];
      s = std::max(s, a.stored);
    } else {
      groups.push_back({i});
      stored.push_back(a.stored);
    }
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
                         std::vector<StageDraft>& stages) {
  std::vector<std::string> names;  // the generator's names, in allocation order
  for (const auto& m : locals) names.push_back(m->name);
  std::map<std::string, std::string> renamed;
  // each storage's elements and alignment: its largest member's (reusePlan may group sizes)
  std::vector<int64_t> stored(locals.size(), 0), align(locals.size(), 0);
  for (size_t i = 0; i < locals.size(); ++i) {
    const int owner = i < plan.size() ? plan[i] : -1;
    const size_t o = owner >= 0 ? static_cast<size_t>(owner) : i;
    stored[o] = std::max(stored[o], storedElements(*locals[i]));
    align[o] = std::max(align[o], locals[i]->align);
  }
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
      const int64_t padded = stored[i];
      StageDraft& st = stages.at(static_cast<size_t>(m.stage));
      st.localDecls.push_back(
          backends::sArrayDecl(m.elemC, name, padded, backends::MemSpace::Local));
      st.localDecls.back()->align = align[i];
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
