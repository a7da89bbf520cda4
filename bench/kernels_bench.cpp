// kernels_bench: issue 26's general kernels, each lowered by the strategy `fftc explore` found
// for the naive high-level program, against the library it competes with, on one GPU in one
// process, on the same inputs:
//   gemm    C = A B (examples/gemm.fdl), f32, against cuBLAS SGEMM on CUDA cores
//           (CUBLAS_PEDANTIC_MATH: no TF32, no tensor cores); lowerDefault too up to
//           --baseline-max (it is ~2000x slower: at 4096 one run takes seconds);
//   sum     the sum of 2^k floats (bench/kernels/sum.fdl) against CUB's DeviceReduce::Sum;
//   jacobi  one 5-point Jacobi step on an n x n grid (bench/kernels/jacobi5.fdl) against the
//           copy bandwidth: cudaMemcpy device to device, and the file's copy kernel.
// Times: the median of --repeat runs after --warmup (fftc: per-stage CUDA events, exec's
// runCompiled; the libraries: CUDA events around the call). Results are compared (relative
// max difference; the Jacobi step with a host reference). One CSV row per kernel and size; a
// failure is a row with an error. bench/README.md says how to run it.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <fmt/format.h>
#include <algorithm>
#include <boost/program_options.hpp>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/cuda/context.h"
#include "bench/cuda_runtime_timing.h"
#include "compiler/exec/cuda_exec.h"
#include "compiler/frontend/frontend.h"
#include "compiler/pipeline/pipeline.h"

// bench/cub_sum.cu (nvcc)
int cubSumFloats(const float* in, float* out, std::int64_t n, void* tmp, std::size_t* tmpBytes);

namespace {

namespace cu = fftc::backends::cuda;
namespace ex = fftc::compiler::exec;
namespace fe = fftc::compiler::frontend;
namespace po = boost::program_options;
using fftc::bench::checkCuda;
using fftc::bench::timeWithEvents;
using fftc::compiler::pipeline::Target;
using fftc::ir::ScalarKind;
using fftc::ir::Value;

struct Options {
  std::string out = "kernels_bench.csv", device = "cuda:0", root = ".";
  std::string kernels = "gemm,sum,jacobi";
  std::string gemmStrategy = "lowerDefault", sumStrategy = "lowerDefault";
  std::string jacobiStrategy = "mapGlobal(1); lowerDefault";
  std::string copyStrategy = "mapGlobal(1); lowerDefault";
  std::vector<int64_t> gemmSizes = {1024, 2048, 4096};
  int64_t baselineMax = 1024, jacobiSize = 8192;
  int sumLog2 = 28, warmup = 3, repeat = 10;
};

struct Row {
  std::string kernel, size, strategy, reference, unit;
  double fftcMs = 0, fftcRate = 0, refMs = 0, refRate = 0, difference = 0;
  std::string error;
};

fe::Kernel kernelOf(const std::string& file, const std::string& name,
                    std::map<std::string, fe::DefineValue> defines) {
  fe::ElaborateOptions opts;
  opts.defines = std::move(defines);
  opts.kernels = {name};
  return *fe::parseFile(file, opts).kernel(name);
}

ex::RunResult runFftc(const cu::Context& context, const fe::Kernel& k, const std::string& strategy,
                      const std::vector<Value>& in, int warmup, int repeat) {
  fftc::compiler::codegen::CodegenOptions options;
  options.format = false;
  const auto built = fftc::compiler::pipeline::build(k, strategy, Target::Cuda, options);
  ex::checkDevice(context.device(), built.compiled);
  ex::TimingOptions timing;
  timing.warmup = warmup;
  timing.repeat = repeat;
  return ex::runCompiled(context, built.compiled, in, {}, timing);
}

std::vector<double> randomReals(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<double> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

// max |a - b| / max(|b|), over the common length (1 when the lengths differ)
double relDifference(const std::vector<double>& a, const std::vector<double>& b) {
  if (a.size() != b.size()) return 1;
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < a.size(); ++i) {
    err = std::max(err, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return err / scale;
}

// A device copy of host reals as floats (runtime API: what the libraries take).
struct DeviceFloats {
  float* p = nullptr;
  size_t n = 0;
  explicit DeviceFloats(size_t count) : n(count) {
    checkCuda(cudaMalloc(&p, n * sizeof(float)), "cudaMalloc");
  }
  explicit DeviceFloats(const std::vector<double>& host) : DeviceFloats(host.size()) {
    std::vector<float> f(host.begin(), host.end());
    checkCuda(cudaMemcpy(p, f.data(), n * sizeof(float), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  DeviceFloats(const DeviceFloats&) = delete;
  DeviceFloats& operator=(const DeviceFloats&) = delete;
  ~DeviceFloats() { cudaFree(p); }
  std::vector<double> download() const {
    std::vector<float> f(n);
    checkCuda(cudaMemcpy(f.data(), p, n * sizeof(float), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return {f.begin(), f.end()};
  }
};

void checkCublas(cublasStatus_t s, const char* what) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw fftc::backends::DeviceError(
        fmt::format("{}: cublasStatus {}", what, static_cast<int>(s)));
}

Row benchGemm(const cu::Context& context, int64_t n, const std::string& strategy, bool withCublas,
              const Options& o) {
  Row row{"gemm", std::to_string(n), strategy, withCublas ? "cublasSgemm" : "", "TFLOP/s"};
  const auto a = randomReals(static_cast<size_t>(n * n), 1),
             b = randomReals(static_cast<size_t>(n * n), 2);
  const std::vector<Value> in = {Value::realArray(a, ScalarKind::Float, {n, n}),
                                 Value::realArray(b, ScalarKind::Float, {n, n})};
  const double flop =
      2.0 * static_cast<double>(n) * static_cast<double>(n) * static_cast<double>(n);
  const bool slow = strategy == "lowerDefault";  // seconds per run at 4096: few runs
  const auto r = runFftc(
      context, kernelOf(o.root + "/examples/gemm.fdl", "gemm", {{"M", n}, {"N", n}, {"K", n}}),
      strategy, in, slow ? 0 : o.warmup, slow ? 2 : o.repeat);
  row.fftcMs = r.totalMs;
  row.fftcRate = flop / (r.totalMs * 1e9);
  if (!withCublas) return row;
  DeviceFloats da(a), db(b), dc(static_cast<size_t>(n * n));
  cublasHandle_t h = nullptr;
  checkCublas(cublasCreate(&h), "cublasCreate");
  checkCublas(cublasSetMathMode(h, CUBLAS_PEDANTIC_MATH), "cublasSetMathMode");
  const float one = 1, zero = 0;
  const int ni = static_cast<int>(n);
  // row-major C = A B is column-major C^T = B^T A^T
  auto sgemm = [&] {
    checkCublas(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, ni, ni, ni, &one, db.p, ni, da.p, ni,
                            &zero, dc.p, ni),
                "cublasSgemm");
  };
  sgemm();
  checkCuda(cudaDeviceSynchronize(), "cublasSgemm");
  row.difference = relDifference(r.output.toRealVector(), dc.download());
  row.refMs = timeWithEvents(sgemm, o.warmup, o.repeat);
  row.refRate = flop / (row.refMs * 1e9);
  cublasDestroy(h);
  return row;
}

Row benchSum(const cu::Context& context, const Options& o) {
  const int64_t n = int64_t{1} << o.sumLog2;
  Row row{"sum", fmt::format("2^{}", o.sumLog2), o.sumStrategy, "cub::DeviceReduce::Sum", "GB/s"};
  const auto x = randomReals(static_cast<size_t>(n), 3);
  const auto r =
      runFftc(context, kernelOf(o.root + "/bench/kernels/sum.fdl", "sum", {{"N", n}}),
              o.sumStrategy, {Value::realArray(x, ScalarKind::Float, {n})}, o.warmup, o.repeat);
  const double bytes = 4.0 * static_cast<double>(n);
  row.fftcMs = r.totalMs;
  row.fftcRate = bytes / (r.totalMs * 1e6);
  DeviceFloats dx(x), dout(1);
  size_t tmpBytes = 0;
  checkCuda(static_cast<cudaError_t>(cubSumFloats(dx.p, dout.p, n, nullptr, &tmpBytes)), "cub");
  void* tmp = nullptr;
  checkCuda(cudaMalloc(&tmp, tmpBytes), "cudaMalloc");
  auto sum = [&] {
    checkCuda(static_cast<cudaError_t>(cubSumFloats(dx.p, dout.p, n, tmp, &tmpBytes)), "cub");
  };
  sum();
  checkCuda(cudaDeviceSynchronize(), "cub::DeviceReduce::Sum");
  // relative to the sum of magnitudes: what rounding in any order is bounded by
  double mag = 0;
  for (double v : x) mag += std::abs(v);
  row.difference = std::abs(r.output.toRealVector().at(0) - dout.download().at(0)) / mag;
  row.refMs = timeWithEvents(sum, o.warmup, o.repeat);
  row.refRate = bytes / (row.refMs * 1e6);
  cudaFree(tmp);
  return row;
}

// The 5-point Jacobi step with clamped borders, on the host (the reference for both rows).
std::vector<double> jacobiReference(const std::vector<double>& g, int64_t n) {
  std::vector<double> out(g.size());
  auto at = [&](int64_t i, int64_t j) {
    i = std::clamp<int64_t>(i, 0, n - 1);
    j = std::clamp<int64_t>(j, 0, n - 1);
    return static_cast<double>(static_cast<float>(g[static_cast<size_t>(i * n + j)]));
  };
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      out[static_cast<size_t>(i * n + j)] =
          0.2 * (at(i - 1, j) + at(i, j - 1) + at(i, j) + at(i, j + 1) + at(i + 1, j));
  return out;
}

std::vector<Row> benchJacobi(const cu::Context& context, const Options& o) {
  const int64_t n = o.jacobiSize;
  const std::string size = fmt::format("{}x{}", n, n);
  const auto g = randomReals(static_cast<size_t>(n * n), 4);
  const std::vector<Value> in = {Value::realArray(g, ScalarKind::Float, {n, n})};
  const std::map<std::string, fe::DefineValue> d = {{"H", n}, {"W", n}};
  const std::string file = o.root + "/bench/kernels/jacobi5.fdl";
  const double bytes = 2.0 * 4.0 * static_cast<double>(n * n);  // read once, written once
  DeviceFloats src(g), dst(static_cast<size_t>(n * n));
  auto memcpyD2D = [&] {
    checkCuda(cudaMemcpy(dst.p, src.p, src.n * sizeof(float), cudaMemcpyDeviceToDevice),
              "cudaMemcpy");
  };
  const double copyMs = timeWithEvents(memcpyD2D, o.warmup, o.repeat);
  std::vector<Row> rows;
  const std::vector<std::pair<std::string, std::string>> kernels = {{"jacobi", o.jacobiStrategy},
                                                                    {"copy", o.copyStrategy}};
  for (const auto& [name, strategy] : kernels) {
    Row row{name == "jacobi" ? "jacobi5" : "copy", size, strategy, "cudaMemcpy D2D", "GB/s"};
    try {
      const auto r = runFftc(context, kernelOf(file, name, d), strategy, in, o.warmup, o.repeat);
      row.fftcMs = r.totalMs;
      row.fftcRate = bytes / (r.totalMs * 1e6);
      row.refMs = copyMs;
      row.refRate = bytes / (copyMs * 1e6);
      row.difference =
          relDifference(r.output.toRealVector(), name == "jacobi" ? jacobiReference(g, n) : g);
    } catch (const std::exception& e) {
      row.error = e.what();
    }
    rows.push_back(row);
  }
  return rows;
}

std::string csvField(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  return "\"" + [&] {
    std::string q;
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q;
  }() + "\"";
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  std::string gemmSizes = "1024,2048,4096";
  po::options_description desc("kernels_bench options");
  desc.add_options()("help", "this text")("out", po::value(&o.out)->default_value(o.out),
                                          "the CSV file")(
      "device", po::value(&o.device)->default_value(o.device), "cuda:N")(
      "root", po::value(&o.root)->default_value(o.root), "the fftc source folder")(
      "kernels", po::value(&o.kernels)->default_value(o.kernels), "gemm,sum,jacobi")(
      "gemm-strategy", po::value(&o.gemmStrategy)->default_value(o.gemmStrategy),
      "rewrite strategy of the GEMM (explore's best_strategy)")(
      "sum-strategy", po::value(&o.sumStrategy)->default_value(o.sumStrategy), "of the sum")(
      "jacobi-strategy", po::value(&o.jacobiStrategy)->default_value(o.jacobiStrategy),
      "of the Jacobi step")("copy-strategy",
                            po::value(&o.copyStrategy)->default_value(o.copyStrategy),
                            "of the copy kernel")(
      "gemm-sizes", po::value(&gemmSizes)->default_value(gemmSizes), "M = N = K")(
      "baseline-max", po::value(&o.baselineMax)->default_value(o.baselineMax),
      "largest GEMM size lowerDefault is timed at")(
      "sum-log2", po::value(&o.sumLog2)->default_value(o.sumLog2), "log2 of the floats summed")(
      "jacobi-size", po::value(&o.jacobiSize)->default_value(o.jacobiSize), "grid side")(
      "warmup", po::value(&o.warmup)->default_value(o.warmup), "untimed runs")(
      "repeat", po::value(&o.repeat)->default_value(o.repeat), "timed runs (the median)");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  o.gemmSizes.clear();
  for (size_t at = 0; at < gemmSizes.size();) {
    const size_t comma = std::min(gemmSizes.find(',', at), gemmSizes.size());
    o.gemmSizes.push_back(std::stoll(gemmSizes.substr(at, comma - at)));
    at = comma + 1;
  }
  std::optional<cu::Context> opened;
  try {
    opened.emplace(cu::Context::open(o.device));
  } catch (const std::exception& e) {
    std::cerr << "kernels_bench: " << e.what() << "\n";
    return 1;
  }
  const cu::Context& context = *opened;
  std::ofstream csv(o.out);
  csv << "device,kernel,size,strategy,fftc_ms,fftc_rate,reference,reference_ms,reference_rate,"
         "unit,fftc_vs_reference,difference,error\n";
  auto emit = [&](const Row& r) {
    const std::string line = fmt::format(
        "{},{},{},{},{:.4f},{:.4g},{},{:.4f},{:.4g},{},{:.3f},{:.2e},{}",
        csvField(context.device().name), r.kernel, r.size, csvField(r.strategy), r.fftcMs,
        r.fftcRate, r.reference, r.refMs, r.refRate, r.unit,
        r.fftcMs > 0 && r.refMs > 0 ? r.refMs / r.fftcMs : 0.0, r.difference, csvField(r.error));
    csv << line << "\n" << std::flush;
    std::cout << line << "\n" << std::flush;
  };
  auto guarded = [&](Row proto, const std::function<Row()>& f) {
    try {
      emit(f());
    } catch (const std::exception& e) {
      proto.error = e.what();
      emit(proto);
    }
  };
  if (o.kernels.find("gemm") != std::string::npos) {
    for (int64_t n : o.gemmSizes) {
      if (n <= o.baselineMax && o.gemmStrategy != "lowerDefault")
        guarded({"gemm", std::to_string(n), "lowerDefault"},
                [&] { return benchGemm(context, n, "lowerDefault", false, o); });
      guarded({"gemm", std::to_string(n), o.gemmStrategy},
              [&] { return benchGemm(context, n, o.gemmStrategy, true, o); });
    }
  }
  if (o.kernels.find("sum") != std::string::npos)
    guarded({"sum", fmt::format("2^{}", o.sumLog2), o.sumStrategy},
            [&] { return benchSum(context, o); });
  if (o.kernels.find("jacobi") != std::string::npos) {
    try {
      for (const Row& r : benchJacobi(context, o)) emit(r);
    } catch (const std::exception& e) {
      Row r{"jacobi5", std::to_string(o.jacobiSize), o.jacobiStrategy};
      r.error = e.what();
      emit(r);
    }
  }
  return 0;
}
