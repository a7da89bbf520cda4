// The paper's low-level Stockham pass (Listing 3): correctness on a small instance and the
// conciseness of its indices for r = 2, L = 4096, n = 2^24 (Listing 4).
#include <fstream>
#include <regex>
#include <sstream>

#include "fftlib/fftw_reference.h"
#include "tests/codegen/codegen_support.h"

namespace fftc::codegen_test {
namespace {

std::string readExample(const std::string& name) {
  return readFile(sourceRoot() + "/examples/" + name);
}

// The first line of `src` containing `needle`.
std::string lineWith(const std::string& src, const std::string& needle) {
  std::istringstream in(src);
  for (std::string line; std::getline(in, line);)
    if (line.find(needle) != std::string::npos) return line;
  return {};
}

TEST(Stockham, SmallPassMatchesInterpreter) {
  for (auto [r, l] : {std::pair<int64_t, int64_t>{2, 4}, {2, 64}, {4, 16}, {4, 64}}) {
    auto c = checkText(readExample("stockham_pass_lowlevel.fdl"), "stockPass",
                       {{"R", r}, {"L", l}, {"N", 64}});
    EXPECT_MATCHES(c);
  }
}

TEST(Stockham, Listing4IndicesAreConcise) {
  auto ck = compileText(readExample("stockham_pass_lowlevel.fdl"), "stockPass",
                        {{"R", 2}, {"L", 4096}, {"N", 16777216}});
  ASSERT_EQ(ck.stages.size(), 1u);
  EXPECT_EQ(ck.stages[0].global.at(0).str(), "8388608");
  std::string read = lineWith(ck.source, "x[");
  std::string write = lineWith(ck.source, "out[");
  ASSERT_FALSE(read.empty()) << ck.source;
  ASSERT_FALSE(write.empty()) << ck.source;
  auto idx = [](const std::string& line, const std::string& arr) {
    size_t b = line.find(arr + "[");
    size_t e = line.find("]", b);
    return line.substr(b + arr.size() + 1, e - b - arr.size() - 1);
  };
  std::string r = idx(read, "x"), w = idx(write, "out");
  auto divs = [](const std::string& s) { return count(s, "/") + count(s, ">>"); };
  auto mods = [](const std::string& s) { return count(s, "%") + count(s, "&"); };
  EXPECT_LE(divs(r), 1u) << r;
  EXPECT_LE(mods(r), 1u) << r;
  EXPECT_LE(divs(w), 1u) << w;
  EXPECT_LE(mods(w), 1u) << w;
  // Listing 4: id/2048 + 4096*col + 8192*(id%2048) and id/2048 + 4096*(id%2048) + 8388608*row.
  EXPECT_NE(r.find("gid >> 11"), std::string::npos) << r;
  EXPECT_NE(r.find("8192 * (gid & 2047)"), std::string::npos) << r;
  EXPECT_NE(w.find("4096 * (gid & 2047)"), std::string::npos) << w;
  EXPECT_NE(w.find("8388608 *"), std::string::npos) << w;
  // The twiddles, 2048 matrices of 2 x 2, are a table buffer (64 KiB > __constant limit here).
  bool table = false;
  for (const auto& b : ck.buffers) table |= b.role == "table";
  EXPECT_TRUE(table) << cg::manifestText(ck);
}

// The whole low-level FFT: one stage per pass, checked against the interpreter and FFTW.
TEST(Stockham, WholeFftMatchesInterpreterAndFftw) {
  const std::string text = readExample("stockham_lowlevel.fdl");
  struct Case {
    std::vector<int64_t> rs;
    ir::ScalarKind precision;
  };
  for (const auto& c : {Case{{4, 4, 4}, ir::ScalarKind::Float}, Case{{2, 8, 4, 2}, ir::ScalarKind::Float},
                        Case{{8, 8}, ir::ScalarKind::Double}}) {
    if (c.precision == ir::ScalarKind::Double && !context().device().doubleSupport) continue;
    SCOPED_TRACE(::testing::PrintToString(c.rs));
    fe::ElaborateOptions eo;
    eo.precision = c.precision;
    eo.defines["rs"] = c.rs;
    fe::Program p = fe::compileSource(text, "stockham_lowlevel.fdl", eo);
    const fe::Kernel& k = *p.kernel("fft");
    cg::CompiledKernel ck = cg::compileKernel(k, options());
    EXPECT_EQ(ck.stages.size(), c.rs.size());
    auto r = ex::checkAgainstInterpreter(context(), k.lambda, ck, {}, 11);
    EXPECT_TRUE(r.comparison.ok) << r.comparison.firstMismatch;
    std::vector<std::complex<double>> in = r.inputs[0].toComplexVector();
    std::vector<std::complex<double>> out = r.device.toComplexVector();
    auto ref = fftlib::referenceDft1d(fftlib::toLongDouble(in), static_cast<int64_t>(in.size()), 1,
                                      fftlib::Direction::Forward);
    double l2 = fftlib::l2Error(out, ref);
    EXPECT_LT(l2, c.precision == ir::ScalarKind::Double ? 1e-13 : 1e-6) << "l2 error vs FFTW";
  }
}

}  // namespace
}  // namespace fftc::codegen_test
