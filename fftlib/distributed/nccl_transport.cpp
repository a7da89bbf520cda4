// NCCL through dlopen (nccl_transport.h). NCCL's ABI is declared here, not taken from nccl.h,
// so that fftc builds where the CUDA toolkit has no NCCL; these declarations are NCCL 2's
// (stable since 2.0; ncclSend/ncclRecv since 2.7).
#ifdef FFTC_HAVE_CUDA

#include "fftlib/distributed/nccl_transport.h"

#include <cuda.h>
#include <fmt/format.h>
#include <thread>

#include "backends/common/device_error.h"
#include "backends/cuda/driver_api.h"
#include "backends/cuda/dynamic_library.h"

namespace fftc::distributed {

namespace {

using ncclResult = int;  // ncclResult_t: 0 is ncclSuccess
using ncclComm = void*;  // ncclComm_t: an opaque pointer
struct ncclUniqueId {
  char internal[128];  // NCCL_UNIQUE_ID_BYTES
};
constexpr int kNcclInt8 = 0;  // ncclDataType_t ncclInt8 (= ncclChar)

}  // namespace

struct NcclTransport::Api {
  ncclResult (*getUniqueId)(ncclUniqueId*) = nullptr;
  ncclResult (*commInitRank)(ncclComm*, int, ncclUniqueId, int) = nullptr;
  ncclResult (*commDestroy)(ncclComm) = nullptr;
  ncclResult (*groupStart)() = nullptr;
  ncclResult (*groupEnd)() = nullptr;
  ncclResult (*send)(const void*, std::size_t, int, int, ncclComm, CUstream) = nullptr;
  ncclResult (*recv)(void*, std::size_t, int, int, ncclComm, CUstream) = nullptr;
  const char* (*getErrorString)(ncclResult) = nullptr;
  ncclResult (*commGetAsyncError)(ncclComm, ncclResult*) = nullptr;
  ncclResult (*commAbort)(ncclComm) = nullptr;

  void check(ncclResult r, const char* call) const {
    if (r != 0) throw backends::DeviceError(fmt::format("{}: {}", call, getErrorString(r)));
  }
};

namespace {

const backends::cuda::LoadedApi<NcclTransport::Api>& loadNccl() {
  return backends::cuda::loadOnce<NcclTransport::Api>([] {
    auto lib = backends::cuda::DynamicLibrary::open(
        backends::cuda::toolkitLibraryCandidates({"libnccl.so.2", "libnccl.so"}));
    if (!lib.loaded())
      throw backends::DeviceError("NCCL not found (libnccl.so.2): install NCCL's runtime for "
                                  "the NCCL transport", lib.error());
    NcclTransport::Api api;
    auto resolve = [&](auto& fn, const char* name) {
      fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(lib.symbol(name));
      if (!fn) throw backends::DeviceError(fmt::format("{} has no {}: NCCL 2.7 or later is "
                                                       "needed", lib.path(), name));
    };
    resolve(api.getUniqueId, "ncclGetUniqueId");
    resolve(api.commInitRank, "ncclCommInitRank");
    resolve(api.commDestroy, "ncclCommDestroy");
    resolve(api.groupStart, "ncclGroupStart");
    resolve(api.groupEnd, "ncclGroupEnd");
    resolve(api.send, "ncclSend");
    resolve(api.recv, "ncclRecv");
    resolve(api.getErrorString, "ncclGetErrorString");
    resolve(api.commGetAsyncError, "ncclCommGetAsyncError");
    resolve(api.commAbort, "ncclCommAbort");
    return api;
  });
}

constexpr ncclResult kNcclInProgress = 7;  // ncclInProgress (NCCL 2.14): not an error

}  // namespace

void NcclTransport::wait() {
  // Polls the stream and NCCL's asynchronous error instead of blocking in cuCtxSynchronize: a
  // failed exchange (a peer gone, a network error) aborts the communicator and throws, rather
  // than leaving this rank waiting for data that never comes.
  const auto& driver = backends::cuda::DriverApi::get();
  while (true) {
    const CUresult done = driver.cuStreamQuery(nullptr);
    if (done == CUDA_SUCCESS) return;
    if (done != CUDA_ERROR_NOT_READY) driver.check(done, "cuStreamQuery");
    ncclResult async = 0;
    api_->check(api_->commGetAsyncError(comm_, &async), "ncclCommGetAsyncError");
    if (async != 0 && async != kNcclInProgress) {
      api_->commAbort(comm_);
      comm_ = nullptr;
      throw backends::DeviceError(fmt::format("NCCL: {} (the communicator was aborted)",
                                              api_->getErrorString(async)));
    }
    std::this_thread::yield();
  }
}

void NcclTransport::checkOpen() const {
  if (!comm_) throw backends::DeviceError("NCCL: the communicator was aborted by an earlier error");
}

bool NcclTransport::available(std::string* reason) { return loadNccl().available(reason); }

NcclTransport::NcclTransport(Transport& control) : control_(control) {
  std::exception_ptr failure;
  try {
    api_ = &loadNccl().get();
  } catch (...) {
    failure = std::current_exception();
  }
  agree(control_, failure);
  ncclUniqueId id{};
  try {  // agreed before the broadcast, which the other ranks would otherwise wait in
    if (control_.rank() == 0) api_->check(api_->getUniqueId(&id), "ncclGetUniqueId");
  } catch (...) {
    failure = std::current_exception();
  }
  agree(control_, failure);
  control_.broadcast(&id, sizeof id, 0);
  try {
    api_->check(api_->commInitRank(&comm_, control_.size(), id, control_.rank()),
                "ncclCommInitRank");
  } catch (...) {
    failure = std::current_exception();
  }
  agree(control_, failure);
}

NcclTransport::~NcclTransport() {
  if (comm_) api_->commDestroy(comm_);
}

void NcclTransport::alltoallv(const void* send, const std::vector<int64_t>& sendCounts,
                              const std::vector<int64_t>& sendOffsets, void* recv,
                              const std::vector<int64_t>& recvCounts,
                              const std::vector<int64_t>& recvOffsets, std::size_t elemBytes) {
  checkOpen();
  const auto eb = static_cast<int64_t>(elemBytes);
  api_->check(api_->groupStart(), "ncclGroupStart");
  for (int q = 0; q < size(); ++q) {
    const auto k = static_cast<std::size_t>(q);
    if (sendCounts[k] > 0)
      api_->check(api_->send(static_cast<const std::byte*>(send) + sendOffsets[k] * eb,
                             static_cast<std::size_t>(sendCounts[k] * eb), kNcclInt8, q, comm_,
                             nullptr),
                  "ncclSend");
    if (recvCounts[k] > 0)
      api_->check(api_->recv(static_cast<std::byte*>(recv) + recvOffsets[k] * eb,
                             static_cast<std::size_t>(recvCounts[k] * eb), kNcclInt8, q, comm_,
                             nullptr),
                  "ncclRecv");
  }
  api_->check(api_->groupEnd(), "ncclGroupEnd");
  wait();
}

void NcclTransport::gatherv(const void* send, int64_t count, void* recv,
                            const std::vector<int64_t>& counts,
                            const std::vector<int64_t>& offsets, std::size_t elemBytes,
                            int root) {
  checkOpen();
  const auto eb = static_cast<int64_t>(elemBytes);
  api_->check(api_->groupStart(), "ncclGroupStart");
  if (count > 0)
    api_->check(api_->send(send, static_cast<std::size_t>(count * eb), kNcclInt8, root, comm_,
                           nullptr),
                "ncclSend");
  if (rank() == root)
    for (int q = 0; q < size(); ++q) {
      const auto k = static_cast<std::size_t>(q);
      if (counts[k] > 0)
        api_->check(api_->recv(static_cast<std::byte*>(recv) + offsets[k] * eb,
                               static_cast<std::size_t>(counts[k] * eb), kNcclInt8, q, comm_,
                               nullptr),
                    "ncclRecv");
    }
  api_->check(api_->groupEnd(), "ncclGroupEnd");
  wait();
}

}  // namespace fftc::distributed

#endif
