// A scalar function (a generator's element function) compiled once into a flat program, so a
// table of a million elements is evaluated without re-walking the expression tree each time.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ir/expr.h"
#include "ir/interp_scalar.h"
#include "ir/value.h"

namespace fftc::ir {

// One operation of a ScalarProgram; operands are earlier nodes.
struct ScalarNode {
  enum class Kind : uint8_t { Arg, Literal, Op };
  Kind kind = Kind::Arg;
  uint32_t arg = 0;                   // Arg: the argument's position
  const Literal* literal = nullptr;   // Literal
  BuiltinOp op = BuiltinOp::Add;      // Op (never MakeTuple)
  uint8_t arity = 0;                  // Op
  std::array<uint32_t, 2> in{};       // Op: the operands' nodes
  Type type;                          // the node's inferred type (Op: the call's type)
};

// The nodes of `f` applied to `arity` int arguments, operands before their uses, the result
// last. f must be a Lambda of `arity` parameters whose body is built only of its parameters,
// literals (ints constant), builtin calls other than makeTuple with one argument per
// parameter, and applications of lambdas to as many arguments as they have parameters (lets,
// the elaborator's inlined helpers such as omega). Anything else gives nullopt: the caller
// evaluates f its usual way. A sub-expression used twice is computed twice, as the
// interpreter and the code generator do.
class ScalarProgram {
 public:
  static std::optional<ScalarProgram> compile(const FunDecl& f, size_t arity);

  const std::vector<ScalarNode>& nodes() const { return nodes_; }
  size_t arity() const { return arity_; }
  bool hasOps() const;  // whether any node is an operation

 private:
  std::vector<ScalarNode> nodes_;
  size_t arity_ = 0;
};

// Evaluates a ScalarProgram with the reference interpreter's semantics (interpreter.h), the
// same bits as interpreting f: the operations are the interpreter's own (interp_scalar.h).
// Throws InterpreterError where the interpreter would.
class ScalarEvaluator {
 public:
  ScalarEvaluator(const ScalarProgram& program, interp::CisPiMemo& memo);
  Value run(std::span<const int64_t> args);

 private:
  const ScalarProgram& program_;
  interp::CisPiMemo& memo_;
  std::vector<Value> slots_;
};

}  // namespace fftc::ir
