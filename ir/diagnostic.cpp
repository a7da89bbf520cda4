// CompileError formatting.
#include "ir/diagnostic.h"

namespace fftc::ir {

std::string SourceLoc::str() const {
  if (!known()) return file.empty() ? "<unknown>" : file;
  return (file.empty() ? "<input>" : file) + ":" + std::to_string(line) + ":" +
         std::to_string(col);
}

namespace {
std::string formatError(const SourceLoc& loc, const std::string& message) {
  if (!loc.known() && loc.file.empty()) return "error: " + message;
  return loc.str() + ": error: " + message;
}
}  // namespace

CompileError::CompileError(SourceLoc loc, std::string message)
    : std::runtime_error(formatError(loc, message)),
      loc_(std::move(loc)),
      message_(std::move(message)) {}

}  // namespace fftc::ir
