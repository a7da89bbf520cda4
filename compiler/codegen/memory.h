// Memory objects of a compiled kernel: kernel inputs and outputs, global temporaries between
// and within stages, local and private arrays, tables; with the state barrier placement needs.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "ir/type.h"

namespace fftc::compiler::codegen {

enum class MemRole : uint8_t { Input, Output, Temp, Table, Local, Private, Variable };

struct Memory {
  std::string name;
  MemRole role = MemRole::Temp;
  backends::MemSpace space = backends::MemSpace::Global;
  ir::Type type;           // the stored value's type (arrays row-major down to `element`)
  ir::Type element;        // innermost non-array type
  backends::CType elemC;   // its C type
  ir::ArithExpr count;     // number of elements of `element`
  int stage = -1;          // the stage that allocated it (temps, locals, privates)
  int64_t padEvery = 0;    // locals: element i is stored at i + i / padEvery
  // inputs/outputs with a strided layout (CodegenOptions): element i is stored at
  // Σ_d ((i / P_d) % dims[d]) * strides[d], P_d the product of the dims inside d
  std::vector<int64_t> layoutDims, layoutStrides;
  int localOrder = -1;     // locals: allocation order; storage: the order of the owner
  int storage = -1;

  // Barrier state (local and global memory written by the work-items of a group): the last
  // write's index, as a function of the writing mapLocal's loop variable.
  bool pendingWrite = false;
  std::optional<ir::ArithExpr> writeIndex;  // with the writer's local loop var renamed
  std::vector<const backends::Stmt*> writeLoops;  // the loops around that write
  bool writeIrregular = false;              // written at several indices per work-item pass
};

using MemoryPtr = std::shared_ptr<Memory>;

// The address of flat index e in a strided layout (BufferLayout, codegen.h): Σ_d ((e / P_d) %
// dims[d]) * strides[d], P_d the product of the dims inside d (no modulo for the outermost).
ir::ArithExpr stridedIndex(const std::vector<int64_t>& dims, const std::vector<int64_t>& strides,
                           const ir::ArithExpr& e);

// Bytes and alignment of a value type in device memory (int 4, float 4, double 8, float2 8,
// double2 16, tuples as C structs); the host packs buffers with the same layout.
int64_t deviceBytes(const ir::Type& t);
int64_t deviceAlign(const ir::Type& t);

// "global", "local", "private", "constant".
std::string spaceName(backends::MemSpace s);
std::string roleName(MemRole r);

}  // namespace fftc::compiler::codegen
