// Memory objects of a compiled kernel: kernel inputs and outputs, global temporaries between
// and within stages, local and private arrays, tables.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "ir/type.h"

namespace fftc::compiler::codegen {

// How a kernel parameter or the result is laid out in its buffer when not row-major and dense
// (Halide's buffer strides, FFTW's plan_many `embed`/`stride`/`dist`): the value's elements in
// row-major order, flat index e, are viewed as an array of `dims` (outermost first, product =
// the element count), and element (i_0, ..., i_k) is stored at sum_d i_d * strides[d]. The
// buffer holds 1 + sum_d (dims[d] - 1) * strides[d] elements; the others (holes) are neither
// read nor written. The program's semantics are those of the logical value: a layout only
// changes the addresses (docs/codegen.md).
struct BufferLayout {
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
  // (both defined in view.cpp) the buffer's element count, and the address of flat index e:
  // Σ_d ((e / P_d) % dims[d]) * strides[d], P_d the product of the dims inside d (no modulo
  // for the outermost)
  int64_t extent() const;
  ir::ArithExpr address(const ir::ArithExpr& e) const;
  bool operator==(const BufferLayout&) const = default;
};

enum class MemRole : uint8_t { Input, Output, Temp, Table, Local, Private, Variable };

// Made with std::make_shared: the access trace holds the memories it names.
struct Memory : std::enable_shared_from_this<Memory> {
  std::string name;
  MemRole role = MemRole::Temp;
  backends::MemSpace space = backends::MemSpace::Global;
  ir::Type type;           // the stored value's type (arrays row-major down to `element`)
  ir::Type element;        // innermost non-array type
  backends::CType elemC;   // its C type
  ir::ArithExpr count;     // number of elements of `element`
  int stage = -1;          // the stage that allocated it (temps, locals, privates)
  int64_t padEvery = 0;    // locals: element i is stored at i + i / padEvery
  int64_t rowSkew = 0;     // locals: and rowSkewElements more a row of rowSkew (CodegenOptions)
  int64_t rowSkewElements = 1;
  int64_t align = 0;       // locals: declared aligned to this many bytes (a kernel with vectors)
  // locals of a mapCluster: distributed over this many blocks' shared memories, element i in
  // block i / (count / cluster) at i % (count / cluster) (0: the work-group's own array)
  int64_t cluster = 0;
  std::optional<BufferLayout> layout;  // inputs/outputs with a strided layout (CodegenOptions)
  int localOrder = -1;     // locals: allocation order
  int storage = -1;        // locals: the allocation order of the array whose storage it uses
  // privates: the accumulator of a work-group reduction spread over the work-items
  // (rewrites' stageLocal): leading dimension d is local dimension spreadDims[d], and element i
  // of it is work-item i's, kept in that work-item's own array of the inner dimensions.
  std::vector<int> spreadDims;
};

using MemoryPtr = std::shared_ptr<Memory>;

// Bytes and alignment of a value type in device memory (int 4, float 4, double 8, float2 8,
// double2 16, tuples as C structs); the host packs buffers with the same layout.
int64_t deviceBytes(const ir::Type& t);
int64_t deviceAlign(const ir::Type& t);

// "global", "local", "private", "constant".
std::string spaceName(backends::MemSpace s);
std::string roleName(MemRole r);

}  // namespace fftc::compiler::codegen
