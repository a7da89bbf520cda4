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

struct ElaborateOptions {
  ir::ScalarKind precision = ir::ScalarKind::Float;  // what `real` means (--precision)
  // -D bindings. A name fixes a kernel size variable of that name and replaces a `def` of that
  // name (without parameters) everywhere. Names the program does not use are ignored.
  std::map<std::string, DefineValue> defines;
  bool typeCheck = true;
  // Beta-reduce lambdas applied to values where no work is duplicated (beta_reduce.h), so that
  // the paper's abstractions inline into one pipeline of patterns; off: LIFT's FunCall(Lambda).
  bool inlineLambdas = true;  // run ir::inferTypes on every kernel (off: untyped IR, for dumps)
  // Budgets that turn runaway expansion into an error instead of a hang or a stack overflow.
  int64_t maxSteps = 2'000'000;  // elaboration steps (AST nodes evaluated, all kernels)
  int maxDepth = 300;            // nesting of evaluation (def expansions within expressions)
  int maxPipeLength = 4096;      // iterations of one pipe(q in A .. B)
  int maxIrDepth = 2000;         // nesting of the generated IR (f(g(h(...))) chains)
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

  const Kernel* kernel(std::string_view name) const;  // nullptr if absent
};

// Lexes, parses, elaborates and type-checks a whole program.
Program compileSource(std::string_view text, std::string fileName,
                      const ElaborateOptions& options = {});

// compileSource on the contents of `path`; an unreadable file is a CompileError too.
Program parseFile(const std::string& path, const ElaborateOptions& options = {});

// Reads a whole file (throws CompileError naming the path if it cannot).
std::string readSourceFile(const std::string& path);

// Fuzzing entry (tests/fuzz/parser_fuzzer.cpp and the fuzz smoke test): compiles arbitrary
// bytes with small budgets and formats any CompileError. Returns 0 if the input compiled, 1 if
// it was rejected with a CompileError; anything else escaping is a bug (it propagates).
int fuzzOneInput(const uint8_t* data, size_t size);

}  // namespace fftc::compiler::frontend
