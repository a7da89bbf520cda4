// Shared by the CUDA-target tests: the programs they compile (every examples/*.fdl with the
// bindings of tests/codegen/examples_test.cpp, and a spread of FFT library programs), built
// through the pipeline for a target, and the project's folders found from the working
// directory (ctest runs from the repository root; on the device machine it lies elsewhere).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "compiler/frontend/diagnostics.h"
#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"
#include "tests/support/example_bindings.h"

namespace fftc::cuda_codegen_test {

namespace fe = fftc::compiler::frontend;
namespace pl = fftc::compiler::pipeline;
namespace fs = std::filesystem;

// The repository root: $FFTC_SOURCE_DIR, else the working directory or a parent holding
// examples/ and fftlib/, else this file's checkout.
inline fs::path sourceRoot() {
  if (const char* env = std::getenv("FFTC_SOURCE_DIR")) return env;
  for (fs::path p = fs::current_path(); !p.empty(); p = p.parent_path()) {
    if (fs::exists(p / "examples" / "stockham.fdl") && fs::exists(p / "fftlib" / "fft.fdl"))
      return p;
    if (p == p.parent_path()) break;
  }
  return fs::path(__FILE__).parent_path().parent_path().parent_path();
}

// One kernel of one program, with its bindings and the rewrite strategy (empty: the
// pipeline's default, lowerDefault when the kernel is still high-level).
struct Program {
  std::string file;    // relative to the repository root
  std::string kernel;  // empty: every kernel of the file
  std::map<std::string, fe::DefineValue> defines;
  std::string strategy;
  ir::ScalarKind precision = ir::ScalarKind::Float;
  std::string label;  // a test-name-safe description
  // Tables in __constant__ memory up to this many bytes (codegen's default when negative); 0
  // puts every table in a buffer that the run uploads.
  int64_t constantTableMaxBytes = -1;
  bool cudaOnly = false;  // mapCluster: no OpenCL kernel (ExampleBinding::cudaOnly)
};

// GoogleTest prints a parameter by its label.
inline void PrintTo(const Program& p, std::ostream* os) { *os << p.label; }

inline compiler::codegen::CodegenOptions codegenOptions(const Program& p) {
  compiler::codegen::CodegenOptions o;  // the pipeline sets the target's dialect
  if (p.constantTableMaxBytes >= 0) o.constantTableMaxBytes = p.constantTableMaxBytes;
  return o;
}

// The size bindings of a program (its integer defines): sizes left symbolic get them as
// arguments.
inline std::map<std::string, int64_t> sizeBindings(const Program& p) {
  std::map<std::string, int64_t> out;
  for (const auto& [name, v] : p.defines)
    if (const auto* i = std::get_if<int64_t>(&v)) out[name] = *i;
  return out;
}

// The examples with their bindings (tests/support/example_bindings.h), both precisions.
inline std::vector<Program> examplePrograms() {
  std::vector<Program> out;
  for (auto precision : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
    for (const auto& row : ::fftc::testing::exampleBindings()) {
      if (row.fftOps) continue;  // compiled by fftlib (tests/fftplan/fft_ops_test.cpp)
      const std::string& file = row.file;
      Program p;
      p.file = "examples/" + file;
      for (const auto& [n, v] : row.defines) p.defines[n] = v;
      p.precision = precision;
      p.cudaOnly = row.cudaOnly;
      p.label = file.substr(0, file.size() - 4) +
                (precision == ir::ScalarKind::Float ? "_f32" : "_f64");
      out.push_back(p);
    }
  }
  return out;
}

inline std::string listLabel(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? "_" : "") + std::to_string(v[i]);
  return s;
}

// The FFT library spread: stockham for several radix lists, cooleyTukey, stockhamTwiddle,
// bluestein N=17 (rsM [4, 8]); f32 and f64; lowerFft and lowerDefault; a batch of 2; with
// lowerFft also with every table in a buffer (the run uploads it) instead of __constant__.
inline std::vector<Program> fftPrograms() {
  struct Row {
    std::string file, kernel;
    std::map<std::string, fe::DefineValue> defines;
    std::string label;
  };
  std::vector<Row> rows;
  for (std::vector<int64_t> rs : {std::vector<int64_t>{4, 4, 4}, {16, 16, 16}, {8, 8, 8, 8},
                                  {3, 4, 5}})
    rows.push_back({"fftlib/fft.fdl", "stockham", {{"rs", rs}}, "stockham_" + listLabel(rs)});
  for (std::vector<int64_t> rs : {std::vector<int64_t>{4, 4, 4}, {8, 8, 8, 8}}) {
    rows.push_back({"fftlib/fft.fdl", "cooleyTukey", {{"rs", rs}}, "cooleyTukey_" + listLabel(rs)});
    rows.push_back(
        {"fftlib/fft.fdl", "stockhamTwiddle", {{"rs", rs}}, "stockhamTwiddle_" + listLabel(rs)});
  }
  // a row over a thread-block cluster (mapCluster): 2048 over 2 blocks, 2^15 over 8 (over 4,
  // f64's two arrays take 256 KiB a block, beyond an H200's 227)
  rows.push_back({"fftlib/fft.fdl",
                  "stockhamCluster",
                  {{"rs", std::vector<int64_t>{16, 8, 16}}, {"C", int64_t{2}}},
                  "stockhamCluster_16_8_16_C2"});
  rows.push_back({"fftlib/fft.fdl",
                  "stockhamCluster",
                  {{"rs", std::vector<int64_t>{16, 16, 16, 8}}, {"C", int64_t{8}}},
                  "stockhamCluster_16_16_16_8_C8"});
  // the four-step FFT over a cluster (mapBlock): 2048 over 2 blocks, 2^15 over 8
  rows.push_back({"fftlib/cluster.fdl",
                  "fourStepCluster",
                  {{"rs", std::vector<int64_t>{16, 8, 8, 2}}, {"W", int64_t{128}}},
                  "fourStepCluster_16_8_8_2"});
  rows.push_back({"fftlib/cluster.fdl",
                  "fourStepCluster",
                  {{"rs", std::vector<int64_t>{16, 16, 16, 8}}, {"W", int64_t{256}}},
                  "fourStepCluster_16_16_16_8"});
  rows.push_back({"fftlib/bluestein.fdl",
                  "bluestein",
                  {{"N", int64_t{17}}, {"rsM", std::vector<int64_t>{4, 8}}},
                  "bluestein_17_4_8"});
  std::vector<Program> out;
  for (auto precision : {ir::ScalarKind::Float, ir::ScalarKind::Double}) {
    for (const char* strategy : {"lowerFft", "lowerDefault"}) {
      for (const auto& r : rows) {
        Program p;
        p.file = r.file;
        p.kernel = r.kernel;
        p.defines = r.defines;
        p.defines["B"] = int64_t{2};
        p.strategy = strategy;
        p.precision = precision;
        p.label = r.label + "_" + strategy +
                  (precision == ir::ScalarKind::Float ? "_f32" : "_f64");
        out.push_back(p);
        if (std::string(strategy) == "lowerFft") {
          p.constantTableMaxBytes = 0;
          p.label = r.label + "_" + strategy + "_tableBuffers" +
                    (precision == ir::ScalarKind::Float ? "_f32" : "_f64");
          out.push_back(p);
        }
      }
    }
  }
  return out;
}

inline fe::Program elaborate(const Program& p) {
  fe::ElaborateOptions eo;
  eo.precision = p.precision;
  eo.defines = p.defines;
  return fe::parseFile((sourceRoot() / p.file).string(), eo);
}

// The kernels a program names (all of the file's when it names none).
inline std::vector<const fe::Kernel*> kernelsOf(const fe::Program& program, const Program& p) {
  std::vector<const fe::Kernel*> out;
  if (!p.kernel.empty()) {
    const fe::Kernel* k = program.kernel(p.kernel);
    if (k) out.push_back(k);
    return out;
  }
  for (const auto& k : program.kernels) out.push_back(&k);
  return out;
}

// A front-end or compile error as text (with the location when there is one).
inline std::string describeError(const std::exception& e) {
  if (const auto* ce = dynamic_cast<const ir::CompileError*>(&e)) return fe::formatError(*ce);
  return e.what();
}

}  // namespace fftc::cuda_codegen_test
