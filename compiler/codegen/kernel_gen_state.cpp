// The kernel-AST generator (kernel_gen.h): the kernel's buffers and result, types, memory
// allocation, loops, stages and the access trace.
#include <algorithm>
#include <cstring>
#include <set>

#include "compiler/codegen/address_space.h"
#include "compiler/codegen/kernel_gen.h"
#include "ir/diagnostic.h"
#include "ir/traversal.h"

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
// The kernel: inputs, output, the body

namespace {

// Gives an input or the output a strided layout (CodegenOptions); CompileError when it does
// not fit.
void applyBufferLayout(Memory& m, const BufferLayout& l) {
  const auto count = m.count.constant();
  int64_t product = 1;
  bool ok = l.dims.size() == l.strides.size() && !l.dims.empty();
  for (size_t d = 0; ok && d < l.dims.size(); ++d) {
    ok = l.dims[d] >= 1 && l.strides[d] >= 1 && product <= (int64_t{1} << 40) / l.dims[d];
    if (ok) product *= l.dims[d];
  }
  if (!ok || !count || *count != product)
    throw ir::CompileError({}, "the layout of '" + m.name + "' (" + std::to_string(l.dims.size()) +
                                   " dims, product " + std::to_string(product) +
                                   ") does not fit its " + m.count.str() + " elements");
  m.layout = l;
  m.count = l.extent();
}

}  // namespace

GeneratedKernel KernelGen::run(const ir::LambdaPtr& kernel, const std::vector<std::string>& paramNames,
                              const std::vector<ArithExpr>& sizeVars) {
  std::vector<std::string> sizeNames;
  for (const auto& v : sizeVars) sizeNames.push_back(v.varName());
  for (const auto& n : paramNames) names_.insert(n);
  for (const auto& n : sizeNames) names_.insert(n);
  const auto& ps = kernel->params();
  std::set<std::string> laidOut;
  for (size_t i = 0; i < ps.size(); ++i) {
    std::string pn = i < paramNames.size() ? paramNames[i] : ps[i]->name();
    names_.insert(pn);
    laidOut.insert(pn);
    MemoryPtr m = newBuffer(pn, MemRole::Input, ps[i]->type());
    if (auto it = opt_.inputLayouts.find(pn); it != opt_.inputLayouts.end())
      applyBufferLayout(*m, it->second);
    env_[ps[i].get()] = memView(m, ps[i]->type());
  }
  for (const auto& [n, l] : opt_.inputLayouts)
    if (!laidOut.count(n))
      throw ir::CompileError(kernel->loc(), "a layout for '" + n + "', which is not a parameter");
  const Type resultType = kernel->body()->type();
  usesVectors_ = ir::containsFun(kernel->body(), [](const ir::FunDecl& f) {
    const auto* s = f.as<ir::Split>();
    return s && s->vector();
  });
  MemoryPtr out = newBuffer(fresh("out"), MemRole::Output, resultType);
  if (opt_.outputLayout) applyBufferLayout(*out, *opt_.outputLayout);
  ViewPtr dest = memView(out, resultType);
  Result r = gen(kernel->body(), dest);
  if (!r.written) copyTop(dest, r.view, resultType);
  if (cur_ >= 0) closeStage();

  GeneratedKernel g;
  g.name = name_;
  g.module = module_;
  g.stages = std::move(stages_);
  g.buffers = std::move(buffers_);
  g.locals = std::move(locals_);
  g.tableData = std::move(tableData_);
  g.trace = std::move(trace_);
  g.sizeVarNames = sizeNames;
  g.sizeVars = sizeVars;
  return g;
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

ViewPtr KernelGen::allocate(const Type& t, std::optional<MemSpace> space) {
  const MemSpace sp = inferAddressSpace(t, space, !atTopLevel(), opt_);
  if (sp == MemSpace::Private) {
    if (!t.isArray()) {
      std::string name = fresh("v");
      emit(backends::sDecl(ctype(t), name, nullptr));
      return scalarView(backends::cVar(name, ctype(t)), t);
    }
    int64_t count = 1;
    for (const auto& s : t.shape()) {
      auto c = s.constant();
      // Private arrays are registers or stack with a size fixed when the kernel is compiled.
      if (!c)
        fail("a private array of symbolic size " + t.str() +
             ": arrays made and used inside one work-item need constant sizes; fix the size "
             "with -D, or fuse the loop that makes the array with the one that reads it "
             "(reduceMapFusion, mapFusion)");
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
  auto sliced = [&](const LoopFrame& l) { return sp != MemSpace::Local || !l.sharedIterations; };
  for (size_t k = loops_.size(); k-- > first;)
    if (sliced(loops_[k])) full = Type::array(full, loops_[k].extent);
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
    // Named here, in allocation order; the local-memory pass gives storage, final names and
    // declarations (local_memory.h).
    m->localOrder = static_cast<int>(locals_.size());
    m->name = fresh("l");
    // the row length of F rows of an FFT (the whole array when it has one dimension)
    int64_t inner = full.shape().size() >= 2 ? 1 : *c;
    for (size_t d = 1; d < full.shape().size(); ++d) {
      auto e = full.shape()[d].constant();
      inner = e ? inner * *e : 0;
      if (inner == 0) break;
    }
    m->padEvery = opt_.localPadEvery(*c, inner);
    // the spread skew (CodegenOptions::localRowSkewSpread) where the rows are local dimension
    // 0's (adjacent work-items in different rows), none where they are another's
    const bool rowsOnDim0 = first < loops_.size() && loops_[first].kind == LoopKind::Local &&
                            loops_[first].dim == 0;
    if (opt_.localRowSkew && m->padEvery > 0 && inner > 0 && inner < *c &&
        (!opt_.localRowSkewSpread || rowsOnDim0)) {
      m->rowSkew = inner;
      if (opt_.localRowSkewSpread)
        m->rowSkewElements = std::max<int64_t>(1, 128 / (*c / inner * deviceBytes(m->element)));
    }
    // A kernel with vectors keeps its local arrays dense and aligned, so that a vector of
    // consecutive elements is one access (padding would split it).
    if (usesVectors_) {
      m->padEvery = 0;
      m->rowSkew = 0;
      m->align = 16;
    }
    // A mapCluster's arrays are distributed over its blocks, dense (an element's block and
    // offset are a division of its index).
    if (const int64_t blocks = clusterOf(); blocks > 1) {
      if (*c % blocks != 0)
        fail("a local array of " + std::to_string(*c) + " elements in a mapCluster of " +
             std::to_string(blocks) + " work-groups: it is distributed over them, so their "
             "number must divide its size");
      m->cluster = blocks;
      m->padEvery = 0;
      m->rowSkew = 0;
    }
    locals_.push_back(m);
    v = memView(m, full);
  } else {
    if (cur_ < 0) openStage(false);
    MemoryPtr m = newBuffer(fresh("t" + std::to_string(tempCount_++)), MemRole::Temp, full);
    v = memView(m, full);
  }
  for (size_t k = first; k < loops_.size(); ++k)
    if (sliced(loops_[k])) v = accessView(v, loops_[k].var);
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

int64_t KernelGen::clusterOf() const {
  const int wg = workgroupDepth();
  return wg < 0 ? 1 : loops_[static_cast<size_t>(wg)].cluster;
}

backends::StmtPtr KernelGen::openLoop(LoopKind kind, int dim, const ArithExpr& extent,
                                      const std::string& base, ArithExpr& var) {
  if (cur_ < 0) openStage(kind != LoopKind::Seq);
  // A statement of the work-group: a loop directly inside the mapWorkgroup, or a mapLocal loop
  // inside loops over its rows (mapLocal loops, one iteration each with the work sizes the
  // manifest gives). A sequential loop inside a mapLocal loop is part of that loop's statement:
  // counted as one of its own, a pass whose butterflies read in one loop and write in the next
  // (a prime radix of 17 .. 29, not unrolled) let its result take the storage it reads while
  // other work-items still read it (local_memory.h, reusePlan).
  if (int wg = workgroupDepth();
      wg >= 0 && (kind == LoopKind::Local || loops_.size() == static_cast<size_t>(wg) + 1) &&
      std::all_of(loops_.begin() + wg + 1, loops_.end(),
                  [](const LoopFrame& l) { return l.kind == LoopKind::Local; }))
    ++wgStatement_;
  StageDraft& st = stages_.at(static_cast<size_t>(cur_));
  std::string name = fresh(base);
  var = ArithExpr::loopVar(name, extent);
  using backends::WorkItemFn;
  backends::StmtPtr s;
  // Inside a mapCluster of C blocks, C consecutive work-groups are one: cluster g is blocks
  // C g .. C g + C - 1 (CUDA's rank in a cluster of (C, 1, 1) is blockIdx.x % C), and local
  // dimension 0 counts the cluster's work-items, the rank's block first.
  const int64_t cluster = kind == LoopKind::Workgroup              ? pendingCluster_
                          : kind == LoopKind::Local && dim == 0 ? clusterOf()
                                                                : 1;
  if (pendingBlocks_ > 0) {
    // mapBlock: block k of the cluster runs row k (one iteration a block)
    const backends::CType intT = backends::CType::of(backends::CType::Kind::Int);
    const backends::CExpr c = backends::cIndex(pendingBlocks_);
    s = backends::sFor(name,
                       backends::cBinary("%", backends::cWorkItem(WorkItemFn::GroupId, 0), c, intT),
                       extent, c);
  } else if (cluster > 1) {
    const backends::CType intT = backends::CType::of(backends::CType::Kind::Int);
    auto op = [&](const char* o, backends::CExpr a, backends::CExpr b) {
      return backends::cBinary(o, std::move(a), std::move(b), intT);
    };
    const backends::CExpr c = backends::cIndex(cluster);
    if (kind == LoopKind::Workgroup) {
      s = backends::sFor(name, op("/", backends::cWorkItem(WorkItemFn::GroupId, dim), c), extent,
                         op("/", backends::cWorkItem(WorkItemFn::NumGroups, dim), c));
      st.groups[dim] = extent * cluster;
      st.cluster = cluster;
    } else {
      const backends::CExpr size = backends::cWorkItem(WorkItemFn::LocalSize, 0);
      const backends::CExpr rank = op("%", backends::cWorkItem(WorkItemFn::GroupId, 0), c);
      s = backends::sFor(name,
                         op("+", op("*", rank, size), backends::cWorkItem(WorkItemFn::LocalId, 0)),
                         extent, op("*", size, c));
      auto n = extent.constant();
      st.local[0] = std::max(st.local[0], n ? (*n + cluster - 1) / cluster : int64_t{64});
    }
    st.dims = std::max(st.dims, dim + 1);
  } else switch (kind) {
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
  if (kind != LoopKind::Seq && pendingBlocks_ == 0) st.dims = std::max(st.dims, dim + 1);
  emit(s);
  loops_.push_back(LoopFrame{kind, var, extent, dim, s, blocks_.back()});
  loops_.back().cluster = cluster;
  loops_.back().clusterBlocks = pendingBlocks_ > 0;
  blocks_.push_back(s);
  return s;
}

void KernelGen::closeLoop() {
  blocks_.pop_back();
  loops_.pop_back();
}

void KernelGen::openStage(bool parallel) {
  StageDraft st;
  st.name = name_ + "_stage" + std::to_string(stages_.size());
  st.body = backends::sBlock();
  st.parallel = parallel;
  stages_.push_back(std::move(st));
  cur_ = static_cast<int>(stages_.size()) - 1;
  blocks_ = {stages_.back().body};
}

void KernelGen::closeStage() {
  if (!loops_.empty()) fail("internal: a stage closed inside a loop");
  traceEvent(TraceEvent::Kind::StageClose);
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
  StageDraft& st = stages_.at(static_cast<size_t>(cur_));
  if (m.space == MemSpace::Global) {
    auto it = std::find_if(buffers_.begin(), buffers_.end(),
                           [&](const MemoryPtr& b) { return b.get() == &m; });
    if (it != buffers_.end() &&
        std::find(st.used.begin(), st.used.end(), *it) == st.used.end())
      st.used.push_back(*it);
    if (writing_ && m.role != MemRole::Table) st.written.insert(&m);
  }
  traceEvent(TraceEvent::Kind::Access);
  TraceEvent& e = trace_.back();
  e.memory = std::const_pointer_cast<Memory>(m.shared_from_this());
  // (a table is only read, also where it holds the index of a store: gather's inverse)
  e.writing = writing_ && m.role != MemRole::Table;
  e.index = index;
  // Memory the work-items of a group share and exchange data through: local memory, and
  // global temporaries written inside a work-group.
  e.shared = m.space == MemSpace::Local || (m.space == MemSpace::Global &&
                                            m.role == MemRole::Temp && workgroupDepth() >= 0);
  e.inLocalLoop = std::any_of(loops_.begin(), loops_.end(),
                              [](const LoopFrame& l) { return l.kind == LoopKind::Local; });
  if (e.shared && e.inLocalLoop) e.canonical = canonicalLocal(index);
}

void KernelGen::traceEvent(TraceEvent::Kind kind, backends::StmtPtr loop) {
  TraceEvent e;
  e.kind = kind;
  e.stage = cur_;
  e.loops = loops_;
  e.workgroupDepth = workgroupDepth();
  e.wgStatement = wgStatement_;
  if (!blocks_.empty()) {
    e.block = blocks_.back();
    if (!e.block->body.empty()) e.after = e.block->body.back();
  }
  e.loop = std::move(loop);
  if (!callLocs_.empty()) e.loc = callLocs_.back();
  trace_.push_back(std::move(e));
}

}  // namespace fftc::compiler::codegen
