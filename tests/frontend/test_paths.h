// Where the project's examples/ folder is, for tests run by ctest (from the project root) or
// by hand from anywhere.
#pragma once

#include <filesystem>

namespace fftc::test {

inline std::filesystem::path examplesDir() {
  namespace fs = std::filesystem;
  for (fs::path p = fs::current_path(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "examples" / "stockham.fdl")) return p / "examples";
    if (p == p.parent_path()) break;
  }
  return fs::path(__FILE__).parent_path().parent_path().parent_path() / "examples";
}

}  // namespace fftc::test
