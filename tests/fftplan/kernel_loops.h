// What a plan test reads from a stage's OpenCL source: the first loop over local dimension 1 (a
// tile row's or a line's work-items), the first radix pass's. fftplan_test.cpp and
// nd_test.cpp share it.
#pragma once

#include <cstdint>
#include <regex>
#include <string>

namespace fftc::fftlib::test {

// The trip bound of that loop: the row's launch width where each work-item takes its first
// pass's butterflies at once (common.fdl's fftStockhamTwiddleRangeW), more where it loops over
// them; 0 when there is none.
inline int64_t firstRowLoop(const std::string& source) {
  static const std::regex loop(R"(< (\d+); \w+ \+= \(int\)get_local_size\(1\))");
  std::smatch m;
  return std::regex_search(source, m, loop) ? std::stoll(m[1]) : 0;
}

}  // namespace fftc::fftlib::test
