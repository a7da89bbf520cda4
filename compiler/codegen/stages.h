// The stages pass: each stage the generator opened becomes a device kernel with its parameters
// (the global memories it uses, then the size variables), its local declarations and its
// launch geometry; the buffers become the manifest's. The geometry is final: nothing after
// code generation changes it.
#pragma once

#include "compiler/codegen/codegen.h"
#include "compiler/codegen/generated_kernel.h"

namespace fftc::compiler::codegen {

// The memory accesses of each stage as "read x[index]" lines in program order, once each
// (`--emit views`), with the local arrays' final names (after local_memory.h).
void recordAccesses(GeneratedKernel& g);

// Launch geometry of a stage: a mapGlobal(d) over n gives global[d] = n (rounded up to
// CodegenOptions::defaultLocalSize when set); a stage with mapWorkgroup(d) over G and mapLocal(d)
// loops of at most L iterations (or the rows a barrier fixes) gives local[d] = L,
// global[d] = G*L; a sequential stage runs one work-item. A caller's `shape` (an entry of
// CodegenOptions::stageLocal, when not empty) then resizes the work-groups, keeping their
// number: local[d] = shape[d], global[d] = global[d] / L * shape[d].
void stageGeometry(const StageDraft& st, const CodegenOptions& options, StageInfo& si,
                   const std::vector<int64_t>& shape = {});

// Records each live stage's CodegenOptions::stageLocal entry in StageDraft::shape when the
// caller names as many shapes as there are stages (another lowering keeps its own). Before the
// local-memory pass: an array's reuse within a pass needs loops that run once per work-item of
// the launched work-group.
void stageShapes(std::vector<StageDraft>& stages, const CodegenOptions& options);

// Assembles the CompiledKernel (everything but the printed source) from the generated kernel
// after the local-memory and barrier passes. Stages left with nothing to do (their only work
// folded into a constant table) are dropped; the others are numbered in launch order.
// CodegenOptions::stageLocal applies as stageShapes recorded it.
CompiledKernel assembleStages(GeneratedKernel& g, const CodegenOptions& options);

}  // namespace fftc::compiler::codegen
