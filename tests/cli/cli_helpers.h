// Running the fftc executable from a test (tests/cli): its exit status and output, temporary
// files, and the examples folder. Shared by the suites of this folder.
#pragma once

#include <sys/wait.h>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace fftc_cli_test {

struct Result {
  int status = -1;  // the exit status, or 128 + the signal that ended it (as a shell says)
  std::string out;  // stdout and stderr together
};

// Runs `fftc ARGS` through the shell with `env` prepended (e.g. "OCL_ICD_VENDORS=/none", or a
// shell command ending in ';' such as "ulimit -v 4000000;").
inline Result fftc(const std::string& args, const std::string& env = "") {
  std::string cmd = env + " " + FFTC_EXE + " " + args + " 2>&1";
  Result r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf{};
  while (size_t n = fread(buf.data(), 1, buf.size(), p)) r.out.append(buf.data(), n);
  int raw = pclose(p);
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
  // a shell that ran fftc as its last command reports a signal as 128 + N itself
  return r;
}

inline std::filesystem::path tempDir() {
  auto dir = std::filesystem::temp_directory_path() / "fftc_cli_test";
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string writeTemp(const std::string& name, const std::string& text) {
  auto path = tempDir() / name;
  std::ofstream(path) << text;
  return path.string();
}

inline std::string readFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

inline int lineCount(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

inline const std::string kExamples = std::string(FFTC_SOURCE_DIR) + "/examples/";

}  // namespace fftc_cli_test
