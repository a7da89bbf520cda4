// `import "path"` (internal to the front end): loads the imported files and splices their
// declarations into the importing module, so that the elaborator sees one flat module.
#pragma once

#include <optional>
#include <string>

#include "compiler/frontend/ast.h"
#include "compiler/frontend/frontend.h"

namespace fftc::compiler::frontend {

// Replaces every import declaration of `module` by the defs and userfuns of the imported file
// (its kernels are left out), marked `imported`, where the import stood. Imports are
// transitive; a file imported more than once (directly or not) is loaded once; a cycle, an
// unreadable file or imports nested deeper than options.maxImportDepth are CompileErrors at the
// import. Files are read with options.importReader (null: from disk). Sets
// module.importedFiles.
void resolveImports(ast::Module& module, const ElaborateOptions& options);

// A regular file's text (symlinks followed); nullopt with `reason` set (strerror, "is a
// directory", "not a regular file": a FIFO or /dev/zero would block or never end) otherwise.
// The reader of imports and of readSourceFile.
std::optional<std::string> readTextFile(const std::string& path, std::string& reason);

}  // namespace fftc::compiler::frontend
