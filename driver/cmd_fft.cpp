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
#include "driver/commands.h"
#include "driver/emit.h"
#include "driver/fft_options.h"
#include "driver/options.h"
#include "driver/run_distributed.h"
#include "compiler/exec/exec.h"
#include "compiler/pipeline/phase_times.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/plan/fft_api.h"
#include "fftlib/plan/fft_check.h"
#include "fftlib/plan/run_checked.h"
#include "rewrites/strategy_parser.h"
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
      ("levels", po::value(&o.levels)->default_value(o.levels),
       "hierarchical: 2 or 3 levels, one kernel each (0: the planner chooses)")
      ("ffts-per-group", po::value(&o.fftsPerGroup)->default_value(o.fftsPerGroup),
       "local, hierarchical, bluestein in local memory: the rows (hierarchical: tile columns) "
       "of a work-group (0: the planner chooses)")
      ("workgroup-size", po::value(&o.workgroupSize)->default_value(o.workgroupSize),
       "local, bluestein in local memory: the work-items of a row, each looping over its share "
       "of a pass's butterflies (0: the planner chooses; a prime that Rader's kernel would take "
       "goes to Bluestein's)")
      ("level-sizes", po::value(&o.levelSizes),
       "hierarchical: the levels' sizes n1,n2[,n3] (product N; with --radices, products of "
       "consecutive radices)")
      ("target", po::value(&o.target)->default_value(o.target), "opencl | cuda")
      ("local-memory", po::value(&o.localMemory)->default_value(o.localMemory),
       "bytes of local memory a work-group of the local-memory kernels may take (0: 48 KiB; "
       "on a CUDA device, its share: docs/fft-api.md)")
      ("min-blocks", po::value(&o.minBlocks)->default_value(o.minBlocks),
       "CUDA: the blocks of each kernel that must fit one SM at once, __launch_bounds__' "
       "second argument (registers capped to fit them; 0: the plan's own, none but for a Rader "
       "pass: docs/fft-api.md rule 3; 1: no more than one block)")
      ("cluster", po::value(&o.cluster)->default_value(o.cluster),
       "CUDA sm_90: the whole transform in one kernel, each row over a thread-block cluster "
       "of this many blocks, 2 to 8 (cluster.fdl fourStepCluster, else stockhamCluster; 0: none)")
      ("inembed", po::value(&o.inembed),
       "N,M,...: the input's embedding array, one entry per dimension (FFTW's inembed; "
       "default: the dimensions)")
      ("istride", po::value(&o.istride)->default_value(o.istride),
       "elements between an input transform's consecutive elements")
      ("idist", po::value(&o.idist)->default_value(o.idist),
       "elements between consecutive input transforms (0: istride x the embedding's size)")
      ("onembed", po::value(&o.onembed), "N,M,...: the output's embedding array")
      ("ostride", po::value(&o.ostride)->default_value(o.ostride), "the output's stride")
      ("odist", po::value(&o.odist)->default_value(o.odist), "the output's distance")
      ("pre", po::value(&o.pre),
       "FILE:NAME: a load callback, the function NAME (complex -> complex) of the .fdl file "
       "FILE applied to every input element before the transform")
      ("post", po::value(&o.post),
       "FILE:NAME: a store callback, applied to every output element after the transform")
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
  r.dims = fl::parseDims(o.size, "--size");
  r.size = 1;
  for (int64_t d : r.dims) r.size *= d;
  if (r.dims.size() == 1) r.dims.clear();
  r.batch = o.batch;
  r.precision = fl::parsePrecision(o.precision);
  r.direction = fl::parseDirection(o.direction);
  r.scale = o.scale;
  r.real = o.real;
  r.variant = fl::parseVariant(o.variant);
  for (const auto& t : splitList(o.radices)) r.radices.push_back(parseInteger(t, "--radices"));
  r.target = parseTarget(o.target);
  // A strategy that does not parse is an error here: the planner would fall back to
  // lowerDefault, and the user would not get what they asked for.
  if (!o.rewrite.empty()) (void)rewrites::parseStrategy(o.rewrite);
  r.strategy = o.rewrite;
  r.levels = o.levels;
  if (o.fftsPerGroup < 0)
    throw backends::UserError(
        fmt::format("--ffts-per-group {}: expected 1 or more (0: the planner's)", o.fftsPerGroup));
  r.fftsPerGroup = o.fftsPerGroup;
  if (o.workgroupSize < 0)
    throw backends::UserError(fmt::format(
        "--workgroup-size {}: expected 1 or more (0: the planner's)", o.workgroupSize));
  r.workgroupSize = o.workgroupSize;
  if (o.localMemory < 0)
    throw backends::UserError(fmt::format("--local-memory {}: expected bytes, 0 or more",
                                          o.localMemory));
  r.localMemoryBytes = o.localMemory;
  if (o.minBlocks < 0)
    throw backends::UserError(
        fmt::format("--min-blocks {}: expected 1 or more (0: the plan's own)", o.minBlocks));
  r.minBlocksPerSm = o.minBlocks;
  r.clusterBlocks = o.cluster;
  for (const auto& t : splitList(o.levelSizes))
    r.levelSizes.push_back(parseInteger(t, "--level-sizes"));
  for (const auto& t : splitList(o.inembed)) r.inLayout.embed.push_back(parseInteger(t, "--inembed"));
  for (const auto& t : splitList(o.onembed)) r.outLayout.embed.push_back(parseInteger(t, "--onembed"));
  r.inLayout.stride = o.istride;
  r.inLayout.dist = o.idist;
  r.outLayout.stride = o.ostride;
  r.outLayout.dist = o.odist;
  if (!o.pre.empty()) r.pre = fl::loadCallback(o.pre, "--pre");
  if (!o.post.empty()) r.post = fl::loadCallback(o.post, "--post");
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
  fl::FftErrors errors;
  int64_t checkedBatch = 0;  // the transforms checked (the batch's first)
};

// One checked execution (against FFTW in long double through the request's layouts:
// run_checked.h) and the median of the timed ones, on either runtime (Plan / CudaPlan with its
// context).
template <typename T, typename PlanT, typename ContextT>
Measured runAndCheck(const PlanT& plan, const ContextT& context, uint64_t seed, bool check,
                     size_t checkElements, bool inPlace, int warmup, int repeat) {
  Measured m;
  fl::FftCheck data;
  if (check) {
    data = fl::makeCheck(plan.request(), seed, checkElements);
    m.checkedBatch = data.checkedBatch;
    if (inPlace) m.errors = fl::runChecked<T>(plan, context, data, true);
  } else {  // no FFTW reference: for 2^26 elements it takes seconds
    data.input = fl::timingInput(plan.request(), seed);
  }
  // out of place: the first execution is the checked one, the timed ones follow on its buffers
  const auto [output, times] = fl::runAndTime<T>(plan, context, data.input,
                                                 static_cast<size_t>(warmup),
                                                 static_cast<size_t>(repeat));
  if (check && !inPlace) m.errors = fl::compareOutput(data, output, true);
  m.timeMs = fl::median(times);
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

// Creates the plan on `context` and measures it.
template <typename PlanT, typename ContextT>
Measured measureOn(const ContextT& context, const fl::FftRequest& request, uint64_t seed,
                   bool check, size_t checkElements, bool inPlace, int warmup, int repeat) {
  auto plan = PlanT::create(context, request);
  return request.precision == fl::Precision::F64
             ? runAndCheck<double>(plan, context, seed, check, checkElements, inPlace, warmup, repeat)
             : runAndCheck<float>(plan, context, seed, check, checkElements, inPlace, warmup, repeat);
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
  prepareOutputDir(o.outDir);  // a bad -o fails before planning
  std::string wisdomNote;
  if (request.target == Target::OpenCL)  // wisdom names the device: the one run would pick
    wisdomNote = useWisdom(o.wisdom, request,
                           [&] { return fl::tune::openClIdentity(cl::selectDevice(device)); });
  auto plan = fl::planFft(request);
  OutputSet outputs(o.outDir);
  const bool header = outputs.addKernel(plan->compiled, {"source", "manifest", "header"},
                                        request.target == Target::Cuda);
  outputs.commit();
  fmt::print("{}", plan->describe());
  if (!wisdomNote.empty()) fmt::print("{}\n", wisdomNote);
  fmt::print("wrote {} in {}\n", plan->compiled.name + (request.target == Target::Cuda ? ".cu" : ".cl") +
                                     (header ? ", .json, .hpp" : ", .json"),
             o.outDir);
  if (compiler::pipeline::phaseTimesRequested())  // FFTC_TIMINGS=1 (docs/performance.md)
    fmt::print(stderr, "{}", compiler::pipeline::phaseTimesText());
  return kSuccess;
}

int runRun(const Args& args) {
  FftOptions o;
  std::string device;
  bool check = false, json = false, inPlace = false;
  int repeat = 20, warmup = 5;
  uint64_t seed = 1;
  int64_t checkElements = 0;  // signed: a negative value is refused, not wrapped around
  DistributedRunOptions distributed;  // --distributed (run_distributed.h, docs/distributed.md)
  po::options_description desc("fftc run options");
  addFftOptions(desc, o, false);
  desc.add_options()
      ("distributed", po::value(&distributed.decomposition),
       "slab | pencil: a 2D/3D FFT distributed over the MPI processes (mpirun -np P fftc run "
       "...; docs/distributed.md)")
      ("grid", po::value(&distributed.grid),
       "P0xP1: the process grid of --distributed pencil (default: near-square)")
      ("distributed-output", po::value(&distributed.output)->default_value(distributed.output),
       "transposed (the last stage's blocks) | input (exchanged back to the input's blocks)")
      ("transport", po::value(&distributed.transport),
       "mpi | nccl: what carries the all-to-alls of --distributed (default: nccl for --target "
       "cuda where libnccl loads on every rank, else mpi)")
      ("device", po::value(&device),
       "opencl:P:D, opencl:NAME or cuda:N (default: cuda:0 for --target cuda; else the first "
       "OpenCL GPU, else the first OpenCL device)")
      ("check", po::bool_switch(&check),
       "compare with FFTW in long double; exit 3 above the tolerance")
      ("check-elements", po::value(&checkElements),
       "check only the batch's first transforms, at most this many elements (at least one "
       "transform; dense layouts): FFTW in long double on a 2^26-element batch takes seconds")
      ("repeat", po::value(&repeat)->default_value(repeat), "timed runs (the median is reported)")
      ("warmup", po::value(&warmup)->default_value(warmup), "untimed runs first")
      ("seed", po::value(&seed)->default_value(seed), "seed of the random inputs")
      ("in-place", po::bool_switch(&inPlace),
       "the checked execution in place: one buffer holds the input and receives the output")
      ("json", po::bool_switch(&json), "print the report as one JSON object");
  po::variables_map vm;
  if (!parseOptions(args, "fftc run --size N [options]", desc, nullptr, vm)) return kSuccess;
  if (vm.count("transport") && !vm.count("distributed"))
    throw backends::UserError("--transport goes with --distributed");
  if (vm.count("distributed")) {
    if (inPlace || vm.count("check-elements"))
      throw backends::UserError("--distributed runs out of place and checks every element");
    distributed.device = device;
    distributed.check = check;
    distributed.json = json;
    distributed.repeat = repeat;
    distributed.warmup = warmup;
    distributed.seed = seed;
    if (repeat < 1 || warmup < 0)
      throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");
    return runDistributed(o, distributed);
  }
  auto request = makeRequest(o);
  request.format = false;  // nothing is written: skip the layout of the source (faster)
  if (repeat < 1 || warmup < 0)
    throw backends::UserError("--repeat must be at least 1 and --warmup at least 0");
  if (vm.count("check-elements") && !check)
    throw backends::UserError("--check-elements goes with --check");
  if (vm.count("check-elements") && checkElements < 1)
    throw backends::UserError(
        fmt::format("--check-elements {}: expected a positive number of elements", checkElements));

  Measured m;
  std::string deviceName, wisdomNote;
  fl::PlanLimits limits;  // the device's, as the plan is made under them
  if (request.target == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
    auto context = openCuda(device.empty() ? "cuda:0" : device);
    deviceName = context.device().name;
    // what CudaPlan plans under (the device's shared memory): the wisdom is checked against it
    limits = fl::cudaPlanLimits(context.device());
    wisdomNote = useWisdom(o.wisdom, request,
                           [&] { return fl::tune::CudaExecutor(context).identity(); }, limits);
    m = measureOn<fl::CudaPlan>(context, request, seed, check,
                                static_cast<size_t>(checkElements), inPlace, warmup, repeat);
#else
    throw backends::UserError("run --target cuda: this fftc was built without CUDA "
                              "(the CUDA toolkit headers were not found)");
#endif
  } else {
    auto context = cl::Context::fromSelector(device);
    deviceName = context.device().name;
    wisdomNote = useWisdom(o.wisdom, request,
                           [&] { return fl::tune::openClIdentity(context.device()); });
    m = measureOn<fl::Plan>(context, request, seed, check, static_cast<size_t>(checkElements),
                           inPlace, warmup, repeat);
  }
  const auto plan = fl::planFft(request, limits);  // the plan just run (in-process cache)
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
    if (info.choice.variant == fl::Variant::Hierarchical)  // outermost first
      r["level_sizes"] = toJsonArray(fl::levelSizes(info.choice));
    r["workgroup_size"] = request.workgroupSize;  // 0: the planner chose
    r["ffts_per_group"] = request.fftsPerGroup;
    r["local_memory_bytes"] = fl::localMemoryBudget(info.request);
    r["wisdom"] = !wisdomNote.empty();
    r["stages"] = info.stages.size();
    compiler::exec::setNumber(r, "time_ms", m.timeMs);
    compiler::exec::setNumber(r, "gflops", gflops);
    compiler::exec::setNumber(r, "gbps", gbps);
    if (!request.inLayout.isDefault()) r["input_layout"] = fl::layoutText(request, true);
    if (!request.outLayout.isDefault()) r["output_layout"] = fl::layoutText(request, false);
    if (inPlace) r["in_place"] = true;
    if (check) {
      compiler::exec::setNumber(r, "l2_error", m.errors.l2);
      compiler::exec::setNumber(r, "linf_error", m.errors.linf);
      if (checkElements > 0) r["checked_batch"] = m.checkedBatch;
      if (!request.outLayout.isDefault()) r["holes_written"] = m.errors.holesWritten;
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
      fmt::print("error against FFTW (long double){}: l2 {:.3g}, linf {:.3g} (tolerance {:.3g}){}: {}\n",
                 m.checkedBatch < request.batch
                     ? fmt::format(", the first {} of {} transforms", m.checkedBatch, request.batch)
                     : "",
                 m.errors.l2, m.errors.linf, tolerance,
                 m.errors.holesWritten
                     ? fmt::format(", {} elements outside the output layout changed",
                                   m.errors.holesWritten)
                     : "",
                 m.errors.ok(tolerance) ? "ok" : "FAILED");
  }
  if (check && !(m.errors.linf <= tolerance))
    throw CheckFailed(fmt::format("{}: linf_error {:.3g} above the tolerance {:.3g}",
                                  info.compiled.name, m.errors.linf, tolerance));
  if (check && m.errors.holesWritten > 0)
    throw CheckFailed(fmt::format("{}: {} elements outside the output layout changed",
                                  info.compiled.name, m.errors.holesWritten));
  if (compiler::pipeline::phaseTimesRequested())  // FFTC_TIMINGS=1 (docs/performance.md)
    fmt::print(stderr, "{}", compiler::pipeline::phaseTimesText());
  return kSuccess;
}

}  // namespace fftc::driver
