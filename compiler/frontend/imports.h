// `import "path"` (internal to the front end): loads the imported files and splices their
// declarations into the importing module, so that the elaborator sees one flat module.
#pragma once

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

}  // namespace fftc::compiler::frontend
