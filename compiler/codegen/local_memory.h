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
  // The same two accesses as positions in the trace (program order within a statement) and
  // their open loops: reuse within one statement (CodegenOptions::localReuseInPass) needs them.
  int firstWriteAt = std::numeric_limits<int>::max();
  int lastReadAt = -1;
  int firstWriteWorkgroup = -1;  // TraceEvent::workgroupDepth of the first write
  std::vector<LoopFrame> firstWriteLoops, lastReadLoops;
  // Where each was emitted (TraceEvent::block, after): a read and a write of one statement
  // (`l[i] = l[j] + 1`) cannot have a barrier between them.
  backends::StmtPtr firstWriteBlock, firstWriteAfter, lastReadBlock, lastReadAfter;
  // The element type alone and the elements the array's storage holds (padded; a cluster's
  // share): arrays of one element type but different sizes may share a storage of the larger
  // size. An empty `element` (a cluster's array, whose accesses divide by its own share) shares
  // only by `type`.
  std::string element;
  int64_t stored = 0;
};

// The lifetimes of `locals` (by allocation order, Memory::localOrder) from the trace.
std::vector<LocalLife> localLives(const std::vector<MemoryPtr>& locals, const AccessTrace& trace);

// Interval colouring in the order of first writes: an array takes the storage of a group of
// arrays of the same stage, type and size whose reads and first writes all come before its
// own first write (an array allocated early but written last, like a toLocal result filled by
// the last pass, takes the first pass's storage). A group is named by its earliest allocated
// member. Returns the owner of each array's storage (-1: its own). A Stockham FFT's passes
// then ping-pong between two arrays however many passes it has.
//
// Where no group of its size is free, an array joins a free group of its stage and element
// type but another size, the one whose storage it grows least (the storage is declared with
// its largest member's size; joining never costs more than a storage of its own): a Rader
// pass's n-element Y takes the storage of the convolution's (p - 1)·m ping-pong array that does
// not hold A, three storages instead of four.
//
// With `inPass` (the stages, when CodegenOptions::localReuseInPass), an array may also take the
// storage of one last read in the statement of its own first write, when that read comes first
// in program order and the barrier the barrier pass then puts before the write is legal: the
// loops the read and the write share inside the work-group are mapLocal loops of constant
// extent, each as long as the work-group in its dimension (the caller's launch shape,
// StageDraft::shape, else the stage's longest loop of that dimension, StageDraft::local), so
// every work-item runs them exactly once and reaches the barrier; no sequential loop runs the
// write before a later iteration's read; and the read's statement is complete before the
// write's begins (where the barrier pass puts the barrier: before the writer's first loop the
// reader is not in, else before the writing statement). A Stockham FFT's passes, which read
// their elements into private arrays before writing any, then all use one array.
std::vector<int> reusePlan(const std::vector<LocalLife>& lives,
                           const std::vector<StageDraft>* inPass = nullptr);

// Applies the plan: sets each local's Memory::storage and final name (the storage owners take
// the names l, l_1, ... that the generator gave the arrays, in allocation order), renames the
// arrays in the stages' bodies and declares each storage once at its stage's kernel scope,
// padded as its Memory::padEvery says (the generator's CodegenOptions::localPadEvery).
void allocateLocalMemory(const std::vector<MemoryPtr>& locals, const std::vector<int>& plan,
                         std::vector<StageDraft>& stages);

}  // namespace fftc::compiler::codegen
