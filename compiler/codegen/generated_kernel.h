// What the generator (kernel_gen.h) hands the passes after it: the kernel AST of each stage,
// the memories, and every memory access in program order (the access trace), which local-memory
// reuse and barrier placement read instead of running the generator again.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "compiler/codegen/memory.h"
#include "ir/diagnostic.h"

namespace fftc::compiler::codegen {

enum class LoopKind : uint8_t { Global, Workgroup, Local, Seq };

// One open loop of the generator: its variable, extent, for statement and the block holding it.
struct LoopFrame {
  LoopKind kind = LoopKind::Seq;
  ir::ArithExpr var;
  ir::ArithExpr extent;
  int dim = 0;
  backends::StmtPtr stmt;    // the for statement
  backends::StmtPtr parent;  // the block holding it
  // A work-group's sequential loop whose iterations reuse the local memory allocated inside it
  // (a spread reduction's chunks, separated by barriers): no slice per iteration.
  bool sharedIterations = false;
  // A mapCluster's loop, and a mapLocal(0) loop inside it, which spans the cluster's blocks:
  // their number (1: one work-group).
  int64_t cluster = 1;
  // A mapBlock's loop: its one iteration a block is the block's rank in the cluster.
  bool clusterBlocks = false;
};

// A device kernel being generated (one stage). The generator fills the body, the global
// memories it uses and its loops' extents; the local-memory pass adds the declarations, the
// barrier pass the rows a barrier fixes, the stages pass assembles the kernel.
struct StageDraft {
  std::string name;
  backends::StmtPtr body;
  std::vector<backends::StmtPtr> localDecls;  // hoisted to kernel scope (local_memory.h)
  std::vector<int64_t> localDeclBytes;        // the bytes of each
  std::vector<MemoryPtr> used;                // global memories, in first-use order
  std::unordered_set<const Memory*> written;
  std::optional<ir::ArithExpr> global[3];     // mapGlobal(d) extents
  std::optional<ir::ArithExpr> groups[3];     // mapWorkgroup(d) extents
  int64_t local[3] = {0, 0, 0};               // the longest mapLocal(d) loop
  // The extent of a mapLocal(d) loop that encloses a barrier: every work-item must run it
  // exactly once, so local[d] is that extent (0: no such loop); set by the barrier pass.
  int64_t barrierRows[3] = {0, 0, 0};
  // The work-group size the caller launches it with (CodegenOptions::stageLocal, when it
  // applies: stages.h, stageShapes), dimension by dimension; empty: its own (local, barrierRows).
  std::vector<int64_t> shape;
  int dims = 1;
  bool parallel = false;
  int64_t cluster = 1;  // work-groups a thread-block cluster (mapCluster); 1: no clusters
  int64_t localBytes = 0;
  std::vector<std::string> accesses;          // "read x[gid]", in program order, once each
};

// One event of the access trace.
struct TraceEvent {
  enum class Kind : uint8_t {
    Access,         // a read or write of `memory` at `index`
    WorkgroupOpen,  // a mapWorkgroup loop (or a work-group's spread reduction) starts
    WorkgroupClose, // ... and ends
    StageClose,     // a stage ends: no barrier synchronizes across stages
  };
  Kind kind = Kind::Access;
  int stage = -1;
  MemoryPtr memory;
  bool writing = false;
  ir::ArithExpr index;  // the linear index into the memory, simplified
  // Memory the work-items of a group share: local memory, or a global temp inside a group.
  bool shared = false;
  bool inLocalLoop = false;
  // Shared accesses inside a mapLocal loop: the index with the local loop variables replaced
  // by canonical ones (same dimension and extent), so that equal means "its own element".
  std::optional<ir::ArithExpr> canonical;
  std::vector<LoopFrame> loops;  // the open loops, outermost first
  int workgroupDepth = -1;       // index in `loops` of the innermost mapWorkgroup, -1 if none
  int wgStatement = 0;           // work-group statements opened so far (local_memory.h)
  // Where a statement emitted now goes: the end of `block`, after `after` (null: at the front).
  backends::StmtPtr block;
  backends::StmtPtr after;
  backends::StmtPtr loop;  // WorkgroupOpen/Close: the mapWorkgroup's for statement
  ir::SourceLoc loc;       // the innermost call with a location (for errors)
};

using AccessTrace = std::vector<TraceEvent>;

// The generator's result: the input of the passes (codegen.cpp runs them in order).
struct GeneratedKernel {
  std::string name;
  backends::Module module;            // structs, __constant tables, userfuns (no kernels yet)
  std::vector<StageDraft> stages;
  std::vector<MemoryPtr> buffers;     // global: inputs, output, temps, table buffers
  std::vector<MemoryPtr> locals;      // local arrays, by allocation order (Memory::localOrder)
  std::map<const Memory*, std::vector<uint8_t>> tableData;  // table buffers' device bytes
  AccessTrace trace;
  std::vector<std::string> sizeVarNames;
  std::vector<ir::ArithExpr> sizeVars;
};

}  // namespace fftc::compiler::codegen
