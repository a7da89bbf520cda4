// The local-memory pass (compiler/codegen/local_memory.h): lifetimes from the access trace,
// the reuse plan, and storage, names and declarations applied to the kernel AST in one run.
#include "compiler/codegen/local_memory.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

using backends::MemSpace;

// The reuse plan colours lifetimes in the order of first writes: an array allocated first but
// written last (a toLocal result filled by the last pass) takes the storage of the first pass's
// array, and the group is named by its earliest allocated member.
TEST(LocalMemory, PlanFollowsFirstWritesNotAllocationOrder) {
  using Life = cg::LocalLife;
  const std::vector<Life> lives = {
      {0, "float2x64", 4, 6},  // allocated first, written by the third pass, copied out
      {0, "float2x64", 1, 2},  // pass 1 -> pass 2
      {0, "float2x64", 2, 4},  // pass 2 -> pass 3
      {0, "floatx64", 5, 6},   // another type: its own storage
      {1, "float2x64", 7, 8},  // another stage: its own storage
      {0, "float2x64"},        // never written
  };
  EXPECT_EQ(cg::reusePlan(lives), (std::vector<int>{-1, 0, -1, -1, -1, -1}));
  // three passes with no early allocation: ping-pong, the third pass back in the first array
  const std::vector<Life> passes = {{0, "t", 1, 2}, {0, "t", 2, 3}, {0, "t", 3, 4}};
  EXPECT_EQ(cg::reusePlan(passes), (std::vector<int>{-1, -1, 0}));
}

// Arrays of one element type but different sizes (LocalLife::element, stored): where no free
// group has the array's own type, it joins the free group of its element type that it grows
// least; a group of its own type comes first, and another element type never shares.
TEST(LocalMemory, PlanSharesStorageAcrossSizes) {
  using Life = cg::LocalLife;
  auto life = [](int64_t count, int firstWrite, int lastRead, const std::string& elem = "float2") {
    Life l{0, elem + "x" + std::to_string(count), firstWrite, lastRead};
    l.element = elem;
    l.stored = count;
    return l;
  };
  // a Rader pass: x (n = 8) -> the forward FFT of (p - 1)·m = 6 in F1, F2 -> Y (8, from x and
  // A = F2) -> the inverse FFT in G1, G2 -> out (8, from Y and c = G2): Y takes F1's storage
  // (grown to 8), G1 F2's (its own type), G2 x's, out G1's (grown to 8); four storages without
  // the sharing across sizes
  const std::vector<Life> rader = {life(8, 1, 4),   // x
                                   life(6, 2, 3),   // F1
                                   life(6, 3, 4),   // F2 (A)
                                   life(8, 4, 7),   // Y
                                   life(6, 5, 6),   // G1
                                   life(6, 6, 7),   // G2 (c)
                                   life(8, 7, 8)};  // out
  EXPECT_EQ(cg::reusePlan(rader), (std::vector<int>{-1, -1, -1, 1, 2, 0, 2}));
  // without the element type (a cluster's array): only its own type, as before
  std::vector<Life> typed = rader;
  for (Life& l : typed) l.element.clear();
  EXPECT_EQ(cg::reusePlan(typed), (std::vector<int>{-1, -1, -1, -1, 1, 2, 0}));
  // the free group of the array's own type first, though another grows no storage either
  EXPECT_EQ(cg::reusePlan({life(16, 1, 2), life(8, 1, 2), life(8, 3, 4)}),
            (std::vector<int>{-1, -1, 1}));
  // the group grown least: 10 joins the 12 (0), not the 4 (6 more)
  EXPECT_EQ(cg::reusePlan({life(4, 1, 2), life(12, 1, 2), life(10, 3, 4)}),
            (std::vector<int>{-1, -1, 1}));
  // another element type, another stage: never
  EXPECT_EQ(cg::reusePlan({life(8, 1, 2), life(6, 3, 4, "float")}), (std::vector<int>{-1, -1}));
  Life other = life(6, 3, 4);
  other.stage = 1;
  EXPECT_EQ(cg::reusePlan({life(8, 1, 2), other}), (std::vector<int>{-1, -1}));
}

cg::MemoryPtr localArray(const std::string& name, int order, int64_t count) {
  auto m = std::make_shared<cg::Memory>();
  m->name = name;
  m->role = cg::MemRole::Local;
  m->space = MemSpace::Local;
  m->element = ir::Type::real(ir::ScalarKind::Float);
  m->type = ir::Type::array(m->element, count);
  m->elemC = backends::CType::of(backends::CType::Kind::Float);
  m->count = count;
  m->stage = 0;
  m->localOrder = order;
  m->padEvery = cg::CodegenOptions{}.localPadEvery(count);  // as the generator pads it
  return m;
}

cg::TraceEvent access(const cg::MemoryPtr& m, bool writing, int wgStatement) {
  cg::TraceEvent e;
  e.stage = 0;
  e.memory = m;
  e.writing = writing;
  e.wgStatement = wgStatement;
  e.shared = true;
  return e;
}

TEST(LocalMemory, LivesComeFromTheTrace) {
  auto a = localArray("l", 0, 32), b = localArray("l_1", 1, 32);
  cg::AccessTrace t = {access(a, true, 1), access(a, false, 2), access(b, true, 2),
                       access(a, false, 3), access(b, false, 5)};
  auto lives = cg::localLives({a, b}, t);
  ASSERT_EQ(lives.size(), 2u);
  EXPECT_EQ(lives[0].firstWrite, 1);
  EXPECT_EQ(lives[0].lastRead, 3);
  EXPECT_EQ(lives[1].firstWrite, 2);
  EXPECT_EQ(lives[1].lastRead, 5);
  EXPECT_EQ(lives[0].type, "floatx32");
}

// Three arrays, the third sharing the first's storage: it takes the first's name in the kernel
// AST, the second keeps its own storage and is named second (l_1) of the storages, and each
// storage is declared once, padded (32 floats + 1 unused after every 16).
TEST(LocalMemory, SharedStorageIsRenamedAndDeclaredOnce) {
  auto a = localArray("l", 0, 32), b = localArray("l_1", 1, 32), c = localArray("l_2", 2, 32);
  std::vector<cg::StageDraft> stages(1);
  stages[0].body = backends::sBlock();
  auto ct = backends::CType::of(backends::CType::Kind::Float);
  for (const auto& m : {a, b, c})
    stages[0].body->body.push_back(backends::sAssign(
        backends::cSubscript(backends::cVar(m->name), 0, ct), backends::cReal(1.0, ct)));
  cg::CodegenOptions o = options();
  cg::allocateLocalMemory({a, b, c}, {-1, -1, 0}, stages);
  EXPECT_EQ(a->name, "l");
  EXPECT_EQ(b->name, "l_1");
  EXPECT_EQ(c->name, "l");
  EXPECT_EQ(c->storage, 0);
  EXPECT_EQ(b->storage, 1);
  ASSERT_EQ(stages[0].localDecls.size(), 2u);
  EXPECT_EQ(stages[0].localDecls[0]->arrayCount, 33);
  EXPECT_EQ(stages[0].localBytes, 2 * 33 * 4);
  backends::CPrinter p(*o.dialect);
  std::string body;
  for (const auto& st : stages[0].body->body) body += p.stmt(*st, 0);
  EXPECT_EQ(body, "l[0] = 1.0f;\nl_1[0] = 1.0f;\nl[0] = 1.0f;\n");
}

// A storage shared by arrays of different sizes is declared with its largest member's padded
// size, whichever member owns it: 24 floats (25 padded, one element in 16) and 40 (42).
TEST(LocalMemory, MixedSizesDeclareTheLargest) {
  auto a = localArray("l", 0, 24), b = localArray("l_1", 1, 32), c = localArray("l_2", 2, 40);
  std::vector<cg::StageDraft> stages(1);
  stages[0].body = backends::sBlock();
  cg::allocateLocalMemory({a, b, c}, {-1, -1, 0}, stages);
  EXPECT_EQ(c->name, "l");
  ASSERT_EQ(stages[0].localDecls.size(), 2u);
  EXPECT_EQ(stages[0].localDecls[0]->arrayCount, 40 + 2);
  EXPECT_EQ(stages[0].localDecls[1]->arrayCount, 32 + 1);
  EXPECT_EQ(stages[0].localBytes, (42 + 33) * 4);
}

// Through the whole pipeline: three passes whose third takes 32 of the 64 elements (a crop); its
// array of 32 takes the storage of the first pass's 64, whose reads are done (two storages, not
// three), and the kernel computes what the interpreter does.
TEST(LocalMemory, SmallerArrayTakesALargerStorage) {
  const std::string text =
      "kernel k(x: [[float]64]4) = join <<: mapWorkgroup(λ(t =>\n"
      "  mapLocal(0, fun a => a + 1.0f) <<: join <<: transpose <<: split(4) <<: "
      "toLocal(mapLocal(0, fun a => a - 1.0f)) <<: crop(0, 32) <<: join <<: transpose <<: "
      "split(8) <<: toLocal(mapLocal(0, fun a => a + 3.0f)) <<: join <<: transpose <<: split(8) "
      "<<: toLocal(mapLocal(0, fun a => a * 2.0f)) <<: t)) <<: x";
  auto c = checkText(text, "k");
  EXPECT_MATCHES(c);
  const std::string& src = c.compiled.source;
  EXPECT_EQ(count(src, "__local float "), 2u) << src;
  EXPECT_EQ(c.compiled.stages.at(0).localMemoryBytes, 2 * (64 + 3) * 4);
}

// Through the whole pipeline (one generator run): three local passes in one work-group, each
// reading the previous one transposed, ping-pong between two arrays (the third pass writes the
// first's storage, whose reads are done) and compute what the interpreter does.
TEST(LocalMemory, ThreePassesShareTwoArrays) {
  const std::string pass = "join <<: transpose <<: split(8) <<: toLocal(mapLocal(0, fun a => a OP))";
  auto step = [&](const std::string& op) {
    std::string s = pass;
    return s.replace(s.find("OP"), 2, op);
  };
  const std::string text = "kernel k(x: [[float]64]4) = join <<: mapWorkgroup(λ(t =>\n"
                           "  mapLocal(0, fun a => a + 1.0f) <<: " + step("* 2.0f") + " <<: " +
                           step("+ 3.0f") + " <<: " + step("- 1.0f") + " <<: t)) <<: x";
  auto c = checkText(text, "k");
  EXPECT_MATCHES(c);
  const std::string& src = c.compiled.source;
  EXPECT_EQ(count(src, "__local float "), 2u) << src;
  EXPECT_EQ(c.compiled.stages.at(0).localMemoryBytes, 2 * (64 + 3) * 4);
}

// CodegenOptions::localReuseInPass: each pass reads its element of the previous array (another
// work-item's: transposed) before it writes, so the passes share one array, with a barrier
// between every pass's read and its write (each mapLocal loop runs once per work-item), and
// still compute what the interpreter does. Without the barrier a work-item would overwrite an
// element another has not read yet, which PoCL's work-group loops show as a mismatch.
TEST(LocalMemory, ReuseInPassOneArray) {
  // a pass: each work-item reads two elements (transposed) into private memory, then writes two
  const std::string pass =
      "join <<: toLocal(mapLocal(0, fun v => mapSeqUnroll(fun a => a + 0.5f) <<: "
      "toPrivate(mapSeqUnroll(fun a => a OP)) <<: v)) <<: split(2) <<: join <<: transpose <<: "
      "split(8) <<: ";
  auto step = [&](const std::string& op) {
    std::string s = pass;
    return s.replace(s.find("OP"), 2, op);
  };
  const std::string text =
      "kernel k(x: [[float]64]4) = join <<: mapWorkgroup(λ(t =>\n"
      "  join <<: mapLocal(0, fun v => mapSeqUnroll(fun a => a + 1.0f) <<: v) <<: split(2) <<: " +
      step("* 2.0f") + step("+ 3.0f") + step("- 1.0f") + "t)) <<: x";
  cg::CodegenOptions o = options();
  auto two = checkText(text, "k", {}, {}, 1, o);
  EXPECT_MATCHES(two);
  EXPECT_EQ(count(two.compiled.source, "__local float "), 2u) << two.compiled.source;
  o.localReuseInPass = true;
  auto c = checkText(text, "k", {}, {}, 1, o);
  EXPECT_MATCHES(c);
  const std::string& src = c.compiled.source;
  EXPECT_EQ(count(src, "__local float "), 1u) << src;
  EXPECT_EQ(c.compiled.stages.at(0).localMemoryBytes, (64 + 3) * 4);
  // the first pass reads global memory: no barrier in it; the two passes from local to local
  // wait in their loop; three between the passes and one at the end of the work-group loop
  EXPECT_EQ(count(src, "barrier(CLK_LOCAL_MEM_FENCE)"), 6u) << src;
  EXPECT_EQ(count(two.compiled.source, "barrier(CLK_LOCAL_MEM_FENCE)"), 4u) << two.compiled.source;

  // each pass one statement (`l[i] = l[j] + 3`): no barrier fits between its read and its
  // write, so the arrays stay two (the ping-pong of ThreePassesShareTwoArrays)
  const std::string flat =
      "join <<: transpose <<: split(8) <<: toLocal(mapLocal(0, fun a => a OP))";
  auto flatStep = [&](const std::string& op) {
    std::string s = flat;
    return s.replace(s.find("OP"), 2, op);
  };
  auto f = checkText(
      "kernel k(x: [[float]64]4) = join <<: mapWorkgroup(λ(t =>\n"
      "  mapLocal(0, fun a => a + 1.0f) <<: " +
          flatStep("* 2.0f") + " <<: " + flatStep("+ 3.0f") + " <<: " + flatStep("- 1.0f") +
          " <<: t)) <<: x",
      "k", {}, {}, 1, o);
  EXPECT_MATCHES(f);
  EXPECT_EQ(count(f.compiled.source, "__local float "), 2u) << f.compiled.source;
}

// The reuse within a statement only where the barrier is legal: a mapLocal loop shorter than
// the stage's longest of its dimension leaves work-items out of the barrier (two arrays kept).
TEST(LocalMemory, ReuseInPassNeedsFullLoops) {
  using Life = cg::LocalLife;
  auto loop = [](int64_t extent) {
    cg::LoopFrame f;
    f.kind = cg::LoopKind::Local;
    f.extent = extent;
    f.stmt = backends::sBlock();  // any statement: loops are told apart by it
    return f;
  };
  cg::LoopFrame wg;
  wg.kind = cg::LoopKind::Workgroup;
  wg.stmt = backends::sBlock();
  std::vector<cg::StageDraft> stages(1);
  stages[0].local[0] = 64;
  for (int64_t extent : {64, 32}) {
    const auto pass = loop(extent);
    Life ra{0, "t", 1, 2};  // written in statement 1, last read in 2 at trace position 5
    ra.firstWriteAt = 1;
    ra.lastReadAt = 5;
    ra.lastReadLoops = {wg, pass};
    Life wb{0, "t", 2, 3};  // first written in statement 2 at position 6, the same loop
    wb.firstWriteAt = 6;
    wb.firstWriteWorkgroup = 0;
    wb.firstWriteLoops = {wg, pass};
    // in the loop's body, the read's statement before the write's
    ra.lastReadBlock = wb.firstWriteBlock = backends::sBlock();
    ra.lastReadAfter = backends::sBlock();
    wb.firstWriteAfter = backends::sBlock();
    const std::vector<Life> lives = {ra, wb};
    EXPECT_EQ(cg::reusePlan(lives), (std::vector<int>{-1, -1}));  // off unless asked
    EXPECT_EQ(cg::reusePlan(lives, &stages),
              (extent == 64 ? std::vector<int>{-1, 0} : std::vector<int>{-1, -1}))
        << extent;
    // a write before the read in program order: never
    Life early = wb;
    early.firstWriteAt = 4;
    EXPECT_EQ(cg::reusePlan({ra, early}, &stages), (std::vector<int>{-1, -1})) << extent;
    // the read and the write in one statement (`l[i] = l[j] + 1`): no barrier between them
    Life same = wb;
    same.firstWriteAfter = ra.lastReadAfter;
    EXPECT_EQ(cg::reusePlan({ra, same}, &stages), (std::vector<int>{-1, -1})) << extent;
  }
  // The caller's launch shape (StageDraft::shape, from CodegenOptions::stageLocal) decides: a
  // hierarchical tile's rows loop of 32 beside a copy loop of 64 runs once per work-item in a
  // work-group of 32, while the loop of 64 would then run twice across the barrier.
  stages[0].shape = {32};
  for (int64_t extent : {64, 32}) {
    Life ra{0, "t", 1, 2};
    ra.firstWriteAt = 1;
    ra.lastReadAt = 5;
    Life wb{0, "t", 2, 3};
    wb.firstWriteAt = 6;
    wb.firstWriteWorkgroup = 0;
    wb.firstWriteLoops = ra.lastReadLoops = {wg, loop(extent)};
    ra.lastReadBlock = wb.firstWriteBlock = backends::sBlock();
    ra.lastReadAfter = backends::sBlock();
    wb.firstWriteAfter = backends::sBlock();
    EXPECT_EQ(cg::reusePlan({ra, wb}, &stages),
              (extent == 32 ? std::vector<int>{-1, 0} : std::vector<int>{-1, -1}))
        << extent;
  }
}

}  // namespace
}  // namespace fftc::codegen_test
