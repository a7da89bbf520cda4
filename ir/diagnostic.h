// Source locations and the one error type of the compiler: every user-facing error (parse,
// elaboration, type inference) is a CompileError carrying where it happened and a bare message.
#pragma once

#include <stdexcept>
#include <string>

namespace fftc::ir {

// A position in a .fdl file; line and col are 1-based, 0 means "unknown" (C++-built IR).
struct SourceLoc {
  std::string file;
  int line = 0, col = 0;

  bool known() const { return line > 0; }
  // "FILE:LINE:COL" (or "FILE" / "<unknown>" when parts are missing).
  std::string str() const;
};

// what() is "FILE:LINE:COL: error: MESSAGE" (or "error: MESSAGE" without a location); the front
// end prints that, then the source line and a caret under loc().col.
struct CompileError : std::runtime_error {
  CompileError(SourceLoc loc, std::string message);

  const SourceLoc& loc() const { return loc_; }
  const std::string& message() const { return message_; }

 private:
  SourceLoc loc_;
  std::string message_;
};

// Raised by the reference interpreter on bad inputs (wrong shapes, missing size bindings,
// division by zero, unregistered user functions): a problem with the run, not the program.
struct InterpreterError : std::runtime_error {
  using runtime_error::runtime_error;
};

}  // namespace fftc::ir
