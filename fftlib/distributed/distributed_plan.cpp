// The distributed FFT's stages: local transforms, host packing, all-to-all (distributed_plan.h).
#include "fftlib/distributed/distributed_plan.h"

#include <algorithm>
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
  return fmt::format("{} {} over {} ranks (grid {}) {} {}{} {} output", fmt::join(d, "x"),
                     decompositionName(decomposition), ranks,
                     g.empty() ? "auto" : fmt::format("{}", fmt::join(g, "x")),
                     fftlib::precisionName(precision), fftlib::directionName(direction),
                     scale ? " scaled" : "",
                     output == OutputDistribution::Transposed ? "transposed" : "same-as-input");
}

namespace {

std::vector<int> naturalOrder(std::size_t axes) {
  std::vector<int> o(axes);
  for (std::size_t a = 0; a < axes; ++a) o[a] = static_cast<int>(a);
  return o;
}

// The layout of a side in global order when the stage's storage puts fftAxes last: possible
// as FFTW's (stride, dist) when the transformed axes lead, the batched ones trail.
fftlib::DataLayout globalOrderLayout(const Stage& stage, int64_t rest) {
  for (std::size_t k = 0; k < stage.fftAxes.size(); ++k)
    if (stage.fftAxes[k] != static_cast<int>(k))
      throw std::logic_error("distributed: a stage in global order whose transformed axes do "
                             "not lead");
  return fftlib::DataLayout{{}, rest, 1};
}

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) {
  return std::chrono::duration<double>(Clock::now() - t).count();
}

}  // namespace

fftlib::FftRequest localRequest(const DistributedRequest& request, const Stage& stage,
                                const Box& box, bool globalOrderIn, bool globalOrderOut) {
  fftlib::FftRequest r;
  int64_t rest = 1;
  for (std::size_t a = 0; a < box.lo.size(); ++a)
    if (std::find(stage.fftAxes.begin(), stage.fftAxes.end(), static_cast<int>(a)) ==
        stage.fftAxes.end())
      rest *= box.extent(a);
  std::vector<int64_t> dims;
  for (int a : stage.fftAxes) dims.push_back(box.extent(static_cast<std::size_t>(a)));
  r.size = fftlib::product(dims);
  if (dims.size() > 1) r.dims = dims;
  r.batch = rest;
  r.precision = request.precision;
  r.direction = request.direction;
  r.scale = request.scale;
  r.format = false;  // nothing is written out: skip the source's layout
  // Global order differs from the stage's storage unless the transformed axes trail already.
  const bool trailing = stage.storageOrder() == naturalOrder(box.lo.size());
  if (rest > 1 && !trailing) {
    if (globalOrderIn) r.inLayout = globalOrderLayout(stage, rest);
    if (globalOrderOut) r.outLayout = globalOrderLayout(stage, rest);
  }
  return r;
}

struct DistributedPlan::Impl {
  Transport& transport;
  DistributedRequest request;
  Layout layout;
  int rank = 0;
  std::size_t elemBytes = 8;
  std::vector<std::unique_ptr<LocalFft>> local;  // per stage; null: no transform here
  std::vector<Exchange> exchanges;               // stage s -> s + 1
  std::vector<std::vector<int>> inOrder, outOrder;
  std::vector<std::byte> stageBuf, fftOut, send, recv;
  PhaseTimes times;

  Impl(Transport& t, const DistributedRequest& r) : transport(t), request(r) {}
  [[nodiscard]] std::size_t last() const { return layout.stages.size() - 1; }
  [[nodiscard]] bool hasFft(std::size_t s) const { return !layout.stages[s].fftAxes.empty(); }
  void build();  // the layout, the exchanges, the buffers
  // Whether no lower rank has a block of this rank's shape in stage s (the same local plan).
  [[nodiscard]] bool firstWithShape(std::size_t s) const;
  // The local plans of the first turn (firstWithShape) or the second.
  void planLocal(const LocalFftFactory& factory, bool firstTurn);
  void exchange(std::size_t s, const std::byte* stageOut, std::byte* next);
};

void DistributedPlan::Impl::build() {
  layout = makeLayout(request.dims, request.decomposition, transport.size(), request.grid,
                      request.direction == fftlib::Direction::Inverse, request.output);
  rank = transport.rank();
  elemBytes = static_cast<std::size_t>(fftlib::complexBytes(request.precision));
  const auto natural = naturalOrder(request.dims.size());
  std::size_t most = 0, sendMost = 0, recvMost = 0;
  for (std::size_t s = 0; s <= last(); ++s) {
    const Stage& stage = layout.stages[s];
    inOrder.push_back(s == 0 ? natural : stage.storageOrder());
    outOrder.push_back(!hasFft(s) ? inOrder.back() : s == last() ? natural : stage.storageOrder());
    const Box box = layout.box(s, rank);
    most = std::max(most, static_cast<std::size_t>(box.count()));
    local.emplace_back();
    if (s < last()) {
      exchanges.push_back(makeExchange(layout, s, rank));
      sendMost = std::max(sendMost, static_cast<std::size_t>(exchanges.back().sendTotal()));
      recvMost = std::max(recvMost, static_cast<std::size_t>(exchanges.back().recvTotal()));
    }
  }
  stageBuf.resize(most * elemBytes);
  fftOut.resize(most * elemBytes);
  send.resize(sendMost * elemBytes);
  recv.resize(recvMost * elemBytes);
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

void DistributedPlan::Impl::planLocal(const LocalFftFactory& factory, bool firstTurn) {
  for (std::size_t s = 0; s <= last(); ++s) {
    const Box box = layout.box(s, rank);
    if (!hasFft(s) || box.count() == 0 || firstWithShape(s) != firstTurn) continue;
    local[s] = factory(localRequest(request, layout.stages[s], box, s == 0, s == last()));
  }
}

void DistributedPlan::Impl::exchange(std::size_t s, const std::byte* stageOut, std::byte* next) {
  const Exchange& e = exchanges[s];
  const Box mine = layout.box(s, rank), after = layout.box(s + 1, rank);
  const auto eb = static_cast<int64_t>(elemBytes);
  auto t = Clock::now();
  // A message is its region in the sender's order: the receiver reads it with outOrder[s].
  for (std::size_t q = 0; q < e.sendRegions.size(); ++q)
    copyRegion(stageOut, mine, outOrder[s], send.data() + e.sendOffsets[q] * eb, e.sendRegions[q],
               outOrder[s], e.sendRegions[q], elemBytes);
  times.pack += since(t);
  t = Clock::now();
  transport.alltoallv(send.data(), e.sendCounts, e.sendOffsets, recv.data(), e.recvCounts,
                      e.recvOffsets, elemBytes);
  times.exchange += since(t);
  t = Clock::now();
  for (std::size_t q = 0; q < e.recvRegions.size(); ++q)
    copyRegion(recv.data() + e.recvOffsets[q] * eb, e.recvRegions[q], outOrder[s], next, after,
               inOrder[s + 1], e.recvRegions[q], elemBytes);
  times.unpack += since(t);
}

DistributedPlan DistributedPlan::create(Transport& transport, const DistributedRequest& request,
                                        const LocalFftFactory& localFft) {
  if (transport.memory() != MemorySpace::Host)
    throw UserError("a distributed plan packs its exchanges on the host: it needs a host "
                    "transport (MPI), not a device one");
  agreeOnRequest(transport, request.describe(transport.size()));
  auto impl = std::make_shared<Impl>(transport, request);
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
      impl->planLocal(localFft, firstTurn);
    } catch (...) {
      failure = std::current_exception();
    }
    agree(transport, failure);
  }
  return DistributedPlan(impl);
}

const DistributedRequest& DistributedPlan::request() const { return impl_->request; }
const Layout& DistributedPlan::layout() const { return impl_->layout; }
Box DistributedPlan::inputBox() const { return impl_->layout.box(0, impl_->rank); }
Box DistributedPlan::outputBox() const { return impl_->layout.box(impl_->last(), impl_->rank); }
const PhaseTimes& DistributedPlan::lastTimes() const { return impl_->times; }

void DistributedPlan::executeBytes(const void* in, std::size_t inCount, void* out,
                                   std::size_t outCount, std::size_t elemBytes) {
  Impl& p = *impl_;
  std::exception_ptr failure;
  try {
    if (elemBytes != p.elemBytes)
      throw UserError(fmt::format("a {} distributed plan executed on {}-byte complex values",
                                  fftlib::precisionName(p.request.precision), elemBytes));
    if (inCount != static_cast<std::size_t>(inputBox().count()) ||
        outCount != static_cast<std::size_t>(outputBox().count()))
      throw UserError(fmt::format("distributed execute: {} input and {} output elements, where "
                                  "this rank's blocks hold {} and {}",
                                  inCount, outCount, inputBox().count(), outputBox().count()));
  } catch (...) {
    failure = std::current_exception();
  }
  agree(p.transport, failure);
  p.times = {};
  const auto start = Clock::now();
  auto* output = static_cast<std::byte*>(out);
  const auto* cur = static_cast<const std::byte*>(in);
  for (std::size_t s = 0;; ++s) {
    std::byte* fftDst = s == p.last() ? output : p.fftOut.data();
    try {
      const auto t = Clock::now();
      if (p.local[s]) p.local[s]->execute(cur, fftDst);
      p.times.local += since(t);
    } catch (...) {
      failure = std::current_exception();
    }
    // Before the exchange (and at the end): a rank that failed stops every rank here.
    agree(p.transport, failure);
    if (s == p.last()) break;
    const std::byte* stageOut = p.hasFft(s) ? fftDst : cur;
    std::byte* next = (s + 1 == p.last() && !p.hasFft(s + 1)) ? output : p.stageBuf.data();
    p.exchange(s, stageOut, next);
    cur = next;
  }
  p.times.total = since(start);
}

std::string DistributedPlan::describe() const {
  const Impl& p = *impl_;
  std::vector<std::string> grid;
  for (int g : p.layout.grid) grid.push_back(std::to_string(g));
  std::string s = fmt::format("distributed {}: grid {}, {} stages, {} exchanges (MPI_Alltoallv, "
                              "packed on the host)\n",
                              decompositionName(p.request.decomposition), fmt::join(grid, "x"),
                              p.layout.stages.size(), p.exchanges.size());
  for (std::size_t k = 0; k < p.layout.stages.size(); ++k) {
    const Stage& st = p.layout.stages[k];
    std::vector<std::string> axes;
    for (int a : st.fftAxes) axes.push_back(std::to_string(a));
    s += fmt::format("  stage {}: rank {}'s block {}, {}\n", k, p.rank, p.layout.box(k, p.rank).text(),
                     axes.empty() ? std::string("exchange only")
                                  : fmt::format("FFT along axes {}", fmt::join(axes, ",")));
  }
  return s;
}

}  // namespace fftc::distributed
