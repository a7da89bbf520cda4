// Address-space inference (LIFT's InferOpenCLAddressSpace): where the generator allocates a
// value that its consumer did not give a destination for.
#pragma once

#include <optional>

#include "backends/common/kernel_ast.h"
#include "compiler/codegen/codegen.h"
#include "ir/expr.h"

namespace fftc::compiler::codegen {

// The space toGlobal / toLocal / toPrivate names.
backends::MemSpace memSpaceOf(ir::AddressSpace space);

// The space of a value of type `t` allocated with the space `toX` asked for (none: inferred):
// outside every loop global memory (a later stage may read it); inside a loop private memory
// when its size is constant and at most CodegenOptions::privateMaxElements, else global.
// Scalars inside loops are private variables whatever toX says.
backends::MemSpace inferAddressSpace(const ir::Type& t, std::optional<backends::MemSpace> toX,
                                     bool insideLoops, const CodegenOptions& options);

}  // namespace fftc::compiler::codegen
