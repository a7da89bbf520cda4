// The barrier pass (compiler/codegen/barriers.h) on hand-made traces: a work-group loop W with
// two row loops, a writer L1 and a reader L2 of one local array.
#include "compiler/codegen/barriers.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

using backends::StmtKind;
using backends::StmtPtr;

struct Fixture {
  std::vector<cg::StageDraft> stages{1};
  StmtPtr w, l1, l2;
  cg::MemoryPtr mem = std::make_shared<cg::Memory>();
  ir::ArithExpr lid = ir::ArithExpr::loopVar("lid", 8);

  Fixture() {
    stages[0].body = backends::sBlock();
    w = backends::sFor("wg", backends::cIndex(0), 4, nullptr);
    l1 = backends::sFor("lid", backends::cIndex(0), 8, nullptr);
    l2 = backends::sFor("lid_1", backends::cIndex(0), 8, nullptr);
    stages[0].body->body.push_back(w);
    w->body = {l1, l2};
    mem->name = "l";
    mem->space = backends::MemSpace::Local;
    mem->role = cg::MemRole::Local;
    mem->localOrder = 0;
    mem->storage = 0;
  }
  cg::LoopFrame frame(cg::LoopKind k, const StmtPtr& s, const StmtPtr& parent) {
    return cg::LoopFrame{k, lid, 8, 0, s, parent};
  }
  cg::TraceEvent access(bool writing, const StmtPtr& row, const ir::ArithExpr& canonical) {
    cg::TraceEvent e;
    e.stage = 0;
    e.memory = mem;
    e.writing = writing;
    e.index = canonical;
    e.shared = true;
    e.inLocalLoop = true;
    e.canonical = canonical;
    e.loops = {frame(cg::LoopKind::Workgroup, w, stages[0].body), frame(cg::LoopKind::Local, row, w)};
    e.workgroupDepth = 0;
    e.block = row;
    return e;
  }
  cg::TraceEvent marker(cg::TraceEvent::Kind k) {
    cg::TraceEvent e;
    e.kind = k;
    e.stage = 0;
    e.loop = w;
    return e;
  }
  std::vector<StmtKind> kinds() const {
    std::vector<StmtKind> out;
    for (const auto& s : w->body) out.push_back(s->kind);
    return out;
  }
};

// Each work-item reads another's element (7 - lid): a barrier before the reading row loop,
// and one at the end of the work-group loop, which fixes local[0] to the rows' extent.
TEST(BarrierPass, ReadAfterAnotherWorkItemsWrite) {
  Fixture f;
  cg::AccessTrace t = {f.marker(cg::TraceEvent::Kind::WorkgroupOpen),
                       f.access(true, f.l1, f.lid), f.access(false, f.l2, 7 - f.lid),
                       f.marker(cg::TraceEvent::Kind::WorkgroupClose)};
  cg::placeBarriers(t, f.stages);
  EXPECT_EQ(f.kinds(), (std::vector<StmtKind>{StmtKind::For, StmtKind::Barrier, StmtKind::For,
                                              StmtKind::Barrier}));
  EXPECT_EQ(f.w->body[1]->localFence, true);
  EXPECT_EQ(f.stages[0].barrierRows[0], 0);  // the barrier is outside the row loops
}

// Each work-item reads what it wrote itself (the same canonical index): no barrier at all.
TEST(BarrierPass, NoBarrierWhenEachWorkItemReadsItsOwnElement) {
  Fixture f;
  cg::AccessTrace t = {f.marker(cg::TraceEvent::Kind::WorkgroupOpen),
                       f.access(true, f.l1, f.lid), f.access(false, f.l2, f.lid),
                       f.marker(cg::TraceEvent::Kind::WorkgroupClose)};
  cg::placeBarriers(t, f.stages);
  EXPECT_EQ(f.kinds(), (std::vector<StmtKind>{StmtKind::For, StmtKind::For}));
}

// A stage boundary synchronizes: a read in the next stage needs no barrier.
TEST(BarrierPass, NothingPendsAcrossStages) {
  Fixture f;
  cg::AccessTrace t = {f.access(true, f.l1, f.lid), f.marker(cg::TraceEvent::Kind::StageClose),
                       f.access(false, f.l2, 7 - f.lid)};
  cg::placeBarriers(t, f.stages);
  EXPECT_EQ(f.kinds(), (std::vector<StmtKind>{StmtKind::For, StmtKind::For}));
}

}  // namespace
}  // namespace fftc::codegen_test
