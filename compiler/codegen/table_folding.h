// Table folding: a generator (array, array2, array3) with constant sizes whose every element
// folds to a literal, and every ir::Table (rewrites::foldClosed), becomes memory holding the
// values: a __constant array in the source up to CodegenOptions::constantTableMaxBytes, else a
// table buffer (manifest role "table") whose bytes travel with the kernel. The folding itself
// runs the generator on each element (KernelGen::makeTable, in table_folding.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "backends/common/kernel_ast.h"
#include "ir/type.h"

namespace fftc::compiler::codegen {

// Device bytes of a table of literals of element type `elem` (the table buffer's data file).
std::vector<uint8_t> tableBytes(const std::vector<backends::CExpr>& values, const ir::Type& elem);

}  // namespace fftc::compiler::codegen
