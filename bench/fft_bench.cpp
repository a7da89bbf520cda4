// fft_bench: fftc's FFTs against cuFFT on one GPU, measured as PERFORMANCE.md says: fftc on the
// CUDA target (and on the OpenCL target when an OpenCL GPU is present) and cuFFT in one
// process on the same device and input; C2C forward; batch so the total is 2^26 (f32) or 2^25
// (f64) complex elements; CUDA events (OpenCL profiling events), median of >= 20 runs after 5
// warm-ups; a device-to-device copy measured in the same run; every fftc result (and cuFFT's)
// checked against FFTW in long double on the first rows of the batch. One CSV row per target,
// precision and size; a plan that fails is a row with an `error`, never the end of the run.
// bench/README.md says how to build, run and plot.
#include <cuda_runtime.h>
#include <cufft.h>
#include <unistd.h>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "backends/common/device_error.h"
#include "backends/cuda/context.h"
#include "backends/opencl/runtime.h"
#include "fftlib/fftw_reference.h"
#include "bench/cuda_runtime_timing.h"
#include "fftlib/plan/cuda_plan.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_api.h"

namespace {

namespace fl = fftc::fftlib;
namespace cu = fftc::backends::cuda;
namespace cl = fftc::backends::opencl;
namespace po = boost::program_options;
using fftc::compiler::pipeline::Target;

struct Options {
  std::string out = "fft_bench.csv";
  std::string sizes = "all";
  std::string precisions = "f32,f64";
  std::string targets = "cuda,opencl";
  std::string cudaDevice = "cuda:0";
  std::string openclDevice;  // empty: the first OpenCL GPU, if any
  int warmup = 5;
  int repeat = 20;
  int log2Total32 = 26;
  int log2Total64 = 25;
  std::size_t checkElements = std::size_t{1} << 18;
  double maxSeconds = 2.0;
  bool append = false;
  bool list = false;  // print the sizes --sizes names, one a line, and exit
  int64_t localMemory = 0;  // FftRequest::localMemoryBytes (0: the plan's default)
  int64_t minBlocks = 0;    // FftRequest::minBlocksPerSm (0: the plan's default)
  int64_t fftsPerGroup = 0; // FftRequest::fftsPerGroup (0: the plan's default)
  // The plan and kernel caches of the run (FFTC_CACHE_DIR); empty: a new directory of this
  // process, removed at the end, so that the first plan of each request is cold.
  std::string cacheDir;
};

// ---- sizes

// 3-, 5-, 7-smooth sizes, and with factors 11 and 13 (radices of their own since issue 23):
// 11 and 13 alone, times powers of two, of 3 and of each other, up to 11^4 and 13^4.
const std::vector<int64_t> kSmooth = {
    11,    12,    13,   15,   22,    26,    27,    49,    60,     81,      100,
    121,   143,   169,  243,  343,   352,   625,   1000,  1001,   1287,    1331,
    2197,  2401,  3125, 6561, 6656,  8448,  10000, 14641, 16807,  20449,   28561,
    39366, 87808, 100000, 1000000};
// Primes, small to above 2^17, and the largest below 10^6: by Rader in one kernel where N - 1
// is 29-smooth and fits (31, 61, 127, 257, 401, 1009, 1601 f32), else by Bluestein.
const std::vector<int64_t> kPrimes = {17,   31,   61,    127,   257,    401,    1009,
                                      1601, 4099, 8191, 65521, 131071, 524287, 999983};

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : text + ",") {
    if (c == ',') {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  return out;
}

// One benchmark size: N, or the dimensions of an N-D transform (NxMxK, outermost first).
struct Size {
  std::vector<int64_t> dims;
  int64_t n = 1;  // their product
  std::string text() const { return fmt::format("{}", fmt::join(dims, "x")); }
};

// The group `random[:SEED[:COUNT[:LO-HI]]]`: COUNT sizes (default 12) drawn with SEED (default
// 1) log-uniformly from [LO, HI] (default [16, 2^20]), distinct and in the order drawn, so that
// no plan is tuned to a fixed list and a run can be repeated exactly.
std::vector<int64_t> randomSizes(const std::string& spec) {
  uint64_t seed = 1;
  int64_t count = 12, lo = 16, hi = int64_t{1} << 20;
  const auto parts = [&] {
    std::vector<std::string> out;
    std::string cur;
    for (char c : spec + ":") {
      if (c == ':') {
        out.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    return out;
  }();
  auto bad = [&]() -> int64_t {
    throw fftc::backends::UserError(
        fmt::format("--sizes: '{}': expected random[:SEED[:COUNT[:LO-HI]]]", spec));
  };
  auto number = [&](const std::string& t) {
    try {
      std::size_t used = 0;
      const long long v = std::stoll(t, &used);
      if (used == t.size() && v >= 0) return static_cast<int64_t>(v);
    } catch (const std::exception&) {
    }
    return bad();
  };
  if (parts.size() > 4) bad();
  if (parts.size() > 1) seed = static_cast<uint64_t>(number(parts[1]));
  if (parts.size() > 2) count = number(parts[2]);
  if (parts.size() > 3) {
    const auto dash = parts[3].find('-');
    if (dash == std::string::npos) bad();
    lo = number(parts[3].substr(0, dash));
    hi = number(parts[3].substr(dash + 1));
  }
  if (lo < 2 || hi < lo || count < 1 || count > hi - lo + 1) bad();
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> logN(std::log(static_cast<double>(lo)),
                                              std::log(static_cast<double>(hi) + 1));
  std::vector<int64_t> out;
  while (static_cast<int64_t>(out.size()) < count) {
    const int64_t n = std::clamp(static_cast<int64_t>(std::exp(logN(gen))), lo, hi);
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  return out;
}

// "all" (pow2, smooth, primes, random), the groups, numbers and NxM[xK..] sizes, comma-separated,
// in order.
std::vector<Size> sizeList(const std::string& spec) {
  std::vector<Size> out;
  auto one = [&](int64_t n) { out.push_back({{n}, n}); };
  for (const auto& t : split(spec)) {
    const bool random = t == "random" || t.starts_with("random:");
    if (t == "pow2" || t == "all")
      for (int k = 3; k <= 24; ++k) one(int64_t{1} << k);
    if (t == "smooth" || t == "all")
      for (int64_t n : kSmooth) one(n);
    if (t == "primes" || t == "all")
      for (int64_t n : kPrimes) one(n);
    if (random || t == "all")
      for (int64_t n : randomSizes(random ? t : "random")) one(n);
    if (t != "pow2" && t != "all" && t != "smooth" && t != "primes" && !random) {
      Size sz;
      sz.dims = fl::parseDims(t, "--sizes");
      for (int64_t n : sz.dims) sz.n *= n;
      out.push_back(sz);
    }
  }
  return out;
}

// ---- one CSV row

struct Row {
  std::string device, date, target, precision;
  std::string n;  // N, or NxMxK
  int64_t batch = 0;
  std::string variant, radices, strategy;
  int64_t stages = 0;
  std::optional<double> fftcMs, cufftMs, fftcGbps, cufftGbps, fftcLinf, fftcL2, cufftLinf;
  double copyGbps = 0, tolerance = 0;
  double planMs = 0;      // cold: planned, generated and compiled for the device
  double planWarmMs = 0;  // the same request again from the disk caches (plan, binaries)
  bool checked = false, ok = false;
  std::string error;
};

const char* kHeader =
    "device,date,target,precision,N,batch,variant,radices,strategy,stages,fftc_ms,cufft_ms,"
    "ratio,fftc_gbps,cufft_gbps,copy_gbps,fftc_copy_share,fftc_linf_error,fftc_l2_error,"
    "cufft_linf_error,tolerance,check,plan_ms,plan_warm_ms,error";

std::string num(const std::optional<double>& v) {
  return v ? fmt::format("{:.6g}", *v) : "";
}

// Quoted, and without commas, quotes or newlines, so that plain `awk -F,` splits the rows.
std::string csvText(std::string s) {
  std::replace(s.begin(), s.end(), '\n', ' ');
  std::replace(s.begin(), s.end(), '"', '\'');
  std::replace(s.begin(), s.end(), ',', ';');
  return "\"" + s + "\"";
}

std::string csvLine(const Row& r) {
  std::optional<double> ratio, share;
  if (r.fftcMs && r.cufftMs && *r.cufftMs > 0) ratio = *r.fftcMs / *r.cufftMs;
  if (r.fftcGbps && r.copyGbps > 0) share = *r.fftcGbps / r.copyGbps;
  return fmt::format(
      "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{:.6g},{},{},{},{},{:.3g},{},{:.1f},{:.2f},{}",
      csvText(r.device), r.date, r.target, r.precision, r.n, r.batch, r.variant, r.radices,
      r.strategy, r.stages, num(r.fftcMs), num(r.cufftMs), num(ratio), num(r.fftcGbps),
      num(r.cufftGbps), r.copyGbps, num(share), num(r.fftcLinf), num(r.fftcL2), num(r.cufftLinf),
      r.tolerance, !r.checked ? "" : (r.ok ? "ok" : "FAILED"), r.planMs, r.planWarmMs,
      csvText(r.error));
}

std::string today() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[16];
  std::strftime(buf, sizeof buf, "%Y-%m-%d", &tm);
  return buf;
}

// ---- the CUDA runtime API (cuFFT, the copy): bench/cuda_runtime_timing.h

using fftc::bench::checkCuda;
using fftc::bench::checkCufft;
using fftc::bench::timeWithEvents;

// Device-to-device cudaMemcpy of `bytes`: GB/s counting bytes read and written.
double copyBandwidth(const cu::Context& context, std::size_t bytes, const Options& o) {
  cu::DeviceBuffer a = context.allocate(bytes), b = context.allocate(bytes);
  a.fillZero();
  auto* src = reinterpret_cast<void*>(a.pointer());
  auto* dst = reinterpret_cast<void*>(b.pointer());
  const double ms = timeWithEvents(
      [&] {
        checkCuda(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, nullptr),
                  "cudaMemcpyAsync");
      },
      o.warmup, o.repeat);
  return 2.0 * static_cast<double>(bytes) / (ms * 1e6);
}

template <typename T>
struct Cufft;
template <>
struct Cufft<float> {
  static constexpr cufftType kType = CUFFT_C2C;
  static cufftResult exec(cufftHandle p, void* in, void* out) {
    return cufftExecC2C(p, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out),
                        CUFFT_FORWARD);
  }
};
template <>
struct Cufft<double> {
  static constexpr cufftType kType = CUFFT_Z2Z;
  static cufftResult exec(cufftHandle p, void* in, void* out) {
    return cufftExecZ2Z(p, static_cast<cufftDoubleComplex*>(in),
                        static_cast<cufftDoubleComplex*>(out), CUFFT_FORWARD);
  }
};

// ---- device buffers of each runtime

template <typename T>
void put(const cu::Context&, cu::DeviceBuffer& b, const std::vector<std::complex<T>>& x) {
  b.copyFromHost(x.data(), x.size() * sizeof(x[0]));
}
void clear(const cu::Context&, cu::DeviceBuffer& b) {
  b.fillZero();
}
template <typename T>
void head(const cu::Context&, const cu::DeviceBuffer& b, std::vector<std::complex<T>>& y) {
  b.copyToHost(y.data(), y.size() * sizeof(y[0]));
}
template <typename T>
void put(const cl::Context& c, cl::Buffer& b, const std::vector<std::complex<T>>& x) {
  b.writeBytes(c, x.data(), x.size() * sizeof(x[0]));
}
void clear(const cl::Context& c, cl::Buffer& b) {
  b.zero(c);
}
template <typename T>
void head(const cl::Context& c, const cl::Buffer& b, std::vector<std::complex<T>>& y) {
  b.readBytes(c, y.data(), y.size() * sizeof(y[0]));
}

// One size and precision: the input, its reference on the first rows, and cuFFT's time.
template <typename T>
struct Case {
  int64_t n = 0, batch = 0, rows = 0;
  std::vector<int64_t> dims;  // {n} for 1D
  std::vector<std::complex<T>> x;
  std::vector<fl::ComplexL> ref;  // the first `rows` transforms
  double tolerance = 0;
  fl::Precision precision = fl::Precision::F32;
};

template <typename T>
void checkRows(const Case<T>& c, const std::vector<std::complex<T>>& y, Row& r) {
  r.fftcLinf = fl::linfError(std::span<const std::complex<T>>(y), c.ref);
  r.fftcL2 = fl::l2Error(std::span<const std::complex<T>>(y), c.ref);
  r.checked = true;
  r.ok = *r.fftcLinf <= c.tolerance;
}

// fftc on one runtime: plan + compile (timed apart), one run to catch hopeless cases, the check
// on the first rows, then the timing. Any failure ends up in r.error.
template <typename PlanT, typename T, typename ContextT, typename BufferT>
void benchFftc(const ContextT& context, BufferT& in, BufferT& out, fl::FftRequest request,
               const Case<T>& c, const Options& o, Row& r) {
  try {
    auto since = [](std::chrono::steady_clock::time_point t0) {
      return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
          .count();
    };
    auto t0 = std::chrono::steady_clock::now();
    {
      const PlanT cold = PlanT::create(context, request);  // nothing of it cached yet
      r.planMs = since(t0);
    }
    // Warm: the in-process plan cache cleared, so the plan comes from the disk plan cache and
    // the device binary from its cache, as in a second process.
    fl::clearPlanCache();
    t0 = std::chrono::steady_clock::now();
    PlanT plan = PlanT::create(context, request);
    r.planWarmMs = since(t0);
    const auto& info = plan.info();
    r.variant = fl::variantName(info.choice.variant);
    r.radices = fmt::format("{}", fmt::join(info.choice.radices, "x"));
    r.strategy = info.strategy;
    r.stages = static_cast<int64_t>(info.stages.size());
    put(context, in, c.x);
    clear(context, out);  // a plan that writes nothing must not pass on cuFFT's output
    const double once = plan.time(in, out, 0, 1).front();
    std::vector<std::complex<T>> y(static_cast<std::size_t>(c.rows * c.n));
    head(context, out, y);
    checkRows(c, y, r);
    if (once > o.maxSeconds * 1e3) {
      r.fftcMs = once;
      r.error = fmt::format("one run took {:.0f} ms (over --max-seconds): not repeated", once);
    } else {
      r.fftcMs = fl::median(plan.time(in, out, static_cast<std::size_t>(o.warmup),
                                  static_cast<std::size_t>(o.repeat)));
    }
    r.fftcGbps = static_cast<double>(info.bytesMoved) / (*r.fftcMs * 1e6);
  } catch (const std::exception& e) {
    r.error = e.what();
  }
}

struct Devices {
  const cu::Context* cuda = nullptr;
  const cl::Context* opencl = nullptr;
  std::string name;
  double copyGbps = 0;
};

template <typename T>
void benchSize(const Size& size, const Devices& d, const Options& o, std::ofstream& csv) {
  const int64_t n = size.n;
  Case<T> c;
  c.precision = sizeof(T) == 8 ? fl::Precision::F64 : fl::Precision::F32;
  const int64_t total = int64_t{1} << (sizeof(T) == 8 ? o.log2Total64 : o.log2Total32);
  c.n = n;
  c.dims = size.dims;
  c.batch = std::max<int64_t>(1, total / n);
  c.rows = std::clamp<int64_t>(static_cast<int64_t>(o.checkElements) / n, 1, c.batch);
  c.tolerance = fl::fftTolerance(n, c.precision);
  const std::size_t elements = static_cast<std::size_t>(n * c.batch);
  const std::size_t bytes = elements * sizeof(std::complex<T>);
  c.x = fl::uniformInput<T>(elements, static_cast<uint64_t>(n));
  c.ref = fl::referenceDft(fl::toLongDouble(std::span<const std::complex<T>>(
                               c.x.data(), static_cast<std::size_t>(c.rows * n))),
                           c.dims, c.rows, fl::Direction::Forward);

  Row base;
  base.device = d.name;
  base.date = today();
  base.precision = fl::precisionName(c.precision);
  base.n = size.text();
  base.batch = c.batch;
  base.copyGbps = d.copyGbps;
  base.tolerance = c.tolerance;

  cu::DeviceBuffer in = d.cuda->allocate(bytes), out = d.cuda->allocate(bytes);
  std::string cufftError;
  try {  // cuFFT on the same buffers
    put(*d.cuda, in, c.x);
    cufftHandle plan = 0;
    std::vector<int> cdims(c.dims.begin(), c.dims.end());
    checkCufft(cufftPlanMany(&plan, static_cast<int>(cdims.size()), cdims.data(), nullptr, 1,
                             static_cast<int>(n), nullptr, 1, static_cast<int>(n), Cufft<T>::kType,
                             static_cast<int>(c.batch)),
               "cufftPlanMany");
    auto* pin = reinterpret_cast<void*>(in.pointer());
    auto* pout = reinterpret_cast<void*>(out.pointer());
    try {
      checkCufft(Cufft<T>::exec(plan, pin, pout), "cufftExec");
      checkCuda(cudaDeviceSynchronize(), "cufftExec");
      std::vector<std::complex<T>> y(static_cast<std::size_t>(c.rows * n));
      head(*d.cuda, out, y);
      base.cufftLinf = fl::linfError(std::span<const std::complex<T>>(y), c.ref);
      base.cufftMs = timeWithEvents(
          [&] { checkCufft(Cufft<T>::exec(plan, pin, pout), "cufftExec"); }, o.warmup, o.repeat);
      base.cufftGbps = 2.0 * static_cast<double>(bytes) / (*base.cufftMs * 1e6);
    } catch (...) {
      cufftDestroy(plan);
      throw;
    }
    cufftDestroy(plan);
  } catch (const std::exception& e) {
    cufftError = std::string("cuFFT: ") + e.what();
  }

  fl::FftRequest request;
  request.size = n;
  if (c.dims.size() > 1) request.dims = c.dims;
  request.batch = c.batch;
  request.precision = c.precision;
  request.format = false;  // nothing is written: skip the source layout
  request.localMemoryBytes = o.localMemory;
  request.fftsPerGroup = o.fftsPerGroup;
  for (const auto& target : split(o.targets)) {
    Row r = base;
    r.target = target;
    r.error = cufftError;
    if (target == "cuda") {
      request.target = Target::Cuda;
      request.minBlocksPerSm = o.minBlocks;
      benchFftc<fl::CudaPlan>(*d.cuda, in, out, request, c, o, r);
    } else if (target == "opencl") {
      if (!d.opencl) continue;
      request.target = Target::OpenCL;
      request.minBlocksPerSm = 0;  // CUDA's alone
      try {
        cl::Buffer clIn(*d.opencl, bytes), clOut(*d.opencl, bytes);
        benchFftc<fl::Plan>(*d.opencl, clIn, clOut, request, c, o, r);
      } catch (const std::exception& e) {
        r.error = e.what();
      }
    } else {
      continue;
    }
    csv << csvLine(r) << '\n' << std::flush;
    fmt::print(
        "{:>6} {} N={:<8} batch={:<8} fftc {:>9} ms  cuFFT {:>9} ms  ratio {:>6}  linf {:>9} "
        "{}{}\n",
        r.target, r.precision, r.n, c.batch, num(r.fftcMs), num(r.cufftMs),
        r.fftcMs && r.cufftMs ? fmt::format("{:.2f}", *r.fftcMs / *r.cufftMs) : "-",
        num(r.fftcLinf), !r.checked ? "" : (r.ok ? "ok" : "FAILED"),
        r.error.empty() ? "" : "  error: " + r.error.substr(0, 160));
    std::fflush(stdout);
  }
}

Options parse(int argc, char** argv) {
  Options o;
  po::options_description desc(
      "fft_bench: fftc (CUDA, OpenCL) against cuFFT, C2C forward, as PERFORMANCE.md says");
  desc.add_options()("help", "this text")("out", po::value(&o.out)->default_value(o.out),
                                          "the CSV file to write")(
      "append", po::bool_switch(&o.append), "append to --out (no header) instead of replacing it")(
      "list", po::bool_switch(&o.list), "print the sizes of --sizes, one a line, and exit")(
      "sizes", po::value(&o.sizes)->default_value(o.sizes),
      "comma list of N, NxM[xK] (N-D) and groups: pow2 (2^3..2^24), smooth, primes, "
      "random[:SEED[:COUNT[:LO-HI]]] (default random:1:12:16-1048576), all (the four)")(
      "precision", po::value(&o.precisions)->default_value(o.precisions), "f32,f64 | f32 | f64")(
      "targets", po::value(&o.targets)->default_value(o.targets),
      "fftc targets: cuda,opencl (opencl only where an OpenCL GPU is found)")(
      "device", po::value(&o.cudaDevice)->default_value(o.cudaDevice), "the CUDA device")(
      "opencl-device", po::value(&o.openclDevice),
      "OpenCL selector (default: the first OpenCL GPU)")(
      "warmup", po::value(&o.warmup)->default_value(o.warmup), "untimed runs")(
      "repeat", po::value(&o.repeat)->default_value(o.repeat), "timed runs (median)")(
      "log2-total-f32", po::value(&o.log2Total32)->default_value(o.log2Total32),
      "batch x N = 2^this for f32")("log2-total-f64",
                                    po::value(&o.log2Total64)->default_value(o.log2Total64),
                                    "batch x N = 2^this for f64")(
      "check-elements", po::value(&o.checkElements)->default_value(o.checkElements),
      "rows of the batch checked against FFTW: this many elements, at least one row")(
      "max-seconds", po::value(&o.maxSeconds)->default_value(o.maxSeconds),
      "a plan whose first run takes longer is not repeated (its row says so)")(
      "local-memory", po::value(&o.localMemory)->default_value(o.localMemory),
      "bytes of local memory per work-group the plans may take (0: their default)")(
      "min-blocks", po::value(&o.minBlocks)->default_value(o.minBlocks),
      "CUDA: the blocks of each kernel that must fit one SM at once (fftc fft --min-blocks; "
      "0: the plan's default)")(
      "ffts-per-group", po::value(&o.fftsPerGroup)->default_value(o.fftsPerGroup),
      "the rows of a work-group of the local-memory kernels (fftc fft --ffts-per-group; an "
      "A/B of one size; 0: the plan's default)")(
      "cache-dir", po::value(&o.cacheDir),
      "the plan and kernel caches (FFTC_CACHE_DIR; default: a new directory, removed at the "
      "end, so that plan_ms is cold)");
  po::variables_map vm;
  po::store(po::parse_command_line(argc, argv, desc), vm);
  po::notify(vm);
  if (vm.count("help")) {
    std::cout << desc << '\n';
    std::exit(0);
  }
  if (o.repeat < 20 || o.warmup < 5)
    std::cerr << "fft_bench: note: PERFORMANCE.md asks for --repeat >= 20 and --warmup >= 5\n";
  if (o.repeat < 1 || o.warmup < 0) throw fftc::backends::UserError("--repeat must be >= 1");
  return o;
}

int run(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const auto start = std::chrono::steady_clock::now();
  // Before any context or compiler reads it: the caches of this run.
  const std::filesystem::path cacheDir =
      !o.cacheDir.empty() ? std::filesystem::path(o.cacheDir)
                          : std::filesystem::temp_directory_path() /
                                fmt::format("fft_bench-cache-{}", ::getpid());
  ::setenv("FFTC_CACHE_DIR", cacheDir.c_str(), 1);
  struct RemoveAtEnd {
    std::filesystem::path dir;
    ~RemoveAtEnd() {
      std::error_code ignored;
      if (!dir.empty()) std::filesystem::remove_all(dir, ignored);
    }
  } removeAtEnd{o.cacheDir.empty() ? cacheDir : std::filesystem::path()};
  const std::vector<Size> sizes = sizeList(o.sizes);
  if (o.list) {
    for (const Size& n : sizes) std::cout << n.text() << '\n';
    return 0;
  }
  cu::Context cuda = cu::Context::open(o.cudaDevice);
  checkCuda(cudaSetDevice(cuda.device().ordinal), "cudaSetDevice");  // cuFFT: the same device
  cuda.makeCurrent();
  Devices d;
  d.cuda = &cuda;
  d.name = cuda.device().name;
  std::optional<cl::Context> opencl;
  const std::vector<std::string> targets = split(o.targets);
  if (std::find(targets.begin(), targets.end(), "opencl") != targets.end()) {
    try {
      opencl.emplace(cl::Context::fromSelector(o.openclDevice));
      if (o.openclDevice.empty() && !opencl->device().isGpu()) {
        fmt::print("fft_bench: no OpenCL GPU (first device: {}): the opencl target is skipped\n",
                   opencl->device().name);
        opencl.reset();
      }
    } catch (const std::exception& e) {
      fmt::print("fft_bench: no OpenCL device ({}): the opencl target is skipped\n", e.what());
      opencl.reset();
    }
  }
  d.opencl = opencl ? &*opencl : nullptr;
  d.copyGbps = copyBandwidth(cuda, (std::size_t{1} << o.log2Total32) * 8, o);
  fmt::print("fft_bench: {} ({}){}; device-to-device copy {:.0f} GB/s\n", d.name, cuda.arch(),
             d.opencl ? ", OpenCL: " + d.opencl->device().name + " (" +
                            d.opencl->device().platformName + ")"
                      : "",
             d.copyGbps);

  const std::filesystem::path outPath(o.out);
  if (outPath.has_parent_path()) std::filesystem::create_directories(outPath.parent_path());
  const bool header = !o.append || !std::filesystem::exists(outPath);
  std::ofstream csv(outPath, o.append ? std::ios::app : std::ios::trunc);
  if (!csv) throw fftc::backends::UserError("cannot write " + o.out);
  if (header) csv << kHeader << '\n';
  for (const auto& p : split(o.precisions)) {
    for (const Size& n : sizes) {
      cuda.makeCurrent();
      if (p == "f64")
        benchSize<double>(n, d, o, csv);
      else if (p == "f32")
        benchSize<float>(n, d, o, csv);
      else
        throw fftc::backends::UserError("--precision: expected f32 and/or f64, not " + p);
    }
  }
  fmt::print("fft_bench: wrote {} in {:.0f} s\n", o.out,
             std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const fftc::backends::UserError& e) {
    std::fprintf(stderr, "fft_bench: %s\n", e.what());
    return 1;
  } catch (const po::error& e) {
    std::fprintf(stderr, "fft_bench: %s\n", e.what());
    return 1;
  } catch (const fftc::backends::DeviceError& e) {
    std::fprintf(stderr, "fft_bench: device error: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "fft_bench: %s\n", e.what());
    return 4;
  }
}
