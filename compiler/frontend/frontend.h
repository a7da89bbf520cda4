// The front end's public entry points: .fdl text -> typed IR kernels (fftc compile, fftlib).
// Errors of every stage are ir::CompileError; formatError (diagnostics.h) renders them.
//
//   ElaborateOptions opts;                      // precision f32, no -D bindings
//   opts.defines["N"] = int64_t{64};            // -D N=64
//   opts.defines["rs"] = std::vector<int64_t>{4, 4, 4};
//   Program p = compileSource(text, "fft.fdl", opts);   // or parseFile("fft.fdl", opts)
//   const Kernel* k = p.kernel("fft");          // k->lambda: the typed ir::Lambda
//
// Semantics (docs/language.md): `def`s are macros inlined at each use; compile-time integers,
// lists, `pipe`, `prod`, `len`, `rs[i]` are evaluated here; kernel size variables not fixed by
// -D (or by a `def` of that name) become symbolic ArithExpr size variables; `real` is
// ElaborateOptions::precision. The kernels are typed by ir::inferTypes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ir/expr.h"

namespace fftc::compiler::frontend {

// The value of a -D NAME=VALUE binding: an integer or an integer list.
using DefineValue = std::variant<int64_t, std::vector<int64_t>>;

// Parses the VALUE of -D NAME=VALUE: "64", "-3", "4,4,4", "[4, 4, 4]", "[]". nullopt if malformed.
std::optional<DefineValue> parseDefineValue(std::string_view text);

// Reads a file named by `import "..."` (docs/language.md section 2). `path` is the import's
// string resolved against the directory of the importing file and lexically normalized:
// `import "b.fdl"` in "lib/a.fdl" asks for "lib/b.fdl", in "a.fdl" for "b.fdl", and
// `import "../c.fdl"` in "lib/a.fdl" for "c.fdl". Returns the text, or nullopt with `reason` set
// (reported as `cannot read import "b.fdl": REASON` at the import). Two imports that resolve
// to the same path load the file once.
using ImportReader =
    std::function<std::optional<std::string>(const std::string& path, std::string& reason)>;

// An ImportReader that serves `files` (path -> text) and nothing else, never the disk: for
// embedded libraries whose files import one another by name (the FFT library's planner,
// fftlib/plan/library_sources.h) and for tests.
ImportReader importFromMemory(std::map<std::string, std::string> files);

// An ImportReader that rejects every import with `reason`: for compiling text that must not
// read files.
ImportReader rejectImports(std::string reason);

struct ElaborateOptions {
  ir::ScalarKind precision = ir::ScalarKind::Float;  // what `real` means (--precision)
  // -D bindings. A name fixes a kernel size variable of that name and replaces a `def` of that
  // name (without parameters) everywhere. Names the program does not use are ignored.
  std::map<std::string, DefineValue> defines;
  // Functions of the embedding program bound to names, as -D binds values: a name here is an
  // IR function (its arity its own) that replaces a `def` of that name everywhere. The FFT
  // library passes its C++-built row functions to a .fdl def this way (fftlib/plan/
  // fft_ops_passes.cpp gives hierarchical.fdl's tile its row FFT), so that the def is the one
  // definition of what it lays out.
  std::map<std::string, ir::FunPtr> functions;
  bool typeCheck = true;
  // Elaborate only these kernels (the others are parsed and their names checked, not
  // instantiated: -D bindings meant for one kernel of a library file need not suit the
  // others). Empty: every kernel.
  std::vector<std::string> kernels;
  // Beta-reduce lambdas applied to values where no work is duplicated (ir/beta_reduce.h), so that
  // the paper's abstractions inline into one pipeline of patterns; off: LIFT's FunCall(Lambda).
  bool inlineLambdas = true;  // run ir::inferTypes on every kernel (off: untyped IR, for dumps)
  // Budgets that turn runaway expansion into an error instead of a hang or a stack overflow.
  int64_t maxSteps = 2'000'000;  // elaboration steps (AST nodes evaluated, all kernels)
  int maxDepth = 300;            // nesting of evaluation (def expansions within expressions)
  int maxPipeLength = 4096;      // iterations of one pipe(q in A .. B)
  int maxIrDepth = 2000;         // nesting of the generated IR (f(g(h(...))) chains)
  // Where `import "..."` reads files. Null (the default): from disk, relative to the directory
  // of the importing file; for compileSource that is the directory of its `fileName`, so a
  // bare name such as "e.fdl" resolves imports against the current directory.
  ImportReader importReader;
  int maxImportDepth = 64;       // nesting of imports (a imports b imports c ...)
};

struct Kernel {
  std::string name;
  ir::SourceLoc loc;
  ir::LambdaPtr lambda;                 // typed (untyped when !typeCheck)
  std::vector<std::string> paramNames;
  std::vector<ir::Type> paramTypes;     // as declared, sizes resolved
  ir::Type resultType;                  // null when !typeCheck
  // Size variables of the parameter types that no -D fixed, in order of first appearance;
  // each becomes an integer argument of the kernel.
  std::vector<std::string> sizeVarNames;
  std::vector<ir::ArithExpr> sizeVars;
};

struct Program {
  std::string fileName;
  std::vector<Kernel> kernels;          // in declaration order
  std::vector<std::shared_ptr<const ir::UserFun>> userFuns;
  // The files `import`ed, directly or through other imports, each once, in load order (paths
  // as ImportReader receives them).
  std::vector<std::string> importedFiles;

  const Kernel* kernel(std::string_view name) const;  // nullptr if absent
};

// Lexes, parses, resolves imports (options.importReader), elaborates and type-checks a whole
// program.
Program compileSource(std::string_view text, std::string fileName,
                      const ElaborateOptions& options = {});

// compileSource on the contents of `path`; an unreadable file is a CompileError too.
Program parseFile(const std::string& path, const ElaborateOptions& options = {});

// Reads a whole file (throws CompileError naming the path if it cannot).
std::string readSourceFile(const std::string& path);

// Fuzzing entry (tests/fuzz/parser_fuzzer.cpp and the fuzz smoke test): compiles arbitrary
// bytes with small budgets and formats any CompileError. Imports never touch the disk: they
// resolve among a few in-memory files (kFuzzImports in frontend.cpp: "lib.fdl", "a.fdl", ...).
// Returns 0 if the input compiled, 1 if it was rejected with a CompileError; anything else
// escaping is a bug (it propagates).
int fuzzOneInput(const uint8_t* data, size_t size);

}  // namespace fftc::compiler::frontend
