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
#include "compiler/driver/fft_options.h"
#include "compiler/driver/options.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_api.h"
#ifdef FFTC_HAVE_CUDA
#include "fftlib/plan/cuda_plan.h"
#endif

namespace fftc::driver {
namespace {

namespace fl = fftlib;
namespace cl = backends::opencl;
#ifdef FFTC_HAVE_CUDA
namespace cu = backends::cuda;
#endif

}  // namespace

// FftOptions, addFftOptions and makeRequest are shared with fftc tune (fft_options.h).
void addFftOptions(po::options_description& desc, FftOptions& o, bool withOutput) {
  desc.add_options()
      ("size", po::value(&o.size)->required(),
       "the transform size: N, or NxM, NxMxK, NxMxKxL (outermost first, the last contiguous)")
      ("batch", po::value(&o.batch)->default_value(o.batch), "the number of transforms")
      ("precision", po::value(&o.precision)->default_value(o.precision), "f32 | f64")
      ("direction", po::value(&o.direction)->default_value(o.direction), "forward | inverse")
      ("scale", po::bool_switch(&o.scale), "multiply the result by 1/N (default: unnormalized)")
      ("real", po::bool_switch(&o.real),
       "a real transform: forward R2C (N reals -> N/2+1 complex on the last dimension), "
       "inverse C2R")
      ("variant", po::value(&o.variant)->default_value(o.variant),
       "auto | local | stockham | twiddle | cooley-tukey | hierarchical | bluestein")
      ("radices", po::value(&o.radices),
       "R1,R2,...: the radix list (product N; bluestein: product M >= 2N-1)")
      ("target", po::value(&o.target)->default_value(o.target), "opencl | cuda")
      ("rewrite", po::value(&o.rewrite),
       "rewrite strategy (default lowerFft; lowerDefault when it fails)")
      ("wisdom", po::value(&o.wisdom),
       "wisdom file of fftc tune (default: $FFTC_WISDOM, else ~/.cache/fftc/wisdom.json)");
  if (withOutput)
    desc.add_options()(",o", po::value(&o.outDir)->default_value(o.outDir), "output directory");
}

static int64_t parseInteger(const std::string& text, const char* what) {
  if (text.empty() || text.size() > 18 ||
      !std::all_of(text.begin(), text.end(), [](unsigned char c) { return std::isdigit(c); }))
    throw backends::UserError(fmt::format("{} '{}': expected a positive integer", what, text));
  return std::stoll(text);
}

fl::FftRequest makeRequest(const FftOptions& o) {
  fl::FftRequest r;
  // N or NxM[xK[xL]]: the dimensions outermost first, the last contiguous (CLI.md)
  std::string rest = o.size;
  for (size_t x; (x = rest.find_first_of("xX")) != std::string::npos; rest = rest.substr(x + 1))
    r.dims.push_back(parseInteger(rest.substr(0, x), "--size"));
  r.dims.push_back(parseInteger(rest, "--size"));
  r.size = 1;
  for (int64_t d : r.dims) r.size = d > 0 && r.size <= (int64_t{1} << 40) / d ? r.size * d : 0;
  if (r.size < 1)
    throw backends::UserError(fmt::format("--size {}: dimensions must be at least 1 and their "
                                          "product at most 2^40", o.size));
  if (r.dims.size() == 1) r.dims.clear();
  r.batch = o.batch;
  r.precision = fl::parsePrecision(o.precision);
  r.direction = fl::parseDirection(o.direction);
  r.scale = o.scale;
  r.real = o.real;
  r.variant = fl::parseVariant(o.variant);
  for (const auto& t : splitList(o.radices)) r.radices.push_back(parseInteger(t, "--radices"));
  r.target = parseTarget(o.target);
  r.strategy = o.rewrite;
  return r;
}

namespace {

boost::json::array toJsonArray(const std::vector<int64_t>& v) {
  boost::json::array a;
  for (int64_t x : v) a.emplace_back(x);
  return a;
}

struct Measured {
  double timeMs = 0;
  double l2 = 0, linf = 0;
};

// The errors of `y` against FFTW's unnormalized `ref`, scaled by 1/N when the plan scales.
template <typename T>
void compare(Measured& m, const std::vector<std::complex<T>>& y, std::vector<fl::ComplexL> ref,
             const fl::FftRequest& r) {
  if (r.scale)
    for (auto& v : ref) v /= static_cast<long double>(r.size);
  m.l2 = fl::l2Error(std::span<const std::complex<T>>(y), ref);
  m.linf = fl::linfError(std::span<const std::complex<T>>(y), ref);
}

// One checked execution (against FFTW in long double) and the median of the timed ones, on
// either runtime (Plan / CudaPlan with its context).
template <typename T, typename PlanT, typename ContextT>
Measured runAndCheck(const PlanT& plan, const ContextT& context, uint64_t seed, bool check,
                     int warmup, int repeat) {
  const auto& r = plan.request();
  auto input = fftlib::uniformInput<T>(plan.elements(), seed);
  auto in = fl::upload(context, std::span<const std::complex<T>>(input));
  auto out = fl::allocate(context, plan.bufferBytes());
  Measured m;
  if (check) {
    plan.execute(in, out);
    std::vector<std::complex<T>> y(plan.elements());
    fl::download(context, out, std::span<std::complex<T>>(y));
    compare(m, y,
            fl::referenceDft(fl::toLongDouble(std::span<const std::complex<T>>(input)),
                             fl::requestDims(r), r.batch, r.direction),
            r);
  }
  m.timeMs = fl::median(plan.time(in, out, static_cast<size_t>(warmup), static_cast<size_t>(repeat)));
  return m;
}

#ifdef FFTC_HAVE_CUDA
// The CUDA context; a missing or broken driver is one line (its loader detail is dropped: the
// message already says what is missing).
cu::Context openCuda(const std::string& selector) {
  try {
    return cu::Context::open(selector);
  } catch (const backends::DeviceError& e) {
    throw backends::DeviceError(e.what());
  }
}
#endif

// A real plan (OpenCL): R2C on real inputs uniform in [-0.5, 0.5) against FFTW's r2c; C2R on
// the half spectrum FFTW's r2c makes of such inputs (rounded to T) against FFTW's c2r of it.
template <typename T>
Measured runAndCheckReal(const fl::Plan& plan, const cl::Context& context, uint64_t seed,
                         bool check, int warmup, int repeat) {
  const auto& r = plan.request();
  const auto dims = fl::requestDims(r);
  std::vector<T> reals;
  for (const auto& c : fl::uniformInput<T>(static_cast<size_t>(r.size * r.batch + 1) / 2, seed)) {
    reals.push_back(c.real());
    reals.push_back(c.imag());
  }
  reals.resize(static_cast<size_t>(r.size * r.batch));
  std::vector<long double> realsL(reals.begin(), reals.end());
  std::vector<std::complex<T>> spectrum;
  for (const auto& v : fl::referenceR2c(realsL, dims, r.batch))
    spectrum.emplace_back(static_cast<T>(v.real()), static_cast<T>(v.imag()));
  const bool r2c = r.direction == fl::Direction::Forward;
  cl::Buffer in = r2c ? cl::Buffer::from(context, std::span<const T>(reals))
                      : cl::Buffer::from(context, std::span<const std::complex<T>>(spectrum));
  cl::Buffer out(context, plan.outputBytes());
  Measured m;
  if (check) {
    plan.execute(in, out);
    std::vector<std::complex<T>> y;
    std::vector<fl::ComplexL> ref;
    if (r2c) {
      y.resize(spectrum.size());
      out.read(context, std::span<std::complex<T>>(y));
      ref = fl::referenceR2c(realsL, dims, r.batch);
    } else {
      std::vector<T> yr(reals.size());
      out.read(context, std::span<T>(yr));
      y.assign(yr.begin(), yr.end());
      for (long double v : fl::referenceC2r(fl::toLongDouble(std::span<const std::complex<T>>(
                                                spectrum)),
                                            dims, r.batch))
        ref.emplace_back(v);
    }
    compare(m, y, std::move(ref), r);
  }
  m.timeMs = fl::median(plan.time(in, out, static_cast<size_t>(warmup), static_cast<size_t>(repeat)));
  return m;
}

// Creates the plan on `context` and measures it.
template <typename PlanT, typename ContextT>
Measured measureOn(const ContextT& context, const fl::FftRequest& request, uint64_t seed,
                   bool check, int warmup, int repeat) {
  auto plan = PlanT::create(context, request);
  return request.precision == fl::Precision::F64
             ? runAndCheck<double>(plan, context, seed, check, warmup, repeat)
             : runAndCheck<float>(plan, context, seed, check, warmup, repeat);
}

}  // namespace

int runFft(const Args& args) {
  FftOptions o;
  std::string device;
  po::options_description desc("fftc fft options");
  addFftOptions(desc, o, true);
  desc.add_options()("device", po::value(&device),
                     "the OpenCL device whose wisdom applies (default as for run)");
  po::variables_map vm;
  if (!parseOptions(args, "fftc fft --size N [options]", desc, nullptr, vm)) return kSuccess;
  auto request = makeRequest(o);
  std::string wisdomNote;
  if (request.target == Target::OpenCL)  // wisdom names the device: the one run would pick
    wisdomNote = useWisdom(o.wisdom, request,
                           [&] { return fl::tune::openClIdentity(cl::selectDevice(device)); });
  auto plan = fl::planFft(request);
  emitFiles(plan->compiled, {"source", "manifest", "header"}, o.outDir,
            request.target == Target::Cuda);
  fmt::print("{}", plan->describe());
  if (!wisdomNote.empty()) fmt::print("{}\n", wisdomNote);
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
      ("device", po::value(&device),
       "opencl:P:D, opencl:NAME or cuda:N (default: cuda:0 for --target cuda; else the first "
       "OpenCL GPU, else the first OpenCL device)")
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
  if (repeat < 1 || warmup < 0)
    throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");

  Measured m;
  std::string deviceName, wisdomNote;
  if (request.real && request.target == Target::Cuda)
    throw backends::UserError("run --real --target cuda: real transforms run through OpenCL only "
                              "yet (fftc fft --real --target cuda emits the kernels)");
  if (request.target == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
    auto context = openCuda(device.empty() ? "cuda:0" : device);
    deviceName = context.device().name;
    wisdomNote = useWisdom(o.wisdom, request,
                           [&] { return fl::tune::CudaExecutor(context).identity(); });
    m = measureOn<fl::CudaPlan>(context, request, seed, check, warmup, repeat);
#else
    throw backends::UserError("run --target cuda: this fftc was built without CUDA "
                              "(the CUDA toolkit headers were not found)");
#endif
  } else {
    auto context = cl::Context::fromSelector(device);
    deviceName = context.device().name;
    wisdomNote = useWisdom(o.wisdom, request,
                           [&] { return fl::tune::openClIdentity(context.device()); });
    if (request.real) {
      auto plan = fl::Plan::create(context, request);
      m = request.precision == fl::Precision::F64
              ? runAndCheckReal<double>(plan, context, seed, check, warmup, repeat)
              : runAndCheckReal<float>(plan, context, seed, check, warmup, repeat);
    } else {
      m = measureOn<fl::Plan>(context, request, seed, check, warmup, repeat);
    }
  }
  const auto plan = fl::planFft(request);  // the plan just run (from the in-process cache)
  const auto& info = *plan;
  const double seconds = m.timeMs * 1e-3;
  const double gflops = seconds > 0 ? info.flopsPerBatch() / seconds * 1e-9 : 0;
  const double gbps = seconds > 0 ? static_cast<double>(info.bytesMoved) / seconds * 1e-9 : 0;
  const double tolerance = fl::fftTolerance(request.size, request.precision);

  if (json) {
    boost::json::object r;
    r["size"] = toJsonArray(fl::requestDims(request));
    r["batch"] = request.batch;
    r["precision"] = fl::precisionName(request.precision);
    r["direction"] = fl::directionName(request.direction);
    if (request.real) r["real"] = true;  // R2C (forward) or C2R (inverse)
    r["target"] = compiler::pipeline::targetName(request.target);
    r["device"] = deviceName;
    r["variant"] = fl::variantName(info.choice.variant);
    r["radices"] = toJsonArray(info.choice.radices);
    r["workgroup_size"] = request.workgroupSize;  // 0: the planner chose
    r["ffts_per_group"] = request.fftsPerGroup;
    r["wisdom"] = !wisdomNote.empty();
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
    if (!wisdomNote.empty()) fmt::print("{}\n", wisdomNote);
    fmt::print("device: {}\n", deviceName);
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
