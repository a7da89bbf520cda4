// Error formatting: the header line, then the offending source line with a caret under the
// column. Columns count code points; tabs in the line are copied into the caret line so that
// the caret lines up whatever the tab width.
#include "compiler/frontend/diagnostics.h"

#include <fstream>
#include <sstream>

#include <fmt/format.h>

namespace fftc::compiler::frontend {

namespace {

std::string header(const ir::CompileError& err) {
  const ir::SourceLoc& loc = err.loc();
  if (!loc.known()) {
    return loc.file.empty() ? fmt::format("error: {}\n", err.message())
                            : fmt::format("{}: error: {}\n", loc.file, err.message());
  }
  return fmt::format("{}:{}:{}: error: {}\n", loc.file, loc.line, loc.col, err.message());
}

// The bytes of 1-based line `line`, without its newline; nullopt-like empty + false if absent.
bool sourceLine(std::string_view source, int line, std::string_view& out) {
  size_t start = 0;
  for (int l = 1; l < line; ++l) {
    size_t nl = source.find('\n', start);
    if (nl == std::string_view::npos) return false;
    start = nl + 1;
  }
  if (start > source.size()) return false;
  size_t end = source.find('\n', start);
  out = source.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!out.empty() && out.back() == '\r') out.remove_suffix(1);
  return true;
}

// Printable copy of a source line: control bytes (NUL included) become spaces and invalid UTF-8
// becomes '?', so that the terminal shows what the caret points at.
std::string sanitize(std::string_view line, int col, std::string& caret) {
  std::string text;
  int c = 1;
  size_t i = 0;
  while (i < line.size()) {
    auto b = static_cast<unsigned char>(line[i]);
    size_t len = 1;
    if (b >= 0xC0 && b < 0xE0) len = 2;
    else if (b >= 0xE0 && b < 0xF0) len = 3;
    else if (b >= 0xF0 && b < 0xF8) len = 4;
    bool valid = b < 0x80 || (b >= 0xC0 && b < 0xF8 && i + len <= line.size());
    for (size_t k = 1; valid && k < len; ++k) {
      valid = (static_cast<unsigned char>(line[i + k]) & 0xC0) == 0x80;
    }
    if (!valid) len = 1;
    if (b == '\t') {
      text += '\t';
    } else if (b < 0x20 || b == 0x7F) {
      text += ' ';
    } else if (!valid) {
      text += '?';
    } else {
      text.append(line.substr(i, len));
    }
    if (c < col) caret += b == '\t' ? '\t' : ' ';
    ++c;
    i += len;
  }
  while (c < col) {  // a column just past the end of the line (e.g. end of file)
    caret += ' ';
    ++c;
  }
  caret += '^';
  return text;
}

}  // namespace

std::string formatError(const ir::CompileError& err, std::string_view source) {
  std::string out = header(err);
  const ir::SourceLoc& loc = err.loc();
  std::string_view line;
  if (!loc.known() || !sourceLine(source, loc.line, line)) return out;
  std::string caret;
  std::string text = sanitize(line, loc.col, caret);
  out += text + "\n" + caret + "\n";
  return out;
}

std::string formatError(const ir::CompileError& err) {
  std::ifstream in(err.loc().file, std::ios::binary);
  if (!in) return header(err);
  std::stringstream ss;
  ss << in.rdbuf();
  return formatError(err, ss.str());
}

}  // namespace fftc::compiler::frontend
