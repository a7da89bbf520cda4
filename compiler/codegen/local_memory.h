// The local-memory pass: liveness of the local arrays from the access trace, reuse of storage
// between arrays whose lifetimes do not overlap, and their names and kernel-scope declarations.
// One run of the generator: the arrays are renamed in the kernel AST afterwards.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "compiler/codegen/generated_kernel.h"
#include "compiler/codegen/codegen.h"

namespace fftc::compiler::codegen {

// The lifetime of one local array, in work-group statements: the loops directly inside the
// mapWorkgroup, or inside its mapLocal loops over rows, counted in program order.
struct LocalLife {
  int stage = -1;
  std::string type;  // element type and count: arrays share storage only when equal
  int firstWrite = std::numeric_limits<int>::max();
  int lastRead = -1;
};

// The lifetimes of `locals` (by allocation order, Memory::localOrder) from the trace.
std::vector<LocalLife> localLives(const std::vector<MemoryPtr>& locals, const AccessTrace& trace);

// Interval colouring in the order of first writes: an array takes the storage of a group of
// arrays of the same stage, type and size whose reads and first writes all come before its
// own first write (an array allocated early but written last, like a toLocal result filled by
// the last pass, takes the first pass's storage). A group is named by its earliest allocated
// member. Returns the owner of each array's storage (-1: its own). A Stockham FFT's passes
// then ping-pong between two arrays however many passes it has.
std::vector<int> reusePlan(const std::vector<LocalLife>& lives);

// Applies the plan: sets each local's Memory::storage and final name (the storage owners take
// the names l, l_1, ... that the generator gave the arrays, in allocation order), renames the
// arrays in the stages' bodies and declares each storage once at its stage's kernel scope,
// padded (CodegenOptions::localPadding).
void allocateLocalMemory(const std::vector<MemoryPtr>& locals, const std::vector<int>& plan,
                         const CodegenOptions& options, std::vector<StageDraft>& stages);

}  // namespace fftc::compiler::codegen
