// fftc fft: an FFT from the FFT library's .fdl programs, planned, compiled and emitted (kernels,
// manifest, tables, header) with the plan printed; fftc run: the same FFT run on a device,
// timed, and with --check measured against FFTW in long double (CLI.md, docs/fft-api.md).
#include <algorithm>
#include <boost/json.hpp>
#include <cctype>
#include <cmath>
#include <complex>
#include <fmt/format.h>
#include <random>

#include "backends/common/device_error.h"
#include "compiler/driver/commands.h"
#include "compiler/driver/emit.h"
#include "compiler/driver/options.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/fft_api.h"

namespace fftc::driver {
namespace {

namespace fl = fftlib;
namespace cl = backends::opencl;

struct FftOptions {
  std::string size, precision = "f32", direction = "forward", variant = "auto", radices,
                    target = "opencl", wisdom, rewrite, outDir = ".";
  int64_t batch = 1;
  bool scale = false;
};

void addFftOptions(po::options_description& desc, FftOptions& o, bool withOutput) {
  desc.add_options()
      ("size", po::value(&o.size)->required(), "the transform size N (NxM: not yet, issue 7)")
      ("batch", po::value(&o.batch)->default_value(o.batch), "the number of transforms")
      ("precision", po::value(&o.precision)->default_value(o.precision), "f32 | f64")
      ("direction", po::value(&o.direction)->default_value(o.direction), "forward | inverse")
      ("scale", po::bool_switch(&o.scale), "multiply the result by 1/N (default: unnormalized)")
      ("variant", po::value(&o.variant)->default_value(o.variant),
       "auto | stockham | twiddle | cooley-tukey | hierarchical | bluestein")
      ("radices", po::value(&o.radices),
       "R1,R2,...: the radix list (product N; bluestein: product M >= 2N-1)")
      ("target", po::value(&o.target)->default_value(o.target), "opencl | cuda")
      ("rewrite", po::value(&o.rewrite),
       "rewrite strategy (default lowerFft; lowerDefault when it fails)")
      ("wisdom", po::value(&o.wisdom), "wisdom file (not read yet: the tuner has not landed)");
  if (withOutput)
    desc.add_options()(",o", po::value(&o.outDir)->default_value(o.outDir), "output directory");
}

int64_t parseInteger(const std::string& text, const char* what) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw backends::UserError(fmt::format("{} '{}': expected a positive integer", what, text));
  return std::stoll(text);
}

fl::FftRequest makeRequest(const FftOptions& o) {
  if (o.size.find_first_of("xX") != std::string::npos)
    throw backends::UserError(fmt::format(
        "--size {}: multi-dimensional FFTs are not supported yet (issue 7); give one size N",
        o.size));
  fl::FftRequest r;
  r.size = parseInteger(o.size, "--size");
  r.batch = o.batch;
  r.precision = fl::parsePrecision(o.precision);
  r.direction = fl::parseDirection(o.direction);
  r.scale = o.scale;
  r.variant = fl::parseVariant(o.variant);
  for (const auto& t : splitList(o.radices)) r.radices.push_back(parseInteger(t, "--radices"));
  r.target = parseTarget(o.target);
  r.strategy = o.rewrite;
  if (!o.wisdom.empty())
    fmt::print(stderr, "fftc: note: --wisdom is not read yet (the tuner has not landed); the "
                       "planner's heuristics decide\n");
  return r;
}

boost::json::array toJsonArray(const std::vector<int64_t>& v) {
  boost::json::array a;
  for (int64_t x : v) a.emplace_back(x);
  return a;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  size_t m = v.size() / 2;
  return v.size() % 2 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}


struct Measured {
  double timeMs = 0;
  double l2 = 0, linf = 0;
};

template <typename T>
Measured runAndCheck(const fl::Plan& plan, const cl::Context& context, uint64_t seed, bool check,
                     int warmup, int repeat) {
  const auto& r = plan.request();
  auto input = fftlib::uniformInput<T>(plan.elements(), seed);
  auto in = cl::Buffer::from(context, std::span<const std::complex<T>>(input));
  cl::Buffer out(context, plan.bufferBytes());
  Measured m;
  if (check) {
    plan.execute(in, out);
    std::vector<std::complex<T>> y(plan.elements());
    out.read(context, std::span<std::complex<T>>(y));
    auto ref = fl::referenceDft1d(fl::toLongDouble(std::span<const std::complex<T>>(input)),
                                  r.size, r.batch, r.direction);
    if (r.scale)
      for (auto& v : ref) v /= static_cast<long double>(r.size);
    m.l2 = fl::l2Error(std::span<const std::complex<T>>(y), ref);
    m.linf = fl::linfError(std::span<const std::complex<T>>(y), ref);
  }
  m.timeMs = median(plan.time(in, out, static_cast<size_t>(warmup), static_cast<size_t>(repeat)));
  return m;
}

}  // namespace

int runFft(const Args& args) {
  FftOptions o;
  po::options_description desc("fftc fft options");
  addFftOptions(desc, o, true);
  po::variables_map vm;
  if (!parseOptions(args, "fftc fft --size N [options]", desc, nullptr, vm)) return kSuccess;
  auto request = makeRequest(o);
  auto plan = fl::planFft(request);
  emitFiles(plan->compiled, {"source", "manifest", "header"}, o.outDir,
            request.target == Target::Cuda);
  fmt::print("{}", plan->describe());
  fmt::print("wrote {} in {}\n", plan->compiled.name + (request.target == Target::Cuda ? ".cu" : ".cl") +
                                     ", .json, .hpp",
             o.outDir);
  return kSuccess;
}

int runRun(const Args& args) {
  FftOptions o;
  std::string device;
  bool check = false, json = false;
  int repeat = 20, warmup = 5;
  uint64_t seed = 1;
  po::options_description desc("fftc run options");
  addFftOptions(desc, o, false);
  desc.add_options()
      ("device", po::value(&device), "opencl:P:D or opencl:NAME (default: first GPU, else first device)")
      ("check", po::bool_switch(&check),
       "compare with FFTW in long double; exit 3 above the tolerance")
      ("repeat", po::value(&repeat)->default_value(repeat), "timed runs (the median is reported)")
      ("warmup", po::value(&warmup)->default_value(warmup), "untimed runs first")
      ("seed", po::value(&seed)->default_value(seed), "seed of the random inputs")
      ("json", po::bool_switch(&json), "print the report as one JSON object");
  po::variables_map vm;
  if (!parseOptions(args, "fftc run --size N [options]", desc, nullptr, vm)) return kSuccess;
  auto request = makeRequest(o);
  request.format = false;  // nothing is written: skip the layout of the source (faster)
  if (request.target == Target::Cuda)
    throw backends::UserError("run --target cuda: running FFTs through CUDA has not landed yet; "
                              "use --target opencl (fftc fft --target cuda emits the kernels)");
  if (repeat < 1 || warmup < 0)
    throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");

  auto context = cl::Context::fromSelector(device);
  auto plan = fl::Plan::create(context, request);
  const auto& info = plan.info();
  Measured m = request.precision == fl::Precision::F64
                   ? runAndCheck<double>(plan, context, seed, check, warmup, repeat)
                   : runAndCheck<float>(plan, context, seed, check, warmup, repeat);
  const double seconds = m.timeMs * 1e-3;
  const double gflops = seconds > 0 ? info.flopsPerBatch() / seconds * 1e-9 : 0;
  const double gbps = seconds > 0 ? static_cast<double>(info.bytesMoved) / seconds * 1e-9 : 0;
  const double tolerance = fl::fftTolerance(request.size, request.precision);

  if (json) {
    boost::json::object r;
    r["size"] = boost::json::array{request.size};
    r["batch"] = request.batch;
    r["precision"] = fl::precisionName(request.precision);
    r["direction"] = fl::directionName(request.direction);
    r["target"] = compiler::pipeline::targetName(request.target);
    r["device"] = context.device().name;
    r["variant"] = fl::variantName(info.choice.variant);
    r["radices"] = toJsonArray(info.choice.radices);
    r["stages"] = info.stages.size();
    r["time_ms"] = m.timeMs;
    r["gflops"] = gflops;
    r["gbps"] = gbps;
    if (check) {
      r["l2_error"] = m.l2;
      r["linf_error"] = m.linf;
    } else {
      r["l2_error"] = nullptr;
      r["linf_error"] = nullptr;
    }
    fmt::print("{}\n", boost::json::serialize(r));
  } else {
    fmt::print("{}", info.describe());
    fmt::print("device: {}\n", context.device().name);
    fmt::print("time per batched transform: {:.4f} ms (median of {} after {} warm-up), "
               "{:.2f} GFLOP/s, {:.2f} GB/s\n",
               m.timeMs, repeat, warmup, gflops, gbps);
    if (check)
      fmt::print("error against FFTW (long double): l2 {:.3g}, linf {:.3g} (tolerance {:.3g}): {}\n",
                 m.l2, m.linf, tolerance, m.linf <= tolerance ? "ok" : "FAILED");
  }
  if (check && !(m.linf <= tolerance))
    throw CheckFailed(fmt::format("{}: linf_error {:.3g} above the tolerance {:.3g}",
                                  info.compiled.name, m.linf, tolerance));
  return kSuccess;
}

}  // namespace fftc::driver
