// Table folding: a generator (array, array2, array3) with constant sizes whose every element
// folds to a literal, and every ir::Table (rewrites::foldClosed), becomes memory holding the
// values: a __constant array in the source up to CodegenOptions::constantTableMaxBytes, else a
// table buffer (manifest role "table") whose bytes travel with the kernel. The folding itself
// runs the generator on each element (KernelGen::makeTable, in table_folding.cpp), in bulk
// where its element function is a scalar formula (foldGeneratorTable).
#pragma once

#include <complex>
#include <cstdint>
#include <span>
#include <vector>

#include <optional>

#include "backends/common/kernel_ast.h"
#include "ir/scalar_program.h"
#include "ir/type.h"

namespace fftc::compiler::codegen {

// Device bytes of a table of literals of element type `elem` (the table buffer's data file).
std::vector<uint8_t> tableBytes(const std::vector<backends::CExpr>& values, const ir::Type& elem);
// The same for numbers (reals with im 0), as their literals would give them.
std::vector<uint8_t> tableBytes(std::span<const std::complex<double>> values, const ir::Type& elem);

// Every element of a generator of sizes `sizes` (row-major, the last index fastest) whose
// element function is `program`, folded as code generation folds it element by element
// (scalar_ops.h: integers exact, reals rounded to their precision after each operation): the
// same literals, without building the code of each element. nullopt where some element would
// not fold to a literal of a real or complex type (an integer overflow, a division by zero);
// the caller then folds element by element, which decides.
std::optional<std::vector<backends::CExpr>> foldGeneratorTable(const ir::ScalarProgram& program,
                                                               const std::vector<int64_t>& sizes);

// foldGeneratorTable's values as numbers (reals with im 0) and the literals' C type: what a
// table buffer stores without making a literal of each element.
struct FoldedValues {
  std::vector<std::complex<double>> values;
  backends::CType ct;
  bool complex = false;
};
std::optional<FoldedValues> foldGeneratorValues(const ir::ScalarProgram& program,
                                                const std::vector<int64_t>& sizes);
// The literals of folded numbers (foldGeneratorTable's).
std::vector<backends::CExpr> literalsOf(const FoldedValues& f);

}  // namespace fftc::compiler::codegen
