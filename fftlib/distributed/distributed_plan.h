// A distributed 2D/3D complex FFT over the processes of a transport (MPI, NCCL): slab or pencil
// decomposition, local transforms by fftc's planner on each rank's device, global transposes by
// all-to-all, the data on the device from the input's upload to the output's download.
//
//   MpiTransport transport(MPI_COMM_WORLD);
//   cl::Context context = cl::Context::fromSelector("");
//   auto device = openClDevice(context);                         // or cudaDevice(cudaContext)
//   DistributedRequest request;  request.dims = {64, 48, 35};   // global, outermost first
//   request.decomposition = Decomposition::Pencil;
//   DistributedPlan plan = DistributedPlan::create(transport, request, *device);
//   Box in = plan.inputBox(), out = plan.outputBox();            // this rank's blocks
//   std::vector<std::complex<float>> x(in.count()), y(out.count());
//   plan.execute<float>(x, y);                                   // collective
//
// FFTW-MPI's model: every rank holds one block of the global row-major array, the last axis
// contiguous, given by its lo/hi on each axis (FFTW's local_n0/local_0_start generalized to
// every axis, heFFTe's box). Collective calls: every rank of the transport makes them, in the
// same order; a failure on one rank is raised on every rank (transport.h, agree).
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "fftlib/distributed/decomposition.h"
#include "fftlib/distributed/local_fft.h"
#include "fftlib/distributed/transport.h"
#include "fftlib/plan/plan_request.h"

namespace fftc::distributed {

struct DistributedRequest {
  std::vector<int64_t> dims;  // the global array, 2 or 3 dimensions, outermost first
  Decomposition decomposition = Decomposition::Slab;
  std::vector<int> grid;  // pencil: {P0, P1} with P0 * P1 = P; empty: near-square (pencilGrid)
  fftlib::Precision precision = fftlib::Precision::F32;
  fftlib::Direction direction = fftlib::Direction::Forward;
  bool scale = false;  // multiply by 1 / prod(dims)
  OutputDistribution output = OutputDistribution::Transposed;
  // Real transforms: Forward is R2C (real input blocks, the half spectrum out: the last axis
  // n/2 + 1 complex values, FFTW's and cuFFT's), Inverse is C2R; the exchanges carry the half
  // spectrum. The real transform is the stage that transforms the last axis (the first forward,
  // the last inverse); an inverse one needs the transposed output (UserError otherwise).
  bool real = false;
  // The text every rank must agree on: "64x48x35 pencil 2x2 f32 forward transposed".
  [[nodiscard]] std::string describe(int ranks) const;
};

// Seconds of the last transform on the device (executeOnDevice, or execute without its
// upload and download), per phase, on this rank. The exchange includes waiting for the slowest
// rank to arrive (the all-to-all is a synchronization) and, for a host transport (MPI), copying
// the messages between the device and the host.
struct PhaseTimes {
  double local = 0;     // local transforms (with the packing fused into them where it is)
  double pack = 0;      // box copies into the messages on the device (uneven splits)
  double exchange = 0;  // the all-to-alls
  double unpack = 0;    // box copies out of them
  double total = 0;
};

// The plain all-to-all of the plan's messages (measureExchange): no transform, no packing.
struct ExchangeMeasure {
  double seconds = 0;     // per transform: the median of each exchange, summed
  int64_t bytesOut = 0;   // per transform: the bytes this rank sends to other ranks
};

class DistributedPlan {
 public:
  // Collective. Agrees on the request across ranks (UserError on every rank when they differ),
  // makes the layout, this rank's device buffers and its local plans (none where its block is
  // empty); a failure on any rank is raised on all (agree). UserError for a Device transport
  // on a device whose buffers it cannot address (NCCL on OpenCL). `device` and `transport`
  // must outlive the plan.
  [[nodiscard]] static DistributedPlan create(Transport& transport,
                                              const DistributedRequest& request,
                                              LocalDevice& device);

  [[nodiscard]] const DistributedRequest& request() const;
  [[nodiscard]] const Layout& layout() const;
  // This rank's input and output blocks (row-major in global axis order). Forward with the
  // transposed output: the input is split on axis 0 (slab) or axes 0, 1 (pencil), the output
  // on axis 1 (slab) or axes 1, 2 (pencil); the inverse the reverse; SameAsInput: both the first.
  // A real request's real side is a block of the real array, its complex side one of the half
  // spectrum (layout().dims, the exchanged array, has the last axis n/2 + 1).
  [[nodiscard]] Box inputBox() const;
  [[nodiscard]] Box outputBox() const;

  // Collective: `in` holds inputBox().count() elements, `out` receives outputBox().count():
  // complex values, or reals on a real request's real side (R2C: real in, C2R: real out).
  // T: float for f32 requests, double for f64 (UserError otherwise, or for wrong lengths or
  // sides). upload, executeOnDevice, download.
  template <typename T>
  void execute(std::span<const std::complex<T>> in, std::span<std::complex<T>> out) {
    executeBytes(in.data(), in.size(), sizeof(in[0]), out.data(), out.size(), sizeof(out[0]));
  }
  template <typename T>
  void execute(std::span<const T> in, std::span<std::complex<T>> out) {  // R2C
    executeBytes(in.data(), in.size(), sizeof(T), out.data(), out.size(), sizeof(out[0]));
  }
  template <typename T>
  void execute(std::span<const std::complex<T>> in, std::span<T> out) {  // C2R
    executeBytes(in.data(), in.size(), sizeof(in[0]), out.data(), out.size(), sizeof(T));
  }
  template <typename T>
  void execute(const std::vector<std::complex<T>>& in, std::vector<std::complex<T>>& out) {
    execute<T>(std::span<const std::complex<T>>(in), std::span<std::complex<T>>(out));
  }
  // Collective: the transform of the input last uploaded, from the plan's device input buffer
  // (left as it was) to its device output buffer; lastTimes() times it.
  void executeOnDevice();
  // This rank's part alone: the input block to the device, the output block from it (complex
  // values, or reals on the real side).
  template <typename T>
  void upload(std::span<const std::complex<T>> in) {
    transferBytes(const_cast<std::complex<T>*>(in.data()), in.size(), sizeof(in[0]), true);
  }
  template <typename T>
  void upload(std::span<const T> in) {
    transferBytes(const_cast<T*>(in.data()), in.size(), sizeof(T), true);
  }
  template <typename T>
  void download(std::span<std::complex<T>> out) {
    transferBytes(out.data(), out.size(), sizeof(out[0]), false);
  }
  template <typename T>
  void download(std::span<T> out) {
    transferBytes(out.data(), out.size(), sizeof(T), false);
  }
  // Collective: `repeats` plain all-to-alls of each exchange's messages, through the same
  // transport and buffers (for a host transport also their device <-> host copies): what the
  // exchanges of a transform would take without packing, the measure they are held to.
  [[nodiscard]] ExchangeMeasure measureExchange(int repeats);
  [[nodiscard]] const PhaseTimes& lastTimes() const;
  // The layout, the grid and this rank's local plans, for `fftc run`.
  [[nodiscard]] std::string describe() const;

  struct Impl;

 private:
  explicit DistributedPlan(std::shared_ptr<Impl> impl) : impl_(std::move(impl)) {}
  void executeBytes(const void* in, std::size_t inCount, std::size_t inBytes, void* out,
                    std::size_t outCount, std::size_t outBytes);
  void transferBytes(void* host, std::size_t count, std::size_t elemBytes, bool toDevice);
  std::shared_ptr<Impl> impl_;
};

// The local FFT request of `stage` on a rank whose block is `box`: the stage's axes
// transformed, the rest batched (the logical array in the stage's storage order), read and
// written through `in` and `out` (stackedView: the row-major block, or its messages).
// `realLast`: the stage's real transform (R2C forward, C2R inverse) whose real side has `realLast`
// elements on the last axis (0: a complex transform).
fftlib::FftRequest localRequest(const DistributedRequest& request, const Stage& stage,
                                const Box& box, const fftlib::DataLayout& in,
                                const fftlib::DataLayout& out, int64_t realLast = 0);

}  // namespace fftc::distributed
