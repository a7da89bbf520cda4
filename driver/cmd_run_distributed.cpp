// fftc run --distributed (run_distributed.h, docs/distributed.md): options agreed across ranks,
// the transport (MPI or NCCL), one checked execution (FFTW on rank 0 over the gathered blocks),
// then the timed ones on the device and the plain all-to-all they are measured against.
#include "driver/run_distributed.h"

#include "backends/common/device_error.h"

#ifdef FFTC_HAVE_MPI
#include <algorithm>
#include <boost/json.hpp>
#include <cmath>
#include <complex>
#include <cstdlib>
#include <fmt/format.h>
#include <memory>
#include <optional>
#include <type_traits>

#include "compiler/exec/exec.h"
#include "driver/commands.h"
#include "driver/exit_status.h"
#include "fftlib/distributed/distributed_plan.h"
#include "fftlib/distributed/mpi_transport.h"
#include "fftlib/distributed/reshape.h"
#include "fftlib/fftw_reference.h"
#include "fftlib/plan/device_io.h"
#include "fftlib/plan/plan_request.h"
#ifdef FFTC_HAVE_CUDA
#include "backends/cuda/device.h"
#include "fftlib/distributed/nccl_transport.h"
#endif
#endif

namespace fftc::driver {

#ifndef FFTC_HAVE_MPI

int runDistributed(const FftOptions&, const DistributedRunOptions&) {
  throw backends::UserError("--distributed: this fftc was built without MPI (scripts/install-deps "
                            "installs Open MPI; then reconfigure)");
}

#else

namespace {

namespace dist = distributed;
namespace fl = fftlib;
namespace cl = backends::opencl;

// MPI_Init here, MPI_Finalize when the command ends (also by an exception that every rank
// raised after agreeing on it: each rank then finalizes, none is left waiting).
struct MpiSession {
  MpiSession() {
    int ready = 0;
    MPI_Initialized(&ready);
    if (!ready) MPI_Init(nullptr, nullptr);
  }
  ~MpiSession() {
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  }
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

// The rank among the processes of its host: its default CUDA device is this rank modulo the
// host's devices (one GPU per rank when there are as many ranks as GPUs).
int localRank() {
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int r = 0;
  MPI_Comm_rank(node, &r);
  MPI_Comm_free(&node);
  return r;
}

dist::DistributedRequest makeDistributedRequest(const FftOptions& f,
                                                const DistributedRunOptions& o) {
  dist::DistributedRequest r;
  r.dims = fl::parseDims(f.size, "--size");
  if (r.dims.size() < 2 || r.dims.size() > 3)
    throw backends::UserError(fmt::format("--distributed: --size {} has {} dimensions; a "
                                          "distributed FFT has 2 or 3 (NxM, NxMxK)",
                                          f.size, r.dims.size()));
  r.decomposition = dist::parseDecomposition(o.decomposition);
  if (!o.grid.empty()) {
    for (int64_t g : fl::parseDims(o.grid, "--grid")) r.grid.push_back(static_cast<int>(g));
    if (r.decomposition != dist::Decomposition::Pencil || r.grid.size() != 2)
      throw backends::UserError("--grid P0xP1 goes with --distributed pencil");
  }
  if (o.output != "transposed" && o.output != "input")
    throw backends::UserError(
        fmt::format("--distributed-output '{}': expected transposed or input", o.output));
  r.output = o.output == "input" ? dist::OutputDistribution::SameAsInput
                                 : dist::OutputDistribution::Transposed;
  r.precision = fl::parsePrecision(f.precision);
  r.direction = fl::parseDirection(f.direction);
  r.scale = f.scale;
  // What the local planner chooses per stage, or what a distributed transform does not have.
  r.real = f.real;
  if (f.batch != 1 || f.variant != "auto" || !f.radices.empty() || f.levels != 0 ||
      !f.levelSizes.empty() || !f.inembed.empty() || !f.onembed.empty() || f.istride != 1 ||
      f.idist != 0 || f.ostride != 1 || f.odist != 0 || !f.rewrite.empty())
    throw backends::UserError("--distributed takes --size, --real, --precision, --direction, "
                              "--scale, --target and --device (the local plans are the "
                              "planner's; --batch, --variant, --radices and layouts are not "
                              "distributed)");
  return r;
}

// Every rank runs `step`; a failure on any is raised on all (dist::agree).
template <typename F>
auto together(dist::Transport& transport, F&& step) {
  std::exception_ptr failure;
  std::optional<decltype(step())> result;
  try {
    result.emplace(step());
  } catch (...) {
    failure = std::current_exception();
  }
  dist::agree(transport, failure);
  return std::move(*result);
}

struct Errors {
  double l2 = 0, linf = 0;
};

std::vector<int> naturalOrder(std::size_t axes) {
  std::vector<int> order(axes);
  for (std::size_t a = 0; a < order.size(); ++a) order[a] = static_cast<int>(a);
  return order;
}

// The block `box` of a global row-major array of `dims` (E: complex values or reals).
template <typename E>
std::vector<E> blockOf(const std::vector<E>& global, const std::vector<int64_t>& dims,
                       const dist::Box& box) {
  std::vector<E> x(static_cast<std::size_t>(box.count()));
  const dist::Box all{std::vector<int64_t>(dims.size(), 0), dims};
  const auto order = naturalOrder(dims.size());
  dist::copyRegion(reinterpret_cast<const std::byte*>(global.data()), all, order,
                   reinterpret_cast<std::byte*>(x.data()), box, order, box, sizeof(E));
  return x;
}

// Rank `q`'s output block: the last stage's block, of the real array on a C2R's real side.
dist::Box outputBoxOf(const dist::DistributedPlan& plan, int q) {
  const auto& layout = plan.layout();
  dist::Box b = layout.box(layout.stages.size() - 1, q);
  const auto& r = plan.request();
  if (r.real && r.direction == fl::Direction::Inverse) b.hi.back() = r.dims.back();
  return b;
}

// Rank 0 gathers every rank's output block into the global array of `dims` (empty elsewhere).
template <typename E>
std::vector<E> gatherOutput(dist::Transport& transport, const dist::DistributedPlan& plan,
                            const std::vector<int64_t>& dims, const std::vector<E>& out) {
  const int p = transport.size();
  std::vector<int64_t> counts, offsets;
  int64_t at = 0;
  for (int q = 0; q < p; ++q) {
    counts.push_back(outputBoxOf(plan, q).count());
    offsets.push_back(at);
    at += counts.back();
  }
  std::vector<E> packed(transport.rank() == 0 ? static_cast<std::size_t>(at) : 0);
  transport.gatherv(out.data(), static_cast<int64_t>(out.size()), packed.data(), counts, offsets,
                    sizeof(E), 0);
  if (transport.rank() != 0) return {};
  const dist::Box all{std::vector<int64_t>(dims.size(), 0), dims};
  const auto order = naturalOrder(dims.size());
  std::vector<E> y(static_cast<std::size_t>(fl::product(dims)));
  for (int q = 0; q < p; ++q) {
    const dist::Box b = outputBoxOf(plan, q);
    dist::copyRegion(reinterpret_cast<const std::byte*>(packed.data() + offsets[q]), b, order,
                     reinterpret_cast<std::byte*>(y.data()), all, order, b, sizeof(E));
  }
  return y;
}

// Reals as complex values with zero imaginary parts, for the error measures.
template <typename T>
std::vector<std::complex<T>> asComplex(const std::vector<T>& x) {
  return {x.begin(), x.end()};
}
std::vector<fl::ComplexL> asComplex(const std::vector<long double>& x) {
  return {x.begin(), x.end()};
}

// Rank 0 compares the gathered output with FFTW in long double (`reference` computes it there);
// the errors are broadcast so that every rank decides alike.
template <typename T, typename E, typename Reference>
Errors checkGathered(dist::Transport& transport, const dist::DistributedPlan& plan,
                     const std::vector<int64_t>& outDims, const std::vector<E>& out,
                     Reference reference) {
  const auto y = gatherOutput(transport, plan, outDims, out);
  Errors e;
  std::exception_ptr failure;
  if (transport.rank() == 0) try {
    std::vector<fl::ComplexL> ref = reference();
    if (plan.request().scale)
      for (auto& v : ref) v /= static_cast<long double>(fl::product(plan.request().dims));
    std::vector<std::complex<T>> yc;
    if constexpr (std::is_same_v<E, T>)
      yc = asComplex(y);
    else
      yc = y;
    e.l2 = fl::l2Error(std::span<const std::complex<T>>(yc), ref);
    e.linf = fl::linfError(std::span<const std::complex<T>>(yc), ref);
  } catch (...) {
    failure = std::current_exception();
  }
  dist::agree(transport, failure);
  transport.broadcast(&e, sizeof e, 0);
  return e;
}

template <typename T>
std::vector<long double> toLongDouble(const std::vector<T>& x) {
  return {x.begin(), x.end()};
}

// The checked execution: C2C of the seeded uniform array; R2C of its real parts; C2R of the
// half spectrum of those reals (rounded to T), so that its input is Hermitian. Every rank draws
// the whole array and keeps its block; rank 0 checks the gathered output.
template <typename T>
Errors checkedRun(dist::Transport& control, dist::DistributedPlan& plan,
                  const DistributedRunOptions& o) {
  const auto& r = plan.request();
  const auto& dims = r.dims;                  // the real (or complex) array
  const auto& spectrum = plan.layout().dims;  // the exchanged array
  const auto complexIn = fl::uniformInput<T>(static_cast<std::size_t>(fl::product(dims)), o.seed);
  if (!r.real) {
    std::vector<std::complex<T>> out(static_cast<std::size_t>(plan.outputBox().count()));
    plan.execute<T>(blockOf(complexIn, dims, plan.inputBox()), out);
    return checkGathered<T>(control, plan, dims, out, [&] {
      return fl::referenceDft(fl::toLongDouble(std::span<const std::complex<T>>(complexIn)), dims,
                              1, r.direction);
    });
  }
  std::vector<T> reals;
  for (const auto& v : complexIn) reals.push_back(v.real());
  if (r.direction == fl::Direction::Forward) {
    std::vector<std::complex<T>> out(static_cast<std::size_t>(plan.outputBox().count()));
    const auto in = blockOf(reals, dims, plan.inputBox());
    plan.execute<T>(std::span<const T>(in), std::span<std::complex<T>>(out));
    return checkGathered<T>(control, plan, spectrum, out,
                            [&] { return fl::referenceR2c(toLongDouble(reals), dims, 1); });
  }
  const auto half = fl::referenceR2c(toLongDouble(reals), dims, 1);
  std::vector<std::complex<T>> halfT;
  for (const auto& v : half) halfT.emplace_back(static_cast<T>(v.real()), static_cast<T>(v.imag()));
  std::vector<T> out(static_cast<std::size_t>(plan.outputBox().count()));
  const auto in = blockOf(halfT, spectrum, plan.inputBox());
  plan.execute<T>(std::span<const std::complex<T>>(in), std::span<T>(out));
  return checkGathered<T>(control, plan, dims, out, [&] {
    return asComplex(fl::referenceC2r(fl::toLongDouble(std::span<const std::complex<T>>(halfT)),
                                      dims, 1));
  });
}

struct Report {
  double timeMs = 0, exchangeMs = 0, localMs = 0, packMs = 0;
  double alltoallMs = 0;      // the plain all-to-all of the same messages
  int64_t exchangeBytes = 0;  // per transform, the most a rank sends to the others
  Errors errors;
};

// One checked execution (host to host), then the timed ones on the device: the input uploaded
// once, each transform from the device's input to its output (PhaseTimes), then the plain
// all-to-all of the same messages through the same transport.
template <typename T>
Report runOn(dist::Transport& control, dist::DistributedPlan& plan,
             const DistributedRunOptions& o) {
  Report r;
  if (o.check) {
    r.errors = checkedRun<T>(control, plan, o);
  } else {  // the timed runs' input: this rank's block of seeded values (reals on the real side)
    const auto n = static_cast<std::size_t>(plan.inputBox().count());
    const auto x = fl::uniformInput<T>(n, o.seed + static_cast<uint64_t>(control.rank()));
    if (plan.request().real && plan.request().direction == fl::Direction::Forward) {
      std::vector<T> reals;
      for (const auto& v : x) reals.push_back(v.real());
      plan.upload<T>(std::span<const T>(reals));
    } else {
      plan.upload<T>(std::span<const std::complex<T>>(x));
    }
  }
  std::vector<double> total_, exchange, local, pack;
  for (int k = 0; k < o.warmup + o.repeat; ++k) {
    plan.executeOnDevice();
    if (k < o.warmup) continue;
    const auto& t = plan.lastTimes();
    total_.push_back(t.total * 1e3);
    exchange.push_back(t.exchange * 1e3);
    local.push_back(t.local * 1e3);
    pack.push_back((t.pack + t.unpack) * 1e3);
  }
  const dist::ExchangeMeasure plain = plan.measureExchange(o.repeat);
  // The slowest rank's medians (in ns, for the integer reduction).
  auto slowest = [&](double ms) {
    const auto ns = static_cast<int64_t>(std::llround(ms * 1e6));
    return static_cast<double>(control.allreduce(ns, dist::ReduceOp::Max)) * 1e-6;
  };
  r.timeMs = slowest(fl::median(total_));
  r.exchangeMs = slowest(fl::median(exchange));
  r.localMs = slowest(fl::median(local));
  r.packMs = slowest(fl::median(pack));
  r.alltoallMs = slowest(plain.seconds * 1e3);
  r.exchangeBytes = control.allreduce(plain.bytesOut, dist::ReduceOp::Max);
  return r;
}

// --transport: mpi, nccl, or (empty) nccl where the target is CUDA and libnccl loads on every
// rank. Collective; an error is every rank's.
bool useNccl(dist::Transport& control, const DistributedRunOptions& o, Target target) {
  const bool explicitNccl = together(control, [&] {
    if (!o.transport.empty() && o.transport != "mpi" && o.transport != "nccl")
      throw backends::UserError(
          fmt::format("--transport '{}': expected mpi or nccl", o.transport));
    if (o.transport == "nccl" && target != Target::Cuda)
      throw backends::UserError("--transport nccl exchanges CUDA memory: it needs --target cuda");
    return o.transport == "nccl";
  });
  if (explicitNccl || !o.transport.empty() || target != Target::Cuda) return explicitNccl;
#ifdef FFTC_HAVE_CUDA
  const int64_t here = dist::NcclTransport::available() ? 1 : 0;
  return control.allreduce(here, dist::ReduceOp::Min) == 1;
#else
  return false;
#endif
}

int runSession(const FftOptions& fft, const DistributedRunOptions& o) {
  dist::MpiTransport transport(MPI_COMM_WORLD);
  const auto request = together(transport, [&] { return makeDistributedRequest(fft, o); });
  const Target target = together(transport, [&] { return parseTarget(fft.target); });
  const int node = localRank();
  std::unique_ptr<cl::Context> clContext;
#ifdef FFTC_HAVE_CUDA
  std::unique_ptr<backends::cuda::Context> cuContext;
#endif
  std::string deviceName = together(transport, [&]() -> std::string {
    if (target == Target::Cuda) {
#ifdef FFTC_HAVE_CUDA
      cuContext = std::make_unique<backends::cuda::Context>(backends::cuda::Context::open(
          o.device.empty()
              ? fmt::format("cuda:{}", node % std::max(1, backends::cuda::deviceCount()))
              : o.device));
      return cuContext->device().name;
#else
      throw backends::UserError("run --target cuda: this fftc was built without CUDA");
#endif
    }
    clContext = std::make_unique<cl::Context>(cl::Context::fromSelector(o.device));
    return clContext->device().name;
  });
  std::unique_ptr<dist::LocalDevice> device;
#ifdef FFTC_HAVE_CUDA
  if (cuContext) device = dist::cudaDevice(*cuContext);
#endif
  if (clContext) device = dist::openClDevice(*clContext);
  // The data's transport: NCCL on CUDA (its communicator made over MPI), else MPI itself.
  dist::Transport* data = &transport;
#ifdef FFTC_HAVE_CUDA
  std::unique_ptr<dist::NcclTransport> nccl;
  if (useNccl(transport, o, target)) {
    nccl = std::make_unique<dist::NcclTransport>(transport);  // agreed errors
    data = nccl.get();
  }
#else
  if (useNccl(transport, o, target))
    throw std::logic_error("NCCL chosen without CUDA");
#endif
  auto plan = dist::DistributedPlan::create(*data, request, *device);
  const Report r = request.precision == fl::Precision::F64 ? runOn<double>(transport, plan, o)
                                                           : runOn<float>(transport, plan, o);
  const auto n = fl::product(request.dims);
  const double tolerance = fl::fftTolerance(n, request.precision);
  const double flopsPerPoint = request.real ? 2.5 : 5.0;  // a real transform: half the work
  const double gflops = flopsPerPoint * static_cast<double>(n) * std::log2(static_cast<double>(n)) /
                        (r.timeMs * 1e-3) * 1e-9;
  // A rank's bytes to the others over the time: the same measure for the exchanges inside the
  // transform and for the plain all-to-all.
  auto gbps = [&](double ms) {
    return ms > 0 ? static_cast<double>(r.exchangeBytes) / (ms * 1e-3) * 1e-9 : 0.0;
  };
  if (transport.rank() == 0) {
    if (o.json) {
      boost::json::object j;
      boost::json::array d;
      for (int64_t x : request.dims) d.emplace_back(x);
      j["size"] = d;
      j["distributed"] = dist::decompositionName(request.decomposition);
      boost::json::array g;
      for (int x : plan.layout().grid) g.emplace_back(x);
      j["grid"] = g;
      j["ranks"] = transport.size();
      j["real"] = request.real;
      j["precision"] = fl::precisionName(request.precision);
      j["direction"] = fl::directionName(request.direction);
      j["target"] = compiler::pipeline::targetName(target);
      j["device"] = deviceName;
      compiler::exec::setNumber(j, "time_ms", r.timeMs);
      compiler::exec::setNumber(j, "exchange_ms", r.exchangeMs);
      compiler::exec::setNumber(j, "local_ms", r.localMs);
      compiler::exec::setNumber(j, "pack_ms", r.packMs);
      j["transport"] = data->name();
      j["exchange_bytes"] = r.exchangeBytes;
      compiler::exec::setNumber(j, "alltoall_ms", r.alltoallMs);
      compiler::exec::setNumber(j, "exchange_gbps", gbps(r.exchangeMs));
      compiler::exec::setNumber(j, "alltoall_gbps", gbps(r.alltoallMs));
      compiler::exec::setNumber(j, "gflops", gflops);
      if (o.check) {
        compiler::exec::setNumber(j, "l2_error", r.errors.l2);
        compiler::exec::setNumber(j, "linf_error", r.errors.linf);
      }
      fmt::print("{}\n", boost::json::serialize(j));
    } else {
      fmt::print("{}", plan.describe());
      fmt::print("ranks: {}, device (rank 0): {}\n", transport.size(), deviceName);
      fmt::print("time per transform: {:.4f} ms (slowest rank's median of {} after {} warm-up): "
                 "local FFTs {:.4f} ms, pack/unpack {:.4f} ms, all-to-all {:.4f} ms; {:.2f} "
                 "GFLOP/s\n",
                 r.timeMs, o.repeat, o.warmup, r.localMs, r.packMs, r.exchangeMs, gflops);
      fmt::print("all-to-all ({}): {} bytes a rank, {:.2f} GB/s in the transform; the plain "
                 "all-to-all of the same messages {:.4f} ms, {:.2f} GB/s\n",
                 data->name(), r.exchangeBytes, gbps(r.exchangeMs), r.alltoallMs,
                 gbps(r.alltoallMs));
      if (o.check)
        fmt::print("error against FFTW (long double) on the gathered result: l2 {:.3g}, linf "
                   "{:.3g} (tolerance {:.3g}): {}\n",
                   r.errors.l2, r.errors.linf, tolerance,
                   r.errors.linf <= tolerance ? "ok" : "FAILED");
    }
    std::fflush(stdout);
  }
  if (o.check && !(r.errors.linf <= tolerance))  // every rank has the broadcast errors
    dist::raiseAgreed(std::make_exception_ptr(CheckFailed(
        fmt::format("distributed {}: linf_error {:.3g} above the tolerance {:.3g}",
                    dist::decompositionName(request.decomposition), r.errors.linf, tolerance))));
  return kSuccess;
}

}  // namespace

int runDistributed(const FftOptions& fft, const DistributedRunOptions& o) {
  MpiSession session;
  try {
    return runSession(fft, o);
  } catch (...) {
    // Printed here, before MPI_Finalize (whose fence every rank reaches after printing): mpirun
    // ends the job when the first rank exits non-zero, which could cut the others' line off.
    const auto failure = std::current_exception();
    const int status = reportCurrentException();
    if (!dist::wasAgreed(failure)) {  // only this rank failed: the others cannot be told
      std::fflush(stderr);
      MPI_Abort(MPI_COMM_WORLD, status);
    }
    return status;
  }
}

#endif

}  // namespace fftc::driver
