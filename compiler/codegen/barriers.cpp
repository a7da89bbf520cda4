// The barrier pass (barriers.h).
//
// A write inside a mapLocal records its index with the local loop variables replaced by
// canonical ones; a later read compares its own canonical index: equal means every work-item
// reads what it wrote itself (no barrier). Otherwise the barrier goes before the first loop
// around the reader that did not also enclose the writer (inside a row loop when writer and
// reader are in the same row, at the work-group level otherwise), and every pending write is
// then synchronized.
#include "compiler/codegen/barriers.h"

#include <algorithm>
#include <map>
#include <optional>

namespace fftc::compiler::codegen {

namespace {

using backends::Stmt;
using backends::StmtKind;
using backends::StmtPtr;

using LoopStmts = std::vector<const Stmt*>;

LoopStmts loopStmts(const std::vector<LoopFrame>& loops) {
  LoopStmts out;
  for (const auto& l : loops) out.push_back(l.stmt.get());
  return out;
}

class BarrierPass {
 public:
  explicit BarrierPass(std::vector<StageDraft>& stages) : stages_(stages) {}

  void run(const AccessTrace& trace) {
    for (const auto& e : trace) {
      switch (e.kind) {
        case TraceEvent::Kind::Access: access(e); break;
        case TraceEvent::Kind::WorkgroupOpen:
          open_.push_back({barriers_, trailing_});
          trailing_ = false;
          break;
        case TraceEvent::Kind::WorkgroupClose: closeWorkgroup(e); break;
        case TraceEvent::Kind::StageClose:
          for (auto& [m, w] : writes_) w.pending = false;
          break;
      }
    }
  }

 private:
  struct Write {
    bool pending = false;
    std::optional<ir::ArithExpr> index;  // canonical
    LoopStmts loops;
  };
  struct PendingRead {
    const Memory* reader;
    LoopStmts loops;
  };
  struct OpenWorkgroup {
    int barriersBefore;
    bool outerTrailing;
  };

  void access(const TraceEvent& e) {
    if (!e.shared) return;
    const Memory& m = *e.memory;
    const bool localArray = m.space == backends::MemSpace::Local && m.localOrder >= 0;
    if (localArray && e.writing) {
      // write after read: the storage was read as another array since the last barrier (the
      // storage's owner too: a toLocal result allocated first may be written last, in the
      // pass that reads the array sharing its storage)
      auto it = readPending_.find(m.storage);
      if (it != readPending_.end() && it->second &&
          (m.storage != m.localOrder || it->second->reader != &m)) {
        LoopStmts readLoops = it->second->loops;
        place(e, false, readLoops, !distributed(m) && !distributed(*it->second->reader));
      }
    }
    Write& w = writes_[&m];
    if (e.writing) {
      if (e.inLocalLoop) {
        w.pending = true;
        w.index = e.canonical;
        w.loops = loopStmts(e.loops);
      }
      return;
    }
    // The reader is the writer when it reads what its own work-item wrote: the same index as
    // a function of the local id (with the same work distribution).
    if (w.pending && !(e.inLocalLoop && w.index && e.canonical && *e.canonical == *w.index)) {
      LoopStmts writeLoops = w.loops;
      place(e, m.space == backends::MemSpace::Global, writeLoops,
            m.space == backends::MemSpace::Local && !distributed(m));
    }
    // recorded after the barrier this read may need: one read in a loop (a radix-32 pass's
    // `for (i ...) p[i] = l[...]`) is one event, and the barrier before it must not clear it,
    // or the pass's writes to the same storage get no barrier after it (1024's [32, 32]
    // convolution in one array: a race that fftc exec --check caught on PoCL)
    if (localArray) readPending_[m.storage] = PendingRead{&m, loopStmts(e.loops)};
  }

  // When the work-items of a row exchanged data (a barrier was needed), the next row's writes
  // must wait for this row's last reads (unless an inner work-group loop did that).
  void closeWorkgroup(const TraceEvent& e) {
    const OpenWorkgroup o = open_.back();
    open_.pop_back();
    if (barriers_ > o.barriersBefore && !trailing_) {
      e.loop->body.push_back(backends::sBarrier(true, false));
      ++barriers_;
      trailing_ = true;
    }
    trailing_ = trailing_ || o.outerTrailing;
  }

  // A local array over a thread-block cluster's blocks (Memory::cluster): its accesses need
  // the cluster's barrier; a block's own array (a mapBlock's) only the block's.
  static bool distributed(const Memory& m) { return m.cluster > 1; }

  [[noreturn]] static void fail(const TraceEvent& e, const std::string& msg) {
    throw ir::CompileError(e.loc, "code generation: " + msg);
  }

  // A barrier between the access `e` and an earlier one made inside the loops `other`: before
  // the first loop enclosing `e` that did not enclose the earlier access, in the innermost loop
  // they share (a loop over the rows of a work-group each work-item runs the same number of
  // times); where `e` is when they share all of its loops.
  // blockOnly: the arrays are a block's own (in a cluster kernel: the block's barrier, which
  // leaves the distributed arrays' pending accesses pending).
  void place(const TraceEvent& e, bool globalFence, const LoopStmts& other, bool blockOnly) {
    const auto& loops = e.loops;
    const size_t first = e.workgroupDepth < 0 ? 0 : static_cast<size_t>(e.workgroupDepth) + 1;
    StmtPtr parent, before;
    for (size_t k = first; k < loops.size(); ++k) {
      if (k < other.size() && other[k] == loops[k].stmt.get()) continue;  // shared loop
      parent = loops[k].parent;
      before = loops[k].stmt;
      break;
    }
    // The mapLocal loops around the barrier must run once per work-item (barrierRows).
    for (size_t k = first; k < loops.size() && (!before || loops[k].stmt != before); ++k) {
      const LoopFrame& l = loops[k];
      if (l.kind != LoopKind::Local) continue;
      auto c = l.extent.constant();
      int64_t& rows = stages_.at(static_cast<size_t>(e.stage)).barrierRows[l.dim];
      if (!c)
        fail(e, "a barrier inside a mapLocal(" + std::to_string(l.dim) + ") loop of " +
                    l.extent.str() + " iterations: every work-item must reach it, so the loop "
                    "needs a constant extent");
      // a loop over a mapCluster's work-items: once per work-item of each block
      if (l.cluster > 1 && *c % l.cluster != 0)
        fail(e, "a barrier inside a mapLocal(0) loop of " + std::to_string(*c) +
                    " iterations over a cluster of " + std::to_string(l.cluster) +
                    " work-groups: every work-item must reach it, so the blocks need one share");
      const int64_t perBlock = *c / l.cluster;
      if (rows != 0 && rows != perBlock)
        fail(e, "barriers inside mapLocal(" + std::to_string(l.dim) + ") loops of " +
                    std::to_string(rows) + " and " + std::to_string(perBlock) + " iterations: every "
                    "work-item must reach them, so those loops need one extent");
      rows = perBlock;
    }
    auto barrier = backends::sBarrier(!globalFence, globalFence);
    barrier->blockOnly = blockOnly;
    ++barriers_;
    if (parent) {
      auto& body = parent->body;
      auto it = std::find(body.begin(), body.end(), before);
      if (it == body.begin() || (*(it - 1))->kind != StmtKind::Barrier) body.insert(it, barrier);
      else if (!blockOnly) (*(it - 1))->blockOnly = false;  // the one there, widened
      // else: already synchronized
    } else {
      // Where the access is: after the statement that was last in its block then (and after
      // the barriers placed there before this one).
      auto& body = e.block->body;
      auto it = e.after ? std::find(body.begin(), body.end(), e.after) + 1 : body.begin();
      while (it != body.end() && placed_.count(it->get())) ++it;
      body.insert(it, barrier);
    }
    placed_.insert(barrier.get());
    for (auto& [m, w] : writes_)
      if (!blockOnly || !distributed(*m)) w.pending = false;
    for (auto& [s, r] : readPending_)
      if (!blockOnly || (r && !distributed(*r->reader))) r.reset();
  }

  std::vector<StageDraft>& stages_;
  std::map<const Memory*, Write> writes_;
  std::map<int, std::optional<PendingRead>> readPending_;  // by storage: the array, its loops
  std::vector<OpenWorkgroup> open_;
  std::unordered_set<const Stmt*> placed_;
  int barriers_ = 0;
  bool trailing_ = false;  // a work-group loop inside ended with a barrier
};

}  // namespace

void placeBarriers(const AccessTrace& trace, std::vector<StageDraft>& stages) {
  BarrierPass(stages).run(trace);
}

}  // namespace fftc::compiler::codegen
