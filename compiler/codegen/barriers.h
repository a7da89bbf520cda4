// The barrier pass: replays the access trace and places a barrier where a work-item may read
// shared memory that another work-item of its group wrote (read after write), before a write
// to local storage that another array was read from since the last barrier (write after
// read, from local-memory reuse), and at the end of a work-group loop whose body needed one.
#pragma once

#include <vector>

#include "compiler/codegen/generated_kernel.h"

namespace fftc::compiler::codegen {

// Inserts the barriers into the stages' bodies and records in StageDraft::barrierRows the
// mapLocal loops that enclose one (every work-item must run them exactly once). Needs the
// local arrays' storage (Memory::storage, local_memory.h). Throws ir::CompileError when a
// barrier lies in a mapLocal loop of non-constant extent, or in two of different extents.
void placeBarriers(const AccessTrace& trace, std::vector<StageDraft>& stages);

}  // namespace fftc::compiler::codegen
