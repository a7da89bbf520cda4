// The distributed FFT's stages on the device: local transforms, packing fused into them or box
// copies, all-to-all (distributed_plan.h).
#include "fftlib/distributed/distributed_plan.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include "backends/common/device_error.h"
#include "fftlib/distributed/reshape.h"

namespace fftc::distributed {

using backends::UserError;

std::string DistributedRequest::describe(int ranks) const {
  std::vector<std::string> d, g;
  for (int64_t x : dims) d.push_back(std::to_string(x));
  for (int x : grid) g.push_back(std::to_string(x));
  return fmt::format("{} {} over {} ranks (grid {}) {}{} {}{} {} output", fmt::join(d, "x"),
                     decompositionName(decomposition), ranks,
                     g.empty() ? "auto" : fmt::format("{}", fmt::join(g, "x")),
                     real ? "real " : "", fftlib::precisionName(precision),
                     fftlib::directionName(direction), scale ? " scaled" : "",
                     output == OutputDistribution::Transposed ? "transposed" : "same-as-input");
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

fftlib::FftRequest localRequest(const DistributedRequest& request, const Stage& stage,
                                const Box& box, const fftlib::DataLayout& in,
                                const fftlib::DataLayout& out, int64_t realLast) {
  fftlib::FftRequest r;
  int64_t rest = 1;
  for (std::size_t a = 0; a < box.lo.size(); ++a)
    if (std::find(stage.fftAxes.begin(), stage.fftAxes.end(), static_cast<int>(a)) ==
        stage.fftAxes.end())
      rest *= box.extent(a);
  std::vector<int64_t> dims;
  for (int a : stage.fftAxes)
    dims.push_back(realLast > 0 && a + 1 == static_cast<int>(box.lo.size())
                       ? realLast
                       : box.extent(static_cast<std::size_t>(a)));
  r.size = fftlib::product(dims);
  r.real = realLast > 0;
  if (dims.size() > 1) r.dims = dims;
  r.batch = rest;
  r.precision = request.precision;
  r.direction = request.direction;
  r.scale = request.scale;
  r.format = false;  // nothing is written out: skip the source's layout
  r.inLayout = in;
  r.outLayout = out;
  return r;
}

// How one exchange runs on this rank: whether its messages are written by the FFT before it
// (fused: the FFT's output view) or box-copied out of the block, and read by the FFT after it
// or box-copied into the block. Blocks are row-major in global order wherever they are whole.
struct ExchangeStep {
  Exchange e;
  Box mine, next;        // this rank's blocks before and after
  bool packed = false;   // the sending stage's output is the messages already
  bool direct = false;   // the receiving stage reads the messages as they arrive
  int64_t bytesOut = 0;  // to other ranks
};

struct DistributedPlan::Impl {
  Transport& transport;
  LocalDevice& device;
  DistributedRequest request;
  Layout layout;
  int rank = 0;
  std::size_t elemBytes = 8;  // the exchanged (complex) values
  int64_t realLast = 0;       // a real request's last axis (of reals); 0: complex
  std::size_t realStage = 0;  // the stage of its real transform
  bool realIn = false, realOut = false;
  std::vector<std::unique_ptr<LocalFft>> local;  // per stage; null: no transform here
  std::vector<fftlib::DataLayout> inView, outView;  // per stage: its FFT's layouts
  std::vector<ExchangeStep> steps;                  // stage s -> s + 1
  std::unique_ptr<DeviceArray> in, out;
  std::array<std::unique_ptr<DeviceArray>, 3> work;
  std::vector<std::byte> hostSend, hostRecv;  // a host transport's staging
  PhaseTimes times;

  Impl(Transport& t, LocalDevice& d, const DistributedRequest& r)
      : transport(t), device(d), request(r) {}
  [[nodiscard]] std::size_t last() const { return layout.stages.size() - 1; }
  [[nodiscard]] bool hasFft(std::size_t s) const { return !layout.stages[s].fftAxes.empty(); }
  void build();  // the layout, the exchanges and the views, the buffers
  void checkReal();
  // A block of the real array where `box` is one of the half spectrum (its last axis whole).
  [[nodiscard]] Box realSide(Box box) const;
  [[nodiscard]] Box inputBox() const {
    return realIn ? realSide(layout.box(0, rank)) : layout.box(0, rank);
  }
  [[nodiscard]] Box outputBox() const {
    return realOut ? realSide(layout.box(last(), rank)) : layout.box(last(), rank);
  }
  [[nodiscard]] std::size_t sideBytes(bool real) const { return real ? elemBytes / 2 : elemBytes; }
  void planViews();
  // Whether no lower rank has a block of this rank's shape in stage s (the same local plan).
  [[nodiscard]] bool firstWithShape(std::size_t s) const;
  // The local plans of the first turn (firstWithShape) or the second.
  void planLocal(bool firstTurn);
  // A work buffer that is neither `a` nor `b`.
  DeviceArray* spare(const DeviceArray* a, const DeviceArray* b = nullptr);
  void alltoall(const Exchange& e, DeviceArray& send, DeviceArray& recv);
  // Stage s's output `from` -> the next stage's input; returns where that is.
  DeviceArray* exchange(std::size_t s, DeviceArray* from);
};

void DistributedPlan::Impl::planViews() {
  const std::size_t stages = layout.stages.size();
  inView.assign(stages, {});
  outView.assign(stages, {});
  // The messages' view where they are equal parts; else (fused because they stack in row-major
  // order already) the block's.
  auto view = [](const Box& box, const std::vector<int>& order, Stacking st) {
    const bool even = st.axis >= 0 && box.extent(static_cast<std::size_t>(st.axis)) % st.parts == 0;
    return stackedView(box, order, even ? st : Stacking{});
  };
  for (std::size_t s = 0; s < stages; ++s) {
    const Box box = layout.box(s, rank);
    const auto order = layout.stages[s].storageOrder();
    inView[s] = outView[s] = stackedView(box, order, {});
    if (s > 0 && steps[s - 1].direct) inView[s] = view(box, order, messageStacking(layout, s - 1, false));
    if (s < last() && steps[s].packed) outView[s] = view(box, order, messageStacking(layout, s, true));
  }
}

Box DistributedPlan::Impl::realSide(Box box) const {
  if (box.lo.back() != 0 || box.hi.back() != layout.dims.back())
    throw std::logic_error("distributed: a real side whose last axis is split");
  box.hi.back() = realLast;
  return box;
}

void DistributedPlan::Impl::checkReal() {
  const bool inverse = request.direction == fftlib::Direction::Inverse;
  if (inverse && request.output == OutputDistribution::SameAsInput)
    throw UserError("an inverse real (C2R) distributed transform ends in the transposed "
                    "distribution's real blocks: it needs the transposed output");
  realLast = request.dims.back();
  realStage = 0;
  if (inverse)
    while (realStage < last()) ++realStage;  // the last stage transforms (no exchange follows)
  const auto& axes = layout.stages[realStage].fftAxes;
  if (std::find(axes.begin(), axes.end(), static_cast<int>(request.dims.size()) - 1) == axes.end())
    throw std::logic_error("distributed: the real stage does not transform the last axis");
  realIn = !inverse;
  realOut = inverse;
}

void DistributedPlan::Impl::build() {
  // The exchanged array: the half spectrum of a real request.
  std::vector<int64_t> dims = request.dims;
  if (request.real) dims.back() = dims.back() / 2 + 1;
  layout = makeLayout(dims, request.decomposition, transport.size(), request.grid,
                      request.direction == fftlib::Direction::Inverse, request.output);
  rank = transport.rank();
  elemBytes = static_cast<std::size_t>(fftlib::complexBytes(request.precision));
  if (request.real) checkReal();
  std::size_t most = 0, hostMost = 0;
  for (std::size_t s = 0; s <= last(); ++s) {
    most = std::max(most, static_cast<std::size_t>(layout.box(s, rank).count()));
    local.emplace_back();
    if (s == last()) continue;
    ExchangeStep st;
    st.e = makeExchange(layout, s, rank);
    st.mine = layout.box(s, rank);
    st.next = layout.box(s + 1, rank);
    // Fused where the messages are the block cut into equal parts along one axis (the FFT's
    // view says where each element goes), or the block itself in row-major order.
    auto fits = [](const Box& b, Stacking k, bool viaFft) {
      if (k.axis < 0) return false;
      return stackIsRowMajor(b, k.axis) ||
             (viaFft && b.extent(static_cast<std::size_t>(k.axis)) % k.parts == 0);
    };
    st.packed = fits(st.mine, messageStacking(layout, s, true), hasFft(s));
    st.direct = fits(st.next, messageStacking(layout, s, false), hasFft(s + 1));
    for (int q = 0; q < transport.size(); ++q)
      if (q != rank) st.bytesOut += st.e.sendCounts[static_cast<std::size_t>(q)];
    st.bytesOut *= static_cast<int64_t>(elemBytes);
    most = std::max({most, static_cast<std::size_t>(st.e.sendTotal()),
                     static_cast<std::size_t>(st.e.recvTotal())});
    hostMost = std::max({hostMost, static_cast<std::size_t>(st.e.sendTotal()),
                         static_cast<std::size_t>(st.e.recvTotal())});
    steps.push_back(std::move(st));
  }
  planViews();
  if ((realIn && !inView[0].isDefault()) || (realOut && !outView[last()].isDefault()))
    throw std::logic_error("distributed: a real side not in row-major order");
  in = device.allocate(static_cast<std::size_t>(inputBox().count()) * sideBytes(realIn));
  out = device.allocate(static_cast<std::size_t>(outputBox().count()) * sideBytes(realOut));
  // Two work buffers hold an exchange's send and receive sides; a box copy needs a third.
  const bool copies = std::any_of(steps.begin(), steps.end(),
                                  [](const ExchangeStep& st) { return !st.packed || !st.direct; });
  for (std::size_t k = 0; k < (copies ? 3u : 2u); ++k) work[k] = device.allocate(most * elemBytes);
  if (transport.memory() == MemorySpace::Host) {
    hostSend.resize(hostMost * elemBytes);
    hostRecv.resize(hostMost * elemBytes);
  } else if (!in->address()) {
    throw UserError(fmt::format("the {} transport exchanges device memory that this device's "
                                "buffers do not give (it needs CUDA)", transport.name()));
  }
}

bool DistributedPlan::Impl::firstWithShape(std::size_t s) const {
  std::vector<int64_t> mine;
  const Box b = layout.box(s, rank);
  for (std::size_t a = 0; a < b.lo.size(); ++a) mine.push_back(b.extent(a));
  for (int q = 0; q < rank; ++q) {
    const Box o = layout.box(s, q);
    bool same = true;
    for (std::size_t a = 0; a < o.lo.size(); ++a) same = same && o.extent(a) == mine[a];
    if (same) return false;
  }
  return true;
}

void DistributedPlan::Impl::planLocal(bool firstTurn) {
  for (std::size_t s = 0; s <= last(); ++s) {
    const Box box = layout.box(s, rank);
    if (!hasFft(s) || box.count() == 0 || firstWithShape(s) != firstTurn) continue;
    local[s] = device.plan(localRequest(request, layout.stages[s], box, inView[s], outView[s],
                                        request.real && s == realStage ? realLast : 0));
  }
}

DeviceArray* DistributedPlan::Impl::spare(const DeviceArray* a, const DeviceArray* b) {
  for (auto& w : work)
    if (w && w.get() != a && w.get() != b) return w.get();
  throw std::logic_error("distributed: no spare work buffer");
}

void DistributedPlan::Impl::alltoall(const Exchange& e, DeviceArray& send, DeviceArray& recv) {
  if (transport.memory() == MemorySpace::Device) {
    transport.alltoallv(send.address(), e.sendCounts, e.sendOffsets, recv.address(), e.recvCounts,
                        e.recvOffsets, elemBytes);
    return;
  }
  const auto eb = elemBytes;
  device.download(send, hostSend.data(), static_cast<std::size_t>(e.sendTotal()) * eb);
  transport.alltoallv(hostSend.data(), e.sendCounts, e.sendOffsets, hostRecv.data(), e.recvCounts,
                      e.recvOffsets, eb);
  device.upload(recv, hostRecv.data(), static_cast<std::size_t>(e.recvTotal()) * eb);
}

DeviceArray* DistributedPlan::Impl::exchange(std::size_t s, DeviceArray* from) {
  const ExchangeStep& st = steps[s];
  const auto eb = elemBytes;
  auto t = Clock::now();
  DeviceArray* send = from;
  if (!st.packed) {
    send = spare(from);
    for (std::size_t q = 0; q < st.e.sendRegions.size(); ++q)
      if (st.e.sendCounts[q] > 0)
        device.copy(*from, *send,
                    regionCopy(st.mine, 0, st.e.sendRegions[q],
                               static_cast<std::size_t>(st.e.sendOffsets[q]) * eb,
                               st.e.sendRegions[q], eb));
    device.synchronize();
  }
  times.pack += since(t);
  t = Clock::now();
  // The last stage without a transform (back to the input's blocks) ends in the output.
  const bool toOutput = s + 1 == last() && !hasFft(s + 1);
  DeviceArray* recv = st.direct && toOutput ? out.get() : spare(send);
  alltoall(st.e, *send, *recv);
  times.exchange += since(t);
  if (st.direct) return recv;
  t = Clock::now();
  DeviceArray* next = toOutput ? out.get() : spare(recv);
  for (std::size_t q = 0; q < st.e.recvRegions.size(); ++q)
    if (st.e.recvCounts[q] > 0)
      device.copy(*recv, *next,
                  regionCopy(st.e.recvRegions[q], static_cast<std::size_t>(st.e.recvOffsets[q]) * eb,
                             st.next, 0, st.e.recvRegions[q], eb));
  device.synchronize();
  times.unpack += since(t);
  return next;
}

DistributedPlan DistributedPlan::create(Transport& transport, const DistributedRequest& request,
                                        LocalDevice& device) {
  agreeOnRequest(transport, request.describe(transport.size()));
  auto impl = std::make_shared<Impl>(transport, device, request);
  std::exception_ptr failure;
  try {
    impl->build();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(transport, failure);
  // Two turns: first the lowest rank of each block shape plans (compiles, fills the disk caches
  // of plans and device binaries), then the others, which on the same host (or a shared
  // cache directory) load what it compiled instead of compiling the same kernels at once.
  for (const bool firstTurn : {true, false}) {
    try {
      impl->planLocal(firstTurn);
    } catch (...) {
      failure = std::current_exception();
    }
    agree(transport, failure);
  }
  return DistributedPlan(impl);
}

const DistributedRequest& DistributedPlan::request() const { return impl_->request; }
const Layout& DistributedPlan::layout() const { return impl_->layout; }
Box DistributedPlan::inputBox() const { return impl_->inputBox(); }
Box DistributedPlan::outputBox() const { return impl_->outputBox(); }
const PhaseTimes& DistributedPlan::lastTimes() const { return impl_->times; }

void DistributedPlan::transferBytes(void* host, std::size_t count, std::size_t elemBytes,
                                    bool toDevice) {
  Impl& p = *impl_;
  const bool real = toDevice ? p.realIn : p.realOut;
  const char* side = toDevice ? "input" : "output";
  if (elemBytes != p.sideBytes(real))
    throw UserError(fmt::format("a {} distributed plan's {} is {}-byte {} values, not {}-byte ones",
                                fftlib::precisionName(p.request.precision), side,
                                p.sideBytes(real), real ? "real" : "complex", elemBytes));
  const Box box = toDevice ? inputBox() : outputBox();
  if (count != static_cast<std::size_t>(box.count()))
    throw UserError(fmt::format("distributed {}: {} {} elements, where this rank's block holds {}",
                                toDevice ? "upload" : "download", count, side, box.count()));
  if (toDevice)
    p.device.upload(*p.in, host, count * elemBytes);
  else
    p.device.download(*p.out, host, count * elemBytes);
}

void DistributedPlan::executeOnDevice() {
  Impl& p = *impl_;
  p.times = {};
  const auto start = Clock::now();
  DeviceArray* cur = p.in.get();
  std::exception_ptr failure;
  for (std::size_t s = 0;; ++s) {
    DeviceArray* dst = cur;
    try {
      const auto t = Clock::now();
      if (!failure && p.hasFft(s)) {
        dst = s == p.last() ? p.out.get() : p.spare(cur);
        if (p.local[s]) p.local[s]->execute(*cur, *dst);
        p.device.synchronize();
      }
      p.times.local += since(t);
    } catch (...) {
      failure = std::current_exception();
    }
    // Before the exchange (and at the end): a rank that failed stops every rank here.
    agree(p.transport, failure);
    if (s == p.last()) break;
    try {
      cur = p.exchange(s, dst);
    } catch (...) {
      failure = std::current_exception();
    }
  }
  p.times.total = since(start);
}

void DistributedPlan::executeBytes(const void* in, std::size_t inCount, std::size_t inBytes,
                                   void* out, std::size_t outCount, std::size_t outBytes) {
  Impl& p = *impl_;
  std::exception_ptr failure;
  try {
    if (outBytes != p.sideBytes(p.realOut) ||
        outCount != static_cast<std::size_t>(outputBox().count()))
      throw UserError(fmt::format("distributed execute: {} output elements of {} bytes, where "
                                  "this rank's block holds {} of {}",
                                  outCount, outBytes, outputBox().count(),
                                  p.sideBytes(p.realOut)));
    transferBytes(const_cast<void*>(in), inCount, inBytes, true);
  } catch (...) {
    failure = std::current_exception();
  }
  agree(p.transport, failure);
  executeOnDevice();
  transferBytes(out, outCount, outBytes, false);
}

ExchangeMeasure DistributedPlan::measureExchange(int repeats) {
  Impl& p = *impl_;
  ExchangeMeasure m;
  for (const ExchangeStep& st : p.steps) {
    std::vector<double> t;
    for (int k = 0; k <= repeats; ++k) {  // the first: a warm-up (connections are lazy)
      const auto start = Clock::now();
      p.alltoall(st.e, *p.work[0], *p.work[1]);
      if (k > 0) t.push_back(since(start));
    }
    std::sort(t.begin(), t.end());
    m.seconds += t.empty() ? 0 : t[t.size() / 2];
    m.bytesOut += st.bytesOut;
  }
  return m;
}

std::string DistributedPlan::describe() const {
  const Impl& p = *impl_;
  std::vector<std::string> grid;
  for (int g : p.layout.grid) grid.push_back(std::to_string(g));
  std::string s = fmt::format("distributed {}: grid {}, {} stages, {} exchanges by {}\n",
                              decompositionName(p.request.decomposition), fmt::join(grid, "x"),
                              p.layout.stages.size(), p.steps.size(), p.transport.name());
  for (std::size_t k = 0; k < p.layout.stages.size(); ++k) {
    const Stage& st = p.layout.stages[k];
    std::vector<std::string> axes;
    for (int a : st.fftAxes) axes.push_back(std::to_string(a));
    s += fmt::format("  stage {}: rank {}'s block {}, {}\n", k, p.rank, p.layout.box(k, p.rank).text(),
                     axes.empty() ? std::string("exchange only")
                                  : fmt::format("FFT along axes {}", fmt::join(axes, ",")));
    if (k < p.steps.size())
      s += fmt::format("  exchange {}: packing {}, unpacking {}\n", k,
                       p.steps[k].packed ? "fused into the FFT's output" : "by box copies",
                       p.steps[k].direct ? "fused into the next FFT's input" : "by box copies");
  }
  return s;
}

}  // namespace fftc::distributed
