// The kernel-AST generator (kernel_gen.h): memory allocation, loops, stages, barriers,
// generators and tables, and the assembly of the result.
#include <algorithm>
#include <cstring>

#include "compiler/codegen/kernel_gen.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

using backends::CExpr;
using backends::CType;
using backends::MemSpace;
using ir::ArithExpr;
using ir::Type;

namespace {
[[noreturn]] void fail(const std::string& msg) {
  throw ir::CompileError({}, "code generation: " + msg);
}

std::string typeCode(const Type& t) {
  if (t.isComplex()) return t.scalarKind() == ir::ScalarKind::Double ? "cd" : "cf";
  if (t.isInt()) return "i";
  if (t.isReal()) return t.scalarKind() == ir::ScalarKind::Double ? "d" : "f";
  if (t.isTuple()) {
    std::string s = "t";
    for (const auto& c : t.components()) s += typeCode(c);
    return s + "_";
  }
  return "a";
}
}  // namespace

std::string spaceName(MemSpace s) {
  switch (s) {
    case MemSpace::Global: return "global";
    case MemSpace::Local: return "local";
    case MemSpace::Private: return "private";
    case MemSpace::Constant: return "constant";
  }
  return "?";
}

std::string roleName(MemRole r) {
  switch (r) {
    case MemRole::Input: return "input";
    case MemRole::Output: return "output";
    case MemRole::Temp: return "temp";
    case MemRole::Table: return "table";
    case MemRole::Local: return "local";
    case MemRole::Private: return "private";
    case MemRole::Variable: return "variable";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------------
// Types and memory

CType KernelGen::ctype(const Type& t) {
  if (t.isTuple()) {
    std::string code = typeCode(t);
    auto it = structNames_.find(code);
    if (it != structNames_.end()) return CType::structType(it->second);
    backends::StructDef def;
    def.name = "tuple" + std::to_string(structNames_.size());
    for (const auto& c : t.components()) def.fields.push_back(ctype(c));
    structNames_[code] = def.name;
    module_.structs.push_back(def);
    return CType::structType(def.name);
  }
  if (t.isArray()) fail("an array type where a value type is expected: " + t.str());
  return scalarCType(t);
}

int64_t KernelGen::byteSize(const Type& t) const {
  if (t.isArray()) {
    auto n = t.size().constant();
    return n ? *n * deviceBytes(t.element()) : 0;
  }
  return deviceBytes(t);
}

int64_t deviceAlign(const Type& t) {
  if (t.isTuple()) {
    int64_t a = 1;
    for (const auto& c : t.components()) a = std::max(a, deviceAlign(c));
    return a;
  }
  return deviceBytes(t);
}

int64_t deviceBytes(const Type& t) {
  if (t.isComplex()) return t.scalarKind() == ir::ScalarKind::Double ? 16 : 8;
  if (t.isTuple()) {
    int64_t off = 0;
    for (const auto& c : t.components()) {
      int64_t a = deviceAlign(c);
      off = (off + a - 1) / a * a + deviceBytes(c);
    }
    int64_t a = deviceAlign(t);
    return (off + a - 1) / a * a;
  }
  if (t.isArray()) fail("deviceBytes of an array type");
  return t.scalarKind() == ir::ScalarKind::Double ? 8 : 4;
}

MemoryPtr KernelGen::newBuffer(std::string name, MemRole role, const Type& type) {
  auto m = std::make_shared<Memory>();
  m->name = std::move(name);
  m->role = role;
  m->space = MemSpace::Global;
  m->type = type;
  m->element = type.innermost();
  m->elemC = ctype(m->element);
  ArithExpr count = 1;
  for (const auto& s : type.shape()) count = count * s;
  m->count = count;
  m->stage = cur_;
  buffers_.push_back(m);
  return m;
}

MemSpace KernelGen::inferSpace(const Type& t) const {
  if (atTopLevel()) return MemSpace::Global;
  int64_t count = 1;
  for (const auto& s : t.shape()) {
    auto c = s.constant();
    if (!c) return MemSpace::Global;
    count *= *c;
  }
  return count <= opt_.privateMaxElements ? MemSpace::Private : MemSpace::Global;
}

ViewPtr KernelGen::allocate(const Type& t, std::optional<MemSpace> space) {
  MemSpace sp = space ? *space : inferSpace(t);
  if (sp == MemSpace::Private || (!t.isArray() && !atTopLevel())) {
    if (!t.isArray()) {
      std::string name = fresh("v");
      emit(backends::sDecl(ctype(t), name, nullptr));
      return scalarView(backends::cVar(name, ctype(t)), t);
    }
    int64_t count = 1;
    for (const auto& s : t.shape()) {
      auto c = s.constant();
      if (!c) fail("a private array of symbolic size " + t.str());
      count *= *c;
    }
    auto m = std::make_shared<Memory>();
    m->name = fresh("p");
    m->role = MemRole::Private;
    m->space = MemSpace::Private;
    m->type = t;
    m->element = t.innermost();
    m->elemC = ctype(m->element);
    m->count = count;
    m->stage = cur_;
    emit(backends::sArrayDecl(m->elemC, m->name, count, MemSpace::Private));
    return memView(m, t);
  }
  // Local and global memory are shared: one slice per enclosing loop iteration (per work-item
  // or sequential iteration), except the work-group loop for local memory.
  size_t first = 0;
  if (sp == MemSpace::Local) {
    int wg = workgroupDepth();
    if (wg < 0) fail("toLocal outside a mapWorkgroup");
    first = static_cast<size_t>(wg) + 1;
  }
  Type full = t;
  for (size_t k = loops_.size(); k-- > first;) full = Type::array(full, loops_[k].extent);
  ViewPtr v;
  if (sp == MemSpace::Local) {
    auto m = std::make_shared<Memory>();
    m->role = MemRole::Local;
    m->space = MemSpace::Local;
    m->type = full;
    m->element = full.innermost();
    m->elemC = ctype(m->element);
    ArithExpr count = 1;
    for (const auto& s : full.shape()) count = count * s;
    auto c = count.constant();
    if (!c) fail("local memory of symbolic size " + full.str());
    m->count = count;
    m->stage = cur_;
    m->localOrder = static_cast<int>(localLives_.size());
    localLives_.push_back(LocalLife{cur_, full.innermost().str() + "x" + count.str()});
    const int owner = static_cast<size_t>(m->localOrder) < reuse_.size()
                          ? reuse_[static_cast<size_t>(m->localOrder)]
                          : -1;
    if (owner >= 0) {  // the storage of an earlier local array (reusePlan)
      const Memory& o = *locals_.at(static_cast<size_t>(owner));
      m->name = o.name;
      m->storage = o.storage;
    } else {
      m->name = fresh("l");
      m->storage = m->localOrder;
      const int64_t padded = opt_.paddedLocalCount(*c);
      Stage& st = stages_.at(static_cast<size_t>(cur_));
      st.localDecls.push_back(backends::sArrayDecl(m->elemC, m->name, padded, MemSpace::Local));
      st.localDeclBytes.push_back(padded * byteSize(m->element));
      st.localBytes += st.localDeclBytes.back();
    }
    m->padEvery = opt_.localPadEvery(*c);
    locals_.push_back(m);
    v = memView(m, full);
  } else {
    if (cur_ < 0) openStage(false);
    MemoryPtr m = newBuffer(fresh("t" + std::to_string(tempCount_++)), MemRole::Temp, full);
    v = memView(m, full);
  }
  for (size_t k = first; k < loops_.size(); ++k) v = accessView(v, loops_[k].var);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Statements, loops and stages

std::string KernelGen::fresh(const std::string& base) {
  if (names_.insert(base).second) return base;
  for (int& k = counters_[base];; ++k) {
    std::string n = base + "_" + std::to_string(k + 1);
    if (names_.insert(n).second) return n;
  }
}

void KernelGen::emit(const backends::StmtPtr& s) {
  if (cur_ < 0) openStage(false);
  blocks_.back()->body.push_back(s);
}

int KernelGen::workgroupDepth() const {
  for (size_t k = loops_.size(); k-- > 0;)
    if (loops_[k].kind == LoopKind::Workgroup) return static_cast<int>(k);
  return -1;
}

backends::StmtPtr KernelGen::openLoop(LoopKind kind, int dim, const ArithExpr& extent,
                                      const std::string& base, ArithExpr& var) {
  if (cur_ < 0) openStage(kind != LoopKind::Seq);
  // A statement of the work-group: a loop directly inside the mapWorkgroup, or inside loops
  // over its rows (mapLocal loops, one iteration each with the work sizes the manifest gives).
  if (int wg = workgroupDepth(); wg >= 0 &&
      std::all_of(loops_.begin() + wg + 1, loops_.end(),
                  [](const Loop& l) { return l.kind == LoopKind::Local; }))
    ++wgStatement_;
  Stage& st = stages_.at(static_cast<size_t>(cur_));
  std::string name = fresh(base);
  var = ArithExpr::loopVar(name, extent);
  using backends::WorkItemFn;
  backends::StmtPtr s;
  switch (kind) {
    case LoopKind::Global:
      s = backends::sFor(name, backends::cWorkItem(WorkItemFn::GlobalId, dim), extent,
                         backends::cWorkItem(WorkItemFn::GlobalSize, dim));
      st.global[dim] = extent;
      break;
    case LoopKind::Workgroup:
      s = backends::sFor(name, backends::cWorkItem(WorkItemFn::GroupId, dim), extent,
                         backends::cWorkItem(WorkItemFn::NumGroups, dim));
      st.groups[dim] = extent;
      break;
    case LoopKind::Local: {
      s = backends::sFor(name, backends::cWorkItem(WorkItemFn::LocalId, dim), extent,
                         backends::cWorkItem(WorkItemFn::LocalSize, dim));
      auto c = extent.constant();
      st.local[dim] = std::max(st.local[dim], c ? *c : int64_t{64});
      break;
    }
    case LoopKind::Seq: s = backends::sFor(name, backends::cIndex(0), extent, nullptr); break;
  }
  if (kind != LoopKind::Seq) st.dims = std::max(st.dims, dim + 1);
  emit(s);
  loops_.push_back(Loop{kind, var, extent, dim, s, blocks_.back()});
  blocks_.push_back(s);
  return s;
}

void KernelGen::closeLoop() {
  blocks_.pop_back();
  loops_.pop_back();
}

void KernelGen::openStage(bool parallel) {
  Stage st;
  st.name = name_ + "_stage" + std::to_string(stages_.size());
  st.body = backends::sBlock();
  st.parallel = parallel;
  stages_.push_back(std::move(st));
  cur_ = static_cast<int>(stages_.size()) - 1;
  blocks_ = {stages_.back().body};
}

void KernelGen::closeStage() {
  if (!loops_.empty()) fail("internal: a stage closed inside a loop");
  for (auto& m : locals_) m->pendingWrite = false;
  for (auto* m : groupShared_) m->pendingWrite = false;
  blocks_.clear();
  cur_ = -1;
}

// ---------------------------------------------------------------------------------------------
// Memory accesses and barriers

ArithExpr KernelGen::canonicalLocal(const ArithExpr& index) {
  std::unordered_map<uint64_t, ArithExpr> sub;
  for (const auto& l : loops_) {
    if (l.kind != LoopKind::Local) continue;
    std::string key = std::to_string(l.dim) + ":" + l.extent.str();
    auto it = canon_.find(key);
    if (it == canon_.end())
      it = canon_.emplace(key, ArithExpr::loopVar("lid" + std::to_string(l.dim), l.extent)).first;
    sub.emplace(l.var.varId(), it->second);
  }
  return index.substitute(sub);
}

void KernelGen::onAccess(const Memory& m, const ArithExpr& index) {
  if (dryRun_ > 0 || cur_ < 0) return;
  Stage& st = stages_.at(static_cast<size_t>(cur_));
  if (m.space == MemSpace::Global) {
    auto it = std::find_if(buffers_.begin(), buffers_.end(),
                           [&](const MemoryPtr& b) { return b.get() == &m; });
    if (it != buffers_.end() &&
        std::find(st.used.begin(), st.used.end(), *it) == st.used.end())
      st.used.push_back(*it);
    if (writing_) st.written.insert(&m);
  }
  std::string line = std::string(writing_ ? "write " : "read ") + m.name + "[" + index.str() + "]";
  if (std::find(st.accesses.begin(), st.accesses.end(), line) == st.accesses.end())
    st.accesses.push_back(line);

  // Barriers: for memory the work-items of a group share and exchange data through: local
  // memory, and global temporaries written inside a work-group.
  const bool shared = m.space == MemSpace::Local ||
                      (m.space == MemSpace::Global && m.role == MemRole::Temp && workgroupDepth() >= 0);
  if (!shared) return;
  auto* mm = const_cast<Memory*>(&m);
  if (m.space == MemSpace::Local && m.localOrder >= 0) {
    auto& life = localLives_.at(static_cast<size_t>(m.localOrder));
    if (writing_) {
      life.firstWrite = std::min(life.firstWrite, wgStatement_);
      // write-after-read: the storage was read as another array since the last barrier
      auto slot = static_cast<size_t>(m.storage);
      if (m.storage != m.localOrder && slot < readPending_.size() && readPending_[slot]) {
        auto readLoops = *readPending_[slot];
        placeBarrier(false, readLoops);
      }
    } else {
      life.lastRead = std::max(life.lastRead, wgStatement_);
      auto slot = static_cast<size_t>(m.storage);
      if (readPending_.size() <= slot) readPending_.resize(slot + 1);
      readPending_[slot] = loopStack();
    }
  }
  if (m.space == MemSpace::Global &&
      std::find(groupShared_.begin(), groupShared_.end(), mm) == groupShared_.end())
    groupShared_.push_back(mm);
  bool inLocalLoop = std::any_of(loops_.begin(), loops_.end(),
                                 [](const Loop& l) { return l.kind == LoopKind::Local; });
  if (writing_) {
    if (inLocalLoop) {
      mm->pendingWrite = true;
      mm->writeIndex = canonicalLocal(index);
      mm->writeLoops = loopStack();
    }
    return;
  }
  if (!mm->pendingWrite) return;
  // The reader is the writer when it reads what its own work-item wrote: same index as a
  // function of the local id (with the same work distribution).
  bool same = inLocalLoop && mm->writeIndex && canonicalLocal(index) == *mm->writeIndex;
  if (!same) {
    auto writeLoops = mm->writeLoops;
    placeBarrier(m.space == MemSpace::Global, writeLoops);
  }
}

std::vector<const backends::Stmt*> KernelGen::loopStack() const {
  std::vector<const backends::Stmt*> out;
  for (const auto& l : loops_) out.push_back(l.stmt.get());
  return out;
}

void KernelGen::placeBarrier(bool globalFence, const std::vector<const backends::Stmt*>& other) {
  int wg = workgroupDepth();
  backends::StmtPtr parent, before;
  for (size_t k = wg < 0 ? 0 : static_cast<size_t>(wg) + 1; k < loops_.size(); ++k) {
    if (k < other.size() && other[k] == loops_[k].stmt.get()) continue;  // shared loop
    parent = loops_[k].parent;
    before = loops_[k].stmt;
    break;
  }
  // The mapLocal loops around the barrier must run once per work-item (barrierRows).
  const size_t first = wg < 0 ? 0 : static_cast<size_t>(wg) + 1;
  for (size_t k = first; k < loops_.size() && (!before || loops_[k].stmt != before); ++k) {
    const Loop& l = loops_[k];
    if (l.kind != LoopKind::Local) continue;
    auto c = l.extent.constant();
    int64_t& rows = stages_[static_cast<size_t>(cur_)].barrierRows[l.dim];
    if (!c)
      fail("a barrier inside a mapLocal(" + std::to_string(l.dim) + ") loop of " +
           l.extent.str() + " iterations: every work-item must reach it, so the loop needs a "
           "constant extent");
    if (rows != 0 && rows != *c)
      fail("barriers inside mapLocal(" + std::to_string(l.dim) + ") loops of " +
           std::to_string(rows) + " and " + std::to_string(*c) + " iterations: every "
           "work-item must reach them, so those loops need one extent");
    rows = *c;
  }
  auto barrier = backends::sBarrier(!globalFence, globalFence);
  ++barriers_;
  if (parent) {
    auto& body = parent->body;
    auto it = std::find(body.begin(), body.end(), before);
    if (it != body.begin() && (*(it - 1))->kind == backends::StmtKind::Barrier) {
      // already synchronized
    } else {
      body.insert(it, barrier);
    }
  } else {
    emit(barrier);
  }
  for (auto& m : locals_) m->pendingWrite = false;
  for (auto* m : groupShared_) m->pendingWrite = false;
  readPending_.assign(readPending_.size(), std::nullopt);
}

std::vector<int> KernelGen::reusePlan(const std::vector<LocalLife>& lives) {
  // Interval colouring in the order of first writes (an array allocated early, such as a
  // toLocal result, may be written last); a group's storage is named by its earliest
  // allocated member, which the second run meets first.
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
  const int64_t bytes = total * byteSize(elem);
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
    constTables_.push_back(m);
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
