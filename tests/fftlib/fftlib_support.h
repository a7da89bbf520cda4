// Helpers of the fftlib tests: compile a kernel of fftlib/*.fdl with -D bindings, run it through
// the reference interpreter on random batched input, and measure it against FFTW (long double).
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "fftlib/fftw_reference.h"
#include "ir/interpreter.h"

namespace fftc::fftlib::test {

namespace fe = fftc::compiler::frontend;
using Defines = std::map<std::string, fe::DefineValue>;
using Radices = std::vector<int64_t>;

// The project's fftlib/ folder, for tests run by ctest (from the project root) or by hand.
inline std::filesystem::path fftlibDir() {
  namespace fs = std::filesystem;
  for (fs::path p = fs::current_path(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "fftlib" / "fft.fdl")) return p / "fftlib";
    if (p == p.parent_path()) break;
  }
  return fs::path(__FILE__).parent_path().parent_path().parent_path() / "fftlib";
}

inline std::string readLibraryFile(const std::string& name) {
  std::ifstream in(fftlibDir() / name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline int64_t product(const Radices& rs) {
  int64_t n = 1;
  for (int64_t r : rs) n *= r;
  return n;
}

inline int64_t largestPrimeFactor(int64_t n) {
  int64_t largest = 1;
  for (int64_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  }
  return n > 1 ? n : largest;
}

// Greedy factorization into the library's radices, largest power of two first:
// 64 -> [16, 4], 60 -> [4, 3, 5], 1 -> []. nullopt when N has a prime factor above 7.
inline std::optional<Radices> greedyRadices(int64_t n) {
  Radices rs;
  for (int64_t r : {16, 8, 4, 2, 3, 5, 7}) {
    while (n % r == 0) {
      rs.push_back(r);
      n /= r;
    }
  }
  if (n != 1) return std::nullopt;
  return rs;
}

// The convolution size of Bluestein: the smallest M >= 2N - 1 with radices in the library.
inline Radices bluesteinRadices(int64_t n) {
  for (int64_t m = 2 * n - 1;; ++m) {
    if (auto rs = greedyRadices(m)) return *rs;
  }
}

// pyvkfft's tolerances on the relative max error, doubled for a prime factor above 13.
inline double tolerance(int64_t n, ir::ScalarKind precision) {
  double lg = std::log10(static_cast<double>(n));
  double t = precision == ir::ScalarKind::Float ? 2e-6 + 5e-7 * lg : 5e-15 + 5e-16 * lg;
  return largestPrimeFactor(n) > 13 ? 2 * t : t;
}

inline const char* precisionName(ir::ScalarKind p) {
  return p == ir::ScalarKind::Float ? "f32" : "f64";
}

// One run of a library kernel.
struct FftCase {
  std::string file;  // in fftlib/
  std::string kernel;
  Defines defines;  // the structure: rs / rs1, rs2, rs3 / N, rsM
  int64_t n = 0;    // the transform size the kernel must have
  int64_t batch = 3;
  ir::ScalarKind precision = ir::ScalarKind::Float;
  Direction direction = Direction::Forward;
  bool scaled = false;  // -D scale=1: the result is divided by n
  // A text substitution applied to the library source first (negative controls).
  std::string mutateFrom, mutateTo;
};

struct FftResult {
  bool ran = false;
  std::string error;  // a compile or interpreter error
  double linf = 1, l2 = 1;
  double tol = 0;
  bool pass() const { return ran && linf < tol; }
};

inline std::string describe(const FftCase& c) {
  std::ostringstream os;
  os << c.file << ":" << c.kernel << " n=" << c.n << " batch=" << c.batch << " "
     << precisionName(c.precision) << (c.direction == Direction::Forward ? " forward" : " inverse")
     << (c.scaled ? " scaled" : "");
  for (const auto& [name, v] : c.defines) {
    os << " -D " << name << "=";
    if (const auto* i = std::get_if<int64_t>(&v)) {
      os << *i;
    } else {
      os << "[";
      const auto& l = std::get<std::vector<int64_t>>(v);
      for (size_t k = 0; k < l.size(); ++k) os << (k ? "," : "") << l[k];
      os << "]";
    }
  }
  return os.str();
}

// A mutation applies to the file itself or, when the target is not there, to common.fdl, which
// the library files import (served from memory, the rest of the library from disk).
inline fe::Program compileLibrary(const FftCase& c) {
  std::string text = readLibraryFile(c.file);
  std::optional<std::string> common;
  if (!c.mutateFrom.empty()) {
    std::string* target = &text;
    if (text.find(c.mutateFrom) == std::string::npos)
      target = &common.emplace(readLibraryFile("common.fdl"));
    size_t at = target->find(c.mutateFrom);
    if (at == std::string::npos)
      throw std::runtime_error("mutation target not found: " + c.mutateFrom);
    target->replace(at, c.mutateFrom.size(), c.mutateTo);
  }
  fe::ElaborateOptions opts;
  opts.precision = c.precision;
  opts.defines = c.defines;
  opts.defines["dir"] = int64_t{c.direction == Direction::Forward ? -1 : 1};
  opts.defines["scale"] = int64_t{c.scaled ? 1 : 0};
  if (!c.kernel.empty()) opts.kernels = {c.kernel};  // the -D bindings are this kernel's
  if (common) {
    opts.importReader = fe::importFromMemory(
        {{(fftlibDir() / "common.fdl").lexically_normal().generic_string(), *common}});
  }
  return fe::compileSource(text, (fftlibDir() / c.file).lexically_normal().generic_string(), opts);
}

// Random input, exactly representable in float so that both precisions see the same data.
inline std::vector<std::complex<double>> randomInput(size_t count, uint64_t seed) {
  const auto x = fftlib::uniformInput<float>(count, seed);
  return {x.begin(), x.end()};
}

inline FftResult runFft(const FftCase& c) {
  FftResult r;
  r.tol = tolerance(c.n, c.precision);
  try {
    fe::Program p = compileLibrary(c);
    const fe::Kernel* k = p.kernel(c.kernel);
    if (!k) {
      r.error = "no kernel " + c.kernel;
      return r;
    }
    auto size = k->paramTypes.at(0).element().size().constant();
    if (!size || *size != c.n) {
      r.error = "the kernel's size is " + k->paramTypes.at(0).str();
      return r;
    }
    auto x = randomInput(static_cast<size_t>(c.n * c.batch), 1000 + static_cast<uint64_t>(c.n));
    ir::Value in = ir::Value::complexArray(x, c.precision, {c.batch, c.n});
    std::vector<std::complex<double>> y = ir::interpretCall(k->lambda, {in}).toComplexVector();
    std::vector<ComplexL> ref = referenceDft1d(toLongDouble(x), c.n, c.batch, c.direction);
    if (c.scaled) {
      for (auto& v : ref) v /= static_cast<long double>(c.n);
    }
    r.linf = linfError(y, ref);
    r.l2 = l2Error(y, ref);
    r.ran = true;
  } catch (const ir::CompileError& e) {
    r.error = fe::formatError(e);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
  return r;
}

// The worst error / tolerance ratio per family, printed at the end of the run.
class ErrorSummary : public ::testing::Environment {
 public:
  static ErrorSummary& get() {
    static ErrorSummary* s = [] {
      auto* e = new ErrorSummary;
      ::testing::AddGlobalTestEnvironment(e);  // gtest owns it
      return e;
    }();
    return *s;
  }
  void record(const std::string& family, const FftCase& c, const FftResult& r) {
    if (!r.ran) return;
    auto& w = worst_[family + " " + precisionName(c.precision)];
    ++w.count;
    if (r.linf / r.tol >= w.ratio) w = {r.linf / r.tol, r.linf, r.tol, describe(c), w.count};
  }
  void TearDown() override {
    for (const auto& [family, w] : worst_) {
      std::printf("[fftlib] %-26s %4d runs, worst linf %.3g (tol %.3g, %.0f%%): %s\n",
                  family.c_str(), w.count, w.linf, w.tol, 100 * w.ratio, w.what.c_str());
    }
  }

 private:
  struct Worst {
    double ratio = 0, linf = 0, tol = 0;
    std::string what;
    int count = 0;
  };
  std::map<std::string, Worst> worst_;
};

// Runs a case, records it, and checks it against the tolerance.
inline void expectAccurate(const std::string& family, const FftCase& c) {
  FftResult r = runFft(c);
  ASSERT_TRUE(r.ran) << describe(c) << "\n" << r.error;
  ErrorSummary::get().record(family, c, r);
  EXPECT_LT(r.linf, r.tol) << describe(c) << " (l2 " << r.l2 << ")";
}

// A negative control: `base` with each text substitution (from, to) applied to the library
// source must still compile and run, and be wrong (linf above 1e-2), so that what the
// substitution removes is shown to matter.
using Mutation = std::pair<const char*, const char*>;
inline void expectEachMutationWrong(const FftCase& base,
                                    std::initializer_list<Mutation> mutations) {
  for (auto [from, to] : mutations) {
    FftCase c = base;
    c.mutateFrom = from;
    c.mutateTo = to;
    FftResult r = runFft(c);
    ASSERT_TRUE(r.ran) << from << "\n" << r.error;
    EXPECT_GT(r.linf, 1e-2) << from;
  }
}

}  // namespace fftc::fftlib::test
