// pipeline_bench: the FFT inside larger programs (issue 24) against what users do today with
// cuFFT, on one GPU in one process, on the same inputs:
//   conv  batched 1D circular convolution with a filter spectrum (examples/convolution.fdl):
//         fftc's program (one kernel where the FFT fits one block) against cuFFT forward, a
//         pointwise kernel (y .* H / N), cuFFT inverse;
//   stft  window, FFT, |X|^2 over frames N/2 apart (examples/stft.fdl): fftc's program against
//         a window kernel, cuFFT forward, a magnitude kernel;
//   conv2d  an N x N image convolved through its zero padding to 2N x 2N (examples/conv2d.fdl):
//         fftc's program against the padding copy, cuFFT's 2D forward, a pointwise kernel,
//         cuFFT's 2D inverse and the crop's copy.
// The pointwise kernels of the cuFFT pipelines are compiled by fftc from .fdl (one coalesced
// element per thread, what a hand-written kernel does). Times: CUDA events, the median of
// --repeat runs after --warmup, the whole pipeline; the two results compared with each other
// (relative max difference). One CSV row per pipeline and size; a failure is a row with an
// error. bench/README.md says how to run it.
#include <cuda_runtime.h>
#include <cufft.h>

#include <fmt/format.h>
#include <algorithm>
#include <boost/json.hpp>
#include <boost/program_options.hpp>
#include <complex>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/cuda/context.h"
#include "compiler/exec/cuda_exec.h"
#include "compiler/exec/exec.h"
#include "compiler/frontend/frontend.h"
#include "bench/cuda_runtime_timing.h"
#include "fftlib/plan/cuda_plan.h"
#include "fftlib/plan/fft_ops.h"
#include "fftlib/tune/fft_ops_space.h"

namespace {

namespace fl = fftc::fftlib;
namespace cu = fftc::backends::cuda;
namespace ex = fftc::compiler::exec;
namespace fe = fftc::compiler::frontend;
namespace po = boost::program_options;
using fftc::compiler::pipeline::Target;
using C = std::complex<float>;

struct Options {
  std::string out = "pipeline_bench.csv", device = "cuda:0", examples = "examples";
  std::string pipelines = "conv,stft,conv2d";
  int log2Total = 24;  // elements per run (f32)
  int64_t convMin = 256;  // conv's smallest N
  int64_t convMax = 8192;  // conv's largest N (beyond one block: the multi-pass form)
  int warmup = 5, repeat = 20;
  // fftc's kernels with one local array where a pass may share it (read, barrier, write:
  // CodegenOptions::localReuseInPass): more blocks where shared memory bounds them, more
  // barriers. Rows labelled "PIPELINE/one-array".
  bool localReuse = false;
  // A one-kernel program's block count given to ptxas as __launch_bounds__'s minimum
  // (CodegenOptions::minBlocksPerMultiprocessor), so that registers do not allow fewer: the
  // most that shared memory and the threads allow, less one while ptxas spills (local memory
  // a thread > 0). Rows labelled "PIPELINE/min-blocks=B".
  bool minBlocks = false;
  // The largest radix of the conv's chained transforms (FftOpsOptions::chainRadix; 16: the
  // plain FFT's radices, as before session 20). Rows labelled "PIPELINE/chain-radix=R" when not
  // the default.
  int64_t chainRadix = fl::kChainDefaultRadix;
  // The wider radices also where the planner's register estimate says they spill
  // (FftOpsOptions::chainRegisterBound false; 8192: [32, 16, 16]). Rows "PIPELINE/any-registers".
  bool anyRegisters = false;
  // The fft operations' plans as `fftc tune FILE.fdl` records them for a kernel with fft
  // operations (the JSON of `fftc exec --fft-ops`, e.g. {"form0.shape":[128,1]}), in place of
  // the planner's; a plan it vetoes is the row's error. Rows "PIPELINE/fft-ops".
  std::string fftOps;
};

using fftc::bench::checkCuda;
using fftc::bench::checkCufft;
using fftc::bench::timeWithEvents;

fe::Kernel kernelOf(const std::string& text, const std::string& file, const std::string& name,
                    std::map<std::string, fe::DefineValue> defines) {
  fe::ElaborateOptions opts;
  opts.defines = std::move(defines);
  opts.kernels = {name};
  auto program = text.empty() ? fe::parseFile(file, opts) : fe::compileSource(text, file, opts);
  return *program.kernel(name);
}

// The pointwise kernels' lowering: the rows' map over the second grid dimension, the elements'
// over the first, one element a thread (coalesced). lowerDefault alone gives one thread a row
// (2048 threads walking 8192 elements each at conv 8192), which made the cuFFT pipelines look
// 4 - 15x slower than they are.
constexpr const char* kPointwiseStrategy = "mapGlobal(1); lowerDefault";

// A kernel compiled for CUDA and loaded, its buffers allocated: the pointwise kernels of the
// cuFFT pipelines, launched on buffers named by the caller.
struct Pointwise {
  fftc::compiler::codegen::CompiledKernel compiled;
  ex::PreparedRun prepared;
  cu::Module module;
  std::map<std::string, cu::DeviceBuffer> buffers;
  std::vector<cu::Launch> launches;

  Pointwise(const cu::Context& context, const fe::Kernel& k, const std::vector<fftc::ir::Value>& in)
      : compiled(
            fftc::compiler::pipeline::build(k, kPointwiseStrategy, Target::Cuda, {}).compiled),
        prepared(ex::prepareRun(compiled, in, {})),
        module(context.load(ex::compileCuda(compiled, context.arch()))) {
    for (const auto& b : prepared.buffers) {
      cu::DeviceBuffer buf = context.allocate(b.bytes);
      if (!b.initial.empty()) buf.copyFromHost(b.initial.data(), b.initial.size());
      buffers.emplace(b.info->name, std::move(buf));
    }
    for (const auto& s : prepared.stages) {
      cu::Launch l;
      l.kernel = module.kernel(s.info->kernel);
      for (const auto& a : s.args)
        if (!a.buffer.empty())
          l.args.add(buffers.at(a.buffer));
        else
          l.args.add(a.value);
      l.config = ex::cudaLaunchConfig(s);
      launches.push_back(std::move(l));
    }
  }
  cu::DeviceBuffer& input() { return buffers.at(prepared.buffers.front().info->name); }
  cu::DeviceBuffer& output() { return buffers.at(prepared.output->name); }
  void launch() const {
    for (const auto& l : launches) l.kernel.launch(l.config, l.args);
  }
};

struct Row {
  std::string pipeline;
  int64_t n = 0, batch = 0;
  int64_t fftcStages = 0;
  int64_t minBlocks = 0;  // --min-blocks: the bound the kernel was built with
  double fftcMs = 0, cufftMs = 0, difference = 0;
  std::string error;
};

std::vector<C> randomComplex(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.5f, 0.5f);
  std::vector<C> v(n);
  for (auto& c : v) c = {u(rng), u(rng)};
  return v;
}

double relDifference(const std::vector<std::complex<double>>& a,
                     const std::vector<std::complex<double>>& b) {
  double err = 0, scale = 1e-30;
  for (size_t i = 0; i < std::min(a.size(), b.size()); ++i) {
    err = std::max(err, std::abs(a[i] - b[i]));
    scale = std::max(scale, std::abs(b[i]));
  }
  return a.size() == b.size() ? err / scale : 1.0 / 0.0;
}

// fftc's program: expanded by the planner under the device's limits, run by runCompiled.
ex::RunResult runFftc(const cu::Context& context, const fe::Kernel& k,
                      const std::vector<fftc::ir::Value>& in, const Options& o, Row& row) {
  fl::FftRequest limits;
  limits.target = Target::Cuda;
  limits.localMemoryBytes = fl::cudaPlanLimits(context.device()).localMemoryBytes;
  fftc::compiler::codegen::CodegenOptions options;
  options.format = false;
  options.localReuseInPass = o.localReuse;
  const fl::FftOpsOptions plans =
      o.fftOps.empty()
          ? fl::FftOpsOptions{.chainRadix = o.chainRadix, .chainRegisterBound = !o.anyRegisters}
          : fl::tune::fftOpsOptionsFromJson(boost::json::parse(o.fftOps).as_object());
  const fl::ExpandedFftOps expanded = fl::expandFftOps(k, limits, plans);
  auto built = fl::buildExpanded(expanded, "", Target::Cuda, options);
  if (o.minBlocks && built.compiled.stages.size() == 1) {
    const auto& s = built.compiled.stages[0];
    int64_t threads = 1;
    for (const auto& l : s.local) threads *= l.constant().value_or(0);
    int perSm = 0, threadsPerSm = 0, reserved = 0;
    const int dev = context.device().ordinal;
    checkCuda(cudaDeviceGetAttribute(&perSm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, dev),
              "cudaDeviceGetAttribute");
    checkCuda(cudaDeviceGetAttribute(&threadsPerSm, cudaDevAttrMaxThreadsPerMultiProcessor, dev),
              "cudaDeviceGetAttribute");
    checkCuda(cudaDeviceGetAttribute(&reserved, cudaDevAttrReservedSharedMemoryPerBlock, dev),
              "cudaDeviceGetAttribute");
    if (threads > 0) {
      const int64_t bytes = s.localMemoryBytes + reserved;  // static and dynamic
      int64_t blocks = threadsPerSm / threads;
      if (bytes > reserved) blocks = std::min<int64_t>(blocks, perSm / bytes);
      const std::string kernel = s.kernel;
      for (; blocks >= 1; --blocks) {
        options.minBlocksPerMultiprocessor = blocks;
        auto b = fl::buildExpanded(expanded, "", Target::Cuda, options);
        const cu::Module m = context.load(ex::compileCuda(b.compiled, context.arch()));
        if (m.kernel(kernel).attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES) == 0 || blocks == 1) {
          built = std::move(b);
          row.minBlocks = blocks;
          break;
        }
      }
    }
  }
  row.fftcStages = static_cast<int64_t>(built.compiled.stages.size());
  ex::TimingOptions timing;
  timing.warmup = o.warmup;
  timing.repeat = o.repeat;
  return ex::runCompiled(context, built.compiled, in, {}, timing);
}

std::vector<std::complex<double>> download(const cu::DeviceBuffer& b, size_t count) {
  std::vector<C> host(count);
  b.copyToHost(host.data(), count * sizeof(C));
  return {host.begin(), host.end()};
}

Row benchConv(const cu::Context& context, int64_t n, const Options& o) {
  Row row{"conv", n, std::max<int64_t>(1, (int64_t{1} << o.log2Total) / n)};
  const int64_t b = row.batch;
  const auto x = randomComplex(static_cast<size_t>(n * b), 1);
  const auto h = randomComplex(static_cast<size_t>(n), 2);
  std::vector<std::complex<double>> xd(x.begin(), x.end()), hd(h.begin(), h.end());
  const std::vector<fftc::ir::Value> in = {
      fftc::ir::Value::complexArray(xd, fftc::ir::ScalarKind::Float, {b, n}),
      fftc::ir::Value::complexArray(hd, fftc::ir::ScalarKind::Float, {n})};
  const auto fftc = runFftc(context,
                            kernelOf("", o.examples + "/convolution.fdl", "conv",
                                     {{"N", n}, {"B", b}}),
                            in, o, row);
  row.fftcMs = fftc.totalMs;

  // cuFFT: X -> Y forward, OUT = Y .* H / N (pointwise), OUT inverse in place
  Pointwise mul(context,
                kernelOf("kernel mul(y: [[complex]N]B, H: [complex]N) = map(fun row => "
                         "map(fun (a, s) => a * s * (1.0 / N)) <<: zip(row, H)) <<: y\n",
                         "mul.fdl", "mul", {{"N", n}, {"B", b}}),
                in);
  cu::DeviceBuffer dx = context.allocate(x.size() * sizeof(C));
  dx.copyFromHost(x.data(), x.size() * sizeof(C));
  cufftHandle plan = 0;
  int dims[] = {static_cast<int>(n)};
  checkCufft(cufftPlanMany(&plan, 1, dims, nullptr, 1, static_cast<int>(n), nullptr, 1,
                           static_cast<int>(n), CUFFT_C2C, static_cast<int>(b)),
             "cufftPlanMany");
  auto* px = reinterpret_cast<cufftComplex*>(dx.pointer());
  auto* py = reinterpret_cast<cufftComplex*>(mul.input().pointer());
  auto* pout = reinterpret_cast<cufftComplex*>(mul.output().pointer());
  auto pipeline = [&] {
    checkCufft(cufftExecC2C(plan, px, py, CUFFT_FORWARD), "cufftExecC2C");
    mul.launch();
    checkCufft(cufftExecC2C(plan, pout, pout, CUFFT_INVERSE), "cufftExecC2C");
  };
  pipeline();
  checkCuda(cudaDeviceSynchronize(), "the cuFFT pipeline");
  row.difference = relDifference(fftc.output.toComplexVector(), download(mul.output(), x.size()));
  row.cufftMs = timeWithEvents(pipeline, o.warmup, o.repeat);
  cufftDestroy(plan);
  return row;
}

Row benchStft(const cu::Context& context, int64_t n, const Options& o) {
  const int64_t hop = n / 2, l = int64_t{1} << o.log2Total;
  Row row{"stft", n, (l - n + hop) / hop};
  const auto x = randomComplex(static_cast<size_t>(l), 3);
  std::vector<std::complex<double>> xd(x.begin(), x.end());
  const std::vector<fftc::ir::Value> in = {
      fftc::ir::Value::complexArray(xd, fftc::ir::ScalarKind::Float, {l})};
  const std::map<std::string, fe::DefineValue> d = {{"N", n}, {"H", hop}, {"L", l}};
  const auto fftc = runFftc(context, kernelOf("", o.examples + "/stft.fdl", "stft", d), in, o, row);
  row.fftcMs = fftc.totalMs;

  // cuFFT: the frames windowed (a kernel), transformed in place, reduced to |X|^2 (a kernel)
  const std::string hann = "def hann(n) = array(n, fun j => 0.5 - 0.5 * cos(2.0 * pi * j / n))\n";
  Pointwise window(context,
                   kernelOf(hann + "kernel win(x: [complex]L) = map(fun f => map(mult) <<: "
                                   "zip(f, hann(N))) <<: slide(N, H) <<: x\n",
                            "win.fdl", "win", d),
                   in);
  const std::vector<fftc::ir::Value> frames = {fftc::ir::Value::complexArray(
      std::vector<std::complex<double>>(static_cast<size_t>(row.batch * n)),
      fftc::ir::ScalarKind::Float, {row.batch, n})};
  Pointwise power(context,
                  kernelOf("kernel pow(y: [[complex]N]F) = map(map(fun c => re(c) * re(c) + "
                           "im(c) * im(c))) <<: y\n",
                           "pow.fdl", "pow", {{"N", n}, {"F", row.batch}}),
                  frames);
  cufftHandle plan = 0;
  int dims[] = {static_cast<int>(n)};
  checkCufft(cufftPlanMany(&plan, 1, dims, nullptr, 1, static_cast<int>(n), nullptr, 1,
                           static_cast<int>(n), CUFFT_C2C, static_cast<int>(row.batch)),
             "cufftPlanMany");
  auto* pw = reinterpret_cast<cufftComplex*>(window.output().pointer());
  auto* pp = reinterpret_cast<cufftComplex*>(power.input().pointer());
  auto pipeline = [&] {
    window.launch();
    checkCufft(cufftExecC2C(plan, pw, pp, CUFFT_FORWARD), "cufftExecC2C");
    power.launch();
  };
  pipeline();
  checkCuda(cudaDeviceSynchronize(), "the cuFFT pipeline");
  std::vector<float> p(static_cast<size_t>(row.batch * n));
  power.output().copyToHost(p.data(), p.size() * sizeof(float));
  const auto got = fftc.output.toRealVector();
  row.difference = relDifference(std::vector<std::complex<double>>(got.begin(), got.end()),
                                 std::vector<std::complex<double>>(p.begin(), p.end()));
  row.cufftMs = timeWithEvents(pipeline, o.warmup, o.repeat);
  cufftDestroy(plan);
  return row;
}

// conv2d: an M x M image convolved with a filter given by its spectrum H of the zero-padded
// 2M x 2M size (examples/conv2d.fdl, "same" output at offset 0), against what users do with
// cuFFT: the image copied into a 2M x 2M buffer whose padding is zero (cudaMemcpy2D; the zeros
// written once, outside the timing), a 2D forward transform, a pointwise kernel Y .* H /
// (4M^2), the 2D inverse in place, the M x M result cropped out (cudaMemcpy2D).
Row benchConv2d(const cu::Context& context, int64_t m, const Options& o) {
  Row row{"conv2d", m, 1};
  const int64_t p = 2 * m;  // the padded side
  const auto x = randomComplex(static_cast<size_t>(m * m), 5);
  const auto h = randomComplex(static_cast<size_t>(p * p), 6);
  std::vector<std::complex<double>> xd(x.begin(), x.end()), hd(h.begin(), h.end());
  const std::vector<fftc::ir::Value> in = {
      fftc::ir::Value::complexArray(xd, fftc::ir::ScalarKind::Float, {m, m}),
      fftc::ir::Value::complexArray(hd, fftc::ir::ScalarKind::Float, {p, p})};
  const auto fftc = runFftc(
      context, kernelOf("", o.examples + "/conv2d.fdl", "conv2d", {{"M", m}, {"N", m}}), in, o, row);
  row.fftcMs = fftc.totalMs;

  const std::vector<fftc::ir::Value> mulIn = {
      fftc::ir::Value::complexArray(std::vector<std::complex<double>>(static_cast<size_t>(p * p)),
                                    fftc::ir::ScalarKind::Float, {p, p}),
      in[1]};
  Pointwise mul(context,
                kernelOf("kernel mul(y: [[complex]P]P, H: [[complex]P]P) = map(fun (r, g) => "
                         "map(fun (a, s) => a * s * (1.0 / (P * P))) <<: zip(r, g)) <<: zip(y, H)\n",
                         "mul2d.fdl", "mul", {{"P", p}}),
                mulIn);
  const size_t rowBytes = static_cast<size_t>(m) * sizeof(C), padBytes = static_cast<size_t>(p) * sizeof(C);
  cu::DeviceBuffer dx = context.allocate(x.size() * sizeof(C));
  dx.copyFromHost(x.data(), x.size() * sizeof(C));
  cu::DeviceBuffer padded = context.allocate(static_cast<size_t>(p) * padBytes);
  cu::DeviceBuffer result = context.allocate(x.size() * sizeof(C));
  checkCuda(cudaMemset(reinterpret_cast<void*>(padded.pointer()), 0, static_cast<size_t>(p) * padBytes),
            "cudaMemset");
  cufftHandle plan = 0;
  checkCufft(cufftPlan2d(&plan, static_cast<int>(p), static_cast<int>(p), CUFFT_C2C), "cufftPlan2d");
  auto* pp = reinterpret_cast<cufftComplex*>(padded.pointer());
  auto* py = reinterpret_cast<cufftComplex*>(mul.input().pointer());
  auto* pout = reinterpret_cast<cufftComplex*>(mul.output().pointer());
  auto pipeline = [&] {
    checkCuda(cudaMemcpy2DAsync(pp, padBytes, reinterpret_cast<const void*>(dx.pointer()), rowBytes,
                                rowBytes, static_cast<size_t>(m), cudaMemcpyDeviceToDevice, nullptr),
              "cudaMemcpy2DAsync (pad)");
    checkCufft(cufftExecC2C(plan, pp, py, CUFFT_FORWARD), "cufftExecC2C");
    mul.launch();
    checkCufft(cufftExecC2C(plan, pout, pout, CUFFT_INVERSE), "cufftExecC2C");
    checkCuda(cudaMemcpy2DAsync(reinterpret_cast<void*>(result.pointer()), rowBytes, pout, padBytes,
                                rowBytes, static_cast<size_t>(m), cudaMemcpyDeviceToDevice, nullptr),
              "cudaMemcpy2DAsync (crop)");
  };
  pipeline();
  checkCuda(cudaDeviceSynchronize(), "the cuFFT pipeline");
  row.difference = relDifference(fftc.output.toComplexVector(), download(result, x.size()));
  row.cufftMs = timeWithEvents(pipeline, o.warmup, o.repeat);
  cufftDestroy(plan);
  return row;
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  po::options_description desc("pipeline_bench options");
  desc.add_options()("help", "this text")
      ("out", po::value(&o.out)->default_value(o.out), "the CSV file")
      ("device", po::value(&o.device)->default_value(o.device), "cuda:N")
      ("examples", po::value(&o.examples)->default_value(o.examples), "the examples folder")
      ("pipelines", po::value(&o.pipelines)->default_value(o.pipelines), "conv,stft,conv2d")
      ("log2-total", po::value(&o.log2Total)->default_value(o.log2Total),
       "log2 of the elements per run")
      ("conv-min", po::value(&o.convMin)->default_value(o.convMin),
       "conv's smallest N (a power of two from 256)")
      ("conv-max", po::value(&o.convMax)->default_value(o.convMax),
       "conv's largest N (from 256, doubling; above 8192 f32 the FFT takes several kernels)")
      ("warmup", po::value(&o.warmup)->default_value(o.warmup), "untimed runs")
      ("repeat", po::value(&o.repeat)->default_value(o.repeat), "timed runs (the median)")
      ("local-reuse", po::bool_switch(&o.localReuse),
       "fftc's kernels in one local array where a pass may share it (rows PIPELINE/one-array)")
      ("min-blocks", po::bool_switch(&o.minBlocks),
       "one-kernel programs built for as many blocks a multiprocessor as shared memory allows "
       "without spills (__launch_bounds__'s minimum; rows PIPELINE/min-blocks=B)")
      ("chain-radix", po::value(&o.chainRadix)->default_value(o.chainRadix),
       "the largest radix of the conv's forward and inverse FFT in one kernel (16: the plain "
       "FFT's radices; rows PIPELINE/chain-radix=R when not the default)")
      ("any-registers", po::bool_switch(&o.anyRegisters),
       "the conv's wider radices also where the planner's register estimate says they spill "
       "(rows PIPELINE/any-registers)")
      ("fft-ops", po::value(&o.fftOps),
       "the fft operations' plans as fftc tune records them (fftc exec --fft-ops JSON), in "
       "place of the planner's (rows PIPELINE/fft-ops; give one pipeline and N)");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return 0;
  }
  const cu::Context context = cu::Context::open(o.device);
  std::ofstream csv(o.out);
  csv << "device,pipeline,N,batch,fftc_stages,fftc_ms,cufft_pipeline_ms,speedup,difference,error\n";
  for (const std::string pipeline : {"conv", "stft", "conv2d"}) {
    if (o.pipelines.find(pipeline) == std::string::npos) continue;
    // conv2d: N is the image's side (padded to 2N)
    const int64_t last = pipeline == "conv" ? o.convMax : pipeline == "stft" ? 4096 : 1024;
    for (int64_t n = pipeline == "conv" ? o.convMin : 256; n <= last; n *= 2) {
      Row r{pipeline, n};
      try {
        r = pipeline == "conv"   ? benchConv(context, n, o)
            : pipeline == "stft" ? benchStft(context, n, o)
                                 : benchConv2d(context, n, o);
      } catch (const std::exception& e) {
        r.error = e.what();
        std::replace(r.error.begin(), r.error.end(), ',', ';');
        std::replace(r.error.begin(), r.error.end(), '\n', ' ');
      }
      const std::string line = fmt::format(
          "{},{}{}{}{}{}{},{},{},{},{:.4f},{:.4f},{:.2f},{:.2e},{}", context.device().name,
          r.pipeline, o.localReuse ? "/one-array" : "", o.anyRegisters ? "/any-registers" : "",
          o.fftOps.empty() ? "" : "/fft-ops",
          o.chainRadix != fl::kChainDefaultRadix ? fmt::format("/chain-radix={}", o.chainRadix)
                                                 : "",
          r.minBlocks > 0 ? fmt::format("/min-blocks={}", r.minBlocks) : "", r.n,
          r.batch, r.fftcStages, r.fftcMs, r.cufftMs, r.fftcMs > 0 ? r.cufftMs / r.fftcMs : 0.0,
          r.difference, r.error);
      csv << line << "\n" << std::flush;
      std::cout << line << "\n" << std::flush;
    }
  }
  return 0;
}
